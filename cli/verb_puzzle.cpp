// `rulebook puzzle FILE --seed S`: a new minimal puzzle of a puzzle declaration whose clues
// read a data-file table: printed as an entry of that file, with its solution, the proof
// that it is unique and minimal, a difficulty and the file's criteria of a puzzle.
#include <algorithm>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

#include <fmt/core.h>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cli/interrupt.h"
#include "cli/json_out.h"
#include "cli/open_game.h"
#include "cli/output_file.h"
#include "cli/verbs.h"
#include "compiler/ir/text.h"
#include "render/board.h"
#include "verifier/puzzle.h"

namespace rulebook::cli {
namespace {

struct PuzzleGenOptions {
  std::string file;
  std::string puzzle;
  std::vector<std::string> setups;
  std::vector<std::string> clues;
  bool full = false;
  uint64_t seed = 1;
  int count = 1;
  int attempts = 10;
  double timeout = 300;
  bool json = false;
  bool no_times = false;
  std::string output;
};

const char* criterion_word(verifier::CriterionVerdict::Status s) {
  using S = verifier::CriterionVerdict::Status;
  return s == S::Met ? "met" : s == S::NotMet ? "not met" : "unknown";
}

/// The data file's text: a comment saying where each entry comes from, then the entry;
/// entries apart by a blank line, in the order of the seeds.
std::string data_file_text(const std::vector<verifier::GeneratedPuzzle>& gs, const PuzzleGenOptions& opt) {
  std::string out;
  for (const verifier::GeneratedPuzzle& g : gs) {
    if (g.entry.empty()) continue;
    out += fmt::format("{}# rulebook puzzle {} --seed {}: puzzle '{}', {} {}; an entry of {} for setup '{}'\n{}{}",
                       out.empty() ? "" : "\n", opt.file, g.seed, g.puzzle, g.givens, g.list ? "clues" : "givens",
                       g.path, g.table,
                       g.list ? fmt::format("# clues: {}\n", fmt::join(g.clues_kept, ", ")) : "", g.entry_text);
  }
  return out;
}

nlohmann::json result_json(const ir::Program& p, const verifier::GeneratedPuzzle& g, const PuzzleGenOptions& opt) {
  nlohmann::json j;
  j["puzzle"] = g.puzzle;
  j["seed"] = g.seed;
  j["setup"] = g.table;
  j["data_file"] = g.path;
  j["entry"] = g.entry_text;
  j["givens"] = g.givens;
  j["full_givens"] = g.full_givens;
  if (g.list) j["clues"] = g.clues_kept;
  j["unique"] = g.unique ? "proved" : "not proved";
  j["needed"] = g.needed;
  j["minimal"] = g.unique && g.needed == g.givens && !g.full;
  if (g.full) j["full"] = true;
  j["over"] = g.over;
  j["difficulty"] = {{"conflicts", g.conflicts}, {"decisions", g.decisions}, {"solver", g.difficulty_solver},
                     {"rounds", g.rounds}};
  if (!g.difficulty_unknown.empty()) j["difficulty"] = {{"unknown", g.difficulty_unknown}, {"solver", g.difficulty_solver}};
  if (g.solution) {
    j["solution"] = {{"text", render::board_text(p, g.solution->state.data(), render::DrawOptions{})},
                     {"state", state_hex(g.solution->state)}};
  }
  nlohmann::json cs = nlohmann::json::array();
  for (const verifier::CriterionVerdict& c : g.criteria)
    cs.push_back({{"name", c.name}, {"description", c.description}, {"verdict", criterion_word(c.status)}});
  j["criteria"] = cs;
  j["attempt"] = g.attempt;
  j["attempts"] = g.attempts_made;
  if (!g.stopped.empty()) j["stopped"] = g.stopped;
  if (!opt.no_times) j["seconds"] = g.seconds;
  return j;
}

void print_text(const ir::Program& p, const verifier::GeneratedPuzzle& g, const PuzzleGenOptions& opt) {
  const char* unit = g.list ? "clues" : "givens";
  fmt::print("puzzle {}, seed {}: {} {} (of {} in the solution){}\n", g.puzzle, g.seed, g.givens, unit,
             g.full_givens, opt.no_times ? "" : fmt::format("  [{:.2f} s]", g.seconds));
  if (g.list) {
    fmt::print("clues: {}\n", fmt::join(g.clues_kept, ", "));
    fmt::print("entry of {} (setup '{}'):\n{}", g.path, g.table, g.entry_text);
  } else {
    fmt::print("entry of {} (setup '{}'; '.' not given):\n{}", g.path, g.table, g.entry_text);
  }
  if (g.solution)
    fmt::print("solution:\n{}", render::board_text(p, g.solution->state.data(), render::DrawOptions{}));
  fmt::print("unique: {}\n", g.unique ? "proved (a second solution is unsat)" : "not proved");
  fmt::print("  over: {}\n", g.over);
  if (g.full)
    fmt::print("minimal: not asked (--full: every clue the solution gives, none dropped)\n");
  else
    fmt::print("minimal: {} ({} of {} {} needed: without each, a second solution)\n",
               g.unique && g.needed == g.givens ? "yes" : "no", g.needed, g.givens, unit);
  if (g.difficulty_unknown.empty())
    fmt::print("difficulty: {} conflicts, {} decisions ({}'s uniqueness proof{})\n", g.conflicts, g.decisions,
               g.difficulty_solver,
               g.rounds > 0 ? fmt::format(", {} rounds of cuts of the counts of components", g.rounds) : "");
  else
    fmt::print("difficulty: not measured ({}: {})\n", g.difficulty_solver, g.difficulty_unknown);
  if (!g.criteria.empty()) {
    size_t met = 0;
    for (const verifier::CriterionVerdict& c : g.criteria) met += c.status == verifier::CriterionVerdict::Status::Met;
    fmt::print("criteria: {} of {} met (attempt {} of {})\n", met, g.criteria.size(), g.attempt, g.attempts_made);
    for (const verifier::CriterionVerdict& c : g.criteria)
      fmt::print("  {}: {}{}\n", c.name, criterion_word(c.status),
                 c.description.empty() ? "" : " (" + c.description + ")");
  }
  if (!g.stopped.empty()) fmt::print("stopped: {}\n", g.stopped);
}

int run_puzzle(const PuzzleGenOptions& opt) {
  OpenedGame game;
  if (int code = open_program(opt.file, game); code != kExitOk) return code;
  const ir::Program& prog = *game.program;
  const std::vector<const ir::Property*> all = verifier::puzzles(prog);
  const ir::Property* chosen = nullptr;
  for (const ir::Property* p : all)
    if (opt.puzzle.empty() || p->name == opt.puzzle) {
      chosen = p;
      break;
    }
  if (!chosen || (opt.puzzle.empty() && all.size() > 1)) {
    fmt::print(stderr, "{}: {}\n", opt.file,
               all.empty()             ? std::string("no puzzle declared")
               : opt.puzzle.empty()    ? std::string("several puzzles declared: choose one with --puzzle")
                                       : fmt::format("no puzzle named '{}'", opt.puzzle));
    return kExitInputError;
  }
  engine::Setup setup;
  if (int code = checked_setup_args(opt.file, prog, opt.setups, setup); code != kExitOk) return code;
  StopOnInterrupt interrupt;
  verifier::GenerateOptions go;
  go.setup = setup.values;
  go.seed = opt.seed;
  go.count = opt.count;
  go.attempts = opt.attempts;
  go.clues = opt.clues;
  go.full = opt.full;
  go.timeout_seconds = opt.timeout;
  go.progress = [](const std::string& line) { fmt::print(stderr, "{}\n", line); };
  go.stop = interrupt.flag();
  std::vector<verifier::GeneratedPuzzle> gs;
  try {
    gs = verifier::generate_puzzles(prog, game.sources, *chosen, go);
  } catch (const std::exception& e) {  // no table, no solution, what Z3 cannot express
    // Z3 stopped by Ctrl-C while encoding gives up with an exception: nothing was made.
    if (!interrupt.stopped()) {
      fmt::print(stderr, "{}: error: {}\n", opt.file, e.what());
      return kExitInputError;
    }
  }
  // What was made is written and printed, also when interrupted.
  bool all_made = int(gs.size()) == opt.count;
  for (const verifier::GeneratedPuzzle& g : gs)
    all_made = all_made && !g.entry.empty() && (g.full ? g.stopped.empty() : g.unique && g.needed == g.givens);
  if (!opt.output.empty()) {
    if (std::string why = write_file_atomically(opt.output, data_file_text(gs, opt)); !why.empty()) {
      fmt::print(stderr, "{}\n", why);
      return kExitInputError;
    }
  }
  if (opt.json) {
    nlohmann::json out{{"file", opt.file}, {"puzzles", nlohmann::json::array()}};
    for (const verifier::GeneratedPuzzle& g : gs) out["puzzles"].push_back(result_json(prog, g, opt));
    fmt::print("{}\n", out.dump(2));
  } else {
    for (const verifier::GeneratedPuzzle& g : gs) {
      if (!g.entry.empty()) print_text(prog, g, opt);
      else fmt::print("puzzle {}, seed {}: none generated ({})\n", g.puzzle, g.seed, g.stopped);
    }
    if (int(gs.size()) < opt.count)
      fmt::print("{} of {} puzzles generated{}\n", gs.size(), opt.count, interrupt.stopped() ? " (interrupted)" : "");
  }
  if (interrupt.stopped()) return kExitInterrupted;
  return all_made ? kExitOk : kExitInputError;
}

}  // namespace

void add_puzzle(CLI::App& app, int& result) {
  auto opt = std::make_shared<PuzzleGenOptions>();
  CLI::App* cmd = app.add_subcommand(
      "puzzle", "Generate a minimal puzzle of a puzzle declaration (a random solution, clues removed while it stays "
                "unique, each step proved; Z3)");
  cmd->add_option("file", opt->file, "Rules file (- reads standard input)")->required();
  cmd->add_option("--seed", opt->seed, "Seed of the random solution and of the order clues are removed in");
  cmd->add_option("--count", opt->count, "Generate this many puzzles, of seeds --seed, --seed + 1, ...")
      ->check(CLI::PositiveNumber);
  cmd->add_option("--puzzle", opt->puzzle, "The puzzle declaration (needed when the file declares several)");
  cmd->add_option("--setup", opt->setups, "Fix another setup value, name=value (repeatable)");
  cmd->add_option("--clue", opt->clues,
                  "A list entry's puzzles give only the clues named (repeatable; default: every clue declared)");
  cmd->add_flag("--full", opt->full,
               "A list entry: write the full puzzle of the solution drawn (every clue it can give, none dropped); "
               "its uniqueness is said, not required");
  cmd->add_option("--attempts", opt->attempts,
                  "Generations tried until the file's criteria of a puzzle all hold (the best is kept)")
      ->check(CLI::PositiveNumber);
  cmd->add_option("--timeout", opt->timeout, "Seconds for the whole generation")->check(CLI::PositiveNumber);
  cmd->add_option("-o,--output", opt->output, "Also write the puzzle to this data file (one entry)");
  cmd->add_flag("--json", opt->json, "Print the result as JSON");
  cmd->add_flag("--no-times", opt->no_times, "Leave out the times (byte-identical output)");
  cmd->callback([opt, &result] { result = run_puzzle(*opt); });
}

}  // namespace rulebook::cli
