// `rulebook ir FILE` and `rulebook compile FILE -o X.cpp`: the IR and the generated C++.
#include <cstdio>
#include <fstream>
#include <string>

#include <fmt/core.h>

#include "cli/open_game.h"
#include "cli/verbs.h"
#include "compiler/codegen/emit_cpp.h"
#include "compiler/ir/ir_print.h"

namespace rulebook::cli {
namespace {

struct CompileOptions {
  std::string file;
  std::string output;
  std::vector<std::string> no_pass;
};

int run_ir(const CompileOptions& opt) {
  OpenedGame game;
  if (int code = open_program(opt.file, game); code != kExitOk) return code;
  fmt::print("{}", compiler::print_program(*game.program, game.sources));
  return kExitOk;
}

int run_compile(const CompileOptions& opt) {
  OpenedGame game;
  if (int code = open_program(opt.file, game); code != kExitOk) return code;
  compiler::plan::PassSwitches passes;
  if (int code = parse_no_pass(opt.no_pass, passes); code != kExitOk) return code;
  compiler::EmittedCpp cpp = compiler::emit_cpp(*game.program, game.sources, passes);
  if (!cpp.error.empty()) {
    fmt::print(stderr, "{}: internal error: {}\n", opt.file, cpp.error);
    return kExitInternal;
  }
  return write_output(opt.output, cpp.source);
}

}  // namespace

void add_compile(CLI::App& app, int& result) {
  auto ir = std::make_shared<CompileOptions>();
  CLI::App* ir_cmd = app.add_subcommand("ir", "Print the lowered IR of a rules file");
  ir_cmd->add_option("file", ir->file, "Rules file (- reads standard input)")->required();
  ir_cmd->callback([ir, &result] { result = run_ir(*ir); });

  auto opt = std::make_shared<CompileOptions>();
  CLI::App* cmd = app.add_subcommand("compile", "Generate the C++ engine of a rules file");
  cmd->add_option("file", opt->file, "Rules file (- reads standard input)")->required();
  cmd->add_option("-o,--output", opt->output, "Where to write the C++ (default: stdout)");
  add_no_pass_option(cmd, opt->no_pass);
  cmd->callback([opt, &result] { result = run_compile(*opt); });
}

}  // namespace rulebook::cli
