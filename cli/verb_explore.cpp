// `rulebook explore`: the states of a game by depth, exactly and up to its symmetries.
#include <chrono>
#include <cstdio>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include <fmt/core.h>
#include <nlohmann/json.hpp>

#include "cli/explore_list.h"
#include "cli/interrupt.h"
#include "cli/open_game.h"
#include "cli/output_file.h"
#include "cli/verbs.h"
#include "dsl/diagnostics.h"
#include "explorer/end_classes.h"
#include "explorer/enumerate.h"
#include "explorer/symmetry.h"

namespace rulebook::cli {
namespace {

struct ExploreOptions {
  std::string file;
  std::string engine = "compiled";
  uint64_t seed = 1;
  std::vector<std::string> setups;
  int depth = -1;
  uint64_t max_states = 0;
  std::string max_memory;
  int threads = 0;
  bool no_symmetry = false;
  bool json = false;
  bool quiet = false;
  bool complete_classes = false;
  std::string list;                  ///< --list FILE
  std::vector<std::string> observe;  ///< --observe NAME
  uint64_t list_max = 1000000;       ///< --list-max N
};

/// "512M", "4G", "100000": bytes; 0 and an error message when unreadable.
uint64_t parse_size(const std::string& text, std::string& error) {
  size_t used = 0;
  double v = 0;
  try {
    v = std::stod(text, &used);
  } catch (...) {
    error = "cannot read the size '" + text + "' (e.g. 512M, 4G)";
    return 0;
  }
  std::string unit = text.substr(used);
  double scale = 1;
  if (unit == "K" || unit == "k" || unit == "KB") scale = 1024.0;
  else if (unit == "M" || unit == "MB") scale = 1024.0 * 1024;
  else if (unit == "G" || unit == "GB") scale = 1024.0 * 1024 * 1024;
  else if (!unit.empty()) {
    error = "unknown unit in the size '" + text + "' (use K, M or G)";
    return 0;
  }
  if (v <= 0) {
    error = "the size '" + text + "' must be positive";
    return 0;
  }
  return uint64_t(v * scale);
}

std::string phase_cells(const std::vector<uint64_t>& per_phase) {
  std::string s;
  for (uint64_t n : per_phase) s += fmt::format(" {:>12}", n);
  return s;
}

/// --complete-classes: the complete states of --depth moves up to the maps of the board.
int run_complete_classes(const ExploreOptions& opt, const OpenedGame& game, const std::vector<uint8_t>& root,
                         uint64_t max_memory) {
  if (opt.depth <= 0) {
    fmt::print(stderr, "rulebook explore: --complete-classes needs --depth N (the moves of a complete state)\n");
    return kExitUsage;
  }
  explorer::EndClassOptions o;
  o.depth = opt.depth;
  o.threads = opt.threads > 0 ? opt.threads : int(std::max(1u, std::thread::hardware_concurrency()));
  StopOnInterrupt interrupt;
  o.interrupt = interrupt.flag();
  o.max_memory = max_memory;
  if (!opt.quiet)
    o.progress = [](const explorer::EndClassProgress& pr) {
      fmt::print(stderr, "  {:.0f} s: {} of {} subtrees (depth {}), {} paths of full depth, {} orbits, {:.0f} MB\n",
                 pr.perft.seconds, pr.perft.subtrees_done, pr.perft.subtrees, pr.perft.split_depth, pr.perft.deepest,
                 pr.orbits, double(pr.bytes) / 1e6);
    };
  const explorer::EndClassResult r = explorer::end_classes(*game.program, game.sources, *game.engine, root.data(), o);
  if (opt.json) fmt::print("{}\n", explorer::end_classes_json(r, opt.depth).dump(2));
  else fmt::print("{}\n{}", game.program->title, explorer::end_classes_text(r, opt.depth));
  if (interrupt.flag()->load()) return kExitInterrupted;
  return r.error.empty() ? kExitOk : kExitInputError;
}

int run_explore(const ExploreOptions& opt) {
  std::string size_error;
  const uint64_t max_memory = opt.max_memory.empty() ? 0 : parse_size(opt.max_memory, size_error);
  if (!size_error.empty()) {
    fmt::print(stderr, "rulebook explore: --max-memory: {}\n", size_error);
    return kExitUsage;
  }
  OpenedGame game;
  if (int code = open_game(opt.file, opt.engine, game); code != kExitOk) return code;
  std::vector<uint8_t> root;
  if (int code = setup_state(game, opt.seed, opt.setups, root); code != kExitOk) return code;
  const ir::Program& p = *game.program;
  const engine::Engine& e = *game.engine;
  if (!opt.quiet) fmt::print(stderr, "engine: {}\n", game.engine_note);

  if (opt.complete_classes) return run_complete_classes(opt, game, root, max_memory);
  if (!opt.observe.empty() && opt.list.empty()) {
    fmt::print(stderr, "rulebook explore: --observe needs --list FILE (the states it is evaluated on)\n");
    return kExitUsage;
  }
  if (!opt.list.empty() && opt.depth < 0) {
    fmt::print(stderr, "rulebook explore: --list needs --depth N (the depth whose states it lists)\n");
    return kExitUsage;
  }
  std::vector<int> observed;
  if (std::string why = observed_defines(p, opt.observe, observed); !why.empty()) {
    fmt::print(stderr, "rulebook explore: {}\n", why);
    return kExitUsage;
  }
  StateList listed(p, game.sources, observed);
  listed.limit(opt.list_max);
  explorer::SurveyOptions so;
  so.symmetry = !opt.no_symmetry;
  so.max_depth = opt.depth;
  so.max_states = opt.max_states;
  so.max_memory = max_memory;
  so.threads = opt.threads > 0 ? opt.threads : int(std::max(1u, std::thread::hardware_concurrency()));
  StopOnInterrupt interrupt;
  so.interrupt = interrupt.flag();
  if (!opt.list.empty()) so.visit_last = [&listed](const uint8_t* state) { listed.add(state); };
  if (!opt.quiet)
    so.progress = [](const explorer::Progress& pr) {
      fmt::print(stderr, "depth {}: expanded {}/{} of depth {}, {} records, {:.0f} states/s, {:.1f} MB, {:.0f} s\n",
                 pr.depth, pr.expanded, pr.frontier, pr.depth - 1, pr.records,
                 pr.seconds > 0 ? double(pr.records) / pr.seconds : 0.0,
                 double(pr.memory) / (1024.0 * 1024.0), pr.seconds);
    };
  const explorer::Survey s = explorer::survey(p, game.sources, e, root.data(), so);
  const explorer::SymmetryGroup& group = s.group;
  const explorer::ExploreResult& r = s.result;
  // A declared symmetry that the rules refute is a false statement in the rule file.
  dsl::Diagnostics diags;
  group.refutations(diags);
  if (diags.has_errors()) fmt::print(stderr, "{}", diags.render(game.sources));

  if (opt.json) {
    fmt::print("{}\n", explorer::survey_json(p, s));
  } else {
    fmt::print("{}\n", p.title);
    fmt::print("state: {} bytes, packed in {} bits ({} bytes){}\n", p.state_bytes, r.key_bits,
               r.key_bytes, r.constant_vars.empty() ? "" : "; constant during play:");
    for (const std::string& v : r.constant_vars) fmt::print("  {}\n", v);
    // A large group by its generators: its elements' names are products of theirs.
    const bool by_generators = group.elements.size() > 8 && group.generators.size() > 1;
    std::string used;
    for (const explorer::Transform& t : by_generators ? group.generators : group.elements)
      if (!by_generators || !t.is_identity()) used += (used.empty() ? "" : ", ") + t.name;
    fmt::print("symmetry group ({} elements){}: {}\n", group.elements.size(), by_generators ? ", generated by" : "",
               used);
    if (!group.note.empty()) fmt::print("  note: {}\n", group.note);
    for (const explorer::SymmetryCheck& c : group.checks)
      if (!c.kept) fmt::print("  {}{}: {}: {}\n", c.declared ? "declared " : "", c.transform.name,
                              c.refuted ? "refuted" : "not used", c.reason);
    fmt::print("\n{:>5} {:>14} {:>12} {:>12} {:>12} {:>12}", "depth", "paths", "distinct",
               "symmetric", "terminal", "term. sym.");
    for (const ir::Phase& ph : p.phases) fmt::print(" {:>12}", ph.name);
    fmt::print("\n");
    for (const explorer::DepthCount& d : r.depths) {
      fmt::print("{:>5} {:>14} {:>12} {:>12} {:>12} {:>12}{}{}\n", d.depth,
                 d.paths_known ? std::to_string(d.paths) : "overflow", d.distinct, d.symmetric,
                 d.terminal, d.terminal_symmetric, phase_cells(d.per_phase),
                 d.class_sum == d.distinct ? "" : "  (classes not whole: no symmetry of these states)");
    }
    for (const explorer::DepthCount& d : r.depths) {
      if (d.end_symmetries.empty()) continue;
      std::string names;
      for (const std::string& n : d.end_symmetries) names += ", " + n;
      fmt::print("depth {}: the {} terminal states as a set are also kept by{}: a group of {} elements, {} {}\n",
                 d.depth, d.terminal, names.substr(1), d.end_group_order, d.terminal_end_classes,
                 d.terminal_end_classes == 1 ? "class" : "classes");
      for (const auto& [name, why] : d.end_rejected) fmt::print("  not kept: {}: {}\n", name, why);
    }
    // Complete games: the paths that end in a terminal state, by their length.
    for (const explorer::DepthCount& d : r.depths)
      if (d.terminal > 0)
        fmt::print("complete games of {} moves: {}\n", d.depth, explorer::complete_games_text(d.ends, d.ends_exact));
    fmt::print("complete games in all: {}{}\n", explorer::complete_games_text(r.total_ends, r.total_ends_exact),
               r.stopped.empty() ? "" : fmt::format(" (to depth {})", r.depths.empty() ? 0 : r.depths.back().depth));
    fmt::print("\ntotal distinct states: {}\n", r.total_distinct);
    if (r.stopped.empty()) fmt::print("every reachable state was explored\n");
    else if (r.stopped == "depth") fmt::print("stopped at the depth bound\n");
    else if (r.stopped == "repeats")
      fmt::print("stopped: depth {} holds the states of depth {} again, so the moves cycle and every later "
                 "depth repeats earlier ones (give --depth to count their paths further)\n",
                 r.depths.back().depth, r.repeats_depth);
    else if (r.stopped == "error")
      fmt::print("stopped by an engine error: {}\n", dsl::escape_for_terminal(r.status.message));
    else fmt::print("stopped ({}) while building depth {}; the depths above are complete\n", r.stopped,
                    r.depths.size());
  }
  if (!opt.quiet)
    fmt::print(stderr, "explore: {} states in {:.2f} s, {} bytes per record, peak {:.1f} MB\n",
               r.total_distinct, r.seconds, r.record_bytes, double(r.peak_memory) / (1024.0 * 1024.0));
  if (r.stopped == "error" || diags.has_errors()) return kExitInputError;
  if (!opt.list.empty()) {
    // Written only when the depth was built whole: a list is every state of it or nothing.
    const bool whole = !r.depths.empty() && r.depths.back().depth == opt.depth &&
                       (r.stopped.empty() || r.stopped == "depth");
    std::function<void(size_t, size_t)> listing;
    if (!opt.quiet)
      listing = [start = std::chrono::steady_clock::now()](size_t done, size_t total) {
        const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        fmt::print(stderr, "listing: {} of {} states observed, {:.0f} states/s, {:.0f} s\n", done, total,
                   s > 0 ? double(done) / s : 0.0, s);
      };
    const std::string text = whole && !listed.overflowed() ? listed.json(opt.file, opt.depth, interrupt.flag(), listing) : "";
    if (whole && listed.overflowed()) {
      fmt::print(stderr, "rulebook explore: depth {} has {} states, more than --list-max {}: {} not written\n",
                 opt.depth, listed.seen(), opt.list_max, opt.list);
      return kExitInputError;
    }
    if (whole && text.empty()) {
      fmt::print(stderr, "rulebook explore: interrupted while listing: {} not written\n", opt.list);
      return kExitInterrupted;
    }
    if (whole) {
      if (std::string err = write_file_atomically(opt.list, text); !err.empty()) {
        fmt::print(stderr, "rulebook explore: {}\n", err);
        return kExitInputError;
      }
      if (!opt.quiet) fmt::print(stderr, "explore: {} states of depth {} listed in {}\n", listed.size(), opt.depth,
                                 opt.list);
    } else {
      fmt::print(stderr, "rulebook explore: depth {} was not built whole: nothing listed, {} not written\n",
                 opt.depth, opt.list);
      if (r.stopped.empty() || r.stopped == "depth") return kExitInputError;  // the game ended before it
    }
  }
  // The depths printed are complete either way; the exit code says the run was cut short.
  if (r.stopped == "interrupted") {
    fmt::print(stderr, "explore: interrupted while building depth {}; the depths printed are complete\n",
               r.depths.size());
    return kExitInterrupted;
  }
  if (r.stopped == "memory") {
    fmt::print(stderr, "explore: stopped by --max-memory {} while building depth {}; the depths printed are "
                       "complete\n", opt.max_memory, r.depths.size());
    return kExitMemory;
  }
  return kExitOk;
}

}  // namespace

void add_explore(CLI::App& app, int& result) {
  auto opt = std::make_shared<ExploreOptions>();
  CLI::App* cmd = app.add_subcommand("explore", "Count the states of a game by depth, with symmetry");
  cmd->add_option("file", opt->file, "Rules file (- reads standard input)")->required();
  cmd->add_option("--depth", opt->depth, "Last depth to build (default: until no state is left, or a depth repeats the states of an earlier one)")
      ->check(CLI::Range(0, 100000));
  cmd->add_option("--max-states", opt->max_states, "Stop before holding more states");
  cmd->add_option("--max-memory", opt->max_memory, "Budget for stored states (e.g. 512M, 4G)");
  cmd->add_option("--setup", opt->setups, "Setup value name=value (repeatable)");
  cmd->add_option("--seed", opt->seed, "Seed of the setup");
  cmd->add_option("--engine", opt->engine, "compiled (generated C++) or interp (interpreter)")
      ->check(CLI::IsMember({"compiled", "interp"}));
  cmd->add_option("--threads", opt->threads, "Worker threads (default: the cores)")->check(CLI::Range(1, 256));
  cmd->add_flag("--no-symmetry", opt->no_symmetry, "Do not look for symmetries");
  cmd->add_flag("--complete-classes", opt->complete_classes,
                "Count the complete states of exactly --depth moves up to the maps of the board, as the rules "
                "observe them (by least forms and by Burnside's lemma)");
  cmd->add_option("--list", opt->list,
                  "Write every state of depth --depth to this JSON file, sorted, with the --observe values");
  cmd->add_option("--list-max", opt->list_max, "With --list: the most states listed (default 1000000); a depth "
                  "with more is not listed");
  cmd->add_option("--observe", opt->observe,
                  "With --list: a define of no parameter, or of one over a finite type, evaluated on every "
                  "listed state (repeatable)");
  cmd->add_flag("--json", opt->json, "Print the result as JSON");
  cmd->add_flag("--quiet", opt->quiet, "No progress on stderr");
  cmd->callback([opt, &result] { result = run_explore(*opt); });
}

}  // namespace rulebook::cli
