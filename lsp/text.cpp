// UTF-16 positions and file URIs for the language server.
#include "lsp/text.h"

#include <algorithm>

namespace rulebook::lsp {

namespace {

/// Bytes of the UTF-8 sequence that starts with `lead` (1 for stray continuation bytes, so
/// that invalid text still advances one byte per unit, as the checker's escapes do).
size_t sequence_length(unsigned char lead) {
  if (lead >= 0xF0 && lead <= 0xF7) return 4;
  if (lead >= 0xE0) return 3;
  if (lead >= 0xC0) return 2;
  return 1;
}

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

}  // namespace

LineTable::LineTable(std::string_view text) : text_(text) {
  starts_.push_back(0);
  for (size_t i = 0; i < text.size(); ++i)
    if (text[i] == '\n') starts_.push_back(static_cast<uint32_t>(i + 1));
}

LspPosition LineTable::position(uint32_t offset) const {
  offset = std::min<uint32_t>(offset, static_cast<uint32_t>(text_.size()));
  auto it = std::upper_bound(starts_.begin(), starts_.end(), offset);
  const uint32_t line = static_cast<uint32_t>(it - starts_.begin()) - 1;
  uint32_t units = 0;
  for (size_t i = starts_[line]; i < offset;) {
    const size_t n = sequence_length(static_cast<unsigned char>(text_[i]));
    units += n == 4 ? 2 : 1;  // characters beyond the BMP are surrogate pairs in UTF-16
    i += n;
  }
  return {line, units};
}

uint32_t LineTable::offset(LspPosition pos) const {
  if (pos.line >= starts_.size()) return static_cast<uint32_t>(text_.size());
  size_t i = starts_[pos.line];
  uint32_t units = 0;
  while (i < text_.size() && text_[i] != '\n' && text_[i] != '\r' && units < pos.character) {
    const size_t n = sequence_length(static_cast<unsigned char>(text_[i]));
    units += n == 4 ? 2 : 1;
    i = std::min(i + n, text_.size());
  }
  return static_cast<uint32_t>(i);
}

nlohmann::json to_json(LspPosition p) { return {{"line", p.line}, {"character", p.character}}; }

nlohmann::json range_json(const LineTable& lines, uint32_t begin, uint32_t end) {
  return {{"start", to_json(lines.position(begin))}, {"end", to_json(lines.position(end))}};
}

LspPosition position_from_json(const nlohmann::json& j) {
  return {j.at("line").get<uint32_t>(), j.at("character").get<uint32_t>()};
}

bool is_name_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

bool is_identifier(std::string_view s) {
  if (s.empty() || (s[0] >= '0' && s[0] <= '9')) return false;
  return std::all_of(s.begin(), s.end(), is_name_char);
}

std::string uri_to_path(std::string_view uri) {
  constexpr std::string_view kScheme = "file://";
  if (uri.substr(0, kScheme.size()) != kScheme) return "";
  uri.remove_prefix(kScheme.size());
  // `file://host/path`: only the local host (empty or localhost) is a path here.
  if (!uri.empty() && uri.front() != '/') {
    const size_t slash = uri.find('/');
    if (slash == std::string_view::npos || uri.substr(0, slash) != "localhost") return "";
    uri.remove_prefix(slash);
  }
  std::string path;
  for (size_t i = 0; i < uri.size(); ++i) {
    if (uri[i] == '%' && i + 2 < uri.size()) {
      const int hi = hex_value(uri[i + 1]), lo = hex_value(uri[i + 2]);
      if (hi >= 0 && lo >= 0) {
        path.push_back(static_cast<char>(hi * 16 + lo));
        i += 2;
        continue;
      }
    }
    path.push_back(uri[i]);
  }
  return path;
}

std::string path_to_uri(std::string_view path) {
  static const char* kHex = "0123456789ABCDEF";
  std::string uri = "file://";
  for (char ch : path) {
    const auto c = static_cast<unsigned char>(ch);
    const bool plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                       c == '/' || c == '-' || c == '_' || c == '.' || c == '~';
    if (plain) {
      uri.push_back(ch);
    } else {
      uri.push_back('%');
      uri.push_back(kHex[c >> 4]);
      uri.push_back(kHex[c & 15]);
    }
  }
  return uri;
}

}  // namespace rulebook::lsp
