// Pass "can-direct": can(move, player) of a move with no parameter and only cheap
// conditions that cannot fail is answered by testing the conditions each time.
// Reason: testing a few reads costs less than remembering the answer and forgetting it at
// every store (can-memo skips these moves).
// Applies when the move has no parameters, the program has no board rules (which would
// run the move's block), and every `requires` and check is safe (no loop, no failure).
// Costs: nothing kept; the conditions are evaluated at each can().
#include <fmt/format.h>

#include "compiler/plan/passes.h"

namespace rulebook::compiler::plan {

void pass_can_direct(PassContext& c) {
  for (size_t m = 0; m < c.program.moves.size(); ++m) {
    const ir::Move& M = c.program.moves[m];
    const std::string name = c.move_name(int(m));
    std::string no;
    if (!M.params.empty()) no = "has parameters";
    else if (c.plan.board_rules) no = "the board rules run its block";
    for (const auto& r : M.requires_)
      if (no.empty() && !c.facts.safe(*r)) no = "a requires may loop or fail";
    for (const ir::Check& k : M.checks)
      if (no.empty() && !c.facts.safe(*k.condition)) no = "a check may loop or fail";
    c.plan.can_direct[m] = no.empty();
    c.report.lines.push_back(no.empty() ? fmt::format("{}: can() tests its conditions", name)
                                        : fmt::format("{}: not direct: {}", name, no));
  }
}

}  // namespace rulebook::compiler::plan
