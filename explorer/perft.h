// Perft: counts of move paths by depth from a position, over any engine.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <vector>

#include "compiler/runtime/engine.h"

namespace rulebook::explorer {

/// How far a perft has got (reported about once a second).
struct PerftProgress {
  size_t subtrees = 0;       ///< the units of work: the states of the split depth
  size_t subtrees_done = 0;
  int split_depth = 0;       ///< depth of those states below the root
  uint64_t deepest = 0;      ///< paths of the full depth counted so far (done subtrees)
  double seconds = 0;
};

struct PerftOptions {
  /// Worker threads: the subtrees below the split depth are shared out among them.
  int threads = 1;
  /// Set (e.g. by a SIGINT handler) to stop: the subtrees finished by then are counted.
  const std::atomic<bool>* interrupt = nullptr;
  /// Called from the calling thread about once a second while the workers run.
  std::function<void(const PerftProgress&)> progress;
};

/// paths[d - 1] is the number of move sequences of exactly d plies from the root (d =
/// 1..depth); a game that ends earlier contributes nothing deeper.
struct PerftResult {
  std::vector<uint64_t> paths;
  engine::Status status;  ///< an engine error stops the count; `paths` holds what was done
  /// False when interrupted (or stopped by an error): then `paths` are the counts of the
  /// depths up to the split depth plus those of the finished subtrees only.
  bool complete = true;
  size_t subtrees = 0, subtrees_done = 0;
  int split_depth = 0;
};

/// The same counts for any number of threads: the states of a split depth (enough of
/// them to share out) are counted by a breadth-first pass, then each one's subtree by a
/// depth-first walk whose last two plies are the engine's own perft.
PerftResult perft(const engine::Engine& engine, const uint8_t* root, int depth,
                  const PerftOptions& options = {});

/// Perft of depth - 1 below each legal first move (chess "divide"), in move order. Each
/// first move's count runs as `perft` with `options`; an interruption or an error ends
/// the list early (`status` says which).
struct DivideEntry {
  engine::Move move;
  uint64_t paths = 0;
};
std::vector<DivideEntry> divide(const engine::Engine& engine, const uint8_t* root, int depth,
                                engine::Status& status, const PerftOptions& options = {});

}  // namespace rulebook::explorer
