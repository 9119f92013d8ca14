// Source buffers held in memory and byte-offset spans into them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace rulebook::dsl {

/// A half-open byte range [begin, end) in one source buffer.
struct Span {
  uint32_t file = 0;
  uint32_t begin = 0;
  uint32_t end = 0;
};

/// Line and column, both 1-based; column counts bytes.
struct Position {
  uint32_t line = 1;
  uint32_t column = 1;
};

/// One loaded file (or an in-memory text): its name as the user wrote it, and its bytes.
struct SourceFile {
  std::string name;
  std::string text;
  std::vector<uint32_t> line_starts;  ///< byte offset of each line's first byte
};

/// The largest file `SourceSet::load` reads. Far above any rule file or puzzle data, and
/// low enough that a mistaken path (a device, a log) fails at once instead of filling memory.
inline constexpr size_t kMaxSourceBytes = size_t{64} << 20;

/// Every buffer a run has read. Ids are indices; spans refer to them. Buffers never move
/// once added, so diagnostics can quote them without re-reading the disk.
class SourceSet {
 public:
  /// Adds an in-memory buffer and returns its id.
  uint32_t add(std::string name, std::string text);
  /// Reads a file; returns false (and leaves `error` set) when it cannot be read.
  bool load(const std::string& path, uint32_t& id, std::string& error);

  const SourceFile& file(uint32_t id) const { return files_[id]; }
  size_t size() const { return files_.size(); }
  Position position(uint32_t file, uint32_t offset) const;
  /// The text of the line holding `offset`, without its line break.
  std::string_view line_text(uint32_t file, uint32_t offset) const;
  std::string_view text(const Span& span) const;

 private:
  std::vector<SourceFile> files_;
};

}  // namespace rulebook::dsl
