// Benchmark of the cost of symmetry in `rulebook explore`: every shipped variant explored
// with its symmetries and with --no-symmetry, at a depth where the plain run takes about
// --target CPU seconds, runs alternated, medians of CPU time (the machine may be shared;
// wall time is printed beside), and their ratio against the bound of 1.5.
//
//   bench_symmetry [--runs 5] [--threads 1] [--target 1.0] [--max-depth 60] [FILE[#name=value]...]
//
// FILE#name=value explores FILE with `--setup name=value` (Garnsi 6x6 with blocked cells).
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include <fmt/core.h>
#include <nlohmann/json.hpp>

#include "process_run.h"

namespace {

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[v.size() / 2];
}

struct Row {
  std::string file;
  int depth = 0;
  uint64_t distinct = 0, classes = 0, group = 0;
  std::vector<double> plain_cpu, sym_cpu, plain_wall, sym_wall;
  bool same_states = true;
};

/// explore's JSON: distinct states over all depths, the deepest depth's classes, the group.
void read_counts(const std::string& out, uint64_t& distinct, uint64_t& classes, uint64_t& group) {
  const nlohmann::json j = nlohmann::json::parse(out, nullptr, false);
  if (j.is_discarded()) return;
  distinct = j.value("total_distinct", uint64_t{0});
  group = j.value("group_order", uint64_t{0});
  classes = 0;
  if (j.contains("depths"))
    for (const auto& d : j["depths"]) classes += d.value("up_to_symmetry", uint64_t{0});
}

}  // namespace

int main(int argc, char** argv) {
  int runs = 5, threads = 1, max_depth = 60;
  double target = 1.0;
  std::vector<std::string> files;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--runs" && i + 1 < argc) runs = std::atoi(argv[++i]);
    else if (a == "--threads" && i + 1 < argc) threads = std::atoi(argv[++i]);
    else if (a == "--target" && i + 1 < argc) target = std::atof(argv[++i]);
    else if (a == "--max-depth" && i + 1 < argc) max_depth = std::atoi(argv[++i]);
    else if (!a.empty() && a[0] != '-') {
      const size_t hash = a.find('#');
      files.push_back(std::filesystem::absolute(a.substr(0, hash)).string() +
                      (hash == std::string::npos ? "" : a.substr(hash)));
    }
    else {
      fmt::print(stderr, "usage: bench_symmetry [--runs N] [--threads N] [--target SECONDS] [--max-depth N] [FILE...]\n");
      return 2;
    }
  }
  if (files.empty()) {
    for (const auto& e : std::filesystem::recursive_directory_iterator(RULEBOOK_SOURCE_DIR "/variants"))
      if (e.path().extension() == ".rules") files.push_back(e.path().string());
    std::sort(files.begin(), files.end());
  }
  char tmpl[] = "/tmp/bench-symmetry-XXXXXX";
  const std::string dir = mkdtemp(tmpl);
  auto explore = [&](const std::string& file, int depth, bool symmetry) {
    const size_t hash = file.find('#');
    std::vector<std::string> argv = {RULEBOOK_BINARY, "explore", file.substr(0, hash), "--depth", std::to_string(depth),
                                     "--threads",     std::to_string(threads), "--json", "--quiet"};
    if (hash != std::string::npos) {
      argv.push_back("--setup");
      argv.push_back(file.substr(hash + 1));
    }
    if (!symmetry) argv.push_back("--no-symmetry");
    return bench::run(argv, dir);
  };
  fmt::print("explore with symmetry / --no-symmetry, {} runs each alternated, {} thread(s); CPU seconds "
             "(medians), wall seconds in brackets\n\n",
             runs, threads);
  fmt::print("| variant | depth | distinct | classes | group | --no-symmetry s | symmetry s | ratio |\n");
  fmt::print("|---|---|---|---|---|---|---|---|\n");
  std::fflush(stdout);
  bool ok = true;
  double worst = 0;
  for (const std::string& file : files) {
    Row row;
    row.file = std::filesystem::path(file).filename().string();  // with its #setup
    // The depth: of the last below the target and the first past it, the nearer to the
    // target as a ratio (games grow by large factors per depth), but not one under a
    // quarter of the target: so short a run measures the fixed cost of finding the group
    // (0.1 s on the 9-player boards), not the canonical forms. Or the last the game has.
    uint64_t last_distinct = UINT64_MAX;
    double last_seconds = 0;
    for (int d = 1; d <= max_depth; ++d) {
      const bench::Run r = explore(file, d, false);
      if (r.status != 0) break;
      uint64_t distinct = 0, classes = 0, group = 0;
      read_counts(r.out, distinct, classes, group);
      row.depth = d;
      if (distinct == last_distinct) break;
      if (r.cpu_seconds >= target) {
        if (d > 1 && last_seconds >= target / 4 && target / last_seconds < r.cpu_seconds / target) row.depth = d - 1;
        break;
      }
      last_distinct = distinct;
      last_seconds = r.cpu_seconds;
    }
    if (row.depth == 0) {
      ok = false;
      continue;
    }
    for (int k = 0; k < runs; ++k) {
      const bench::Run plain = explore(file, row.depth, false), sym = explore(file, row.depth, true);
      if (plain.status != 0 || sym.status != 0) {
        ok = false;
        break;
      }
      uint64_t pd = 0, pc = 0, pg = 0;
      read_counts(plain.out, pd, pc, pg);
      read_counts(sym.out, row.distinct, row.classes, row.group);
      row.same_states = row.same_states && pd == row.distinct;
      row.plain_cpu.push_back(plain.cpu_seconds);
      row.sym_cpu.push_back(sym.cpu_seconds);
      row.plain_wall.push_back(plain.seconds);
      row.sym_wall.push_back(sym.seconds);
    }
    // Each row as soon as it is measured: a long benchmark stopped early keeps its rows.
    const Row& r = row;
    const double ratio = median(r.sym_cpu) / std::max(1e-9, median(r.plain_cpu));
    worst = std::max(worst, ratio);
    fmt::print("| {} | {} | {} | {} | {} | {:.2f} ({:.2f}) | {:.2f} ({:.2f}) | {:.2f} |\n", r.file, r.depth, r.distinct,
               r.classes, r.group, median(r.plain_cpu), median(r.plain_wall), median(r.sym_cpu),
               median(r.sym_wall), ratio);
    std::fflush(stdout);
    if (!r.same_states) {
      fmt::print("  {}: the two runs count different distinct states\n", r.file);
      ok = false;
    }
  }
  fmt::print("\nworst ratio {:.2f}: {}\n", worst, worst <= 1.5 ? "within 1.5x" : "ABOVE 1.5x");
  std::filesystem::remove_all(dir);
  return ok && worst <= 1.5 ? 0 : 1;
}
