// Every file a verb writes goes through here: a reader (or a rerun after a crash, a full
// disk or Ctrl-C) sees the old file or the whole new one, never a part of it.
#pragma once

#include <string>
#include <string_view>

namespace rulebook::cli {

/// Writes `text` to `path`: into a temporary file in the same directory, every write and
/// the close checked, then renamed over `path` (a symbolic link is written through to its
/// target). A path that exists and is not a regular file (a device, a FIFO) is written in
/// place, with the same checks. A regular file already holding exactly `text` is left
/// untouched, so what depends on its time stamp does not rerun. Returns "" when written,
/// else a message naming the file and the reason ("no space left on the device", ...);
/// then the old file is as it was (or there is none) and no temporary file is left.
std::string write_file_atomically(const std::string& path, std::string_view text);

}  // namespace rulebook::cli
