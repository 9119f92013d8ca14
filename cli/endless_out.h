// What the coverage run did not settle, examined further: the cut-off games' lines
// (explorer/endless.h) and the directed search for what never happened
// (explorer/directed.h), added to the coverage JSON and read back as text and HTML.
#pragma once

#include <atomic>
#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "compiler/interp/interpret.h"
#include "dsl/source.h"
#include "explorer/coverage_games.h"

namespace rulebook::cli {

/// How far the examination goes after a coverage run.
struct ExamineBudget {
  int cut_off_games = 3;        ///< cut-off games replayed and examined
  uint64_t search_states = 20000;  ///< positions the directed search stores (0: no search)
  uint64_t termination_states = 20000;  ///< positions enumerated to settle termination (0: none)
  /// When set (and termination is examined), a termination the enumeration does not settle
  /// is looked for as a ranking proved by the verifier (verifier::prove_ranking).
  const dsl::SourceSet* sources = nullptr;
  /// With `sources`: each item the directed search neither reached nor settled (every item
  /// never seen when `search_states` is 0) is asked of a bounded model check over this many
  /// plies (verifier/bmc.h; 0: none), with this many Z3 resource units per item.
  int bmc_plies = 0;
  uint64_t bmc_rlimit = 20000000;
};

/// Adds `endless` (the examined cut-off games) and `termination` (settled by enumerating
/// the positions reachable from the first game's setup) to `coverage` (made by
/// coverage_json from `games`), and to each entry of its `never` list that can be searched for, `search`:
/// the line of play that reaches it, or how far the search went.
void examine_coverage(const compiler::Interpreter& interpreter, const explorer::CoverageGames& games,
                      const ExamineBudget& budget, nlohmann::json& coverage);

/// One line of text for a `never` entry's `search` with its bounded model check when there
/// is one (the check alone when there was no search; empty when neither ran).
std::string search_line(const nlohmann::json& never_entry);
/// A `never` entry's `bmc` as one sentence.
std::string bmc_line(const nlohmann::json& bmc);

/// The endless games' and the search's summary as text lines for a terminal, and as HTML.
std::string endless_text(const nlohmann::json& coverage);
std::string endless_html(const nlohmann::json& coverage);

}  // namespace rulebook::cli
