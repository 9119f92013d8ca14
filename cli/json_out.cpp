// JSON views of front-end results.
#include "cli/json_out.h"

#include <fmt/format.h>

namespace rulebook::cli {
namespace {

const char* severity_name(dsl::Severity s) {
  switch (s) {
    case dsl::Severity::Error: return "error";
    case dsl::Severity::Warning: return "warning";
    case dsl::Severity::Note: return "note";
  }
  return "error";
}

nlohmann::json location(const dsl::Span& span, const dsl::SourceSet& sources) {
  nlohmann::json j;
  if (span.file >= sources.size()) return j;
  dsl::Position p = sources.position(span.file, span.begin);
  j["file"] = sources.file(span.file).name;
  j["line"] = p.line;
  j["column"] = p.column;
  return j;
}

}  // namespace

nlohmann::json diagnostics_json(const dsl::Diagnostics& diags, const dsl::SourceSet& sources) {
  nlohmann::json out = nlohmann::json::array();
  for (const dsl::Diagnostic& d : diags.all()) {
    nlohmann::json j = location(d.span, sources);
    j["severity"] = severity_name(d.severity);
    j["message"] = d.message;
    if (!d.code.empty()) j["code"] = d.code;
    if (!d.hint.empty()) j["hint"] = d.hint;
    nlohmann::json notes = nlohmann::json::array();
    for (const dsl::DiagnosticNote& n : d.notes) {
      nlohmann::json nj = location(n.span, sources);
      nj["message"] = n.message;
      notes.push_back(std::move(nj));
    }
    if (!notes.empty()) j["notes"] = std::move(notes);
    out.push_back(std::move(j));
  }
  return out;
}

std::string state_hex(const std::vector<uint8_t>& state) {
  std::string hex;
  for (uint8_t x : state) hex += fmt::format("{:02x}", x);
  return hex;
}

}  // namespace rulebook::cli
