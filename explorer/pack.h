// Packing engine states into their minimal bit encoding, derived from the IR's state layout.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "compiler/ir/ir.h"


namespace rulebook::explorer {

/// Longest key the explorer handles (bytes), and so the most chunks (every chunk but the
/// last holds more than 32 bits: it stopped where one more radix would pass 2^64).
inline constexpr uint32_t kMaxKeyBytes = 512;
inline constexpr uint32_t kMaxChunks = kMaxKeyBytes * 8 / 32 + 1;

/// Division of 64-bit numbers by a divisor fixed in advance, as a multiplication and two
/// shifts (Granlund and Montgomery, "Division by invariant integers using multiplication",
/// 1994, figure 4.1): exact for every dividend and every divisor from 1 to 2^64 - 1. A
/// state's digits are decoded by a division per digit; a hardware division is several
/// times slower.
class Divider {
 public:
  explicit Divider(uint64_t d = 1) : d_(d) {
    uint32_t l = 0;
    while (l < 64 && (uint64_t{1} << l) < d) ++l;  // l = ceil(log2 d)
    const unsigned __int128 excess = (((unsigned __int128)1 << l) - d) << 64;
    m_ = uint64_t(excess / d + 1);  // below 2^64: 2^l - d < d
    shift1_ = l > 0 ? 1 : 0;
    shift2_ = l > 0 ? l - 1 : 0;
  }
  uint64_t quotient(uint64_t n) const {
    const uint64_t t = uint64_t(((unsigned __int128)m_ * n) >> 64);
    return (t + ((n - t) >> shift1_)) >> shift2_;
  }
  uint64_t divisor() const { return d_; }

 private:
  uint64_t d_;
  uint64_t m_ = 0;
  uint32_t shift1_ = 0, shift2_ = 0;
};

/// One stored element of the state: element `index` of variable `var`, holding an index of
/// a domain of `radix` values.
struct PackedElement {
  int var = -1;
  uint32_t index = 0;
  uint32_t radix = 1;
};

/// The encoding of a program's states as short byte strings. Elements that cannot change
/// during play (setup variables no statement assigns, domains of one value) are left out
/// and restored from the initial state; the others are written in mixed radix, grouped into
/// 64-bit chunks (each as few bits as its radix product needs) that are concatenated bit by
/// bit. So a Cell -> Player? board of 36 cells takes 36 * log2(7) bits, not 36 bytes.
/// Keys compare with memcmp; equal keys are equal states (given the same constants). As
/// numbers, keys are ordered as their digit strings read from the last element down
/// (compare_digits), which is how the least key of a symmetry class is found.
class Packer {
 public:
  /// `root` is a state set up by the engine: it provides the constant elements.
  Packer(const ir::Program& program, const uint8_t* root);

  uint32_t key_bytes() const { return key_bytes_; }
  uint32_t state_bytes() const { return state_bytes_; }
  uint32_t bits() const { return bits_; }
  /// The stored elements, in packing order.
  const std::vector<PackedElement>& elements() const { return elements_; }
  /// Variables left out as constant, by name (for the explorer's report).
  const std::vector<std::string>& constant_vars() const { return constant_vars_; }

  /// The element indices of a state, in packing order.
  void gather(const uint8_t* state, uint32_t* digits) const;
  /// Writes element indices into a state (the constant parts must be there already).
  void scatter(const uint32_t* digits, uint8_t* state) const;
  /// Encodes element indices into `key` (key_bytes() bytes).
  void encode(const uint32_t* digits, uint8_t* key) const {
    uint64_t values[kMaxChunks];
    chunk_values(digits, values);
    compose(values, key);
  }
  /// The value of each chunk (chunks() of them) for these digits ...
  void chunk_values(const uint32_t* digits, uint64_t* values) const;
  /// ... and the key they make.
  void compose(const uint64_t* values, uint8_t* key) const;
  size_t chunks() const { return chunks_.size(); }

  /// Brings `digits` and chunk `values` of state `before` up to date for state `after` (a
  /// move's result), looking only at the bytes that differ. Writes the changed elements
  /// and their old digits to `changed`/`old` (at most `max`); returns how many, or max + 1
  /// when there were more (then nothing is updated).
  uint32_t update(const uint8_t* before, const uint8_t* after, uint32_t* digits, uint64_t* values,
                  uint32_t* changed, uint32_t* old, uint32_t max) const;
  /// Decodes `key` into element indices.
  void decode(const uint8_t* key, uint32_t* digits) const;

  void pack(const uint8_t* state, uint8_t* key, uint32_t* scratch) const {
    gather(state, scratch);
    encode(scratch, key);
  }
  /// <0, 0, >0 as the key of `a` is less than, equal to or greater than the key of `b`:
  /// the digits compared from the last (most significant) element down.
  int compare_digits(const uint32_t* a, const uint32_t* b) const {
    for (size_t i = elements_.size(); i-- > 0;)
      if (a[i] != b[i]) return a[i] < b[i] ? -1 : 1;
    return 0;
  }
  /// <0, 0, >0 as the digits behind chunk values `a` are less than, equal to or greater
  /// than those behind `b` (the order of compare_digits: a chunk's value is its digits in
  /// mixed radix, the last element the most significant).
  int compare_values(const uint64_t* a, const uint64_t* b) const {
    for (size_t k = chunks_.size(); k-- > 0;)
      if (a[k] != b[k]) return a[k] < b[k] ? -1 : 1;
    return 0;
  }
  /// Brings chunk `values` up to date for element `e` changing from digit `was` to `now`.
  void adjust(uint32_t e, uint32_t was, uint32_t now, uint64_t* values) const {
    values[chunk_of_[e]] += (uint64_t(now) - uint64_t(was)) * place_[e];  // exact mod 2^64
  }
  /// Rebuilds a whole state: the constants from the initial state, the rest from `key`.
  void unpack(const uint8_t* key, uint8_t* state, uint32_t* scratch) const;

 private:
  struct Chunk {
    uint32_t first = 0, last = 0;  ///< elements [first, last)
    uint32_t bits = 0;
    uint32_t shift = 0;            ///< bit offset of the chunk in the key
    /// Decoding splits the chunk's value at element `middle` (its place divides it into
    /// two numbers), and decodes both halves side by side: two chains of divisions, not one.
    uint32_t middle = 0;
    Divider middle_div;
  };
  std::vector<uint64_t> place_;    ///< per element: the product of the radices before it in its chunk
  std::vector<Divider> radix_div_; ///< per element: division by its radix
  std::vector<uint32_t> chunk_of_; ///< per element
  std::vector<int32_t> element_at_;  ///< per state byte: the element stored there, or -1
  bool all_bytes_ = true;          ///< every element is one byte wide
  std::vector<PackedElement> elements_;
  std::vector<uint32_t> offsets_;  ///< byte offset of each element in the state
  std::vector<uint8_t> widths_;    ///< its byte width
  std::vector<Chunk> chunks_;
  std::vector<uint8_t> root_;
  std::vector<std::string> constant_vars_;
  uint32_t bits_ = 0, key_bytes_ = 0, state_bytes_ = 0;
};

/// Per variable: whether some statement of play (a move, `when stuck`) may assign it.
std::vector<bool> assigned_in_play(const ir::Program& program);



}  // namespace rulebook::explorer
