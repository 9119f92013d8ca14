// hand_smyoz: legal SMYOZ fleets by depth (placements of the first d ships), counted by the
// hand-written counter of smyoz_fleets.h.
//
//   hand_smyoz DEPTH [--side N] [--ships 4,3,3,2,2,2,1,1,1,1]
//
// stdout: `depth d: paths P` for d = 1..DEPTH; progress and timing on stderr.
#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "smyoz_fleets.h"

namespace {

int usage() {
  std::fprintf(stderr, "usage: hand_smyoz DEPTH [--side N] [--ships L,L,...]\n");
  return 2;
}

void show_progress(int done, int total) {
  std::fprintf(stderr, "\rfirst ship: %d of %d placements", done, total);
  if (done == total) std::fprintf(stderr, "\n");
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) return usage();
  const int depth = std::atoi(argv[1]);
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
  const auto counts = counter.perft(depth, show_progress);
  for (int d = 1; d < int(counts.size()); ++d) std::printf("depth %d: paths %" PRIu64 "\n", d, counts[d]);
  std::fprintf(stderr, "%.3f s\n",
               std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  return 0;
}
