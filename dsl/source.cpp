// SourceSet: buffers read once and kept, with line tables for positions.
#include "dsl/source.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <limits>
#include <sys/stat.h>

namespace rulebook::dsl {

uint32_t SourceSet::add(std::string name, std::string text) {
  SourceFile file;
  file.name = std::move(name);
  file.text = std::move(text);
  // Offsets are 32-bit; load() refuses bigger files, in-memory callers must too.
  if (file.text.size() >= std::numeric_limits<uint32_t>::max()) file.text.resize(0);
  file.line_starts.push_back(0);
  const std::string& t = file.text;
  for (size_t i = 0; i < t.size(); ++i) {
    if (t[i] == '\n') file.line_starts.push_back(static_cast<uint32_t>(i + 1));
  }
  files_.push_back(std::move(file));
  return static_cast<uint32_t>(files_.size() - 1);
}

bool SourceSet::load(const std::string& path, uint32_t& id, std::string& error) {
  struct stat st;
  if (::stat(path.c_str(), &st) != 0) {
    error = "cannot read '" + path + "': " + std::strerror(errno);
    return false;
  }
  if (S_ISDIR(st.st_mode)) {
    error = "cannot read '" + path + "': it is a directory";
    return false;
  }
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) {
    error = "cannot read '" + path + "': " + std::strerror(errno);
    return false;
  }
  // Read in chunks rather than trusting st_size: pipes and /proc files report 0.
  std::string text;
  if (st.st_size > 0) text.reserve(static_cast<size_t>(st.st_size));
  char buffer[1 << 16];
  size_t got;
  bool too_large = false;
  while ((got = std::fread(buffer, 1, sizeof buffer, f)) > 0) {
    if (text.size() + got > kMaxSourceBytes) {
      too_large = true;
      break;
    }
    text.append(buffer, got);
  }
  bool failed = std::ferror(f) != 0;
  int saved = errno;
  std::fclose(f);
  if (too_large) {
    error = "cannot read '" + path + "': larger than " + std::to_string(kMaxSourceBytes >> 20) +
            " MiB, too large for a rule file (is it the right file?)";
    return false;
  }
  if (failed) {
    error = "cannot read '" + path + "': " + std::strerror(saved);
    return false;
  }
  id = add(path, std::move(text));
  return true;
}

Position SourceSet::position(uint32_t file, uint32_t offset) const {
  const SourceFile& f = files_[file];
  offset = std::min<uint32_t>(offset, static_cast<uint32_t>(f.text.size()));
  auto it = std::upper_bound(f.line_starts.begin(), f.line_starts.end(), offset);
  size_t line = static_cast<size_t>(it - f.line_starts.begin());  // 1-based
  return Position{static_cast<uint32_t>(line), offset - f.line_starts[line - 1] + 1};
}

std::string_view SourceSet::line_text(uint32_t file, uint32_t offset) const {
  const SourceFile& f = files_[file];
  Position pos = position(file, offset);
  uint32_t begin = f.line_starts[pos.line - 1];
  uint32_t end = pos.line < f.line_starts.size() ? f.line_starts[pos.line] - 1
                                                 : static_cast<uint32_t>(f.text.size());
  std::string_view line(f.text.data() + begin, end - begin);
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  return line;
}

std::string_view SourceSet::text(const Span& span) const {
  const std::string& t = files_[span.file].text;
  uint32_t begin = std::min<uint32_t>(span.begin, static_cast<uint32_t>(t.size()));
  uint32_t end = std::clamp<uint32_t>(span.end, begin, static_cast<uint32_t>(t.size()));
  return std::string_view(t.data() + begin, end - begin);
}

}  // namespace rulebook::dsl
