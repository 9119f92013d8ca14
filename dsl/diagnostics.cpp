// Diagnostics: collecting errors and rendering them with the quoted source line.
#include "dsl/diagnostics.h"

#include <algorithm>
#include <cctype>

#include <fmt/format.h>

namespace rulebook::dsl {

namespace {

constexpr size_t kLongLine = 200;     // lines longer than this are trimmed around the span
constexpr size_t kContextBefore = 60;  // bytes kept before the span when trimming
constexpr size_t kWindow = 160;        // bytes kept in all when trimming

/// Length of the valid UTF-8 sequence starting at s[i], or 0 when it is not valid.
size_t utf8_length(std::string_view s, size_t i) {
  unsigned char c = static_cast<unsigned char>(s[i]);
  size_t n = c >= 0xF0 && c <= 0xF4 ? 4 : c >= 0xE0 ? 3 : c >= 0xC2 && c < 0xE0 ? 2 : 0;
  if (c >= 0xF5 || n == 0 || i + n > s.size()) return 0;
  for (size_t k = 1; k < n; ++k) {
    if ((static_cast<unsigned char>(s[i + k]) & 0xC0) != 0x80) return 0;
  }
  return n;
}

/// The line made safe to print (escape_at, tabs as spaces); `column[i]` is the display
/// column of byte i (size + 1 entries), so carets line up with escapes and multi-byte
/// characters.
std::string printable(std::string_view line, std::vector<size_t>& column) {
  std::string out;
  column.assign(line.size() + 1, 0);
  size_t shown = 0;
  for (size_t i = 0; i < line.size();) {
    size_t n = 1;
    size_t width = 1;
    if (line[i] == '\t') {
      out += ' ';
    } else if (std::string e = escape_at(line, i, n); !e.empty()) {
      out += e;
      width = e.size();
    } else {
      out.append(line.substr(i, n));
    }
    for (size_t k = 0; k < n; ++k) column[i + k] = shown;
    shown += width;
    i += n;
  }
  column[line.size()] = shown;
  return out;
}

void render_excerpt(const SourceSet& sources, const Span& span, std::string& out) {
  const SourceFile& file = sources.file(span.file);
  Position pos = sources.position(span.file, span.begin);
  std::string_view line = sources.line_text(span.file, span.begin);
  size_t line_begin = file.line_starts[pos.line - 1];
  size_t start = pos.column - 1;  // byte index of the span within the line
  size_t stop = std::clamp<size_t>(span.end > line_begin ? span.end - line_begin : 0, start,
                                   line.size());
  if (stop < start) stop = start;

  // Trim long lines to a window around the span, never splitting a UTF-8 character.
  size_t from = 0, to = line.size();
  if (line.size() > kLongLine) {
    from = start > kContextBefore ? start - kContextBefore : 0;
    while (from < start && (static_cast<unsigned char>(line[from]) & 0xC0) == 0x80) ++from;
    to = std::min(line.size(), from + kWindow);
    while (to < line.size() && to > start + 1 &&
           (static_cast<unsigned char>(line[to]) & 0xC0) == 0x80) {
      --to;
    }
  }
  std::string_view shown_line = line.substr(from, to - from);
  std::vector<size_t> column;
  std::string text = printable(shown_line, column);
  std::string prefix = from > 0 ? "..." : "";
  std::string suffix = to < line.size() ? "..." : "";

  std::string number = std::to_string(pos.line);
  size_t width = std::max<size_t>(5, number.size());
  std::string quoted = prefix + text + suffix;
  out += fmt::format("{:>{}} |{}{}\n", number, width, quoted.empty() ? "" : " ", quoted);

  size_t caret_at = prefix.size() + column[std::min(start, to) - from];
  size_t caret_end = prefix.size() + column[std::min(stop, to) - from];
  size_t tildes = caret_end > caret_at + 1 ? caret_end - caret_at - 1 : 0;
  out += fmt::format("{:>{}} | {}^{}\n", "", width, std::string(caret_at, ' '),
                     std::string(tildes, '~'));
}

std::string_view severity_name(Severity s) {
  switch (s) {
    case Severity::Error: return "error";
    case Severity::Warning: return "warning";
    case Severity::Note: return "note";
  }
  return "error";
}

void render_located(const SourceSet& sources, const Span& span, Severity severity,
                    const std::string& message, std::string& out, const std::string& code = "") {
  const std::string head = code.empty() ? std::string(severity_name(severity))
                                        : fmt::format("{}[{}]", severity_name(severity), code);
  if (span.file >= sources.size()) {
    out += fmt::format("{}: {}\n", head, escape_for_terminal(message));
    return;
  }
  Position pos = sources.position(span.file, span.begin);
  out += fmt::format("{}:{}:{}: {}: {}\n", escape_for_terminal(sources.file(span.file).name),
                     pos.line, pos.column, head, escape_for_terminal(message));
  render_excerpt(sources, span, out);
}

}  // namespace

std::string escape_at(std::string_view s, size_t i, size_t& length) {
  const unsigned char c = static_cast<unsigned char>(s[i]);
  length = 1;
  if (c < 0x20 || c == 0x7F) return fmt::format("\\x{:02x}", c);
  if (c < 0x80) return "";
  length = utf8_length(s, i);
  if (length == 0) {
    length = 1;
    return fmt::format("\\x{:02x}", c);
  }
  uint32_t cp = c & (0xFF >> (length + 1));
  for (size_t k = 1; k < length; ++k) cp = cp << 6 | (static_cast<unsigned char>(s[i + k]) & 0x3F);
  const bool c1 = cp >= 0x80 && cp <= 0x9F;
  const bool bidi = (cp >= 0x202A && cp <= 0x202E) || (cp >= 0x2066 && cp <= 0x2069) ||
                    cp == 0x200E || cp == 0x200F || cp == 0x061C;
  const bool separator = cp == 0x2028 || cp == 0x2029;
  if (c1 || bidi || separator) return fmt::format("\\u{{{:04x}}}", cp);
  return "";
}

std::string escape_for_terminal(std::string_view text, bool keep_layout) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size();) {
    size_t n = 1;
    if (keep_layout && (text[i] == '\n' || text[i] == '\t')) {
      out += text[i++];
      continue;
    }
    if (std::string e = escape_at(text, i, n); !e.empty()) {
      out += e;
    } else {
      out.append(text.substr(i, n));
    }
    i += n;
  }
  return out;
}

Diagnostic& Diagnostics::error(Span span, std::string message) {
  ++errors_;
  list_.push_back(Diagnostic{Severity::Error, span, std::move(message), {}, {}, {}});
  return list_.back();
}

Diagnostic& Diagnostics::warning(Span span, std::string message) {
  list_.push_back(Diagnostic{Severity::Warning, span, std::move(message), {}, {}, {}});
  return list_.back();
}

Diagnostic& Diagnostics::warning(Span span, std::string code, std::string message) {
  Diagnostic& d = warning(span, std::move(message));
  d.code = std::move(code);
  return d;
}

size_t Diagnostics::warning_count() const {
  return static_cast<size_t>(std::count_if(list_.begin(), list_.end(),
                                           [](const Diagnostic& d) { return d.severity == Severity::Warning; }));
}

std::string Diagnostics::render(const SourceSet& sources) const {
  std::string out;
  for (const Diagnostic& d : list_) {
    render_located(sources, d.span, d.severity, d.message, out, d.code);
    for (const DiagnosticNote& note : d.notes) {
      render_located(sources, note.span, Severity::Note, note.message, out);
    }
    if (!d.hint.empty()) out += fmt::format("help: {}\n", escape_for_terminal(d.hint));
  }
  return out;
}

std::string one_line(std::string_view text) {
  std::string out;
  for (char c : text) {
    const bool space = std::isspace(static_cast<unsigned char>(c));
    if (space && (out.empty() || out.back() == ' ')) continue;
    out += space ? ' ' : c;
  }
  if (!out.empty() && out.back() == ' ') out.pop_back();
  return out;
}

std::string closest_name(const std::string& name, const std::vector<std::string>& candidates) {
  auto lower = [](std::string s) {
    for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
  };
  const std::string a = lower(name);
  const size_t limit = std::max<size_t>(1, name.size() / 3);
  std::string best;
  size_t best_distance = limit + 1;
  std::vector<size_t> row;
  for (const std::string& candidate : candidates) {
    const std::string b = lower(candidate);
    size_t gap = a.size() > b.size() ? a.size() - b.size() : b.size() - a.size();
    if (gap >= best_distance) continue;
    // One-row Levenshtein distance.
    row.resize(b.size() + 1);
    for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
    for (size_t i = 1; i <= a.size(); ++i) {
      size_t diagonal = row[0];
      row[0] = i;
      for (size_t j = 1; j <= b.size(); ++j) {
        size_t above = row[j];
        row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] != b[j - 1])});
        diagonal = above;
      }
    }
    if (row[b.size()] < best_distance) {
      best_distance = row[b.size()];
      best = candidate;
    }
  }
  return best;
}

}  // namespace rulebook::dsl
