// Content-Length framing of JSON-RPC messages, as the Language Server Protocol defines it.
#include "lsp/jsonrpc.h"

#include <cctype>
#include <charconv>

namespace rulebook::lsp {

namespace {

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

std::string trim(const std::string& s) {
  size_t b = 0, e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
  return s.substr(b, e - b);
}

}  // namespace

ReadResult read_message(std::istream& in, std::string& body, std::string& error) {
  long long length = -1;
  bool any_header = false;
  bool bad_length = false;
  std::string line;
  for (;;) {
    if (!std::getline(in, line)) {
      if (!any_header) return ReadResult::EndOfStream;
      error = "end of stream inside the headers";
      return ReadResult::EndOfStream;
    }
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty()) {
      if (!any_header) continue;  // stray blank lines between messages are harmless
      break;
    }
    any_header = true;
    const size_t colon = line.find(':');
    if (colon == std::string::npos) continue;
    if (lower(trim(line.substr(0, colon))) != "content-length") continue;
    const std::string value = trim(line.substr(colon + 1));
    long long n = -1;
    auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), n);
    if (ec != std::errc() || end != value.data() + value.size() || n < 0) {
      bad_length = true;
    } else {
      length = n;
    }
  }
  if (bad_length || length < 0) {
    error = "missing or malformed Content-Length header";
    return ReadResult::BadFrame;
  }
  if (static_cast<unsigned long long>(length) > kMaxMessageBytes) {
    error = "message of " + std::to_string(length) + " bytes is too large";
    // Skip the body so that the next message can still be read.
    in.ignore(length);
    return ReadResult::BadFrame;
  }
  body.assign(static_cast<size_t>(length), '\0');
  in.read(body.data(), length);
  if (in.gcount() != length) {
    error = "end of stream inside a message body";
    return ReadResult::EndOfStream;
  }
  return ReadResult::Message;
}

void write_message(std::ostream& out, const nlohmann::json& message) {
  // Invalid UTF-8 from a file must not make dump() throw: replace it.
  const std::string text = message.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  out << "Content-Length: " << text.size() << "\r\n\r\n" << text;
  out.flush();
}

nlohmann::json error_response(const nlohmann::json& id, int code, const std::string& message) {
  return {{"jsonrpc", "2.0"}, {"id", id}, {"error", {{"code", code}, {"message", message}}}};
}

nlohmann::json result_response(const nlohmann::json& id, nlohmann::json result) {
  return {{"jsonrpc", "2.0"}, {"id", id}, {"result", std::move(result)}};
}

nlohmann::json notification(const std::string& method, nlohmann::json params) {
  return {{"jsonrpc", "2.0"}, {"method", method}, {"params", std::move(params)}};
}

}  // namespace rulebook::lsp
