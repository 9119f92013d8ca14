// The C++ emitter: an ir::Program becomes one self-contained C++20 source file that
// implements the C ABI of compiler/runtime/plugin_abi.h.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "compiler/ir/ir.h"
#include "compiler/plan/engine_plan.h"
#include "dsl/source.h"

namespace rulebook::compiler {

struct EmittedCpp {
  std::string source;  ///< the whole file
  uint64_t hash = 0;   ///< source_hash() of the file above its ABI footer
  std::string entry;   ///< the name of the `extern "C"` entry point
  std::string error;   ///< non-empty when the program uses something the emitter lacks
};

/// Generates the engine of `program`. `sources` turns spans into `file:line:col` (file
/// names are written without their folders, so the output does not depend on where the
/// rules were loaded from). Deterministic: the same program gives the same bytes.
EmittedCpp emit_cpp(const ir::Program& program, const dsl::SourceSet& sources);
/// The same with some of the plan's passes switched off (plain code in their place); with
/// none off, the same bytes as above.
EmittedCpp emit_cpp(const ir::Program& program, const dsl::SourceSet& sources,
                    const plan::PassSwitches& switches);

/// The hash that names a generated source (FNV-1a with a final mix, as engine::hash_bytes).
uint64_t source_hash(std::string_view text);

/// The ABI declarations the emitter copies into every generated source: those of
/// compiler/runtime/plugin_abi.h, embedded by the build (cmake/embed_text.cmake).
std::string_view abi_declarations();

}  // namespace rulebook::compiler
