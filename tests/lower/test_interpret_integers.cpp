// The interpreter's integers (docs/semantics.md, "Integers"): overflow in an assignment is
// a located error, and an operation that only became constant by inlining is not folded
// into a compile-time error: it fails when, and only if, it runs.
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "lower_test_util.h"

using namespace rulebook;
using compiler::testing::load_text;

namespace {

/// The status of setup and `plies` first moves of `text`.
engine::Status run(const std::string& text, int plies) {
  auto l = load_text(text);
  INFO(l->errors());
  REQUIRE(l->program);
  std::vector<uint8_t> s(l->engine->info().state_bytes);
  engine::Status st = l->engine->setup(s.data(), {});
  for (int i = 0; st.ok && i < plies; ++i) {
    std::vector<engine::Move> moves;
    st = l->engine->legal_moves(s.data(), moves);
    if (st.ok && !moves.empty()) st = l->engine->apply(s.data(), moves[0]);
  }
  return st;
}

const std::string kHead = "game \"e\";\nboard 1 x 3;\nplayers 1;\n";

}  // namespace

TEST_CASE("an assignment that overflows is a located error", "[interp][integers]") {
  // n += 9223372036854775807 with n = 1: the sum does not fit (not "outside 0..3").
  const auto st = run(kHead + "state n: 0..3 = 1;\nphase p {\n  move bump {\n    n += 9223372036854775807;\n  }\n}\n", 1);
  CHECK_FALSE(st.ok);
  CHECK(st.message == "test.rules:7:5: error: integer overflow in '+'");
}

TEST_CASE("an overflow that inlining makes constant fails only where it runs", "[interp][integers]") {
  const std::string define = "define huge(a: int): int = a * 4611686018427387904;\n";
  // Never evaluated: the game plays.
  auto quiet = run(kHead + define + "state n: 0..3;\nphase p {\n"
                   "  move m requires n > 5 and huge(4) > 0 or n < 2; { n := n + 1; }\n}\n", 2);
  CHECK(quiet.ok);
  // Evaluated: the error of the operation inside the define.
  auto loud = run(kHead + define + "state n: 0..3;\nphase p {\n"
                  "  move m requires huge(4) > 0; { n := 1; }\n}\n", 0);
  CHECK_FALSE(loud.ok);
  CHECK(loud.message == "test.rules:4:28: error: integer overflow in '*'");
}
