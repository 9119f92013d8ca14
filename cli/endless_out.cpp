// The endless games and the directed search as JSON (inside the coverage object) and their
// short readings: one sentence per examined game, one line per item searched for.
#include "cli/endless_out.h"

#include <fmt/format.h>

#include "cli/report.h"
#include "dsl/diagnostics.h"
#include "explorer/directed.h"
#include "explorer/endless.h"
#include "explorer/termination.h"
#include "verifier/bmc.h"
#include "verifier/verify.h"

namespace rulebook::cli {
namespace {

/// Steady quantities named in a sentence; the JSON keeps them all.
constexpr size_t kSteadyNamed = 8;

nlohmann::json game_json(const explorer::EndlessGame& g) {
  nlohmann::json steady = nlohmann::json::array();
  for (const explorer::SteadyQuantity& q : g.steady)
    steady.push_back({{"quantity", q.name}, {"value", q.value}, {"since", q.since}});
  nlohmann::json slow = nlohmann::json::array();
  for (const explorer::SlowQuantity& q : g.slow)
    slow.push_back({{"quantity", q.name}, {"from", q.from}, {"to", q.to}, {"plies", q.plies}});
  nlohmann::json j{{"game", g.game},   {"seed", g.seed},   {"plies", g.plies}, {"ended", g.ended},
                   {"steady_from", g.steady_from}, {"steady", steady}, {"slow", slow}};
  if (g.repeat_first >= 0)
    j["repeat"] = {{"first", g.repeat_first}, {"again", g.repeat_again}, {"moves", g.cycle_moves}, {"line", g.cycle}};
  if (!g.error.empty()) j["error"] = g.error;
  return j;
}

/// The `never` entry a target answers: moves by name, sites by index.
nlohmann::json* entry_of(nlohmann::json& never, const explorer::SearchTarget& t, const ir::Program& p) {
  for (auto& n : never) {
    if (t.kind == explorer::SearchTarget::Kind::Move && n.value("kind", "") == "move" &&
        n.value("what", "") == p.moves[size_t(t.move)].name)
      return &n;
    if (t.kind == explorer::SearchTarget::Kind::Site && n.contains("site") && n["site"].get<int>() == t.site) return &n;
  }
  return nullptr;
}

std::string joined(const nlohmann::json& list, const char* sep = ", ") {
  std::string out;
  for (const auto& m : list) out += (out.empty() ? "" : sep) + m.get<std::string>();
  return out;
}

/// One examined game as a sentence (plain text, not escaped).
std::string game_sentence(const nlohmann::json& g) {
  std::string s = fmt::format("game {} (seed {}): ", g["game"].get<int>(), g["seed"].get<uint64_t>());
  if (g.contains("error")) return s + "replay stopped by an error: " + g["error"].get<std::string>();
  if (g["ended"].get<bool>()) return s + "ended when replayed";
  if (g.contains("repeat")) {
    const auto& r = g["repeat"];
    s += fmt::format("position at ply {} repeats at ply {} ({} moves: {})", r["first"].get<int>(), r["again"].get<int>(),
                     r["moves"].get<int>(), joined(r["line"]));
  } else {
    s += fmt::format("no position repeats in {} plies", g["plies"].get<int>());
  }
  const auto& steady = g["steady"];
  if (steady.empty()) s += fmt::format("; every quantity changed after ply {}", g["steady_from"].get<int>());
  else s += "; unchanged since ply ";
  int since = -1;
  for (size_t i = 0; i < steady.size() && i < kSteadyNamed; ++i) {
    const auto& q = steady[i];
    if (q["since"].get<int>() != since) {
      since = q["since"].get<int>();
      s += (i ? "; since ply " : "") + std::to_string(since) + ": ";
    } else {
      s += ", ";
    }
    s += q["quantity"].get<std::string>() + " = " + q["value"].get<std::string>();
  }
  if (steady.size() > kSteadyNamed) s += fmt::format(" (and {} more)", steady.size() - kSteadyNamed);
  const auto& slow = g["slow"];
  for (size_t i = 0; i < slow.size() && i < kSteadyNamed; ++i) {
    const auto& q = slow[i];
    std::string plies;
    for (const auto& k : q["plies"]) plies += (plies.empty() ? "" : ", ") + std::to_string(k.get<int>());
    s += fmt::format("{} {} from {} to {} (ply {})", i ? ";" : fmt::format("; after ply {} only", g["steady_from"].get<int>()),
                     q["quantity"].get<std::string>(), q["from"].get<std::string>(), q["to"].get<std::string>(), plies);
  }
  return s;
}

std::string endless_head(const nlohmann::json& e) {
  return fmt::format("{} of {} games cut off at {} plies; {} examined", e["cut_off"].get<int>(), e["games"].get<int>(),
                     e["max_plies"].get<int>(), e["examined"].size());
}

std::string search_head(const nlohmann::json& s) {
  std::string out = fmt::format("directed search: {} positions from the setup of seed {}, {} (budget {}, deepest ply {})",
                                s["states"].get<uint64_t>(), s["seed"].get<uint64_t>(),
                                s["guided"].get<bool>() ? "best-first by the guards' conjuncts holding" : "breadth-first",
                                s["budget"].get<uint64_t>(), s["depth"].get<int>());
  if (s["exhausted"].get<bool>())
    out += s["setup_random"].get<bool>() ? "; every position reachable from this setup enumerated (the setup is random)"
                                         : "; every reachable position enumerated";
  if (s.contains("error")) out += "; a line stopped by an error: " + s["error"].get<std::string>();
  return out;
}

nlohmann::json termination_json(const explorer::Termination& t, uint64_t seed) {
  using V = explorer::Termination::Verdict;
  nlohmann::json j{{"verdict", t.verdict == V::Bounded ? "bounded" : t.verdict == V::Endless ? "endless" : "unsettled"},
                   {"states", t.states}, {"budget", t.budget}, {"seed", seed}, {"setup_random", t.setup_random}};
  if (t.verdict == V::Bounded) j["longest"] = t.longest, j["longest_line"] = t.longest_line;
  if (t.verdict == V::Endless) j["lead_in"] = t.lead_in, j["cycle"] = t.cycle;
  if (!t.error.empty()) j["error"] = t.error;
  return j;
}

std::string termination_verdict_sentence(const nlohmann::json& t);

/// The ranking's part of `termination`: proved (the quantities, most significant first,
/// and the plies every game ends within) or how many candidates were tried.
nlohmann::json ranking_json(const verifier::Ranking& r) {
  nlohmann::json j{{"proved", r.proved}, {"candidates", r.candidates}, {"sampled_out", r.sampled_out},
                   {"checked", r.checked}, {"rlimit", r.rlimit}, {"invariants", r.invariants}};
  if (r.proved) j["order"] = r.order, j["plies"] = r.plies;
  if (!r.detail.empty()) j["detail"] = r.detail;
  return j;
}

std::string ranking_sentence(const nlohmann::json& r) {
  if (r.contains("error")) return "no ranking checked: " + r["error"].get<std::string>();
  if (r["proved"].get<bool>())
    return fmt::format("termination proved: ranking ({}) decreases on every move; every game ends within {} plies",
                       joined(r["order"]), r["plies"].get<int64_t>());
  return fmt::format("no ranking found among {} candidates ({} ruled out by sampled games, {} checked with Z3)",
                     r["candidates"].get<size_t>(), r["sampled_out"].get<size_t>(), r["checked"].get<size_t>());
}

std::string termination_sentence(const nlohmann::json& t) {
  if (t.value("by", "") == "ranking") return ranking_sentence(t["ranking"]);
  return termination_verdict_sentence(t);
}

/// What the ranking search found when it did not give the verdict (a line of its own;
/// empty when it did or did not run).
std::string ranking_line(const nlohmann::json& t) {
  if (t.value("by", "") == "ranking" || !t.contains("ranking")) return "";
  return ranking_sentence(t["ranking"]);
}

std::string termination_verdict_sentence(const nlohmann::json& t) {
  const std::string verdict = t["verdict"].get<std::string>();
  const std::string from = t["setup_random"].get<bool>()
                               ? fmt::format("from the setup of seed {} (the setup is random)", t["seed"].get<uint64_t>())
                               : "from the setup";
  if (verdict == "bounded")
    return fmt::format("termination proved: every game {} ends within {} plies (all {} reachable positions enumerated; "
                       "a longest game: {})",
                       from, t["longest"].get<int>(), t["states"].get<uint64_t>(), joined(t["longest_line"]));
  if (verdict == "endless")
    return fmt::format("a game {} need not end: after {}, the moves {} come back to the same position", from,
                       t["lead_in"].empty() ? "the setup" : joined(t["lead_in"]), joined(t["cycle"]));
  if (t.contains("error")) return "termination not settled: " + t["error"].get<std::string>();
  return fmt::format("termination not settled: more than {} positions reachable {}", t["budget"].get<uint64_t>(), from);
}

/// The items `open` marks (those the directed search left open, or every item when there
/// was no search), asked of a bounded model check: `bmc` in their `never` entry.
void bounded_check(const compiler::Interpreter& interpreter, const explorer::CoverageGames& games,
                   const ExamineBudget& budget, const std::vector<explorer::SearchTarget>& all,
                   const std::vector<bool>& open, nlohmann::json& coverage) {
  std::vector<verifier::BmcTarget> targets;
  std::vector<nlohmann::json*> entries;
  for (size_t i = 0; i < all.size(); ++i) {
    nlohmann::json* n = entry_of(coverage["never"], all[i], interpreter.program());
    if (!n || !open[i] || all[i].kind == explorer::SearchTarget::Kind::Board) continue;
    targets.push_back({all[i].move, all[i].site});
    entries.push_back(n);
  }
  if (targets.empty()) return;
  verifier::BmcPlan plan;
  plan.plies = budget.bmc_plies;
  plan.rlimit = budget.bmc_rlimit;
  plan.setup = games.plan.setup.values;
  plan.stop = games.plan.stop;
  std::vector<verifier::BmcResult> rs;
  try {
    rs = verifier::bounded_search(interpreter, *budget.sources, targets, plan);
  } catch (const std::exception& e) {
    for (nlohmann::json* n : entries) (*n)["bmc"] = {{"result", "unsupported"}, {"plies", plan.plies}, {"detail", e.what()}};
    return;
  }
  for (size_t i = 0; i < rs.size() && i < entries.size(); ++i) {
    const verifier::BmcResult& r = rs[i];
    nlohmann::json j{{"result", verifier::bmc_verdict_name(r.verdict)}, {"plies", r.plies}, {"rlimit", r.rlimit}};
    if (r.verdict == verifier::BmcResult::Verdict::Reached) j["line"] = r.line, j["setup"] = r.setup;
    if (!r.detail.empty()) j["detail"] = r.detail;
    (*entries[i])["bmc"] = j;
  }
}

}  // namespace

void examine_coverage(const compiler::Interpreter& interpreter, const explorer::CoverageGames& games,
                      const ExamineBudget& budget, nlohmann::json& coverage) {
  if (games.cut_off > 0 && budget.cut_off_games > 0) {
    const explorer::EndlessGames e = explorer::examine_cut_off(interpreter, games, budget.cut_off_games);
    nlohmann::json examined = nlohmann::json::array();
    for (const explorer::EndlessGame& g : e.games) examined.push_back(game_json(g));
    coverage["endless"] = {{"cut_off", e.cut_off}, {"games", games.played}, {"max_plies", e.max_plies},
                           {"examined", examined}};
  }
  if (budget.termination_states > 0) {
    engine::Setup setup = games.plan.setup;
    setup.seed = games.plan.seed;
    nlohmann::json& t = coverage["termination"] =
        termination_json(explorer::settle_termination(interpreter, setup, budget.termination_states, games.plan.stop),
                         setup.seed);
    if (t["verdict"] == "bounded") {
      t["by"] = "enumeration";
    } else if (budget.sources) {
      verifier::Options o;
      o.setup = games.plan.setup.values;
      o.stop = games.plan.stop;
      try {
        const verifier::Ranking r = verifier::prove_ranking(interpreter.program(), *budget.sources, o);
        t["ranking"] = ranking_json(r);
        // An enumeration that found a cycle stays the verdict (no ranking can exist then).
        if (r.proved && t["verdict"] == "unsettled") t["verdict"] = "bounded", t["by"] = "ranking";
      } catch (const std::exception& e) {
        t["ranking"] = {{"proved", false}, {"error", e.what()}};
      }
    }
  }
  const std::vector<explorer::SearchTarget> targets = explorer::never_seen(games);
  if (targets.empty()) return;
  const bool bounded = budget.bmc_plies > 0 && budget.sources;
  if (budget.search_states == 0) {
    // No search: every item goes to the bounded model check, when there is one.
    if (bounded) bounded_check(interpreter, games, budget, targets, std::vector<bool>(targets.size(), true), coverage);
    return;
  }
  explorer::SearchPlan plan;
  plan.max_states = budget.search_states;
  plan.setup = games.plan.setup;
  plan.setup.seed = games.plan.seed;
  plan.stop = games.plan.stop;
  const explorer::DirectedSearch d = explorer::search_targets(interpreter, targets, plan);
  nlohmann::json s{{"states", d.states}, {"budget", plan.max_states}, {"seed", plan.setup.seed},
                   {"depth", d.depth},   {"guided", d.guided}, {"exhausted", d.exhausted},  {"setup_random", d.setup_random}};
  if (!d.error.empty()) s["error"] = d.error;
  coverage["search"] = s;
  for (const explorer::SearchResult& r : d.results) {
    nlohmann::json* n = entry_of(coverage["never"], r.target, interpreter.program());
    if (!n) continue;
    if (r.reached)
      (*n)["search"] = {{"result", "reached"}, {"line", r.line_text}, {"states", r.states}};
    else
      (*n)["search"] = {{"result", d.exhausted ? "unreachable" : "not reached"}, {"states", d.states},
                        {"setup_random", d.setup_random}};
  }
  if (!bounded) return;
  // What the search settled (reached, or shown unreachable from a setup that draws
  // nothing) is not asked again.
  std::vector<bool> open;  // d.results are in the targets' order
  for (const explorer::SearchResult& r : d.results) open.push_back(!r.reached && !(d.exhausted && !d.setup_random));
  bounded_check(interpreter, games, budget, targets, open, coverage);
}

std::string search_line(const nlohmann::json& n) {
  if (!n.contains("search")) return n.contains("bmc") ? bmc_line(n["bmc"]) : "";
  const auto& s = n["search"];
  const std::string result = s["result"].get<std::string>();
  if (result == "reached")
    return s["line"].empty() ? "reached: by the setup" : "reached: line of play " + joined(s["line"]);
  if (result == "unreachable")
    return fmt::format("unreachable: not reached in all {} positions reachable from the setup{}",
                       s["states"].get<uint64_t>(), s["setup_random"].get<bool>() ? " (this seed's setup)" : "");
  std::string out = fmt::format("not reached in {} states", s["states"].get<uint64_t>());
  if (n.contains("bmc")) out += "; " + bmc_line(n["bmc"]);
  return out;
}

std::string bmc_line(const nlohmann::json& b) {
  const std::string result = b["result"].get<std::string>();
  const int plies = b["plies"].get<int>();
  if (result == "reached") {
    std::string from = b["setup"].empty() ? "" : " from setup " + joined(b["setup"]);
    return fmt::format("bounded model checking ({} plies): reached{}: line of play {}", plies, from,
                       b["line"].empty() ? std::string("(none: the setup)") : joined(b["line"]));
  }
  if (result == "not within")
    return fmt::format("bounded model checking: not reachable within {} plies (not a proof beyond {} plies)", plies, plies);
  if (result == "unsupported")
    return "bounded model checking: not encoded: " + b.value("detail", std::string());
  return fmt::format("bounded model checking ({} plies): unknown: {}", plies, b.value("detail", std::string()));
}

std::string endless_text(const nlohmann::json& j) {
  std::string out;
  if (j.contains("endless")) {
    const auto& e = j["endless"];
    out += "\nendless games: " + endless_head(e) + "\n";
    for (const auto& g : e["examined"]) out += "  " + dsl::escape_for_terminal(game_sentence(g)) + "\n";
  }
  if (j.contains("search")) out += "\n" + dsl::escape_for_terminal(search_head(j["search"])) + "\n";
  if (j.contains("termination")) {
    out += "\n" + dsl::escape_for_terminal(termination_sentence(j["termination"])) + "\n";
    if (const std::string r = ranking_line(j["termination"]); !r.empty()) out += dsl::escape_for_terminal(r) + "\n";
  }
  return out;
}

std::string endless_html(const nlohmann::json& j) {
  std::string h;
  if (j.contains("endless")) {
    const auto& e = j["endless"];
    h += "<p class=\"bad\">Endless games: " + html_escape(endless_head(e)) + ".</p>\n<ul>\n";
    for (const auto& g : e["examined"]) h += "<li>" + html_escape(game_sentence(g)) + "</li>\n";
    h += "</ul>\n";
  }
  if (j.contains("search")) h += "<p>" + html_escape(search_head(j["search"])) + ".</p>\n";
  if (j.contains("termination")) {
    h += "<p>" + html_escape(termination_sentence(j["termination"])) + ".</p>\n";
    if (const std::string r = ranking_line(j["termination"]); !r.empty()) h += "<p>" + html_escape(r) + ".</p>\n";
  }
  return h;
}

}  // namespace rulebook::cli
