// `rulebook prove FILE`: checks the file's properties with Z3 and prints what was shown.
#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include <fmt/core.h>
#include <nlohmann/json.hpp>

#include "cli/interrupt.h"
#include "cli/json_out.h"
#include "cli/open_game.h"
#include "cli/verbs.h"
#include "compiler/ir/text.h"
#include "verifier/reach_boards.h"
#include "verifier/verify.h"

namespace rulebook::cli {
namespace {

struct ProveOptions {
  std::string file;
  std::vector<std::string> properties;
  double timeout = 60;
  uint64_t rlimit = 0;
  bool json = false;
  bool no_times = false;
  bool no_symmetry = false;
  std::vector<std::string> setups;
  int invariant_games = 0;
  uint64_t invariant_rlimit = 3000000;
  bool invariants_last = false;
  uint64_t reach_budget = 2000;
  uint64_t play_states = 20000000;
};

nlohmann::json board_json(const verifier::Board& b) {
  nlohmann::json j;
  j["text"] = b.text;
  if (!b.move.empty()) j["move"] = b.move;
  j["state"] = state_hex(b.state);
  return j;
}

int run_prove(const ProveOptions& opt) {
  OpenedGame game;
  if (int code = open_program(opt.file, game); code != kExitOk) return code;
  for (const std::string& n : opt.properties) {
    bool found = false;
    for (const ir::Property& p : game.program->properties) found = found || p.name == n;
    if (!found) {
      fmt::print(stderr, "{}: no property named '{}'\n", opt.file, n);
      return kExitInputError;
    }
  }
  engine::Setup setup;
  if (int code = checked_setup_args(opt.file, *game.program, opt.setups, setup); code != kExitOk) return code;
  // Properties over play are searched in play, on the compiled engine.
  const bool play = std::any_of(game.program->properties.begin(), game.program->properties.end(), [&](const ir::Property& p) {
    return p.over_play && (opt.properties.empty() ||
                           std::find(opt.properties.begin(), opt.properties.end(), p.name) != opt.properties.end());
  });
  if (play)
    if (int code = open_engine(opt.file, "compiled", game); code != kExitOk) return code;
  verifier::Options vo;
  vo.play_engine = game.engine.get();
  vo.play_states = opt.play_states;
  vo.setup = setup.values;
  vo.timeout_seconds = opt.timeout;
  vo.symmetry = !opt.no_symmetry;
  vo.rlimit = opt.rlimit;
  vo.only = opt.properties;
  vo.candidate_games = opt.invariant_games;
  vo.candidate_rlimit = opt.invariant_rlimit;
  vo.candidates_last = opt.invariants_last;
  if (opt.rlimit > 0) vo.candidate_seconds = opt.timeout;  // the resource limits decide
  vo.progress = [](const std::string& line) { fmt::print(stderr, "{}\n", line); };
  StopOnInterrupt interrupt;
  vo.stop = interrupt.flag();
  std::vector<verifier::Result> results = verifier::verify(*game.program, game.sources, vo);
  if (!interrupt.stopped()) {
    const compiler::Interpreter interpreter(*game.program, game.sources);
    verifier::reach_boards(interpreter, results, {opt.reach_budget, interrupt.flag()});
  }
  int code = kExitOk;
  int unknown = 0, vacuous = 0, cut = 0;
  int found = 0, found_proved = 0, found_not = 0;
  for (const auto& r : results) {
    if (r.found) {
      // Proposed by the verifier: kept when proved, dropped otherwise (not the file's).
      ++found;
      found_proved += r.verdict == verifier::Verdict::Proved;
      found_not += r.verdict == verifier::Verdict::NotInductive || r.verdict == verifier::Verdict::Refuted;
      continue;
    }
    if (r.failed()) code = kExitInputError;
    if (r.verdict == verifier::Verdict::Interrupted) ++cut;
    else if (!r.definite()) ++unknown;
    if (r.vacuous()) ++vacuous;
  }
  if (opt.json) {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& r : results) {
      nlohmann::json j;
      j["name"] = r.name;
      j["kind"] = ir::kind_name(r.kind);
      j["verdict"] = verifier::verdict_name(r.verdict);
      j["set"] = r.set;
      j["detail"] = r.detail;
      if (!r.symmetry.empty()) j["symmetry"] = r.symmetry;
      if (r.found) {
        j["found"] = true;
        j["description"] = r.description;
      }
      if (r.value) j["value"] = *r.value;
      if (r.board) j["board"] = board_json(*r.board);
      if (r.board && r.violates) {
        j["board"]["violates"] = *r.violates;
        j["board"]["reachability"] = verifier::reachability_text(*r.violates);
      }
      if (r.board && r.reach) {
        if (r.reach->reached) j["board"]["reached_by"] = r.reach->line;
        j["board"]["searched_states"] = r.reach->states;
        j["board"]["search"] = verifier::board_reach_text(r);
      }
      if (r.kind == ir::PropertyKind::Depends) {
        j["needs"] = r.needs;
        nlohmann::json drops = nlohmann::json::array();
        for (const auto& d : r.drops) {
          nlohmann::json dj;
          dj["rule"] = d.rule;
          dj["verdict"] = verifier::verdict_name(d.verdict);
          if (d.board) dj["board"] = board_json(*d.board);
          drops.push_back(dj);
        }
        j["without"] = drops;
      }
      // Z3's resource count is the same on every machine; seconds are not.
      j["rlimit"] = r.rlimit;
      if (!opt.no_times) j["seconds"] = r.seconds;
      out.push_back(j);
    }
    fmt::print("{}\n", out.dump(2));
  } else {
    for (const auto& r : results) fmt::print("{}\n", verifier::result_text(r, !opt.no_times));
  }
  if (opt.invariant_games > 0)
    fmt::print(stderr, "{}: invariants found in {} random games: {} candidates, {} proved, {} not inductive, {} unknown\n",
               opt.file, opt.invariant_games, found, found_proved, found_not, found - found_proved - found_not);
  if (unknown > 0)
    fmt::print(stderr, "{}: {} propert{} without a definite verdict (timeout {} s{} per property, or not encodable)\n",
               opt.file, unknown, unknown == 1 ? "y" : "ies", opt.timeout,
               opt.rlimit ? fmt::format(", rlimit {}", opt.rlimit) : "");
  if (vacuous > 0)
    fmt::print(stderr, "{}: {} propert{} vacuous: {} set is empty (contradictory board rules, phase or where clause)\n",
               opt.file, vacuous, vacuous == 1 ? "y" : "ies", vacuous == 1 ? "its" : "their");
  if (interrupt.stopped()) {
    fmt::print(stderr, "prove: interrupted: {} of {} properties have a verdict, the others are marked interrupted\n",
               results.size() - size_t(cut), results.size());
    return kExitInterrupted;
  }
  if (code == kExitOk && unknown > 0) code = kExitInputError;
  if (code == kExitOk && vacuous > 0) code = kExitVacuous;
  return code;
}

}  // namespace

void add_prove(CLI::App& app, int& result) {
  auto opt = std::make_shared<ProveOptions>();
  CLI::App* cmd = app.add_subcommand("prove", "Prove, refute, bound and explain the properties of a rules file with Z3");
  cmd->add_option("file", opt->file, "Rules file (- reads standard input)")->required();
  cmd->add_option("--property", opt->properties, "Check only this property (repeatable; lemmas are always checked)");
  cmd->add_option("--timeout", opt->timeout, "Seconds per property (Z3 timeout)")->check(CLI::PositiveNumber);
  cmd->add_option("--rlimit", opt->rlimit,
                  "Z3 resource limit per property (deterministic: the same verdicts on any machine; 0: none)");
  cmd->add_option("--setup", opt->setups,
                  "Fix a setup value in every set, name=value (repeatable; a data file's entry number)");
  cmd->add_option("--invariants", opt->invariant_games,
                  "Also propose invariants: relations and bounds holding in this many seeded random games, each "
                  "tried by induction (listed first as found_N; the proved ones narrow 'over reachable')")
      ->check(CLI::NonNegativeNumber);
  cmd->add_option("--invariant-rlimit", opt->invariant_rlimit,
                  "With --invariants: Z3 resource units for each candidate (deterministic)");
  cmd->add_flag("--invariants-last", opt->invariants_last,
                "With --invariants: try the candidates after the file's properties (as the report does): they then "
                "narrow no 'over reachable' set, every board is still read against them");
  cmd->add_option("--reach-budget", opt->reach_budget,
                  "Search for a line of play reaching each board shown, storing at most this many positions "
                  "(0: no search)")
      ->check(CLI::NonNegativeNumber);
  cmd->add_option("--play-states", opt->play_states,
                  "Properties over play: the most states of play each search stores (a count: the same verdicts "
                  "on any machine)")
      ->check(CLI::PositiveNumber);
  cmd->add_flag("--json", opt->json, "Print the results as JSON");
  cmd->add_flag("--no-times", opt->no_times, "Leave out the times (byte-identical output)");
  cmd->add_flag("--no-symmetry", opt->no_symmetry,
                "Do not break the symmetry of find and bound questions by the board maps that keep them");
  cmd->callback([opt, &result] { result = run_prove(*opt); });
}

}  // namespace rulebook::cli
