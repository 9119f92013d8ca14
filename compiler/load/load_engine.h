// Turning generated C++ into a running engine: the compile cache, dlopen, the registry of
// engines linked into a tool at build time, and the engine::Engine over the C ABI.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "compiler/runtime/engine.h"
#include "compiler/ir/ir.h"
#include "compiler/plan/engine_plan.h"
#include "compiler/runtime/plugin_abi.h"
#include "dsl/source.h"

namespace rulebook::compiler {

/// Where and how generated engines are compiled at run time.
struct CompileOptions {
  /// Empty: $RULEBOOK_CACHE, else $XDG_CACHE_HOME/rulebook, else ~/.cache/rulebook; with
  /// none of them set there is no cache (never a shared folder such as /tmp).
  std::string cache_dir;
  /// Empty: $CXX, else `c++`. May hold a launcher and arguments ("ccache g++").
  std::string compiler;
  /// Empty: -std=c++20 -O2 -fPIC -shared.
  std::vector<std::string> flags;
  /// The engine plan's passes switched off (part of the cache key; an engine linked into
  /// rulebook is built with every pass on, so it serves only when none is off).
  plan::PassSwitches passes;
};

/// The compiler compile_to_shared_object runs for `options` (a launcher and arguments may
/// precede it), and its flags: what an engine compiled at run time is built with.
std::vector<std::string> compiler_words(const CompileOptions& options);
std::vector<std::string> compiler_flags(const CompileOptions& options);

/// A compiled engine on disk.
struct SharedObject {
  std::string path;
  bool reused = false;          ///< it was in the cache: the compiler did not run
  std::string compiler_output;  ///< what the compiler printed (when it ran)
  std::string note;             ///< one line when a cached object was refused and rebuilt
  bool cache_error = false;     ///< failed for the cache (directory, I/O), not the code
};

/// The cache directory `options` resolves to (see CompileOptions::cache_dir), "" for none.
std::string cache_directory(const CompileOptions& options);

/// Compiles a generated source into a shared object in the cache, unless the cache holds
/// one for the same key already: the source, the compiler (the programs it runs as and its
/// whole `--version`), the flags, the passes off, rulebook's version and ABI. The cache directory is created
/// with mode 0700 and refused unless it belongs to this user and no one else can write it.
/// A cached object is used only if its bytes match the SHA-256 recorded beside it
/// (NAME.sum) when it was built; otherwise it is rebuilt and `out.note` says so.
/// Concurrent callers never see a partial file: each writes temporary names (removed
/// however it ends) and renames them. A failing compiler is an internal error naming
/// `rules_file`; I/O failures name the path and strerror and set `out.cache_error`.
engine::Status compile_to_shared_object(const std::string& source, const std::string& rules_file,
                                        const CompileOptions& options, SharedObject& out);

/// Whether the object at `path` has the SHA-256 recorded beside it (NAME.sum) when it was
/// built. Reads the bytes only; nothing of the object runs.
engine::Status verify_shared_object(const std::string& path);

/// Checks `path` with verify_shared_object, then dlopens it (kept open for the life of the
/// process), finds the entry point of the engine with `source_hash` and checks its ABI
/// version.
engine::Status open_shared_engine(const std::string& path, uint64_t source_hash,
                                  const rb_engine*& out);

/// The engine with `source_hash` linked into this executable (rulebook_add_engines), or null.
const rb_engine* find_linked_engine(uint64_t source_hash);
/// Source hashes of every linked engine, for diagnostics and tests.
std::vector<uint64_t> linked_engine_hashes();

/// engine::Engine over an ABI table. Move and board texts come from the program.
class CompiledEngine : public engine::Engine {
 public:
  /// `files`: the rules files' names in the order of their source set, for the locations
  /// of errors (without them an error names a file by its index, `@0:12:5`).
  CompiledEngine(const rb_engine* table, std::shared_ptr<const ir::Program> program,
                 std::vector<std::string> files = {});

  const engine::Info& info() const override { return info_; }
  engine::Status setup(uint8_t* state, const engine::Setup& setup) const override;
  engine::Status legal_moves(const uint8_t* state, std::vector<engine::Move>& out) const override;
  engine::Status apply(uint8_t* state, const engine::Move& move) const override;
  bool terminal(const uint8_t* state) const override { return table_->terminal(state) != 0; }
  int phase(const uint8_t* state) const override { return table_->phase(state); }
  int to_move(const uint8_t* state) const override { return table_->to_move(state); }
  engine::Status scores(const uint8_t* state, std::vector<int64_t>& out) const override;
  uint64_t hash(const uint8_t* state) const override { return table_->hash(state); }
  std::string move_text(const engine::Move& move) const override;
  std::string board_text(const uint8_t* state) const override;

  /// Fast paths the generic interface lacks.
  engine::Status count_moves(const uint8_t* state, uint64_t& count) const;
  engine::Status perft(const uint8_t* state, int depth, uint64_t& count) const override;
  /// The moves and their states in one call (rb_engine::children).
  engine::Status children(const uint8_t* state, std::vector<engine::Move>& moves,
                          std::vector<uint8_t>& states) const override;
  /// Random moves played inside the engine (rb_engine::playout): from `state` until the
  /// game is over, `max_plies` moves, or with `same_phase` a change of phase. `rng` is the
  /// state of a splitmix64 stream (SplitMix64(seed) starts at `seed`), left advanced, so
  /// the games are those of legal_moves and apply choosing `next() % n` in a loop.
  engine::Status playout(uint8_t* state, uint64_t& rng, uint64_t max_plies, bool same_phase,
                         uint64_t& plies) const;
  engine::Status metric(const uint8_t* state, int index, bool& recorded, int64_t& value) const override;
  engine::Status observe(const uint8_t* state, int index, bool value_only, bool& in, int64_t& value) const override;
  /// setup() with the overrides already resolved: one entry per setup variable, empty to
  /// compute it, else its element indices.
  engine::Status setup_indices(uint8_t* state, uint64_t seed,
                               const std::vector<std::vector<uint32_t>>& overrides) const;

  const rb_engine& table() const { return *table_; }

 private:
  const rb_engine* table_;
  std::shared_ptr<const ir::Program> program_;
  std::vector<std::string> files_;
  engine::Info info_;
};

/// What load_engine did.
struct LoadedEngine {
  std::unique_ptr<CompiledEngine> engine;  ///< null on error
  engine::Status status;
  uint64_t source_hash = 0;
  bool linked = false;      ///< found among the engines linked into this executable
  bool compiled = false;    ///< the compiler ran (a cache miss)
  bool cache_error = false;  ///< failed for the cache (directory, I/O), not the generated code
  std::string note;          ///< one line when a cached object was refused and rebuilt
  std::string shared_object;
};

/// Emits the program's C++, then uses the linked engine of the same source hash, or the
/// cached shared object, or compiles one. `sources` resolves the rules' spans.
LoadedEngine load_engine(std::shared_ptr<const ir::Program> program, const dsl::SourceSet& sources,
                         const CompileOptions& options = {});

}  // namespace rulebook::compiler
