// Seeded random games run by the interpreter with coverage counters: one game at a time,
// the same move choices as the other playout drivers.
#include "explorer/coverage_games.h"

#include <vector>

#include "compiler/runtime/random.h"

namespace rulebook::explorer {
namespace {

/// The subjects with the best score (tuple scores compared entry by entry).
std::vector<int> best_subjects(const engine::Info& info, const std::vector<int64_t>& s) {
  std::vector<int> best;
  const size_t w = size_t(info.score_width);
  for (int x = 0; x < info.score_subjects; ++x) {
    int c = best.empty() ? 1 : 0;
    for (size_t k = 0; k < w && c == 0; ++k) {
      const int64_t a = s[size_t(x) * w + k], b = s[size_t(best[0]) * w + k];
      if (a != b) c = (a > b) == info.highest_wins ? 1 : -1;
    }
    if (c > 0) best.clear();
    if (c >= 0) best.push_back(x);
  }
  return best;
}

}  // namespace

CoverageGames cover_games(const compiler::Interpreter& interpreter, const CoveragePlan& plan) {
  CoverageGames out(interpreter.program());
  out.plan = plan;
  compiler::Coverage& cov = out.counts;
  std::vector<uint8_t> state(interpreter.info().state_bytes);
  std::vector<engine::Move> moves;
  std::vector<bool> legal(cov.chosen.size()), played(cov.chosen.size());
  const ir::StateVar& phase_var = interpreter.program().vars[ir::kVarPhase];
  out.phase_games.assign(interpreter.program().phases.size(), 0);
  std::vector<bool> in_phase(out.phase_games.size());
  auto note_phase = [&] {
    const size_t ph = ir::load_index(state.data(), phase_var, 0);
    if (ph < in_phase.size()) in_phase[ph] = true;
  };
  for (int g = 0; g < plan.games; ++g) {
    if (plan.stop && plan.stop->load()) break;
    ++out.played;
    engine::Setup setup = plan.setup;
    setup.seed = plan.seed + uint64_t(g);
    engine::Status st = interpreter.setup_counted(state.data(), setup, cov);
    SplitMix64 rng(setup.seed);
    int plies = 0;
    bool cut = false;
    played.assign(played.size(), false);
    in_phase.assign(in_phase.size(), false);
    if (st.ok) note_phase();
    while (st.ok && !interpreter.terminal(state.data())) {
      if (plies >= plan.max_plies) {
        cut = true;
        break;
      }
      moves.clear();
      if (!(st = interpreter.legal_moves(state.data(), moves)).ok) break;
      if (moves.empty()) {
        st = engine::Status::Error("a state that is not over has no legal move");
        break;
      }
      ++cov.decisions;
      legal.assign(legal.size(), false);
      for (const engine::Move& m : moves) {
        ++cov.instances[size_t(m.kind)];
        if (!legal[size_t(m.kind)]) legal[size_t(m.kind)] = true, ++cov.legal_in[size_t(m.kind)];
      }
      const bool within = plan.blocked_budget == 0 || cov.blocked_work < plan.blocked_budget;
      if (plan.blocked && within && !(st = interpreter.count_blocked(state.data(), cov)).ok) break;
      const engine::Move m = moves[rng.below(moves.size())];
      ++cov.chosen[size_t(m.kind)];
      played[size_t(m.kind)] = true;
      if (!(st = interpreter.apply_counted(state.data(), m, cov)).ok) break;
      note_phase();
      ++plies;
    }
    out.plies += uint64_t(plies);
    for (size_t k = 0; k < played.size(); ++k) cov.games_chosen[k] += played[k];
    for (size_t k = 0; k < in_phase.size(); ++k) out.phase_games[k] += in_phase[k];
    if (plan.progress) plan.progress(g + 1, plan.games);
    if (!st.ok) {
      if (out.errors++ == 0) out.first_error = st.message;
    } else if (cut) {
      ++out.cut_off;
      out.cut_off_games.push_back(g);
    } else {
      ++out.finished;
      GameOutcome o;
      o.seed = setup.seed;
      o.plies = plies;
      if ((st = interpreter.scores(state.data(), o.scores)).ok) o.best = best_subjects(interpreter.info(), o.scores);
      out.outcomes.push_back(std::move(o));
    }
  }
  return out;
}

}  // namespace rulebook::explorer
