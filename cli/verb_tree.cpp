// `rulebook tree FILE`: the first plies from the start (or from a position of the seeded
// random game) as DOT, JSON, SVG or PNG.
#include <cstdio>
#include <fstream>
#include <string>

#include <fmt/core.h>

#include "cli/open_game.h"
#include "cli/verbs.h"
#include "dsl/diagnostics.h"
#include "explorer/metrics.h"
#include "explorer/tree.h"

namespace rulebook::cli {
namespace {

struct TreeVerbOptions {
  std::string file;
  std::string engine = "compiled";
  uint64_t seed = 1;
  int plies = 0;
  explorer::TreeOptions tree;
  int cell = 9;
  std::string format = "svg";
  std::string output;
};

int run_tree(const TreeVerbOptions& opt) {
  OpenedGame game;
  if (int code = open_game(opt.file, opt.engine, game); code != kExitOk) return code;
  explorer::GameEnd g = explorer::seeded_game(*game.engine, opt.seed, opt.plies);
  if (!g.status.ok) {
    fmt::print(stderr, "{}\n", engine_error_line(opt.file, g.status.message));
    return kExitInputError;
  }
  explorer::GameTree t = explorer::build_tree(*game.engine, g.after.data(), opt.tree);
  if (!t.status.ok) {
    // The partial tree is still written; the message says why it stopped.
    if (t.truncated)
      fmt::print(stderr, "{}: warning: {}\n", dsl::escape_for_terminal(opt.file), dsl::escape_for_terminal(t.status.message));
    else
      fmt::print(stderr, "{}\n", engine_error_line(opt.file, t.status.message));
    if (!t.truncated) return kExitInputError;
  }
  fmt::print(stderr, "tree: {} nodes, {} edges\n", boost::num_vertices(t.graph), boost::num_edges(t.graph));
  std::string out;
  if (opt.format == "json") {
    out = explorer::tree_json(t, *game.engine);
  } else {
    explorer::TreeStyle style;
    style.cell_points = opt.cell;
    style.title = fmt::format("{}: depth {}{}{}", game.engine->info().title, opt.tree.depth,
                              opt.tree.breadth ? fmt::format(", {} moves per node", opt.tree.breadth) : "",
                              opt.tree.merge ? ", transpositions merged" : "");
    out = explorer::tree_dot(t, *game.engine, *game.program, style);
    if (opt.format != "dot") {
      std::string drawn;
      engine::Status st = explorer::render_dot(out, opt.format, drawn);
      if (!st.ok) {
        fmt::print(stderr, "{}: internal error: {}\n", opt.file, st.message);
        return kExitInternal;
      }
      out = std::move(drawn);
    }
  }
  return write_output(opt.output, out);
}

}  // namespace

void add_tree(CLI::App& app, int& result) {
  auto opt = std::make_shared<TreeVerbOptions>();
  CLI::App* cmd = app.add_subcommand("tree", "Draw the game tree of the first plies");
  cmd->add_option("file", opt->file, "Rules file (- reads standard input)")->required();
  cmd->add_option("--engine", opt->engine, "compiled (generated C++) or interp (interpreter)")
      ->check(CLI::IsMember({"compiled", "interp"}));
  cmd->add_option("--seed", opt->seed, "Seed of the setup and of the moves played first");
  cmd->add_option("--plies", opt->plies, "Start after this many moves of the seeded random game")
      ->check(CLI::NonNegativeNumber);
  cmd->add_option("--depth", opt->tree.depth, "Plies below the start")->check(CLI::Range(0, 64));
  cmd->add_option("--breadth", opt->tree.breadth, "Children per node, the rest summarised (0: all)")
      ->check(CLI::NonNegativeNumber);
  cmd->add_flag("--merge", opt->tree.merge, "One node per distinct state (transpositions merged)");
  cmd->add_option("--max-nodes", opt->tree.max_nodes, "Stop growing the tree at this many nodes");
  cmd->add_option("--cell", opt->cell, "Points per board cell in the nodes (0: no boards)")->check(CLI::Range(0, 40));
  cmd->add_option("--format", opt->format, "dot, json, svg or png")->check(CLI::IsMember({"dot", "json", "svg", "png"}));
  cmd->add_option("-o,--output", opt->output, "Output file (default: standard output)");
  cmd->callback([opt, &result] { result = run_tree(*opt); });
}

}  // namespace rulebook::cli
