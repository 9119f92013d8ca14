// The random stream every engine and driver uses: splitmix64 (see docs/semantics.md).
#pragma once

#include <cstdint>

namespace rulebook {

/// splitmix64: tiny, fast, and fully specified, so the interpreter, generated engines and
/// the playout drivers draw identical numbers from identical seeds.
class SplitMix64 {
 public:
  explicit SplitMix64(uint64_t seed) : state_(seed) {}
  uint64_t next() {
    uint64_t z = (state_ += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  /// A number in [0, n) as the semantics define it: next() % n (n > 0).
  uint64_t below(uint64_t n) { return next() % n; }

 private:
  uint64_t state_;
};

}  // namespace rulebook
