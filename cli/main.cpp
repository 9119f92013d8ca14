// Entry point of `rulebook`: parses the command line, runs one verb, picks the exit code.
#include <cstdio>
#include <exception>

#include <CLI/CLI.hpp>
#include <fmt/core.h>

#include "cli/verbs.h"

int main(int argc, char** argv) {
  using namespace rulebook::cli;
  CLI::App app{"rulebook: write, check, run, prove and draw board-game rules", "rulebook"};
  app.require_subcommand(1);
  app.set_version_flag("--version", "rulebook 0.1");
  int result = kExitOk;
  add_check(app, result);
  add_fmt(app, result);
  add_report(app, result);
  add_compile(app, result);
  add_plan(app, result);
  add_play(app, result);
  add_draw(app, result);
  add_tree(app, result);
  add_explore(app, result);
  add_prove(app, result);
  add_bench(app, result);
  add_lint(app, result);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    int code = app.exit(e);
    return code == 0 ? kExitOk : kExitUsage;
  } catch (const std::exception& e) {
    fmt::print(stderr, "rulebook: internal error: {}\n", e.what());
    return kExitInternal;
  }
  return result;
}
