// Loading a game: read and parse a file and its extends-chain, then merge the declarations.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "dsl/ast.h"
#include "dsl/diagnostics.h"
#include "dsl/source.h"

namespace rulebook::dsl {

/// One file of the extends-chain.
struct ChainFile {
  std::string path;       ///< as loaded: the SourceSet name
  uint32_t source = 0;    ///< id in the SourceSet
  const File* file = nullptr;
  int extends = -1;       ///< index in the chain of the file this one extends; -1: a game
};

/// A top-level `move m ... in P` or `override move m ...` applied to a phase.
struct MoveEdit {
  const Move* move = nullptr;
  size_t file = 0;  ///< chain index of the file that wrote it
};

/// An `override move` that a later `override phase` dropped: the new phase lacks the move.
struct DroppedOverride {
  const Decl* phase = nullptr;  ///< the `override phase` that dropped it
  const Move* move = nullptr;   ///< the dropped override
};

/// A declaration as it stands after the variant chain is applied.
struct MergedDecl {
  const Decl* decl = nullptr;   ///< the declaration in effect (the last override)
  size_t file = 0;              ///< chain index of the file `decl` comes from
  const Decl* first = nullptr;  ///< the first declaration of the name; its place is kept
  /// Phases only: the phase's moves after `override move` / `remove move`, in order.
  std::vector<const Move*> moves;
  /// Phases only: the single-move edits still in effect, in the order applied.
  std::vector<MoveEdit> edits;
};

/// A declaration a variant deleted with `remove`, so later "unknown name" errors can say so.
struct RemovedDecl {
  std::string kind;  ///< "rule", "move", ...
  std::string name;
  Span removed_at;   ///< the `remove` declaration
  Span declared_at;  ///< the declaration it deleted
};

/// The merged view of a game. It points into the parsed files, which it owns.
struct LoadedGame {
  std::vector<std::unique_ptr<File>> files;  ///< every parsed file, kept alive
  std::vector<ChainFile> chain;              ///< the game file first, the loaded file last
  std::vector<MergedDecl> decls;             ///< in effect, in order
  std::vector<RemovedDecl> removed;
  std::vector<DroppedOverride> dropped;     ///< for the checker's `dropped-override` warning
  bool loaded = false;                       ///< false when the loaded file could not be read

  /// Chain index of the file that holds source buffer `source`, or -1.
  int chain_index(uint32_t source) const;
  /// The root of the chain: the `game` file.
  const ChainFile& game_file() const { return chain.front(); }
};

/// Reads `path`, parses it and every file it extends (paths relative to the extending
/// file), and merges them per docs/language.md. Problems go to `diags`; the result is
/// usable (possibly partial) whatever they are.
LoadedGame load_game(const std::string& path, SourceSet& sources, Diagnostics& diags);

/// As load_game, for a buffer already in `sources` (e.g. in-memory text). Its name is
/// the path that `extends` is resolved against.
LoadedGame load_game_source(uint32_t source, SourceSet& sources, Diagnostics& diags);

/// The word a declaration is keyed under ("rule", "board", "end when", ...) and its name
/// ("" for singletons and `init`). Two declarations with the same key are the same thing.
std::pair<std::string, std::string> decl_key(const Decl& decl);

}  // namespace rulebook::dsl
