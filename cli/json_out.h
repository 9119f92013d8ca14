// JSON views of front-end results, shared by the verbs' --json output.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "dsl/diagnostics.h"

namespace rulebook::cli {

/// Every diagnostic as {severity, file, line, column, message, notes, hint}.
nlohmann::json diagnostics_json(const dsl::Diagnostics& diags, const dsl::SourceSet& sources);

/// A state's bytes (the engines' layout) in hex, two digits a byte: how boards travel in JSON.
std::string state_hex(const std::vector<uint8_t>& state);

}  // namespace rulebook::cli
