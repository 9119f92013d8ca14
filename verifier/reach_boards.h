// Whether the boards the verifier shows occur in a game: each is searched for by the
// explorer's directed search from its own setup, within a budget of positions.
#pragma once

#include <atomic>
#include <cstdint>
#include <vector>

#include "compiler/interp/interpret.h"
#include "verifier/verify.h"

namespace rulebook::verifier {

struct ReachPlan {
  /// Positions each search may store (a count, so the answer is the same on every
  /// machine); 0: no search.
  uint64_t max_states = 2000;
  const std::atomic<bool>* stop = nullptr;
};

/// The position a board is searched for from: the board's setup values, set up (seed 1 for
/// anything else the setup draws). False when they cannot be set up.
bool board_start(const compiler::Interpreter& interpreter, const Board& board, std::vector<uint8_t>& start);

/// Sets Result::reach of every result whose board can be searched for: not one violating a
/// proved invariant (it cannot occur), nor a board of a found invariant's step. The boards
/// of one setup are searched for together, from that setup (the board's own setup values,
/// set up as the engines do with seed 1), each search within plan.max_states positions.
void reach_boards(const compiler::Interpreter& interpreter, std::vector<Result>& results, const ReachPlan& plan);

}  // namespace rulebook::verifier
