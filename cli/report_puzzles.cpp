// The report's puzzle section: for each puzzle the rules declare and each setup value the
// report's settings list (`prove_setups`, e.g. every entry of a puzzle file), its solutions
// counted by the verifier (exact within a count and Z3's units per question), whether it is
// unique, the criteria (the properties of that setup, as the proof section's table per
// setup value gives them), and the value of the game under perfect play from that setup
// within a table of states, or the bounds the search reached. Every budget is a count, so
// the page is the same on every machine.
#include <algorithm>
#include <stdexcept>

#include <fmt/format.h>

#include "cli/json_out.h"
#include "cli/open_game.h"
#include "cli/verbs.h"
#include "cli/report.h"
#include "explorer/game_value.h"
#include "explorer/symmetry.h"
#include "verifier/puzzle.h"

namespace rulebook::cli {
namespace {

/// The criteria of one setup value: the verdicts of the proof section's table per setup.
std::string criteria_words(const nlohmann::json& proofs, const std::string& kv, nlohmann::json& out) {
  size_t met = 0, all = 0;
  std::vector<std::string> not_met, unknown;
  if (proofs.is_array())
    for (const nlohmann::json& row : proofs) {
      if (!row.contains("per_setup") || !row["per_setup"].contains(kv)) continue;
      const std::string v = row["per_setup"][kv].get<std::string>();
      const std::string name = row.value("property", "");
      out[name] = v;
      ++all;
      if (v == "proved") ++met;
      else if (v == "refuted") not_met.push_back(name);
      else unknown.push_back(name + " " + v);
    }
  if (all == 0) return "–";
  std::string s = fmt::format("{} of {} met", met, all);
  if (!not_met.empty()) s += fmt::format("; not: {}", fmt::join(not_met, ", "));
  if (!unknown.empty()) s += fmt::format("; {}", fmt::join(unknown, ", "));
  return s;
}

std::string bound_words(explorer::Objective o, int64_t v) {
  return v <= -explorer::kNoBound || v >= explorer::kNoBound ? "unbounded" : explorer::value_text(o, v);
}

}  // namespace

std::string game_words(const OpenedGame& game, uint64_t max_states, const engine::Setup& setup, nlohmann::json& out,
                       const std::atomic<bool>* stop) {
  const ir::Program& p = *game.program;
  const engine::Engine& e = *game.engine;
  std::vector<uint8_t> root(e.info().state_bytes, 0);
  if (engine::Status st = e.setup(root.data(), setup); !st.ok) {
    out["error"] = st.message;
    return "the setup fails: " + st.message;
  }
  const explorer::Sides sides = explorer::two_sides(p, e.info(), e.to_move(root.data()));
  if (!sides.error.empty()) {
    out["not_asked"] = sides.error;
    return "not asked: " + sides.error;
  }
  explorer::GameValueOptions o;
  o.objective = explorer::Objective::Outcome;
  o.max_states = max_states;
  o.interrupt = stop;
  // States stored by their class under the group that keeps the start (as `solve` does).
  o.symmetry = explorer::find_symmetries(p, game.sources, e, root.data()).elements;
  const explorer::GameValueResult r = explorer::game_value(p, e, root.data(), sides, o);
  out["first"] = sides.name[0];
  out["solved"] = r.solved;
  out["states"] = r.states;
  out["positions"] = r.nodes;
  if (!r.status.ok) {
    out["error"] = r.status.message;
    return "error: " + r.status.message;
  }
  if (r.solved) {
    out["value"] = explorer::value_text(o.objective, r.lo);
    out["line"] = r.line_text;
    return fmt::format("{} for {} (perfect play; a principal line of {} moves)", explorer::value_text(o.objective, r.lo),
                       sides.name[0], r.line_text.size());
  }
  std::string bounds;
  if (r.lo > -1) bounds += ">= " + bound_words(o.objective, r.lo);
  if (r.hi < 1) bounds += std::string(bounds.empty() ? "" : " and ") + "<= " + bound_words(o.objective, r.hi);
  out["lower"] = r.lo > -1 ? nlohmann::json(bound_words(o.objective, r.lo)) : nlohmann::json(nullptr);
  out["upper"] = r.hi < 1 ? nlohmann::json(bound_words(o.objective, r.hi)) : nlohmann::json(nullptr);
  out["stopped"] = r.stopped;
  return fmt::format("not solved within {} states ({}): {}", max_states,
                     r.stopped == "states" ? "the table is full" : r.stopped,
                     bounds.empty() ? "no bound proved" : fmt::format("value for {} {}", sides.name[0], bounds));
}

Section puzzles_section(const OpenedGame& game, const ReportPlan& plan, const nlohmann::json& proofs,
                        const std::atomic<bool>* stop) {
  Section s;
  const ir::Program& p = *game.program;
  const std::vector<const ir::Property*> decls = verifier::puzzles(p);
  if (!plan.puzzles || decls.empty()) return s;
  std::vector<std::string> setups = plan.prove_setups;
  if (setups.empty()) setups.push_back("");  // the setup of the file as it stands
  nlohmann::json data = nlohmann::json::array(), view = nlohmann::json::array();
  for (const std::string& kv : setups) {
    if (stop && stop->load()) break;
    fmt::print(stderr, "report: {} puzzles{}\n", plan.label, kv.empty() ? "" : " with " + kv);
    nlohmann::json criteria = nlohmann::json::object(), value = nlohmann::json::object();
    const std::string crit = criteria_words(proofs, kv, criteria);
    engine::Setup setup;
    setup.seed = plan.seed;
    if (!kv.empty() && parse_setup_args({kv}, setup) != kExitOk) {
      data.push_back({{"setup", kv}, {"error", "not name=value"}});
      continue;
    }
    const std::string play = plan.puzzle_game_states > 0 ? game_words(game, plan.puzzle_game_states, setup, value, stop) : "not asked";
    for (const ir::Property* decl : decls) {
      verifier::PuzzleOptions po;
      po.setup = setup.values;
      po.max_solutions = plan.puzzle_max;
      po.rlimit = plan.puzzle_rlimit;
      po.timeout_seconds = plan.puzzle_timeout;
      po.stop = stop;
      nlohmann::json d = {{"setup", kv}, {"puzzle", decl->name}, {"criteria", criteria}, {"game", value}};
      std::string solutions, unique;
      try {
        const verifier::PuzzleResult r = verifier::solve_puzzle(p, game.sources, *decl, po);
        d["solutions"] = r.solutions.size();
        d["exact"] = r.exact;
        d["max_reached"] = r.hit_max;
        if (!r.exact && !r.hit_max) d["unknown"] = r.unknown;
        d["unique"] = verifier::uniqueness(r);
        d["clues"] = r.clue_count;
        // The first two solutions, so that a reader (or a test) can check them apart from Z3;
        // two show a puzzle that is not unique.
        nlohmann::json boards = nlohmann::json::array();
        for (size_t i = 0; i < std::min<size_t>(2, r.solutions.size()); ++i) {
          boards.push_back({{"text", r.solutions[i].text}, {"state", state_hex(r.solutions[i].state)}});
        }
        d["boards"] = boards;
        solutions = verifier::count_text(r, fmt::format("the count stops at {}", plan.puzzle_max));
        unique = verifier::uniqueness(r);
      } catch (const std::exception& e) {  // a setup the clues need and lack, or what Z3 cannot express
        d["error"] = e.what();
        solutions = std::string("not solved: ") + e.what();
        unique = "–";
      }
      view.push_back({{"setup", kv.empty() ? "as the file sets it" : kv},
                      {"puzzle", decl->name},
                      {"solutions", solutions},
                      {"unique", unique},
                      {"criteria", crit},
                      {"perfect play", play}});
      data.push_back(std::move(d));
    }
  }
  s.json = data;
  s.html = fmt::format(
      "<p>Each puzzle the rules declare, solved by Z3 under each setup value (<code>rulebook solve FILE --setup "
      "NAME=VALUE</code>): its solutions over the boards the board rules allow, counted until the enumeration "
      "proves there is no other (the count stops at {}; each question on a budget of {} resource units), and "
      "uniqueness proved when there is one. The criteria are the properties of the rule file that read the "
      "setup value, as the proof section's table per setup value gives them (–: no such property, or the "
      "properties were not checked). Perfect play: the value of the game from "
      "that setup for the side that moves first (a win, a draw or a loss when the other side plays its best "
      "too), searched in a table of at most {} states (<code>rulebook solve FILE --game --setup NAME=VALUE "
      "--max-states N</code>); when the table fills first, the bounds the search proved, if any.</p>\n",
      plan.puzzle_max, plan.puzzle_rlimit, plan.puzzle_game_states);
  s.html += table_html({"setup", "puzzle", "solutions", "unique", "criteria", "perfect play"}, view);
  return s;
}

}  // namespace rulebook::cli

namespace rulebook::cli {

Section perfect_play_section(const OpenedGame& game, const ReportPlan& plan, const std::atomic<bool>* stop) {
  Section s;
  if (plan.game_states == 0 || !verifier::puzzles(*game.program).empty()) return s;
  fmt::print(stderr, "report: {} perfect play\n", plan.label);
  engine::Setup setup;
  setup.seed = plan.seed;
  nlohmann::json value = nlohmann::json::object();
  const std::string words = game_words(game, plan.game_states, setup, value, stop);
  value["max_states"] = plan.game_states;
  s.json = value;
  s.html = fmt::format(
      "<p>The value of the game for the side moving first when both sides play perfectly, from the setup of the "
      "file (seed {}; everything open to both sides), searched in a table of at most {} states with the states "
      "stored by their symmetry class (<code>rulebook solve</code>, docs/perfect_play.md): "
      "<strong>{}</strong>.</p>\n",
      plan.seed, plan.game_states, html_escape(words));
  if (value.contains("line") && value["line"].is_array() && !value["line"].empty()) {
    std::vector<std::string> moves;
    for (const auto& m : value["line"]) moves.push_back(m.get<std::string>());
    s.html += fmt::format("<p>A principal line: <code>{}</code>.</p>\n", html_escape(fmt::format("{}", fmt::join(moves, " "))));
  }
  if (value.contains("value")) s.figure = value["value"].get<std::string>() + " for " + value["first"].get<std::string>();
  return s;
}

}  // namespace rulebook::cli
