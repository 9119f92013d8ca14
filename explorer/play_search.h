// The states play reaches, searched for what a property over play asks: a counterexample,
// a witness, the best value, a second value. Depth first from the setup, each state stored
// once by its packed key (explorer/pack.h), the property read by the engine
// (Engine::observe). A bound whose value is known never to improve along a move (the
// verifier proves it) is a branch and bound: a state whose value cannot beat the best found
// is not expanded, since nothing after it can either.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "compiler/ir/ir.h"
#include "compiler/runtime/engine.h"

namespace rulebook::explorer {

struct PlaySearchOptions {
  int property = -1;  ///< index in Program::properties; declared `over play`
  /// Holds: a state of the set where the condition is false ends the search; Witness: one
  /// where it is true; Constant: one whose value differs from the first; Max and Min: every
  /// state of the set is read (but those a monotone bound cuts off).
  enum class Goal { Holds, Witness, Constant, Max, Min };
  Goal goal = Goal::Holds;
  /// Max (Min): the value never rises (falls) along a move, and once it can be evaluated
  /// it can be after every move. Then a state whose value is no better than the best found
  /// is not expanded.
  bool monotone = false;
  uint64_t max_states = 0;  ///< the most states stored (0: no limit); a count, not a time
  double max_seconds = 0;   ///< a time limit besides (0: none)
  const std::atomic<bool>* stop = nullptr;
  /// Called about once a second (of states stored) with a line of progress.
  std::function<void(const std::string&)> progress;
};

struct PlaySearchResult {
  /// Complete: every state play reaches was stored (or cut off by the bound); Found: the
  /// goal's state was found (Holds: a counterexample; Witness: a witness; Constant: a
  /// second value); Budget: max_states were stored first; Timeout: max_seconds passed
  /// first; Stopped: by `stop`; Error: the
  /// rules or the property erred on `board`.
  enum class End { Complete, Found, Budget, Timeout, Stopped, Error };
  End end = End::Complete;
  uint64_t states = 0;  ///< stored
  uint64_t in_set = 0;  ///< of them in the property's set
  uint64_t cut = 0;     ///< not expanded: their value could not beat the best
  int depth = 0;        ///< the deepest line searched
  /// Max, Min: the best value of the set; Constant: the first value.
  std::optional<int64_t> best;
  /// Constant and Found: the second value.
  std::optional<int64_t> other;
  /// Budget, Max or Min with a monotone value: the best value a state stored but not
  /// expanded could still lead to (an upper bound for Max, a lower one for Min).
  std::optional<int64_t> open_bound;
  /// The state shown: the counterexample, witness, second value, best value's or error's
  /// state; and the moves from the setup to it.
  std::vector<uint8_t> board;
  std::vector<engine::Move> line;
  std::string error;
};

/// Searches the states play reaches from `start` (a state set up by `engine`).
PlaySearchResult search_play(const engine::Engine& engine, const ir::Program& program,
                             const std::vector<uint8_t>& start, const PlaySearchOptions& options);

}  // namespace rulebook::explorer
