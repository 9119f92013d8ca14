// `rulebook diff A.rules B.rules`: what B changes against A (usually a variant against its
// base): the declarations in force, then, unless --rules-only, the two files analysed as
// the report analyses them on a small budget and compared (cli/variant_diff.h).
#include <string>

#include <fmt/core.h>
#include <nlohmann/json.hpp>

#include "cli/diff_out.h"
#include "cli/interrupt.h"
#include "cli/report.h"
#include "cli/variant_diff.h"
#include "cli/verbs.h"
#include "dsl/diagnostics.h"

namespace rulebook::cli {
namespace {

struct DiffOptions {
  std::string a, b;
  bool json = false;
  bool rules_only = false;
  bool prove = false;
  uint64_t seed = 1;
  int games = 100;
  int max_plies = 1000;
  int depth = 3;
  uint64_t states = 200000;
  uint64_t prove_rlimit = 20000000;
};

/// The report's analysis on the budget the options give: playouts, a few coverage games
/// for the alerts, a shallow enumeration, proofs only when asked.
ReportPlan diff_plan(const DiffOptions& opt, const std::string& label) {
  ReportPlan plan;
  plan.seed = opt.seed;
  plan.games = opt.games;
  plan.greedy_games = 0;
  plan.max_plies = opt.max_plies;
  plan.coverage_games = std::min(opt.games, 30);
  plan.coverage_examine = 0;
  plan.coverage_search_states = 0;
  plan.tree_depth = 0;
  plan.explore = opt.depth >= 0;
  plan.explore_depth = opt.depth;
  plan.explore_states = opt.states;
  plan.prove = opt.prove;
  plan.prove_rlimit = opt.prove_rlimit;
  plan.label = label;
  return plan;
}

int run_diff(const DiffOptions& opt) {
  nlohmann::json decls;
  std::string error;
  if (!declarations_diff(opt.a, opt.b, decls, error)) {
    fmt::print(stderr, "{}", error);
    return kExitInputError;
  }
  nlohmann::json analysis = nlohmann::json::object();
  if (!opt.rules_only) {
    StopOnInterrupt interrupt;
    VariantAnalysis a = analyse_variant(opt.a, diff_plan(opt, "[a]"), interrupt.flag());
    if (interrupt.stopped()) return kExitInterrupted;
    VariantAnalysis b = analyse_variant(opt.b, diff_plan(opt, "[b]"), interrupt.flag());
    if (interrupt.stopped()) return kExitInterrupted;
    for (const auto* side : {&a, &b})
      if (!side->ok) {
        fmt::print(stderr, "{}: error: {}\n", dsl::escape_for_terminal(side == &a ? opt.a : opt.b),
                   dsl::escape_for_terminal(side->error));
        return kExitInputError;
      }
    analysis = analysis_diff(a.json, b.json);
  }
  if (opt.json) {
    nlohmann::json j{{"declarations", decls}, {"analysis", analysis}};
    fmt::print("{}\n", j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace));
  } else {
    fmt::print("{}", dsl::escape_for_terminal(diff_text(decls, analysis)));
  }
  return kExitOk;
}

}  // namespace

void add_diff(CLI::App& app, int& result) {
  auto opt = std::make_shared<DiffOptions>();
  CLI::App* cmd = app.add_subcommand("diff", "What one rules file changes against another (a variant against its base)");
  cmd->add_option("a", opt->a, "The rules file before (the base)")->required()->check(CLI::ExistingFile);
  cmd->add_option("b", opt->b, "The rules file after (the variant)")->required()->check(CLI::ExistingFile);
  cmd->add_flag("--json", opt->json, "Print the result as JSON");
  cmd->add_flag("--rules-only", opt->rules_only, "Only the declarations: no playouts, states, alerts or proofs");
  cmd->add_option("--seed", opt->seed, "Seed of the first playout (game i uses seed + i), on both sides");
  cmd->add_option("--games", opt->games, "Random playouts of each file")->check(CLI::Range(1, 1000000));
  cmd->add_option("--max-plies", opt->max_plies, "Cut a playout off after this many moves")->check(CLI::Range(1, 100000000));
  cmd->add_option("--depth", opt->depth, "States counted to this depth (-1: none)")->check(CLI::Range(-1, 1000));
  cmd->add_option("--states", opt->states, "Stop counting before a depth holds more states than this");
  cmd->add_flag("--prove", opt->prove, "Also check both files' properties with the verifier (slower)");
  cmd->add_option("--prove-rlimit", opt->prove_rlimit, "With --prove: Z3 resource units per property");
  cmd->callback([opt, &result] { result = run_diff(*opt); });
}

}  // namespace rulebook::cli
