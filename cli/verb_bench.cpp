// `rulebook bench`: random playouts/s and perft nodes/s of any rules file, medians of runs.
#include <algorithm>
#include <cstdio>
#include <ctime>
#include <string>
#include <vector>

#include <fmt/core.h>
#include <nlohmann/json.hpp>

#include "cli/interrupt.h"
#include "cli/open_game.h"
#include "cli/progress.h"
#include "cli/verbs.h"
#include "compiler/load/load_engine.h"
#include "compiler/runtime/random.h"
#include "dsl/diagnostics.h"
#include "explorer/cpu_time.h"

#ifndef RULEBOOK_LINKED_ENGINE_FLAGS
#define RULEBOOK_LINKED_ENGINE_FLAGS "the build's"
#endif

namespace rulebook::cli {
namespace {

struct BenchOptions {
  std::string file;
  std::string engine = "compiled";
  uint64_t seed = 1;
  std::vector<std::string> setups;
  int games = 1000;
  int depth = 4;
  int runs = 3;
  int max_plies = 10000;
  bool json = false;
  bool quiet = false;
};

using explorer::median;
using explorer::thread_seconds;

/// What one run did. Every run from one seed does the same work; only the times differ.
struct Run {
  std::vector<uint64_t> paths;  ///< perft paths of depths 1..n finished
  double perft_seconds = 0;
  uint64_t games = 0;  ///< playouts finished
  uint64_t plies = 0;
  double playout_seconds = 0;
  uint64_t nodes() const {
    uint64_t n = 0;
    for (uint64_t p : paths) n += p;
    return n;
  }
};

/// One random game from `start` with moves `rng.below(n)`, as `rulebook play` picks them.
engine::Status play_one(const engine::Engine& e, const std::vector<uint8_t>& start, uint64_t& rng,
                        int max_plies, uint64_t& plies) {
  plies = 0;
  std::vector<uint8_t> s = start;
  if (const auto* compiled = dynamic_cast<const compiler::CompiledEngine*>(&e))
    return compiled->playout(s.data(), rng, static_cast<uint64_t>(max_plies), false, plies);
  // The interpreter: the same stream, through the interface (CompiledEngine::playout is
  // specified as this loop).
  std::vector<engine::Move> moves;
  while (plies < static_cast<uint64_t>(max_plies) && !e.terminal(s.data())) {
    moves.clear();
    engine::Status st = e.legal_moves(s.data(), moves);
    if (st.ok && moves.empty()) st = engine::Status::Error("a live state has no legal move");
    if (!st.ok) return st;
    const engine::Move& m = moves[SplitMix64(rng).below(moves.size())];
    rng += 0x9e3779b97f4a7c15ull;  // the state SplitMix64(rng) is left in after one draw
    if (!(st = e.apply(s.data(), m)).ok) return st;
    ++plies;
  }
  return engine::Status::Ok();
}

/// One run: perft at depths 1..depth, then `games` playouts from one stream of `seed`.
/// Stops between two depths or two games on Ctrl-C, leaving what finished in `out`.
/// Progress on stderr about once a second: the run, the perft depth or the playouts done,
/// their rate and the memory held (not with --quiet).
struct BenchProgress {
  bool quiet = false;
  int runs = 1;
  ProgressClock clock;
  void perft(int run, int depth) {
    if (quiet || !clock.due()) return;
    fmt::print(stderr, "bench: run {}/{}: perft depth {}, {:.1f} MB, {:.0f} s\n", run + 1, runs, depth,
               double(resident_bytes()) / (1024.0 * 1024.0), clock.seconds());
  }
  void playouts(int run, const Run& r, int games, double seconds) {
    if (quiet || !clock.due()) return;
    fmt::print(stderr, "bench: run {}/{}: {}/{} playouts, {:.0f} playouts/s, {:.1f} MB, {:.0f} s\n",
               run + 1, runs, r.games, games, seconds > 0 ? double(r.games) / seconds : 0.0,
               double(resident_bytes()) / (1024.0 * 1024.0), clock.seconds());
  }
};

engine::Status run_once(const engine::Engine& e, const std::vector<uint8_t>& start,
                        const BenchOptions& opt, const StopOnInterrupt& interrupt, Run& out,
                        int run, BenchProgress& progress) {
  double t0 = thread_seconds();
  for (int d = 1; d <= opt.depth && !interrupt.stopped(); ++d) {
    progress.perft(run, d);
    uint64_t count = 0;
    if (engine::Status st = e.perft(start.data(), d, count); !st.ok) return st;
    out.paths.push_back(count);
    out.perft_seconds = thread_seconds() - t0;
  }
  uint64_t rng = opt.seed;  // the state of SplitMix64(seed)
  t0 = thread_seconds();
  for (int g = 0; g < opt.games && !interrupt.stopped(); ++g) {
    uint64_t plies = 0;
    if (engine::Status st = play_one(e, start, rng, opt.max_plies, plies); !st.ok) return st;
    ++out.games;
    out.plies += plies;
    out.playout_seconds = thread_seconds() - t0;
    progress.playouts(run, out, opt.games, out.playout_seconds);
  }
  return engine::Status::Ok();
}

double rate(uint64_t units, double seconds) {
  return seconds > 0 ? static_cast<double>(units) / seconds : 0;
}

std::string join(const std::vector<std::string>& words) {
  std::string out;
  for (const std::string& w : words) out += (out.empty() ? "" : " ") + w;
  return out;
}

/// How the engine was built, as far as this process knows it.
std::string build_text(const OpenedGame& game) {
  if (game.engine_origin == "interpreter") return "the interpreter of this rulebook";
  if (game.engine_origin == "linked") {
    // CMake's flag variables leave empty words: one space between words.
    std::string flags;
    for (char c : std::string(RULEBOOK_LINKED_ENGINE_FLAGS))
      if (c != ' ' || (!flags.empty() && flags.back() != ' ')) flags += c;
    while (!flags.empty() && flags.back() == ' ') flags.pop_back();
    return flags;
  }
  const compiler::CompileOptions defaults;
  return join(compiler::compiler_words(defaults)) + " " + join(compiler::compiler_flags(defaults));
}

int run_bench(const BenchOptions& opt) {
  OpenedGame game;
  if (int code = open_game(opt.file, opt.engine, game); code != kExitOk) return code;
  std::vector<uint8_t> start;
  if (int code = setup_state(game, opt.seed, opt.setups, start); code != kExitOk) return code;
  const engine::Engine& e = *game.engine;
  const std::string built = build_text(game);

  std::vector<Run> runs;
  StopOnInterrupt interrupt;
  BenchProgress progress;
  progress.quiet = opt.quiet;
  progress.runs = opt.runs;
  if (!opt.quiet) fmt::print(stderr, "bench: {} run{}\n", opt.runs, opt.runs == 1 ? "" : "s");
  bool interrupted = false;
  int whole_runs = 0;
  for (int r = 0; r < opt.runs; ++r) {
    Run run;
    engine::Status st = run_once(e, start, opt, interrupt, run, r, progress);
    if (!st.ok) {
      fmt::print(stderr, "{}\n", engine_error_line(opt.file, st.message));
      return kExitInputError;
    }
    interrupted = interrupt.stopped();
    // A run cut short is kept only when no whole run finished: its counts are then marked.
    if (!interrupted || runs.empty()) runs.push_back(run);
    if (interrupted) break;
    ++whole_runs;
  }
  const bool complete = !interrupted;
  const Run& first = runs.front();
  std::vector<double> perft_times, playout_times;
  for (const Run& r : runs) {
    perft_times.push_back(r.perft_seconds);
    playout_times.push_back(r.playout_seconds);
  }
  const double perft_secs = median(perft_times);
  const double playout_secs = median(playout_times);
  const int measured = static_cast<int>(runs.size());

  if (opt.json) {
    nlohmann::json j{{"file", opt.file},
                     {"title", e.info().title},
                     {"engine", opt.engine},
                     {"engine_origin", game.engine_origin},
                     {"build", built},
                     {"seed", opt.seed},
                     {"runs", measured},
                     {"time", "median CPU seconds of the measuring thread"},
                     {"perft", {{"depth", static_cast<int>(first.paths.size())},
                                {"paths", first.paths},
                                {"nodes", first.nodes()},
                                {"seconds", perft_secs},
                                {"nodes_per_second", rate(first.nodes(), perft_secs)}}},
                     {"playouts", {{"games", first.games},
                                   {"plies", first.plies},
                                   {"seconds", playout_secs},
                                   {"playouts_per_second", rate(first.games, playout_secs)},
                                   {"plies_per_second", rate(first.plies, playout_secs)}}},
                     {"complete", complete}};
    fmt::print("{}\n", j.dump(2));
  } else {
    const std::string title = dsl::escape_for_terminal(e.info().title);
    fmt::print("{} ({})\n", title, dsl::escape_for_terminal(opt.file));
    fmt::print("engine: {}; built with: {}\n", game.engine_note, built);
    fmt::print("median of {} run{}, CPU time of the measuring thread{}\n", measured,
               measured == 1 ? "" : "s", complete ? "" : " (interrupted: finished work only)");
    std::string paths;
    for (uint64_t p : first.paths) paths += " " + std::to_string(p);
    fmt::print("perft depth 1..{}:{}\n", first.paths.size(), paths);
    fmt::print("perft: {} nodes in {:.4f} s, {:.0f} nodes/s\n", first.nodes(), perft_secs,
               rate(first.nodes(), perft_secs));
    fmt::print("playouts: {} games, {} plies in {:.4f} s, {:.0f} playouts/s, {:.0f} plies/s\n",
               first.games, first.plies, playout_secs, rate(first.games, playout_secs),
               rate(first.plies, playout_secs));
  }
  if (interrupted) {
    fmt::print(stderr, "bench: interrupted after {} whole run{}\n", whole_runs,
               whole_runs == 1 ? "" : "s");
    return kExitInterrupted;
  }
  return kExitOk;
}

}  // namespace

void add_bench(CLI::App& app, int& result) {
  auto opt = std::make_shared<BenchOptions>();
  CLI::App* cmd = app.add_subcommand(
      "bench", "Measure random playouts/s and perft nodes/s of a rules file's engine");
  cmd->add_option("file", opt->file, "Rules file (- reads standard input)")->required();
  cmd->add_option("--engine", opt->engine, "compiled (generated C++) or interp (interpreter)")
      ->check(CLI::IsMember({"compiled", "interp"}));
  cmd->add_option("--seed", opt->seed, "Seed of the setup and of the playouts' moves");
  cmd->add_option("--setup", opt->setups, "Setup value name=value (repeatable)");
  cmd->add_option("--games", opt->games, "Random playouts per run (0: none)")->check(CLI::Range(0, 1 << 30));
  cmd->add_option("--depth", opt->depth, "Perft to this depth, every depth from 1 (0: none)")
      ->check(CLI::Range(0, 1000));
  cmd->add_option("--runs", opt->runs, "Runs; the times printed are their medians")->check(CLI::Range(1, 1000));
  cmd->add_option("--max-plies", opt->max_plies, "Cut a playout off after this many moves")
      ->check(CLI::Range(1, 1 << 30));
  cmd->add_flag("--json", opt->json, "Print the result as JSON");
  cmd->add_flag("--quiet", opt->quiet, "No progress on stderr");
  cmd->callback([opt, &result] { result = run_bench(*opt); });
}

}  // namespace rulebook::cli
