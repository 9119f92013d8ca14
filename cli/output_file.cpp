// Whole-or-nothing output files: a temporary sibling, checked writes, then rename(2), which
// replaces the old file in one step on the same file system.
#include "cli/output_file.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fmt/core.h>

namespace fs = std::filesystem;

namespace rulebook::cli {
namespace {

std::string reason(int err) {
  // The one a user can act on is worth its own words (strerror says "No space left on device").
  if (err == ENOSPC) return "no space left on the device";
  if (err == EDQUOT) return "disk quota exceeded";
  return std::strerror(err);
}

std::string failure(const std::string& path, const std::string& what, int err) {
  return fmt::format("{}: error: cannot {}: {}", path, what, reason(err));
}

/// Writes all of `text` to `fd`, retrying short writes and interrupted calls; 0 or errno.
int write_all(int fd, std::string_view text) {
  size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      return errno;
    }
    if (n == 0) return EIO;
    done += size_t(n);
  }
  return 0;
}

/// Whether the regular file `path` of `size` bytes holds exactly `text`.
bool holds(const fs::path& path, uintmax_t size, std::string_view text) {
  if (size != text.size()) return false;
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  const std::string old((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  return old == text;
}

/// A device, a FIFO, a terminal: there is nothing to replace, so the bytes go in place.
/// Errors name `path`, the file the user gave (`target` is where its links lead).
std::string write_in_place(const fs::path& target, const std::string& path, std::string_view text) {
  const int fd = ::open(target.c_str(), O_WRONLY | O_CLOEXEC);
  if (fd < 0) return failure(path, "open it for writing", errno);
  const int err = write_all(fd, text);
  if (err != 0) {
    ::close(fd);
    return failure(path, "write", err);
  }
  if (::close(fd) != 0 && errno != EINTR) return failure(path, "write", errno);
  return "";
}

}  // namespace

std::string write_file_atomically(const std::string& path, std::string_view text) {
  std::error_code ec;
  fs::path target(path);
  // A link is written through: the link stays, its target gets the new content.
  if (fs::is_symlink(fs::symlink_status(target, ec))) {
    fs::path resolved = fs::weakly_canonical(target, ec);
    if (!ec) target = resolved;
  }
  struct stat st {};
  const bool exists = ::stat(target.c_str(), &st) == 0;
  if (exists && !S_ISREG(st.st_mode)) {
    if (S_ISDIR(st.st_mode)) return failure(path, "write it", EISDIR);
    return write_in_place(target, path, text);
  }
  if (exists && holds(target, uintmax_t(st.st_size), text)) return "";

  const fs::path dir = target.has_parent_path() ? target.parent_path() : fs::path(".");
  const std::string base = target.filename().string();
  std::string temp;
  int fd = -1;
  for (int attempt = 0; fd < 0 && attempt < 100; ++attempt) {
    temp = (dir / fmt::format(".{}.tmp{}-{}", base, ::getpid(), attempt)).string();
    // 0666 less the umask, as for any new file; an existing file's mode is kept below.
    fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd < 0 && errno != EEXIST) return failure(path, "create a file next to it", errno);
  }
  if (fd < 0) return failure(path, "create a file next to it", EEXIST);
  int err = write_all(fd, text);
  if (err == 0 && exists) ::fchmod(fd, st.st_mode & 07777);
  // A network or quota-limited file system may report a failed write only here.
  if (err == 0 && ::fsync(fd) != 0 && errno != EINVAL && errno != EROFS) err = errno;
  if (::close(fd) != 0 && err == 0 && errno != EINTR) err = errno;
  if (err == 0 && ::rename(temp.c_str(), target.c_str()) != 0) err = errno;
  if (err != 0) {
    ::unlink(temp.c_str());
    return failure(path, "write", err);
  }
  return "";
}

}  // namespace rulebook::cli
