// Coverage as JSON (sites with their file:line and source line) and its two readings: a
// terminal's text and the report's HTML section.
#include "cli/coverage_out.h"

#include <filesystem>

#include <fmt/format.h>

#include "cli/endless_out.h"
#include "cli/alerts_out.h"
#include "dsl/diagnostics.h"

namespace rulebook::cli {
namespace {

using compiler::CoverageSite;

const char* kind_text(CoverageSite::Kind k) {
  switch (k) {
    case CoverageSite::Kind::Statement: return "statement";
    case CoverageSite::Kind::Requires: return "requires";
    case CoverageSite::Kind::Rule: return "rule";
    case CoverageSite::Kind::BoardRule: return "board rule";
    case CoverageSite::Kind::EndCondition: return "end when";
    case CoverageSite::Kind::Transition: return "until";
  }
  return "?";
}

/// What a count of zero means for a site of this kind.
const char* never_text(CoverageSite::Kind k) {
  switch (k) {
    case CoverageSite::Kind::Statement: return "never ran";
    case CoverageSite::Kind::Requires:
    case CoverageSite::Kind::Rule:
    case CoverageSite::Kind::BoardRule: return "never alone blocked an instance";
    case CoverageSite::Kind::EndCondition: return "never held when a game ended";
    case CoverageSite::Kind::Transition: return "never fired";
  }
  return "never";
}

bool is_blocking(CoverageSite::Kind k) {
  return k == CoverageSite::Kind::Requires || k == CoverageSite::Kind::Rule || k == CoverageSite::Kind::BoardRule;
}

/// Whitespace runs as one space, ends trimmed, cut at `limit` bytes.
std::string one_line(std::string_view text, size_t limit = 90) {
  std::string out;
  bool space = false;
  for (char c : text) {
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
      space = !out.empty();
      continue;
    }
    if (space) out += ' ';
    space = false;
    out += c;
  }
  if (out.size() > limit) out = out.substr(0, limit - 3) + "...";
  return out;
}

std::string site_source(const CoverageSite& s, const dsl::SourceSet& sources) {
  if (s.span.file >= sources.size()) return "";
  // An end condition is part of a line: its own text; any other site: the line it starts on.
  if (s.kind == CoverageSite::Kind::EndCondition) return one_line(sources.text(s.span));
  return one_line(sources.line_text(s.span.file, s.span.begin));
}

std::string site_at(const CoverageSite& s, const dsl::SourceSet& sources) {
  if (s.span.file >= sources.size()) return "";
  const std::string file = std::filesystem::path(sources.file(s.span.file).name).filename().string();
  return fmt::format("{}:{}", file, sources.position(s.span.file, s.span.begin).line);
}

uint64_t get_u(const nlohmann::json& j, const char* key) { return j.contains(key) ? j[key].get<uint64_t>() : 0; }

std::string count_text(const nlohmann::json& c) { return c.is_null() ? "-" : std::to_string(c.get<uint64_t>()); }

/// Over which decisions the blocking conditions were counted, when not over all of them.
std::string blocked_scope(const nlohmann::json& j) {
  const uint64_t counted = get_u(j, "blocked_decisions"), all = get_u(j, "decisions");
  if (counted >= all) return "";
  return fmt::format(" over the first {} of {} decisions (a budget of {} conditions and move bodies evaluated)", counted,
                     all, get_u(j, "blocked_budget"));
}

}  // namespace

nlohmann::json coverage_json(const explorer::CoverageGames& g, const dsl::SourceSet& sources) {
  const compiler::Coverage& c = g.counts;
  const ir::Program& p = c.program();
  nlohmann::json j{{"games", g.plan.games},       {"first_seed", g.plan.seed}, {"max_plies", g.plan.max_plies},
                   {"played", g.played},           {"finished", g.finished},     {"cut_off", g.cut_off},
                   {"errors", g.errors},           {"plies", g.plies},           {"decisions", c.decisions},
                   {"blocked_counted", g.plan.blocked}, {"blocked_decisions", c.blocked_decisions},
                   {"blocked_work", c.blocked_work},  {"blocked_budget", g.plan.blocked_budget}};
  if (g.errors) j["first_error"] = g.first_error;
  nlohmann::json moves = nlohmann::json::array(), never = nlohmann::json::array();
  for (size_t m = 0; m < p.moves.size(); ++m) {
    moves.push_back({{"move", p.moves[m].name}, {"phase", p.phases[size_t(p.moves[m].phase)].name},
                     {"legal_in", c.legal_in[m]}, {"instances", c.instances[m]}, {"chosen", c.chosen[m]},
                     {"games", c.games_chosen[m]}});
    if (c.chosen[m] == 0)
      never.push_back({{"kind", "move"}, {"block", "phase " + p.phases[size_t(p.moves[m].phase)].name},
                       {"what", p.moves[m].name}, {"at", site_at({CoverageSite::Kind::Statement, "", "", -1, p.moves[m].span}, sources)},
                       {"source", site_source({CoverageSite::Kind::Statement, "", "", -1, p.moves[m].span}, sources)},
                       {"never", c.legal_in[m] == 0 ? "never legal" : "legal but never chosen"}});
  }
  j["moves"] = moves;
  nlohmann::json ends = nlohmann::json::array();
  for (size_t k = 0; k < compiler::kEndCauses; ++k)
    ends.push_back({{"cause", compiler::end_cause_text(compiler::EndCause(k))}, {"games", c.ended_by[k]}});
  ends.push_back({{"cause", "cut off"}, {"games", g.cut_off}});
  j["ended_by"] = ends;
  nlohmann::json sites = nlohmann::json::array();
  for (size_t i = 0; i < c.sites().size(); ++i) {
    const CoverageSite& s = c.sites()[i];
    nlohmann::json count = is_blocking(s.kind) && !g.plan.blocked ? nlohmann::json() : nlohmann::json(c.counts[i]);
    nlohmann::json row{{"kind", kind_text(s.kind)}, {"block", s.block}, {"what", s.what},
                       {"at", site_at(s, sources)}, {"source", site_source(s, sources)}, {"count", count}};
    if (!count.is_null() && c.counts[i] == 0) {
      nlohmann::json n = row;
      n.erase("count");
      n["never"] = never_text(s.kind);
      n["site"] = i;
      never.push_back(n);
    }
    sites.push_back(std::move(row));
  }
  j["sites"] = sites;
  j["never"] = never;
  return j;
}

std::string coverage_text(const nlohmann::json& j) {
  auto esc = [](const nlohmann::json& s) { return dsl::escape_for_terminal(s.get<std::string>()); };
  std::string out = fmt::format(
      "coverage over {} random games (game i set up and played with seed {} + i), run by the interpreter\n"
      "{} played: {} finished, {} cut off after {} plies, {} stopped by an error; {} moves\n",
      get_u(j, "games"), get_u(j, "first_seed"), get_u(j, "played"), get_u(j, "finished"), get_u(j, "cut_off"),
      get_u(j, "max_plies"), get_u(j, "errors"), get_u(j, "plies"));
  if (j.contains("first_error")) out += "first error: " + esc(j["first_error"]) + "\n";
  out += fmt::format("\n{:<24} {:>10} {:>12} {:>10} {:>10}\n", "move (decisions: " + std::to_string(get_u(j, "decisions")) + ")",
                     "legal in", "instances", "chosen", "in games");
  for (const auto& m : j["moves"])
    out += fmt::format("  {:<22} {:>10} {:>12} {:>10} {:>10}\n", esc(m["move"]), get_u(m, "legal_in"), get_u(m, "instances"),
                       get_u(m, "chosen"), get_u(m, "games"));
  out += "\ngames ended by\n";
  for (const auto& e : j["ended_by"]) out += fmt::format("  {:<22} {:>10}\n", esc(e["cause"]), get_u(e, "games"));
  out += "\nsites (statements: times run; requires and rules: instances each alone kept out" + blocked_scope(j) +
         ";\nend when: games it ended; until: times fired)\n";
  for (const auto& s : j["sites"])
    out += fmt::format("  {:<26} {:<10} {:<22} {:<24} {:>8}  {}\n", esc(s["at"]), esc(s["kind"]), esc(s["block"]),
                       esc(s["what"]), count_text(s["count"]), esc(s["source"]));
  out += fmt::format("\nnever happened ({})\n", j["never"].size());
  for (const auto& n : j["never"]) {
    out += fmt::format("  {:<26} {:<10} {:<22} {:<24} {}: {}\n", esc(n["at"]), esc(n["kind"]), esc(n["block"]),
                       esc(n["what"]), esc(n["never"]), esc(n["source"]));
    if (n.contains("search")) out += "      " + dsl::escape_for_terminal(search_line(n)) + "\n";
  }
  return out + endless_text(j);
}

std::string coverage_html(const nlohmann::json& j) {
  std::string h = fmt::format(
      "<p>{} random games run by the interpreter (game <i>i</i> set up and played with seed {} + <i>i</i>: the "
      "first games of the random playouts), cut off after {} plies: {} finished, {} cut off, {} stopped by an "
      "error; {} moves. {}</p>\n",
      get_u(j, "games"), get_u(j, "first_seed"), get_u(j, "max_plies"), get_u(j, "finished"), get_u(j, "cut_off"),
      get_u(j, "errors"), get_u(j, "plies"),
      j.value("blocked_counted", false)
          ? "A condition counts the instances it alone kept out of the legal moves" + blocked_scope(j) + "."
          : std::string("What the conditions kept out is not counted (coverage_blocked is off)."));
  if (j["never"].empty()) {
    h += "<p>Every move, statement, condition, <code>until</code> and end condition of the rules did something.</p>\n";
    h += endless_html(j);
  } else {
    h += fmt::format("<p class=\"bad\">Never happened ({}):</p>\n", j["never"].size());
    nlohmann::json rows = nlohmann::json::array();
    for (const auto& n : j["never"])
      rows.push_back({{"where", n["at"]}, {"what", n["kind"].get<std::string>() + " " + n["what"].get<std::string>()},
                      {"in", n["block"]}, {"never", n["never"]}, {"source", n["source"]}, {"search", search_line(n)}});
    h += endless_html(j);
    h += table_html({"where", "what", "in", "never", "source", "search"}, rows);
  }
  h += "<p>Per move: decisions where it was legal, its legal instances over them, times chosen, and games in "
       "which it was chosen.</p>\n" +
       table_html({"move", "phase", "legal_in", "instances", "chosen", "games"}, j["moves"]);
  nlohmann::json ends = nlohmann::json::array();
  for (const auto& e : j["ended_by"])
    if (get_u(e, "games") > 0) ends.push_back(e);
  h += "<p>Games ended by:</p>\n" + table_html({"cause", "games"}, ends);
  nlohmann::json rows = nlohmann::json::array();
  for (const auto& s : j["sites"])
    rows.push_back({{"where", s["at"]}, {"kind", s["kind"]}, {"in", s["block"]}, {"what", s["what"]},
                    {"count", count_text(s["count"])}, {"source", s["source"]}});
  h += "<details><summary>Every site and its count</summary>\n" +
       table_html({"where", "kind", "in", "what", "count", "source"}, rows) + "</details>\n";
  return h;
}

nlohmann::json coverage_section(const OpenedGame& game, const ReportPlan& plan, const std::atomic<bool>* stop,
                                std::string& html, nlohmann::json* alerts) {
  html += "<h2 id=\"coverage\">Coverage of the rules</h2>\n";
  if (plan.coverage_games <= 0) {
    html += "<p class=\"none\">Not computed: left out by the report's settings.</p>\n";
    return nullptr;
  }
  fmt::print(stderr, "report: {} coverage over {} random games\n", plan.label, plan.coverage_games);
  explorer::CoveragePlan cp;
  cp.games = plan.coverage_games;
  cp.seed = plan.seed;
  cp.max_plies = plan.max_plies;
  cp.blocked = plan.coverage_blocked;
  cp.blocked_budget = plan.coverage_blocked_budget;
  cp.stop = stop;
  const compiler::Interpreter interpreter(*game.program, game.sources);
  const explorer::CoverageGames games = explorer::cover_games(interpreter, cp);
  nlohmann::json j = coverage_json(games, game.sources);
  examine_coverage(interpreter, games,
                   {plan.coverage_examine, plan.coverage_search_states, plan.coverage_search_states, &game.sources}, j);
  html += coverage_html(j);
  if (alerts) {
    explorer::AlertPlan ap;
    ap.replay = "rulebook play " + game.program->source_path;
    *alerts = alerts_json(explorer::find_alerts(games, *game.program, ap), games, game.sources);
  }
  return j;
}

}  // namespace rulebook::cli
