// The language server: JSON-RPC dispatch over a store of open documents.
#pragma once

#include <istream>
#include <map>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "lsp/analysis.h"

namespace rulebook::lsp {

/// An open document: the editor's text, not the disk's.
struct Document {
  std::string uri;
  std::string path;  ///< the file the URI names ("" when it names none)
  std::string text;
  int version = -1;
  std::unique_ptr<Analysis> analysis;
};

class Server {
 public:
  /// Handles one message body; returns the messages to send, in order (a response to a
  /// request, diagnostics after a change). Never throws on bad input.
  std::vector<nlohmann::json> handle_text(const std::string& body);
  std::vector<nlohmann::json> handle(const nlohmann::json& message);

  /// Reads framed messages from `in` and answers on `out` until `exit` or the end of `in`.
  /// Returns the process exit code the protocol asks for: 0 after `shutdown`, else 1.
  int run(std::istream& in, std::ostream& out);

  bool exited() const { return exited_; }
  int exit_code() const { return shutdown_ ? 0 : 1; }
  const Document* document(const std::string& uri) const;

 private:
  nlohmann::json request(const std::string& method, const nlohmann::json& params);
  void notify(const std::string& method, const nlohmann::json& params,
              std::vector<nlohmann::json>& out);
  void analyse(Document& doc, std::vector<nlohmann::json>& out);
  /// The open document a request's `textDocument.uri` names; throws when none is open.
  Document& target(const nlohmann::json& params);
  uint32_t offset(const Document& doc, const nlohmann::json& position) const;
  std::vector<const Analysis*> analyses() const;

  std::map<std::string, Document> documents_;
  bool initialized_ = false;
  bool shutdown_ = false;
  bool exited_ = false;
};

}  // namespace rulebook::lsp
