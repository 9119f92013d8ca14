// What a variant changes, for people: the text `rulebook diff` prints and the report's diff
// page, both from the JSON of cli/variant_diff.h.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace rulebook::cli {

/// `declarations` from declarations_diff, `analysis` from analysis_diff (may be empty).
std::string diff_text(const nlohmann::json& declarations, const nlohmann::json& analysis);

/// The body of a diff page: the declarations side by side, then the analysis tables.
std::string diff_html(const nlohmann::json& declarations, const nlohmann::json& analysis);

}  // namespace rulebook::cli
