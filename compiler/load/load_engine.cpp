// dlopen of checked objects, the registry of linked engines and the Engine over the C ABI.
#include "compiler/load/load_engine.h"

#include <dlfcn.h>

#include <cstring>
#include <map>
#include <mutex>

#include <fmt/core.h>

#include "compiler/codegen/emit_cpp.h"
#include "compiler/ir/text.h"

namespace rulebook::compiler {
namespace {

std::string hex16(uint64_t v) { return fmt::format("{:016x}", v); }

// ---------------------------------------------------------------- dlopen and the registry

struct Registry {
  std::mutex mutex;
  std::vector<rb_entry_fn> entries;
};

Registry& registry() {
  static Registry r;  // constructed on first use: registration runs in static initializers
  return r;
}

/// The engine's message with its file named as the interpreter names it: a generated
/// engine writes `@N:line:col` (file N of the source set, so that one compiled engine
/// serves the rules wherever they lie); the name is the one the user gave.
std::string error_text(const rb_error& e, const std::vector<std::string>& files) {
  if (!e.message[0]) return "engine error";
  const std::string m(e.message, strnlen(e.message, sizeof e.message));
  if (m.size() < 2 || m[0] != '@') return m;
  size_t i = 1, file = 0;
  while (i < m.size() && i < 8 && m[i] >= '0' && m[i] <= '9') file = file * 10 + size_t(m[i++] - '0');
  if (i == 1 || i >= m.size() || m[i] != ':' || file >= files.size()) return m;
  return files[file] + m.substr(i);
}

}  // namespace

// ---------------------------------------------------------------- loading

engine::Status open_shared_engine(const std::string& path, uint64_t source_hash,
                                  const rb_engine*& out) {
  static std::mutex mutex;
  static std::map<std::string, void*> handles;  // never closed: engines may still be in use
  out = nullptr;
  void* handle = nullptr;
  {
    std::lock_guard<std::mutex> lock(mutex);
    auto it = handles.find(path);
    if (it != handles.end()) {
      handle = it->second;
    } else {
      // dlopen runs the object's constructors: its bytes are checked first.
      const engine::Status verified = verify_shared_object(path);
      if (!verified.ok) {
        return engine::Status::Error("refused to load an engine: " + verified.message);
      }
      handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
      if (!handle) {
        const char* why = dlerror();
        return engine::Status::Error(fmt::format("internal error: cannot load engine {}: {}",
                                                 path, why ? why : "unknown error"));
      }
      handles[path] = handle;
    }
  }
  const std::string symbol = RULEBOOK_ENTRY_PREFIX + hex16(source_hash);
  auto entry = reinterpret_cast<rb_entry_fn>(dlsym(handle, symbol.c_str()));
  if (!entry) {
    return engine::Status::Error(
        fmt::format("internal error: engine {} has no entry point {}", path, symbol));
  }
  const rb_engine* table = entry();
  if (!table || table->abi_version != RULEBOOK_ABI_VERSION ||
      table->table_bytes != sizeof(rb_engine)) {
    return engine::Status::Error(fmt::format(
        "internal error: engine {} was built for ABI version {}, this rulebook needs {}", path,
        table ? table->abi_version : 0, RULEBOOK_ABI_VERSION));
  }
  out = table;
  return engine::Status::Ok();
}

const rb_engine* find_linked_engine(uint64_t source_hash) {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  for (rb_entry_fn entry : r.entries) {
    const rb_engine* t = entry();
    if (t && t->source_hash == source_hash && t->abi_version == RULEBOOK_ABI_VERSION &&
        t->table_bytes == sizeof(rb_engine)) {
      return t;
    }
  }
  return nullptr;
}

std::vector<uint64_t> linked_engine_hashes() {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  std::vector<uint64_t> out;
  for (rb_entry_fn entry : r.entries) out.push_back(entry()->source_hash);
  return out;
}

LoadedEngine load_engine(std::shared_ptr<const ir::Program> program, const dsl::SourceSet& sources,
                         const CompileOptions& options) {
  LoadedEngine result;
  const EmittedCpp emitted = emit_cpp(*program, sources, options.passes);
  result.source_hash = emitted.hash;
  if (!emitted.error.empty()) {
    result.status = engine::Status::Error("internal error: " + emitted.error);
    return result;
  }
  const rb_engine* table = options.passes.key().empty() ? find_linked_engine(emitted.hash) : nullptr;
  if (table) {
    result.linked = true;
  } else {
    SharedObject so;
    result.status = compile_to_shared_object(emitted.source, program->source_path, options, so);
    result.note = so.note;
    result.cache_error = so.cache_error;
    if (!result.status.ok) return result;
    result.compiled = !so.reused;
    result.shared_object = so.path;
    result.status = open_shared_engine(so.path, emitted.hash, table);
    if (!result.status.ok) return result;
  }
  if (table->state_bytes != program->state_bytes) {
    result.status = engine::Status::Error("internal error: the engine's state size differs from the rules'");
    return result;
  }
  std::vector<std::string> files;
  for (size_t f = 0; f < sources.size(); ++f) files.push_back(sources.file(uint32_t(f)).name);
  result.engine = std::make_unique<CompiledEngine>(table, std::move(program), std::move(files));
  return result;
}

// ---------------------------------------------------------------- the Engine over the ABI

CompiledEngine::CompiledEngine(const rb_engine* table, std::shared_ptr<const ir::Program> program,
                               std::vector<std::string> files)
    : table_(table), program_(std::move(program)), files_(std::move(files)) {
  info_.title = table->title;
  info_.state_bytes = table->state_bytes;
  info_.players = table->players;
  for (int i = 0; i < table->players; ++i) info_.player_names.push_back(table->player_names[i]);
  for (int i = 0; i < table->phases; ++i) info_.phase_names.push_back(table->phase_names[i]);
  for (int i = 0; i < table->moves; ++i) {
    info_.move_names.push_back(table->move_names[i]);
    info_.move_arity.push_back(table->move_arity[i]);
  }
  info_.score_width = table->score_width;
  info_.score_per_team = table->score_per_team != 0;
  info_.score_subjects = table->score_subjects;
  info_.highest_wins = table->highest_wins != 0;
}

engine::Status CompiledEngine::setup_indices(
    uint8_t* state, uint64_t seed, const std::vector<std::vector<uint32_t>>& overrides) const {
  std::vector<const uint32_t*> given(static_cast<size_t>(table_->setups), nullptr);
  for (size_t i = 0; i < overrides.size() && i < given.size(); ++i) {
    if (overrides[i].empty()) continue;
    if (overrides[i].size() != table_->setup_counts[i]) {
      return engine::Status::Error(fmt::format("setup {}: {} values given, {} expected",
                                               table_->setup_names[i], overrides[i].size(),
                                               table_->setup_counts[i]));
    }
    given[i] = overrides[i].data();
  }
  rb_error err;
  err.code = RB_OK;
  err.message[0] = 0;
  if (table_->setup(state, seed, given.data(), &err) != RB_OK) {
    return engine::Status::Error(error_text(err, files_));
  }
  return engine::Status::Ok();
}

engine::Status CompiledEngine::setup(uint8_t* state, const engine::Setup& setup) const {
  std::vector<std::vector<uint32_t>> overrides;
  const engine::Status s = setup_overrides(*program_, setup, overrides);
  if (!s.ok) return s;
  return setup_indices(state, setup.seed, overrides);
}

engine::Status CompiledEngine::legal_moves(const uint8_t* state,
                                           std::vector<engine::Move>& out) const {
  static_assert(sizeof(engine::Move) == sizeof(rb_move));
  // The ABI writes into a buffer of this thread (grown when a state has more moves),
  // then the moves are appended.
  // (engine::Move and rb_move have one layout: the buffer is handed to the ABI as is.)
  thread_local std::vector<engine::Move> buffer(256);
  for (;;) {
    uint32_t count = 0;
    rb_error err;
    err.code = RB_OK;
    err.message[0] = 0;
    const int32_t rc = table_->legal_moves(state, reinterpret_cast<rb_move*>(buffer.data()),
                                           uint32_t(buffer.size()), &count, &err);
    if (rc == RB_TRUNCATED && count > buffer.size()) {
      buffer.resize(count);
      continue;
    }
    if (rc != RB_OK) return engine::Status::Error(error_text(err, files_));
    out.insert(out.end(), buffer.begin(), buffer.begin() + count);
    return engine::Status::Ok();
  }
}

engine::Status CompiledEngine::children(const uint8_t* state, std::vector<engine::Move>& moves,
                                       std::vector<uint8_t>& states) const {
  const size_t n = info_.state_bytes;
  // The ABI writes into buffers of this thread, grown when a state has more moves than
  // they hold (the call is then repeated), and the result is copied out.
  thread_local std::vector<engine::Move> move_buffer(64);
  thread_local std::vector<uint8_t> state_buffer;
  for (;;) {
    const uint32_t room = uint32_t(move_buffer.size());
    if (state_buffer.size() < room * n) state_buffer.resize(room * n);
    uint32_t count = 0;
    rb_error err;
    err.code = RB_OK;
    err.message[0] = 0;
    const int32_t rc = table_->children(state, reinterpret_cast<rb_move*>(move_buffer.data()),
                                        state_buffer.data(), room, &count, &err);
    if (rc == RB_TRUNCATED && count > room) {
      move_buffer.resize(count);
      continue;
    }
    if (rc != RB_OK) return engine::Status::Error(error_text(err, files_));
    moves.assign(move_buffer.begin(), move_buffer.begin() + count);
    states.assign(state_buffer.begin(), state_buffer.begin() + ptrdiff_t(count * n));
    return engine::Status::Ok();
  }
}

engine::Status CompiledEngine::apply(uint8_t* state, const engine::Move& move) const {
  rb_error err;
  err.code = RB_OK;
  err.message[0] = 0;
  if (table_->apply(state, reinterpret_cast<const rb_move*>(&move), &err) != RB_OK) {
    return engine::Status::Error(error_text(err, files_));
  }
  return engine::Status::Ok();
}

engine::Status CompiledEngine::scores(const uint8_t* state, std::vector<int64_t>& out) const {
  out.assign(static_cast<size_t>(table_->score_subjects * table_->score_width), 0);
  rb_error err;
  err.code = RB_OK;
  err.message[0] = 0;
  if (table_->scores(state, out.data(), &err) != RB_OK) {
    return engine::Status::Error(error_text(err, files_));
  }
  return engine::Status::Ok();
}

engine::Status CompiledEngine::metric(const uint8_t* state, int index, bool& recorded,
                                      int64_t& value) const {
  rb_error err;
  err.code = RB_OK;
  err.message[0] = 0;
  int32_t rec = 0;
  recorded = false;
  value = 0;
  if (table_->metric(state, index, &rec, &value, &err) != RB_OK) {
    return engine::Status::Error(error_text(err, files_));
  }
  recorded = rec != 0;
  return engine::Status::Ok();
}

engine::Status CompiledEngine::observe(const uint8_t* state, int index, bool value_only, bool& in,
                                       int64_t& value) const {
  rb_error err;
  err.code = RB_OK;
  err.message[0] = 0;
  int32_t inside = 0;
  in = false;
  value = 0;
  if (table_->observe(state, index, value_only ? 1 : 0, &inside, &value, &err) != RB_OK) {
    return engine::Status::Error(error_text(err, files_));
  }
  in = inside != 0;
  return engine::Status::Ok();
}

engine::Status CompiledEngine::count_moves(const uint8_t* state, uint64_t& count) const {
  rb_error err;
  err.code = RB_OK;
  err.message[0] = 0;
  if (table_->count_moves(state, &count, &err) != RB_OK) {
    return engine::Status::Error(error_text(err, files_));
  }
  return engine::Status::Ok();
}

engine::Status CompiledEngine::perft(const uint8_t* state, int depth, uint64_t& count) const {
  rb_error err;
  err.code = RB_OK;
  err.message[0] = 0;
  if (table_->perft(state, depth, &count, &err) != RB_OK) {
    return engine::Status::Error(error_text(err, files_));
  }
  return engine::Status::Ok();
}

engine::Status CompiledEngine::playout(uint8_t* state, uint64_t& rng, uint64_t max_plies,
                                       bool same_phase, uint64_t& plies) const {
  rb_error err;
  err.code = RB_OK;
  err.message[0] = 0;
  plies = 0;
  if (table_->playout(state, &rng, max_plies, same_phase ? 1 : 0, &plies, &err) != RB_OK) {
    return engine::Status::Error(error_text(err, files_));
  }
  return engine::Status::Ok();
}

std::string CompiledEngine::move_text(const engine::Move& move) const {
  return compiler::move_text(*program_, move);
}

std::string CompiledEngine::board_text(const uint8_t* state) const {
  return compiler::board_text(*program_, state);
}

}  // namespace rulebook::compiler

extern "C" void rulebook_register_engine(rb_entry_fn entry) {
  auto& r = rulebook::compiler::registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  r.entries.push_back(entry);
}
