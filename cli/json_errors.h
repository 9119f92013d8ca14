// `--json` errors: every verb that has `--json` prints an error as a JSON object on stdout
// (docs/cli.md, "Errors as JSON"), whatever verb or stage the error came from.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace rulebook::cli {

/// `{"error": {"code", "kind", "message", "file", "line", "column"}}` for `text`, the first
/// error line an error printed (`file:line:col: error: message`, `file: error: message`,
/// `error: message` or any other line); `path` is the file when the text names none.
/// `code` is the exit code.
nlohmann::json error_json(int code, const std::string& text, const std::string& path = "");

/// While alive (when `active`), what the verb prints on stdout is held back and its stderr
/// is copied as it goes. finish() then prints stdout unchanged on success; on an error it
/// prints the verb's JSON object with an "error" member added (or the error object alone
/// when the verb printed no JSON object), the error read from the verb's stderr.
class JsonErrors {
 public:
  explicit JsonErrors(bool active);
  ~JsonErrors();
  JsonErrors(const JsonErrors&) = delete;
  JsonErrors& operator=(const JsonErrors&) = delete;
  /// Restores stdout and stderr and prints stdout as described; returns `code`.
  int finish(int code);

 private:
  struct Impl;
  Impl* impl_ = nullptr;
};

}  // namespace rulebook::cli
