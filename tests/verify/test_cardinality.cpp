// Counts compared with constants as cardinality constraints (verifier/cardinality.h): every
// rewritten comparison is equivalent to the original (Z3: the two differ nowhere), and a
// comparison of pure counts leaves no integer term.
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include <catch2/catch.hpp>
#include <z3++.h>

#include "verifier/cardinality.h"

using rulebook::verifier::Cardinalities;

namespace {

std::string name(int i) {
  std::string s = "b";
  s += std::to_string(i);
  return s;
}

bool equivalent(z3::context& c, const z3::expr& a, const z3::expr& b) {
  z3::solver s(c);
  s.add(a != b);
  return s.check() == z3::unsat;
}

}  // namespace

TEST_CASE("counts of conditions compared with constants become cardinality constraints") {
  z3::context c;
  Cardinalities cards(c);
  std::vector<z3::expr> b;
  for (int i = 0; i < 5; ++i) b.push_back(c.bool_const(name(i).c_str()));
  auto one = [&](const z3::expr& x) { return z3::ite(x, c.int_val(1), c.int_val(0)); };
  const z3::expr count = one(b[0]) + one(b[1]) + one(b[2]) + one(b[3]);
  for (int k = -1; k <= 5; ++k) {
    INFO("k = " << k);
    const z3::expr kv = c.int_val(k);
    for (const z3::expr& q : {count >= kv, count <= kv, count > kv, count < kv, count == kv, count != kv, kv <= count}) {
      INFO(q);
      const z3::expr r = cards(q);
      CHECK(equivalent(c, q, r));
      CHECK_FALSE(cards.arithmetic(r));
    }
  }
  // Emptiness as a negated disjunction, and a count inside a condition of another count
  // (SMYOZ's water lines: lines whose count of ship cells is 0).
  const z3::expr empty_a = one(b[0]) + one(b[1]) == 0, empty_b = one(b[2]) + one(b[3]) + one(b[4]) == 0;
  const z3::expr nested = one(empty_a) + one(empty_b) >= 1;
  const z3::expr r = cards(nested);
  CHECK(equivalent(c, nested, r));
  CHECK_FALSE(cards.arithmetic(r));
  // A condition counted and subtracted weighs nothing; one counted with its negation's
  // place taken (c - d >= 0: c + (not d) >= 1).
  const z3::expr diff = one(b[0]) + one(b[1]) - one(b[1]) - one(b[2]) >= 0;
  CHECK(equivalent(c, diff, cards(diff)));
  CHECK_FALSE(cards.arithmetic(cards(diff)));
}

TEST_CASE("sums with differences, weights and other values: rewritten exactly, or left alone") {
  // Random sums of ite(b, x, y) with numerals, multiplied by constants, on both sides of
  // every comparison: each result is equivalent to the original.
  z3::context c;
  Cardinalities cards(c);
  std::vector<z3::expr> b;
  for (int i = 0; i < 4; ++i) b.push_back(c.bool_const(name(i).c_str()));
  std::mt19937 rng(7);
  auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  auto side = [&] {
    z3::expr t = c.int_val(pick(-3, 3));
    for (int n = pick(1, 3); n > 0; --n) {
      z3::expr term = z3::ite(b[size_t(pick(0, 3))], c.int_val(pick(-3, 3)), c.int_val(pick(-3, 3)));
      if (pick(0, 2) == 0) term = c.int_val(pick(-2, 3)) * term;
      t = pick(0, 3) == 0 ? t - term : t + term;
    }
    return t;
  };
  int rewritten = 0;
  for (int i = 0; i < 300; ++i) {
    const z3::expr x = side(), y = side();
    const int op = pick(0, 5);
    const z3::expr q = op == 0 ? x >= y : op == 1 ? x <= y : op == 2 ? x > y : op == 3 ? x < y : op == 4 ? x == y : x != y;
    INFO(q);
    const z3::expr r = cards(q);
    CHECK(equivalent(c, q, r));
    rewritten += cards.arithmetic(r) ? 0 : 1;
  }
  // Those whose conditions all weigh 1 or -1 (or nothing, once merged) are rewritten.
  CHECK(rewritten > 10);
  CHECK(rewritten < 300);
  // Weighted: stays arithmetic (an identity between counts is the general solver's).
  const z3::expr w = 2 * z3::ite(b[0], c.int_val(1), c.int_val(0)) + z3::ite(b[1], c.int_val(1), c.int_val(0)) >= 2;
  CHECK(z3::eq(cards(w), w));
  // Not a count: an integer variable stays arithmetic, and the condition is unchanged.
  const z3::expr v = c.int_const("v");
  const z3::expr q = v + z3::ite(b[0], c.int_val(1), c.int_val(0)) >= 1;
  CHECK(z3::eq(cards(q), q));
  CHECK(cards.arithmetic(cards(q)));
}
