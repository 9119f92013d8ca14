// The analysis behind a variant's page: boards of a seeded game, the opening tree,
// random and greedy playouts with their metrics; each as JSON and as HTML with charts.
#include <cmath>
#include <cstdio>
#include <filesystem>

#include <fmt/format.h>

#include "cli/alerts_out.h"
#include "cli/coverage_out.h"
#include "cli/open_game.h"
#include "cli/report.h"
#include "cli/report_viewer.h"
#include "cli/verbs.h"
#include "explorer/metrics.h"
#include "explorer/tree.h"
#include "render/board.h"
#include "render/chart.h"
#include "render/palette.h"

namespace rulebook::cli {
namespace {

/// Rounded so that JSON and pages never show float noise.
double round4(double v) { return std::round(v * 10000.0) / 10000.0; }

std::string pct(double v) { return fmt::format("{:.1f}%", v * 100); }

nlohmann::json summary_json(const explorer::Summary& s) {
  nlohmann::json hist = nlohmann::json::array();
  for (const auto& [v, n] : s.histogram) hist.push_back({v, n});
  return {{"count", s.count}, {"mean", round4(s.mean)}, {"min", s.min}, {"max", s.max}, {"histogram", hist}};
}

/// A histogram as bars: one per value, or at most 24 equal bins when values are many.
std::vector<render::Bar> histogram_bars(const explorer::Summary& s) {
  std::vector<render::Bar> bars;
  if (s.count == 0) return bars;
  const int64_t span = s.max - s.min + 1;
  const int64_t width = span <= 30 ? 1 : (span + 23) / 24;
  for (int64_t lo = s.min; lo <= s.max; lo += width) {
    uint64_t n = 0;
    for (auto it = s.histogram.lower_bound(lo); it != s.histogram.end() && it->first < lo + width; ++it) n += it->second;
    bars.push_back({width == 1 ? std::to_string(lo) : fmt::format("{}-{}", lo, lo + width - 1), double(n), {}, {}, ""});
  }
  return bars;
}

std::string summary_text(const explorer::Summary& s) {
  if (s.count == 0) return "no games";
  return fmt::format("mean {:.2f}, min {}, max {} ({} games)", s.mean, s.min, s.max, s.count);
}

nlohmann::json shares_json(const std::vector<std::string>& names, const std::vector<explorer::Share>& shares) {
  nlohmann::json out = nlohmann::json::array();
  for (size_t i = 0; i < shares.size(); ++i)
    out.push_back({{"name", names[i]}, {"wins", shares[i].count}, {"ties", shares[i].ties},
                   {"share", round4(shares[i].share)}, {"ci95", {round4(shares[i].lo), round4(shares[i].hi)}}});
  return out;
}

nlohmann::json stats_json(const explorer::PlayoutStats& st, const char* policy) {
  nlohmann::json phases = nlohmann::json::array();
  for (size_t p = 0; p < st.phase_names.size(); ++p)
    phases.push_back({{"phase", st.phase_names[p]}, {"plies", summary_json(st.phase_length[p])}});
  nlohmann::json metrics = nlohmann::json::array();
  for (const explorer::MetricStats& m : st.metrics)
    metrics.push_back({{"name", m.name}, {"description", m.description}, {"at_end", m.at_end},
                       {"values", summary_json(m.values)}});
  nlohmann::json j{{"policy", policy},
                   {"games", st.plan.games},
                   {"first_seed", st.plan.seed},
                   {"max_plies", st.plan.max_plies},
                   {"played", st.played},
                   {"finished", st.finished},
                   {"cut_off", st.cut_off},
                   {"errors", st.errors},
                   {"length", summary_json(st.length)},
                   {"phases", phases},
                   {"scored", st.per_team ? "team" : "player"},
                   {"wins", shares_json(st.subjects, st.wins)},
                   {"drawn", st.drawn},
                   {"branching", {{"mean", round4(st.branching_mean)}, {"max", st.branching_max}, {"decisions", st.decisions}}},
                   {"metrics", metrics}};
  if (!st.teams.empty()) j["team_wins"] = shares_json(st.teams, st.team_wins);
  if (st.errors) j["first_error"] = st.first_error;
  nlohmann::json scores = nlohmann::json::array();
  for (size_t i = 0; i < st.scores.size(); ++i) scores.push_back({{"name", st.subjects[i]}, {"score", summary_json(st.scores[i])}});
  j["final_scores"] = scores;
  return j;
}

/// The titles of the report's board layers ("ship cells, red lines"); a layer without a
/// title is named by its define.
std::string layer_titles(const std::vector<render::Layer>& layers) {
  std::vector<std::string> out;
  for (const render::Layer& l : layers) out.push_back(l.title.empty() ? l.define : l.title);
  return fmt::format("{}", fmt::join(out, ", "));
}

/// Bars in the colours the boards and trees give the same players or teams (palette_of).
std::string share_chart(const std::string& title, const std::vector<std::string>& names,
                        const std::vector<explorer::Share>& shares, const std::vector<std::string>& colours) {
  std::vector<render::Bar> bars;
  for (size_t i = 0; i < shares.size(); ++i)
    bars.push_back({names[i], shares[i].share, shares[i].lo, shares[i].hi,
                    i < colours.size() ? colours[i] : std::string(render::player_colour(int(i)))});
  render::ChartOptions o;
  o.title = title;
  o.percent = true;
  o.y_label = "games won";
  o.width = std::max(260, 60 + 46 * int(bars.size()));
  return render::bar_chart_svg(bars, o);
}

std::string stats_html(const explorer::PlayoutStats& st, const std::string& policy_text,
                       const render::Palette& palette) {
  const auto& plan = st.plan;
  std::string h = fmt::format(
      "<p>{} games, {} (game <i>i</i> is set up and played with seed {} + <i>i</i>), cut off after {} plies: "
      "{} played, <b>{}</b> finished, {} cut off, {} stopped by an error.{}</p>\n",
      plan.games, policy_text, plan.seed, plan.max_plies, st.played, st.finished, st.cut_off, st.errors,
      st.played < plan.games ? " <b class=\"bad\">Interrupted: fewer games than planned.</b>" : "");
  if (st.errors) h += "<p class=\"bad\">First error: <code>" + html_escape(st.first_error) + "</code></p>\n";
  h += "<table>\n";
  h += fmt::format("<tr><th>game length (plies)</th><td>{}</td></tr>\n", summary_text(st.length));
  for (size_t p = 0; p < st.phase_names.size(); ++p)
    h += fmt::format("<tr><th>plies in phase {}</th><td>{}</td></tr>\n", html_escape(st.phase_names[p]),
                     summary_text(st.phase_length[p]));
  h += fmt::format("<tr><th>branching factor</th><td>mean {:.2f}, max {} (over {} decisions)</td></tr>\n",
                   st.branching_mean, st.branching_max, st.decisions);
  h += fmt::format("<tr><th>shared best result</th><td>{} of {} finished games</td></tr>\n", st.drawn, st.finished);
  for (size_t i = 0; i < st.scores.size(); ++i)
    h += fmt::format("<tr><th>final score of {}</th><td>{}</td></tr>\n", html_escape(st.subjects[i]), summary_text(st.scores[i]));
  h += "</table>\n";
  if (st.finished > 0 && !st.wins.empty()) {
    h += "<table>\n<tr><th>" + std::string(st.per_team ? "team" : "player") +
         "</th><th>wins</th><th>share</th><th>95% interval (Wilson)</th><th>shared best</th></tr>\n";
    for (size_t i = 0; i < st.wins.size(); ++i)
      h += fmt::format("<tr><td>{}</td><td>{}</td><td>{}</td><td>{} – {}</td><td>{}</td></tr>\n",
                       html_escape(st.subjects[i]), st.wins[i].count, pct(st.wins[i].share), pct(st.wins[i].lo),
                       pct(st.wins[i].hi), st.wins[i].ties);
    h += "</table>\n<div class=\"charts\">\n";
    h += share_chart(st.per_team ? "wins per team" : "wins per player", st.subjects, st.wins,
                     st.per_team ? palette.teams : palette.players);
    if (!st.per_team && !st.teams.empty()) h += share_chart("wins per team", st.teams, st.team_wins, palette.teams);
    render::ChartOptions lo;
    lo.title = "game length";
    lo.x_label = "plies";
    lo.y_label = "games";
    h += render::bar_chart_svg(histogram_bars(st.length), lo);
    h += "</div>\n";
  }
  return h;
}

std::string metrics_html(const explorer::PlayoutStats& st) {
  if (st.metrics.empty()) return "<p>The rules declare no <code>metric</code>.</p>\n";
  std::string h = "<table>\n<tr><th>metric</th><th>recorded</th><th>games</th><th>mean</th><th>min</th><th>max</th></tr>\n";
  for (const explorer::MetricStats& m : st.metrics) {
    const auto& v = m.values;
    h += fmt::format("<tr><td><code>{}</code><br><small>{}</small></td><td>{}</td><td>{}</td>", html_escape(m.name),
                     html_escape(m.description), m.at_end ? "at end" : "when its condition first holds", v.count);
    if (v.count) h += fmt::format("<td>{:.3f}</td><td>{}</td><td>{}</td></tr>\n", v.mean, v.min, v.max);
    else h += "<td colspan=\"3\">never recorded</td></tr>\n";
  }
  h += "</table>\n<div class=\"charts\">\n";
  for (const explorer::MetricStats& m : st.metrics) {
    if (!m.values.count) continue;
    render::ChartOptions o;
    o.title = m.name;
    o.y_label = "games";
    h += render::bar_chart_svg(histogram_bars(m.values), o);
  }
  return h + "</div>\n";
}

std::string section_html(const char* id, const char* title, const Section& section, const char* why_not) {
  std::string h = fmt::format("<h2 id=\"{}\">{}</h2>\n", id, title);
  if (section.json.is_null()) return h + fmt::format("<p class=\"none\">Not computed: {}.</p>\n", why_not);
  return h + section.html;
}

}  // namespace

std::string html_escape(const std::string& s) { return render::xml_escape(s); }

namespace {

std::string cell_html(const nlohmann::json& x) {
  if (x.is_string()) {
    const std::string& s = x.get_ref<const std::string&>();
    return s.rfind("<svg", 0) == 0 ? s : html_escape(s);
  }
  return html_escape(x.dump());
}

}  // namespace

std::string table_html(const std::vector<std::string>& columns, const nlohmann::json& rows) {
  std::string h = "<table>\n<tr>";
  for (const std::string& k : columns) h += "<th>" + html_escape(k) + "</th>";
  h += "</tr>\n";
  for (const auto& row : rows) {
    h += "<tr>";
    for (const std::string& k : columns) h += "<td>" + (row.contains(k) ? cell_html(row[k]) : std::string()) + "</td>";
    h += "</tr>\n";
  }
  return h + "</table>\n";
}

std::string json_to_html(const nlohmann::json& v) {
  if (v.is_array() && !v.empty() && v[0].is_object()) {
    std::vector<std::string> keys;
    for (const auto& row : v)
      for (const auto& [k, _] : row.items())
        if (std::find(keys.begin(), keys.end(), k) == keys.end()) keys.push_back(k);
    return table_html(keys, v);
  }
  if (v.is_object()) {
    std::string h = "<table>\n";
    for (const auto& [k, x] : v.items())
      h += "<tr><th>" + html_escape(k) + "</th><td>" + (x.is_array() || x.is_object() ? json_to_html(x) : cell_html(x)) +
           "</td></tr>\n";
    return h + "</table>\n";
  }
  return "<pre>" + html_escape(v.dump(2)) + "</pre>\n";
}

VariantAnalysis analyse_variant(const std::string& path, const ReportPlan& plan, const std::atomic<bool>* stop) {
  VariantAnalysis a;
  OpenedGame game;
  if (open_game(path, "compiled", game) != kExitOk) {
    a.ok = false;
    a.error = "the engine could not be built (see the messages of the run)";
    return a;
  }
  const engine::Engine& e = *game.engine;
  const ir::Program& p = *game.program;
  const engine::Info& info = e.info();
  auto fail = [&](const std::string& what, const engine::Status& st) {
    a.ok = false;
    a.error = what + ": " + st.message;
    a.html += "<p class=\"bad\">" + html_escape(a.error) + "</p>\n";
    return a;
  };

  // Boards: the start and the end of the seeded random game `seed`.
  explorer::GameEnd start = explorer::seeded_game(e, plan.seed, 0);
  explorer::GameEnd end = explorer::seeded_game(e, plan.seed, plan.max_plies);
  if (!start.status.ok) return fail("setup", start.status);
  if (!end.status.ok) return fail(fmt::format("the game of seed {}", plan.seed), end.status);
  render::Annotator annotator(p, game.sources);
  render::Annotations start_notes, end_notes;
  if (!plan.layers.empty()) {
    engine::Status st = annotator.draw(plan.layers, start.after.data(), start_notes);
    if (st.ok) st = annotator.draw(plan.layers, end.after.data(), end_notes);
    if (!st.ok) return fail("annotations", st);
  }
  render::DrawOptions ds, de;
  ds.title = "start";
  de.title = fmt::format("after {} moves{}", end.plies, end.over ? " (game over)" : " (cut off)");
  if (!plan.layers.empty()) ds.annotations = &start_notes, de.annotations = &end_notes;
  if (end.plies > 0) de.last = render::LastMove{end.last, end.before.data()};
  std::vector<int64_t> end_scores;
  if (engine::Status st = e.scores(end.after.data(), end_scores); !st.ok) return fail("score", st);
  a.html += "<h2 id=\"boards\">Boards</h2>\n";
  a.html += fmt::format("<p>The start (setup seed {0}) and the end of the random game of seed {0}, as "
                        "<code>rulebook play --seed {0}</code> plays it; the last move is outlined, cells it "
                        "emptied are crossed.{1}</p>\n<div class=\"boards\">\n",
                        plan.seed, plan.layers.empty() ? "" : " Drawn over the boards, as each legend says in words: " + html_escape(layer_titles(plan.layers)) + ".");
  a.html += render::board_svg(p, start.after.data(), ds) + render::board_svg(p, end.after.data(), de) + "</div>\n";
  const size_t viewer_at = a.html.size();  // the viewer follows the boards, once its lines are found
  a.json["example_game"] = {{"seed", plan.seed},
                            {"plies", end.plies},
                            {"over", end.over},
                            {"last_move", end.plies ? e.move_text(end.last) : ""},
                            {"scores", end_scores},
                            {"start_board", render::board_text(p, start.after.data(), ds)},
                            {"end_board", render::board_text(p, end.after.data(), de)}};

  // The opening tree, small enough to read.
  fmt::print(stderr, "report: {} opening tree (depth {}, breadth {})\n", plan.label, plan.tree_depth, plan.tree_breadth);
  explorer::TreeOptions to;
  to.depth = plan.tree_depth;
  to.breadth = plan.tree_breadth;
  explorer::GameTree tree = explorer::build_tree(e, start.after.data(), to);
  if (!tree.status.ok) return fail("opening tree", tree.status);
  explorer::TreeStyle style;
  // Boards of about 110 points whatever the board's size (a 17-wide board gets cells of 6
  // points, a 3-wide one of 14), so pieces can be told apart; the tree scrolls sideways
  // at its natural size instead of shrinking.
  style.cell_points = std::max(6, std::min(14, 110 / std::max(1, std::max(p.geometry.width, p.geometry.height))));
  std::string tree_svg;
  if (engine::Status st = explorer::render_dot(explorer::tree_dot(tree, e, p, style), "svg", tree_svg); !st.ok)
    return fail("drawing the opening tree", st);
  a.html += "<h2 id=\"tree\">Opening tree</h2>\n";
  a.html += fmt::format("<p>The first {} plies from the start, the first {} legal moves of each position in the "
                        "engine's canonical order (the others summarised as \"+N more\"); frames in the colour of "
                        "the player to move; a double rounded frame marks a phase change, a grey one the end.</p>\n"
                        "<div class=\"tree\">{}</div>\n",
                        plan.tree_depth, plan.tree_breadth, tree_svg);
  a.json["opening_tree"] = nlohmann::json::parse(explorer::tree_json(tree, e));

  // Playouts.
  const render::Palette palette = render::palette_of(p);
  explorer::PlayoutPlan pp;
  pp.games = plan.games;
  pp.seed = plan.seed;
  pp.max_plies = plan.max_plies;
  pp.threads = plan.threads;
  pp.stop = stop;
  pp.progress = [&plan](int done, int total) {
    if (done == total || done % 50 == 0) fmt::print(stderr, "report: {} {} of {} games\n", plan.label, done, total);
  };
  fmt::print(stderr, "report: {} {} random games\n", plan.label, pp.games);
  explorer::PlayoutStats random = explorer::play_games(e, p, pp);
  a.json["random_playouts"] = stats_json(random, "random");
  a.html += "<h2 id=\"playouts\">Random playouts</h2>\n" + stats_html(random, "every move chosen uniformly at random", palette);
  a.html += "<h2 id=\"metrics\">Metrics of the rules</h2>\n<p>Over the finished random games.</p>\n" + metrics_html(random);
  if (stop && stop->load()) return a;
  nlohmann::json alerts;
  a.json["coverage"] = coverage_section(game, plan, stop, a.html, &alerts);
  a.json["alerts"] = alerts;
  if (!alerts.is_null()) a.alerts_html = "<h2 id=\"alerts\">Alerts</h2>\n" + alerts_html(alerts);
  const bool scored = p.score.value != nullptr && info.score_subjects > 0;
  if (scored && plan.greedy_games > 0) {
    pp.games = plan.greedy_games;
    fmt::print(stderr, "report: {} {} greedy games\n", plan.label, pp.games);
    pp.policy = explorer::Policy::Greedy;
    explorer::PlayoutStats greedy = explorer::play_games(e, p, pp);
    a.json["greedy_playouts"] = stats_json(greedy, "greedy");
    a.html += "<h2 id=\"greedy\">Greedy playouts</h2>\n" +
              stats_html(greedy, "every player choosing the move that leaves its own score best after one ply "
                                 "(ties by the seeded stream)",
                         palette);
  } else {
    a.json["greedy_playouts"] = nullptr;
  }
  // Stopped by Ctrl-C: the caller drops this page, so nothing more is computed for it.
  if (stop && stop->load()) return a;
  std::vector<explorer::Alert> proof_alerts;
  Section proofs =
      proofs_section(game, plan, plan.layers.empty() ? nullptr : &annotator, plan.layers, stop, &proof_alerts);
  // The alerts of the properties join those of the games (docs/lint.md).
  if (!alerts.is_null() && !proof_alerts.empty()) {
    add_alerts_json(alerts, proof_alerts, game.sources);
    a.json["alerts"] = alerts;
    a.alerts_html = "<h2 id=\"alerts\">Alerts</h2>\n" + alerts_html(alerts);
  }
  a.html += section_html("proofs", "Properties and verdicts", proofs, "left out by the report's settings");
  a.json["proofs"] = proofs.json;
  if (stop && stop->load()) return a;
  Section puzzles = puzzles_section(game, plan, proofs.json, stop);
  if (!puzzles.json.is_null()) {
    a.html += section_html("puzzles", "Puzzles", puzzles, "");
    a.json["puzzles"] = puzzles.json;
  }
  if (stop && stop->load()) return a;
  Section play = perfect_play_section(game, plan, stop);
  if (!play.json.is_null()) {
    a.html += section_html("perfect-play", "Perfect play", play, "");
    a.json["perfect_play"] = play.json;
  }
  if (stop && stop->load()) return a;
  Section states = enumeration_section(game, start.after.data(), plan, stop);
  a.html += section_html("enumeration", "State space", states, "left out by the report's settings");
  a.json["enumeration"] = states.json;
  a.html.insert(viewer_at, viewer_html(game, plan, std::filesystem::path(path).stem().string(), a.json["coverage"], proofs.lines));

  a.key_figures = {{"players", std::to_string(info.players)},
                   {"mean length", random.length.count ? fmt::format("{:.1f}", random.length.mean) : "–"},
                   {"branching", fmt::format("{:.1f}", random.branching_mean)},
                   {"finished", fmt::format("{}/{}", random.finished, random.played)}};
  std::string best = "–";
  size_t top = 0;
  for (size_t i = 1; i < random.wins.size(); ++i)
    if (random.wins[i].share > random.wins[top].share) top = i;
  if (random.finished && !random.wins.empty() && random.wins[top].count > 0)
    best = fmt::format("{} {}", random.subjects[top], pct(random.wins[top].share));
  a.key_figures.push_back({"top win share", best});
  if (!alerts.is_null()) a.key_figures.push_back({"alerts", alerts_figure(alerts)});
  if (!states.figure.empty()) a.key_figures.push_back({"states", states.figure});
  if (!proofs.figure.empty()) a.key_figures.push_back({"properties decided", proofs.figure});
  if (!play.figure.empty()) a.key_figures.push_back({"perfect play", play.figure});
  return a;
}

}  // namespace rulebook::cli
