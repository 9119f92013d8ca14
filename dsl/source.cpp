// SourceSet: buffers read once and kept, with line tables for positions.
#include "dsl/source.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <limits>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

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

namespace {

/// What a file that is not a regular file is, for the message refusing it.
const char* kind_of(mode_t mode) {
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISFIFO(mode)) return "a FIFO (named pipe), not a regular file";
  if (S_ISCHR(mode)) return "a character device, not a regular file";
  if (S_ISBLK(mode)) return "a block device, not a regular file";
  if (S_ISSOCK(mode)) return "a socket, not a regular file";
  return "not a regular file";
}

}  // namespace

bool SourceSet::load(const std::string& path, uint32_t& id, std::string& error) {
  // O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer forever. The
  // type is checked on the open descriptor, so it cannot change between check and read.
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) {
    error = "cannot read '" + path + "': " + std::strerror(errno);
    return false;
  }
  struct stat st;
  if (::fstat(fd, &st) != 0) {
    error = "cannot read '" + path + "': " + std::strerror(errno);
    ::close(fd);
    return false;
  }
  if (!S_ISREG(st.st_mode)) {
    error = "cannot read '" + path + "': it is " + kind_of(st.st_mode);
    ::close(fd);
    return false;
  }
  if (st.st_size > 0 && static_cast<uint64_t>(st.st_size) > kMaxSourceBytes) {
    ::close(fd);
    error = "cannot read '" + path + "': larger than " + std::to_string(kMaxSourceBytes >> 20) +
            " MiB, too large for a rule file (is it the right file?)";
    return false;
  }
  // Read in chunks rather than trusting st_size: /proc-like files report 0.
  std::string text;
  if (st.st_size > 0) text.reserve(static_cast<size_t>(st.st_size));
  char buffer[1 << 16];
  bool too_large = false;
  int failed = 0;
  for (;;) {
    const ssize_t got = ::read(fd, buffer, sizeof buffer);
    if (got == 0) break;
    if (got < 0) {
      if (errno == EINTR) continue;
      failed = errno;
      break;
    }
    if (text.size() + static_cast<size_t>(got) > kMaxSourceBytes) {
      too_large = true;
      break;
    }
    text.append(buffer, static_cast<size_t>(got));
  }
  ::close(fd);
  if (too_large) {
    error = "cannot read '" + path + "': larger than " + std::to_string(kMaxSourceBytes >> 20) +
            " MiB, too large for a rule file (is it the right file?)";
    return false;
  }
  if (failed != 0) {
    error = "cannot read '" + path + "': " + std::strerror(failed);
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
