// replaced by the graph readers
