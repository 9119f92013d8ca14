// ANSI colours for rendered diagnostics, decided per stream.
#include "cli/colour.h"

#include <cstdlib>
#include <cstring>
#include <string_view>

#include <unistd.h>

namespace rulebook::cli {

namespace {

constexpr const char* kReset = "\033[0m";

struct Severity {
  std::string_view word;
  const char* colour;
};

constexpr Severity kSeverities[] = {
    {": error: ", "\033[1;31m"},
    {": warning: ", "\033[1;35m"},
    {": note: ", "\033[1;36m"},
    {": internal error: ", "\033[1;31m"},
};

std::string colour_line(std::string_view line) {
  for (const Severity& s : kSeverities) {
    const size_t at = line.find(s.word);
    if (at == std::string_view::npos) continue;
    const std::string_view word = s.word.substr(2, s.word.size() - 4);  // "error"
    return "\033[1m" + std::string(line.substr(0, at + 1)) + kReset + " " + s.colour +
           std::string(word) + kReset + ": " + std::string(line.substr(at + s.word.size()));
  }
  if (line.substr(0, 6) == "help: ") return std::string("\033[1;32mhelp") + kReset + std::string(line.substr(4));
  // The caret line under a quoted source line: `   |     ^~~~`.
  const size_t bar = line.find("| ");
  if (bar != std::string_view::npos && line.find_first_not_of(' ') == bar) {
    const size_t caret = line.find('^', bar);
    if (caret != std::string_view::npos && line.find_first_not_of("^~", caret) == std::string_view::npos)
      return std::string(line.substr(0, caret)) + "\033[1;32m" + std::string(line.substr(caret)) + kReset;
  }
  return std::string(line);
}

}  // namespace

bool colour_enabled(std::FILE* stream) {
  const char* no_colour = std::getenv("NO_COLOR");
  if (no_colour && *no_colour) return false;
  const char* term = std::getenv("TERM");
  if (term && std::strcmp(term, "dumb") == 0) return false;
  return ::isatty(::fileno(stream)) == 1;
}

std::string colour_diagnostics(const std::string& rendered) {
  std::string out;
  size_t start = 0;
  while (start < rendered.size()) {
    size_t end = rendered.find('\n', start);
    const bool newline = end != std::string::npos;
    if (!newline) end = rendered.size();
    out += colour_line(std::string_view(rendered).substr(start, end - start));
    if (newline) out += '\n';
    start = end + 1;
  }
  return out;
}

void print_diagnostics(const std::string& rendered) {
  const std::string text = colour_enabled(stderr) ? colour_diagnostics(rendered) : rendered;
  std::fwrite(text.data(), 1, text.size(), stderr);
}

}  // namespace rulebook::cli
