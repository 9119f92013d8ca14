// Pass "can-memo": the answer of can(move, player) is remembered, one bit per player,
// until a store into a variable the move's legality reads.
// Reason: phases, end tests and other moves' conditions ask can() repeatedly on the same
// state, and each answer may search every instance of the move.
// Applies to every move can-direct did not take, in order, while 64 bits last (a move
// takes one bit per player).
// Costs: two words in the state's working copy; every store into a variable the move's
// legality reads clears the move's bits (and undoing a move restores them).
#include <fmt/format.h>

#include "compiler/plan/passes.h"

namespace rulebook::compiler::plan {

void pass_can_memo(PassContext& c) {
  EnginePlan& plan = c.plan;
  const int players = c.program.players;
  int next = 0;
  for (size_t m = 0; m < c.program.moves.size(); ++m) {
    if (plan.can_direct[m]) continue;
    const std::string name = c.move_name(int(m));
    if (next + players > 64) {
      c.report.lines.push_back(fmt::format("{} and later moves: not remembered: 64 bits are taken", name));
      break;
    }
    plan.can_memo_base[m] = next;
    const uint64_t bits = (players >= 64 ? ~uint64_t(0) : ((uint64_t(1) << players) - 1)) << next;
    const std::set<int>& reads = c.facts.move_reads(int(m)).vars;
    for (int v : reads) plan.forget_cans[size_t(v)] |= bits;
    c.report.lines.push_back(fmt::format("{}: bits {}..{}, forgotten by stores into {}", name, next,
                                         next + players - 1, c.var_list(reads)));
    next += players;
  }
}

}  // namespace rulebook::compiler::plan
