// The rulebook's allowed / not-allowed examples of every named rule of the shipped Garnsi,
// Moyo and SMYOZ files: each found within a small budget, in play (replayed here from its
// setup along its line, so it is reachable) or from the verifier (marked not shown
// reachable), and each read again by the interpreter: the move is legal, or it is rejected
// by that rule and nothing else.
#include <algorithm>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "cli/rule_examples.h"
#include "compiler/lower/lower.h"
#include "verifier/rule_boards.h"

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

/// What the examples of a file came to: the rules without one, "rule (which)" (with
/// ": proved none" when the verifier proved there is none), and the examples that are the
/// verifier's boards not shown reachable, "rule (which)".
struct Outcome {
  std::vector<std::string> missing;
  std::vector<std::string> unreached;
};

/// Finds and checks the examples of `path`.
Outcome check_file(const std::string& path, const cli::ExamplePlan& plan) {
  dsl::SourceSet sources;
  dsl::Diagnostics diags;
  auto p = compiler::load_program(path, sources, diags);
  REQUIRE(p);
  compiler::Interpreter in(*p, sources);
  const cli::ExampleSearch found = cli::find_rule_examples(in, sources, plan);
  CHECK(found.error.empty());
  REQUIRE(found.rules.size() == p->rules.size());
  Outcome out;
  std::vector<std::string>& missing = out.missing;
  for (const cli::RuleExamples& re : found.rules) {
    const ir::Rule& rule = p->rules[size_t(re.rule)];
    INFO(path << ": rule " << rule.name);
    for (const cli::Example* ex : {&re.allowed, &re.forbidden}) {
      const bool allowed = ex == &re.allowed;
      if (!ex->found) {
        // Proved impossible over the verifier's set is a statement, not a gap.
        missing.push_back(rule.name + (allowed ? " (allowed)" : " (not allowed)") +
                          (ex->verifier == "none" ? ": proved none" : ""));
        continue;
      }
      INFO((allowed ? "allowed: " : "not allowed: ") << ex->move_text);
      std::vector<uint8_t> state = ex->state;
      if (ex->reachable) {
        REQUIRE(replay(in, ex->seed, ex->line, state));
        CHECK(state == ex->state);
      } else {
        // A board of the verifier: marked so, and in the set it was asked over.
        CHECK(ex->how == "the verifier");
        CHECK(ex->verifier == "found");
        CHECK(ex->line.empty());
        out.unreached.push_back(rule.name + (allowed ? " (allowed)" : " (not allowed)"));
      }
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
  return out;
}

cli::ExamplePlan small_plan() {
  cli::ExamplePlan plan;
  plan.games = 10;
  plan.max_plies = 1000;
  plan.budget = 200000;
  plan.search_states = 200;
  plan.verifier_rlimit = 2000000;
  plan.reach_states = 100;
  return plan;
}

using Names = std::vector<std::string>;

}  // namespace

TEST_CASE("every named rule of the Garnsi files has both examples, checked", "[book]") {
  // The boards of the verifier (not shown reachable) where these games give none: captures
  // are rare in the jump variants' random games, and the board shrinks only in an endgame.
  const std::vector<std::pair<const char*, Names>> files{
      {"garnsi-6x6", {}},
      {"garnsi-6x6-four-moves", {"mill_protection (allowed)", "mill_protection (not allowed)"}},
      {"garnsi-6x6-teams-move", {"mill_protection (allowed)", "mill_protection (not allowed)"}},
      {"garnsi-9", {}},
      {"garnsi-9-teams", {}},
      {"garnsi-9-shrinking", {"mill_protection (not allowed)", "live_cells_only (not allowed)"}},
      {"garnsi-lesson", {"mill_protection (allowed)", "mill_protection (not allowed)"}},
      {"garnsi-lesson-teams", {"mill_protection (allowed)", "mill_protection (not allowed)"}}};
  for (const auto& [f, unreached] : files) {
    INFO(f);
    const Outcome o = check_file(std::string("variants/garnsi-malom/") + f + ".rules", small_plan());
    CHECK(o.missing == Names{});
    CHECK(o.unreached == unreached);
  }
}

TEST_CASE("every named rule of the Moyo files has both examples, checked", "[book]") {
  for (const char* f : {"moyo", "alternate-choosing", "areas-by-columns", "areas-by-rows", "corners-vs-edges",
                        "handicap", "horikomi"}) {
    const Outcome o = check_file(std::string("variants/sudoku-moyo/") + f + ".rules", small_plan());
    INFO(f);
    CHECK(o.missing == Names{});
    // The order of claims and the handicap's player are kept by the turn order, which the
    // verifier's set (the board rules; no invariant is proved) does not know.
    const std::string name = f;
    CHECK(o.unreached == (name == "alternate-choosing" ? Names{"claim_order (not allowed)"}
                          : name == "handicap"         ? Names{"weaker_player_first (not allowed)"}
                                                       : Names{}));
  }
}

TEST_CASE("every named rule of the SMYOZ files has both examples, checked", "[book]") {
  for (const char* f : {"smyoz", "smyoz-8x8", "smyoz-puzzles"}) {
    const Outcome o = check_file(std::string("variants/smyoz/") + f + ".rules", small_plan());
    INFO(f);
    CHECK(o.missing == Names{});
    CHECK(o.unreached == Names{});
  }
}

// The verifier's answers on a tiny game against every board of it: a board exists where a
// move a rule governs is legal (where the rule alone forbids one) exactly when the verifier
// finds one, each board it gives is read so by the interpreter, and "none" is proved where
// no board has one.
TEST_CASE("the verifier's example boards agree with every board of a tiny game", "[book]") {
  const std::string path = "tests/report/tiny_rule_examples.rules";
  dsl::SourceSet sources;
  dsl::Diagnostics diags;
  auto p = compiler::load_program(path, sources, diags);
  REQUIRE(p);
  compiler::Interpreter in(*p, sources);
  // The questions, as the rulebook asks them: every rule, each of its moves.
  std::vector<verifier::RuleQuestion> questions;
  for (size_t r = 0; r < p->rules.size(); ++r) {
    std::vector<int> moves;
    for (size_t m = 0; m < p->moves.size(); ++m)
      if (p->rules[r].board_rule || std::any_of(p->moves[m].checks.begin(), p->moves[m].checks.end(),
                                                [&](const ir::Check& c) { return c.rule == int(r); }))
        moves.push_back(int(m));
    for (bool allowed : {true, false}) questions.push_back({int(r), moves, allowed});
  }
  verifier::Options vo;
  vo.rlimit = 5000000;
  const verifier::RuleBoards got = verifier::rule_boards(*p, sources, vo, questions);
  REQUIRE(got.answers.size() == questions.size());
  CHECK(got.invariants.empty());
  // Brute force: every owner of every cell and every player to move, where the board rule
  // holds; every instance of every move read by the interpreter.
  int owner = -1;
  for (size_t v = 0; v < p->vars.size(); ++v)
    if (p->vars[v].name == "owner") owner = int(v);
  REQUIRE(owner >= 0);
  const ir::StateVar& ov = p->vars[size_t(owner)];
  const uint32_t values = p->domains[size_t(ov.domain)].size;
  std::vector<uint8_t> base(p->state_bytes, 0);
  engine::Setup setup;
  setup.seed = 1;
  REQUIRE(in.setup(base.data(), setup).ok);
  std::vector<bool> exists(questions.size(), false);
  uint64_t boards = 0;
  for (uint32_t code = 0; code < values * values * values * values; ++code)
    for (uint32_t mover = 0; mover < uint32_t(p->players); ++mover) {
      std::vector<uint8_t> state = base;
      for (uint32_t c = 0, rest = code; c < ov.count; ++c, rest /= values) ir::store_index(state.data(), ov, c, rest % values);
      ir::store_index(state.data(), p->vars[ir::kVarMover], 0, mover);
      compiler::Evaluator ev(in);
      ev.start(state.data());
      bool well_formed = true;
      for (const ir::Rule& rule : p->rules) {
        int64_t v = 0;
        if (rule.board_rule) well_formed = well_formed && ev.scalar(*rule.condition, v).ok && v != 0;
      }
      if (!well_formed) continue;
      ++boards;
      std::vector<engine::Move> legal;
      REQUIRE(in.legal_moves(state.data(), legal).ok);
      for (size_t m = 0; m < p->moves.size(); ++m)
        for (int32_t c = 0; c < 4; ++c) {
          engine::Move move;
          move.kind = int(m);
          move.args[0] = c;
          const bool listed = std::find(legal.begin(), legal.end(), move) != legal.end();
          const cli::Refusal refusal = cli::why_not_legal(in, sources, state.data(), move, true);
          for (size_t q = 0; q < questions.size(); ++q) {
            const auto& ms = questions[q].moves;
            if (std::find(ms.begin(), ms.end(), int(m)) == ms.end()) continue;
            const ir::Rule& rule = p->rules[size_t(questions[q].rule)];
            if (questions[q].allowed ? listed : !listed && cli::forbidden_only_by(refusal, rule)) exists[q] = true;
          }
        }
    }
  CHECK(boards == 2 * (5 + 4 * 4));  // p1 has no piece (p2: none or 4 cells) or one (p2: none or 3)
  std::vector<std::string> verdicts;
  for (size_t q = 0; q < questions.size(); ++q) {
    const verifier::RuleAnswer& a = got.answers[q];
    const ir::Rule& rule = p->rules[size_t(questions[q].rule)];
    INFO(rule.name << (questions[q].allowed ? " allowed" : " not allowed") << ": " << a.detail);
    verdicts.push_back(rule.name + (questions[q].allowed ? " allowed: " : " not allowed: ") +
                       verifier::verdict_name(a.verdict));
    CHECK((a.verdict == verifier::Verdict::Found) == exists[q]);
    CHECK((a.verdict == verifier::Verdict::None) == !exists[q]);
    if (!a.board) continue;
    REQUIRE(a.board->played);
    std::vector<engine::Move> legal;
    REQUIRE(in.legal_moves(a.board->state.data(), legal).ok);
    const bool listed = std::find(legal.begin(), legal.end(), *a.board->played) != legal.end();
    const cli::Refusal refusal = cli::why_not_legal(in, sources, a.board->state.data(), *a.board->played, true);
    if (questions[q].allowed) CHECK(listed);
    else CHECK((!listed && cli::forbidden_only_by(refusal, rule)));
  }
  CHECK(verdicts == Names{"apart allowed: found", "apart not allowed: none", "on_empty allowed: found",
                          "on_empty not allowed: none", "one_each allowed: found", "one_each not allowed: found",
                          "crowded_lift allowed: none", "crowded_lift not allowed: found"});
}
