// Statistics over many seeded games of any engine: lengths, phase lengths, results per
// player and per team with confidence intervals, branching factor and the rule file's own
// `metric`s. Deterministic for a seed, whatever the number of threads.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "compiler/runtime/engine.h"
#include "compiler/ir/ir.h"

namespace rulebook::explorer {

enum class Policy {
  Random,  ///< move `next() % n`, as `rulebook play` chooses
  Greedy,  ///< the move that leaves the mover's score (or team score) best after one ply;
           ///< ties broken by the seeded stream
};

struct PlayoutPlan {
  int games = 100;
  uint64_t seed = 1;       ///< game i is set up and played with seed + i
  int max_plies = 2000;    ///< games longer than this are cut off and counted apart
  Policy policy = Policy::Random;
  int threads = 1;         ///< games are shared out; the results do not depend on it
  const std::atomic<bool>* stop = nullptr;  ///< set it (e.g. on Ctrl-C) to stop early
  std::function<void(int done, int total)> progress;  ///< called from one thread at a time
};

/// Count, mean, extremes and histogram of integer observations.
struct Summary {
  uint64_t count = 0;
  double mean = 0;
  int64_t min = 0, max = 0;
  std::map<int64_t, uint64_t> histogram;
  void add(int64_t v);
};

/// A share of games with its 95% Wilson score interval.
struct Share {
  uint64_t count = 0;  ///< games won outright (a tie for first is no win)
  uint64_t ties = 0;   ///< games where it shared the best result
  double share = 0, lo = 0, hi = 0;
};

/// The 95% Wilson score interval of k successes out of n (n = 0: [0, 1]).
Share wilson(uint64_t k, uint64_t n);

struct MetricStats {
  std::string name, description;
  bool at_end = true;
  Summary values;  ///< games where the metric was recorded
};

struct PlayoutStats {
  PlayoutPlan plan;
  int played = 0;       ///< games started (fewer than plan.games when stopped)
  int finished = 0;     ///< ended by the rules
  int cut_off = 0;      ///< stopped by max_plies
  int errors = 0;       ///< stopped by an engine error
  std::string first_error;
  Summary length;                     ///< plies of finished games
  std::vector<std::string> phase_names;
  std::vector<Summary> phase_length;  ///< plies played in each phase, finished games
  std::vector<std::string> subjects;  ///< the scored players or teams, by index
  bool per_team = false;
  std::vector<Share> wins;            ///< per scored subject, over finished games (empty with
                                      ///< a single subject: it cannot lose to anyone)
  std::vector<Summary> scores;        ///< per scored subject: the (first) score entry at the end
  std::vector<std::string> teams;     ///< the teams of the rules (may be empty)
  std::vector<Share> team_wins;       ///< per team, over finished games (from player wins when scored per player)
  uint64_t drawn = 0;                 ///< finished games with a shared best result
  double branching_mean = 0;          ///< legal moves per decision, over every decision played
  uint64_t branching_max = 0;
  uint64_t decisions = 0;
  std::vector<MetricStats> metrics;
};

/// Plays plan.games games from fresh setups.
PlayoutStats play_games(const engine::Engine& engine, const ir::Program& program, const PlayoutPlan& plan);

/// The state before the last move of a game and that move, and the final state: replays the
/// first `plies` moves of the seeded random game `seed` (setup and moves, as `rulebook play`).
struct GameEnd {
  std::vector<uint8_t> start, before, after;
  engine::Move last;
  int plies = 0;       ///< moves played (fewer than asked when the game ended first)
  bool over = false;
  engine::Status status;
};
GameEnd seeded_game(const engine::Engine& engine, uint64_t seed, int plies,
                    const engine::Setup& setup_values = {});

}  // namespace rulebook::explorer
