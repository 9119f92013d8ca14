// The C++ emitter: deterministic output, generated engines that compile, load and agree
// with the interpreter (moves, state hashes, scores, perft), the compile cache, engines
// linked at build time, and run-time errors reported through the ABI.
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <thread>

#include "compiler/codegen/emit_cpp.h"
#include "compiler/load/load_engine.h"
#include "compiler/lower/lower.h"
#include "compiler/runtime/random.h"

#include "compiler/interp/interpret.h"

namespace fs = std::filesystem;
using namespace rulebook;

namespace {

/// A lowered program with the sources its spans point into.
struct Rules {
  std::unique_ptr<dsl::SourceSet> sources = std::make_unique<dsl::SourceSet>();
  std::shared_ptr<const ir::Program> program;
  std::string diagnostics;
};

Rules load(const std::string& path) {
  Rules r;
  dsl::Diagnostics diags;
  auto p = compiler::load_program(path, *r.sources, diags);
  r.diagnostics = diags.render(*r.sources);
  if (p) r.program = std::make_shared<const ir::Program>(std::move(*p));
  return r;
}

Rules load_text(const std::string& name, const std::string& text) {
  Rules r;
  dsl::Diagnostics diags;
  auto p = compiler::load_program_text(name, text, *r.sources, diags);
  r.diagnostics = diags.render(*r.sources);
  if (p) r.program = std::make_shared<const ir::Program>(std::move(*p));
  return r;
}

std::vector<std::string> variant_files() {
  std::vector<std::string> out;
  for (const auto& dir : fs::directory_iterator(fs::path(RULEBOOK_SOURCE_DIR) / "variants")) {
    if (!dir.is_directory()) continue;
    for (const auto& f : fs::directory_iterator(dir.path()))
      if (f.path().extension() == ".rules") out.push_back(f.path().string());
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::string short_name(const std::string& path) {
  return fs::path(path).parent_path().filename().string() + "/" + fs::path(path).filename().string();
}

/// The cache the tests share between runs (so a second run compiles nothing).
compiler::CompileOptions shared_cache() {
  compiler::CompileOptions o;
  o.cache_dir = std::string(RULEBOOK_BINARY_DIR) + "/tests/emit/engine-cache";
  return o;
}

/// A cache directory of its own, removed at the end of the test.
struct TempCache {
  fs::path dir;
  TempCache() {
    dir = fs::temp_directory_path() /
          ("rulebook-emit-test-" + std::to_string(getpid()) + "-" + std::to_string(counter()++));
    fs::remove_all(dir);
  }
  ~TempCache() {
    std::error_code ec;
    fs::remove_all(dir, ec);
  }
  compiler::CompileOptions options() const {
    compiler::CompileOptions o;
    o.cache_dir = dir.string();
    return o;
  }
  static int& counter() {
    static int n = 0;
    return n;
  }
};

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

/// One seeded random game: the moves, the hash after each, and the final scores.
struct Game {
  std::vector<engine::Move> moves;
  std::vector<uint64_t> hashes;
  std::vector<int64_t> scores;
  std::vector<uint8_t> last;  ///< the state the game stopped in
  std::string error;
};

Game play(const engine::Engine& e, uint64_t seed, int max_plies) {
  Game g;
  std::vector<uint8_t> state(e.info().state_bytes);
  engine::Setup setup;
  setup.seed = seed;
  engine::Status s = e.setup(state.data(), setup);
  if (!s.ok) {
    g.error = "setup: " + s.message;
    return g;
  }
  g.hashes.push_back(e.hash(state.data()));
  SplitMix64 rng(seed);
  std::vector<engine::Move> legal;
  for (int ply = 0; ply < max_plies && !e.terminal(state.data()); ++ply) {
    legal.clear();
    s = e.legal_moves(state.data(), legal);
    if (!s.ok) {
      g.error = "legal moves: " + s.message;
      return g;
    }
    if (legal.empty()) {
      g.error = "no legal move in a state that is not terminal";
      return g;
    }
    const engine::Move m = legal[rng.next() % legal.size()];
    g.moves.push_back(m);
    s = e.apply(state.data(), m);
    if (!s.ok) {
      g.error = "apply: " + s.message;
      return g;
    }
    g.hashes.push_back(e.hash(state.data()));
  }
  s = e.scores(state.data(), g.scores);
  if (!s.ok) g.error = "scores: " + s.message;
  g.last = state;
  return g;
}

uint64_t perft(const engine::Engine& e, const uint8_t* state, int depth) {
  std::vector<engine::Move> moves;
  REQUIRE(e.legal_moves(state, moves).ok);
  if (depth == 1) return moves.size();
  uint64_t total = 0;
  std::vector<uint8_t> child(e.info().state_bytes);
  for (const engine::Move& m : moves) {
    std::copy(state, state + child.size(), child.begin());
    REQUIRE(e.apply(child.data(), m).ok);
    total += perft(e, child.data(), depth - 1);
  }
  return total;
}

/// The lines of compiler/runtime/<file> strictly between its "// begin of the <what>" and
/// "// end of the <what>" lines: the text the build embeds into the emitter.
std::string runtime_part(const std::string& file, const std::string& what) {
  const std::string text = read_file(std::string(RULEBOOK_SOURCE_DIR) + "/compiler/runtime/" + file);
  const std::string begin = "// begin of the " + what + "\n", end = "\n// end of the " + what + "\n";
  const size_t a = text.find(begin), b = text.find(end);
  REQUIRE(a != std::string::npos);
  REQUIRE(b != std::string::npos);
  REQUIRE(b > a + begin.size());
  return text.substr(a + begin.size(), b + 1 - a - begin.size());
}

}  // namespace

TEST_CASE("every engine carries the runtime files' text, byte for byte, where it belongs", "[emit]") {
  const std::string abi = runtime_part("plugin_abi.h", "ABI");
  const std::string support = runtime_part("engine_support.h", "support code");
  CHECK(std::string(compiler::abi_declarations()) == abi);
  // Inside the engine's `extern "C"` block, and at the head of its anonymous namespace.
  const std::string abi_block = "extern \"C\" {\n" + abi + "void rulebook_register_engine(rb_entry_fn entry);\n}\n";
  const std::string support_block =
      "namespace {\n\n// ================================================================ support\n\n" + support + "\n";
  for (const std::string& path : variant_files()) {
    INFO(short_name(path));
    Rules r = load(path);
    REQUIRE(r.program);
    const std::string source = compiler::emit_cpp(*r.program, *r.sources).source;
    const size_t a = source.find(abi_block), b = source.find(support_block);
    CHECK(a != std::string::npos);
    CHECK(b != std::string::npos);
    CHECK(a < b);
    CHECK(source.find(abi) == source.rfind(abi));
    CHECK(source.find(support) == source.rfind(support));
  }
}

TEST_CASE("generated sources are deterministic and self-contained", "[emit]") {
  for (const std::string& path : variant_files()) {
    INFO(short_name(path));
    Rules one = load(path), two = load(path);
    REQUIRE(one.program);
    REQUIRE(two.program);
    const compiler::EmittedCpp a = compiler::emit_cpp(*one.program, *one.sources);
    const compiler::EmittedCpp b = compiler::emit_cpp(*two.program, *two.sources);
    CHECK(a.error.empty());
    CHECK(a.source == b.source);
    CHECK(a.hash == b.hash);
    // The header says what the file is; the file name is in it only as a string literal
    // (in the engine's info), never in a comment: file names are user text.
    CHECK(a.source.rfind("// Generated by rulebook from a rules file - do not edit.\n", 0) == 0);
    CHECK(a.source.find("\"" + fs::path(path).filename().string() + "\",") != std::string::npos);
    // Nothing of rulebook is included: the file compiles on its own.
    CHECK(a.source.find("#include \"") == std::string::npos);
    CHECK(a.source.find(a.entry) != std::string::npos);
  }
  // Nor does it depend on how the rules file's path was spelt (engines linked at build
  // time are found by the hash of the source).
  const std::string plain = std::string(RULEBOOK_SOURCE_DIR) + "/variants/garnsi-malom/garnsi-6x6.rules";
  const std::string roundabout =
      std::string(RULEBOOK_SOURCE_DIR) + "/variants/../variants/./garnsi-malom/garnsi-6x6.rules";
  Rules one = load(plain), two = load(roundabout);
  REQUIRE(one.program);
  REQUIRE(two.program);
  CHECK(compiler::emit_cpp(*one.program, *one.sources).source ==
        compiler::emit_cpp(*two.program, *two.sources).source);
}

TEST_CASE("every variant compiles, loads and plays", "[emit]") {
  for (const std::string& path : variant_files()) {
    INFO(short_name(path));
    Rules r = load(path);
    REQUIRE(r.program);
    compiler::LoadedEngine le = compiler::load_engine(r.program, *r.sources, shared_cache());
    INFO(le.status.message);
    REQUIRE(le.engine);
    const engine::Info& info = le.engine->info();
    CHECK(info.state_bytes == r.program->state_bytes);
    CHECK(info.players == r.program->players);
    CHECK(info.move_names.size() == r.program->moves.size());
    Game g = play(*le.engine, 1, 300);
    CHECK(g.error == "");
    CHECK(!g.moves.empty());
  }
}

TEST_CASE("the engine cache compiles once and is reused", "[emit]") {
  TempCache cache;
  Rules r = load(std::string(RULEBOOK_SOURCE_DIR) + "/variants/sudoku-fill/fill-4x4.rules");
  REQUIRE(r.program);
  const compiler::EmittedCpp emitted = compiler::emit_cpp(*r.program, *r.sources);
  compiler::SharedObject first, second;
  REQUIRE(compiler::compile_to_shared_object(emitted.source, "fill-4x4.rules", cache.options(), first).ok);
  CHECK_FALSE(first.reused);
  REQUIRE(fs::exists(first.path));
  const auto built = fs::last_write_time(first.path);
  REQUIRE(compiler::compile_to_shared_object(emitted.source, "fill-4x4.rules", cache.options(), second).ok);
  CHECK(second.reused);
  CHECK(second.path == first.path);
  CHECK(fs::last_write_time(second.path) == built);
  // No temporary files are left behind.
  for (const auto& f : fs::directory_iterator(cache.dir))
    CHECK(f.path().string().find(".tmp.") == std::string::npos);

  // Through load_engine as well: the engine comes from the cache, not the compiler.
  compiler::LoadedEngine le = compiler::load_engine(r.program, *r.sources, cache.options());
  REQUIRE(le.engine);
  CHECK_FALSE(le.compiled);
  CHECK(le.shared_object == first.path);

  // Another compiler command (here: other flags) is another cache entry.
  compiler::CompileOptions o0 = cache.options();
  o0.flags = {"-std=c++20", "-O0", "-fPIC", "-shared"};
  compiler::SharedObject third;
  REQUIRE(compiler::compile_to_shared_object(emitted.source, "fill-4x4.rules", o0, third).ok);
  CHECK_FALSE(third.reused);
  CHECK(third.path != first.path);
}

TEST_CASE("two compiles of one engine at once leave one good cache entry", "[emit]") {
  TempCache cache;
  Rules r = load(std::string(RULEBOOK_SOURCE_DIR) + "/variants/sudoku-fill/fill-6x6.rules");
  REQUIRE(r.program);
  const compiler::EmittedCpp emitted = compiler::emit_cpp(*r.program, *r.sources);
  compiler::SharedObject a, b;
  engine::Status sa, sb;
  std::thread other([&] { sb = compiler::compile_to_shared_object(emitted.source, "fill-6x6.rules", cache.options(), b); });
  sa = compiler::compile_to_shared_object(emitted.source, "fill-6x6.rules", cache.options(), a);
  other.join();
  REQUIRE(sa.ok);
  REQUIRE(sb.ok);
  CHECK(a.path == b.path);
  const rb_engine* table = nullptr;
  REQUIRE(compiler::open_shared_engine(a.path, emitted.hash, table).ok);
  CHECK(table->state_bytes == r.program->state_bytes);
  int objects = 0;
  for (const auto& f : fs::directory_iterator(cache.dir)) {
    CHECK(f.path().string().find(".tmp.") == std::string::npos);
    objects += f.path().extension() == ".so";
  }
  CHECK(objects == 1);
}

TEST_CASE("a generated source that does not compile is an internal error", "[emit]") {
  TempCache cache;
  compiler::SharedObject so;
  const engine::Status s = compiler::compile_to_shared_object(
      "this is not C++\n", "broken.rules", cache.options(), so);
  CHECK_FALSE(s.ok);
  CHECK(s.message.find("internal error") != std::string::npos);
  CHECK(s.message.find("broken.rules") != std::string::npos);
  CHECK_FALSE(fs::exists(so.path));

  compiler::CompileOptions missing = cache.options();
  missing.compiler = "/nonexistent/c++";
  const engine::Status m = compiler::compile_to_shared_object("int x;\n", "x.rules", missing, so);
  CHECK_FALSE(m.ok);
  CHECK(m.message.find("x.rules") != std::string::npos);
}

TEST_CASE("engines linked at build time are found by source hash", "[emit]") {
  Rules r = load(std::string(RULEBOOK_SOURCE_DIR) + "/variants/garnsi-malom/garnsi-6x6.rules");
  REQUIRE(r.program);
  const compiler::EmittedCpp emitted = compiler::emit_cpp(*r.program, *r.sources);
  REQUIRE(compiler::find_linked_engine(emitted.hash) != nullptr);
  TempCache cache;  // empty: a linked engine needs no compiler
  compiler::LoadedEngine le = compiler::load_engine(r.program, *r.sources, cache.options());
  REQUIRE(le.engine);
  CHECK(le.linked);
  CHECK_FALSE(le.compiled);
  CHECK_FALSE(fs::exists(cache.dir));
  CHECK(play(*le.engine, 3, 100).error == "");
}

TEST_CASE("run-time errors come back through the ABI with their rule's location", "[emit]") {
  Rules r = load_text("errors.rules", R"(game "errors";
board 2 x 2;
players 2;
state count: 0..2;
phase play {
  move bump
  {
    count += 1;
  }
}
)");
  INFO(r.diagnostics);
  REQUIRE(r.program);
  TempCache cache;
  compiler::LoadedEngine le = compiler::load_engine(r.program, *r.sources, cache.options());
  INFO(le.status.message);
  REQUIRE(le.engine);
  const engine::Engine& e = *le.engine;
  std::vector<uint8_t> state(e.info().state_bytes);
  REQUIRE(e.setup(state.data(), {}).ok);
  const engine::Move bump{0, {0, 0, 0, 0}};
  REQUIRE(e.apply(state.data(), bump).ok);
  REQUIRE(e.apply(state.data(), bump).ok);
  const engine::Status s = e.apply(state.data(), bump);
  CHECK_FALSE(s.ok);
  CHECK(s.message.find("errors.rules:8:5") != std::string::npos);
  // A move of no phase is refused, not played.
  const engine::Status bad = e.apply(state.data(), engine::Move{7, {0, 0, 0, 0}});
  CHECK_FALSE(bad.ok);
}


namespace {

/// Games per variant in the differential test: 20, or $RULEBOOK_DIFF_GAMES.
int differential_games() {
  const char* n = std::getenv("RULEBOOK_DIFF_GAMES");
  return n && std::atoi(n) > 0 ? std::atoi(n) : 20;
}

/// Where two games part, in words (empty when they are the same).
std::string first_difference(const engine::Engine& e, const Game& want, const Game& got) {
  if (want.error != got.error) return "errors: interpreter '" + want.error + "', generated '" + got.error + "'";
  const size_t n = std::min(want.moves.size(), got.moves.size());
  for (size_t i = 0; i < n; ++i) {
    if (!(want.moves[i] == got.moves[i]))
      return "move " + std::to_string(i) + ": " + e.move_text(want.moves[i]) + " vs " + e.move_text(got.moves[i]);
    if (want.hashes[i + 1] != got.hashes[i + 1])
      return "state hash after move " + std::to_string(i) + " (" + e.move_text(want.moves[i]) + ")";
  }
  if (want.hashes.empty() || got.hashes.empty() || want.hashes[0] != got.hashes[0]) return "the set-up state";
  if (want.moves.size() != got.moves.size())
    return "length: " + std::to_string(want.moves.size()) + " vs " + std::to_string(got.moves.size()) + " moves";
  if (want.scores != got.scores) return "final scores";
  return "";
}

}  // namespace

TEST_CASE("generated engines play every variant as the interpreter does", "[emit][differential]") {
  const int games = differential_games();
  const std::vector<std::string> files = variant_files();
  // Engines are loaded here; the games run on two threads (the engines are reentrant),
  // and the results are checked here (Catch is not thread-safe).
  std::vector<Rules> rules;
  std::vector<std::unique_ptr<compiler::Interpreter>> interpreters;
  std::vector<std::unique_ptr<compiler::CompiledEngine>> engines;
  for (const std::string& path : files) {
    INFO(short_name(path));
    rules.push_back(load(path));
    REQUIRE(rules.back().program);
    interpreters.push_back(std::make_unique<compiler::Interpreter>(*rules.back().program, *rules.back().sources));
    compiler::LoadedEngine le = compiler::load_engine(rules.back().program, *rules.back().sources, shared_cache());
    INFO(le.status.message);
    REQUIRE(le.engine);
    engines.push_back(std::move(le.engine));
  }
  // One job per (variant, game); each result is the first difference ("" when none).
  const size_t jobs = files.size() * size_t(games);
  std::vector<std::string> diffs(jobs);
  std::atomic<size_t> next{0};
  auto worker = [&] {
    for (size_t j; (j = next++) < jobs;) {
      const size_t v = j / size_t(games);
      const uint64_t seed = j % size_t(games);
      const Game want = play(*interpreters[v], seed, 2000);
      const Game got = play(*engines[v], seed, 2000);
      diffs[j] = first_difference(*interpreters[v], want, got);
      // The metrics of the last state, too.
      const size_t metrics = rules[v].program->metrics.size();
      for (size_t k = 0; k < metrics && diffs[j].empty() && want.error.empty(); ++k) {
        bool r1 = false, r2 = false;
        int64_t v1 = 0, v2 = 0;
        const engine::Status s1 = interpreters[v]->metric(want.last.data(), int(k), r1, v1);
        const engine::Status s2 = engines[v]->metric(got.last.data(), int(k), r2, v2);
        if (s1.ok != s2.ok || r1 != r2 || v1 != v2)
          diffs[j] = "metric " + rules[v].program->metrics[k].name;
      }
    }
  };
  std::thread helper(worker);
  worker();
  helper.join();
  for (size_t j = 0; j < jobs; ++j) {
    INFO(short_name(files[j / size_t(games)]) << ", game " << j % size_t(games));
    CHECK(diffs[j] == "");
  }
}

TEST_CASE("generated engines count perft as the interpreter does", "[emit][differential]") {
  const char* variants[] = {"garnsi-malom/garnsi-6x6.rules", "sudoku-fill/fill-4x4.rules",
                            "sudoku-moyo/moyo.rules", "garnsi-malom/garnsi-lesson.rules",
                            "smyoz/smyoz-8x8.rules"};
  for (const char* v : variants) {
    INFO(v);
    Rules r = load(std::string(RULEBOOK_SOURCE_DIR) + "/variants/" + v);
    REQUIRE(r.program);
    compiler::Interpreter interpreter(*r.program, *r.sources);
    compiler::LoadedEngine le = compiler::load_engine(r.program, *r.sources, shared_cache());
    REQUIRE(le.engine);
    std::vector<uint8_t> a(r.program->state_bytes), b(r.program->state_bytes);
    REQUIRE(interpreter.setup(a.data(), {}).ok);
    REQUIRE(le.engine->setup(b.data(), {}).ok);
    REQUIRE(a == b);
    for (int depth = 1; depth <= 3; ++depth) {
      INFO("depth " << depth);
      uint64_t want = 0, inside = 0;
      REQUIRE(interpreter.perft(a.data(), depth, want).ok);
      REQUIRE(le.engine->perft(b.data(), depth, inside).ok);
      CHECK(inside == want);
      CHECK(perft(*le.engine, b.data(), depth) == want);
    }
  }
}

/// The engine of `r` compiled here with RULEBOOK_RESTORE_ALWAYS: perft undoes every move it
/// can by copying back what the move may change (compiler/codegen/emit_restore.cpp), whatever the
/// game's size. The test fails where it cannot be had.
compiler::CompiledEngine undoing_engine(const Rules& r, const std::string& path) {
  compiler::CompileOptions options = shared_cache();
  options.flags = {"-std=c++20", "-O2", "-fPIC", "-shared", "-DRULEBOOK_RESTORE_ALWAYS"};
  const compiler::EmittedCpp emitted = compiler::emit_cpp(*r.program, *r.sources);
  REQUIRE(emitted.error.empty());
  REQUIRE(emitted.source.find("constexpr Int kRestoreUnits") != std::string::npos);
  compiler::SharedObject so;
  const engine::Status built = compiler::compile_to_shared_object(emitted.source, path, options, so);
  INFO(built.message);
  REQUIRE(built.ok);
  const rb_engine* table = nullptr;
  REQUIRE(compiler::open_shared_engine(so.path, emitted.hash, table).ok);
  return compiler::CompiledEngine(table, r.program);
}

TEST_CASE("perft that undoes children by restoring elements counts as the interpreter does",
          "[emit][differential]") {
  // The engines compiled with RULEBOOK_RESTORE_ALWAYS undo every move they can by copying
  // back the elements, planes, unions and remembered values it may change
  // (compiler/codegen/emit_restore.cpp), whatever the game's size:
  // perft to depth 2 plays each child of the root that way. Compared at states along
  // seeded games, so that every phase and kind of move (placing, jumping, capturing,
  // passing, the stuck loop, the end) is undone from states where it is legal. (Variants
  // not linked into this test, so that the engine loaded is the one compiled here.)
  const char* variants[] = {"garnsi-malom/garnsi-9.rules", "garnsi-malom/garnsi-lesson.rules",
                            "garnsi-malom/garnsi-9-shrinking.rules", "sudoku-moyo/moyo.rules",
                            "sudoku-cards/cards.rules", "sudoku-fill/fill-4x4.rules"};
  for (const char* v : variants) {
    INFO(v);
    const std::string path = std::string(RULEBOOK_SOURCE_DIR) + "/variants/" + v;
    Rules r = load(path);
    REQUIRE(r.program);
    compiler::CompiledEngine undoing = undoing_engine(r, path);
    compiler::Interpreter interpreter(*r.program, *r.sources);
    int states = 0;
    for (uint64_t seed = 1; seed <= 6; ++seed) {
      engine::Setup setup;
      setup.seed = seed;
      std::vector<uint8_t> s(r.program->state_bytes);
      REQUIRE(undoing.setup(s.data(), setup).ok);
      SplitMix64 rng(seed);
      std::vector<engine::Move> moves;
      for (int ply = 0; ply < 150; ++ply) {
        INFO("seed " << seed << ", ply " << ply);
        uint64_t want = 0, got = 0;
        REQUIRE(interpreter.perft(s.data(), 2, want).ok);
        REQUIRE(undoing.perft(s.data(), 2, got).ok);
        REQUIRE(got == want);
        ++states;
        if (undoing.terminal(s.data())) break;
        moves.clear();
        REQUIRE(undoing.legal_moves(s.data(), moves).ok);
        if (moves.empty()) break;
        const engine::Move& pick = moves[rng.below(moves.size())];
        INFO(undoing.move_text(pick));
        const engine::Status played = undoing.apply(s.data(), pick);
        INFO(played.message);
        REQUIRE(played.ok);
      }
    }
    CHECK(states > 6);
  }
}

TEST_CASE("an undone child leaves the parent only what the parent remembered and still holds",
          "[emit][differential]") {
  // A remembered value of the parent stays known after a child is undone only where the
  // child's stores cannot have changed it. Here every placement reads `marked` and
  // can(clear) before it stores, and the end test remembers them after the store: a
  // sibling that read the previous child's values would store 2 where it must store 1 or
  // the other way round, and the moves below it would be counted wrong. Depth 3 and more: the parents of the
  // undone children are then games played, with what their own end test remembered.
  const Rules r = load_text("remembered.rules", R"(game "remembered";
board 3 x 2;
players 1;  // the end test asks can() of the player the next move's block asks it of
state mark: Cell -> 0..2;  // 0: empty
define marked: int = count c in cells where mark[c] != 0;
define twos: int = count c in cells where mark[c] == 2;
phase play {
  move put(c: Cell)
    requires mark[c] == 0;
  {
    mark[c] := if can(clear) or marked == 3 then 1 else 2;
  }
  move clear(c: Cell)
    requires twos >= 1;
    requires mark[c] == 2;
  {
    mark[c] := 0;
  }
}
end when marked >= 6 or (can(clear) and twos >= 4);
score p = marked;
winner highest;
)");
  INFO(r.diagnostics);
  REQUIRE(r.program);
  compiler::CompiledEngine undoing = undoing_engine(r, "remembered.rules");
  compiler::Interpreter interpreter(*r.program, *r.sources);
  std::vector<uint8_t> s(r.program->state_bytes);
  REQUIRE(undoing.setup(s.data(), engine::Setup{}).ok);
  for (int depth = 1; depth <= 6; ++depth) {
    INFO("depth " << depth);
    uint64_t want = 0, got = 0;
    REQUIRE(interpreter.perft(s.data(), depth, want).ok);
    REQUIRE(undoing.perft(s.data(), depth, got).ok);
    CHECK(got == want);
  }
}
