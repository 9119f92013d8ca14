// Structure-aware mutation of rules files for the fuzz targets: declarations, statements and
// expressions are cut, copied and exchanged as whole units of source text (found by their
// spans in the parsed tree), numbers pushed to the edges of 64-bit arithmetic, names swapped
// for others of the file or for names a code generator might take for its own.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace rulebook::fuzz {

/// One mutation of `text`, chosen by `seed`; nullopt when `text` does not parse (the caller
/// then mutates bytes) or when the chosen mutation has nothing to work on.
std::optional<std::string> mutate_rules(const std::string& text, uint32_t seed);

/// How far a rules text got through `exercise`.
struct Reached {
  bool lowered = false;  ///< checked and lowered to a program
  bool played = false;   ///< within the harness's budget, so set up and played
  int plies = 0;
  std::string problem;   ///< a broken promise of the pipeline (see exercise); empty if none
};

/// Loads `text` as the rules file `name` (its extends and data files resolve beside it),
/// and plays up to `plies` seeded random plies with the interpreter when the program is
/// small enough for the harness's budget. Errors are fine; `problem` names what is not: a
/// failure without a diagnostic, a diagnostic or engine error without text.
Reached exercise(const std::string& name, const std::string& text, uint64_t seed, int plies);

}  // namespace rulebook::fuzz
