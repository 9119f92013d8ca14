// Coverage of the rules over seeded random games: the interpreter plays them, counting
// what each statement, condition, `until` and end condition did (compiler/interp/coverage.h)
// and, per move, how often it was legal and chosen.
#pragma once

#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

#include "compiler/interp/coverage.h"
#include "compiler/interp/interpret.h"
#include "compiler/runtime/engine.h"

namespace rulebook::explorer {

struct CoveragePlan {
  int games = 100;
  uint64_t seed = 1;       ///< game i is set up and played with seed + i, as play_games does
  int max_plies = 2000;    ///< games longer than this are cut off and counted apart
  bool blocked = true;     ///< also count which condition alone kept an instance out (slower)
  /// Counting what kept instances out walks every parameter tuple of every move: it is
  /// done at each decision until this many conditions and bodies were evaluated (0: no
  /// limit), so its cost is a count and the same on every machine.
  uint64_t blocked_budget = 0;
  engine::Setup setup;     ///< setup values for every game (its seed is replaced)
  const std::atomic<bool>* stop = nullptr;  ///< set it (e.g. on Ctrl-C) to stop early
};

struct CoverageGames {
  CoveragePlan plan;
  compiler::Coverage counts;
  int played = 0;      ///< games started (fewer than plan.games when stopped)
  int finished = 0;    ///< ended by the rules
  int cut_off = 0;     ///< stopped by max_plies
  int errors = 0;      ///< stopped by an error of the rules
  std::string first_error;
  uint64_t plies = 0;  ///< moves played in all games (finished or not)
  std::vector<int> cut_off_games;  ///< indices of the games cut off, in order
  explicit CoverageGames(const ir::Program& program) : counts(program) {}
};

/// Plays plan.games random games with the interpreter, choosing moves as play_games
/// (Policy::Random) and `rulebook play` do, so the same seeds give the same games.
CoverageGames cover_games(const compiler::Interpreter& interpreter, const CoveragePlan& plan);

}  // namespace rulebook::explorer
