// Engines built with the plan's passes off, one at a time and all at once: each still
// counts perft and plays as the interpreter does, and its generated source says which
// passes are off (so neither the cache nor the linked engines mix it up with the default).
#include <catch2/catch.hpp>
#include <memory>
#include <string>
#include <vector>

#include "compiler/codegen/emit_cpp.h"
#include "compiler/interp/interpret.h"
#include "compiler/load/load_engine.h"
#include "compiler/lower/lower.h"
#include "compiler/runtime/random.h"
#include "tests/plan/plan_programs.h"

using namespace rulebook;

namespace {

struct Loaded {
  dsl::SourceSet sources;
  std::shared_ptr<const ir::Program> program;
};

Loaded load(const char* text) {
  Loaded l;
  dsl::Diagnostics diags;
  auto p = compiler::load_program_text("plan.rules", text, l.sources, diags);
  INFO(diags.render(l.sources));
  REQUIRE(p);
  l.program = std::make_shared<const ir::Program>(std::move(*p));
  return l;
}

/// Perft at depths 1..3 and a seeded random game, the engine with `off` against the
/// interpreter.
void agrees(const Loaded& l, const std::vector<std::string>& off) {
  compiler::CompileOptions options;
  options.cache_dir = std::string(RULEBOOK_BINARY_DIR) + "/tests/plan/engine-cache";
  REQUIRE(compiler::plan::switch_off(off, options.passes).empty());
  compiler::LoadedEngine le = compiler::load_engine(l.program, l.sources, options);
  INFO(le.status.message);
  REQUIRE(le.engine);
  CHECK(!le.linked);
  compiler::Interpreter interp(*l.program, l.sources);
  std::vector<uint8_t> a(l.program->state_bytes), b(l.program->state_bytes);
  REQUIRE(interp.setup(a.data(), {}).ok);
  REQUIRE(le.engine->setup(b.data(), {}).ok);
  REQUIRE(a == b);
  for (int depth = 1; depth <= 3; ++depth) {
    uint64_t want = 0, got = 0;
    REQUIRE(interp.perft(a.data(), depth, want).ok);
    REQUIRE(le.engine->perft(b.data(), depth, got).ok);
    CHECK(got == want);
  }
  SplitMix64 random(7);
  for (int ply = 0; ply < 200 && !interp.terminal(a.data()); ++ply) {
    std::vector<engine::Move> ma, mb;
    REQUIRE(interp.legal_moves(a.data(), ma).ok);
    REQUIRE(le.engine->legal_moves(b.data(), mb).ok);
    REQUIRE(ma.size() == mb.size());
    if (ma.empty()) break;
    const size_t pick = size_t(random.below(ma.size()));
    CHECK(interp.move_text(ma[pick]) == le.engine->move_text(mb[pick]));
    REQUIRE(interp.apply(a.data(), ma[pick]).ok);
    REQUIRE(le.engine->apply(b.data(), mb[pick]).ok);
    CHECK(interp.hash(a.data()) == le.engine->hash(b.data()));
  }
  CHECK(interp.terminal(a.data()) == le.engine->terminal(b.data()));
}

}  // namespace

TEST_CASE("plan: a generated source names the passes off, and only then", "[plan]") {
  const Loaded l = load(plan_test::kStones);
  const std::string on = compiler::emit_cpp(*l.program, l.sources).source;
  compiler::plan::PassSwitches off;
  REQUIRE(compiler::plan::switch_off({"planes", "can-memo"}, off).empty());
  const std::string some = compiler::emit_cpp(*l.program, l.sources, off).source;
  CHECK(on.find("Plan passes off") == std::string::npos);
  CHECK(some.find("// Plan passes off: planes,can-memo.") != std::string::npos);
  CHECK(compiler::emit_cpp(*l.program, l.sources, compiler::plan::PassSwitches()).source == on);
}

TEST_CASE("plan: engines with a pass off agree with the interpreter", "[plan][differential]") {
  const Loaded stones = load(plan_test::kStones);
  const Loaded ruled = load(plan_test::kRuled);
  for (std::string_view pass : compiler::plan::pass_names()) {
    INFO("off: " << pass);
    agrees(stones, {std::string(pass)});
  }
  const Loaded ships = load(plan_test::kShips);
  INFO("scoped-defines off, with board rules");
  agrees(ruled, {"scoped-defines"});
  const Loaded lined = load(plan_test::kLined);
  INFO("defines of sets, remembered per set and not");
  agrees(lined, {});
  agrees(lined, {"scoped-defines"});
  INFO("rule-tables off, with a rule over pairs of keys");
  agrees(ships, {"rule-tables"});
  agrees(ships, {});
  INFO("rules over pairs of keys beside rules by their code, after the tables and before");
  const Loaded after = load(plan_test::kFleetRestAfter);
  const Loaded before = load(plan_test::fleet_rest_before().c_str());
  agrees(after, {});
  agrees(after, {"rule-tables"});
  agrees(before, {});
  agrees(before, {"rule-tables"});
  const Loaded maps = load(plan_test::kMaps);
  INFO("board-maps off, with conditions through maps");
  agrees(maps, {"board-maps"});
  agrees(maps, {});
  INFO("all off");
  agrees(maps, {"all"});
  agrees(stones, {"all"});
  agrees(ruled, {"all"});
  agrees(ships, {"all"});
}
