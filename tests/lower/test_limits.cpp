// The size limits of dsl/limits.h: a state, a move's parameters and a move's worst-case
// work beyond them are refused at the declaration, and every shipped variant is within them.
#include <catch2/catch.hpp>

#include <algorithm>
#include <fstream>

#include "compiler/lower/lower_cost.h"
#include "dsl/limits.h"
#include "lower_test_util.h"

using namespace rulebook;
using compiler::testing::load_text;

namespace {

bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

}  // namespace

TEST_CASE("limits: every shipped variant is within them, with room to spare") {
  for (const std::string& path : compiler::testing::variant_files()) {
    auto l = compiler::testing::load_file(path);
    INFO(compiler::testing::short_name(path) << "\n" << l->errors());
    REQUIRE(l->program);
    const std::vector<double> work = compiler::move_work(*l->program);
    const double most = work.empty() ? 0 : *std::max_element(work.begin(), work.end());
    INFO("most work of a move: " << most);
    CHECK(most * 64 < double(dsl::kMaxMoveWork));
    CHECK(uint64_t(l->program->state_bytes) * 64 < dsl::kMaxStateBytes);
  }
}

TEST_CASE("limits: a state too large is refused at the variable that passes the limit") {
  auto l = load_text("game \"x\";\nboard 60 x 60;\nplayers 1;\nstate small: Cell -> 0..9;\n"
                     "state wide: Cell -> Cell -> 0..9;\nphase p {\n  move pass { end; }\n}\n");
  CHECK_FALSE(l->program);
  CHECK(has(l->errors(), "test.rules:5:7: error: the state is too large: with 'wide' (12960000 "
                         "bytes) it takes 12963605 bytes, and a state holds at most 1048576"));
  auto v = load_text("game \"x\";\nboard 100 x 100;\nplayers 1;\nstate pairs: Cell -> Cell -> bool;\n"
                     "phase p {\n  move pass { end; }\n}\n");
  CHECK(has(v->errors(), "test.rules:4:7: error: 'pairs' has 100000000 elements; a state variable "
                         "holds fewer than 16777216 (2^24)"));
}

TEST_CASE("limits: a move with too many parameter combinations is refused at the move") {
  auto l = load_text("game \"x\";\nboard 128 x 128;\nplayers 1;\nstate mark: Cell -> bool;\n"
                     "phase p {\n  move triple(a: Cell, b: Cell, c: Cell) { mark[a] := true; }\n}\n");
  CHECK_FALSE(l->program);
  CHECK(has(l->errors(), "test.rules:6:8: error: move 'triple' has more than 16777216 "
                         "combinations of parameter values"));
}

TEST_CASE("limits: a move whose rules loop for hours is refused before it runs") {
  // SMYOZ with 65,536 ships: every rule compares ships pairwise, 4 * 10^9 pairs for each of
  // the move's instances. Before the limit the interpreter ran for minutes on the first move.
  const std::string base = RULEBOOK_SOURCE_DIR "/variants/smyoz/smyoz.rules";
  auto l = load_text("variant \"big fleet\" extends \"" + base + "\";\n"
                     "override param delta_count = 65526;\n", "big-fleet.rules");
  CHECK_FALSE(l->program);
  INFO(l->errors());
  CHECK(has(l->errors(), "smyoz.rules:"));
  CHECK(has(l->errors(), "steps to find and play its instances in one state"));
}

TEST_CASE("limits: the work of the end condition, the setup and the score is counted") {
  // A nested count of 60,001 x 60,001 steps in the end condition: within the checker's limit
  // (a turn may take 2^48 steps), past the fuzzer's budget (2^24), which reads play_work.
  auto l = load_text("game \"x\";\nboard 1 x 3;\nplayers 1;\nstate k: 0..3;\n"
                     "phase p {\n  move m requires k < 3; { k += 1; }\n}\n"
                     "end when (count x in 0..60000 where (count y in 0..60000 where x == y + k) > 0) > 5;\n");
  INFO(l->errors());
  REQUIRE(l->program);
  const std::vector<double> moves = compiler::move_work(*l->program);
  REQUIRE(moves.size() == 1);
  CHECK(moves[0] < 100);
  CHECK(compiler::play_work(*l->program) > 60000.0 * 60000.0);
  // The plain game: a handful of steps.
  auto plain = load_text("game \"x\";\nboard 1 x 3;\nplayers 1;\nstate k: 0..3;\n"
                         "phase p {\n  move m requires k < 3; { k += 1; }\n}\nend when k == 3;\n");
  REQUIRE(plain->program);
  CHECK(compiler::play_work(*plain->program) < 100);
}
