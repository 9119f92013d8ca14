// A move whose legality asks can() about itself is rejected, at the can() that closes it.
#include <string>

#include <catch2/catch.hpp>

#include "check_test_util.h"

using namespace rulebook::dsl;
using rulebook::dsl::testing::check_text;

namespace {

const char* kHead =
    "game \"T\";\n"
    "board 1 x 2;\n"
    "players 2;\n"
    "state n: 0..3;\n";

/// The errors of the game `kHead + rest`, rendered.
std::string errors_of(const std::string& rest) {
  auto c = check_text(std::string(kHead) + rest);
  return c->diags.has_errors() ? c->errors() : "";
}

size_t count_of(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

}  // namespace

TEST_CASE("can() of a move in its own block is a cycle when board rules play the block",
          "[check][can]") {
  const std::string e = errors_of(R"(rule small: n < 3;
phase play {
  move go
    requires n < 2;
  {
    n := 1;
    if can(go) { n := 2; }
  }
}
)");
  INFO(e);
  // Line 11 of the file, at `can(go)`, with the way and a hint.
  CHECK(count_of(e, "error:") == 1);
  CHECK(e.find("test.rules:11:8: error: can(go) depends on itself: whether 'go' is legal asks "
               "can(go) in its block (played to test the board rules)") != std::string::npos);
  CHECK(e.find("help: a move's legality may not ask can() about itself") != std::string::npos);
}

TEST_CASE("without board rules a block may ask can() of its own move", "[check][can]") {
  CHECK(errors_of(R"(phase play {
  move go
    requires n < 2;
  {
    n := 1;
    if can(go) { n := 2; }
  }
}
)") == "");
}

TEST_CASE("can() of a move in its own requires is a cycle", "[check][can]") {
  const std::string e = errors_of(R"(phase play {
  move go
    requires n < 2 and can(go, p2);
  {
    n := 1;
  }
}
)");
  INFO(e);
  CHECK(count_of(e, "error:") == 1);
  CHECK(e.find("test.rules:7:24: error: can(go) depends on itself: whether 'go' is legal asks "
               "can(go) in its requires") != std::string::npos);
}

TEST_CASE("a cycle through two moves, a define and a move rule is found once", "[check][can]") {
  const std::string e = errors_of(R"(define b_open: bool = can(b);
rule a_needs_b on a: b_open;
phase play {
  move a
  {
    n := 1;
  }
  move b
    requires not can(a);
  {
    n := 2;
  }
}
)");
  INFO(e);
  CHECK(count_of(e, "error:") == 1);
  CHECK(e.find("error: can(a) depends on itself: whether 'a' is legal asks can(b) in the rule "
               "'a_needs_b' on it, whether 'b' is legal asks can(a) in its requires") !=
        std::string::npos);
  // The other can() of the cycle is named in a note.
  CHECK(e.find("test.rules:5:23: note: can(b) asked here") != std::string::npos);
}

TEST_CASE("a board rule that asks can() is a cycle of every move it asks of", "[check][can]") {
  const std::string e = errors_of(R"(rule open: can(go);
phase play {
  move go
  {
    n := 1;
  }
}
)");
  INFO(e);
  CHECK(count_of(e, "error:") == 1);
  CHECK(e.find("can(go) depends on itself: whether 'go' is legal asks can(go) in the board "
               "rule 'open'") != std::string::npos);
}

TEST_CASE("with board rules a block may ask can() of moves whose legality does not ask back",
          "[check][can]") {
  CHECK(errors_of(R"(rule small: n < 3;
phase play {
  move first
    requires n == 0;
  {
    n := 1;
  }
  move second
    requires n < 2;
  {
    n := 2;
    if can(first) { n := 0; }
  }
  when stuck { if can(second) { end; } }
  until can(first) -> play;
}
end when can(second, p2);
)") == "");
}
