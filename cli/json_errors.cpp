// `--json` errors on stdout: stdout is held in a temporary file and stderr copied through a
// pipe while the verb runs, so that every error path of every verb (usage, input, run time,
// internal) ends as one JSON object without each path knowing about --json.
#include "cli/json_errors.h"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <regex>
#include <string_view>
#include <thread>

#include <fmt/core.h>

namespace rulebook::cli {
namespace {

const char* kind_of(int code) {
  switch (code) {
    case 0: return "ok";
    case 1: return "input";
    case 2: return "usage";
    case 4: return "memory";
    case 5: return "vacuous";
    case 130: return "interrupted";
    default: return "internal";
  }
}

/// The line of `text` that states the error: the first located or `error:` line (then
/// `stated` is set), else the first line that is not progress (`engine: ...`), an indented
/// detail or a pointer to --help.
std::string error_line(const std::string& text, bool& stated) {
  std::string fallback;
  stated = false;
  size_t start = 0;
  while (start < text.size()) {
    size_t nl = text.find('\n', start);
    if (nl == std::string::npos) nl = text.size();
    const std::string line = text.substr(start, nl - start);
    start = nl + 1;
    if (line.find(": error: ") != std::string::npos || line.rfind("error: ", 0) == 0 ||
        line.find(": internal error: ") != std::string::npos) {
      stated = true;
      return line;
    }
    const bool chatter = line.empty() || line.rfind("engine: ", 0) == 0 || line.rfind("Run with ", 0) == 0 ||
                         line.rfind("  ", 0) == 0 || line.rfind("perft: ", 0) == 0;
    if (fallback.empty() && !chatter) fallback = line;
  }
  return fallback;
}

}  // namespace

nlohmann::json error_json(int code, const std::string& text, const std::string& path) {
  nlohmann::json e{{"code", code}, {"kind", kind_of(code)}};
  bool stated = false;
  const std::string line = error_line(text, stated);
  static const std::regex located(R"(^(.*):([0-9]+):([0-9]+): error: (.*)$)");
  static const std::regex in_file(R"(^(.*): error: (.*)$)");
  std::smatch m;
  if (std::regex_match(line, m, located)) {
    e["file"] = m[1].str();
    e["line"] = std::stoll(m[2].str());
    e["column"] = std::stoll(m[3].str());
    e["message"] = m[4].str();
  } else if (std::regex_match(line, m, in_file)) {
    e["file"] = m[1].str();
    e["message"] = m[2].str();
  } else {
    std::string message = line.rfind("error: ", 0) == 0 ? line.substr(7) : line;
    if (message.empty()) message = fmt::format("stopped with exit code {}", code);
    e["message"] = message;
    if (!path.empty()) e["file"] = path;
  }
  return nlohmann::json{{"error", e}};
}

struct JsonErrors::Impl {
  int saved_out = -1;
  int saved_err = -1;
  FILE* out_file = nullptr;
  std::string err_text;
  std::thread copier;
  bool finished = false;

  void restore() {
    if (finished) return;
    finished = true;
    std::fflush(stdout);
    std::fflush(stderr);
    dup2(saved_out, 1);
    dup2(saved_err, 2);  // closes the pipe's last writer: the copier sees its end
    copier.join();
    close(saved_out);
    close(saved_err);
  }
};

JsonErrors::JsonErrors(bool active) {
  if (!active) return;
  std::fflush(stdout);
  std::fflush(stderr);
  int fds[2];
  FILE* out_file = std::tmpfile();
  if (!out_file || pipe(fds) != 0) {
    if (out_file) std::fclose(out_file);
    return;  // no capture: the verb prints as it would without --json errors
  }
  impl_ = new Impl;
  impl_->out_file = out_file;
  impl_->saved_out = dup(1);
  impl_->saved_err = dup(2);
  dup2(fileno(out_file), 1);
  dup2(fds[1], 2);
  close(fds[1]);
  const int read_end = fds[0];
  const int err_fd = impl_->saved_err;
  std::string* text = &impl_->err_text;
  impl_->copier = std::thread([read_end, err_fd, text] {
    char buf[4096];
    for (;;) {
      const ssize_t n = read(read_end, buf, sizeof buf);
      if (n < 0 && errno == EINTR) continue;  // Ctrl-C reached this thread: the verb handles it
      if (n <= 0) break;
      text->append(buf, size_t(n));
      for (ssize_t done = 0; done < n;) {
        const ssize_t w = write(err_fd, buf + done, size_t(n - done));
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) break;
        done += w;
      }
    }
    close(read_end);
  });
}

JsonErrors::~JsonErrors() {
  if (!impl_) return;
  impl_->restore();
  std::fclose(impl_->out_file);
  delete impl_;
}

int JsonErrors::finish(int code) {
  if (!impl_) return code;
  impl_->restore();
  std::string out;
  std::rewind(impl_->out_file);
  char buf[65536];
  for (size_t n; (n = std::fread(buf, 1, sizeof buf, impl_->out_file)) > 0;) out.append(buf, n);
  const nlohmann::json printed = nlohmann::json::parse(out, nullptr, false);
  bool stated = false;
  error_line(impl_->err_text, stated);
  const bool failed = code == 1 || code == 2 || code == 3;
  nlohmann::json result;
  // A verb's own "error" text (explore's) becomes the object every verb gives.
  const bool object = !printed.is_discarded() && printed.is_object();
  const bool own_text = object && printed.contains("error") && printed["error"].is_string();
  if (object && failed && (own_text || (!printed.contains("error") && (code != 1 || stated)))) {
    result = printed;  // the verb's JSON, with what stopped it
    result["error"] = error_json(code, own_text ? printed["error"].get<std::string>() : impl_->err_text)["error"];
  } else if (!printed.is_discarded() || code == 0 || (!failed && !out.empty())) {
    // The verb's own output already tells the outcome (diagnostics, verdicts, alerts, what
    // an interrupted run finished, --help): printed as it is.
    std::fwrite(out.data(), 1, out.size(), stdout);
    std::fflush(stdout);
    return code;
  } else {
    result = error_json(code, impl_->err_text);
    if (!out.empty()) result["error"]["output"] = out;
  }
  fmt::print("{}\n", result.dump(2, ' ', false, nlohmann::json::error_handler_t::replace));
  std::fflush(stdout);
  return code;
}

}  // namespace rulebook::cli
