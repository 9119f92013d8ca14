// The verbs of the `rulebook` command line: each registers its options and runs.
#pragma once

#include <CLI/CLI.hpp>

namespace rulebook::cli {

/// Exit codes shared by every verb; only main() returns them to the shell.
enum ExitCode : int {
  kExitOk = 0,
  kExitInputError = 1,  ///< a rule file (or other input) is wrong, or an output cannot be written
  kExitUsage = 2,       ///< the command line is wrong
  kExitInternal = 3,    ///< a bug in rulebook
  kExitMemory = 4,      ///< stopped by --max-memory; what was finished is printed
  kExitVacuous = 5,     ///< prove: nothing refuted or unknown, but a property's set is empty
  kExitInterrupted = 130,  ///< stopped by Ctrl-C; what was finished is printed
};

/// Each `add_*` attaches a subcommand to `app`; when the subcommand runs it stores its
/// exit code in `result`.
void add_check(CLI::App& app, int& result);
void add_fmt(CLI::App& app, int& result);
void add_report(CLI::App& app, int& result);
void add_compile(CLI::App& app, int& result);
void add_plan(CLI::App& app, int& result);
void add_play(CLI::App& app, int& result);
void add_diff(CLI::App& app, int& result);
void add_draw(CLI::App& app, int& result);
void add_tree(CLI::App& app, int& result);
void add_explore(CLI::App& app, int& result);
void add_prove(CLI::App& app, int& result);
void add_solve(CLI::App& app, int& result);
void add_puzzle(CLI::App& app, int& result);
void add_deduce(CLI::App& app, int& result);
void add_bench(CLI::App& app, int& result);
void add_lsp(CLI::App& app, int& result);
/// Puts usage examples at the foot of the help of `app` and of each verb.
void add_examples(CLI::App& app);
void add_lint(CLI::App& app, int& result);

}  // namespace rulebook::cli
