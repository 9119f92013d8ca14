// The worst-case work of one move: how many steps its conditions, the rules it must pass and
// its body can take, counting every loop over a domain at the domain's full size.
#pragma once

#include <vector>

#include "compiler/ir/ir.h"
#include "dsl/diagnostics.h"

namespace rulebook::compiler {

/// For each move of `program`, an upper bound on the steps that finding its legal
/// instances and playing one take: the number of parameter combinations times the cost of
/// its requires, its move rules and the board rules, plus its body. Loops (quantifiers,
/// aggregates, filters, `for`) count their domain's size times their body; a call counts
/// the define's body. Sequences of unknown length count once.
std::vector<double> move_work(const ir::Program& program);

/// The most steps one of the other things play evaluates can take, counted the same way:
/// the setup (setup values, initial values, `init`), the end condition, a phase's
/// transitions and `when stuck` block, the score of one player.
double play_work(const ir::Program& program);

/// Reports, at the move, every move whose move_work passes dsl::kMaxMoveWork.
void check_move_work(const ir::Program& program, dsl::Diagnostics& diags);

}  // namespace rulebook::compiler
