// Loading a rules file into a program and an engine for the verbs.
#include "cli/open_game.h"

#include <cstdio>
#include <fstream>

#include <fmt/core.h>

#include "cli/colour.h"
#include "cli/output_file.h"
#include "cli/run_error_out.h"
#include "cli/stdin_input.h"
#include "cli/verbs.h"
#include "compiler/interp/interpret.h"
#include "compiler/ir/text.h"
#include "compiler/load/load_engine.h"
#include "compiler/lower/lower.h"
#include "dsl/diagnostics.h"

namespace rulebook::cli {

int open_program(const std::string& path, OpenedGame& out) {
  dsl::Diagnostics diags;
  std::optional<ir::Program> program;
  if (is_stdin(path)) {
    std::string text, error;
    if (!read_stdin(text, error)) {
      fmt::print(stderr, "{}: error: {}\n", kStdinName, error);
      return kExitInputError;
    }
    program = compiler::load_program_text(kStdinName, text, out.sources, diags);
  } else {
    program = compiler::load_program(path, out.sources, diags);
  }
  print_diagnostics(diags.render(out.sources));
  if (!program || diags.has_errors()) return kExitInputError;
  out.program = std::make_shared<const ir::Program>(std::move(*program));
  return kExitOk;
}

int open_game(const std::string& path, const std::string& engine_kind, OpenedGame& out,
              const compiler::plan::PassSwitches& passes) {
  if (int code = open_program(path, out); code != kExitOk) return code;
  return open_engine(path, engine_kind, out, passes);
}

int open_engine(const std::string& path, const std::string& engine_kind, OpenedGame& out,
                const compiler::plan::PassSwitches& passes) {
  if (engine_kind == "interp") {
    out.engine = std::make_unique<compiler::Interpreter>(*out.program, out.sources);
    out.engine_note = "interpreter";
    out.engine_origin = "interpreter";
    return kExitOk;
  }
  compiler::CompileOptions options;
  options.passes = passes;
  compiler::LoadedEngine loaded = compiler::load_engine(out.program, out.sources, options);
  // The notes and messages quote paths, compiler output and the rules' own names.
  if (!loaded.note.empty()) fmt::print(stderr, "{}\n", dsl::escape_for_terminal(loaded.note));
  if (loaded.cache_error) {
    // The cache directory or the disk is at fault, not the rules nor the generated code.
    fmt::print(stderr, "{}: error: {}\n", dsl::escape_for_terminal(path),
               dsl::escape_for_terminal(loaded.status.message));
    return kExitInputError;
  }
  if (!loaded.engine) {
    // Generated code that does not compile is rulebook's bug, not the user's.
    fmt::print(stderr, "{}: internal error: {}\n", dsl::escape_for_terminal(path),
               dsl::escape_for_terminal(loaded.status.message));
    return kExitInternal;
  }
  out.engine_note = loaded.linked     ? "compiled (linked into rulebook)"
                    : loaded.compiled ? "compiled (compiled now, cached)"
                                      : "compiled (from the cache)";
  out.engine_origin = loaded.linked ? "linked" : loaded.compiled ? "compiled now" : "from the cache";
  out.engine = std::move(loaded.engine);
  return kExitOk;
}

int parse_setup_args(const std::vector<std::string>& setups, engine::Setup& out) {
  for (const std::string& kv : setups) {
    const size_t eq = kv.find('=');
    if (eq == std::string::npos || eq == 0) {
      fmt::print(stderr, "error: --setup takes name=value, got '{}'\n", kv);
      return kExitUsage;
    }
    out.values.emplace_back(kv.substr(0, eq), kv.substr(eq + 1));
  }
  return kExitOk;
}

int checked_setup_args(const std::string& file, const ir::Program& program,
                       const std::vector<std::string>& setups, engine::Setup& out) {
  if (int code = parse_setup_args(setups, out); code != kExitOk) return code;
  std::vector<std::vector<uint32_t>> given;
  if (engine::Status st = compiler::setup_overrides(program, out, given); !st.ok) {
    fmt::print(stderr, "{}: error: {}\n", file, st.message);
    return kExitInputError;
  }
  return kExitOk;
}

int setup_state(const OpenedGame& game, uint64_t seed, const std::vector<std::string>& setups,
                std::vector<uint8_t>& state) {
  engine::Setup setup;
  setup.seed = seed;
  if (int code = parse_setup_args(setups, setup); code != kExitOk) return code;
  state.assign(game.engine->info().state_bytes, 0);
  engine::Status st = game.engine->setup(state.data(), setup);
  if (!st.ok) {
    fmt::print(stderr, "{}{}: note: in the setup (seed {})\n",
               engine_error_text(game.sources, game.program->source_path, st.message),
               dsl::escape_for_terminal(game.program->source_path), seed);
    return kExitInputError;
  }
  return kExitOk;
}

std::string engine_error_line(const std::string& path, const std::string& message) {
  if (message.find(": error: ") != std::string::npos) return dsl::escape_for_terminal(message);
  return dsl::escape_for_terminal(path) + ": error: " + dsl::escape_for_terminal(message);
}

int write_output(const std::string& path, const std::string& text) {
  if (path.empty() || path == "-") {
    fmt::print("{}", text);
    return kExitOk;
  }
  if (const std::string error = write_file_atomically(path, text); !error.empty()) {
    fmt::print(stderr, "{}\n", error);
    return kExitInputError;
  }
  return kExitOk;
}

void add_no_pass_option(CLI::App* cmd, std::vector<std::string>& names) {
  cmd->add_option("--no-pass", names,
                  "Switch off a pass of the engine plan (repeatable; all: every pass; "
                  "see `rulebook plan`)");
}

int parse_no_pass(const std::vector<std::string>& names, compiler::plan::PassSwitches& out) {
  const std::string error = compiler::plan::switch_off(names, out);
  if (error.empty()) return kExitOk;
  fmt::print(stderr, "error: --no-pass: {}\n", dsl::escape_for_terminal(error));
  return kExitUsage;
}

}  // namespace rulebook::cli
