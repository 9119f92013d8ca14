// Seeded random playouts over any engine: the move list, hashes, phases and final scores.
#pragma once

#include <cstdint>
#include <vector>

#include "compiler/runtime/engine.h"

namespace rulebook::explorer {

struct PlayoutOptions {
  uint64_t seed = 1;        ///< the move-choice stream (the setup has its own seed)
  int max_plies = 100000;   ///< a game still running after this many moves is cut off
};

/// One move of a playout and what it led to.
struct PlayoutStep {
  engine::Move move;
  int mover = 0;       ///< who played it
  int phase = 0;       ///< the phase after it
  uint64_t hash = 0;   ///< of the state after it
};

struct Playout {
  std::vector<PlayoutStep> steps;
  bool finished = false;          ///< the game ended (not cut off, no error)
  std::vector<int64_t> scores;    ///< at the last state reached
  std::vector<uint8_t> last;      ///< the last state reached
  engine::Status status;          ///< an engine error stops the game
};

/// Plays from `start`, choosing move `next() % n` of the legal moves with splitmix64.
Playout random_playout(const engine::Engine& engine, const uint8_t* start,
                       const PlayoutOptions& options);

}  // namespace rulebook::explorer
