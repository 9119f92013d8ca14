// `rulebook lint FILE`: the designer alerts of a rules file, from seeded random games run
// by the interpreter (explorer/alerts.h); exit 1 while some are not acknowledged.
#include <unistd.h>

#include <atomic>
#include <memory>
#include <stdexcept>

#include <fmt/format.h>

#include "cli/alerts_out.h"
#include "cli/coverage_out.h"
#include "cli/endless_out.h"
#include "cli/interrupt.h"
#include "cli/open_game.h"
#include "cli/verbs.h"
#include "compiler/interp/interpret.h"
#include "explorer/alerts.h"
#include "explorer/coverage_games.h"
#include "verifier/proof_alerts.h"
#include "verifier/reach_boards.h"

namespace rulebook::cli {
namespace {

struct LintOptions {
  std::string file;
  int games = 200;
  uint64_t seed = 1;
  int max_plies = 2000;
  std::vector<std::string> setups;
  bool json = false;
  bool prove = false;
  uint64_t rlimit = 20000000;
  uint64_t reach_budget = 2000;
  uint64_t termination_states = 2000;  // the report's budget: the same sentence as its page
  int bmc_plies = 0;                   // 0: no bounded model check
  uint64_t bmc_rlimit = 20000000;
  uint64_t search_states = 2000;       // with bmc_plies: the directed search before it
};

/// The codes whose subject is an item coverage can search for: a move never legal, a
/// statement never run, an end alternative never ending a game, an `until` never firing.
bool searchable(const explorer::Alert& a) {
  return a.code == "dead-move" || a.code == "dead-statement" || a.code == "unreached-end" ||
         a.code == "dead-transition";
}

/// The directed search's and the bounded model check's answers for the items never seen
/// (the `never` entries of `coverage`, examined), added to the evidence of the alerts that
/// name those items; `found[i]` gets the entry of alert i (null when none).
void add_search_evidence(std::vector<explorer::Alert>& alerts, const nlohmann::json& coverage,
                         const explorer::CoverageGames& games, std::vector<nlohmann::json>& found) {
  found.assign(alerts.size(), nullptr);
  const std::vector<compiler::CoverageSite>& sites = games.counts.sites();
  for (const nlohmann::json& n : coverage["never"]) {
    const std::string line = search_line(n);
    if (line.empty()) continue;
    for (size_t i = 0; i < alerts.size(); ++i) {
      explorer::Alert& a = alerts[i];
      if (!searchable(a) || !found[i].is_null()) continue;
      bool match = false;
      if (n.value("kind", "") == "move") {
        match = a.code == "dead-move" && a.subject == n.value("what", "");
      } else if (n.contains("site") && a.code != "dead-move") {
        const dsl::Span at = sites[n["site"].get<size_t>()].span;
        match = a.span.file == at.file && a.span.begin == at.begin;
      }
      if (!match) continue;
      a.evidence.push_back(line);
      found[i] = n;
    }
  }
}

/// The alerts of the file's properties (verifier/proof_alerts.h): each checked on `rlimit`
/// resource units, with the given setup values, and its board searched for in play.
std::vector<explorer::Alert> lint_proofs(const LintOptions& opt, const OpenedGame& game, const engine::Setup& setup,
                                         const compiler::Interpreter& interpreter, const std::atomic<bool>* stop) {
  verifier::Options vo;
  vo.setup = setup.values;
  vo.rlimit = opt.rlimit;
  vo.timeout_seconds = 600;  // a safety net: the resource limit decides
  vo.stop = stop;
  vo.play_engine = game.engine.get();
  std::vector<verifier::Result> results = verifier::verify(*game.program, game.sources, vo);
  verifier::reach_boards(interpreter, results, {opt.reach_budget, stop});
  return verifier::proof_alerts(results, *game.program);
}

int run_lint(const LintOptions& opt) {
  OpenedGame game;
  if (int code = open_program(opt.file, game); code != kExitOk) return code;
  explorer::CoveragePlan plan;
  if (int code = parse_setup_args(opt.setups, plan.setup); code != kExitOk) return code;
  plan.games = opt.games;
  plan.seed = opt.seed;
  plan.max_plies = opt.max_plies;
  StopOnInterrupt interrupt;
  plan.stop = interrupt.flag();
  // Progress for a person watching: a line per tenth of the games, on a terminal only.
  if (isatty(STDERR_FILENO))
    plan.progress = [](int done, int total) {
      if (total >= 20 && done % (total / 10) == 0) fmt::print(stderr, "lint: {} of {} games\n", done, total);
    };
  const compiler::Interpreter interpreter(*game.program, game.sources);
  const explorer::CoverageGames games = explorer::cover_games(interpreter, plan);
  if (games.errors) {
    fmt::print(stderr, "{}\n", engine_error_line(opt.file, games.first_error));
    return kExitInputError;
  }
  explorer::AlertPlan ap;
  ap.replay = "rulebook play " + opt.file;
  for (const std::string& s : opt.setups) ap.replay += " --setup " + s;
  std::vector<explorer::Alert> alerts = explorer::find_alerts(games, *game.program, ap);
  // Whether every game ends, as the report's coverage section settles it: by enumerating
  // the positions from the first game's setup, else by a ranking the verifier proves; with
  // --bmc-plies, what the games never saw is searched for and then model checked.
  nlohmann::json coverage = opt.bmc_plies > 0 ? coverage_json(games, game.sources) : nlohmann::json::object();
  if ((opt.termination_states > 0 || opt.bmc_plies > 0) && !interrupt.stopped())
    examine_coverage(interpreter, games,
                     {0, opt.bmc_plies > 0 ? opt.search_states : 0, opt.termination_states, &game.sources,
                      opt.bmc_plies, opt.bmc_rlimit},
                     coverage);
  std::vector<nlohmann::json> searched;
  if (opt.bmc_plies > 0) add_search_evidence(alerts, coverage, games, searched);
  if (opt.prove && !interrupt.stopped()) {
    try {
      for (explorer::Alert& a : lint_proofs(opt, game, plan.setup, interpreter, interrupt.flag()))
        alerts.push_back(std::move(a));
    } catch (const std::invalid_argument& e) {
      fmt::print(stderr, "{}: error: {}\n", opt.file, e.what());
      return kExitInputError;
    }
  }
  nlohmann::json j = alerts_json(alerts, games, game.sources);
  for (size_t i = 0; i < searched.size(); ++i) {
    if (searched[i].contains("search")) j["alerts"][i]["search"] = searched[i]["search"];
    if (searched[i].contains("bmc")) j["alerts"][i]["bmc"] = searched[i]["bmc"];
  }
  if (coverage.contains("termination")) j["termination"] = coverage["termination"];
  if (coverage.contains("search")) j["search"] = coverage["search"];
  // The text reads only what the JSON holds: termination and the search's summary.
  nlohmann::json ends = nlohmann::json::object();
  for (const char* key : {"search", "termination"})
    if (coverage.contains(key)) ends[key] = coverage[key];
  if (opt.json) {
    fmt::print("{}\n", j.dump(2));
  } else {
    // Termination goes before the closing count of alerts, which stays the last line.
    std::string text = alerts_text(j);
    std::string ending = endless_text(ends);
    if (!ending.empty()) {
      const size_t last = text.size() >= 2 ? text.rfind('\n', text.size() - 2) : std::string::npos;
      if (last == std::string::npos) text.insert(0, ending.substr(1) + "\n");
      else text.insert(last + 1, ending + "\n");
    }
    fmt::print("{}", text);
  }
  if (games.played < plan.games) {
    fmt::print(stderr, "lint: interrupted after {} of {} games\n", games.played, plan.games);
    return kExitInterrupted;
  }
  return explorer::unacknowledged(alerts) > 0 ? kExitInputError : kExitOk;
}

}  // namespace

void add_lint(CLI::App& app, int& result) {
  auto opt = std::make_shared<LintOptions>();
  CLI::App* cmd = app.add_subcommand(
      "lint", "List what random games show a designer must know: dead moves, statements, phases and ends, games "
              "that never end, constant results, seats that never win (docs/lint.md)");
  cmd->add_option("file", opt->file, "Rules file")->required();
  cmd->add_option("--games", opt->games, "Random games (game i uses seed + i)")->check(CLI::Range(1, 100000000));
  cmd->add_option("--seed", opt->seed, "Seed of the first game");
  cmd->add_option("--max-plies", opt->max_plies, "Cut a game off after this many moves")->check(CLI::Range(1, 100000000));
  cmd->add_option("--setup", opt->setups, "Setup value name=value (repeatable)");
  cmd->add_flag("--prove", opt->prove,
                "Also check the file's properties and alert on witnesses not shown reachable and empty depends cores");
  cmd->add_option("--rlimit", opt->rlimit, "With --prove: Z3 resource units per property");
  cmd->add_option("--reach-budget", opt->reach_budget,
                  "With --prove: positions searched for a line of play reaching each board shown (0: no search)");
  cmd->add_option("--termination-states", opt->termination_states,
                  "Positions enumerated from the setup to settle whether every game ends, then a ranking looked for "
                  "(0: neither)");
  cmd->add_option("--bmc-plies", opt->bmc_plies,
                  "Search for each move, statement, end alternative and until the games never saw, then ask a "
                  "bounded model check over this many plies for what the search left open (0: neither)")
      ->check(CLI::Range(0, 64));
  cmd->add_option("--bmc-rlimit", opt->bmc_rlimit, "With --bmc-plies: Z3 resource units per item");
  cmd->add_option("--search-states", opt->search_states,
                  "With --bmc-plies: positions the directed search stores first (0: every item goes to the bounded "
                  "check)");
  cmd->add_flag("--json", opt->json, "Print the alerts as JSON");
  cmd->callback([opt, &result] { result = run_lint(*opt); });
}

}  // namespace rulebook::cli
