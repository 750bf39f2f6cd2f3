// Graph loading speed: how fast read_graph turns the bundled graph files into a clean CSR.
// For each file it times (median of several runs) the gzip file as shipped, the same text
// uncompressed, and the binary cache made from it, each with 1 thread and with all hardware
// threads. Throughput is reported in MB/s of decompressed text and in millions of entries
// (data lines) per second, so that parsing cost can be told apart from decompression cost.
//
//   graph_load_bench [--runs R] [--out DIR] [--block-sweep] [FILE ...]
//     FILE: default road-FLA, soc-slashdot0902, USA-road-d.NY, cit-HepPh from datasets/
//     DIR:  also write DIR/graph_loading.md and DIR/graph_loading.csv (bench/run_all.sh)
//     --block-sweep: also load each gzip file with 1, 2, 4, 8 and 32 MiB blocks
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <string>
#include <thread>
#include <vector>

#include <sys/resource.h>
#include <unistd.h>
#include <zlib.h>

#include "deltasplit/graph/io.hpp"

using namespace deltasplit::graph;

namespace {

struct timing {
  double median, best, cpu;  // wall-clock median and best; CPU seconds (all threads), median
};

double cpu_seconds() {
  rusage u {};
  ::getrusage(RUSAGE_SELF, &u);
  return double(u.ru_utime.tv_sec + u.ru_stime.tv_sec) + 1e-6 * double(u.ru_utime.tv_usec + u.ru_stime.tv_usec);
}

timing time_reads(int runs, const std::string& path, const read_options& o, csr* keep) {
  std::vector<double> t, cpu;
  for (int r = 0; r < runs; ++r) {
    double cpu_start = cpu_seconds();
    auto start = std::chrono::steady_clock::now();
    csr g = read_graph(path, o);
    t.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    cpu.push_back(cpu_seconds() - cpu_start);
    if (keep && r == 0) *keep = std::move(g);
  }
  std::sort(t.begin(), t.end());
  std::sort(cpu.begin(), cpu.end());
  return {t[t.size() / 2], t.front(), cpu[cpu.size() / 2]};
}

// Writes the decompressed text of a gzip file to `out` (the "uncompressed" variant).
void gunzip(const std::string& in, const std::string& out) {
  gzFile f = gzopen(in.c_str(), "rb");
  FILE* o = std::fopen(out.c_str(), "wb");
  if (!f || !o) throw std::runtime_error("cannot gunzip " + in);
  std::vector<char> buf(1 << 20);
  int got;
  while ((got = gzread(f, buf.data(), static_cast<unsigned>(buf.size()))) > 0) std::fwrite(buf.data(), 1, std::size_t(got), o);
  gzclose(f);
  std::fclose(o);
}

std::string base_name(const std::string& p) { return p.substr(p.find_last_of('/') + 1); }

struct row {
  std::string graph, input;
  unsigned threads;
  double mb, entries;
  std::uint64_t arcs;
  timing t;
};

void write_markdown(std::ostream& os, const std::vector<row>& rows, int runs, unsigned hw) {
  os << "| graph | input | threads | text MB | entries | arcs | median s | best s | cpu s | MB/s | Mentries/s |\n"
     << "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n";
  char line[512];
  for (const row& r : rows) {
    std::snprintf(line, sizeof line, "| %s | %s | %u | %.1f | %.0f | %llu | %.4f | %.4f | %.4f | %.0f | %.1f |\n",
                  r.graph.c_str(), r.input.c_str(), r.threads, r.mb, r.entries, static_cast<unsigned long long>(r.arcs),
                  r.t.median, r.t.best, r.t.cpu, r.mb / r.t.median, r.entries / r.t.median / 1e6);
    os << line;
  }
  os << "\nMB/s and Mentries/s from the median; MB are decompressed text bytes (for a cache: the\n"
     << "text it was made from); entries are data lines (edges as stored in the file); cpu s is the\n"
     << "process CPU time of one load (all threads), which other work on the machine inflates less.\n"
     << "runs per cell: " << runs << " (median), hardware threads: " << hw << "\n";
}

void write_csv(std::ostream& os, const std::vector<row>& rows) {
  os << "graph,input,threads,text_mb,entries,arcs,median_s,best_s,cpu_s,mb_per_s,mentries_per_s\n";
  for (const row& r : rows)
    os << r.graph << "," << r.input << "," << r.threads << "," << r.mb << "," << r.entries << "," << r.arcs << ","
       << r.t.median << "," << r.t.best << "," << r.t.cpu << "," << r.mb / r.t.median << ","
       << r.entries / r.t.median / 1e6 << "\n";
}

}  // namespace

int main(int argc, char** argv) {
  int runs = 5;
  std::string out_dir;
  bool block_sweep = false;
  std::vector<std::string> files;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--runs") == 0 && i + 1 < argc)
      runs = std::max(1, std::atoi(argv[++i]));
    else if (std::strcmp(argv[i], "--out") == 0 && i + 1 < argc)
      out_dir = argv[++i];
    else if (std::strcmp(argv[i], "--block-sweep") == 0)
      block_sweep = true;
    else
      files.push_back(argv[i]);
  }
  if (files.empty()) {
    std::string dir = std::string(DELTASPLIT_SOURCE_DIR) + "/datasets/";
    if (::access("datasets/road-FLA.mtx.gz", R_OK) == 0) dir = "datasets/";
    for (const char* f : {"road-FLA.mtx.gz", "soc-slashdot0902.mtx.gz", "USA-road-d.NY.gr.gz", "cit-HepPh.mtx.gz"})
      files.push_back(dir + f);
  }
  const unsigned hw = std::max(1u, std::thread::hardware_concurrency());
  char tmpl[] = "/tmp/graph_load_bench-XXXXXX";
  if (!::mkdtemp(tmpl)) return 1;
  const std::string tmp = tmpl;

  std::vector<row> rows;
  try {
    for (const std::string& file : files) {
      csr g;
      read_options probe;
      time_reads(1, file, probe, &g);
      std::string plain = tmp + "/" + base_name(file) + ".txt";
      gunzip(file, plain);
      std::string cache = tmp + "/" + base_name(file) + ".dsg";
      write_graph(g, cache);
      const bool gz = file.size() > 3 && file.compare(file.size() - 3, 3, ".gz") == 0;
      struct variant {
        const char* name;
        std::string path;
      };
      for (const variant& v : {variant{gz ? "gzip" : "file", file}, variant{"text", plain}, variant{"cache", cache}}) {
        for (unsigned threads : {1u, hw}) {
          if (threads == hw && hw == 1) continue;
          read_options o;
          o.threads = threads;
          rows.push_back({base_name(file), v.name, threads, double(g.origin.text_bytes) / 1e6,
                          double(g.origin.entries_read), g.num_arcs(), time_reads(runs, v.path, o, nullptr)});
          std::cerr << "." << std::flush;
        }
      }
      // The gzip block size trades parallel chunk size against how soon inflating (read-ahead
      // thread) and parsing start to overlap.
      for (std::size_t mib : {1, 2, 4, 8, 32}) {
        if (!block_sweep || !gz) break;
        read_options o;
        o.block_bytes = mib << 20;
        rows.push_back({base_name(file), "gzip, " + std::to_string(mib) + " MiB blocks", hw,
                        double(g.origin.text_bytes) / 1e6, double(g.origin.entries_read), g.num_arcs(),
                        time_reads(runs, file, o, nullptr)});
      }
      std::remove(plain.c_str());
      std::remove(cache.c_str());
    }
  } catch (const std::exception& e) {
    std::cerr << "graph_load_bench: " << e.what() << "\n";
    ::rmdir(tmp.c_str());
    return 1;
  }
  ::rmdir(tmp.c_str());
  std::cerr << "\n";
  write_markdown(std::cout, rows, runs, hw);
  if (!out_dir.empty()) {
    std::ofstream md(out_dir + "/graph_loading.md"), csv(out_dir + "/graph_loading.csv");
    write_markdown(md, rows, runs, hw);
    write_csv(csv, rows);
    if (!md || !csv) {
      std::cerr << "graph_load_bench: cannot write into " << out_dir << "\n";
      return 1;
    }
  }
  return 0;
}
