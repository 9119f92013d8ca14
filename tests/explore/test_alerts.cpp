// Designer alerts (explorer/alerts.h): each small rules file under tests/golden/lint/ with a
// known defect gives exactly the alert its defect calls for (code and subject), a sound one
// none; an `allow` acknowledges; the binomial test and the evidence say what they rest on.
#include <algorithm>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <catch2/catch.hpp>

#include "compiler/interp/interpret.h"
#include "compiler/lower/lower.h"
#include "explorer/alerts.h"
#include "explorer/coverage_games.h"

using namespace rulebook;

namespace {

struct Linted {
  dsl::SourceSet sources;
  dsl::Diagnostics diags;
  std::optional<ir::Program> program;
  std::vector<explorer::Alert> alerts;
  int finished = 0;
};

std::unique_ptr<Linted> lint(const std::string& path, int games = 200, int max_plies = 200) {
  auto l = std::make_unique<Linted>();
  l->program = compiler::load_program(path, l->sources, l->diags);
  INFO(l->diags.render(l->sources));
  REQUIRE(l->program);
  const compiler::Interpreter interpreter(*l->program, l->sources);
  explorer::CoveragePlan plan;
  plan.games = games;
  plan.seed = 1;
  plan.max_plies = max_plies;
  const explorer::CoverageGames g = explorer::cover_games(interpreter, plan);
  REQUIRE(g.errors == 0);
  l->finished = g.finished;
  l->alerts = explorer::find_alerts(g, *l->program);
  return l;
}

using Found = std::vector<std::pair<std::string, std::string>>;

Found codes(const std::vector<explorer::Alert>& alerts) {
  Found out;
  for (const explorer::Alert& a : alerts) out.emplace_back(a.code, a.subject);
  return out;
}

std::string all_text(const explorer::Alert& a) {
  std::string t = a.message;
  for (const std::string& e : a.evidence) t += "\n" + e;
  return t;
}

}  // namespace

TEST_CASE("each defective file gives exactly its alert", "[alerts]") {
  const std::vector<std::pair<std::string, Found>> cases = {
      {"clean", {}},
      {"dead_move", {{"dead-move", "discard"}}},
      {"dead_statement", {{"dead-statement", "place"}}},
      {"unreached_end", {{"unreached-end", ""}}},
      {"never_ends", {{"never-ends", ""}}},
      {"constant_winner", {{"constant-result", ""}}},
      {"all_tied", {{"constant-result", ""}}},
      {"seat_never_wins", {{"seat-never-wins", "p3"}}},
      {"never_blocks", {{"never-blocks", "not_full"}}},
      {"dead_phase", {{"dead-phase", "bonus"}}},
      {"dead_transition", {{"dead-transition", "opening"}}},
      {"dead_stuck", {{"dead-statement", "play"}}},
      {"seat_imbalance", {{"seat-imbalance", "sides"}}},
      {"acknowledged", {{"dead-move", "discard"}}},
      // Their defects are in their properties (verifier/proof_alerts.h): the games see none.
      {"unreachable_witness", {}},
      {"empty_depends_core", {}},
  };
  for (const auto& c : cases) {
    INFO("case: " << c.first);
    auto l = lint("tests/golden/lint/" + c.first + ".rules");
    CHECK(codes(l->alerts) == c.second);
    // Notes (statements, `until`s and conditions never seen doing anything) do not count.
    const bool note = c.first == "dead_statement" || c.first == "dead_stuck" || c.first == "dead_transition" ||
                      c.first == "never_blocks";
    const int expect_open = c.first == "acknowledged" || note ? 0 : int(c.second.size());
    CHECK(explorer::unacknowledged(l->alerts) == expect_open);
    for (const explorer::Alert& a : l->alerts)
      CHECK((a.severity == explorer::Alert::Severity::Note) == note);
    for (const explorer::Alert& a : l->alerts) {
      // Evidence from playouts never claims more than it saw (an imbalance states its test).
      if (a.code != "seat-imbalance") CHECK(all_text(a).find("not seen in 200 random games") != std::string::npos);
      CHECK(all_text(a).find("impossible") == std::string::npos);
    }
  }
}

TEST_CASE("alert texts and evidence", "[alerts]") {
  SECTION("a dead move names the move, its place and the decisions it was not legal in") {
    auto l = lint("tests/golden/lint/dead_move.rules");
    REQUIRE(l->alerts.size() == 1);
    const explorer::Alert& a = l->alerts[0];
    CHECK(a.message == "move 'discard' was never legal");
    CHECK(a.severity == explorer::Alert::Severity::Warning);
    CHECK(l->sources.position(a.span.file, a.span.begin).line == 10);
    CHECK(l->sources.position(a.span.file, a.span.begin).column == 8);
    // Four placements a game, one decision each: 800 decisions over 200 games.
    CHECK(a.evidence[0].rfind("legal in 0 of 800 decisions (800 moves played) over 200 random games (seeds 1 to 200)", 0) == 0);
  }
  SECTION("every game tied: the same scores and a game to replay") {
    auto l = lint("tests/golden/lint/all_tied.rules");
    REQUIRE(l->alerts.size() == 1);
    CHECK(l->alerts[0].message == "every finished game ended in a tie between all 2");
    CHECK(l->alerts[0].evidence[1] == "every one with the same scores: p1 2, p2 2");
    CHECK(l->alerts[0].evidence[2] == "e.g. the game of seed 1 (4 moves): rulebook play FILE --seed 1");
  }
  SECTION("a constant winner is named") {
    auto l = lint("tests/golden/lint/constant_winner.rules");
    REQUIRE(l->alerts.size() == 1);
    CHECK(l->alerts[0].message == "every finished game was won by p1");
  }
  SECTION("games that never end: none finished, every one cut off") {
    auto l = lint("tests/golden/lint/never_ends.rules", 200, 50);
    REQUIRE(l->alerts.size() == 1);
    CHECK(l->finished == 0);
    CHECK(l->alerts[0].evidence[0].rfind("200 of 200 random games (seeds 1 to 200) cut off after 50 moves each", 0) == 0);
  }
  SECTION("the acknowledged alert carries the reason") {
    auto l = lint("tests/golden/lint/acknowledged.rules");
    REQUIRE(l->alerts.size() == 1);
    CHECK(l->alerts[0].acknowledged);
    CHECK(l->alerts[0].reason == "kept so that a variant can loosen its conditions");
  }
  SECTION("too few games to tell a seat never wins: no alert") {
    // With three seats equally likely to win, 10 games without a win has probability
    // (2/3)^10 = 0.017, above the level 0.001.
    auto l = lint("tests/golden/lint/seat_never_wins.rules", 10);
    CHECK(codes(l->alerts).empty());
  }
}

TEST_CASE("the 6x6 team game with the four-move end: capture never reached", "[alerts]") {
  auto l = lint("variants/garnsi-malom/garnsi-6x6-four-moves.rules", 20, 2000);
  auto it = std::find_if(l->alerts.begin(), l->alerts.end(),
                         [](const explorer::Alert& a) { return a.code == "dead-move" && a.subject == "capture"; });
  REQUIRE(it != l->alerts.end());
  CHECK(it->message == "move 'capture' was never legal");
  CHECK(it->evidence[0].find("legal in 0 of ") == 0);
  CHECK(it->evidence[0].find("over 20 random games (seeds 1 to 20): not seen in 20 random games") != std::string::npos);
  // The shipped reading captures: no such alert there.
  auto live = lint("variants/garnsi-malom/garnsi-6x6.rules", 20, 2000);
  CHECK(std::none_of(live->alerts.begin(), live->alerts.end(),
                     [](const explorer::Alert& a) { return a.code == "dead-move" && a.subject == "capture"; }));
}

TEST_CASE("two-sided binomial test against one half", "[alerts]") {
  CHECK(explorer::binomial_two_sided(5, 10) == Approx(1.0));
  // P(X <= 1) for n = 10: 11 / 1024; doubled.
  CHECK(explorer::binomial_two_sided(1, 10) == Approx(22.0 / 1024));
  CHECK(explorer::binomial_two_sided(9, 10) == Approx(22.0 / 1024));
  CHECK(explorer::binomial_two_sided(0, 0) == 1.0);
  CHECK(explorer::grouped(41230) == "41,230");
  CHECK(explorer::grouped(999) == "999");
  CHECK(explorer::grouped(1000000) == "1,000,000");
}
