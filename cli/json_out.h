// JSON views of front-end results, shared by the verbs' --json output.
#pragma once

#include <nlohmann/json.hpp>

#include "dsl/diagnostics.h"

namespace rulebook::cli {

/// Every diagnostic as {severity, file, line, column, message, notes, hint}.
nlohmann::json diagnostics_json(const dsl::Diagnostics& diags, const dsl::SourceSet& sources);

}  // namespace rulebook::cli
