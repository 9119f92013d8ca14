// Integer terms as bit-vectors, so that the SAT-based solver takes questions whose counts
// are weighted or compared with each other. The encoder writes every integer of a question
// over propositional state (selectors) as numerals combined by if-then-else, +, - and *:
// each such term has a range known from its shape, and a bit-vector wide enough for the
// range holds it exactly (two's complement; + - * are exact modulo 2^width, so only the
// values compared need the width, not the sums on the way). The rewritten condition is
// equivalent to the original over the same propositional variables: a model of one is a
// model of the other, and the terms of the original evaluate in it.
#pragma once

#include <cstdint>
#include <optional>
#include <unordered_map>
#include <utility>

#include <z3++.h>

namespace rulebook::verifier {

class IntsAsBits {
 public:
  explicit IntsAsBits(z3::context& c) : c_(c) {}

  /// `e` (a condition) with its integer terms as bit-vectors; nullopt when it has an integer
  /// term of another kind (an integer constant, a division, a term whose range overflows
  /// 64 bits), which only the arithmetic solvers take. Memoised by term (kept alive).
  std::optional<z3::expr> operator()(const z3::expr& e);

 private:
  using Range = std::pair<int64_t, int64_t>;
  z3::context& c_;
  std::unordered_map<unsigned, std::pair<z3::expr, std::optional<z3::expr>>> memo_;  ///< id -> term, form
  std::unordered_map<unsigned, std::pair<z3::expr, std::optional<Range>>> ranges_;
  std::unordered_map<uint64_t, std::pair<z3::expr, z3::expr>> bits_;  ///< (id, width) -> term, form

  std::optional<Range> range(const z3::expr& e);
  /// The integer term `e` modulo 2^width (its range known to be supported).
  z3::expr bits(const z3::expr& e, unsigned width);
  std::optional<z3::expr> rewrite(const z3::expr& e);
};

/// The fewest bits of two's complement that hold every value of [lo, hi].
unsigned signed_width(int64_t lo, int64_t hi);

}  // namespace rulebook::verifier
