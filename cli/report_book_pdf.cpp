// A rulebook page printed to PDF by headless Chromium (the print stylesheet decides the
// pages), run as a child process with its output discarded.
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include <fmt/core.h>

#include "cli/report_book.h"

extern char** environ;

namespace fs = std::filesystem;

namespace rulebook::cli {
namespace {

/// Chromium writes the time of printing into the PDF (`/CreationDate (D:YYYYMMDDHHMMSS...`
/// and `/ModDate`); everything else is the same for the same page. The times are set to
/// 1970-01-01 00:00:00, as reproducible builds do, in place (same length, so the file's
/// offsets stay right). False when the file cannot be rewritten.
bool clear_dates(const std::string& path) {
  std::string bytes;
  {
    std::ifstream in(path, std::ios::binary);
    bytes.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    if (!in && !in.eof()) return false;
  }
  for (const std::string key : {"/CreationDate (D:", "/ModDate (D:"}) {
    for (size_t at = bytes.find(key); at != std::string::npos; at = bytes.find(key, at + 1)) {
      const size_t d = at + key.size();
      if (d + 14 > bytes.size()) break;
      if (std::all_of(bytes.begin() + long(d), bytes.begin() + long(d + 14), [](char c) { return c >= '0' && c <= '9'; }))
        bytes.replace(d, 14, "19700101000000");
    }
  }
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << bytes;
  return bool(out.flush());
}

}  // namespace

bool chromium_available() {
  const char* path = std::getenv("PATH");
  if (!path) return false;
  std::string dirs(path);
  for (size_t b = 0; b <= dirs.size();) {
    size_t e = dirs.find(':', b);
    if (e == std::string::npos) e = dirs.size();
    const std::string dir = dirs.substr(b, e - b);
    if (!dir.empty() && access((dir + "/chromium").c_str(), X_OK) == 0) return true;
    b = e + 1;
  }
  return false;
}

std::string print_pdf(const std::string& html_file, const std::string& pdf_file) {
  if (!chromium_available()) return "chromium is not on PATH";
  std::error_code ec;
  const fs::path html = fs::absolute(html_file, ec);
  if (ec) return html_file + ": " + ec.message();
  const std::string tmp = pdf_file + ".part.pdf";
  fs::remove(tmp, ec);
  // A profile of its own, so runs side by side (and a user's open browser) do not meet.
  const fs::path profile = fs::temp_directory_path(ec) / fmt::format("rulebook-pdf-{}", getpid());
  std::vector<std::string> args = {"chromium", "--headless", "--no-sandbox", "--disable-gpu",
                                   "--no-pdf-header-footer", "--user-data-dir=" + profile.string(),
                                   "--print-to-pdf=" + tmp, "file://" + html.string()};
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
  pid_t pid = 0;
  const int err = posix_spawnp(&pid, "chromium", &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (err != 0) return "chromium could not be started";
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  fs::remove_all(profile, ec);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || !fs::exists(tmp) || fs::file_size(tmp, ec) == 0) {
    fs::remove(tmp, ec);
    return fmt::format("{}: chromium did not print the page", pdf_file);
  }
  if (!clear_dates(tmp)) {
    fs::remove(tmp, ec);
    return fmt::format("{}: cannot rewrite the printed file", pdf_file);
  }
  fs::rename(tmp, pdf_file, ec);
  return ec ? pdf_file + ": " + ec.message() : std::string();
}

}  // namespace rulebook::cli
