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
  /// Drop clues, in the order the puzzle declares them, while the solutions stay the same
  /// (each drop proved: the clues kept imply the one dropped); every clue kept is needed.
  bool minimise = false;
  /// Seconds for the enumeration, and again for each clue's question.
  double timeout_seconds = 60;
  /// Z3 resource units for each question (each solution of the enumeration is one; 0: no
  /// limit): a budget that gives the same answers on every machine, where the timeout is a
  /// safety net.
  uint64_t rlimit = 0;
  std::function<void(const std::string&)> progress;
  const std::atomic<bool>* stop = nullptr;
};

/// One instance of a clue family: needed when the puzzle without it has a solution that
/// breaks it (for a unique puzzle: a second solution), shown as `board`.
struct ClueVerdict {
  std::string name;  ///< `given(r0c3)`: the family and its binding
  /// Dropped: `minimise` left it out (the clues kept imply it).
  enum class Status { Needed, NotNeeded, Unknown, Dropped } status = Status::Unknown;
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
  /// `up to`: the group the solutions are counted up to (1: none), and what it is, in
  /// words (the maps kept, those rejected and why)
  size_t group = 1;
  std::string symmetry;
  std::vector<ClueVerdict> clues;
  double seconds = 0;
};

/// `rulebook puzzle`: a new puzzle of a declaration whose clues read one data-file setup
/// (`setup T: ... = file "..." entry k`), the table a puzzle is: a grid of cells (`.` for
/// none), or a list entry whose values say which clue instances the puzzle gives.
struct GenerateOptions {
  std::vector<std::pair<std::string, std::string>> setup;  ///< the other setup values fixed
  uint64_t seed = 1;
  /// Puzzles generated, of seeds seed, seed + 1, ...: one encoding for all of them (each
  /// the puzzle its seed gives alone, where the solution decides its full table).
  int count = 1;
  /// Whole generations tried (each a new solution) until the file's properties of the
  /// setup (a puzzle's criteria) all hold; the one meeting most is kept.
  int attempts = 10;
  /// A list entry: the clues (declared names) its puzzles may give; the others' instances
  /// are left out of every entry. Empty: all.
  std::vector<std::string> clues;
  /// A list entry: the full puzzle of the solution drawn (every instance of the clues
  /// allowed that the table can give), written with none dropped; its uniqueness is
  /// checked and said, not required (SMYOZ: a hidden fleet and its gallows).
  bool full = false;
  double timeout_seconds = 300;  ///< for the whole generation
  std::function<void(const std::string&)> progress;
  const std::atomic<bool>* stop = nullptr;
};

/// A property of the setup (`prove ... over boards` reading the table) on the puzzle.
struct CriterionVerdict {
  std::string name, description;
  enum class Status { Met, NotMet, Unknown } status = Status::Unknown;
};

struct GeneratedPuzzle {
  std::string puzzle;       ///< the declaration
  uint64_t seed = 0;
  std::string table;        ///< the setup variable the puzzle is an entry of
  std::string path;         ///< its data file
  std::vector<uint32_t> entry;  ///< the table: element indices, as a data file's entry
  std::string entry_text;   ///< the same as lines of a data file, one row of cells each
  /// A list entry (not a grid): the puzzle is the clue instances it gives (`givens` counts
  /// them), named here.
  bool list = false;
  bool full = false;  ///< GenerateOptions::full: nothing dropped, `needed` not asked
  std::vector<std::string> clues_kept;
  std::optional<Board> solution;
  size_t full_givens = 0;   ///< entries the solution gives (the first, full puzzle)
  size_t givens = 0;        ///< entries kept
  /// Proved at the end: the kept entries allow no second solution; each kept entry is
  /// needed (without it a second solution exists); counts of those checked.
  bool unique = false;
  size_t needed = 0;
  /// Difficulty: the SAT solver's conflicts and decisions for the uniqueness proof, asked
  /// of a fresh solver (no clause learned from the generation).
  uint64_t conflicts = 0, decisions = 0;
  std::string over;  ///< what "unique" ranges over: the boards of the set, each setup value read
  std::string difficulty_solver;   ///< which of Z3's solvers proved it
  int rounds = 0;                  ///< rounds of cuts of counts of components in that proof
  std::string difficulty_unknown;  ///< why the proof was not made again there (no figures), or ""
  std::vector<CriterionVerdict> criteria;
  int attempt = 0, attempts_made = 0;  ///< the attempt kept (1-based), and how many ran
  std::string stopped;  ///< why generation stopped early ("interrupted", a timeout), or ""
  double seconds = 0;  ///< this seed's generation (the first's with the encoding)
};

/// "proved", "no" (two or more solutions found), "no solution", or "unknown".
std::string uniqueness(const PuzzleResult& r);
/// "N solutions" when exact, else "at least N solutions (WHY)", WHY being `max_words` when
/// the count stopped at its limit, the reason the solver gave otherwise.
std::string count_text(const PuzzleResult& r, const std::string& max_words);

/// The puzzles of the program (its properties of kind Puzzle), in file order.
std::vector<const ir::Property*> puzzles(const ir::Program& program);

/// Solves `puzzle`. Throws std::invalid_argument for a setup the rules lack or that a clue
/// needs and is not fixed, Unsupported (encoder.h) for what the encoding cannot express.
PuzzleResult solve_puzzle(const ir::Program& program, const dsl::SourceSet& sources, const ir::Property& puzzle,
                          const PuzzleOptions& options);

/// Generates puzzles for `puzzle` (verifier/puzzle_generate.cpp), one per seed. Throws
/// std::invalid_argument when its clues read no free data-file table, or no solution
/// exists; Unsupported for what the encoding cannot express.
std::vector<GeneratedPuzzle> generate_puzzles(const ir::Program& program, const dsl::SourceSet& sources,
                                              const ir::Property& puzzle, const GenerateOptions& options);

}  // namespace rulebook::verifier
