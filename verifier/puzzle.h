// Solving a puzzle declared in the rules (`puzzle NAME: solution c; clue ...`) with Z3:
// every solution over boards (board rules + solution + clues, the setup bound), whether
// it is unique, and which clues are needed.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "compiler/ir/ir.h"
#include "dsl/source.h"
#include "verifier/verify.h"

namespace rulebook::verifier {

struct PuzzleOptions {
  /// Setup values fixed as `--setup` gives them (a data file's entry number, or a value):
  /// every setup value a clue reads must be fixed.
  std::vector<std::pair<std::string, std::string>> setup;
  /// Stop after this many solutions (the count is then "at least").
  int64_t max_solutions = 100;
  /// Also ask, for each clue, whether it is needed.
  bool clues = false;
  /// Seconds for the enumeration, and again for each clue's question.
  double timeout_seconds = 60;
  std::function<void(const std::string&)> progress;
  const std::atomic<bool>* stop = nullptr;
};

/// One instance of a clue family: needed when the puzzle without it has a solution that
/// breaks it (for a unique puzzle: a second solution), shown as `board`.
struct ClueVerdict {
  std::string name;  ///< `given(r0c3)`: the family and its binding
  enum class Status { Needed, NotNeeded, Unknown } status = Status::Unknown;
  std::optional<Board> board;
  std::string detail;  ///< why unknown
};

struct PuzzleResult {
  std::string name, description;
  std::string set;  ///< what was searched, in words
  std::vector<Board> solutions;
  /// The enumeration ended unsat: the count is exact, and with one solution uniqueness
  /// is proved. False when --max was reached or the solver stopped (`unknown` says why).
  bool exact = false;
  bool hit_max = false;
  std::string unknown;
  size_t clue_count = 0;  ///< clue instances of the bound setup
  std::vector<ClueVerdict> clues;
  double seconds = 0;
};

/// The puzzles of the program (its properties of kind Puzzle), in file order.
std::vector<const ir::Property*> puzzles(const ir::Program& program);

/// Solves `puzzle`. Throws std::invalid_argument for a setup the rules lack or that a clue
/// needs and is not fixed, Unsupported (encoder.h) for what the encoding cannot express.
PuzzleResult solve_puzzle(const ir::Program& program, const dsl::SourceSet& sources, const ir::Property& puzzle,
                          const PuzzleOptions& options);

}  // namespace rulebook::verifier
