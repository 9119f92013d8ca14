// `-` as a FILE argument: the rules are read from standard input.
#pragma once

#include <cstdint>
#include <string>

#include "dsl/source.h"

namespace rulebook::cli {

/// The name of the rules read from stdin, as diagnostics show it. It has no directory, so
/// an `extends` in them resolves against the working directory.
inline constexpr const char* kStdinName = "<stdin>";

/// True for the FILE argument that means standard input.
inline bool is_stdin(const std::string& path) { return path == "-"; }

/// Reads all of standard input (at most dsl::kMaxSourceBytes) into `text`; false with
/// `error` set when it cannot be read or is too large.
bool read_stdin(std::string& text, std::string& error);

/// Adds the rules of `path` to `sources`: standard input for "-", else the file.
bool load_rules(const std::string& path, dsl::SourceSet& sources, uint32_t& id, std::string& error);

}  // namespace rulebook::cli
