// The report's state-space and proof sections: a bounded enumeration from the start of the
// example game under the symmetries found for it, and the verifier's verdicts on the rule
// file's properties with their boards. Both are deterministic: the enumeration's counts do
// not depend on threads, and the verifier runs on a resource budget, not on wall time.
#include <algorithm>
#include <map>
#include <stdexcept>

#include <fmt/format.h>

#include "cli/json_out.h"
#include "cli/report.h"
#include "explorer/enumerate.h"
#include "explorer/symmetry.h"
#include "render/board.h"
#include "verifier/proof_alerts.h"
#include "verifier/reach_boards.h"
#include "verifier/verify.h"

namespace rulebook::cli {
namespace {

std::string group_names(const std::vector<explorer::Transform>& elements) {
  std::string s;
  for (const explorer::Transform& t : elements) s += (s.empty() ? "" : ", ") + t.name;
  return s;
}

/// The properties reading a setup value checked again with each value of `plan.prove_setups`
/// fixed (verdicts added to the rows of `data` as "per_setup"); the table's HTML, or "".
std::string per_setup_html(const OpenedGame& game, const ReportPlan& plan, verifier::Options vo,
                           nlohmann::json& data) {
  const ir::Program& p = *game.program;
  std::vector<std::string> columns{"property"};
  std::map<std::string, nlohmann::json> rows;  // by property
  std::vector<std::string> order;
  auto cell = [&](const std::string& property, const std::string& kv, const std::string& text) {
    if (!rows.count(property)) order.push_back(property);
    rows[property]["property"] = property;
    rows[property][kv] = text;
  };
  for (const std::string& kv : plan.prove_setups) {
    const size_t eq = kv.find('=');
    const std::string name = kv.substr(0, eq == std::string::npos ? 0 : eq);
    vo.only.clear();
    vo.candidate_games = 0;  // found once, in the main run
    for (const ir::Property& prop : p.properties) {
      const std::vector<std::string> read = verifier::setups_read(p, prop);
      const bool fixed = std::any_of(prop.setup.begin(), prop.setup.end(), [&](const auto& kv) { return kv.first == name; });
      if (!fixed && std::find(read.begin(), read.end(), name) != read.end()) vo.only.push_back(prop.name);
    }
    if (vo.only.empty() || (vo.stop && vo.stop->load())) continue;  // not a setup value these rules read
    columns.push_back(kv);
    vo.setup = {{name, kv.substr(eq + 1)}};
    std::vector<verifier::Result> results;
    try {
      results = verifier::verify(p, game.sources, vo);
    } catch (const std::invalid_argument& e) {
      for (const std::string& n : vo.only) cell(n, kv, std::string("error: ") + e.what());
      continue;
    }
    for (const verifier::Result& r : results)
      if (std::find(vo.only.begin(), vo.only.end(), r.name) != vo.only.end())  // not a lemma about something else
        cell(r.name, kv, verifier::verdict_name(r.verdict));
  }
  if (order.empty()) return "";
  nlohmann::json table = nlohmann::json::array();
  for (const std::string& n : order) {
    table.push_back(rows[n]);
    for (nlohmann::json& d : data)
      if (d["property"] == n) {
        d["per_setup"] = rows[n];
        d["per_setup"].erase("property");
      }
  }
  return "<h3>Per setup value</h3>\n<p>The properties that read a setup value, checked again with each value "
         "below fixed (<code>rulebook prove FILE --setup NAME=VALUE</code>), on the same budget: \"proved\" "
         "holds for that value, \"refuted\" does not.</p>\n" +
         table_html(columns, table);
}

}  // namespace

Section enumeration_section(const OpenedGame& game, const uint8_t* root, const ReportPlan& plan,
                            const std::atomic<bool>* stop) {
  Section s;
  const ir::Program& p = *game.program;
  const engine::Engine& e = *game.engine;
  if (!plan.explore) return s;
  fmt::print(stderr, "report: {} states to {} (at most {} per depth)\n", plan.label,
             plan.explore_depth < 0 ? std::string("the end") : fmt::format("depth {}", plan.explore_depth),
             plan.explore_states);
  explorer::SurveyOptions so;
  so.max_depth = plan.explore_depth;
  so.max_states = plan.explore_states;
  so.threads = std::max(1, plan.threads);
  so.interrupt = stop;
  explorer::Survey survey = explorer::survey(p, game.sources, e, root, so);
  const explorer::SymmetryGroup& group = survey.group;
  const explorer::ExploreResult& r = survey.result;

  nlohmann::json rows = nlohmann::json::array();
  std::vector<std::string> columns = {"depth", "move paths", "distinct states", "up to symmetry", "terminal",
                                      "terminal up to symmetry", "complete games"};
  bool end_columns = false;
  for (const explorer::DepthCount& d : r.depths) {
    nlohmann::json row = {{"depth", d.depth},
                          {"move paths", d.paths_known ? nlohmann::json(d.paths) : nlohmann::json("overflow")},
                          {"distinct states", d.distinct},
                          {"up to symmetry", d.symmetric},
                          {"terminal", d.terminal},
                          {"terminal up to symmetry", d.terminal_symmetric},
                          {"complete games", d.ends_exact ? explorer::wide_json(d.ends)
                                                          : nlohmann::json(explorer::complete_games_text(d.ends, false))}};
    if (!d.end_symmetries.empty()) {
      if (!end_columns) columns.insert(columns.end(), {"terminal set also kept by", "terminal up to those too"});
      end_columns = true;
      row["terminal set also kept by"] =
          fmt::format("{} (with the group: {} elements)", fmt::join(d.end_symmetries, ", "), d.end_group_order);
      row["terminal up to those too"] = d.terminal_end_classes;
    }
    for (size_t i = 0; i < d.per_phase.size() && p.phases.size() > 1; ++i)
      row["phase " + p.phases[i].name] = d.per_phase[i];
    rows.push_back(std::move(row));
  }
  nlohmann::json checks = nlohmann::json::array();
  for (const explorer::SymmetryCheck& c : group.checks)
    checks.push_back({{"transformation", c.transform.name},
                      {"declared in the rules", c.declared},
                      {"used", c.kept},
                      {"why not", c.reason}});
  std::string stopped = r.stopped.empty()                ? "every reachable state was counted"
                        : r.stopped == "depth"           ? fmt::format("stopped at depth {}", plan.explore_depth)
                        : r.stopped == "states"          ? fmt::format("stopped: more than {} states at the next depth", plan.explore_states)
                        : r.stopped == "error"           ? "stopped by an engine error: " + r.status.message
                                                         : "stopped (" + r.stopped + ")";
  s.json = nlohmann::json::parse(explorer::survey_json(p, survey));
  s.json["max_depth"] = plan.explore_depth;
  s.json["max_states"] = plan.explore_states;
  s.html = fmt::format(
      "<p>Breadth-first from the start above, each state counted once however it is reached; up to symmetry "
      "counts the classes under the group <b>{}</b> ({} element{}, each checked on the rules). Here {}. A state "
      "packs into {} bits. A complete game is a line of play that ends in a terminal state (the game is over); "
      "{} of them end within the depths shown.</p>\n",
      html_escape(group_names(group.elements)), group.elements.size(), group.elements.size() == 1 ? "" : "s",
      html_escape(stopped), r.key_bits, explorer::complete_games_text(r.total_ends, r.total_ends_exact));
  if (!group.note.empty()) s.html += "<p>" + html_escape(group.note) + "</p>\n";
  for (size_t i = 0; i < p.phases.size() && p.phases.size() > 1; ++i) columns.push_back("phase " + p.phases[i].name);
  s.html += table_html(columns, rows);
  if (!checks.empty())
    s.html += "<h3>Board transformations tried</h3>\n" + table_html({"transformation", "declared in the rules", "used", "why not"}, checks);
  s.figure = r.depths.empty() ? "–" : fmt::format("{} to depth {}", r.total_distinct, r.depths.back().depth);
  return s;
}

Section proofs_section(const OpenedGame& game, const ReportPlan& plan, render::Annotator* annotator,
                       const std::vector<render::Layer>& layers, const std::atomic<bool>* stop,
                       std::vector<explorer::Alert>* alerts) {
  Section s;
  const ir::Program& p = *game.program;
  if (!plan.prove || p.properties.empty()) {
    if (p.properties.empty()) {
      s.json = nlohmann::json::array();
      s.html = "<p>The rule file states no properties.</p>\n";
    }
    return s;
  }
  fmt::print(stderr, "report: {} {} properties\n", plan.label, p.properties.size());
  verifier::Options vo;
  vo.timeout_seconds = plan.prove_timeout;
  vo.rlimit = plan.prove_rlimit;
  vo.candidate_games = plan.invariant_games;
  vo.candidate_rlimit = plan.invariant_rlimit;
  vo.candidate_seconds = plan.prove_timeout;  // a safety net: the resource limit decides
  vo.candidates_last = true;  // the file's verdicts stay those of a run without them
  vo.progress = [&plan](const std::string& line) { fmt::print(stderr, "report: {} {}\n", plan.label, line); };
  vo.stop = stop;
  vo.play_engine = game.engine.get();
  std::vector<verifier::Result> results = verifier::verify(p, game.sources, vo);
  const compiler::Interpreter interpreter(p, game.sources);
  if (!(stop && stop->load())) verifier::reach_boards(interpreter, results, {plan.prove_reach_states, stop});
  if (alerts) *alerts = verifier::proof_alerts(results, p);

  auto draw = [&](const verifier::Board& b, const std::string& title) {
    render::Annotations notes;
    render::DrawOptions o;
    o.title = title;
    o.cell = 24;
    if (annotator && !layers.empty() && annotator->draw(layers, b.state.data(), notes).ok) o.annotations = &notes;
    return render::board_svg(p, b.state.data(), o);
  };
  nlohmann::json data = nlohmann::json::array(), view = nlohmann::json::array();
  int definite = 0, properties = 0, candidates = 0;
  for (const verifier::Result& r : results) {
    // The verifier's own candidates are listed when proved: those not proved say nothing
    // of the rules (docs/verifier.md, Found invariants), and only their number is given.
    if (r.found) ++candidates;
    if (r.found && r.verdict != verifier::Verdict::Proved) continue;
    if (!r.found) {
      ++properties;
      definite += r.definite() ? 1 : 0;
    }
    const std::string kind = ir::kind_name(r.kind), verdict = verifier::verdict_name(r.verdict);
    nlohmann::json d = {{"property", r.name}, {"kind", kind},         {"verdict", verdict},
                        {"over", r.set},      {"detail", r.detail}, {"description", r.description}};
    if (r.found) d["found"] = true;
    if (r.value) d["value"] = *r.value;
    if (!r.needs.empty()) d["needs"] = r.needs;
    std::string boards;
    if (r.board) {
      d["board"] = {{"text", r.board->text}, {"move", r.board->move}, {"state", state_hex(r.board->state)}};
      if (r.violates) {
        d["board"]["violates"] = *r.violates;
        d["board"]["reachability"] = verifier::reachability_text(*r.violates);
      }
      if (r.reach) {
        if (r.reach->reached) d["board"]["reached_by"] = r.reach->line;
        if (FoundLine l{r.name + " (" + verdict + ")", {}, r.reach->line};
            r.reach->reached && verifier::board_start(interpreter, *r.board, l.start))
          s.lines.push_back(std::move(l));
        d["board"]["searched_states"] = r.reach->states;
        d["board"]["search"] = verifier::board_reach_text(r);
      }
      boards += draw(*r.board, r.board->move.empty() ? verdict : verdict + ": " + r.board->move);
    }
    nlohmann::json drops = nlohmann::json::array();
    for (const verifier::RuleDrop& drop : r.drops) {
      nlohmann::json dj = {{"rule", drop.rule}, {"verdict", verifier::verdict_name(drop.verdict)}};
      if (drop.board) {
        dj["board"] = drop.board->text;
        boards += draw(*drop.board, "without " + drop.rule);
      }
      drops.push_back(std::move(dj));
    }
    if (!drops.empty()) d["without_each"] = drops;
    data.push_back(d);
    std::string result = r.detail;
    if (!r.needs.empty()) result += (result.empty() ? "" : "; ") + fmt::format("needs {}", fmt::join(r.needs, ", "));
    if (const std::string reach = r.board ? verifier::board_reach_text(r) : ""; !reach.empty())
      result += (result.empty() ? "" : "; ") + reach;
    view.push_back({{"property", r.found ? r.name + ": " + r.description : r.name},
                    {"kind", kind},
                    {"verdict", verdict},
                    {"over", r.set},
                    {"result", result},
                    {"board", boards}});
  }
  const std::string per_setup = plan.prove_setups.empty() ? "" : per_setup_html(game, plan, vo, data);
  s.json = data;
  s.html = fmt::format(
      "<p>Each property of the rule file checked with Z3 on a budget of {} resource units per property (Z3's "
      "rlimit, the same on every machine); \"unknown\" means the budget ran out, never that the property holds. "
      "<code>rulebook prove FILE --timeout S</code> gives a property more time. Boards are the witnesses and "
      "counterexamples, drawn from the same state the engines use.</p>\n",
      plan.prove_rlimit);
  if (plan.invariant_games > 0) {
    size_t proved = 0;
    for (const nlohmann::json& d : data) proved += d.value("found", false);
    s.html += fmt::format(
        "<p>The verifier also proposed {} invariant{} of its own: relations and bounds that held on every state of "
        "{} seeded random games, each tried by induction on {} resource units after the file's properties "
        "(<code>rulebook prove FILE --invariants {} --invariant-rlimit {} --invariants-last</code>). {} proved, "
        "listed below as <code>found_N</code> with their formulas; the others are dropped. Every board below is "
        "read against every invariant proved.</p>\n",
        candidates, candidates == 1 ? "" : "s", plan.invariant_games, plan.invariant_rlimit, plan.invariant_games,
        plan.invariant_rlimit, proved == 0 ? std::string("None was") : fmt::format("{} {}", proved, proved == 1 ? "was" : "were"));
  }
  s.html += table_html({"property", "kind", "verdict", "over", "result", "board"}, view);
  s.html += per_setup;
  s.figure = fmt::format("{}/{}", definite, properties);
  return s;
}

}  // namespace rulebook::cli
