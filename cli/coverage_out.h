// The coverage of the rules over random games as JSON, and as the text of `rulebook play
// --coverage` and the report's section, both made from that JSON so they always agree.
#pragma once

#include <atomic>
#include <string>

#include <nlohmann/json.hpp>

#include "cli/open_game.h"
#include "cli/report.h"
#include "dsl/source.h"
#include "explorer/coverage_games.h"

namespace rulebook::cli {

/// The games, per move how often it was legal and chosen, how the games ended, every site
/// (statement, condition, `until`, end condition) with its place, source line and count,
/// and `never`: what never happened. Places name files without their folders.
nlohmann::json coverage_json(const explorer::CoverageGames& games, const dsl::SourceSet& sources);

/// Plain text for a terminal (names are escaped).
std::string coverage_text(const nlohmann::json& coverage);

/// The report page's section: what never happened first, then the counts.
std::string coverage_html(const nlohmann::json& coverage);

/// The report's coverage of `game` over the plan's first `coverage_games` random games:
/// appends the section (heading included) to `html` and returns its JSON (null when the
/// plan asks for no games). With `alerts`, also the designer alerts of those games
/// (alerts_json; null when no games).
nlohmann::json coverage_section(const OpenedGame& game, const ReportPlan& plan, const std::atomic<bool>* stop,
                                std::string& html, nlohmann::json* alerts = nullptr);

}  // namespace rulebook::cli
