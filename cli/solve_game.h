// The command-line front of perfect play (explorer/game_value.h): the value of a two-sided
// game from its setup, its principal line, or the bounds a budget reached.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

namespace rulebook::cli {

struct SolveGameOptions {
  std::string file;
  std::string engine = "compiled";
  uint64_t seed = 1;
  std::vector<std::string> setups;
  std::string objective = "outcome";
  uint64_t max_states = 1000000;
  int max_depth = 0;
  bool no_symmetry = false;
  bool json = false;
  bool quiet = false;
};

/// Adds the options only a game solve has to `cmd` (engine, seed, objective, budget); the
/// file, `--setup` and `--json` are the `solve` verb's own.
void add_solve_game_options(CLI::App* cmd, SolveGameOptions& options);

/// Solves the game and prints its value; returns the exit code (0 solved or bounded by the
/// budget, 1 the file is wrong or has not two sides, 130 interrupted).
int run_solve_game(const SolveGameOptions& options);

}  // namespace rulebook::cli
