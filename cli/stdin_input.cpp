// Reading the rules of a `-` FILE argument from standard input.
#include "cli/stdin_input.h"

#include <cerrno>
#include <cstdio>
#include <cstring>

namespace rulebook::cli {

bool read_stdin(std::string& text, std::string& error) {
  text.clear();
  char buffer[1 << 16];
  for (;;) {
    const size_t got = std::fread(buffer, 1, sizeof buffer, stdin);
    text.append(buffer, got);
    if (text.size() > dsl::kMaxSourceBytes) {
      error = "cannot read standard input: larger than " + std::to_string(dsl::kMaxSourceBytes >> 20) +
              " MiB, too large for a rule file";
      return false;
    }
    if (got < sizeof buffer) break;
  }
  if (std::ferror(stdin)) {
    error = std::string("cannot read standard input: ") + std::strerror(errno);
    return false;
  }
  return true;
}

bool load_rules(const std::string& path, dsl::SourceSet& sources, uint32_t& id, std::string& error) {
  if (!is_stdin(path)) return sources.load(path, id, error);
  std::string text;
  if (!read_stdin(text, error)) return false;
  id = sources.add(kStdinName, std::move(text));
  return true;
}

}  // namespace rulebook::cli
