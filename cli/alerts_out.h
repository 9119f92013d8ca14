// Designer alerts as JSON and its two readings: the text of `rulebook lint` and the block
// at the top of a report page, both made from that JSON so they always agree.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "dsl/source.h"
#include "explorer/alerts.h"

namespace rulebook::cli {

/// {games, first_seed, max_plies, finished, cut_off, alerts: [{code, severity, subject, at,
/// message, source, evidence, acknowledged, reason}], unacknowledged}. `at` is
/// file:line:col as the sources name the file.
nlohmann::json alerts_json(const std::vector<explorer::Alert>& alerts, const explorer::CoverageGames& games,
                           const dsl::SourceSet& sources);

/// Appends `alerts` (those of the file's properties, verifier/proof_alerts.h) to an
/// alerts_json object, counting the warnings among them not acknowledged.
void add_alerts_json(nlohmann::json& alerts_json, const std::vector<explorer::Alert>& alerts,
                     const dsl::SourceSet& sources);

/// `file:line:col: warning[code]: message`, the source line, then the evidence; the
/// acknowledged ones after, with their reasons; then a count.
std::string alerts_text(const nlohmann::json& alerts);

/// The report page's block: the alerts not acknowledged, then the acknowledged ones.
std::string alerts_html(const nlohmann::json& alerts);

/// The index's figure: the warnings not acknowledged, then notes and acknowledged ones:
/// "0", "1 (3 notes)", "0 (2 notes) (+1 acknowledged)".
std::string alerts_figure(const nlohmann::json& alerts);

/// The worst alert's code and whether it is a warning: the first warning not acknowledged,
/// else the first note not acknowledged; "" when there is none.
std::pair<std::string, bool> worst_alert(const nlohmann::json& alerts);

}  // namespace rulebook::cli
