// The check that no move's legality asks can() about itself (docs/language.md, `can`).
#pragma once

#include "dsl/check.h"
#include "dsl/diagnostics.h"

namespace rulebook::dsl {

/// Reports each cycle of can(): a move whose `requires`, move rules or (in a game with
/// board rules, whose test plays the block) block and board rules ask can() of a move
/// whose legality asks, in the end, can() of the first. Deciding it would never finish.
void check_can_cycles(const Game& game, Diagnostics& diags);

}  // namespace rulebook::dsl
