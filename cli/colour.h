// Colour for diagnostics on a terminal: off when piped, when NO_COLOR is set, or TERM=dumb.
#pragma once

#include <cstdio>
#include <string>

namespace rulebook::cli {

/// True when `stream` is a terminal, NO_COLOR is unset or empty, and TERM is not "dumb".
bool colour_enabled(std::FILE* stream);

/// Rendered diagnostics (dsl::Diagnostics::render) with ANSI colours: the severity word of
/// each `file:line:col: error:` line, the `help:` lead and the caret line. The text between
/// is untouched, so it reads the same with colour stripped.
std::string colour_diagnostics(const std::string& rendered);

/// Prints rendered diagnostics on stderr, coloured when stderr gets colour.
void print_diagnostics(const std::string& rendered);

}  // namespace rulebook::cli
