// The interpreter's turn after a move: `end when`, the phase's transitions, the next seat
// (semantics.md, Applying a move, step 2), and the loop over players with no legal move.
#include "compiler/interp/interpret_internal.h"

namespace rulebook::compiler {
namespace interp {

void Run::after_move() {
  mover_ = get(ir::kVarMover);
  if (!get(ir::kVarOver)) {
    bool ended = false;
    if (p_.end_when) {
      size_t saved = push_frame(p_.end_locals);
      ended = truth(*p_.end_when);
      if (ended && cov_) count_end_parts(*this, *cov_);
      pop_frame(saved, p_.end_locals);
    }
    if (ended) {
      if (cov_) cov_->ended(EndCause::EndWhen);
      put(ir::kVarOver, 0, 1);
    } else {
      const int phase = int(get(ir::kVarPhase));
      const ir::Phase& ph = p_.phases[size_t(phase)];
      size_t saved = push_frame(ph.locals);
      for (size_t i = 0; i < ph.transitions.size(); ++i) {
        const ir::Transition& t = ph.transitions[i];
        if (!truth(*t.condition)) continue;
        if (cov_) {
          ++cov_->counts[size_t(cov_->transition_site(phase, int(i)))];
          if (t.target < 0) cov_->ended(EndCause::Transition);
        }
        if (t.target < 0) put(ir::kVarOver, 0, 1);
        else put(ir::kVarPhase, 0, t.target);
        break;
      }
      pop_frame(saved, ph.locals);
    }
  }
  // The turn: again keeps it; otherwise the next seat that is not out, the mover last.
  const int64_t who = get(ir::kVarMover);
  if (again_ && !get(ir::kVarOut, who)) return;
  for (int i = 1; i <= p_.players; ++i) {
    int64_t q = (who + i) % p_.players;
    if (!get(ir::kVarOut, q)) {
      put(ir::kVarMover, 0, q);
      return;
    }
  }
  if (cov_ && !get(ir::kVarOver)) cov_->ended(EndCause::AllOut);
  put(ir::kVarOver, 0, 1);
}

void Run::stuck_loop() {
  while (!get(ir::kVarOver)) {
    mover_ = get(ir::kVarMover);
    if (has_legal_move()) return;
    int64_t alive = 0;
    for (int q = 0; q < p_.players; ++q) alive += !get(ir::kVarOut, q);
    // At least, not equal: a stuck block that eliminates leaves fewer players than passes.
    const int64_t passes = get(ir::kVarPasses);
    if (passes >= alive) {
      if (cov_) cov_->ended(EndCause::NobodyCanMove);
      put(ir::kVarOver, 0, 1);
      return;
    }
    store(p_.vars[ir::kVarPasses], 0, passes + 1, p_.phases[size_t(get(ir::kVarPhase))].span);
    const ir::Phase& ph = p_.phases[size_t(get(ir::kVarPhase))];
    if (!ph.has_stuck) {
      if (cov_) cov_->ended(EndCause::NobodyCanMove);
      put(ir::kVarOver, 0, 1);
      return;
    }
    again_ = false;
    size_t saved = push_frame(ph.stuck_locals);
    exec(ph.stuck);
    pop_frame(saved, ph.stuck_locals);
    after_move();
  }
}

}  // namespace interp
}  // namespace rulebook::compiler
