// The "At a glance" block at the top of a variant's report page (cli/report_glance.cpp).
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace rulebook::cli {

/// Sentences made from a variant's analysis JSON (the page's own data): who wins in the
/// random games, how long games last, the properties' verdicts, the states counted and the
/// alerts, each row linking to its section. Empty when the analysis holds none of them.
std::string glance_html(const nlohmann::json& analysis);

}  // namespace rulebook::cli
