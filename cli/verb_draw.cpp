// `rulebook draw FILE`: a board diagram (SVG or text) of the start, or of the position
// after N plies of the seeded random game, with the last move, captures and annotations
// computed from the rule file's definitions (`--layer`).
#include <cstdio>
#include <fstream>
#include <limits>
#include <string>
#include <vector>

#include <fmt/core.h>

#include "cli/open_game.h"
#include "cli/verbs.h"
#include "explorer/metrics.h"
#include "render/annotate.h"
#include "render/board.h"

namespace rulebook::cli {
namespace {

struct DrawVerbOptions {
  std::string file;
  std::string engine = "compiled";
  uint64_t seed = 1;
  int plies = 0;
  bool to_end = false;
  std::vector<std::string> setups;
  std::vector<std::string> layers;
  std::string format = "svg";
  std::string output;
  int cell = 36;
};

int run_draw(const DrawVerbOptions& opt) {
  std::vector<render::Layer> layers;
  for (const std::string& text : opt.layers) {
    render::Layer l;
    std::string error;
    if (!render::parse_layer(text, l, error)) {
      fmt::print(stderr, "error: {}\n", error);
      return kExitUsage;
    }
    layers.push_back(l);
  }
  OpenedGame game;
  if (int code = open_game(opt.file, opt.engine, game); code != kExitOk) return code;
  engine::Setup setup;
  for (const std::string& kv : opt.setups) {
    const size_t eq = kv.find('=');
    if (eq == std::string::npos || eq == 0) {
      fmt::print(stderr, "error: --setup takes name=value, got '{}'\n", kv);
      return kExitUsage;
    }
    setup.values.emplace_back(kv.substr(0, eq), kv.substr(eq + 1));
  }
  const int plies = opt.to_end ? std::numeric_limits<int>::max() : opt.plies;
  explorer::GameEnd g = explorer::seeded_game(*game.engine, opt.seed, plies, setup);
  if (!g.status.ok) {
    fmt::print(stderr, "{}\n", engine_error_line(opt.file, g.status.message));
    return kExitInputError;
  }
  render::Annotations notes;
  if (!layers.empty()) {
    render::Annotator annotator(*game.program, game.sources);
    const engine::Status st = annotator.draw(layers, g.after.data(), notes);
    if (!st.ok) {
      fmt::print(stderr, "error: {}\n", st.message);
      return kExitInputError;
    }
  }
  render::DrawOptions d;
  d.cell = opt.cell;
  d.title = fmt::format("{}: {}", game.engine->info().title,
                        g.plies == 0 ? std::string("start") : fmt::format("after {} moves{}", g.plies, g.over ? ", over" : ""));
  if (g.plies > 0) d.last = render::LastMove{g.last, g.before.data()};
  if (!layers.empty()) d.annotations = &notes;
  const std::string out = opt.format == "svg" ? render::board_svg(*game.program, g.after.data(), d)
                                              : render::board_text(*game.program, g.after.data(), d);
  return write_output(opt.output, out);
}

}  // namespace

void add_draw(CLI::App& app, int& result) {
  auto opt = std::make_shared<DrawVerbOptions>();
  CLI::App* cmd = app.add_subcommand("draw", "Draw a board of a seeded game as SVG or text");
  cmd->add_option("file", opt->file, "Rules file (- reads standard input)")->required();
  cmd->add_option("--engine", opt->engine, "compiled (generated C++) or interp (interpreter)")
      ->check(CLI::IsMember({"compiled", "interp"}));
  cmd->add_option("--seed", opt->seed, "Seed of the setup and of the move choices");
  cmd->add_option("--setup", opt->setups, "Setup value name=value (repeatable)");
  cmd->add_option("--plies", opt->plies, "Moves of the seeded random game to play first")->check(CLI::NonNegativeNumber);
  cmd->add_flag("--end", opt->to_end, "Play the seeded random game to its end");
  cmd->add_option("--layer", opt->layers,
                  "Annotation from a define, kind:define[:option...] (kinds: cells, line-cells, points, "
                  "cell-labels, group-labels; see docs/report.md)");
  cmd->add_option("--format", opt->format, "svg or text")->check(CLI::IsMember({"svg", "text"}));
  cmd->add_option("--cell", opt->cell, "Pixels per cell")->check(CLI::Range(8, 200));
  cmd->add_option("-o,--output", opt->output, "Output file (default: standard output)");
  cmd->callback([opt, &result] { result = run_draw(*opt); });
}

}  // namespace rulebook::cli
