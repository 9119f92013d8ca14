// The generated engine against the interpreter: seeded random games per shipped variant
// (300, or as many as fit in a budget of interpreted moves, at least 100) with identical
// move lists, state hashes after every move and final scores.
// Variants are found at run time and split into shards that CTest runs in parallel.
#include <algorithm>
#include <chrono>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include <catch2/catch.hpp>
#include <fmt/core.h>

#include "compiler/interp/interpret.h"
#include "compiler/load/load_engine.h"
#include "compiler/lower/lower.h"
#include "compiler/runtime/random.h"
#include "explorer/playout.h"

using namespace rulebook;
namespace fs = std::filesystem;

namespace {

constexpr int kGames = 300;
/// Long games cost the interpreter most: a variant whose games run to the cap stops after
/// this many moves (after kMinGames games at least), so a game of 400 moves does not cost
/// 400 times a game of one; the random programs test the compiler more widely.
constexpr uint64_t kPlyBudget = 60'000;
constexpr int kMinGames = 100;
static_assert(kMinGames <= kGames, "the budget never cuts a variant below kMinGames games");
/// Random play never ends some battles (the Garnsi 9-player game has no move limit in the
/// text); those games are compared up to this many moves.
constexpr int kMaxPlies = 400;
constexpr int kShards = 4;

std::vector<std::string> variants() {
  std::vector<std::string> out;
  for (const auto& dir : fs::directory_iterator(RULEBOOK_SOURCE_DIR "/variants")) {
    if (!dir.is_directory()) continue;  // variants/ also holds settings such as report.json
    for (const auto& f : fs::directory_iterator(dir.path()))
      if (f.path().extension() == ".rules") out.push_back(f.path().string());
  }
  std::sort(out.begin(), out.end());
  return out;
}

void check_variant(const std::string& path) {
  dsl::SourceSet sources;
  dsl::Diagnostics diags;
  auto lowered = compiler::load_program(path, sources, diags);
  INFO(diags.render(sources));
  REQUIRE(lowered);
  auto program = std::make_shared<const ir::Program>(std::move(*lowered));
  compiler::LoadedEngine loaded = compiler::load_engine(program, sources);
  INFO(loaded.status.message);
  REQUIRE(loaded.engine);
  const compiler::CompiledEngine& gen = *loaded.engine;
  compiler::Interpreter interp(*program, sources);

  int finished = 0, games = 0;
  uint64_t plies = 0;
  std::vector<uint8_t> a(program->state_bytes), b(program->state_bytes);
  for (int game = 1; game <= kGames && (game <= kMinGames || plies < kPlyBudget); ++game) {
    ++games;
    engine::Setup setup;
    setup.seed = static_cast<uint64_t>(game);
    REQUIRE(gen.setup(a.data(), setup).ok);
    REQUIRE(interp.setup(b.data(), setup).ok);
    REQUIRE(gen.hash(a.data()) == interp.hash(b.data()));
    explorer::PlayoutOptions opt{static_cast<uint64_t>(game), kMaxPlies};
    explorer::Playout x = explorer::random_playout(gen, a.data(), opt);
    explorer::Playout y = explorer::random_playout(interp, b.data(), opt);
    INFO(fmt::format("{} game {}: {} | {}", path, game, x.status.message, y.status.message));
    REQUIRE(x.status.ok);
    REQUIRE(y.status.ok);
    REQUIRE(x.steps.size() == y.steps.size());
    for (size_t i = 0; i < x.steps.size(); ++i) {
      INFO("move " << i + 1);
      REQUIRE(x.steps[i].move == y.steps[i].move);
      REQUIRE(x.steps[i].hash == y.steps[i].hash);
      REQUIRE(x.steps[i].phase == y.steps[i].phase);
    }
    REQUIRE(x.last == y.last);
    REQUIRE(x.finished == y.finished);
    REQUIRE(x.scores == y.scores);
    // The same game played inside the engine, without the interface between moves.
    std::vector<uint8_t> c = a;
    uint64_t rng = static_cast<uint64_t>(game), native_plies = 0;
    REQUIRE(gen.playout(c.data(), rng, kMaxPlies, false, native_plies).ok);
    REQUIRE(native_plies == x.steps.size());
    REQUIRE(c == x.last);
    // Within the phase it starts in only (as the benchmark's placement playouts run): the
    // game stops after the move that leaves that phase, settled as `apply` leaves it.
    std::vector<uint8_t> d = a;
    uint64_t phase_rng = static_cast<uint64_t>(game), phase_plies = 0;
    REQUIRE(gen.playout(d.data(), phase_rng, kMaxPlies, true, phase_plies).ok);
    const int start_phase = gen.phase(a.data());
    size_t left = 0;
    while (left < x.steps.size() && x.steps[left].phase == start_phase) ++left;
    if (left < x.steps.size()) ++left;  // the move that leaves the phase is played
    REQUIRE(phase_plies == left);
    if (left > 0) REQUIRE(gen.hash(d.data()) == x.steps[left - 1].hash);
    finished += x.finished;
    plies += x.steps.size();
  }
  // Shown with -s: how many games ended by the rules rather than by the cap.
  fmt::print("{}: {} games, {} ended by the rules, {} moves\n", fs::path(path).filename().string(),
             games, finished, plies);
  CHECK(plies > 0);
}

void shard(int k) {
  std::vector<std::string> all = variants();
  REQUIRE(all.size() >= 20);
  for (size_t i = static_cast<size_t>(k); i < all.size(); i += kShards) check_variant(all[i]);
}

}  // namespace

TEST_CASE("differential: generated = interpreter, shard 1", "[differential]") { shard(0); }
TEST_CASE("differential: generated = interpreter, shard 2", "[differential]") { shard(1); }
TEST_CASE("differential: generated = interpreter, shard 3", "[differential]") { shard(2); }
TEST_CASE("differential: generated = interpreter, shard 4", "[differential]") { shard(3); }

// A generated engine keeps the state it last worked on, with its planes and unions, and
// builds them afresh when it is handed other bytes. Here every state of a game comes to it
// after another state, so each answer starts from a fresh load: mid-game boards with
// pieces removed, other phases, players out.
TEST_CASE("differential: every state loaded afresh has the interpreter's moves and children",
          "[differential]") {
  constexpr int kFreshGames = 4, kFreshPlies = 150;
  for (const std::string& path : variants()) {
    dsl::SourceSet sources;
    dsl::Diagnostics diags;
    auto lowered = compiler::load_program(path, sources, diags);
    INFO(diags.render(sources));
    REQUIRE(lowered);
    auto program = std::make_shared<const ir::Program>(std::move(*lowered));
    compiler::LoadedEngine loaded = compiler::load_engine(program, sources);
    INFO(loaded.status.message);
    REQUIRE(loaded.engine);
    const compiler::CompiledEngine& gen = *loaded.engine;
    compiler::Interpreter interp(*program, sources);
    std::vector<uint8_t> start(program->state_bytes), s, other;
    for (int game = 1; game <= kFreshGames; ++game) {
      engine::Setup setup;
      setup.seed = static_cast<uint64_t>(game);
      REQUIRE(gen.setup(start.data(), setup).ok);
      s = start;
      other = start;
      SplitMix64 rng(static_cast<uint64_t>(game));
      std::vector<engine::Move> mg, mi;
      for (int ply = 0; ply < kFreshPlies && !interp.terminal(s.data()); ++ply) {
        INFO(fmt::format("{} game {} move {}", path, game, ply + 1));
        mg.clear();
        mi.clear();
        REQUIRE(gen.legal_moves(other.data(), mg).ok);  // the engine now holds `other`
        mg.clear();
        REQUIRE(gen.legal_moves(s.data(), mg).ok);
        REQUIRE(interp.legal_moves(s.data(), mi).ok);
        REQUIRE(mg == mi);
        REQUIRE(!mg.empty());
        uint64_t leaves = 0;
        REQUIRE(gen.legal_moves(other.data(), mi).ok);
        REQUIRE(gen.perft(s.data(), 1, leaves).ok);
        REQUIRE(leaves == mg.size());
        // The children in one call: the same moves, and each state the interpreter
        // reaches by applying the move.
        std::vector<engine::Move> mc;
        std::vector<uint8_t> children;
        REQUIRE(gen.legal_moves(other.data(), mi).ok);
        REQUIRE(gen.children(s.data(), mc, children).ok);
        REQUIRE(mc == mg);
        REQUIRE(children.size() == mc.size() * s.size());
        for (size_t k = 0; k < mc.size(); k += 1 + mc.size() / 8) {
          std::vector<uint8_t> after = s;
          REQUIRE(interp.apply(after.data(), mc[k]).ok);
          REQUIRE(std::equal(after.begin(), after.end(), children.begin() + ptrdiff_t(k * s.size())));
        }
        other = s;  // the next state comes after this one
        const engine::Move m = mg[rng.below(mg.size())];
        std::vector<uint8_t> t = s;
        REQUIRE(gen.apply(s.data(), m).ok);
        REQUIRE(interp.apply(t.data(), m).ok);
        REQUIRE(s == t);
      }
    }
  }
}

namespace {

/// Both engines of rules held in memory, and their states after setup with `seed`.
struct Pair {
  dsl::SourceSet sources;
  std::shared_ptr<const ir::Program> program;
  std::unique_ptr<engine::Engine> gen, interp;
  std::vector<uint8_t> a, b;

  Pair(const std::string& text, uint64_t seed) {
    dsl::Diagnostics diags;
    auto p = compiler::load_program_text("order.rules", text, sources, diags);
    INFO(diags.render(sources));
    REQUIRE(p);
    program = std::make_shared<const ir::Program>(std::move(*p));
    compiler::LoadedEngine e = compiler::load_engine(program, sources);
    INFO(e.status.message);
    REQUIRE(e.engine);
    gen = std::move(e.engine);
    interp = std::make_unique<compiler::Interpreter>(*program, sources);
    a.resize(program->state_bytes);
    b.resize(program->state_bytes);
    engine::Setup setup;
    setup.seed = seed;
    REQUIRE(gen->setup(a.data(), setup).ok);
    REQUIRE(interp->setup(b.data(), setup).ok);
  }
  std::vector<int64_t> scores(const engine::Engine& e, const std::vector<uint8_t>& s) {
    std::vector<int64_t> out;
    REQUIRE(e.scores(s.data(), out).ok);
    return out;
  }
};

}  // namespace

TEST_CASE("setup variables come before initial values, in both engines", "[differential]") {
  Pair g(R"(game "order";
board 3 x 3;
players 1;
setup blocked: set of Cell = random 2 of cells;
state free: 0..9 = 9 - size(blocked);
phase play {
  move take(c: Cell)
    requires c not in blocked and free > 0;
  {
    free -= 1;
  }
}
score p = free;
)", 3);
  CHECK(g.scores(*g.gen, g.a) == std::vector<int64_t>{7});
  CHECK(g.scores(*g.interp, g.b) == std::vector<int64_t>{7});
  CHECK(g.a == g.b);
}

TEST_CASE("a for loop chooses its elements once, before its body runs", "[differential]") {
  // The body empties the cells the `where` tests: evaluated per element, the loop would
  // stop after the first cell; chosen once, it visits all three.
  Pair g(R"(game "for once";
board 1 x 3;
players 1;
state full: Cell -> bool;
state visits: 0..9;
init {
  for c in cells {
    full[c] := true;
  }
}
phase play {
  move sweep
    requires visits == 0;
  {
    for c in cells where (all d in cells: full[d]) {
      for d in cells {
        full[d] := false;
      }
      visits += 1;
    }
  }
}
score p = visits;
)", 1);
  std::vector<engine::Move> moves;
  REQUIRE(g.gen->legal_moves(g.a.data(), moves).ok);
  REQUIRE(moves.size() == 1);
  REQUIRE(g.gen->apply(g.a.data(), moves[0]).ok);
  REQUIRE(g.interp->apply(g.b.data(), moves[0]).ok);
  CHECK(g.scores(*g.gen, g.a) == std::vector<int64_t>{3});
  CHECK(g.scores(*g.interp, g.b) == std::vector<int64_t>{3});
}

TEST_CASE("perft of every variant agrees between engines, to about a second of interpreting",
          "[differential]") {
  for (const std::string& path : variants()) {
    dsl::SourceSet sources;
    dsl::Diagnostics diags;
    auto lowered = compiler::load_program(path, sources, diags);
    REQUIRE(lowered);
    auto program = std::make_shared<const ir::Program>(std::move(*lowered));
    compiler::LoadedEngine loaded = compiler::load_engine(program, sources);
    INFO(path << ": " << loaded.status.message);
    REQUIRE(loaded.engine);
    compiler::Interpreter interp(*program, sources);
    std::vector<uint8_t> s(program->state_bytes);
    REQUIRE(interp.setup(s.data(), {}).ok);
    // Deeper while the next depth, predicted from the growth of the counts, would take the
    // interpreter no more than about a second and a half.
    int depth = 0;
    double predicted = 0;
    uint64_t last = 1;
    while (predicted < 1.5 && depth < 40) {
      ++depth;
      uint64_t slow = 0, fast = 0;
      auto t0 = std::chrono::steady_clock::now();
      REQUIRE(interp.perft(s.data(), depth, slow).ok);
      double spent = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      REQUIRE(loaded.engine->perft(s.data(), depth, fast).ok);
      INFO("depth " << depth);
      REQUIRE(fast == slow);
      if (slow == 0) break;  // every game has ended
      predicted = spent * static_cast<double>(slow) / static_cast<double>(last);
      last = slow;
    }
    fmt::print("{}: perft agrees to depth {}\n", fs::path(path).filename().string(), depth);
  }
}
