// A proof over an empty set shows nothing: contradictory board rules or `where` make a
// prove "vacuous", never "proved", while a property over a set with an element stays
// proved; and a stop flag cuts the verifier short within a second, marking what it cut.
#include <atomic>
#include <chrono>
#include <string>
#include <thread>

#include <catch2/catch.hpp>

#include "verify_testing.h"

using namespace rulebook;
using rulebook::verify_testing::named;

namespace {

// Cells picked on a 3x3 board; `at_most_three` is a board rule, so the set over boards
// holds 0..3 picked cells. The game adds the rule named in `extra` (if any).
std::string game_text(const std::string& extra) {
  return R"(game "Vacuity";

board 3 x 3;

players 1;

state fleet: Cell -> bool;

define picked: int = count c in cells where fleet[c];

phase choose {
  move pick(c: Cell)
    requires not fleet[c];
  {
    fleet[c] := true;
  }
}

rule at_most_three "at most three cells picked": picked <= 3;
)" + extra + R"(
prove bounded "the board rule holds on the set" over boards: picked <= 3;
prove small_sum "a where clause that no board meets" over boards where picked == 2 and picked == 3: picked == 7;
prove not_all "a counterexample exists" over boards: picked == 0;
lemma empty_lemma "a lemma over an empty set" over boards where picked > 5: picked == 1;
prove no_move_after "no legal move leaves more than three cells" over moves pick where picked > 3: picked == 9;
)";
}

std::vector<verifier::Result> run(const std::string& text, double timeout = 60,
                                  const std::atomic<bool>* stop = nullptr) {
  dsl::SourceSet sources;
  dsl::Diagnostics diags;
  auto p = compiler::load_program_text(std::string(RULEBOOK_SOURCE_DIR) + "/tests/verify/vacuity.rules", text,
                                       sources, diags);
  INFO(diags.render(sources));
  REQUIRE_FALSE(diags.has_errors());
  verifier::Options o;
  o.timeout_seconds = timeout;
  o.stop = stop;
  return verifier::verify(*p, sources, o);
}

}  // namespace

TEST_CASE("a prove over a set with an element is proved, one over an empty where is vacuous") {
  const auto rs = run(game_text(""));
  const auto& bounded = named(rs, "bounded");
  INFO(verifier::result_text(bounded, false));
  CHECK(bounded.verdict == verifier::Verdict::Proved);
  CHECK_FALSE(bounded.vacuous());

  const auto& empty_where = named(rs, "small_sum");
  INFO(verifier::result_text(empty_where, false));
  CHECK(empty_where.verdict == verifier::Verdict::Vacuous);
  CHECK(empty_where.definite());
  CHECK_FALSE(empty_where.failed());
  CHECK(verifier::result_text(empty_where, false).rfind("prove small_sum: vacuous: the set is empty", 0) == 0);

  // A counterexample is still a counterexample: the emptiness question is asked only
  // after a proof.
  CHECK(named(rs, "not_all").verdict == verifier::Verdict::Refuted);
  CHECK(named(rs, "empty_lemma").verdict == verifier::Verdict::Vacuous);
  // Over moves: no legal move leaves four cells (the board rule holds after every move).
  const auto& moves = named(rs, "no_move_after");
  INFO(verifier::result_text(moves, false));
  CHECK(moves.verdict == verifier::Verdict::Vacuous);
}

TEST_CASE("contradictory board rules make every proof vacuous") {
  const auto rs = run(game_text("rule at_least_five \"at least five cells picked\": picked >= 5;\n"));
  for (const char* name : {"bounded", "small_sum", "not_all", "empty_lemma", "no_move_after"}) {
    const auto& r = named(rs, name);
    INFO(verifier::result_text(r, false));
    // Even `not_all`, refuted on the consistent rules, has no counterexample here: the set
    // is empty, and that is what it says.
    CHECK(r.verdict == verifier::Verdict::Vacuous);
    CHECK(r.detail.find("holds of nothing") != std::string::npos);
  }
}

TEST_CASE("a stop flag set before the run marks every property interrupted") {
  std::atomic<bool> stop{true};
  const auto rs = run(game_text(""), 60, &stop);
  REQUIRE(rs.size() == 5);
  for (const auto& r : rs) {
    CHECK(r.verdict == verifier::Verdict::Interrupted);
    CHECK_FALSE(r.definite());
  }
}

TEST_CASE("a stop flag set during a long proof stops Z3 within a second") {
  // SMYOZ's bound on moored ships runs well over a second (test_verify_limits); its lemmas
  // come first. The stop comes after half a second.
  dsl::SourceSet sources;
  auto p = verify_testing::load(std::string(RULEBOOK_SOURCE_DIR) + "/variants/smyoz/smyoz.rules", sources);
  verifier::Options o;
  o.timeout_seconds = 300;
  o.only = {"most_moored"};
  std::atomic<bool> stop{false};
  o.stop = &stop;
  std::thread stopper([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
    stop = true;
  });
  const auto t0 = std::chrono::steady_clock::now();
  const auto rs = verifier::verify(*p, sources, o);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  stopper.join();
  CHECK(seconds < 1.5);
  const auto& r = named(rs, "most_moored");
  INFO(verifier::result_text(r, false));
  CHECK(r.verdict == verifier::Verdict::Interrupted);
  // Whatever was decided before the stop keeps its verdict; nothing after it has one.
  bool after = false;
  for (const auto& x : rs) {
    if (x.verdict == verifier::Verdict::Interrupted) after = true;
    else CHECK_FALSE(after);
  }
}

TEST_CASE("a state named like one of the engine's own variables is a variable of its own") {
  // `over` is also the engine's "the game has ended": a set over moves excludes finished
  // games by it, and the file's flag of that name must not be read as it (the solver once
  // named both by the same string and so took them for one).
  const std::string text = R"(game "Named over";

board 2 x 2;

players 2;

state over: bool;

phase play {
  move mark(c: Cell)
    requires over;
  {
    over := false;
  }

  move flip {
    over := true;
  }
}

find a_mark "a legal mark" over moves mark: true;
prove marks_lower_the_flag "a mark lowers the file's flag, read after the move" over moves mark: not over;
)";
  const std::vector<verifier::Result> rs = run(text);
  CHECK(named(rs, "a_mark").verdict == verifier::Verdict::Found);
  CHECK(named(rs, "marks_lower_the_flag").verdict == verifier::Verdict::Proved);
}
