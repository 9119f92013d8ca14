// What the server answers: each LSP request as a function of the checked documents.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "lsp/analysis.h"

namespace rulebook::lsp {

/// `textDocument/publishDiagnostics` params for the document at `uri`. Problems in the
/// files it extends are shown on its `extends` clause, with their place in the message.
nlohmann::json diagnostics_params(const Analysis& a, const std::string& uri, int version);

/// Hover markdown for the name at `offset` of the document, or null.
nlohmann::json hover(const Analysis& a, uint32_t offset);
/// The declarations of the name at `offset` (Location[]), or null.
nlohmann::json definition(const Analysis& a, uint32_t offset);
/// Every place the name at `offset` is written, in `a` and in the other open documents
/// (`all`, which may include `a`) for names that are not local.
nlohmann::json references(const std::vector<const Analysis*>& all, const Analysis& a,
                          uint32_t offset, bool include_declaration);
/// A WorkspaceEdit renaming the name at `offset` everywhere `references` finds it. On a
/// name that cannot be renamed, or a new name that is not one, sets `error` and returns null.
nlohmann::json rename(const std::vector<const Analysis*>& all, const Analysis& a, uint32_t offset,
                      const std::string& new_name, std::string& error);
/// Names in scope and keywords that start with the word before `offset` (a CompletionList).
nlohmann::json completion(const Analysis& a, uint32_t offset);

/// TextEdit[] turning `text` into its canonical layout (`rulebook fmt`); [] when it does
/// not parse or is already formatted.
nlohmann::json formatting(const std::string& path, const std::string& text);
/// Quick fixes for the "did you mean" hints of diagnostics shown on [begin, end]; the fix of
/// a problem in a base file edits that file.
nlohmann::json code_actions(const Analysis& a, uint32_t begin, uint32_t end);

/// The identifier that `did you mean 'X'?` suggests, or "".
std::string suggested_name(const std::string& hint);

}  // namespace rulebook::lsp
