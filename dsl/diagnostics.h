// Diagnostics: severity, span, message, notes and hint; rendered with the source line.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "dsl/source.h"

namespace rulebook::dsl {

enum class Severity { Error, Warning, Note };

/// A secondary location that explains the main one ("first defined here").
struct DiagnosticNote {
  Span span;
  std::string message;
};

struct Diagnostic {
  Severity severity = Severity::Error;
  Span span;
  std::string message;
  std::vector<DiagnosticNote> notes;
  std::string hint;  ///< optional "help: ..." line, e.g. a suggested fix
  /// Warnings: a stable code ("unused-define"), shown as `warning[code]:` and named by
  /// `allow CODE SUBJECT "reason";` to acknowledge it.
  std::string code;
};

/// Collects diagnostics of one run. Library code adds to it and never prints.
class Diagnostics {
 public:
  Diagnostic& error(Span span, std::string message);
  Diagnostic& warning(Span span, std::string message);
  /// A warning with its code (docs/language.md, "Warnings").
  Diagnostic& warning(Span span, std::string code, std::string message);

  bool has_errors() const { return errors_ > 0; }
  size_t error_count() const { return errors_; }
  size_t warning_count() const;
  const std::vector<Diagnostic>& all() const { return list_; }

  /// Renders every diagnostic in the order added:
  ///   file:line:col: error: message
  ///      12 | source line
  ///         |     ^~~~
  ///   file:line:col: note: ...
  ///   help: hint
  std::string render(const SourceSet& sources) const;

 private:
  std::vector<Diagnostic> list_;
  size_t errors_ = 0;
};

/// `text` made safe to show on a terminal: C0 control characters (but line breaks and
/// tabs when `keep_layout`), DEL and bytes that are not UTF-8 become `\xNN`; C1 controls,
/// Unicode bidi controls (U+202A-U+202E, U+2066-U+2069, U+200E, U+200F, U+061C) and line
/// or paragraph separators become `\u{NNNN}`. A file can then neither move the cursor, clear
/// the screen, nor show text in another order than the bytes the tools read.
std::string escape_for_terminal(std::string_view text, bool keep_layout = true);

/// escape_for_terminal's choice for the character at `text[i]`: sets `length` to its bytes
/// and returns its escape, or "" when it is shown as it is.
std::string escape_at(std::string_view text, size_t i, size_t& length);

/// Source text on one line (a declaration or condition quoted in a message or a table):
/// every run of whitespace becomes one space, none at either end.
std::string one_line(std::string_view text);

/// The closest candidate to `name` by edit distance, or "" when none is close enough.
std::string closest_name(const std::string& name, const std::vector<std::string>& candidates);

}  // namespace rulebook::dsl
