// Server: the LSP lifecycle, document synchronisation and the dispatch of requests.
#include "lsp/server.h"

#include <stdexcept>

#include "lsp/features.h"
#include "lsp/jsonrpc.h"

namespace rulebook::lsp {

namespace {

/// A request that names no open document, or a position it cannot use.
struct BadRequest : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// A request whose method the server does not know.
struct UnknownMethod : std::runtime_error {
  using std::runtime_error::runtime_error;
};

nlohmann::json capabilities() {
  return {
      {"textDocumentSync", {{"openClose", true}, {"change", 1}, {"save", true}}},
      {"hoverProvider", true},
      {"definitionProvider", true},
      {"referencesProvider", true},
      {"renameProvider", true},
      {"completionProvider", {{"resolveProvider", false}}},
      {"documentFormattingProvider", true},
      {"codeActionProvider", {{"codeActionKinds", {"quickfix"}}}},
  };
}

/// Applies one `contentChanges` entry: a whole new text, or a range replaced.
void apply_change(std::string& text, const nlohmann::json& change) {
  const std::string& replacement = change.at("text").get_ref<const std::string&>();
  if (!change.contains("range")) {
    text = replacement;
    return;
  }
  const LineTable lines(text);
  const uint32_t begin = lines.offset(position_from_json(change.at("range").at("start")));
  const uint32_t end = lines.offset(position_from_json(change.at("range").at("end")));
  if (end < begin) throw BadRequest("a change whose range ends before it starts");
  text.replace(begin, end - begin, replacement);
}

}  // namespace

const Document* Server::document(const std::string& uri) const {
  auto it = documents_.find(uri);
  return it == documents_.end() ? nullptr : &it->second;
}

std::vector<nlohmann::json> Server::handle_text(const std::string& body) {
  nlohmann::json message = nlohmann::json::parse(body, nullptr, false);
  if (message.is_discarded()) return {error_response(nullptr, kParseError, "the message is not JSON")};
  return handle(message);
}

std::vector<nlohmann::json> Server::handle(const nlohmann::json& message) {
  std::vector<nlohmann::json> out;
  if (!message.is_object() || !message.contains("method") || !message["method"].is_string()) {
    const nlohmann::json id = message.is_object() && message.contains("id") ? message["id"] : nullptr;
    // A response from the client (we send no requests) is ignored; anything else is invalid.
    if (message.is_object() && message.contains("id") && !message.contains("method")) return out;
    out.push_back(error_response(id, kInvalidRequest, "not a JSON-RPC request or notification"));
    return out;
  }
  const std::string method = message["method"];
  const nlohmann::json params = message.contains("params") ? message["params"] : nlohmann::json::object();
  const bool is_request = message.contains("id");
  if (!is_request) {
    try {
      notify(method, params, out);
    } catch (const std::exception&) {
      // A malformed notification has nobody to answer: it is dropped.
    }
    return out;
  }
  const nlohmann::json& id = message["id"];
  if (!id.is_number_integer() && !id.is_string()) {
    out.push_back(error_response(nullptr, kInvalidRequest, "a request id is a number or a string"));
    return out;
  }
  if (shutdown_) {
    out.push_back(error_response(id, kInvalidRequest, "the server is shut down"));
    return out;
  }
  if (!initialized_ && method != "initialize") {
    out.push_back(error_response(id, kServerNotInitialized, "initialize first"));
    return out;
  }
  try {
    if (method == "initialize") {
      initialized_ = true;
      out.push_back(result_response(
          id, {{"capabilities", capabilities()}, {"serverInfo", {{"name", "rulebook"}, {"version", "0.1"}}}}));
    } else if (method == "shutdown") {
      shutdown_ = true;
      out.push_back(result_response(id, nullptr));
    } else {
      out.push_back(result_response(id, request(method, params)));
    }
  } catch (const UnknownMethod&) {
    out.push_back(error_response(id, kMethodNotFound, "unknown method '" + method + "'"));
  } catch (const BadRequest& e) {
    out.push_back(error_response(id, kInvalidParams, e.what()));
  } catch (const nlohmann::json::exception& e) {
    out.push_back(error_response(id, kInvalidParams, std::string("malformed params: ") + e.what()));
  } catch (const std::exception& e) {
    out.push_back(error_response(id, kInternalError, e.what()));
  }
  return out;
}

void Server::notify(const std::string& method, const nlohmann::json& params,
                    std::vector<nlohmann::json>& out) {
  if (method == "exit") {
    exited_ = true;
    return;
  }
  if (!initialized_ || shutdown_) return;
  if (method == "textDocument/didOpen") {
    const nlohmann::json& item = params.at("textDocument");
    Document doc;
    doc.uri = item.at("uri").get<std::string>();
    doc.path = uri_to_path(doc.uri);
    doc.text = item.at("text").get<std::string>();
    doc.version = item.value("version", -1);
    Document& stored = documents_[doc.uri] = std::move(doc);
    analyse(stored, out);
  } else if (method == "textDocument/didChange") {
    auto it = documents_.find(params.at("textDocument").at("uri").get<std::string>());
    if (it == documents_.end()) return;
    std::string text = it->second.text;
    for (const nlohmann::json& change : params.at("contentChanges")) apply_change(text, change);
    it->second.text = std::move(text);
    it->second.version = params.at("textDocument").value("version", -1);
    analyse(it->second, out);
  } else if (method == "textDocument/didSave") {
    // A saved file may be the base another open document extends: check them all again.
    for (auto& entry : documents_) analyse(entry.second, out);
  } else if (method == "textDocument/didClose") {
    const std::string uri = params.at("textDocument").at("uri").get<std::string>();
    if (documents_.erase(uri))
      out.push_back(notification("textDocument/publishDiagnostics",
                                 {{"uri", uri}, {"diagnostics", nlohmann::json::array()}}));
  }
  // Other notifications ($/cancelRequest, initialized, ...) need nothing.
}

void Server::analyse(Document& doc, std::vector<nlohmann::json>& out) {
  doc.analysis = std::make_unique<Analysis>(doc.path.empty() ? doc.uri : doc.path, doc.text, doc.uri);
  out.push_back(notification("textDocument/publishDiagnostics",
                             diagnostics_params(*doc.analysis, doc.uri, doc.version)));
}

Document& Server::target(const nlohmann::json& params) {
  const std::string uri = params.at("textDocument").at("uri").get<std::string>();
  auto it = documents_.find(uri);
  if (it == documents_.end() || !it->second.analysis) throw BadRequest("the document is not open: " + uri);
  return it->second;
}

uint32_t Server::offset(const Document& doc, const nlohmann::json& position) const {
  return doc.analysis->lines(doc.analysis->main_source()).offset(position_from_json(position));
}

std::vector<const Analysis*> Server::analyses() const {
  std::vector<const Analysis*> all;
  for (const auto& entry : documents_)
    if (entry.second.analysis) all.push_back(entry.second.analysis.get());
  return all;
}

nlohmann::json Server::request(const std::string& method, const nlohmann::json& params) {
  if (method == "textDocument/hover") {
    Document& doc = target(params);
    return hover(*doc.analysis, offset(doc, params.at("position")));
  }
  if (method == "textDocument/definition") {
    Document& doc = target(params);
    return definition(*doc.analysis, offset(doc, params.at("position")));
  }
  if (method == "textDocument/references") {
    Document& doc = target(params);
    bool include = true;
    if (params.contains("context")) include = params["context"].value("includeDeclaration", true);
    return references(analyses(), *doc.analysis, offset(doc, params.at("position")), include);
  }
  if (method == "textDocument/rename") {
    Document& doc = target(params);
    std::string error;
    nlohmann::json edit = rename(analyses(), *doc.analysis, offset(doc, params.at("position")),
                                 params.at("newName").get<std::string>(), error);
    if (!error.empty()) throw BadRequest(error);
    return edit;
  }
  if (method == "textDocument/completion") {
    Document& doc = target(params);
    return completion(*doc.analysis, offset(doc, params.at("position")));
  }
  if (method == "textDocument/formatting") {
    Document& doc = target(params);
    return formatting(doc.path.empty() ? doc.uri : doc.path, doc.text);
  }
  if (method == "textDocument/codeAction") {
    Document& doc = target(params);
    const LineTable& lines = doc.analysis->lines(doc.analysis->main_source());
    const uint32_t begin = lines.offset(position_from_json(params.at("range").at("start")));
    const uint32_t end = lines.offset(position_from_json(params.at("range").at("end")));
    return code_actions(*doc.analysis, begin, end);
  }
  throw UnknownMethod(method);
}

int Server::run(std::istream& in, std::ostream& out) {
  std::string body, error;
  while (!exited_) {
    const ReadResult r = read_message(in, body, error);
    if (r == ReadResult::EndOfStream) break;
    if (r == ReadResult::BadFrame) {
      write_message(out, error_response(nullptr, kParseError, error));
      continue;
    }
    for (const nlohmann::json& m : handle_text(body)) write_message(out, m);
  }
  return exit_code();
}

}  // namespace rulebook::lsp
