// Lowering: a checked game (dsl::Game) to the IR (compiler/ir/ir.h) every backend reads.
#pragma once

#include <optional>
#include <string>

#include "compiler/ir/ir.h"
#include "dsl/check.h"
#include "dsl/diagnostics.h"
#include "dsl/source.h"

namespace rulebook::compiler {

/// Lowers a checked game: finite domains, the state layout, geometry tables, functions,
/// rules, moves with staged conditions, phases, setups (data files are read now, relative
/// to the rules file that names them, and added to `sources` so that diagnostics can quote
/// them), score, properties and metrics. Problems the checker does not see (a set whose
/// element type is not finite, a bad data file, ...) go to `diags` with spans.
/// Returns nullopt when `diags` has errors (also errors reported before the call).
std::optional<ir::Program> lower_game(const dsl::Game& game, dsl::SourceSet& sources,
                                      dsl::Diagnostics& diags);

/// Loads, checks and lowers the rules file at `path` (and its extends-chain).
std::optional<ir::Program> load_program(const std::string& path, dsl::SourceSet& sources,
                                        dsl::Diagnostics& diags);

/// Lowers rules held in memory; `name` is the file name used in diagnostics and the
/// base that `extends` and data-file paths are resolved against.
std::optional<ir::Program> load_program_text(const std::string& name, const std::string& text,
                                             dsl::SourceSet& sources, dsl::Diagnostics& diags);

}  // namespace rulebook::compiler
