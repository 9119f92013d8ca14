// `rulebook plan FILE`: the engine plan of a rules file as text, a section per pass.
#include <string>
#include <vector>

#include <fmt/core.h>

#include "cli/open_game.h"
#include "cli/verbs.h"
#include "compiler/plan/engine_plan.h"

namespace rulebook::cli {
namespace {

struct PlanOptions {
  std::string file;
  std::string output;
  std::vector<std::string> no_pass;
};

int run_plan(const PlanOptions& opt) {
  compiler::plan::PassSwitches passes;
  if (int code = parse_no_pass(opt.no_pass, passes); code != kExitOk) return code;
  OpenedGame game;
  if (int code = open_program(opt.file, game); code != kExitOk) return code;
  const compiler::plan::EnginePlan plan = compiler::plan::make_plan(*game.program, passes);
  return write_output(opt.output, compiler::plan::print_plan(plan, *game.program));
}

}  // namespace

void add_plan(CLI::App& app, int& result) {
  auto opt = std::make_shared<PlanOptions>();
  CLI::App* cmd = app.add_subcommand("plan", "Print the engine plan of a rules file, pass by pass");
  cmd->add_option("file", opt->file, "Rules file (- reads standard input)")->required();
  cmd->add_option("-o,--output", opt->output, "Where to write the plan (default: stdout)");
  add_no_pass_option(cmd, opt->no_pass);
  cmd->callback([opt, &result] { result = run_plan(*opt); });
}

}  // namespace rulebook::cli
