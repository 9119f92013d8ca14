// Perft: counts of move paths by depth from a position, and of those ending in a finished
// game, over any engine.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "compiler/runtime/engine.h"

namespace rulebook::explorer {

/// Counts of complete games summed over depths can pass 2^64 where each depth's does not.
using WideCount = unsigned __int128;
/// The sum of `counts`, without wrapping.
WideCount wide_sum(const std::vector<uint64_t>& counts);
/// `n` in decimal.
std::string wide_text(WideCount n);
/// `n` as a JSON number, or as its decimal text where it does not fit in 64 bits.
nlohmann::json wide_json(WideCount n);

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
  /// Count the complete games too. Knowing whether a path ends the game takes the state it
  /// reaches, so the last ply's moves are played; without this the engine's own perft
  /// counts the last two plies without making their states, many times faster.
  bool count_ends = true;
  /// With count_ends: called on the state of every path that ends the game, with its ply
  /// (0: one move from the root) and the worker calling (0 .. threads - 1; the calling
  /// thread is 0), so a caller keeps what it needs per worker without locks.
  std::function<void(const uint8_t* state, int ply, int worker)> on_end;
};

/// paths[d - 1] is the number of move sequences of exactly d plies from the root (d =
/// 1..depth); a game that ends earlier contributes nothing deeper. ends[d - 1] is how many
/// of those paths end in a terminal state: the complete games of exactly d moves (empty
/// when not counted).
struct PerftResult {
  std::vector<uint64_t> paths;
  std::vector<uint64_t> ends;
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
  WideCount ends = 0;  ///< complete games of 1..depth moves that start with `move`
};
std::vector<DivideEntry> divide(const engine::Engine& engine, const uint8_t* root, int depth,
                                engine::Status& status, const PerftOptions& options = {});

}  // namespace rulebook::explorer
