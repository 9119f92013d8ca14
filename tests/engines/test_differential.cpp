// The generated engine against the interpreter: 1,000 seeded random games per shipped
// variant with identical move lists, state hashes after every move and final scores.
// Variants are found at run time and split into shards that CTest runs in parallel.
#include <algorithm>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include <catch2/catch.hpp>
#include <fmt/core.h>

#include "compiler/interpret.h"
#include "compiler/load_engine.h"
#include "compiler/lower.h"
#include "explorer/playout.h"

using namespace rulebook;
namespace fs = std::filesystem;

namespace {

constexpr int kGames = 1000;
/// Random play never ends some battles (the Garnsi 9-player game has no move limit in the
/// text); those games are compared up to this many moves.
constexpr int kMaxPlies = 400;
constexpr int kShards = 4;

std::vector<std::string> variants() {
  std::vector<std::string> out;
  for (const auto& dir : fs::directory_iterator(RULEBOOK_SOURCE_DIR "/variants"))
    for (const auto& f : fs::directory_iterator(dir.path()))
      if (f.path().extension() == ".rules") out.push_back(f.path().string());
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
  const engine::Engine& gen = *loaded.engine;
  compiler::Interpreter interp(*program, sources);

  int finished = 0;
  uint64_t plies = 0;
  std::vector<uint8_t> a(program->state_bytes), b(program->state_bytes);
  for (int game = 1; game <= kGames; ++game) {
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
    finished += x.finished;
    plies += x.steps.size();
  }
  // Shown with -s: how many games ended by the rules rather than by the cap.
  fmt::print("{}: {} games, {} ended by the rules, {} moves\n", fs::path(path).filename().string(),
             kGames, finished, plies);
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
