// Sets of a program's finite domains as bitsets over their indices: what the interpreter,
// the verifier and the board tables share.
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <vector>

namespace rulebook::ir {

/// A set as a bitset over its domain's indices; small sets (most boards) need no heap.
class Bits {
 public:
  Bits() = default;
  Bits(size_t n, uint64_t fill) { assign(n, fill); }
  Bits(const std::vector<uint64_t>& v) { *this = v; }
  Bits(const Bits& o) { *this = o; }
  Bits(Bits&& o) noexcept { *this = std::move(o); }
  Bits& operator=(const std::vector<uint64_t>& v) {
    reserve(v.size());
    n_ = uint32_t(v.size());
    std::copy(v.begin(), v.end(), data());
    return *this;
  }
  Bits& operator=(const Bits& o) {
    if (this == &o) return *this;
    reserve(o.n_);
    n_ = o.n_;
    std::copy(o.data(), o.data() + n_, data());
    return *this;
  }
  Bits& operator=(Bits&& o) noexcept {
    if (o.heap_) {
      heap_ = std::move(o.heap_);
      cap_ = o.cap_;
      n_ = o.n_;
      o.cap_ = kInline;
      o.n_ = 0;
      return *this;
    }
    return *this = static_cast<const Bits&>(o);
  }
  size_t size() const { return n_; }
  uint64_t* data() { return heap_ ? heap_.get() : in_; }
  const uint64_t* data() const { return heap_ ? heap_.get() : in_; }
  uint64_t& operator[](size_t i) { return data()[i]; }
  uint64_t operator[](size_t i) const { return data()[i]; }
  void assign(size_t n, uint64_t fill) {
    reserve(n);
    n_ = uint32_t(n);
    std::fill(data(), data() + n, fill);
  }
  void resize(size_t n, uint64_t fill) {
    reserve(n);
    if (n > n_) std::fill(data() + n_, data() + n, fill);
    n_ = uint32_t(n);
  }
  bool operator==(const Bits& o) const {
    return n_ == o.n_ && std::equal(data(), data() + n_, o.data());
  }

 private:
  static constexpr uint32_t kInline = 6;
  void reserve(size_t n) {
    if (n <= cap_) return;
    auto fresh = std::make_unique<uint64_t[]>(n);
    std::copy(data(), data() + n_, fresh.get());
    heap_ = std::move(fresh);
    cap_ = uint32_t(n);
  }
  uint32_t n_ = 0, cap_ = kInline;
  uint64_t in_[kInline];  // only the first n_ words are meaningful
  std::unique_ptr<uint64_t[]> heap_;
};

inline bool test(const Bits& b, int64_t i) { return (b[size_t(i) >> 6] >> (i & 63)) & 1; }
inline bool test(const std::vector<uint64_t>& b, int64_t i) { return (b[size_t(i) >> 6] >> (i & 63)) & 1; }
inline void set_bit(Bits& b, int64_t i) { b[size_t(i) >> 6] |= uint64_t(1) << (i & 63); }
inline size_t words(uint32_t n) { return (n + 63) / 64; }
inline int64_t count(const Bits& b) {
  int64_t n = 0;
  for (size_t i = 0; i < b.size(); ++i) n += __builtin_popcountll(b[i]);
  return n;
}

}  // namespace rulebook::ir
