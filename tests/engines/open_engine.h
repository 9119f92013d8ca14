// A rules file loaded and opened in the generated engine or the interpreter, its start state
// set up, for the count tests (each step REQUIREd, with the diagnostics or the loader's
// message shown on failure).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "compiler/interp/interpret.h"
#include "compiler/load/load_engine.h"
#include "compiler/lower/lower.h"

namespace rulebook::testing {

/// The engine reads the program and the sources it was made from, so they live together;
/// not movable.
struct OpenedEngine {
  OpenedEngine() = default;
  OpenedEngine(const OpenedEngine&) = delete;
  OpenedEngine& operator=(const OpenedEngine&) = delete;
  dsl::SourceSet sources;
  std::shared_ptr<const ir::Program> program;
  std::unique_ptr<engine::Engine> engine;
  std::vector<uint8_t> start;  ///< the state after setup (no setup values)
};

inline void open_engine(const std::string& path, bool interpreter, OpenedEngine& out) {
  dsl::Diagnostics diags;
  auto p = compiler::load_program(path, out.sources, diags);
  INFO(diags.render(out.sources));
  REQUIRE(p);
  REQUIRE_FALSE(diags.has_errors());
  out.program = std::make_shared<const ir::Program>(std::move(*p));
  if (interpreter) {
    out.engine = std::make_unique<compiler::Interpreter>(*out.program, out.sources);
  } else {
    compiler::LoadedEngine loaded = compiler::load_engine(out.program, out.sources);
    INFO(loaded.status.message);
    REQUIRE(loaded.engine);
    out.engine = std::move(loaded.engine);
  }
  out.start.assign(out.program->state_bytes, 0);
  REQUIRE(out.engine->setup(out.start.data(), {}).ok);
}

}  // namespace rulebook::testing
