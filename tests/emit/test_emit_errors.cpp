// One wording for run-time errors (compiler/ir/run_errors.h): each kind of error reads the
// same, word for word and at the same file:line:col, in the interpreter and in an engine
// compiled at run time, and the file is named as the user gave it.
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "compiler/interp/interpret.h"
#include "compiler/load/load_engine.h"
#include "compiler/lower/lower.h"

using namespace rulebook;

namespace {

/// The first error of one engine: setup, then the first legal move, up to 8 times.
std::string first_error(const engine::Engine& e, size_t state_bytes) {
  std::vector<uint8_t> s(state_bytes);
  engine::Status st = e.setup(s.data(), {});
  for (int i = 0; st.ok && i < 8; ++i) {
    std::vector<engine::Move> moves;
    st = e.legal_moves(s.data(), moves);
    if (!st.ok || moves.empty()) break;
    st = e.apply(s.data(), moves[0]);
  }
  return st.ok ? "no error" : st.message;
}

/// Both engines' first error on a loaded program; they must be the same text.
std::string both(std::optional<ir::Program> loaded, const dsl::SourceSet& sources) {
  REQUIRE(loaded);
  auto program = std::make_shared<const ir::Program>(std::move(*loaded));
  compiler::LoadedEngine gen = compiler::load_engine(program, sources);
  INFO(gen.status.message);
  REQUIRE(gen.engine);
  compiler::Interpreter interp(*program, sources);
  const std::string want = first_error(interp, program->state_bytes);
  const std::string got = first_error(*gen.engine, program->state_bytes);
  CHECK(want == got);
  return want;
}

/// A one-player game on a 1 x 3 board with `decls` (from line 4), and one move `go`
/// whose block is `body` (two lines after the last declaration).
std::string run(const std::string& decls, const std::string& body) {
  const std::string text = "game \"e\";\nboard 1 x 3;\nplayers 1;\n" + decls +
                           "phase p {\n  move go {\n" + body + "  }\n}\n";
  dsl::SourceSet sources;
  dsl::Diagnostics diags;
  std::optional<ir::Program> p = compiler::load_program_text("test.rules", text, sources, diags);
  INFO(text << diags.render(sources));
  REQUIRE(!diags.has_errors());
  return both(std::move(p), sources);
}

}  // namespace

TEST_CASE("a value stored outside its range reads the same in both engines", "[emit][errors]") {
  CHECK(run("state n: 0..1;\n", "    n += 1;\n") ==
        "test.rules:7:5: error: value 2 is outside 0..1 (stored in 'n')");
}

TEST_CASE("a computed INT64_MIN is a number in an error, not none",
          "[emit][errors]") {
  CHECK(run("state z: 0..1;\nstate v: 0..2;\n", "    v := (z - 9223372036854775807) - 1;\n") ==
        "test.rules:8:5: error: value -9223372036854775808 is outside 0..2 (stored in 'v')");
}

TEST_CASE("a key outside its domain is reported at the key, in both engines", "[emit][errors]") {
  CHECK(run("state v: seq of 0..3 = [0, 0];\nstate n: 0..3;\n", "    v[n] := 1;\n    n += 1;\n") ==
        "test.rules:8:7: error: key 2 is outside 0..1 (a key of 'v')");
}

TEST_CASE("fields, positions and aggregates read the same in both engines",
          "[emit][errors]") {
  // A field of none.
  CHECK(run("type R = {a: 0..3, b: bool};\nstate r: R?;\nstate n: 0..3;\n", "    n := r.a;\n") ==
        "test.rules:9:10: error: field 'a' of none");
  // A position outside a state sequence: a key of it.
  CHECK(run("state s: seq of 0..3 = [1, 2];\nstate n: 0..3;\nstate k: 0..3 = 3;\n", "    n := s[k];\n") ==
        "test.rules:9:12: error: key 3 is outside 0..1 (a key of 's')");
  // max over nothing.
  CHECK(run("state n: 0..3;\n", "    n := max c in cells where x(c) > 5: x(c);\n") ==
        "test.rules:7:10: error: max over nothing");
  // A record field outside its domain.
  CHECK(run("type R = {a: 0..3, b: bool};\nstate r: R?;\nstate n: 0..9 = 7;\n",
            "    r := {a: n, b: true};\n") ==
        "test.rules:9:14: error: value 7 is outside 0..3 (field 'a' of R)");
}

TEST_CASE("an error in a base file names it as the loader did, in both engines", "[emit][errors]") {
  const std::filesystem::path dir =
      std::filesystem::path(RULEBOOK_BINARY_DIR) / "tests" / "emit" / "errors-extends";
  std::filesystem::create_directories(dir / "lib");
  std::ofstream(dir / "lib" / "base.rules") << "game \"base\";\nboard 1 x 3;\nplayers 1;\nstate n: 0..1;\n"
                                               "phase p {\n  move go {\n    n += 1;\n  }\n}\n";
  std::ofstream(dir / "house.rules") << "variant \"house\" extends \"lib/base.rules\";\n";
  dsl::SourceSet sources;
  dsl::Diagnostics diags;
  const std::string house = (dir / "house.rules").string();
  std::optional<ir::Program> p = compiler::load_program(house, sources, diags);
  INFO(diags.render(sources));
  REQUIRE(!diags.has_errors());
  const std::string base = sources.file(1).name;
  CHECK(base.find("base.rules") != std::string::npos);
  CHECK(both(std::move(p), sources) == base + ":7:5: error: value 2 is outside 0..1 (stored in 'n')");
}

TEST_CASE("an argument outside a define's parameter type is computed, as the interpreter does",
          "[emit][errors]") {
  // A define of one small parameter is tabulated in an engine; an argument outside the
  // table failed there ("an argument outside 0..3") where the interpreter computes it.
  CHECK(run("state n: 0..3;\ndefine f(x: 0..3): int = x * 2;\n", "    n := f(n + 5);\n") ==
        "test.rules:8:5: error: value 10 is outside 0..3 (stored in 'n')");
}

TEST_CASE("an error naming a long variable is cut at the same byte in both engines",
          "[emit][errors]") {
  const std::string name = "v" + std::string(400, 'x');
  const std::string error = run("state " + name + ": 0..1;\n", "    " + name + " += 1;\n");
  const std::string head = "test.rules:7:5: error: value 2 is outside 0..1 (stored in '";
  REQUIRE(error.size() == std::string("test.rules:7:5: error: ").size() + 300);
  CHECK(error == head + name.substr(0, error.size() - head.size()));
}
