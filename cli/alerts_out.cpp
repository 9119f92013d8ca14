// Alerts in JSON, as a terminal's text (compiler-style lines) and as a report's HTML.
#include "cli/alerts_out.h"

#include <fmt/format.h>

#include "cli/report.h"
#include "compiler/ir/ir.h"
#include "dsl/diagnostics.h"

namespace rulebook::cli {
namespace {

std::string trimmed_line(std::string_view text) {
  size_t b = 0, e = text.size();
  while (b < e && (text[b] == ' ' || text[b] == '\t')) ++b;
  while (e > b && (text[e - 1] == ' ' || text[e - 1] == '\t' || text[e - 1] == '\r' || text[e - 1] == '\n')) --e;
  return std::string(text.substr(b, e - b));
}

/// Alerts acknowledged (or not) of a severity ("" for any).
size_t count_of(const nlohmann::json& j, bool acknowledged, const std::string& severity = "") {
  size_t n = 0;
  for (const auto& a : j["alerts"])
    n += a["acknowledged"].get<bool>() == acknowledged && (severity.empty() || a["severity"] == severity);
  return n;
}

std::string counted(size_t n, const char* word) { return fmt::format("{} {}{}", n, word, n == 1 ? "" : "s"); }

}  // namespace

namespace {

nlohmann::json alert_rows(const std::vector<explorer::Alert>& alerts, const dsl::SourceSet& sources) {
  nlohmann::json list = nlohmann::json::array();
  for (const explorer::Alert& a : alerts) {
    const bool located = a.span.file < sources.size();
    nlohmann::json row{{"code", a.code},
                       {"severity", a.severity == explorer::Alert::Severity::Warning ? "warning" : "note"},
                       {"subject", a.subject},
                       {"at", located ? ir::location(sources, a.span) : std::string()},
                       {"message", a.message},
                       {"source", located ? trimmed_line(sources.line_text(a.span.file, a.span.begin)) : std::string()},
                       {"evidence", a.evidence},
                       {"acknowledged", a.acknowledged}};
    if (a.acknowledged) row["reason"] = a.reason;
    list.push_back(std::move(row));
  }
  return list;
}

}  // namespace

nlohmann::json alerts_json(const std::vector<explorer::Alert>& alerts, const explorer::CoverageGames& games,
                           const dsl::SourceSet& sources) {
  return {{"games", games.played},       {"first_seed", games.plan.seed}, {"max_plies", games.plan.max_plies},
          {"finished", games.finished},  {"cut_off", games.cut_off},      {"alerts", alert_rows(alerts, sources)},
          {"unacknowledged", explorer::unacknowledged(alerts)}};
}

void add_alerts_json(nlohmann::json& j, const std::vector<explorer::Alert>& alerts, const dsl::SourceSet& sources) {
  for (nlohmann::json& row : alert_rows(alerts, sources)) j["alerts"].push_back(std::move(row));
  j["unacknowledged"] = j["unacknowledged"].get<int>() + explorer::unacknowledged(alerts);
}

std::string alerts_text(const nlohmann::json& j) {
  auto esc = [](const nlohmann::json& s) { return dsl::escape_for_terminal(s.get<std::string>()); };
  std::string out;
  for (const bool ack : {false, true}) {
    for (const auto& a : j["alerts"]) {
      if (a["acknowledged"].get<bool>() != ack) continue;
      out += fmt::format("{}: {}[{}]: {}\n", esc(a["at"]), ack ? "acknowledged" : esc(a["severity"]), esc(a["code"]),
                         esc(a["message"]));
      if (!a["source"].get<std::string>().empty()) out += "  | " + esc(a["source"]) + "\n";
      for (const auto& e : a["evidence"]) out += "  = " + esc(e) + "\n";
      if (ack) out += "  = allowed: " + esc(a["reason"]) + "\n";
    }
  }
  out += fmt::format("{}, {}, {} acknowledged, over {} random games (seeds from {}, cut off after {} moves: "
                     "{} finished, {} cut off)\n",
                     counted(count_of(j, false, "warning"), "warning"), counted(count_of(j, false, "note"), "note"),
                     count_of(j, true), j["games"].get<int>(), j["first_seed"].get<uint64_t>(),
                     j["max_plies"].get<int>(), j["finished"].get<int>(), j["cut_off"].get<int>());
  return out;
}

namespace {

/// An alert's evidence: short lines as they are; a run of indented lines (a board) and any
/// long line folded under a summary, so the table stays readable and nothing is lost.
std::string evidence_html(const nlohmann::json& evidence) {
  constexpr size_t kLong = 160;
  std::string h, block;
  auto flush = [&] {
    if (!block.empty()) h += "<details><summary>the board</summary><pre>" + html_escape(block) + "</pre></details>";
    block.clear();
  };
  for (const auto& item : evidence) {
    const std::string e = item.get<std::string>();
    if (!e.empty() && e[0] == ' ') {
      block += e + "\n";
      continue;
    }
    flush();
    if (e.size() > kLong)
      h += "<details><summary>" + html_escape(e.substr(0, kLong / 2)) + "…</summary><pre class=\"wrap\">" +
           html_escape(e) + "</pre></details>";
    else
      h += "<div>" + html_escape(e) + "</div>";
  }
  flush();
  return h;
}

std::string alert_table(const nlohmann::json& j, bool acknowledged, const std::string& severity) {
  std::string h = fmt::format("<table class=\"alerts\">\n<tr><th>where</th><th>code</th><th>alert</th>{}<th>evidence</th></tr>\n",
                              acknowledged ? "<th>reason</th>" : "");
  for (const auto& a : j["alerts"]) {
    if (a["acknowledged"].get<bool>() != acknowledged || (!severity.empty() && a["severity"] != severity)) continue;
    h += fmt::format("<tr><td><code>{}</code></td><td><code class=\"{}\">{}</code></td><td>{}</td>{}<td>{}</td></tr>\n",
                     html_escape(a["at"]), a["severity"] == "warning" && !acknowledged ? "bad" : "none",
                     html_escape(a["code"]), html_escape(a["message"]),
                     acknowledged ? "<td>" + html_escape(a["reason"]) + "</td>" : std::string(),
                     evidence_html(a["evidence"]));
  }
  return h + "</table>\n";
}

}  // namespace

std::string alerts_html(const nlohmann::json& j) {
  std::string h = fmt::format(
      "<p>From the first {} random games of the coverage below (seeds from {}) and the properties' boards: what no "
      "game showed is \"not seen\", not impossible. Codes: docs/lint.md.</p>\n",
      j["games"].get<int>(), j["first_seed"].get<uint64_t>());
  const size_t warnings = count_of(j, false, "warning"), notes = count_of(j, false, "note"), ack = count_of(j, true);
  if (!warnings && !notes) h += "<p>No alert.</p>\n";
  // Warnings are what a designer must read: shown open. Notes (a statement or condition not
  // seen doing anything, often only rare) and acknowledged alerts are one click away.
  if (warnings) h += fmt::format("<p class=\"bad\">{}:</p>\n", counted(warnings, "warning")) + alert_table(j, false, "warning");
  if (notes)
    h += fmt::format("<details><summary>{} (a statement or condition not seen doing anything, often only rare; a "
                     "board not shown reachable)</summary>\n",
                     counted(notes, "note")) +
         alert_table(j, false, "note") + "</details>\n";
  if (ack)
    h += fmt::format("<details><summary>{} acknowledged by the rules, with their reasons</summary>\n", ack) +
         alert_table(j, true, "") + "</details>\n";
  return h;
}

std::string alerts_figure(const nlohmann::json& j) {
  const size_t warnings = count_of(j, false, "warning"), notes = count_of(j, false, "note"), ack = count_of(j, true);
  std::string out = std::to_string(warnings);
  if (notes) out += fmt::format(" ({})", counted(notes, "note"));
  if (ack) out += fmt::format(" (+{} acknowledged)", ack);
  return out;
}

std::pair<std::string, bool> worst_alert(const nlohmann::json& j) {
  for (const char* severity : {"warning", "note"})
    for (const auto& a : j["alerts"])
      if (!a["acknowledged"].get<bool>() && a["severity"] == severity) return {a["code"].get<std::string>(), severity[0] == 'w'};
  return {"", false};
}

}  // namespace rulebook::cli
