// Benchmark of `rulebook explore` against the hand-written state counter (bench/hand) and
// SPIN (bench/spin) on the same model: the placement phase of Garnsi-Malom 6x6, blocked
// cells (0,0) and (5,5), every distinct position of depths 0..DEPTH. Each tool runs as its
// own process; we time it (wall clock) and read its peak resident memory from wait4, and
// check that all three stored the same number of states. Median of several runs; ratios.
//
//   bench_explore [--depth 5] [--runs 3] [--threads 2] [--no-spin]
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <regex>
#include <string>
#include <vector>

#include <fmt/core.h>

#include "process_run.h"

namespace {

using bench::Run;
using bench::run;

uint64_t sum_matches(const std::string& text, const std::regex& re) {
  uint64_t n = 0;
  for (auto it = std::sregex_iterator(text.begin(), text.end(), re); it != std::sregex_iterator(); ++it)
    n += std::stoull((*it)[1].str());
  return n;
}

struct Measure {
  std::string name;
  std::vector<double> seconds;
  std::vector<double> bytes_per_state;
  uint64_t states = 0;
  double median_seconds() const {
    std::vector<double> s = seconds;
    std::sort(s.begin(), s.end());
    return s.empty() ? 0 : s[s.size() / 2];
  }
  double median_bytes() const {
    std::vector<double> s = bytes_per_state;
    std::sort(s.begin(), s.end());
    return s.empty() ? 0 : s[s.size() / 2];
  }
  double rate() const { return median_seconds() > 0 ? double(states) / median_seconds() : 0; }
};

}  // namespace

int main(int argc, char** argv) {
  int depth = 5, runs = 3, threads = 2;
  bool spin = true;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--depth" && i + 1 < argc) depth = std::atoi(argv[++i]);
    else if (a == "--runs" && i + 1 < argc) runs = std::atoi(argv[++i]);
    else if (a == "--threads" && i + 1 < argc) threads = std::atoi(argv[++i]);
    else if (a == "--no-spin") spin = false;
    else {
      fmt::print(stderr, "usage: bench_explore [--depth N] [--runs N] [--threads N] [--no-spin]\n");
      return 2;
    }
  }
  char tmpl[] = "/tmp/bench-explore-XXXXXX";
  const std::string dir = mkdtemp(tmpl);
  const std::string rules = RULEBOOK_SOURCE_DIR "/variants/garnsi-malom/garnsi-6x6.rules";
  const std::string model = RULEBOOK_SOURCE_DIR "/bench/spin/garnsi6_placement.pml";
  fmt::print("Distinct states of Garnsi-Malom 6x6 placement, blocked (0,0) (5,5), depths 0..{}\n", depth);
  fmt::print("median of {} runs; states/s = distinct states stored / wall time; bytes per state = "
             "peak resident memory / states held at the peak\n\n", runs);

  Measure ex{"rulebook explore", {}, {}, 0}, hand{"hand-written", {}, {}, 0}, sp{"SPIN", {}, {}, 0};
  const std::regex ex_distinct(R"("distinct": (\d+))");
  const std::regex hand_distinct(R"(distinct (\d+))");
  for (int k = 0; k < runs; ++k) {
    // The explorer holds depth d - 1 and d at the peak (the last two); so does the hand
    // counter. SPIN holds every depth at once.
    Run r = run({RULEBOOK_BINARY, "explore", rules, "--depth", std::to_string(depth), "--setup",
                 "blocked=r0c0,r5c5", "--threads", std::to_string(threads), "--json", "--quiet"},
                dir);
    if (r.status != 0) return 1;
    std::vector<uint64_t> per_depth;
    for (auto it = std::sregex_iterator(r.out.begin(), r.out.end(), ex_distinct);
         it != std::sregex_iterator(); ++it)
      per_depth.push_back(std::stoull((*it)[1].str()));
    ex.states = 0;
    for (uint64_t n : per_depth) ex.states += n;
    const uint64_t held = per_depth.size() >= 2 ? per_depth[per_depth.size() - 1] + per_depth[per_depth.size() - 2] : ex.states;
    ex.seconds.push_back(r.seconds);
    ex.bytes_per_state.push_back(double(r.max_rss) / double(held));

    Run h = run({HAND_PERFT_BINARY, "garnsi6", std::to_string(depth), "--states"}, dir);
    if (h.status != 0) return 1;
    std::vector<uint64_t> hd;
    for (auto it = std::sregex_iterator(h.out.begin(), h.out.end(), hand_distinct);
         it != std::sregex_iterator(); ++it)
      hd.push_back(std::stoull((*it)[1].str()));
    hand.states = 1 + sum_matches(h.out, hand_distinct);
    const uint64_t hheld = hd.size() >= 2 ? hd[hd.size() - 1] + hd[hd.size() - 2] : hand.states;
    hand.seconds.push_back(h.seconds);
    hand.bytes_per_state.push_back(double(h.max_rss) / double(hheld));
    fmt::print(stderr, "run {}: explore {:.2f} s, hand {:.2f} s\n", k + 1, r.seconds, h.seconds);
  }
  if (spin) {
    if (run({"spin", "-DDEPTH=" + std::to_string(depth), "-a", model}, dir).status != 0 ||
        run({"gcc", "-O2", "-DSAFETY", "-DCOLLAPSE", "-DMEMLIM=16384", "-o", dir + "/pan", dir + "/pan.c"}, dir)
                .status != 0)
      return 1;
    const std::regex stored(R"((\d+) states, stored)");
    for (int k = 0; k < runs; ++k) {
      Run s = run({dir + "/pan", depth >= 5 ? "-w26" : "-w22"}, dir);
      if (s.status != 0) return 1;
      sp.states = sum_matches(s.out, stored);
      sp.seconds.push_back(s.seconds);
      sp.bytes_per_state.push_back(double(s.max_rss) / double(sp.states));
      fmt::print(stderr, "run {}: SPIN {:.2f} s\n", k + 1, s.seconds);
    }
  }

  fmt::print("{:<18} {:>12} {:>10} {:>14} {:>16}\n", "", "states", "seconds", "states/s", "bytes/state");
  for (const Measure* m : {&ex, &hand, &sp}) {
    if (m->seconds.empty()) continue;
    fmt::print("{:<18} {:>12} {:>10.2f} {:>14.0f} {:>16.1f}\n", m->name, m->states, m->median_seconds(),
               m->rate(), m->median_bytes());
  }
  bool agree = ex.states == hand.states && (!spin || ex.states == sp.states);
  fmt::print("\nsame states stored by all: {}\n", agree ? "yes" : "NO");
  fmt::print("explore / hand-written: {:.2f}x the states/s, {:.2f}x the bytes per state\n",
             ex.rate() / hand.rate(), ex.median_bytes() / hand.median_bytes());
  if (spin)
    fmt::print("explore / SPIN:         {:.2f}x the states/s, {:.2f}x the bytes per state "
               "(targets: >= 5x, <= 0.25x)\n",
               ex.rate() / sp.rate(), ex.median_bytes() / sp.median_bytes());
  std::filesystem::remove_all(dir);
  return agree ? 0 : 1;
}
