// The support code every generated engine starts with: values, rule errors, checked
// arithmetic, bitsets, lists, the random stream, the state hash, groups, move sinks.
//
// The lines between "begin of the support code" and "end of the support code" are copied
// byte for byte into every generated source, inside its anonymous namespace, after
// compiler/runtime/plugin_abi.h's declarations (the build embeds them: cmake/embed_text.cmake).
// Whatever is written here is therefore what each engine compiles; everything outside the
// two marker lines only lets a test include the text and compile it with every warning
// (tests/runtime). Functions here have internal linkage, as in an engine: include this from
// one translation unit only, and only to test it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "compiler/runtime/plugin_abi.h"

namespace rulebook::engine_support {
namespace {

// begin of the support code
/// Every scalar is an int64: bools 0/1, ints, and enum members, cells, players, ... as
/// their indices; `none` is kNone.
using Int = int64_t;
constexpr Int kNone = INT64_MIN;

/// A run-time error of the rules, thrown inside the engine and turned into an rb_error at
/// the ABI boundary (nothing is thrown across it).
struct RuleError {
  char message[400];
};

/// `where: error: what`, the located form of compiler/ir/run_errors.h, `what` cut at its
/// kMaxText (300) bytes. `where` names the rules file by its index (`@0:12:5`); the
/// loader puts back the file's name.
[[noreturn, gnu::cold, gnu::noinline]] void fail(const char* where, const char* what) {
  RuleError e;
  std::snprintf(e.message, sizeof e.message, "%s: error: %.300s", where, what);
  throw e;
}

/// A message of compiler/ir/run_errors.h with its run-time values put into its holes: byte 1
/// becomes `a`, byte 2 `b`, each a number, or `none` for a kNone where `none` says the
/// value's type admits none (a computed INT64_MIN stays a number).
[[noreturn, gnu::cold, gnu::noinline]] void fail_value(const char* where, const char* what, Int a,
                                                       bool none = false, Int b = 0) {
  char text[sizeof(RuleError::message)];
  size_t n = 0;
  for (const char* p = what; *p && n + 1 < sizeof text; ++p) {
    if (*p != '\001' && *p != '\002') {
      text[n++] = *p;
      continue;
    }
    const Int v = *p == '\001' ? a : b;
    const int k = none && *p == '\001' && v == kNone
                      ? std::snprintf(text + n, sizeof text - n, "none")
                      : std::snprintf(text + n, sizeof text - n, "%lld", (long long)v);
    if (k < 0) break;
    n = n + size_t(k) < sizeof text ? n + size_t(k) : sizeof text - 1;
  }
  text[n] = 0;
  fail(where, text);
}

/// The integer arithmetic of docs/semantics.md ("Integers"): 64 bits, floor division and
/// modulo, overflow an error (the texts are dsl/integers.h's). The emitter calls the
/// checked forms only where the operands' ranges do not rule overflow out.
inline Int floor_div(Int a, Int b, const char* where) {
  if (b == 0) fail(where, "division by zero");
  if (b == -1) {
    if (a == INT64_MIN) [[unlikely]] fail(where, "integer overflow in '/'");
    return -a;
  }
  Int q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}
inline Int floor_mod(Int a, Int b, const char* where) {
  if (b == 0) fail(where, "'%' by zero");
  if (b == -1) return 0;  // INT64_MIN % -1 traps in hardware; the answer is 0
  Int r = a % b;
  if (r != 0 && ((r < 0) != (b < 0))) r += b;
  return r;
}
inline Int add_chk(Int a, Int b, const char* where) {
  Int r;
  if (__builtin_add_overflow(a, b, &r)) [[unlikely]] fail(where, "integer overflow in '+'");
  return r;
}
inline Int sub_chk(Int a, Int b, const char* where) {
  Int r;
  if (__builtin_sub_overflow(a, b, &r)) [[unlikely]] fail(where, "integer overflow in '-'");
  return r;
}
inline Int mul_chk(Int a, Int b, const char* where) {
  Int r;
  if (__builtin_mul_overflow(a, b, &r)) [[unlikely]] fail(where, "integer overflow in '*'");
  return r;
}
inline Int neg_chk(Int a, const char* where) {
  if (a == INT64_MIN) [[unlikely]] fail(where, "integer overflow in unary '-'");
  return -a;
}
inline Int sum_chk(Int acc, Int v, const char* where) {
  Int r;
  if (__builtin_add_overflow(acc, v, &r)) [[unlikely]] fail(where, "integer overflow in 'sum'");
  return r;
}
inline Int abs_of(Int a) { return a < 0 ? -a : a; }  // only where a > INT64_MIN is known
inline Int abs_chk(Int a, const char* where) {
  if (a == INT64_MIN) [[unlikely]] fail(where, "integer overflow in 'abs'");
  return a < 0 ? -a : a;
}
/// Two operands evaluated left to right: a braced list is sequenced where a call's
/// arguments are not, so that of two failing operands the left one reports its error,
/// as in the interpreter.
struct Ops {
  Int a, b;
};
inline Int add_chk(Ops o, const char* where) { return add_chk(o.a, o.b, where); }
inline Int sub_chk(Ops o, const char* where) { return sub_chk(o.a, o.b, where); }
inline Int mul_chk(Ops o, const char* where) { return mul_chk(o.a, o.b, where); }
inline Int floor_div(Ops o, const char* where) { return floor_div(o.a, o.b, where); }
inline Int floor_mod(Ops o, const char* where) { return floor_mod(o.a, o.b, where); }
inline Int min_of(Int a, Int b) { return a < b ? a : b; }
inline Int max_of(Int a, Int b) { return a > b ? a : b; }

/// Bits set in `x`: the instruction where the target has one, else a few shifts (the
/// library call the compiler falls back to costs more than the count).
constexpr Int popcount(uint64_t x) {
#if defined(__POPCNT__)
  return __builtin_popcountll(x);
#else
  x = x - ((x >> 1) & 0x5555555555555555ull);
  x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull);
  x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0full;
  return Int((x * 0x0101010101010101ull) >> 56);
#endif
}

/// A set over the indices 0 .. 64*W-1 of a domain.
template <int W>
struct Bits {
  uint64_t w[W];

  // (With one word the word index is 0 for every index of the domain: not computed.)
  constexpr bool has(Int i) const { return (w[W == 1 ? 0 : i >> 6] >> (i & 63)) & 1; }
  constexpr void set(Int i) { w[W == 1 ? 0 : i >> 6] |= uint64_t(1) << (i & 63); }
  constexpr void reset(Int i) { w[W == 1 ? 0 : i >> 6] &= ~(uint64_t(1) << (i & 63)); }
  constexpr bool empty() const {
    for (int k = 0; k < W; ++k) {
      if (w[k]) return false;
    }
    return true;
  }
  constexpr Int count() const {
#if defined(__POPCNT__)
    Int n = 0;
    for (int k = 0; k < W; ++k) n += popcount(w[k]);
    return n;
#else
    if (W == 1) return popcount(w[0]);
    // The bits of up to three words are added per byte (at most 192 in all, so no byte
    // overflows), then summed by one multiplication instead of one per word.
    Int n = 0;
    for (int base = 0; base < W; base += 3) {
      uint64_t bytes = 0;
      for (int k = base; k < W && k < base + 3; ++k) {
        uint64_t x = w[k];
        x = x - ((x >> 1) & 0x5555555555555555ull);
        x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull);
        bytes += (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0full;
      }
      n += Int((bytes * 0x0101010101010101ull) >> 56);
    }
    return n;
#endif
  }
  /// Removes and returns the lowest index (the set is not empty).
  Int pop() {
    for (int k = 0;; ++k) {
      if (w[k]) {
        const Int i = __builtin_ctzll(w[k]);
        w[k] &= w[k] - 1;
        return Int(k) * 64 + i;
      }
    }
  }
  /// The index of element `k` (0-based, ascending; k < count()).
  Int nth(uint64_t k) const {
    for (int j = 0;; ++j) {
      const uint64_t c = uint64_t(popcount(w[j]));
      if (k < c) {
        uint64_t x = w[j];
        for (; k > 0; --k) x &= x - 1;
        return Int(j) * 64 + __builtin_ctzll(x);
      }
      k -= c;
    }
  }
  constexpr Int first() const {
    for (int k = 0; k < W; ++k) {
      if (w[k]) return Int(k) * 64 + __builtin_ctzll(w[k]);
    }
    return -1;
  }
  constexpr Int last() const {
    for (int k = W - 1; k >= 0; --k) {
      if (w[k]) return Int(k) * 64 + 63 - __builtin_clzll(w[k]);
    }
    return -1;
  }
  friend constexpr Bits operator|(Bits a, const Bits& b) {
    for (int k = 0; k < W; ++k) a.w[k] |= b.w[k];
    return a;
  }
  friend constexpr Bits operator&(Bits a, const Bits& b) {
    for (int k = 0; k < W; ++k) a.w[k] &= b.w[k];
    return a;
  }
  friend constexpr Bits operator-(Bits a, const Bits& b) {
    for (int k = 0; k < W; ++k) a.w[k] &= ~b.w[k];
    return a;
  }
  friend constexpr bool operator==(const Bits& a, const Bits& b) {
    for (int k = 0; k < W; ++k) {
      if (a.w[k] != b.w[k]) return false;
    }
    return true;
  }
  /// No element in common.
  friend constexpr bool disjoint(const Bits& a, const Bits& b) {
    for (int k = 0; k < W; ++k) {
      if (a.w[k] & b.w[k]) return false;
    }
    return true;
  }
};

/// Bit i of the result is bit i + D of `a` (0 where i + D is outside): the values a map
/// i -> i + D sends into `a` (on a grid, the cells whose step by a fixed row and column
/// lands in `a`); the caller masks out the values the map does not send anywhere.
template <Int D, int W>
[[gnu::always_inline]] constexpr Bits<W> pulled(const Bits<W>& a) {
  if constexpr (D == 0) {
    return a;
  } else {
    constexpr Int e = D > 0 ? D : -D;
    constexpr int q = int(e / 64), s = int(e % 64);
    Bits<W> r{};
    for (int k = 0; k < W; ++k) {
      uint64_t x = 0;
      if constexpr (D > 0) {
        if (k + q < W) x = a.w[k + q] >> s;
        if (s != 0 && k + q + 1 < W) x |= a.w[k + q + 1] << ((64 - s) & 63);
      } else {
        if (k - q >= 0) x = a.w[k - q] << s;
        if (s != 0 && k - q - 1 >= 0) x |= a.w[k - q - 1] >> ((64 - s) & 63);
      }
      r.w[k] = x;
    }
    return r;
  }
}

/// The values v with map[v] in `a` (map[v] < 0: v maps nowhere): the general preimage.
template <int WO, int WI, class T, size_t N>
Bits<WO> preimage(const Bits<WI>& a, const T (&map)[N]) {
  Bits<WO> r{};
  for (size_t v = 0; v < N; ++v) {
    if (map[v] >= 0 && a.has(Int(map[v]))) r.set(Int(v));
  }
  return r;
}

[[noreturn, gnu::cold, gnu::noinline]] void fail_capacity() {
  RuleError e;
  std::snprintf(e.message, sizeof e.message, "internal error: a list outgrew its capacity");
  throw e;
}

/// A list of at most N elements (sequences, tuples, sets of sets).
template <class T, int N>
struct List {
  int n;
  T a[N];

  void push(const T& x) {
    if (n >= N) fail_capacity();
    a[n++] = x;
  }
  const T* begin() const { return a; }
  const T* end() const { return a + n; }
  friend bool operator==(const List& x, const List& y) {
    if (x.n != y.n) return false;
    for (int i = 0; i < x.n; ++i) {
      if (!(x.a[i] == y.a[i])) return false;
    }
    return true;
  }
  bool contains(const T& x) const {
    for (int i = 0; i < n; ++i) {
      if (a[i] == x) return true;
    }
    return false;
  }
};

template <int W>
constexpr bool in_set(Int i, const Bits<W>& s) { return i >= 0 && s.has(i); }

// What a store knows of the value it replaces or stores, as the planes (indices) it can
// be: ~0 when nothing is known. The tests below fold away when the set is a constant.
/// The one plane of `s`, or -1 when `s` names more than one (or none).
constexpr Int one_of(uint64_t s) { return s != 0 && (s & (s - 1)) == 0 ? Int(__builtin_ctzll(s)) : -1; }
/// Every plane of `s` is below `n`.
constexpr bool within(uint64_t s, Int n) { return n >= 64 || (s >> n) == 0; }
/// Some plane of `s` is below `n`.
constexpr bool some_below(uint64_t s, Int n) { return n >= 64 ? s != 0 : (s & ((uint64_t(1) << n) - 1)) != 0; }
/// Value `v`, one of the planes `s`, is one of the planes `read`.
constexpr bool one_read(uint64_t s, uint64_t read, Int v) {
  return (s & read) != 0 && ((s & ~read) == 0 || ((read >> v) & 1));
}

/// {i}, or nothing for -1 (a value outside the domain).
template <int W>
constexpr Bits<W> single(Int i) {
  Bits<W> out{};
  if (i >= 0) out.set(i);
  return out;
}

/// Plane `i` of a variable's planes, or nothing for -1 (a value outside its domain).
template <int W, int N>
constexpr Bits<W> plane_at(const Bits<W> (&planes)[N], Int i) {
  return i >= 0 ? planes[i] : Bits<W>{};
}

/// The index of a record's field (the mixed radix of ir::Domain); `none` has no fields.
inline Int field_index(Int v, Int stride, Int size, const char* where, const char* what) {
  if (v == kNone) fail(where, what);
  return (v / stride) % size;
}

/// `what` has holes for the index and the last index.
inline Int at_index(Int k, Int n, const char* where, const char* what) {
  if (k < 0 || k >= n) fail_value(where, what, k, false, n - 1);
  return k;
}

template <class T, int N>
T list_at(const List<T, N>& l, Int k, const char* where, const char* what) {
  return l.a[at_index(k, l.n, where, what)];
}

/// Lists standing for sets of sets: union keeps the first list's order, then the new
/// elements of the second; difference and intersection keep the first list's order.
template <class T, int N>
List<T, N> list_union(const List<T, N>& a, const List<T, N>& b) {
  List<T, N> out = a;
  for (const T& x : b) {
    if (!out.contains(x)) out.push(x);
  }
  return out;
}
template <class T, int N>
List<T, N> list_diff(const List<T, N>& a, const List<T, N>& b) {
  List<T, N> out{};
  for (const T& x : a) {
    if (!b.contains(x)) out.push(x);
  }
  return out;
}
template <class T, int N>
List<T, N> list_inter(const List<T, N>& a, const List<T, N>& b) {
  List<T, N> out{};
  for (const T& x : a) {
    if (b.contains(x)) out.push(x);
  }
  return out;
}

/// planes[v] = the indices i < K with bytes[i] == v (bytes holds values below V <= 16).
template <int W, int V, int K>
[[gnu::always_inline]] inline void build_planes(Bits<W> (&planes)[V], const uint8_t* bytes) {
#if defined(__SSE2__)
  if constexpr (K >= 16) {
    // Sixteen elements at a time: compare with v, one bit per byte. The last, partial
    // chunk is read ending at the last element (overlapping the one before).
    constexpr int kFull = K / 16, kTail = K % 16;
    __m128i chunk[kFull + 1];
#pragma GCC unroll 16
    for (int c = 0; c < kFull; ++c) chunk[c] = _mm_loadu_si128(reinterpret_cast<const __m128i*>(bytes + 16 * c));
    if (kTail) chunk[kFull] = _mm_loadu_si128(reinterpret_cast<const __m128i*>(bytes + K - 16));
#pragma GCC unroll 16
    for (int v = 0; v < V; ++v) {
      Bits<W> p{};
      const __m128i want = _mm_set1_epi8(char(v));
#pragma GCC unroll 16
      for (int c = 0; c < kFull; ++c) {
        const uint64_t m = uint32_t(_mm_movemask_epi8(_mm_cmpeq_epi8(chunk[c], want)));
        p.w[(16 * c) / 64] |= m << ((16 * c) % 64);
      }
      if (kTail) {
        const uint64_t m = uint32_t(_mm_movemask_epi8(_mm_cmpeq_epi8(chunk[kFull], want))) >> (16 - kTail);
        p.w[(16 * kFull) / 64] |= m << ((16 * kFull) % 64);
      }
      planes[v] = p;
    }
    return;
  }
#endif
  for (int v = 0; v < V; ++v) planes[v] = Bits<W>{};
  for (int i = 0; i < K; ++i) {
    if (bytes[i] < V) planes[bytes[i]].set(i);
  }
}


/// The random stream of docs/semantics.md.
struct SplitMix64 {
  uint64_t s;
  uint64_t next() {
    uint64_t z = (s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
};

/// The hash every engine uses (rulebook::engine::hash_bytes).
uint64_t hash_bytes(const uint8_t* p, size_t n) {
  uint64_t h = 1469598103934665603ull;
  for (size_t i = 0; i < n; ++i) h = (h ^ p[i]) * 1099511628211ull;
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdull;
  h ^= h >> 33;
  return h;
}

/// Orthogonally connected groups of `s`, each grown from its lowest cell, in order of
/// that cell; `orth` gives each cell's neighbours.
template <int W, int C, int N>
List<Bits<W>, N> components_of(Bits<W> s, const Bits<W> (&orth)[C]) {
  List<Bits<W>, N> out{};
  while (!s.empty()) {
    Bits<W> group{}, frontier{};
    const Int c = s.pop();
    group.set(c);
    frontier.set(c);
    while (!frontier.empty()) {
      const Bits<W> next = orth[frontier.pop()] & s;
      s = s - next;
      group = group | next;
      frontier = frontier | next;
    }
    out.push(group);
  }
  return out;
}

template <int W, int C>
Int largest_group_of(Bits<W> s, const Bits<W> (&orth)[C]) {
  Int best = 0;
  while (!s.empty()) {
    Bits<W> frontier{};
    Int size = 1;
    frontier.set(s.pop());
    while (!frontier.empty()) {
      const Bits<W> next = orth[frontier.pop()] & s;
      s = s - next;
      size += next.count();
      frontier = frontier | next;
    }
    if (size > best) best = size;
  }
  return best;
}

/// Sinks of the move generators: what to do with each legal move found. A sink returns
/// true to stop the generation.
struct Collect {
  rb_move* out;
  uint32_t cap;
  uint32_t n = 0;
  bool take(Int kind, Int a0 = 0, Int a1 = 0, Int a2 = 0, Int a3 = 0) {
    if (n < cap) {
      rb_move& m = out[n];
      m.kind = int32_t(kind);
      m.args[0] = int32_t(a0);
      m.args[1] = int32_t(a1);
      m.args[2] = int32_t(a2);
      m.args[3] = int32_t(a3);
    }
    ++n;
    return false;
  }
  /// Every index of `bits` completes a legal move as argument `last` (an index of a
  /// domain whose values are its indices).
  template <int W>
  bool take_bits(Int kind, Bits<W> bits, int last, Int a0 = 0, Int a1 = 0, Int a2 = 0) {
    Int a[4] = {a0, a1, a2, 0};
    while (!bits.empty()) {
      a[last] = bits.pop();
      take(kind, a[0], a[1], a[2], a[3]);
    }
    return false;
  }
};

struct Count {
  uint64_t n = 0;
  bool take(Int, Int = 0, Int = 0, Int = 0, Int = 0) {
    ++n;
    return false;
  }
  template <int W>
  bool take_bits(Int, const Bits<W>& bits, int, Int = 0, Int = 0, Int = 0) {
    n += uint64_t(bits.count());
    return false;
  }
};

struct Exists {
  bool take(Int, Int = 0, Int = 0, Int = 0, Int = 0) { return true; }
  template <int W>
  bool take_bits(Int, const Bits<W>& bits, int, Int = 0, Int = 0, Int = 0) {
    return !bits.empty();
  }
};

/// Keeps legal move number `k` (0-based, canonical order) and stops there.
struct Pick {
  uint64_t k;
  rb_move m{};
  bool take(Int kind, Int a0 = 0, Int a1 = 0, Int a2 = 0, Int a3 = 0) {
    if (k-- != 0) return false;
    m = rb_move{int32_t(kind), {int32_t(a0), int32_t(a1), int32_t(a2), int32_t(a3)}};
    return true;
  }
  template <int W>
  bool take_bits(Int kind, Bits<W> bits, int last, Int a0 = 0, Int a1 = 0, Int a2 = 0) {
    const uint64_t n = uint64_t(bits.count());
    if (k >= n) {
      k -= n;
      return false;
    }
    Int a[4] = {a0, a1, a2, 0};
    a[last] = bits.nth(k);
    m = rb_move{int32_t(kind), {int32_t(a[0]), int32_t(a[1]), int32_t(a[2]), int32_t(a[3])}};
    return true;
  }
};
// end of the support code

}  // namespace
}  // namespace rulebook::engine_support
