// Counts of conditions compared with constants, as the SAT-based solver's cardinality
// constraints. The encoder writes a count (`count l in lines where ...`, `size(S) == 0`) as
// a sum of `ite(c, 1, 0)` terms; compared with a constant that is integer arithmetic, which
// the SAT-based solver bit-blasts into adders and the general solver reasons about without
// cardinality arguments. As `at-least` / `at-most` over the conditions, the SAT-based solver
// reasons about them natively.
#pragma once

#include <optional>
#include <unordered_map>
#include <utility>

#include <z3++.h>

namespace rulebook::verifier {

class Cardinalities {
 public:
  explicit Cardinalities(z3::context& c) : c_(c) {}

  /// `e` (a condition) with every comparison of two pseudo-boolean sums (constants and
  /// integer multiples of `ite(c, a, b)` with numerals a, b) rewritten as a cardinality
  /// constraint over the conditions when, moved to one side, each condition weighs 1 (or
  /// -1: its negation weighs 1); equivalent to `e`. Memoised by term (kept alive).
  z3::expr operator()(const z3::expr& e);

  /// Whether `e` (as returned by the call above) still has integer terms.
  bool arithmetic(const z3::expr& e);

 private:
  z3::context& c_;
  std::unordered_map<unsigned, std::pair<z3::expr, z3::expr>> memo_;  ///< id -> term, form
  std::unordered_map<unsigned, std::pair<z3::expr, bool>> arith_;      ///< id -> term, has ints

  z3::expr rewrite(const z3::expr& e);
  std::optional<z3::expr> comparison(const z3::expr& e);
};

}  // namespace rulebook::verifier
