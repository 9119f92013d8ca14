// A search for what random playouts never saw: a move never played, a statement never
// run, an `until` never fired, an end condition that never ended a game; or for a board a
// proof showed (a witness, a counterexample) to be reached by a line of play. From the setup
// over distinct positions within a budget, positions where more conjuncts of the targets'
// guards hold first, breadth-first among equals; a line of play when the item is reached,
// and a proof of unreachability when every position was enumerated first.
#pragma once

#include <atomic>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "compiler/interp/interpret.h"
#include "compiler/runtime/engine.h"
#include "explorer/coverage_games.h"

namespace rulebook::explorer {

/// What is searched for: a move being played (`move`), a coverage site (`site`, an
/// index of compiler::Coverage::sites()) counting once, or a position agreeing with
/// `board` on every element of the state variables `vars` (what decides the verdict that
/// showed the board), from which, when `played` is set, that move is legal.
struct SearchTarget {
  enum class Kind { Move, Site, Board };
  Kind kind = Kind::Move;
  int move = -1;
  int site = -1;
  std::vector<uint8_t> board{};
  std::vector<int> vars{};
  std::optional<engine::Move> played{};
};

struct SearchResult {
  SearchTarget target;
  bool reached = false;
  std::vector<engine::Move> line;       ///< from the setup; its last move makes it happen
                                        ///< (empty: the setup itself did)
  std::vector<std::string> line_text;   ///< the moves as `play` prints them
  uint64_t states = 0;                  ///< positions stored when it was reached
  /// A board target: the position reached (agreeing with the target on its vars; before
  /// the target's move when it has one).
  std::vector<uint8_t> position;
};

struct SearchPlan {
  uint64_t max_states = 20000;  ///< distinct positions stored, the setup's included
  engine::Setup setup;          ///< the position searched from (its seed included)
  /// When not empty: the position searched from instead of plan.setup's (a board's
  /// own setup values, set up; nothing of the setup is counted).
  std::vector<uint8_t> start;
  const std::atomic<bool>* stop = nullptr;
};

struct DirectedSearch {
  SearchPlan plan;
  std::vector<SearchResult> results;  ///< one per target, in the targets' order
  uint64_t states = 0;       ///< distinct positions stored
  int depth = 0;             ///< plies of the deepest position stored
  bool guided = false;       ///< some target had a guard conjunct to score positions by
  /// Every position reachable from the setup was stored: a target not reached can never
  /// happen from it (from any setup when setup_random is false).
  bool exhausted = false;
  bool setup_random = false;  ///< the setup draws from the random stream: other seeds
                              ///< start elsewhere
  std::string error;          ///< the first run-time error of the rules met (its line
                              ///< of play is not followed further)
};

/// Whether the setup of `program` draws from the random stream (`random`, `shuffle`):
/// then what one seed's setup reaches says nothing of another's.
bool setup_draws(const ir::Program& program);

/// The items of a coverage run that never happened and can be searched for: moves never
/// chosen, statements never run, `until`s never fired, end conditions never ending a game
/// (conditions that never blocked are not: a search cannot make a condition block alone).
std::vector<SearchTarget> never_seen(const CoverageGames& games);

/// Searches from plan.setup for every target at once, best-first by how many conjuncts of
/// the unreached targets' guards hold (without a parameter of the move: `requires`, an end
/// alternative's or an `until`'s conjuncts) plus, per board target, how many of its
/// compared elements the position already agrees on, breadth-first among equal scores; the
/// counters of the interpreter's coverage tell when a site happens.
DirectedSearch search_targets(const compiler::Interpreter& interpreter, const std::vector<SearchTarget>& targets,
                              const SearchPlan& plan);

}  // namespace rulebook::explorer
