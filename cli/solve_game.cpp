// `rulebook solve FILE` on a game of two sides: its value under perfect play, the line both
// sides keep it on, or the bounds the budget reached.
#include "cli/solve_game.h"

#include <chrono>
#include <cstdio>

#include <fmt/core.h>
#include <nlohmann/json.hpp>

#include "cli/interrupt.h"
#include "cli/open_game.h"
#include "cli/verbs.h"
#include "dsl/diagnostics.h"
#include "explorer/game_value.h"
#include "explorer/symmetry.h"

namespace rulebook::cli {
namespace {

using explorer::kNoBound;
using explorer::Objective;

std::string bound_text(Objective objective, int64_t v) {
  if (v <= -kNoBound || v >= kNoBound) return "unbounded";
  return explorer::value_text(objective, v);
}

nlohmann::json bound_json(Objective objective, int64_t v) {
  if (v <= -kNoBound || v >= kNoBound) return nullptr;
  if (objective == Objective::Margin) return v;
  return explorer::value_text(objective, v);
}

/// "value >= draw and <= win", leaving out a side the search found nothing about.
std::string bounds_text(Objective objective, int64_t lo, int64_t hi, int64_t floor, int64_t ceiling) {
  std::string s;
  if (lo > floor) s += ">= " + bound_text(objective, lo);
  if (hi < ceiling) s += std::string(s.empty() ? "" : " and ") + "<= " + bound_text(objective, hi);
  return s.empty() ? "anything (no bound proved)" : s;
}

std::string stop_reason(const std::string& stopped, const SolveGameOptions& opt) {
  if (stopped == "states") return fmt::format("the table is full (--max-states {})", opt.max_states);
  if (stopped == "depth") return fmt::format("the passes reached --max-depth {}", opt.max_depth);
  if (stopped == "stale")
    return "deeper passes met no new state and narrowed no bound: the moves cycle, and neither side can "
           "force the game to end better than these bounds";
  if (stopped == "interrupted") return "interrupted";
  return stopped;
}

}  // namespace

void add_solve_game_options(CLI::App* cmd, SolveGameOptions& opt) {
  cmd->add_option("--objective", opt.objective,
                  "outcome (win, draw or loss of the first side) or margin (its score minus the other's)")
      ->check(CLI::IsMember({"outcome", "margin"}));
  cmd->add_option("--max-states", opt.max_states, "Most states the search table holds (about 100 bytes each)");
  cmd->add_option("--max-depth", opt.max_depth, "Deepest pass (0: no bound)")->check(CLI::Range(0, 1000000));
  cmd->add_flag("--no-symmetry", opt.no_symmetry, "Store every state apart, not by its class under the game's symmetries");
  cmd->add_option("--seed", opt.seed, "Seed of the setup (a game solve)");
  cmd->add_option("--engine", opt.engine, "compiled (generated C++) or interp (interpreter)")
      ->check(CLI::IsMember({"compiled", "interp"}));
  cmd->add_flag("--quiet", opt.quiet, "No progress on stderr");
}

int run_solve_game(const SolveGameOptions& opt) {
  OpenedGame game;
  if (int code = open_game(opt.file, opt.engine, game); code != kExitOk) return code;
  std::vector<uint8_t> root;
  if (int code = setup_state(game, opt.seed, opt.setups, root); code != kExitOk) return code;
  const ir::Program& p = *game.program;
  const engine::Engine& e = *game.engine;
  const explorer::Sides sides = explorer::two_sides(p, e.info(), e.to_move(root.data()));
  if (!sides.error.empty()) {
    fmt::print(stderr, "{}: error: cannot solve '{}': {}\n", opt.file, p.title, sides.error);
    return kExitInputError;
  }
  const Objective objective = opt.objective == "margin" ? Objective::Margin : Objective::Outcome;
  if (objective == Objective::Margin && e.info().score_width > 1) {
    fmt::print(stderr, "{}: error: --objective margin needs a single score; '{}' scores a list of {} "
                       "(compared in order): use --objective outcome\n", opt.file, p.title, e.info().score_width);
    return kExitInputError;
  }
  if (!opt.quiet) fmt::print(stderr, "engine: {}\n", game.engine_note);

  explorer::GameValueOptions o;
  o.objective = objective;
  o.max_states = opt.max_states;
  o.max_depth = opt.max_depth;
  if (!opt.no_symmetry) o.symmetry = explorer::find_symmetries(p, game.sources, e, root.data()).elements;
  StopOnInterrupt interrupt;
  o.interrupt = interrupt.flag();
  if (!opt.quiet)
    o.progress = [objective](const explorer::GameValueProgress& pr) {
      fmt::print(stderr, "pass of depth {} asking >= {}: {} positions, {} states, value {}..{}, {:.0f} s\n",
                 pr.depth, explorer::value_text(objective, pr.target), pr.nodes, pr.states,
                 bound_text(objective, pr.lo), bound_text(objective, pr.hi), pr.seconds);
    };
  const auto start = std::chrono::steady_clock::now();
  const explorer::GameValueResult r = explorer::game_value(p, e, root.data(), sides, o);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const int64_t floor = objective == Objective::Outcome ? -1 : -kNoBound;
  const std::string& first = sides.name[0];

  if (opt.json) {
    nlohmann::json j;
    j["title"] = p.title;
    j["sides"] = {sides.name[0], sides.name[1]};
    j["teams"] = sides.teams;
    j["first"] = first;
    j["objective"] = opt.objective;
    j["solved"] = r.solved;
    j["value"] = r.solved ? bound_json(objective, r.lo) : nlohmann::json(nullptr);
    j["lower"] = r.lo > floor ? bound_json(objective, r.lo) : nlohmann::json(nullptr);
    j["upper"] = r.hi < -floor ? bound_json(objective, r.hi) : nlohmann::json(nullptr);
    j["line"] = r.line_text;
    j["symmetry"] = r.symmetry;
    j["nodes"] = r.nodes;
    j["states"] = r.states;
    j["depth"] = r.depth;
    j["max_states"] = opt.max_states;
    j["stopped"] = r.stopped;
    if (!r.status.ok) j["error"] = r.status.message;
    fmt::print("{}\n", j.dump(2));
  } else {
    fmt::print("{}\n", p.title);
    fmt::print("sides: {} (to move first) against {}{}\n", first, sides.name[1], sides.teams ? " (teams)" : "");
    if (r.solved) {
      fmt::print("value under perfect play: {} for {}\n", explorer::value_text(objective, r.lo), first);
      std::string line;
      for (const std::string& m : r.line_text) line += " " + m;
      fmt::print("principal line ({} moves):{}\n", r.line_text.size(), line);
    } else {
      fmt::print("not solved: {}; bounds so far: value for {} {}\n", stop_reason(r.stopped, opt), first,
                 bounds_text(objective, r.lo, r.hi, floor, -floor));
    }
    std::string group;
    for (const std::string& t : r.symmetry) group += (group.empty() ? "" : ", ") + t;
    fmt::print("positions searched: {}; states in the table: {}{}; deepest pass: {}\n", r.nodes, r.states,
               r.symmetry.size() > 1 ? fmt::format(" (classes under {} symmetries: {})", r.symmetry.size(), group)
                                     : "",
               r.depth);
  }
  if (!opt.quiet) fmt::print(stderr, "solve: {:.2f} s\n", seconds);
  if (!r.status.ok) {
    fmt::print(stderr, "{}\n", engine_error_line(opt.file, r.status.message));
    return kExitInputError;
  }
  return r.stopped == "interrupted" ? kExitInterrupted : kExitOk;
}

}  // namespace rulebook::cli
