// One integer semantics in every engine (docs/semantics.md, "Integers"): an overflow, a
// division by zero or INT64_MIN / -1 at run time is the same located error in the
// interpreter and in an engine compiled at run time; INT64_MIN % -1 is 0 in both.
#include <memory>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "compiler/codegen/emit_cpp.h"
#include "compiler/interp/interpret.h"
#include "compiler/load/load_engine.h"
#include "compiler/lower/lower.h"

using namespace rulebook;

namespace {

/// A one-move game whose move's condition is `cond`, on line 6, column 19; `n` is 0 and
/// `k` is -1 in the first state.
std::string game(const std::string& cond) {
  return "game \"Ints\";\nboard 1 x 3;\nplayers 1;\nstate n: 0..3;\nstate k: -1..1 = -1;\n"
         "phase p {\n  move m requires " + cond + "; { n := 1; }\n}\n";
}

struct Outcome {
  bool ok = false;
  std::string message;
  size_t moves = 0;
};

/// The legal moves of the first state, by one engine (the setup already asks whether the
/// first player can move, so it may fail too).
Outcome first_moves(const engine::Engine& e, size_t state_bytes) {
  std::vector<uint8_t> s(state_bytes);
  Outcome o;
  engine::Status st = e.setup(s.data(), {});
  std::vector<engine::Move> moves;
  if (st.ok) st = e.legal_moves(s.data(), moves);
  o.ok = st.ok;
  o.message = st.message;
  o.moves = moves.size();
  return o;
}

/// Both engines' outcomes; they must agree (text included).
Outcome both(const std::string& text) {
  dsl::SourceSet sources;
  dsl::Diagnostics diags;
  auto p = compiler::load_program_text("test.rules", text, sources, diags);
  INFO(diags.render(sources));
  REQUIRE(p);
  auto program = std::make_shared<const ir::Program>(std::move(*p));
  compiler::LoadedEngine gen = compiler::load_engine(program, sources);
  INFO(gen.status.message);
  REQUIRE(gen.engine);
  compiler::Interpreter interp(*program, sources);
  const Outcome a = first_moves(*gen.engine, program->state_bytes);
  const Outcome b = first_moves(interp, program->state_bytes);
  CHECK(a.ok == b.ok);
  CHECK(a.message == b.message);
  CHECK(a.moves == b.moves);
  return b;
}

std::string error_of(const std::string& cond) {
  const Outcome o = both(game(cond));
  CHECK_FALSE(o.ok);
  return o.message;
}

}  // namespace

TEST_CASE("an overflow at run time is the same located error in the interpreter and an engine",
          "[emit][integers]") {
  CHECK(error_of("4611686018427387904 * (n + 2) > 0") == "test.rules:7:19: error: integer overflow in '*'");
  CHECK(error_of("9223372036854775807 + (n + 1) > 0") == "test.rules:7:19: error: integer overflow in '+'");
  CHECK(error_of("-9223372036854775807 - (n + 2) < 0") == "test.rules:7:19: error: integer overflow in '-'");
  CHECK(error_of("-(-9223372036854775807 + k) > 0") == "test.rules:7:19: error: integer overflow in unary '-'");
  CHECK(error_of("abs(-9223372036854775807 + k) > 0") == "test.rules:7:19: error: integer overflow in 'abs'");
  CHECK(error_of("(sum c in cells: 4611686018427387904 + n) > 0") ==
        "test.rules:7:19: error: integer overflow in 'sum'");
}

TEST_CASE("INT64_MIN / -1 overflows, INT64_MIN % -1 is 0, by zero is an error, alike in both",
          "[emit][integers]") {
  CHECK(error_of("(-9223372036854775807 - 1) / k > 0") == "test.rules:7:19: error: integer overflow in '/'");
  CHECK(error_of("(-9223372036854775807 - 1) / (k + 1) > 0") == "test.rules:7:19: error: division by zero");
  CHECK(error_of("(-9223372036854775807 - 1) % (k + 1) > 0") == "test.rules:7:19: error: '%' by zero");
  const Outcome mod = both(game("(-9223372036854775807 - 1) % k == 0"));
  CHECK(mod.ok);
  CHECK(mod.moves == 1);
  // Floor division and modulo: -7 / 2 == -4, -7 % 2 == 1, 7 % -2 == -1.
  const Outcome floor = both(game("(n - 7) / 2 == -4 and (n - 7) % 2 == 1 and (n + 7) % (2 * k) == -1"));
  CHECK(floor.ok);
  CHECK(floor.moves == 1);
}

TEST_CASE("x += v that overflows fails alike in the interpreter and an engine", "[emit][integers]") {
  const std::string text = "game \"Ints\";\nboard 1 x 3;\nplayers 1;\nstate n: 0..3 = 1;\n"
                           "phase p {\n  move bump {\n    n += 9223372036854775807;\n  }\n}\n";
  dsl::SourceSet sources;
  dsl::Diagnostics diags;
  auto p = compiler::load_program_text("test.rules", text, sources, diags);
  REQUIRE(p);
  auto program = std::make_shared<const ir::Program>(std::move(*p));
  compiler::LoadedEngine gen = compiler::load_engine(program, sources);
  REQUIRE(gen.engine);
  compiler::Interpreter interp(*program, sources);
  for (const engine::Engine* e : {static_cast<const engine::Engine*>(gen.engine.get()),
                                  static_cast<const engine::Engine*>(&interp)}) {
    std::vector<uint8_t> s(program->state_bytes);
    REQUIRE(e->setup(s.data(), {}).ok);
    std::vector<engine::Move> moves;
    REQUIRE(e->legal_moves(s.data(), moves).ok);
    REQUIRE(moves.size() == 1);
    const engine::Status st = e->apply(s.data(), moves[0]);
    CHECK_FALSE(st.ok);
    // Not "value none is outside 0..3": 1 + INT64_MAX is not wrapped to INT64_MIN.
    CHECK(st.message == "test.rules:7:5: error: integer overflow in '+'");
  }
}

TEST_CASE("arithmetic whose operands' ranges rule overflow out is not checked in an engine",
          "[emit][integers]") {
  dsl::SourceSet sources;
  dsl::Diagnostics diags;
  auto p = compiler::load_program_text("test.rules", game("n * 1000 + k - 3 > 0 and -n < 0") , sources, diags);
  REQUIRE(p);
  const std::string src = compiler::emit_cpp(*p, sources).source;
  // The support code defines the checked forms; the move's condition uses none of them.
  CHECK(src.find("add_chk(") != std::string::npos);
  const size_t cond = src.find("1000");
  REQUIRE(cond != std::string::npos);
  const std::string line = src.substr(src.rfind('\n', cond), src.find('\n', cond) - src.rfind('\n', cond));
  INFO(line);
  CHECK(line.find("_chk(") == std::string::npos);
}
