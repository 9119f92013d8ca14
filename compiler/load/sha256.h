// SHA-256 of bytes in memory or of a file, for checking cached engines before they load.
#pragma once

#include <string>
#include <string_view>

namespace rulebook::compiler {

/// The SHA-256 digest of `bytes`, as 64 lowercase hex digits.
std::string sha256_hex(std::string_view bytes);

/// The SHA-256 digest of the file at `path`, read through an open descriptor. Returns false
/// and sets `error` (strerror and path) when it cannot be read or is not a regular file.
bool sha256_file(const std::string& path, std::string& hex, std::string& error);

}  // namespace rulebook::compiler
