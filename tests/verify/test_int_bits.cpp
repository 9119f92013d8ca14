// Integer terms as bit-vectors (verifier/int_bits.h): every rewritten condition takes the
// original's value under every assignment of its propositional variables (evaluated, not
// asked of a solver), with sums whose partial values overflow the width of the result, and
// integers of other kinds are refused.
#include <cstdint>
#include <functional>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include <catch2/catch.hpp>
#include <z3++.h>

#include "verifier/int_bits.h"

using rulebook::verifier::IntsAsBits;
using rulebook::verifier::signed_width;

namespace {

/// Whether `a` and `b` take the same value under each of the 2^n assignments of `vars`.
bool same_everywhere(z3::context& c, const std::vector<z3::expr>& vars, const z3::expr& a, const z3::expr& b) {
  for (uint32_t bits = 0; bits < (1u << vars.size()); ++bits) {
    z3::expr_vector from(c), to(c);
    for (size_t i = 0; i < vars.size(); ++i) {
      from.push_back(vars[i]);
      to.push_back(c.bool_val((bits >> i) & 1));
    }
    const z3::expr x = z3::expr(a).substitute(from, to).simplify(), y = z3::expr(b).substitute(from, to).simplify();
    if (!x.is_true() && !x.is_false()) return false;
    if (x.is_true() != y.is_true() || x.is_false() != y.is_false()) return false;
  }
  return true;
}

}  // namespace

TEST_CASE("the width of two's complement holds a range exactly") {
  CHECK(signed_width(0, 0) == 1);
  CHECK(signed_width(-1, 0) == 1);
  CHECK(signed_width(0, 1) == 2);
  CHECK(signed_width(-2, 1) == 2);
  CHECK(signed_width(-3, 1) == 3);
  CHECK(signed_width(0, 127) == 8);
  CHECK(signed_width(-128, 127) == 8);
  CHECK(signed_width(-129, 0) == 9);
  CHECK(signed_width(0, 128) == 9);
}

TEST_CASE("random comparisons of sums, products and if-then-else: the same value under every assignment") {
  z3::context c;
  IntsAsBits bits(c);
  std::vector<z3::expr> b;
  for (int i = 0; i < 5; ++i) {
    std::string name = "b";
    name += std::to_string(i);
    b.push_back(c.bool_const(name.c_str()));
  }
  std::mt19937 rng(11);
  auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  std::function<z3::expr(int)> term = [&](int depth) -> z3::expr {
    const int k = depth == 0 ? 0 : pick(0, 5);
    if (k == 0) return c.int_val(pick(0, 1) ? pick(-3, 3) : pick(-2000, 2000));
    if (k == 1) {  // a condition that compares integers itself
      const z3::expr cond = pick(0, 1) ? b[size_t(pick(0, 4))] : term(depth - 1) < term(depth - 1);
      return z3::ite(cond, term(depth - 1), term(depth - 1));
    }
    if (k == 2) return term(depth - 1) + term(depth - 1) + term(depth - 1);
    if (k == 3) return term(depth - 1) - term(depth - 1);
    if (k == 4) return term(depth - 1) * term(depth - 1);
    return -term(depth - 1);
  };
  int checked = 0;
  for (int i = 0; i < 250; ++i) {
    const z3::expr x = term(3), y = term(3);
    const int op = pick(0, 6);
    z3::expr q = op == 0 ? x >= y : op == 1 ? x <= y : op == 2 ? x > y : op == 3 ? x < y : op == 4 ? x == y : x != y;
    if (op == 6) q = q && (b[0] || z3::ite(b[1], x, y) == term(2));
    INFO(q);
    const std::optional<z3::expr> r = bits(q);
    REQUIRE(r.has_value());
    CHECK(same_everywhere(c, b, q, *r));
    ++checked;
  }
  CHECK(checked == 250);
  // A sum whose parts need more bits than it: 1000 * b0 - 1000 * b0 + b1 == 1 in two bits
  // wraps on the way and is still exact.
  const z3::expr one0 = z3::ite(b[0], c.int_val(1), c.int_val(0)), one1 = z3::ite(b[1], c.int_val(1), c.int_val(0));
  const z3::expr wrap = 1000 * one0 - 1000 * one0 + one1 == 1;
  REQUIRE(bits(wrap).has_value());
  CHECK(same_everywhere(c, b, wrap, *bits(wrap)));
  // A distinct over three terms.
  z3::expr_vector three(c);
  three.push_back(one0);
  three.push_back(one1 + 1);
  three.push_back(2 * one0 - one1);
  REQUIRE(bits(z3::distinct(three)).has_value());
  CHECK(same_everywhere(c, b, z3::distinct(three), *bits(z3::distinct(three))));
}

TEST_CASE("integers of other kinds are refused, and conditions without integers are kept as they are") {
  z3::context c;
  IntsAsBits bits(c);
  const z3::expr p = c.bool_const("p"), q = c.bool_const("q");
  const z3::expr one = z3::ite(p, c.int_val(1), c.int_val(0));
  CHECK_FALSE(bits(c.int_const("v") + one >= 1).has_value());           // an integer variable
  CHECK_FALSE(bits(z3::ite(q, one / 2, one) >= 1).has_value());         // a division
  CHECK_FALSE(bits(z3::mod(one + 3, c.int_val(2)) == 1).has_value());   // a remainder
  CHECK_FALSE(bits(p && (one * c.int_const("w") == 0)).has_value());  // deep inside
  const z3::expr plain = (p || !q) && z3::implies(q, p);
  REQUIRE(bits(plain).has_value());
  CHECK(z3::eq(*bits(plain), plain));
  // Counted as values beyond 64 bits: refused, not wrapped.
  const z3::expr big = c.int_val(int64_t(1) << 62) * one * 8 >= 1;
  CHECK_FALSE(bits(big).has_value());
}
