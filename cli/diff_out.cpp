// The two readings of a variant diff: text for `rulebook diff`, HTML for the report's page.
#include "cli/diff_out.h"

#include <fmt/core.h>

#include "cli/report.h"

namespace rulebook::cli {
namespace {

using nlohmann::json;

std::string indented(const std::string& text, const std::string& pad) {
  std::string out = pad;
  for (char c : text) {
    out += c;
    if (c == '\n') out += pad;
  }
  while (!out.empty() && (out.back() == ' ' || out.back() == '\n')) out.pop_back();
  return out + "\n";
}

std::string number(const json& v) {
  if (v.is_null()) return "-";
  if (v.is_number_integer() || v.is_number_unsigned()) return std::to_string(v.get<int64_t>());
  if (v.is_number()) return fmt::format("{:.4g}", v.get<double>());
  return v.is_string() ? v.get<std::string>() : v.dump();
}

std::string verdict(const json& side) {
  if (side.is_null()) return "(not in the file)";
  std::string s = side["verdict"].get<std::string>();
  if (side.contains("value")) s += " " + number(side["value"]);
  return s;
}

/// "p = 0.012 (two-proportion z-test, z = 2.5)"
std::string test_text(const json& row) {
  if (!row.contains("p_value")) {
    const std::string why = row.value("test", "");  // "none: the reason"
    return why.rfind("none: ", 0) == 0 ? "no test: " + why.substr(6) : why;
  }
  std::string stat = row.contains("z") ? fmt::format("z = {}", number(row["z"]))
                                       : fmt::format("t = {}, df = {}", number(row["t"]), number(row["df"]));
  return fmt::format("p = {} ({}, {})", number(row["p_value"]), row["test"].get<std::string>(), stat);
}

std::string pct(const json& v) { return fmt::format("{:.1f}%", v.get<double>() * 100); }

std::string share_line(const json& row) {
  return fmt::format("{}: {} -> {} ({:+.1f} points; {})", row["name"].get<std::string>(), pct(row["a_share"]),
                     pct(row["b_share"]), row["difference"].get<double>() * 100, test_text(row));
}

std::string mean_line(const json& row) {
  return fmt::format("{}: {} -> {} ({:+.4g}; {})", row["name"].get<std::string>(), number(row["a_mean"]),
                     number(row["b_mean"]), row["difference"].get<double>(), test_text(row));
}

std::string alert_line(const json& a) {
  return fmt::format("[{}{}] {}: {} ({})", a["severity"].get<std::string>(),
                     a.value("acknowledged", false) ? ", acknowledged" : "", a["code"].get<std::string>(),
                     a["message"].get<std::string>(), a["at"].get<std::string>());
}

std::string name_of(const json& item) { return item["kind"].get<std::string>() + " " + item["name"].get<std::string>(); }

}  // namespace

std::string diff_text(const json& d, const json& analysis) {
  std::string out = fmt::format("{} ({})\n  -> {} ({})\n\n", d["a"]["file"].get<std::string>(),
                                d["a"]["title"].get<std::string>(), d["b"]["file"].get<std::string>(),
                                d["b"]["title"].get<std::string>());
  out += fmt::format("declarations in force: {} added, {} removed, {} overridden, {} unchanged\n", d["added"].size(),
                     d["removed"].size(), d["overridden"].size(), d["unchanged"].get<int>());
  for (const char* part : {"added", "removed"}) {
    if (d[part].empty()) continue;
    out += fmt::format("\n{}:\n", part);
    for (const json& it : d[part]) {
      out += fmt::format("  {}  ({})\n", name_of(it), it["at"].get<std::string>());
      if (it.contains("description")) out += fmt::format("    \"{}\"\n", it["description"].get<std::string>());
      out += indented(it["text"].get<std::string>(), "    | ");
    }
  }
  if (!d["overridden"].empty()) out += "\noverridden:\n";
  for (const json& it : d["overridden"]) {
    out += fmt::format("  {}\n", name_of(it));
    for (const char* side : {"a", "b"}) {
      const json& s = it[side];
      out += fmt::format("    {} {}\n", side[0] == 'a' ? "before" : "after ", s["at"].get<std::string>());
      if (s.contains("description")) out += fmt::format("      \"{}\"\n", s["description"].get<std::string>());
      out += indented(s["text"].get<std::string>(), "      | ");
    }
  }
  if (analysis.contains("properties")) {
    std::string lines;
    for (const json& p : analysis["properties"])
      if (p["changed"].get<bool>())
        lines += fmt::format("  {}: {} -> {}\n", p["property"].get<std::string>(), verdict(p["a"]), verdict(p["b"]));
    out += "\nproperties whose verdict or value changed:" + (lines.empty() ? std::string(" none\n") : "\n" + lines);
  }
  if (analysis.contains("playouts")) {
    const json& p = analysis["playouts"];
    out += fmt::format("\nrandom playouts ({} and {} games, {} and {} finished, first seeds {} and {}):\n",
                       number(p["a_games"]), number(p["b_games"]), number(p["a_finished"]), number(p["b_finished"]),
                       number(p["first_seed"][0]), number(p["first_seed"][1]));
    for (const json& row : p["means"]) out += "  " + mean_line(row) + "\n";
    out += fmt::format("  branching: {} -> {} ({})\n", number(p["branching"]["a_mean"]), number(p["branching"]["b_mean"]),
                       test_text(p["branching"]));
    for (const json& row : p["wins"]) out += "  wins " + share_line(row) + "\n";
    out += "  " + share_line(p["drawn"]) + "\n";
  }
  if (analysis.contains("state_space")) {
    out += "\nstate space (distinct states, terminal ones, by depth):\n";
    for (const json& r : analysis["state_space"])
      out += fmt::format("  depth {}: {} -> {} states, {} -> {} terminal\n", number(r["depth"]), number(r["a_distinct"]),
                         number(r["b_distinct"]), number(r["a_terminal"]), number(r["b_terminal"]));
  }
  if (analysis.contains("alerts")) {
    const json& a = analysis["alerts"];
    out += fmt::format("\nalerts: {} appeared, {} gone, {} in both\n", a["appeared"].size(), a["gone"].size(),
                       number(a["kept"]));
    for (const json& x : a["appeared"]) out += "  appeared " + alert_line(x) + "\n";
    for (const json& x : a["gone"]) out += "  gone " + alert_line(x) + "\n";
  }
  return out;
}

std::string diff_html(const json& d, const json& analysis) {
  std::string h = fmt::format(
      "<p>What <code>{}</code> ({}) changes against <code>{}</code> ({}): {} declarations added, {} removed, {} "
      "overridden, {} unchanged.</p>\n",
      html_escape(d["b"]["file"].get<std::string>()), html_escape(d["b"]["title"].get<std::string>()),
      html_escape(d["a"]["file"].get<std::string>()), html_escape(d["a"]["title"].get<std::string>()),
      d["added"].size(), d["removed"].size(), d["overridden"].size(), d["unchanged"].get<int>());
  auto cell = [](const json& s) {
    if (s.is_null()) return std::string("<td></td>");
    std::string c = "<td><code>" + html_escape(s["at"].get<std::string>()) + "</code>";
    if (s.contains("description")) c += "<p><em>" + html_escape(s["description"].get<std::string>()) + "</em></p>";
    return c + "<pre>" + html_escape(s["text"].get<std::string>()) + "</pre></td>";
  };
  h += "<h2 id=\"declarations\">Declarations</h2>\n<table class=\"diff\">\n<tr><th></th><th>before</th><th>after</th></tr>\n";
  for (const json& it : d["overridden"])
    h += "<tr><th>overridden " + html_escape(name_of(it)) + "</th>" + cell(it["a"]) + cell(it["b"]) + "</tr>\n";
  for (const json& it : d["added"]) h += "<tr><th>added " + html_escape(name_of(it)) + "</th><td></td>" + cell(it) + "</tr>\n";
  for (const json& it : d["removed"]) h += "<tr><th>removed " + html_escape(name_of(it)) + "</th>" + cell(it) + "<td></td></tr>\n";
  h += "</table>\n";
  if (analysis.contains("properties")) {
    std::string rows;
    for (const json& p : analysis["properties"])
      if (p["changed"].get<bool>())
        rows += fmt::format("<tr><td>{}</td><td>{}</td><td>{}</td></tr>\n", html_escape(p["property"].get<std::string>()),
                            html_escape(verdict(p["a"])), html_escape(verdict(p["b"])));
    h += "<h2 id=\"properties\">Properties whose verdict or value changed</h2>\n" +
         (rows.empty() ? std::string("<p>None.</p>\n")
                       : "<table>\n<tr><th>property</th><th>before</th><th>after</th></tr>\n" + rows + "</table>\n");
  }
  if (analysis.contains("playouts")) {
    const json& p = analysis["playouts"];
    h += fmt::format("<h2 id=\"playouts\">Random playouts</h2>\n<p>{} and {} games ({} and {} finished). Means compared "
                     "with Welch's t-test, shares of the finished games with a two-proportion z-test.</p>\n<ul>\n",
                     number(p["a_games"]), number(p["b_games"]), number(p["a_finished"]), number(p["b_finished"]));
    for (const json& row : p["means"]) h += "<li>" + html_escape(mean_line(row)) + "</li>\n";
    for (const json& row : p["wins"]) h += "<li>wins " + html_escape(share_line(row)) + "</li>\n";
    h += "<li>" + html_escape(share_line(p["drawn"])) + "</li>\n</ul>\n";
  }
  if (analysis.contains("state_space")) {
    json rows = json::array();
    for (const json& r : analysis["state_space"])
      rows.push_back({{"depth", r["depth"]}, {"states before", number(r["a_distinct"])}, {"states after", number(r["b_distinct"])},
                      {"terminal before", number(r["a_terminal"])}, {"terminal after", number(r["b_terminal"])}});
    h += "<h2 id=\"states\">State space</h2>\n<p>Distinct states by depth (- : not counted within the budget).</p>\n" +
         table_html({"depth", "states before", "states after", "terminal before", "terminal after"}, rows);
  }
  if (analysis.contains("alerts")) {
    const json& a = analysis["alerts"];
    h += fmt::format("<h2 id=\"alerts\">Alerts</h2>\n<p>{} appeared, {} gone, {} in both.</p>\n<ul>\n",
                     a["appeared"].size(), a["gone"].size(), number(a["kept"]));
    for (const json& x : a["appeared"]) h += "<li>appeared " + html_escape(alert_line(x)) + "</li>\n";
    for (const json& x : a["gone"]) h += "<li>gone " + html_escape(alert_line(x)) + "</li>\n";
    h += "</ul>\n";
  }
  return h;
}

}  // namespace rulebook::cli
