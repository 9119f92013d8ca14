// Timing for benchmarks on a shared machine: the CPU time of the measuring thread (time spent
// waiting for a core is not the engine's; wall time there swings by half from run to run)
// and the median of several runs' figures.
#pragma once

#include <algorithm>
#include <ctime>
#include <vector>

namespace rulebook::explorer {

/// CPU seconds of the calling thread.
inline double thread_seconds() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) * 1e-9;
}

/// The median of `v` (the upper one of an even count); 0 when empty.
inline double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[v.size() / 2];
}

}  // namespace rulebook::explorer
