// Perft: counts of move paths by depth from a position, over any engine.
#pragma once

#include <cstdint>
#include <vector>

#include "compiler/engine.h"

namespace rulebook::explorer {

/// paths[d - 1] is the number of move sequences of exactly d plies from the root (d =
/// 1..depth); a game that ends earlier contributes nothing deeper.
struct PerftResult {
  std::vector<uint64_t> paths;
  engine::Status status;  ///< an engine error stops the count; `paths` holds what was done
};

PerftResult perft(const engine::Engine& engine, const uint8_t* root, int depth);

/// Perft of depth - 1 below each legal first move (chess "divide"), in move order.
struct DivideEntry {
  engine::Move move;
  uint64_t paths = 0;
};
std::vector<DivideEntry> divide(const engine::Engine& engine, const uint8_t* root, int depth,
                                engine::Status& status);

}  // namespace rulebook::explorer
