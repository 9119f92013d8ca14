// The checker computes integer operations on constants as every engine does (64 bits,
// floor division) and rejects one that overflows or divides by zero, at its own span.
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "check_test_util.h"

using namespace rulebook::dsl;
using rulebook::dsl::testing::check_text;
using rulebook::dsl::testing::kPrelude;

namespace {

/// The rendered diagnostics of the prelude plus `decls` (first line of each).
std::vector<std::string> first_lines(const std::string& decls) {
  auto c = check_text(std::string(kPrelude) + decls);
  std::vector<std::string> out;
  const std::string text = c->errors();
  size_t at = 0;
  while ((at = text.find("test.rules:", at)) != std::string::npos) {
    size_t end = text.find('\n', at);
    out.push_back(text.substr(at, end - at));
    at = end;
  }
  return out;
}

std::optional<int64_t> param(const std::string& decls, const std::string& name) {
  auto c = check_text(std::string(kPrelude) + decls);
  REQUIRE_FALSE(c->diags.has_errors());
  return c->game.param_value(name);
}

}  // namespace

TEST_CASE("constant operations that do not fit in 64 bits are located errors", "[check][integers]") {
  using V = std::vector<std::string>;
  // Line 4 follows the prelude's three lines.
  CHECK(first_lines("define a: int = 4611686018427387904 * 4 + 2;\n") ==
        V{"test.rules:4:17: error: integer overflow in '*'"});
  CHECK(first_lines("define a: int = 9223372036854775807 + 1;\n") ==
        V{"test.rules:4:17: error: integer overflow in '+'"});
  CHECK(first_lines("define a: int = 0 - 9223372036854775807 - 2;\n") ==
        V{"test.rules:4:17: error: integer overflow in '-'"});
  CHECK(first_lines("define a: int = (-9223372036854775807 - 1) / -1;\n") ==
        V{"test.rules:4:17: error: integer overflow in '/'"});
  CHECK(first_lines("define a: int = -(-9223372036854775807 - 1);\n") ==
        V{"test.rules:4:17: error: integer overflow in unary '-'"});
  CHECK(first_lines("define a: int = abs(-9223372036854775807 - 1);\n") ==
        V{"test.rules:4:17: error: integer overflow in 'abs'"});
  CHECK(first_lines("define a: int = 7 / (width - 4);\n") == V{"test.rules:4:17: error: division by zero"});
  CHECK(first_lines("define a: int = 7 % (3 - 3);\n") == V{"test.rules:4:17: error: '%' by zero"});
  // In a param, a board size, a rule: the same, once, and not "not a constant" on top.
  CHECK(first_lines("param big = 3037000500 * 3037000500;\n") ==
        V{"test.rules:4:13: error: integer overflow in '*'"});
  CHECK(first_lines("rule r: 1 + 9223372036854775807 * 2 > 0;\n") ==
        V{"test.rules:4:13: error: integer overflow in '*'"});
}

TEST_CASE("constants are computed with floor division, as the engines compute them", "[check][integers]") {
  CHECK(param("param a = -7 / 2;\n", "a") == -4);
  CHECK(param("param a = -7 % 2;\n", "a") == 1);
  CHECK(param("param a = 7 % -2;\n", "a") == -1);
  CHECK(param("param a = (-9223372036854775807 - 1) % -1;\n", "a") == 0);
  CHECK(param("param a = -9223372036854775807 - 1;\n", "a") == INT64_MIN);
}
