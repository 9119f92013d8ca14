// hand_smyoz: legal SMYOZ fleets by depth (placements of the first d ships), counted by the
// hand-written counter of smyoz_fleets.h.
//
//   hand_smyoz DEPTH [--side N] [--ships 4,3,3,2,2,2,1,1,1,1]
//   hand_smyoz --most-water-lines [--side N] [--ships ...]
//
// stdout: `depth d: paths P` for d = 1..DEPTH; at DEPTH = the fleet size also the fleets each
// symmetry of the square fixes and the fleets up to symmetry; progress and timing on stderr.
#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "smyoz_fleets.h"

namespace {

int usage() {
  std::fprintf(stderr, "usage: hand_smyoz DEPTH|--most-water-lines [--side N] [--ships L,L,...]\n");
  return 2;
}

void show_progress(int done, int total) {
  std::fprintf(stderr, "\rfirst ship: %d of %d placements", done, total);
  if (done == total) std::fprintf(stderr, "\n");
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) return usage();
  const bool water = !std::strcmp(argv[1], "--most-water-lines");
  const int depth = water ? 1 : std::atoi(argv[1]);
  hand::smyoz::Fleet fleet;
  for (int i = 2; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--side") && i + 1 < argc) {
      fleet.side = std::atoi(argv[++i]);
    } else if (!std::strcmp(argv[i], "--ships") && i + 1 < argc) {
      fleet.lengths.clear();
      for (const char* p = argv[++i]; *p;) {
        fleet.lengths.push_back(int(std::strtol(p, const_cast<char**>(&p), 10)));
        if (*p == ',') ++p;
      }
    } else {
      return usage();
    }
  }
  if (depth < 1 || fleet.side < 3 || fleet.side * fleet.side > 128 || fleet.lengths.empty())
    return usage();
  const auto t0 = std::chrono::steady_clock::now();
  const hand::smyoz::FleetCounter counter(fleet);
  if (water) {
    std::vector<std::pair<int, bool>> best;
    std::printf("most water lines: %d\n", counter.most_water_lines(&best));
    for (size_t s = 0; s < best.size(); ++s)
      std::printf("ship %zu: r%dc%d %s\n", s + 1, best[s].first / fleet.side, best[s].first % fleet.side,
                  best[s].second ? "horizontal" : "vertical");
    std::fprintf(stderr, "%.3f s\n", std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    return 0;
  }
  std::vector<uint64_t> fixed;
  const auto counts = counter.perft(depth, show_progress, &fixed);
  for (int d = 1; d < int(counts.size()); ++d) std::printf("depth %d: paths %" PRIu64 "\n", d, counts[d]);
  if (!fixed.empty()) {
    // Burnside: the orbits are the average number of fleets a symmetry fixes.
    uint64_t sum = 0;
    for (int g = 0; g < hand::smyoz::FleetCounter::kSymmetries; ++g) {
      std::printf("fixed by %s: %" PRIu64 "\n", hand::smyoz::FleetCounter::symmetry_name(g), fixed[size_t(g)]);
      sum += fixed[size_t(g)];
    }
    std::printf("fleets up to symmetry: %" PRIu64 "%s\n", sum / 8, sum % 8 ? " (not whole: a bug)" : "");
  }
  std::fprintf(stderr, "%.3f s\n",
               std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  return 0;
}
