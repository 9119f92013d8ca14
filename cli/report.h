// The report of one variant: what is analysed (ReportPlan), the result objects (JSON) and
// the HTML page made from them. The state-space and proof sections come from the explorer
// and the verifier (cli/report_sections.cpp); a plan can leave either out.
#pragma once

#include <atomic>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli/open_game.h"
#include "explorer/alerts.h"
#include "render/annotate.h"

namespace rulebook::cli {

/// How much is analysed per variant (a report configuration can change it per game).
struct ReportPlan {
  uint64_t seed = 1;       ///< playout i uses seed + i; the example game uses `seed`
  int games = 200;         ///< random playouts
  int greedy_games = 50;   ///< greedy playouts (only when the rules have a score)
  int max_plies = 1000;    ///< longer games are cut off and counted apart
  int coverage_games = 100;  ///< random games (the first of `games`) run for coverage
  bool coverage_blocked = true;  ///< coverage also counts what each condition kept out
  /// ... at each decision until this many conditions and move bodies were evaluated (0: all)
  uint64_t coverage_blocked_budget = 20000000;
  int coverage_examine = 3;      ///< cut-off coverage games replayed and examined
  uint64_t coverage_search_states = 2000;  ///< the directed search's positions (0: none)
  int tree_depth = 2;      ///< the opening tree
  int tree_breadth = 3;
  int threads = 2;
  std::vector<render::Layer> layers;  ///< annotations of the board diagrams
  std::vector<std::string> layer_texts;
  bool explore = true;              ///< count the states by depth
  int explore_depth = 4;            ///< the state-space table's last depth (-1: every depth)
  uint64_t explore_states = 2000000;  ///< stop before a depth holds more states
  bool prove = true;                ///< check the rule file's properties
  /// Z3 resource units per property: the budget that decides the verdicts, so the same
  /// rules give the same page on any machine (docs/verifier.md).
  uint64_t prove_rlimit = 20000000;
  /// Invariants proposed by the verifier from this many random games (0: none), each tried
  /// within `invariant_rlimit` resource units.
  int invariant_games = 0;
  uint64_t invariant_rlimit = 3000000;
  /// Positions searched for a line of play reaching each board a property shows (0: none):
  /// a count, so pages are the same on every machine; small, since the main job has no time
  /// to spare (2000 states cost about 5 s on SMYOZ, 200 about 0.5 s).
  uint64_t prove_reach_states = 200;
  /// Seconds per property, a safety net only: a property that hits it is "unknown
  /// (timeout)", and the page then depends on the machine; keep it above the rlimit's time.
  double prove_timeout = 120;
  /// `name=value` setup values (a data file's entry number, or a value): the properties
  /// reading that setup value are checked again with each fixed, on the same budget, and
  /// shown in a table of verdicts per value (e.g. each puzzle of a puzzle file).
  std::vector<std::string> prove_setups;
  /// The puzzles the rules declare, solved under each of `prove_setups` (or the file's own
  /// setup): solutions counted up to `puzzle_max`, each question within `puzzle_rlimit` Z3
  /// units, and the game's value from that setup in a table of `puzzle_game_states` states
  /// (0: not asked).
  bool puzzles = true;
  int64_t puzzle_max = 10000;
  uint64_t puzzle_rlimit = 20000000;
  uint64_t puzzle_game_states = 20000;
  /// A two-sided game that declares no puzzle: its value under perfect play from the file's
  /// setup in a table of at most this many states (0: not asked).
  uint64_t game_states = 20000;
  /// Seconds for a puzzle's whole enumeration: a safety net only (past it the count is
  /// "at least", and the page depends on the machine); keep it well above the units' time.
  double puzzle_timeout = 900;
  /// The rulebook page (docs/report.md): its example search plays `book_games` seeded
  /// games of at most `book_plies` plies, evaluating at most `book_budget` conditions, then
  /// stores at most `book_search_states` positions of a directed search (counts only).
  bool book = true;
  int book_games = 20;
  int book_plies = 1000;
  uint64_t book_budget = 400000;
  uint64_t book_search_states = 300;
  /// Then the verifier, for each example still missing: Z3's units per move tried (0: not
  /// asked), and the positions searched for a line of play reaching each board it gives.
  uint64_t book_rlimit = 2000000;
  uint64_t book_reach_states = 200;
  /// What begins each progress line of this variant, e.g. "[3/21]" (variants may be
  /// analysed side by side, so every line names its own).
  std::string label;
};

/// A line of play a section found (the moves to a witness or counterexample board), for the
/// page's viewer: the position it starts from and the moves as `play` prints them.
struct FoundLine {
  std::string title;
  std::vector<uint8_t> start;
  std::vector<std::string> moves;
};

/// A section of a variant's page computed by another analysis: the JSON behind it, its
/// HTML, and its figure for the index. Empty json: not computed (the page says so).
struct Section {
  nlohmann::json json;
  std::string html;
  std::string figure;
  std::vector<FoundLine> lines;
};

/// The states reachable from `root` by depth, exactly and up to the symmetries found and
/// checked for this game, within the plan's depth and state bounds.
Section enumeration_section(const OpenedGame& game, const uint8_t* root, const ReportPlan& plan,
                            const std::atomic<bool>* stop);

/// The verifier's verdicts on the rule file's properties, with witness and counterexample
/// boards drawn (with `layers` when given); the alerts they raise go to `alerts`.
Section proofs_section(const OpenedGame& game, const ReportPlan& plan, render::Annotator* annotator,
                       const std::vector<render::Layer>& layers, const std::atomic<bool>* stop,
                       std::vector<explorer::Alert>* alerts = nullptr);

/// The puzzles the rules declare, solved under each setup value of the plan: solutions,
/// uniqueness, the criteria from `proofs` (the proof section's JSON, its verdicts per setup
/// value), the game's value under perfect play. Empty json when the rules declare none.
Section puzzles_section(const OpenedGame& game, const ReportPlan& plan, const nlohmann::json& proofs,
                        const std::atomic<bool>* stop);

/// The game's value for the side to move first from `setup` (`explorer::game_value`, the
/// states stored by their class under the group that keeps the start), in a table of at
/// most `max_states` states, or the bounds reached, or why it is not asked; its figures in
/// `out`.
std::string game_words(const OpenedGame& game, uint64_t max_states, const engine::Setup& setup, nlohmann::json& out,
                       const std::atomic<bool>* stop);

/// A two-sided game that declares no puzzle (those are in the puzzle section): its value
/// under perfect play from the file's setup, within the plan's `game_states`. Empty json
/// when not asked.
Section perfect_play_section(const OpenedGame& game, const ReportPlan& plan, const std::atomic<bool>* stop);

/// Everything computed for one variant: `json` is the object written to VARIANT.json
/// (`analysis`), `html` the page's sections between the summary and the rules.
struct VariantAnalysis {
  nlohmann::json json;
  std::string html;
  std::string alerts_html;  ///< the designer alerts, for the top of the page (may be empty)
  std::vector<std::pair<std::string, std::string>> key_figures;  ///< for the index
  bool ok = true;
  std::string error;
};

/// Opens `path` with a compiled engine and analyses it as `plan` says. Progress goes to
/// stderr; `stop` (Ctrl-C) cuts playouts, proofs and the enumeration short (the caller
/// then drops the page).
VariantAnalysis analyse_variant(const std::string& path, const ReportPlan& plan, const std::atomic<bool>* stop);

/// A generic HTML view of a JSON result object: an array of objects as a table (a string
/// starting with "<svg" inlined as a diagram), an object as a table of its keys.
std::string json_to_html(const nlohmann::json& value);

/// A table of `rows` (JSON objects) with the given columns in that order.
std::string table_html(const std::vector<std::string>& columns, const nlohmann::json& rows);

std::string html_escape(const std::string& s);

}  // namespace rulebook::cli
