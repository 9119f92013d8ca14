// JSON-RPC 2.0 messages over a byte stream with LSP's `Content-Length` framing.
#pragma once

#include <cstddef>
#include <istream>
#include <ostream>
#include <string>

#include <nlohmann/json.hpp>

namespace rulebook::lsp {

/// The largest message body read. An editor never sends this much; a broken client that
/// announces gigabytes gets an error instead of filling memory.
inline constexpr size_t kMaxMessageBytes = size_t{64} << 20;

enum class ReadResult { Message, EndOfStream, BadFrame };

/// Reads one framed message body. BadFrame (with `error` set) when the headers are
/// malformed; the stream is then positioned after the headers, so the caller may go on.
ReadResult read_message(std::istream& in, std::string& body, std::string& error);

/// Writes `message` with its `Content-Length` header and flushes.
void write_message(std::ostream& out, const nlohmann::json& message);

// Error codes of JSON-RPC and LSP.
inline constexpr int kParseError = -32700;
inline constexpr int kInvalidRequest = -32600;
inline constexpr int kMethodNotFound = -32601;
inline constexpr int kInvalidParams = -32602;
inline constexpr int kInternalError = -32603;
inline constexpr int kServerNotInitialized = -32002;
inline constexpr int kRequestFailed = -32803;

nlohmann::json error_response(const nlohmann::json& id, int code, const std::string& message);
nlohmann::json result_response(const nlohmann::json& id, nlohmann::json result);
nlohmann::json notification(const std::string& method, nlohmann::json params);

}  // namespace rulebook::lsp
