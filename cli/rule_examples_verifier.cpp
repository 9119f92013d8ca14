// The rulebook's examples that play did not give, asked of the verifier: a board of `over
// reachable moves` where the move is legal, or where the rule alone forbids it; each read
// again by the interpreter, then searched for in play so that a line is shown when found.
#include <algorithm>

#include <fmt/format.h>

#include "cli/rule_examples.h"
#include "verifier/reach_boards.h"
#include "verifier/rule_boards.h"

namespace rulebook::cli {
namespace {

/// A move as `play` prints it in a line: the player to move first.
std::string played_text(const compiler::Interpreter& in, const uint8_t* state, const engine::Move& move) {
  const std::vector<std::string>& players = in.program().domains[ir::kPlayerDomain].members;
  const int who = in.to_move(state);
  const std::string text = in.move_text(move);
  return who >= 0 && size_t(who) < players.size() ? players[size_t(who)] + " " + text : text;
}

/// The position `line` reaches from the setup `play --seed seed` makes, each move matched
/// by its text among the legal moves there; false when one is not legal.
bool replay(const compiler::Interpreter& in, uint64_t seed, const std::vector<std::string>& line,
            std::vector<uint8_t>& state) {
  state.assign(in.program().state_bytes, 0);
  engine::Setup setup;
  setup.seed = seed;
  if (!in.setup(state.data(), setup).ok) return false;
  std::vector<engine::Move> legal;
  for (const std::string& text : line) {
    legal.clear();
    if (!in.legal_moves(state.data(), legal).ok) return false;
    auto it = std::find_if(legal.begin(), legal.end(),
                           [&](const engine::Move& m) { return played_text(in, state.data(), m) == text; });
    if (it == legal.end() || !in.apply(state.data(), *it).ok) return false;
  }
  return true;
}

/// Whether the interpreter reads `move` on `state` as the example says: legal, or
/// rejected by `rule` alone.
bool confirmed(const compiler::Interpreter& in, const ir::Rule& rule, bool allowed, const std::vector<uint8_t>& state,
               const engine::Move& move, const Refusal& refusal) {
  std::vector<engine::Move> legal;
  if (!in.legal_moves(state.data(), legal).ok) return false;
  const bool listed = std::find(legal.begin(), legal.end(), move) != legal.end();
  return allowed ? listed && refusal.blockers.empty() : !listed && forbidden_only_by(refusal, rule);
}

}  // namespace

void ask_verifier(const compiler::Interpreter& in, const dsl::SourceSet& sources, const ExamplePlan& plan,
                  ExampleSearch& found) {
  const ir::Program& p = in.program();
  std::vector<verifier::RuleQuestion> questions;
  std::vector<Example*> wanted;
  for (RuleExamples& re : found.rules)
    for (Example* ex : {&re.allowed, &re.forbidden}) {
      if (ex->found || re.moves.empty()) continue;
      questions.push_back({re.rule, re.moves, ex == &re.allowed});
      wanted.push_back(ex);
    }
  if (questions.empty()) return;
  verifier::Options vo;
  vo.rlimit = plan.verifier_rlimit;
  vo.timeout_seconds = 600;  // a safety net only: the units decide every answer
  vo.candidate_games = plan.invariant_games;
  vo.candidate_rlimit = plan.invariant_rlimit;
  vo.progress = plan.progress;
  vo.stop = plan.stop;
  verifier::RuleBoards boards;
  try {
    boards = verifier::rule_boards(p, sources, vo, questions);
  } catch (const std::exception& e) {
    for (Example* ex : wanted) {
      ex->verifier = "unsupported";
      ex->verifier_detail = e.what();
    }
    return;
  }
  found.verifier_questions = int(questions.size());
  found.verifier_rlimit = boards.rlimit;
  found.invariants = boards.invariants;
  found.verifier_set = boards.invariants.empty()
                           ? "the boards where every board rule holds"
                           : fmt::format("the boards where every board rule and the proved invariants ({}) hold",
                                         fmt::join(boards.invariants, ", "));
  // The boards found are searched for in play together (each from its own setup).
  std::vector<verifier::Result> results;
  std::vector<size_t> of;
  for (size_t i = 0; i < boards.answers.size(); ++i) {
    const verifier::RuleAnswer& a = boards.answers[i];
    Example& ex = *wanted[i];
    ex.verifier = verifier::verdict_name(a.verdict);
    ex.verifier_detail = a.detail;
    ex.verifier_rlimit = a.rlimit;
    if (a.verdict != verifier::Verdict::Found || !a.board || !a.board->played) continue;
    verifier::Result r;
    r.kind = ir::PropertyKind::Find;
    r.verdict = verifier::Verdict::Found;
    r.board = a.board;
    results.push_back(std::move(r));
    of.push_back(i);
  }
  if (plan.reach_states > 0 && !results.empty() && !(plan.stop && plan.stop->load()))
    verifier::reach_boards(in, results, {plan.reach_states, plan.stop});
  for (size_t k = 0; k < results.size(); ++k) {
    const size_t i = of[k];
    const verifier::Board& b = *results[k].board;
    const ir::Rule& rule = p.rules[size_t(questions[i].rule)];
    const bool allowed = questions[i].allowed;
    Example& ex = *wanted[i];
    const engine::Move move = *b.played;
    ex.reach_searched = results[k].reach ? results[k].reach->states : 0;
    // A line found is shown from the setup `play --seed 1` makes, with the move read again
    // on the position it reaches (which agrees with the board on what the move reads).
    std::vector<uint8_t> state;
    if (results[k].reach && results[k].reach->reached && replay(in, 1, results[k].reach->line, state)) {
      const Refusal refusal = why_not_legal(in, sources, state.data(), move, true);
      if (confirmed(in, rule, allowed, state, move, refusal)) {
        ex.found = true;
        ex.state = state;
        ex.move = move;
        ex.move_text = played_text(in, state.data(), move);
        ex.seed = 1;
        ex.line = results[k].reach->line;
        ex.how = "the verifier, then the explorer's search for a line of play";
        ex.refusal = refusal;
        ex.reachable = true;
        continue;
      }
    }
    const Refusal refusal = why_not_legal(in, sources, b.state.data(), move, true);
    if (!confirmed(in, rule, allowed, b.state, move, refusal)) {
      // The verifier and the interpreter disagree: no example, and the page says so.
      ex.verifier = "not confirmed";
      ex.verifier_detail = "the interpreter does not read the verifier's board as it says (" + refusal.reason + ")";
      continue;
    }
    ex.found = true;
    ex.state = b.state;
    ex.move = move;
    ex.move_text = played_text(in, b.state.data(), move);
    ex.seed = 0;
    ex.line.clear();
    ex.how = "the verifier";
    ex.refusal = refusal;
    ex.reachable = false;
  }
}

}  // namespace rulebook::cli
