// Coverage of the rules over seeded random games: the interpreter plays them, counting
// what each statement, condition, `until` and end condition did (compiler/interp/coverage.h)
// and, per move, how often it was legal and chosen.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
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
  std::function<void(int done, int total)> progress;  ///< after each game, when set
};

/// How one finished game came out: its best score subjects (one alone won, several tied).
struct GameOutcome {
  uint64_t seed = 0;
  int plies = 0;
  std::vector<int> best;        ///< score subjects (players, or teams) with the best score
  std::vector<int64_t> scores;  ///< subject-major, as Engine::scores
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
  std::vector<uint64_t> phase_games;  ///< per phase: games in which play was in it at some point
  std::vector<GameOutcome> outcomes;  ///< per finished game, in seed order
  explicit CoverageGames(const ir::Program& program) : counts(program) {}
};

/// Plays plan.games random games with the interpreter, choosing moves as play_games
/// (Policy::Random) and `rulebook play` do, so the same seeds give the same games.
CoverageGames cover_games(const compiler::Interpreter& interpreter, const CoveragePlan& plan);

}  // namespace rulebook::explorer
