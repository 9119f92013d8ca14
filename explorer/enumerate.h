// Breadth-first enumeration of a game's states by depth, with exact deduplication, over any
// engine: paths, distinct states, states up to symmetry, terminal states and phases.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "compiler/runtime/engine.h"
#include "compiler/ir/ir.h"
#include "explorer/perft.h"
#include "explorer/symmetry.h"

namespace rulebook::explorer {

/// The states reachable in exactly `depth` moves (each counted once however reached).
struct DepthCount {
  int depth = 0;
  uint64_t paths = 0;       ///< move sequences of exactly `depth` moves (perft)
  bool paths_known = true;  ///< false when a path count overflowed 2^48
  uint64_t distinct = 0;
  /// Sum of a hash of each state's key: the same set of states gives the same sum, in any
  /// order, so a depth holding the very states of an earlier one is told in one comparison.
  uint64_t fingerprint = 0;
  uint64_t symmetric = 0;   ///< classes of `distinct` under the group
  /// Sum of the class sizes of the classes counted: equals `distinct` when every class is
  /// whole at this depth, as it must be when the group fixes the initial state.
  uint64_t class_sum = 0;
  uint64_t terminal = 0;
  uint64_t terminal_symmetric = 0;
  /// Complete games of exactly `depth` moves: the paths to this depth's terminal states.
  /// Every state is stored (the group only marks each class's least member), so this is
  /// exact under any group, whether or not it fixes the initial state.
  WideCount ends = 0;
  /// False when some terminal state's path count saturated at 2^48: `ends` is then a lower
  /// bound ("more than").
  bool ends_exact = true;
  std::vector<uint64_t> per_phase;  ///< distinct states by phase index
  /// Symmetries of the terminal states of this depth as a set: the board transformations
  /// (beyond the group) under which every terminal state's image is a terminal state of
  /// the depth, each checked on all of them. Empty when none (or not searched).
  std::vector<std::string> end_symmetries;
  /// Classes of the terminal states under the group and end_symmetries together.
  uint64_t terminal_end_classes = 0;
};

struct Progress {
  int depth = 0;             ///< the depth being built
  uint64_t expanded = 0;     ///< states of depth - 1 expanded so far
  uint64_t frontier = 0;     ///< states of depth - 1 in all
  uint64_t records = 0;      ///< records held for `depth` (before the last merge)
  uint64_t memory = 0;       ///< bytes of state storage held
  double seconds = 0;
};

struct ExploreOptions {
  int max_depth = -1;          ///< -1: until no state is left
  /// 0: no bound; else a depth is not built when the states of the complete depths plus the
  /// records its expansion makes (duplicates included) pass it. Deterministic.
  uint64_t max_states = 0;
  /// Bytes of state storage; 0: no bound. Where it stops depends on when duplicates are
  /// merged, so on the threads: the report uses max_states.
  uint64_t max_memory = 0;
  int threads = 1;
  uint32_t partitions = 1024;
  /// Set (e.g. by a SIGINT handler) to stop; the completed depths are kept.
  const std::atomic<bool>* interrupt = nullptr;
  /// Candidates for DepthCount::end_symmetries (board_transforms not in the group).
  std::vector<Transform> end_candidates;
  /// Called from the calling thread about once a second.
  std::function<void(const Progress&)> progress;
};

struct ExploreResult {
  std::vector<DepthCount> depths;  ///< depth 0 (the initial state) first; complete ones only
  /// "" (every state explored), or why it stopped: "depth", "states", "memory",
  /// "interrupted", "error", "repeats" (no depth bound was given and the last depth holds
  /// the states of depth `repeats_depth` again, so every later depth repeats earlier ones).
  std::string stopped;
  int repeats_depth = -1;
  engine::Status status;           ///< the engine's error when stopped == "error"
  uint32_t key_bytes = 0;          ///< bytes of a packed state
  uint32_t key_bits = 0;
  uint32_t record_bytes = 0;       ///< key + the word of counts and flags
  uint64_t peak_memory = 0;        ///< bytes of state storage at the peak
  uint64_t peak_records = 0;       ///< records held at that moment
  uint64_t total_distinct = 0;     ///< sum over the complete depths
  WideCount total_ends = 0;        ///< complete games of every complete depth
  bool total_ends_exact = true;    ///< false: `total_ends` is a lower bound
  double seconds = 0;
  std::vector<std::string> constant_vars;
};

/// Enumerates from `root` under `group` (identity first; the identity alone counts without
/// symmetry). Deterministic: the counts do not depend on the number of threads.
ExploreResult explore(const ir::Program& program, const engine::Engine& engine, const uint8_t* root,
                      const std::vector<Transform>& group, const ExploreOptions& options);

/// A budget for survey(): the symmetries are found (unless `symmetry` is false), then the
/// states enumerated within the bounds. No time bound, so the result is the same on every
/// machine and for every thread count.
struct SurveyOptions {
  int max_depth = -1;
  uint64_t max_states = 0;
  uint64_t max_memory = 0;  ///< not deterministic (see ExploreOptions); 0 in reports
  int threads = 1;
  bool symmetry = true;
  const std::atomic<bool>* interrupt = nullptr;
  std::function<void(const Progress&)> progress;
};

/// What `rulebook explore` prints and a report shows for one game and setup.
struct Survey {
  SymmetryGroup group;
  ExploreResult result;
};

/// Finds the symmetries (board transformations and the rules' declared symmetries, each
/// checked) and enumerates under the group; the board transformations outside the group are
/// tried on each depth's terminal states as a set (DepthCount::end_symmetries). A declared
/// symmetry the rules refute is reported in `group.checks` (see SymmetryGroup::refutations)
/// and not used.
Survey survey(const ir::Program& program, const dsl::SourceSet& sources, const engine::Engine& engine,
              const uint8_t* root, const SurveyOptions& options);

/// A count of complete games for people: "N", or "more than N" when it is a lower bound.
std::string complete_games_text(WideCount n, bool exact);

/// The survey as JSON text (2-space indented): the same bytes for the same rules, setup
/// and bounds, whatever the threads; no times or memory figures.
std::string survey_json(const ir::Program& program, const Survey& survey);

}  // namespace rulebook::explorer
