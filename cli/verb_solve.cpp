// `rulebook solve FILE --setup puzzle=K`: every solution of the puzzles the file declares
// (Z3, over boards with the setup bound), whether it is unique, which clues are needed,
// and the file's properties of that setup (a puzzle's criteria).
#include <algorithm>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

#include <fmt/core.h>
#include <nlohmann/json.hpp>

#include "cli/interrupt.h"
#include "cli/json_out.h"
#include "cli/open_game.h"
#include "cli/solve_game.h"
#include "cli/verbs.h"
#include "compiler/ir/text.h"
#include "render/board.h"
#include "verifier/puzzle.h"

namespace rulebook::cli {
namespace {

struct SolveOptions {
  std::string file;
  std::vector<std::string> puzzles;
  std::vector<std::string> setups;
  int64_t max = 100;
  int boards = -1;
  bool clues = false;
  bool minimise = false;   ///< drop clues while the solutions stay the same
  double timeout = 60;
  uint64_t rlimit = 0;     ///< Z3 units per question (0: none)
  bool json = false;
  bool no_times = false;
  bool game = false;       ///< perfect play even where the file declares puzzles
  SolveGameOptions play;   ///< the options only a game solve has
};

std::string board_text(const ir::Program& p, const verifier::Board& b) {
  std::string out = render::board_text(p, b.state.data(), render::DrawOptions{});
  // Rules with no state keyed by Cell (a map of ships) leave the grid empty: their state
  // follows it as values, so a solution is still seen.
  auto on_grid = [](const ir::StateVar& v) { return v.keys.size() == 1 && v.keys[0] == ir::kCellDomain; };
  for (const ir::StateVar& v : p.vars)
    if (v.origin == ir::StateVar::Origin::State && on_grid(v)) return out;
  const std::string values = compiler::board_text(p, b.state.data());
  for (const ir::StateVar& v : p.vars) {
    if (v.origin != ir::StateVar::Origin::State) continue;
    const size_t at = values.find(v.name + " = ");
    if (at != std::string::npos && (at == 0 || values[at - 1] == '\n'))
      out += "  " + values.substr(at, values.find('\n', at) + 1 - at);
  }
  return out;
}

nlohmann::json board_json(const ir::Program& p, const verifier::Board& b) {
  return {{"text", board_text(p, b)}, {"state", state_hex(b.state)}};
}

/// The file's prove and criterion properties that read a fixed setup value: with the setup bound each is
/// a fact of the puzzle alone (Moyo's criteria), checked as `prove --setup` does.
std::vector<verifier::Result> setup_properties(const OpenedGame& game, const verifier::Options& base) {
  verifier::Options o = base;
  for (const ir::Property& p : game.program->properties) {
    if ((p.kind != ir::PropertyKind::Prove && p.kind != ir::PropertyKind::Criterion) || p.over_moves || p.over_play ||
        !p.setup.empty())
      continue;
    for (const std::string& s : verifier::setups_read(*game.program, p))
      for (const auto& given : base.setup)
        if (given.first == s && std::find(o.only.begin(), o.only.end(), p.name) == o.only.end())
          o.only.push_back(p.name);
  }
  if (o.only.empty()) return {};
  std::vector<verifier::Result> out;
  for (verifier::Result& r : verifier::verify(*game.program, game.sources, o))
    if (std::find(o.only.begin(), o.only.end(), r.name) != o.only.end())  // not the lemmas, always checked
      out.push_back(std::move(r));
  return out;
}

void print_text(const ir::Program& p, const verifier::PuzzleResult& r, const SolveOptions& opt) {
  fmt::print("puzzle {}: {}{}\n", r.name, verifier::count_text(r, "--max reached"), opt.no_times ? "" : fmt::format("  [{:.2f} s]", r.seconds));
  if (!r.description.empty()) fmt::print("  {}\n", r.description);
  fmt::print("  over: {}\n  clues: {}\n", r.set, r.clue_count);
  if (!r.symmetry.empty()) fmt::print("  counted {} (one solution shown per class)\n", r.symmetry);
  const size_t shown = opt.boards < 0 ? r.solutions.size() : std::min(r.solutions.size(), size_t(opt.boards));
  for (size_t i = 0; i < shown; ++i) fmt::print("solution {}:\n{}", i + 1, board_text(p, r.solutions[i]));
  if (shown < r.solutions.size())
    fmt::print("({} more {} not shown: --boards)\n", r.solutions.size() - shown,
               r.solutions.size() - shown == 1 ? "solution" : "solutions");
  fmt::print("unique: {}{}\n", verifier::uniqueness(r),
             r.symmetry.empty() || verifier::uniqueness(r) != "proved" ? "" : fmt::format(" (up to the group of {})", r.group));
  if (!opt.clues && !opt.minimise) return;
  size_t needed = 0, unknown = 0, dropped = 0;
  for (const verifier::ClueVerdict& c : r.clues) {
    needed += c.status == verifier::ClueVerdict::Status::Needed;
    unknown += c.status == verifier::ClueVerdict::Status::Unknown;
    dropped += c.status == verifier::ClueVerdict::Status::Dropped;
  }
  if (opt.minimise)
    fmt::print("clues: {} kept, {} dropped{}{}\n", needed + unknown, dropped,
               unknown ? fmt::format(", {} unknown", unknown) : "",
               unknown ? "" : " (minimal: every clue kept is needed, the solutions are the same)");
  else
    fmt::print("clues: {} needed, {} not needed{}{}\n", needed, r.clues.size() - needed - unknown,
               unknown ? fmt::format(", {} unknown", unknown) : "",
               needed == r.clues.size() ? " (minimal: every clue is needed)" : "");
  for (const verifier::ClueVerdict& c : r.clues) {
    if (c.status == verifier::ClueVerdict::Status::Needed)
      fmt::print("clue {}: needed; without it, also:\n{}", c.name, board_text(p, *c.board));
    else if (c.status == verifier::ClueVerdict::Status::NotNeeded)
      fmt::print("clue {}: not needed (the other clues imply it)\n", c.name);
    else if (c.status == verifier::ClueVerdict::Status::Dropped)
      fmt::print("clue {}: dropped (the clues kept imply it)\n", c.name);
    else
      fmt::print("clue {}: unknown ({})\n", c.name, c.detail);
  }
}

nlohmann::json result_json(const ir::Program& p, const verifier::PuzzleResult& r, const SolveOptions& opt) {
  nlohmann::json j;
  j["puzzle"] = r.name;
  j["description"] = r.description;
  j["set"] = r.set;
  j["clue_count"] = r.clue_count;
  j["solutions"] = r.solutions.size();
  j["exact"] = r.exact;
  j["max_reached"] = r.hit_max;
  if (!r.exact && !r.hit_max) j["unknown"] = r.unknown;
  j["unique"] = verifier::uniqueness(r);
  if (!r.symmetry.empty()) {
    j["up_to"] = r.symmetry;
    j["group"] = r.group;
  }
  nlohmann::json boards = nlohmann::json::array();
  const size_t shown = opt.boards < 0 ? r.solutions.size() : std::min(r.solutions.size(), size_t(opt.boards));
  for (size_t i = 0; i < shown; ++i) boards.push_back(board_json(p, r.solutions[i]));
  j["boards"] = boards;
  if (opt.clues || opt.minimise) {
    nlohmann::json cs = nlohmann::json::array();
    for (const verifier::ClueVerdict& c : r.clues) {
      nlohmann::json cj{{"name", c.name}};
      cj["needed"] = c.status == verifier::ClueVerdict::Status::Needed      ? nlohmann::json(true)
                     : c.status == verifier::ClueVerdict::Status::NotNeeded ? nlohmann::json(false)
                                                                             : nlohmann::json(nullptr);
      if (opt.minimise) cj["dropped"] = c.status == verifier::ClueVerdict::Status::Dropped;
      if (c.board) cj["board"] = board_json(p, *c.board);
      if (!c.detail.empty()) cj["unknown"] = c.detail;
      cs.push_back(cj);
    }
    j["clues"] = cs;
  }
  if (!opt.no_times) j["seconds"] = r.seconds;
  return j;
}

/// The other mode of `solve`: a file that declares no puzzle (or `--game`) is a two-sided
/// game whose value under perfect play is searched (cli/solve_game.h).
int solve_game(const SolveOptions& opt) {
  SolveGameOptions g = opt.play;
  g.file = opt.file;
  g.setups = opt.setups;
  g.json = opt.json;
  return run_solve_game(g);
}

int run_solve(const SolveOptions& opt) {
  OpenedGame game;
  if (int code = open_program(opt.file, game); code != kExitOk) return code;
  const ir::Program& prog = *game.program;
  if (opt.game || verifier::puzzles(prog).empty()) return solve_game(opt);
  std::vector<const ir::Property*> chosen;
  for (const ir::Property* p : verifier::puzzles(prog))
    if (opt.puzzles.empty() || std::find(opt.puzzles.begin(), opt.puzzles.end(), p->name) != opt.puzzles.end())
      chosen.push_back(p);
  for (const std::string& n : opt.puzzles)
    if (std::none_of(chosen.begin(), chosen.end(), [&n](const ir::Property* p) { return p->name == n; })) {
      fmt::print(stderr, "{}: no puzzle named '{}'\n", opt.file, n);
      return kExitInputError;
    }
  engine::Setup setup;
  if (int code = checked_setup_args(opt.file, prog, opt.setups, setup); code != kExitOk) return code;
  StopOnInterrupt interrupt;
  verifier::PuzzleOptions po;
  po.setup = setup.values;
  po.max_solutions = opt.max;
  po.clues = opt.clues;
  po.minimise = opt.minimise;
  po.timeout_seconds = opt.timeout;
  po.rlimit = opt.rlimit;
  po.progress = [](const std::string& line) { fmt::print(stderr, "{}\n", line); };
  po.stop = interrupt.flag();
  std::vector<verifier::PuzzleResult> results;
  try {
    for (const ir::Property* p : chosen) results.push_back(verifier::solve_puzzle(prog, game.sources, *p, po));
  } catch (const std::exception& e) {  // a setup the clues need, or what Z3 cannot express
    fmt::print(stderr, "{}: error: {}\n", opt.file, e.what());
    return kExitInputError;
  }
  verifier::Options vo;
  vo.setup = setup.values;
  vo.timeout_seconds = opt.timeout;
  vo.rlimit = opt.rlimit;
  vo.stop = interrupt.flag();
  const std::vector<verifier::Result> props = setup.values.empty() ? std::vector<verifier::Result>{}
                                                                   : setup_properties(game, vo);
  if (opt.json) {
    nlohmann::json out;
    out["file"] = opt.file;
    nlohmann::json ps = nlohmann::json::array();
    for (const verifier::PuzzleResult& r : results) ps.push_back(result_json(prog, r, opt));
    out["puzzles"] = ps;
    nlohmann::json crit = nlohmann::json::array();
    for (const verifier::Result& r : props)
      crit.push_back({{"name", r.name}, {"description", r.description}, {"verdict", verifier::verdict_name(r.verdict)}});
    out["setup_properties"] = crit;
    fmt::print("{}\n", out.dump(2));
  } else {
    for (const verifier::PuzzleResult& r : results) print_text(prog, r, opt);
    if (!props.empty()) fmt::print("properties of this setup (as prove --setup checks them):\n");
    for (const verifier::Result& r : props)
      fmt::print("  {}: {}{}\n", r.name, verifier::verdict_word(r),
                 r.description.empty() ? "" : " (" + r.description + ")");
  }
  if (interrupt.stopped()) return kExitInterrupted;
  for (const verifier::PuzzleResult& r : results)
    if (!r.exact && !r.hit_max) return kExitInputError;  // no definite count, as prove's unknown
  return kExitOk;
}

}  // namespace

void add_solve(CLI::App& app, int& result) {
  auto opt = std::make_shared<SolveOptions>();
  CLI::App* cmd = app.add_subcommand("solve", "Solve the puzzles a rules file declares (every solution, uniqueness, "
                                              "needed clues; Z3), or a two-sided game (its value under perfect play)");
  cmd->add_option("file", opt->file, "Rules file (- reads standard input)")->required();
  cmd->add_option("--setup", opt->setups,
                  "Fix a setup value, name=value (repeatable; a data file's entry number): the puzzle to solve");
  cmd->add_option("--puzzle", opt->puzzles, "Solve only this puzzle declaration (repeatable; default: every one)");
  cmd->add_option("--max", opt->max, "Stop after this many solutions; the count is then 'at least'")
      ->check(CLI::PositiveNumber);
  cmd->add_flag("--clues", opt->clues,
                "Also say for each clue whether it is needed (without it another solution exists, shown)");
  cmd->add_flag("--minimise", opt->minimise,
                "Drop clues, in the order declared, while the solutions stay the same (each drop proved); every clue "
                "kept is needed, shown as with --clues");
  cmd->add_option("--boards", opt->boards, "Print at most this many solutions' boards (default: every one found)")
      ->check(CLI::NonNegativeNumber);
  cmd->add_option("--timeout", opt->timeout, "Seconds for the enumeration, and for each clue's question")
      ->check(CLI::PositiveNumber);
  cmd->add_option("--rlimit", opt->rlimit,
                  "Z3 resource units for each question (each solution found is one; deterministic: the same "
                  "answers on any machine; 0: none)");
  cmd->add_flag("--json", opt->json, "Print the results as JSON");
  cmd->add_flag("--no-times", opt->no_times, "Leave out the times (byte-identical output)");
  cmd->add_flag("--game", opt->game,
                "Solve the game under perfect play even though the file declares puzzles (the mode of a file that "
                "declares none)");
  add_solve_game_options(cmd, opt->play);
  cmd->callback([opt, &result] { result = run_solve(*opt); });
}

}  // namespace rulebook::cli
