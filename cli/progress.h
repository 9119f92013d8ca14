// What the progress lines of long runs share: the memory the process holds, and a clock
// that says when the next line is due (about once a second).
#pragma once

#include <chrono>
#include <cstdint>

namespace rulebook::cli {

/// Resident memory of this process in bytes (0 where /proc is not there).
uint64_t resident_bytes();

/// Due once a second: `due()` is true at most once per second, and `seconds()` counts
/// from the clock's start.
class ProgressClock {
 public:
  bool due() {
    const auto now = std::chrono::steady_clock::now();
    if (now - last_ < std::chrono::seconds(1)) return false;
    last_ = now;
    return true;
  }
  double seconds() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  }

 private:
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
  std::chrono::steady_clock::time_point last_ = start_;
};

}  // namespace rulebook::cli
