"""The networkx.backend_info entry point of the deltasplit backend. NetworkX loads it while it is
being imported itself, so this module must not import networkx (nx_backend.py does)."""

FUNCTIONS = {
    "single_source_dijkstra": "Delta-stepping from the source; paths from its shortest-path tree.",
    "single_source_dijkstra_path_length": "Delta-stepping from the source.",
    "dijkstra_path": "Delta-stepping from the source; the path from its shortest-path tree.",
    "dijkstra_path_length": "Delta-stepping from the source.",
    "all_pairs_dijkstra_path_length": "Delta-stepping from every node, on one uploaded graph.",
    "bellman_ford_path_length": "Delta-stepping (non-negative weights only; others fall back to NetworkX).",
    "closeness_centrality": "Every node's distance sum and reach, reduced on the device without rows (row_summaries).",
}


def get_info():
    """What NetworkX shows about the backend (nx.utils.backends.backend_info["deltasplit"])."""
    return {
        "backend_name": "deltasplit",
        "project": "deltasplit",
        "package": "deltasplit",
        "short_summary": "GPU delta-stepping shortest paths (CPU fallback).",
        "functions": {name: {"additional_docs": doc} for name, doc in FUNCTIONS.items()},
    }
