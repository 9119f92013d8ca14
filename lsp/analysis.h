// One checked document: its sources, diagnostics, checked game and an index of every name.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "dsl/check.h"
#include "dsl/diagnostics.h"
#include "dsl/source.h"
#include "lsp/text.h"

namespace rulebook::lsp {

/// One place a name is written. Occurrences with the same key are the same thing:
///   "g:NAME" a global (param, state, define, phase, enum member, player, ...),
///   "m:NAME" a move, "t:NAME" a declared type, "r:NAME" a rule, "p:NAME" a property,
///   "metric:NAME", "s:NAME" a symmetry, "b:NAME" a built-in, "l:N" one local symbol.
struct Occurrence {
  uint32_t source = 0;  ///< id in the analysis' SourceSet
  uint32_t begin = 0;
  uint32_t end = 0;
  std::string key;
  bool declaration = false;
  const dsl::Symbol* symbol = nullptr;  ///< when the checker resolved it
};

/// Loads and checks `text` as the file at `path` (its `extends` chain read from disk) and
/// indexes the names of every file of the chain. `uri` is the document's own URI (an
/// unsaved document has one but no path); "" means the URI of `path`.
class Analysis {
 public:
  Analysis(const std::string& path, const std::string& text, const std::string& uri = "");
  Analysis(const Analysis&) = delete;
  Analysis& operator=(const Analysis&) = delete;

  const dsl::SourceSet& sources() const { return sources_; }
  const dsl::Diagnostics& diagnostics() const { return diags_; }
  const dsl::Game& game() const { return game_; }
  uint32_t main_source() const { return main_; }
  const std::vector<Occurrence>& occurrences() const { return occurrences_; }
  const LineTable& lines(uint32_t source) const { return lines_[source]; }
  /// The absolute, normalised path of a source buffer.
  std::string path(uint32_t source) const;
  /// The URI of a source buffer: the document's own for the main one.
  std::string uri(uint32_t source) const;
  /// The parsed file of a source buffer (null when it did not load).
  const dsl::File* file(uint32_t source) const;

  /// The occurrence covering byte `offset` of `source` (its end included, so that a
  /// cursor just after a name finds it), or null.
  const Occurrence* at(uint32_t source, uint32_t offset) const;
  /// Every occurrence with `key`, in source order.
  std::vector<const Occurrence*> with_key(const std::string& key) const;

 private:
  dsl::SourceSet sources_;
  dsl::Diagnostics diags_;
  dsl::Game game_;
  uint32_t main_ = 0;
  std::string uri_;
  std::vector<LineTable> lines_;
  std::vector<Occurrence> occurrences_;
};

/// The key of a resolved symbol (see Occurrence).
std::string symbol_key(const dsl::Symbol& symbol);

/// Appends the occurrences of every name in `game`'s files to `out` (index.cpp).
void index_names(const dsl::Game& game, std::vector<Occurrence>& out);

}  // namespace rulebook::lsp
