// A one-screen text summary of a checked game (for `rulebook check` and reports).
#pragma once

#include <string>

#include "dsl/check.h"

namespace rulebook::dsl {

/// Title, file chain, board and regions, players and teams, setup and state, phases with
/// their moves, rules, scoring and end, properties and metrics. Deterministic.
std::string describe(const Game& game);

}  // namespace rulebook::dsl
