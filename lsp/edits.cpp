// Diagnostics as LSP publishes them, formatting, and quick fixes from "did you mean" hints.
#include <filesystem>

#include <fmt/format.h>

#include "dsl/parser.h"
#include "dsl/printer.h"
#include "lsp/features.h"

namespace rulebook::lsp {

namespace {

using namespace rulebook::dsl;

/// Where a problem of another file of the chain is shown in this one: its `extends` clause.
Span anchor(const Analysis& a) {
  const File* f = a.file(a.main_source());
  if (f && f->extends_span.end > f->extends_span.begin) return f->extends_span;
  return {a.main_source(), 0, 0};
}

std::string place(const Analysis& a, const Span& s) {
  const Position p = a.sources().position(s.file, s.begin);
  return fmt::format("{}:{}:{}", std::filesystem::path(a.path(s.file)).filename().string(), p.line,
                     p.column);
}

nlohmann::json lsp_diagnostic(const Analysis& a, const Diagnostic& d) {
  const bool here = d.span.file == a.main_source();
  const Span s = here ? d.span : anchor(a);
  std::string message = here ? d.message : place(a, d.span) + ": " + d.message;
  if (!d.hint.empty()) message += "\nhelp: " + d.hint;
  nlohmann::json j = {{"range", range_json(a.lines(s.file), s.begin, s.end)},
                      {"severity", d.severity == Severity::Error ? 1 : d.severity == Severity::Warning ? 2 : 3},
                      {"source", "rulebook"},
                      {"message", message}};
  if (!d.code.empty()) j["code"] = d.code;
  for (const DiagnosticNote& n : d.notes) {
    j["relatedInformation"].push_back(
        {{"location",
          {{"uri", a.uri(n.span.file)},
           {"range", range_json(a.lines(n.span.file), n.span.begin, n.span.end)}}},
         {"message", n.message}});
  }
  return j;
}

}  // namespace

std::string suggested_name(const std::string& hint) {
  constexpr std::string_view kLead = "did you mean '";
  const size_t at = hint.find(kLead);
  if (at == std::string::npos) return "";
  const size_t begin = at + kLead.size();
  const size_t end = hint.find('\'', begin);
  if (end == std::string::npos) return "";
  std::string name = hint.substr(begin, end - begin);
  return is_identifier(name) ? name : "";
}

nlohmann::json diagnostics_params(const Analysis& a, const std::string& uri, int version) {
  nlohmann::json list = nlohmann::json::array();
  for (const Diagnostic& d : a.diagnostics().all()) list.push_back(lsp_diagnostic(a, d));
  nlohmann::json params = {{"uri", uri}, {"diagnostics", list}};
  if (version >= 0) params["version"] = version;
  return params;
}

nlohmann::json formatting(const std::string& path, const std::string& text) {
  SourceSet sources;
  Diagnostics diags;
  const uint32_t id = sources.add(path, text);
  std::unique_ptr<File> file = parse(sources, id, diags);
  // Formatting a file that does not parse would drop what the parser skipped.
  if (diags.has_errors() || !file) return nlohmann::json::array();
  const std::string formatted = format_file(*file);
  if (formatted == text) return nlohmann::json::array();
  const LineTable lines(text);
  nlohmann::json edit = {{"range", range_json(lines, 0, static_cast<uint32_t>(text.size()))},
                         {"newText", formatted}};
  return nlohmann::json::array({edit});
}

nlohmann::json code_actions(const Analysis& a, uint32_t begin, uint32_t end) {
  nlohmann::json actions = nlohmann::json::array();
  for (const Diagnostic& d : a.diagnostics().all()) {
    // Where the editor shows it: a base file's problem is on the `extends` clause.
    const Span shown = d.span.file == a.main_source() ? d.span : anchor(a);
    if (shown.end < begin || shown.begin > end) continue;
    const std::string name = suggested_name(d.hint);
    // Only a misspelt name is replaced: the span must hold exactly one identifier.
    if (name.empty() || !is_identifier(a.sources().text(d.span))) continue;
    const nlohmann::json range = range_json(a.lines(d.span.file), d.span.begin, d.span.end);
    nlohmann::json text_edit = {{"range", range}, {"newText", name}};
    nlohmann::json edit;
    const std::string target = a.uri(d.span.file);
    edit["changes"][target] = nlohmann::json::array({text_edit});
    actions.push_back({{"title", fmt::format("Replace '{}' with '{}'", a.sources().text(d.span), name)},
                       {"kind", "quickfix"},
                       {"isPreferred", true},
                       {"diagnostics", nlohmann::json::array({lsp_diagnostic(a, d)})},
                       {"edit", edit}});
  }
  return actions;
}

}  // namespace rulebook::lsp
