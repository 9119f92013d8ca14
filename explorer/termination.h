// Whether every game ends, settled by enumeration: every position reachable from the
// setup is stored with its moves; an acyclic graph bounds every game by its longest path,
// a cycle is a line of play that can repeat for ever.
#pragma once

#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

#include "compiler/interp/interpret.h"
#include "compiler/runtime/engine.h"

namespace rulebook::explorer {

struct Termination {
  enum class Verdict {
    Bounded,   ///< every game from the setup ends within `longest` plies, and one takes that many
    Endless,   ///< a reachable position comes back: `lead_in` then `cycle` repeat for ever
    Unsettled  ///< more positions than the budget (or stopped, or an error of the rules)
  };
  Verdict verdict = Verdict::Unsettled;
  uint64_t states = 0;      ///< positions stored
  uint64_t budget = 0;
  int longest = 0;          ///< Bounded: the longest game, in plies
  std::vector<std::string> longest_line;  ///< Bounded: one longest game's moves
  std::vector<std::string> lead_in;       ///< Endless: from the setup to the repeated position
  std::vector<std::string> cycle;         ///< Endless: from it back to it
  bool setup_random = false;  ///< the setup draws from the random stream: this seed's setup only
  std::string error;
};

/// Enumerates the positions reachable from `setup` (at most `max_states`) and settles
/// whether every game ends, and within how many plies.
Termination settle_termination(const compiler::Interpreter& interpreter, const engine::Setup& setup,
                               uint64_t max_states, const std::atomic<bool>* stop = nullptr);

}  // namespace rulebook::explorer
