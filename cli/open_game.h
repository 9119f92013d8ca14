// Loading a rules file into a program and an engine of the user's choice, for the verbs.
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <CLI/CLI.hpp>

#include "compiler/runtime/engine.h"
#include "compiler/ir/ir.h"
#include "compiler/plan/engine_plan.h"
#include "dsl/source.h"

namespace rulebook::cli {

/// A rules file ready to run.
struct OpenedGame {
  dsl::SourceSet sources;
  std::shared_ptr<const ir::Program> program;
  std::unique_ptr<engine::Engine> engine;
  std::string engine_note;  ///< "interpreter", "compiled (linked)", "compiled (cached)", ...
  std::string engine_origin;  ///< "linked", "compiled now", "from the cache" or "interpreter"
};

/// Loads and lowers `path`; prints diagnostics to stderr. Returns an exit code.
int open_program(const std::string& path, OpenedGame& out);

/// open_program, then the engine: "compiled" (linked, cached or compiled now, with
/// `passes` of its plan off) or "interp".
int open_game(const std::string& path, const std::string& engine_kind, OpenedGame& out,
              const compiler::plan::PassSwitches& passes = {});

/// The engine of a program open_program loaded (as open_game makes it).
int open_engine(const std::string& path, const std::string& engine_kind, OpenedGame& out,
                const compiler::plan::PassSwitches& passes = {});

/// Adds `--no-pass NAME` (repeatable) to a verb: the engine plan's passes to switch off.
void add_no_pass_option(CLI::App* cmd, std::vector<std::string>& names);
/// The switches `--no-pass` asked for; an unknown name is printed and gives kExitUsage.
int parse_no_pass(const std::vector<std::string>& names, compiler::plan::PassSwitches& out);

/// Writes a verb's output to `path`, or to stdout when `path` is empty or "-"; a file
/// already holding exactly `text` is left untouched (so builds depending on it do not
/// rerun). Returns an exit code; a file that cannot be written is reported by name.
int write_output(const std::string& path, const std::string& text);

/// An engine's error as one line for the terminal: a run-time error of the rules is
/// already located (`file:line:col: error: text`); any other is put under `path`.
std::string engine_error_line(const std::string& path, const std::string& message);

/// Sets up the initial state with `--seed` and `--setup name=value` overrides.
int setup_state(const OpenedGame& game, uint64_t seed,
                const std::vector<std::string>& setups, std::vector<uint8_t>& state);

/// Splits each `--setup name=value` into `out.values`; a malformed one is printed and
/// gives kExitUsage.
int parse_setup_args(const std::vector<std::string>& setups, engine::Setup& out);

/// `parse_setup_args`, then checks every value against the program's setup (a name it
/// lacks, an entry past its data file, a value outside the type): printed under `file`,
/// kExitInputError.
int checked_setup_args(const std::string& file, const ir::Program& program,
                       const std::vector<std::string>& setups, engine::Setup& out);

}  // namespace rulebook::cli
