// The value of a two-sided game under perfect play: a depth-first search of "can the first
// side force at least t?" questions with a table of proved bounds, and a plain minimax to
// check it by.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "compiler/ir/ir.h"
#include "compiler/runtime/engine.h"
#include "explorer/symmetry.h"

namespace rulebook::explorer {

/// What a finished game is worth to the first side.
enum class Objective {
  Outcome,  ///< +1 a win, 0 a draw (equal scores share the win), -1 a loss
  Margin,   ///< the first side's score minus the other's (negated when the lowest wins)
};

/// The two sides of a game: two players, or the two teams of a per-team score. Side 0 is the
/// one of the player to move in the root state.
struct Sides {
  std::string error;                  ///< why the game has not two sides; empty when it has
  std::vector<int> side_of_player;    ///< 0 or 1, per player
  int subject[2] = {0, 1};            ///< the score subject (player or team) of each side
  std::string name[2];                ///< player or team names
  bool teams = false;
};

/// The sides of `program` with `first_player` to move, or the reason there are not two.
Sides two_sides(const ir::Program& program, const engine::Info& info, int first_player);

/// `value` as words: "win", "draw", "loss" for an outcome, the number for a margin.
std::string value_text(Objective objective, int64_t value);

/// Stands for "no bound" in a margin search (the margins of real games are far smaller).
inline constexpr int64_t kNoBound = int64_t(1) << 60;

struct GameValueProgress {
  int depth = 0;         ///< the depth of the current pass
  int64_t target = 0;    ///< the question asked: is the value >= target?
  int64_t lo = 0, hi = 0;
  uint64_t nodes = 0;
  size_t states = 0;
  double seconds = 0;
};

struct GameValueOptions {
  Objective objective = Objective::Outcome;
  /// Most states the table holds (each some 100 bytes); the search stops when it is full.
  uint64_t max_states = 1000000;
  /// Deepest pass (0: no bound); a game that can go on forever needs one or the no-progress
  /// stop below.
  int max_depth = 0;
  /// Passes in a row that neither meet a new state nor narrow a bound before the search gives
  /// up (the moves cycle and the forced part of the game is found).
  int stale_passes = 8;
  /// A symmetry group of the game (explorer's find_symmetries: identity first, every element
  /// fixing the initial state): states are stored by the least key of their class. Elements
  /// that would exchange the sides are left out.
  std::vector<Transform> symmetry;
  const std::atomic<bool>* interrupt = nullptr;
  /// Called about once a second.
  std::function<void(const GameValueProgress&)> progress;
};

/// What the search established, all from side 0's view.
struct GameValueResult {
  bool solved = false;     ///< lo == hi
  int64_t lo = 0, hi = 0;  ///< the value is within [lo, hi] (kNoBound: unbounded)
  /// When solved: a line of play where both sides keep the value, to the end of the game.
  std::vector<engine::Move> line;
  std::vector<std::string> line_text;
  uint64_t nodes = 0;      ///< positions expanded
  size_t states = 0;       ///< states in the table
  int depth = 0;           ///< the deepest pass made
  std::vector<std::string> symmetry;  ///< the group's elements the table used (identity first)
  /// Why it stopped unsolved: "states" (the table is full), "depth", "stale" (passes made no
  /// progress), "interrupted", "error"; empty when solved.
  std::string stopped;
  engine::Status status;
};

/// The value of the game from `root` under perfect play. `sides` must have no error.
GameValueResult game_value(const ir::Program& program, const engine::Engine& engine,
                           const uint8_t* root, const Sides& sides,
                           const GameValueOptions& options = {});

/// A finished game's worth to side 0 (the state is terminal, or has no legal move).
engine::Status terminal_value(const engine::Engine& engine, const Sides& sides,
                              Objective objective, const uint8_t* state, int64_t& value);

/// The same value by plain minimax: every line of play to its end, no pruning, no table.
/// Exponential; for checking the search on small games. `nodes` counts the positions visited.
/// A game whose moves cycle does not finish: `max_plies` bounds a line (an error past it).
engine::Status exhaustive_value(const engine::Engine& engine, const Sides& sides, Objective objective,
                                const uint8_t* root, int64_t& value, uint64_t& nodes,
                                int max_plies = 1000);

}  // namespace rulebook::explorer
