// The report page's "Games to step through": the seeded random game of the Boards section
// and every line of play the page's searches found, replayed through the engine and kept
// as compact per-step data that an inline script steps through, forward and back, drawing
// each board as the page's diagrams are drawn; each game can be saved as a moves file.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli/open_game.h"
#include "cli/report.h"

namespace rulebook::cli {

/// How many legal moves a step lists by name (the others are counted).
inline constexpr size_t kViewerLegalShown = 10;
/// How many found lines the viewer holds at most (the seeded game besides).
inline constexpr size_t kViewerLines = 20;

/// The section's HTML (heading, controls, data and script): the random game of seed
/// `plan.seed` as `rulebook play --seed` plays it (cut off after `plan.max_plies`), then the
/// lines the coverage search reached (`coverage`, the page's coverage JSON) and those of
/// `proof_lines`. `file_stem` names the saved moves files. Deterministic: the same rules
/// and plan give the same bytes. An engine error ends that game where it happened.
std::string viewer_html(const OpenedGame& game, const ReportPlan& plan, const std::string& file_stem,
                        const nlohmann::json& coverage, const std::vector<FoundLine>& proof_lines);

/// JSON text that can stand inside a <script> element: every `<`, `>` and `&` (found only
/// in strings) written as a \u escape.
std::string script_safe_json(const nlohmann::json& value);

/// The inline script of the viewer (cli/report_viewer_script.cpp).
const char* viewer_script();

}  // namespace rulebook::cli
