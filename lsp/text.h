// Positions as LSP counts them (0-based line, UTF-16 code units) and file:// URIs.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace rulebook::lsp {

/// An LSP position: 0-based line and 0-based character in UTF-16 code units.
struct LspPosition {
  uint32_t line = 0;
  uint32_t character = 0;
};

/// The byte offsets where each line of a text starts, and conversions to LSP positions.
class LineTable {
 public:
  explicit LineTable(std::string_view text);

  /// The position of byte `offset` (clamped to the text).
  LspPosition position(uint32_t offset) const;
  /// The byte offset of an LSP position; a character past the line's end gives its end,
  /// a line past the last gives the end of the text.
  uint32_t offset(LspPosition pos) const;

 private:
  std::string_view text_;
  std::vector<uint32_t> starts_;
};

nlohmann::json to_json(LspPosition p);
/// `{"start": ..., "end": ...}` for the byte range [begin, end) of `lines`' text.
nlohmann::json range_json(const LineTable& lines, uint32_t begin, uint32_t end);
/// Reads `{"line", "character"}`; throws nlohmann::json exceptions when malformed.
LspPosition position_from_json(const nlohmann::json& j);

/// A byte of a name: `[A-Za-z0-9_]`.
bool is_name_char(char c);
/// True when `s` is a name of the language's lexical form `[A-Za-z_][A-Za-z0-9_]*`.
bool is_identifier(std::string_view s);

/// `file:///a/b%20c.rules` -> `/a/b c.rules`; other schemes give "".
std::string uri_to_path(std::string_view uri);
/// An absolute path -> `file://` URI with reserved bytes percent-encoded.
std::string path_to_uri(std::string_view path);

}  // namespace rulebook::lsp
