// One rules text run by the interpreter and by its generated engine compiled at run time:
// perft, seeded games move by move, errors and their texts must all be the same (both
// engines word an error through compiler/ir/run_errors.h).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace rulebook::testing {

struct DiffOptions {
  /// Perft goes one depth deeper while the interpreter counted fewer leaves than this.
  uint64_t perft_leaves = 3000;
  int max_perft_depth = 5;
  int games = 4;        ///< seeded games (setup seed = move seed = 1..games)
  int max_plies = 60;   ///< per game
  std::string cache_dir;  ///< where engines are compiled (empty: the usual cache)
  /// The compiler flags of the engines: no optimisation by default, since compiling
  /// dominates and the behaviour must not depend on it.
  std::vector<std::string> flags = {"-std=c++20", "-O0", "-fPIC", "-shared"};
  /// Passes of the engine plan switched off (`--no-pass`; "all": every pass): the engine
  /// then computes what they would have kept or precomputed.
  std::vector<std::string> no_pass;
};

struct DiffResult {
  enum Kind { Agree, CheckFailed, CompileFailed, Disagree };
  Kind kind = Agree;
  std::string message;        ///< diagnostics, compiler output, or where the engines part
  double compile_seconds = 0;
  bool compiled = false;      ///< the compiler ran (not found in the cache)
  int perft_depth = 0;        ///< deepest depth compared
  uint64_t states = 0;        ///< states compared along the games
  bool runtime_error = false; ///< some game stopped on a run-time error (the same in both)
};

/// Loads `text` as the rules file `name`, compiles its engine and compares it with the
/// interpreter. Never throws; safe to call from several threads at once.
DiffResult run_differential(const std::string& name, const std::string& text, const DiffOptions& options);

}  // namespace rulebook::testing
