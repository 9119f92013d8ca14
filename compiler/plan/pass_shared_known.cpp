// Pass "shared-known": the bits saying which can(move, player) answers are remembered
// move into the word of the remembered defines' bits, after the defines' slots.
// Reason: a store into a variable that both kinds read forgets both, and undoing a move
// copies back what the parent knew of both: with one word each is one read, mask and
// write instead of two, at every store of every move played. Measured on a placement of
// two stores per move (perft, last ply by undoing): 4 instructions fewer per child, about
// 4% of its time.
// Applies when some define is remembered (remembered-defines, rule-tables), some can()
// answer is (can-memo), and the defines' slots and the can bits fit in 64 bits together.
// Costs: nothing; a can bit's number is larger by the number of define slots.
#include <algorithm>

#include <fmt/format.h>

#include "compiler/plan/passes.h"

namespace rulebook::compiler::plan {

void pass_shared_known(PassContext& c) {
  EnginePlan& plan = c.plan;
  int can_bits = 0;
  for (int base : plan.can_memo_base)
    if (base >= 0) can_bits = std::max(can_bits, base + c.program.players);
  if (plan.memo_defines == 0 || can_bits == 0) {
    c.report.lines.push_back(plan.memo_defines == 0 ? "no define remembered: the can bits keep their word"
                                                    : "no can() remembered: nothing to share");
    return;
  }
  if (plan.memo_defines + can_bits > 64) {
    c.report.lines.push_back(fmt::format("not shared: {} define slots and {} can bits exceed 64",
                                         plan.memo_defines, can_bits));
    return;
  }
  const int shift = plan.memo_defines;
  for (int& base : plan.can_memo_base)
    if (base >= 0) base += shift;
  for (uint64_t& f : plan.forget_cans) f <<= shift;
  plan.shared_known = true;
  c.report.lines.push_back(fmt::format("can bits {}..{} follow the {} define slot{} in one word", shift,
                                       shift + can_bits - 1, plan.memo_defines,
                                       plan.memo_defines == 1 ? "" : "s"));
}

}  // namespace rulebook::compiler::plan
