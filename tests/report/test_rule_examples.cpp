// The rulebook's allowed / not-allowed examples of every named rule of the shipped Garnsi
// (6x6 and 9), Moyo and SMYOZ files: each found within a small budget, each replayed here
// from its setup along its line of play (so it is reachable), and each read again by the
// interpreter: the move is legal, or it is rejected by that rule and nothing else.
#include <algorithm>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "cli/rule_examples.h"
#include "compiler/lower/lower.h"

using namespace rulebook;

namespace {

/// The board `line` reaches from the setup of `seed`, each move matched by its text among
/// the legal moves there (so the line is one of legal moves).
bool replay(const compiler::Interpreter& in, uint64_t seed, const std::vector<std::string>& line,
            std::vector<uint8_t>& state) {
  const ir::Program& p = in.program();
  state.assign(p.state_bytes, 0);
  engine::Setup setup;
  setup.seed = seed;
  if (!in.setup(state.data(), setup).ok) return false;
  const std::vector<std::string>& players = p.domains[ir::kPlayerDomain].members;
  for (const std::string& text : line) {
    std::vector<engine::Move> legal;
    if (!in.legal_moves(state.data(), legal).ok) return false;
    auto it = std::find_if(legal.begin(), legal.end(), [&](const engine::Move& m) {
      return players[size_t(in.to_move(state.data()))] + " " + in.move_text(m) == text;
    });
    if (it == legal.end() || !in.apply(state.data(), *it).ok) return false;
  }
  return true;
}

bool is_legal(const compiler::Interpreter& in, const std::vector<uint8_t>& state, const engine::Move& move) {
  std::vector<engine::Move> legal;
  return in.legal_moves(state.data(), legal).ok && std::find(legal.begin(), legal.end(), move) != legal.end();
}

/// Finds and checks the examples of `path`; returns the rules without one, "rule (which)".
std::vector<std::string> check_file(const std::string& path, const cli::ExamplePlan& plan) {
  dsl::SourceSet sources;
  dsl::Diagnostics diags;
  auto p = compiler::load_program(path, sources, diags);
  REQUIRE(p);
  compiler::Interpreter in(*p, sources);
  const cli::ExampleSearch found = cli::find_rule_examples(in, sources, plan);
  CHECK(found.error.empty());
  REQUIRE(found.rules.size() == p->rules.size());
  std::vector<std::string> missing;
  for (const cli::RuleExamples& re : found.rules) {
    const ir::Rule& rule = p->rules[size_t(re.rule)];
    INFO(path << ": rule " << rule.name);
    for (const cli::Example* ex : {&re.allowed, &re.forbidden}) {
      const bool allowed = ex == &re.allowed;
      if (!ex->found) {
        missing.push_back(rule.name + (allowed ? " (allowed)" : " (not allowed)"));
        continue;
      }
      INFO((allowed ? "allowed: " : "not allowed: ") << ex->move_text);
      std::vector<uint8_t> state;
      REQUIRE(replay(in, ex->seed, ex->line, state));
      CHECK(state == ex->state);
      CHECK(std::find(re.moves.begin(), re.moves.end(), ex->move.kind) != re.moves.end());
      const cli::Refusal again = cli::why_not_legal(in, sources, state.data(), ex->move, true);
      if (allowed) {
        CHECK(is_legal(in, state, ex->move));
        CHECK(again.blockers.empty());
      } else {
        CHECK_FALSE(is_legal(in, state, ex->move));
        CHECK(cli::forbidden_only_by(again, rule));
      }
    }
  }
  return missing;
}

cli::ExamplePlan small_plan() {
  cli::ExamplePlan plan;
  plan.games = 10;
  plan.max_plies = 1000;
  plan.budget = 200000;
  plan.search_states = 200;
  return plan;
}

}  // namespace

TEST_CASE("every named rule of the Garnsi 6x6 file has both examples, checked", "[book]") {
  CHECK(check_file("variants/garnsi-malom/garnsi-6x6.rules", small_plan()) == std::vector<std::string>{});
}

TEST_CASE("every named rule of the Garnsi 9 file has both examples, checked", "[book]") {
  CHECK(check_file("variants/garnsi-malom/garnsi-9.rules", small_plan()) == std::vector<std::string>{});
}

TEST_CASE("every named rule of the Moyo file has both examples, checked", "[book]") {
  CHECK(check_file("variants/sudoku-moyo/moyo.rules", small_plan()) == std::vector<std::string>{});
}

TEST_CASE("every named rule of the SMYOZ file has both examples, checked", "[book]") {
  CHECK(check_file("variants/smyoz/smyoz.rules", small_plan()) == std::vector<std::string>{});
}
