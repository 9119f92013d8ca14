// The boards of results grouped by their setup, each group one directed search.
#include "verifier/reach_boards.h"

#include <map>
#include <string>

#include "compiler/ir/text.h"
#include "explorer/directed.h"

namespace rulebook::verifier {
namespace {

/// The board's setup values, set up (seed 1 for anything else the setup draws).
bool start_of(const compiler::Interpreter& in, const Board& b, std::vector<uint8_t>& start) {
  const ir::Program& p = in.program();
  std::vector<std::vector<uint32_t>> values(p.setups.size());
  for (size_t i = 0; i < p.setups.size(); ++i) {
    const ir::StateVar& v = p.vars[size_t(p.setups[i].var)];
    for (uint32_t k = 0; k < v.count; ++k) values[i].push_back(ir::load_index(b.state.data(), v, k));
  }
  start.assign(p.state_bytes, 0);
  return in.setup_indices(start.data(), 1, values).ok;
}

bool searched(const Result& r) {
  if (!r.board || r.found) return false;
  if (r.reach && r.reach->reached) return false;  // a board of play (over play): its line is known
  if (r.violates && !r.violates->empty()) return false;
  // A not-inductive step starts anywhere the invariant holds: reaching it is not asked.
  return r.verdict != Verdict::NotInductive;
}

}  // namespace

void reach_boards(const compiler::Interpreter& interpreter, std::vector<Result>& results, const ReachPlan& plan) {
  if (plan.max_states == 0) return;
  // Results by start position (ordered by its bytes: the same searches in the same order
  // on every run).
  std::map<std::string, std::vector<size_t>> by_start;
  for (size_t i = 0; i < results.size(); ++i) {
    if (!searched(results[i])) continue;
    std::vector<uint8_t> start;
    if (start_of(interpreter, *results[i].board, start)) by_start[std::string(start.begin(), start.end())].push_back(i);
  }
  for (const auto& group : by_start) {
    if (plan.stop && plan.stop->load()) return;
    std::vector<explorer::SearchTarget> targets;
    for (size_t i : group.second) {
      const Board& b = *results[i].board;
      explorer::SearchTarget t;
      t.kind = explorer::SearchTarget::Kind::Board;
      t.board = b.state;
      t.vars = b.vars;
      t.played = b.played;
      targets.push_back(std::move(t));
    }
    explorer::SearchPlan sp;
    sp.max_states = plan.max_states;
    sp.start.assign(group.first.begin(), group.first.end());
    sp.stop = plan.stop;
    const explorer::DirectedSearch found = explorer::search_targets(interpreter, targets, sp);
    if (plan.stop && plan.stop->load()) return;
    for (size_t k = 0; k < group.second.size(); ++k) {
      const explorer::SearchResult& s = found.results[k];
      Reach r;
      r.reached = s.reached;
      r.line = s.line_text;
      r.states = s.reached ? s.states : found.states;
      r.exhausted = !s.reached && found.exhausted;
      Result& res = results[group.second[k]];
      res.reach = std::move(r);
      // The board shown is the position play reaches: it agrees with the verifier's on
      // what the verdict reads, and the elements the verifier only filled in are play's.
      if (s.reached && s.position.size() == res.board->state.size() && s.position != res.board->state) {
        res.board->state = s.position;
        res.board->text = compiler::board_text(interpreter.program(), s.position.data());
      }
    }
  }
}

bool board_start(const compiler::Interpreter& interpreter, const Board& board, std::vector<uint8_t>& start) {
  return start_of(interpreter, board, start);
}

}  // namespace rulebook::verifier
