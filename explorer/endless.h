// Why a game did not end: the line of a game cut off by the length limit, examined for its
// first repeated position and for the quantities of the state that stopped changing.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "compiler/interp/interpret.h"
#include "compiler/runtime/engine.h"
#include "explorer/coverage_games.h"

namespace rulebook::explorer {

/// A quantity of the state that held one value over the end of a line: a scalar state
/// variable (`round = 3`), the phase, or how many elements of a keyed variable hold one
/// value (`count of owner = red` is 4).
struct SteadyQuantity {
  std::string name;   ///< `phase`, `round`, `count of owner = red`
  std::string value;  ///< its value's text (a number for a count)
  int since = 0;      ///< the ply after which it never changed again (0: the setup)
};

/// A quantity that changed only a few times over the end of a line: what the game still
/// does, slowly (`count(players out)` from 2 to 3 at ply 6120).
struct SlowQuantity {
  std::string name;
  std::string from;        ///< its value at steady_from
  std::string to;          ///< its value at the end
  std::vector<int> plies;  ///< the plies at which it changed, after steady_from
};

inline constexpr int kCycleMovesKept = 12;
/// A quantity changing at most this often over the last half of a line is a slow one.
inline constexpr int kSlowChanges = 3;

/// One examined line. Ply k is the position after k moves (ply 0: the setup).
struct EndlessGame {
  int game = 0;          ///< index in the coverage run (seed = first seed + game)
  uint64_t seed = 0;
  int plies = 0;         ///< moves played before the cut
  bool ended = false;    ///< the line ended by the rules after all (then nothing below)
  int repeat_first = -1; ///< the ply a whose position is the first to come back, or -1
  int repeat_again = -1; ///< the ply b > a where it comes back (the first repeat of the line)
  std::vector<std::string> cycle;  ///< the moves of plies a+1..b as `play` prints them
                                   ///< (kCycleMovesKept at most, then "...")
  int cycle_moves = 0;   ///< b - a
  int steady_from = 0;   ///< the quantities listed are unchanged since this ply or earlier
  std::vector<SteadyQuantity> steady;  ///< variables, then counts; each by `since`
  std::vector<SlowQuantity> slow;      ///< changed 1 to kSlowChanges times after steady_from
  std::string error;     ///< an engine error that stopped the replay
};

/// The lines of the cut-off games of a coverage run, replayed (the same seeded choices).
struct EndlessGames {
  int cut_off = 0;       ///< games cut off in the run
  int max_plies = 0;
  std::vector<EndlessGame> games;  ///< the first ones examined
};

/// Plays the random line of `seed` as cover_games and `rulebook play` do (setup and move
/// choices from the seed) for at most `max_plies` moves and examines it. The quantities
/// listed are those unchanged over at least the last half of the line (and not always 0).
EndlessGame examine_line(const compiler::Interpreter& interpreter, const engine::Setup& setup, uint64_t seed,
                         int max_plies);

/// Examines the first `examine` cut-off games of `games` (their plan gives the seeds and
/// the limit): the cost of `examine` more games of the run.
EndlessGames examine_cut_off(const compiler::Interpreter& interpreter, const CoverageGames& games, int examine);

}  // namespace rulebook::explorer
