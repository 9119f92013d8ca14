// Input hygiene: only regular files are read, user text is escaped before it is printed,
// declarations are merged in linear time, and boards and player counts are bounded.
#include <catch2/catch.hpp>

#include <sys/stat.h>
#include <unistd.h>

#include <chrono>

#include "check_test_util.h"
#include "dsl/diagnostics.h"
#include "dsl/limits.h"

using namespace rulebook::dsl;
using rulebook::dsl::testing::ScratchDir;

namespace {

bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

/// A game with `n` defines, checked from memory; returns the seconds it took.
double check_defines(int n) {
  std::string text = "game \"many\";\nboard 2 x 2;\nplayers 1;\n";
  for (int i = 0; i < n; ++i) text += "define d" + std::to_string(i) + ": int = " + std::to_string(i) + ";\n";
  text += "phase play {\n  move pass { end; }\n}\n";
  const auto start = std::chrono::steady_clock::now();
  auto c = rulebook::dsl::testing::check_text(text);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  REQUIRE_FALSE(c->diags.has_errors());
  return seconds;
}

}  // namespace

TEST_CASE("hygiene: a FIFO, a device and a directory are refused without being read") {
  ScratchDir dir;
  REQUIRE(::mkfifo("pipe.rules", 0600) == 0);
  SourceSet sources;
  uint32_t id = 0;
  std::string error;
  // Opening a FIFO for reading waits for a writer unless the reader refuses it first.
  CHECK_FALSE(sources.load("pipe.rules", id, error));
  CHECK(error == "cannot read 'pipe.rules': it is a FIFO (named pipe), not a regular file");
  CHECK_FALSE(sources.load("/dev/zero", id, error));
  CHECK(error == "cannot read '/dev/zero': it is a character device, not a regular file");
  ::mkdir("folder.rules", 0700);
  CHECK_FALSE(sources.load("folder.rules", id, error));
  CHECK(error == "cannot read 'folder.rules': it is a directory");
  CHECK(sources.size() == 0);

  // Through load_game and an `extends`, the error points at the line that names the file.
  dir.write("v.rules", "variant \"v\" extends \"pipe.rules\";\n");
  SourceSet s2;
  Diagnostics diags;
  load_game("v.rules", s2, diags);
  const std::string out = diags.render(s2);
  CHECK(has(out, "v.rules:1:"));
  CHECK(has(out, "it is a FIFO"));
}

TEST_CASE("hygiene: control and bidi characters are escaped, other text is kept") {
  CHECK(escape_for_terminal("plain text, ünïcödé ✓") == "plain text, ünïcödé ✓");
  CHECK(escape_for_terminal("a\x1b[2Jb") == "a\\x1b[2Jb");
  CHECK(escape_for_terminal("bell\a del\x7f") == "bell\\x07 del\\x7f");
  CHECK(escape_for_terminal("two\nlines\tand tab") == "two\nlines\tand tab");
  CHECK(escape_for_terminal("two\nlines", false) == "two\\x0alines");
  CHECK(escape_for_terminal("\xe2\x80\xae" "abc\xe2\x81\xa6") == "\\u{202e}abc\\u{2066}");
  CHECK(escape_for_terminal("\xe2\x80\xaa\xe2\x80\xab\xe2\x80\xac\xe2\x80\xad") ==
        "\\u{202a}\\u{202b}\\u{202c}\\u{202d}");
  CHECK(escape_for_terminal("\xe2\x81\xa7\xe2\x81\xa8\xe2\x81\xa9") == "\\u{2067}\\u{2068}\\u{2069}");
  CHECK(escape_for_terminal("\xc2\x9b" "31m") == "\\u{009b}31m");  // C1 CSI
  CHECK(escape_for_terminal("bad \xff byte, cut \xe2\x80") == "bad \\xff byte, cut \\xe2\\x80");
  // U+2029 is a paragraph separator; U+2030 (per mille) is ordinary text.
  CHECK(escape_for_terminal("\xe2\x80\xa9\xe2\x80\xb0") == "\\u{2029}\xe2\x80\xb0");
}

TEST_CASE("hygiene: diagnostics escape the quoted line, the message and the file name") {
  auto c = rulebook::dsl::testing::check_text(
      "game \"x\";\nboard 2 x 2;\nplayers 1;\ndefine a: int = \xe2\x80\xae\x1b[2J + zz;\n",
      "name\x1b]0;title\a.rules");
  const std::string out = c->errors();
  CHECK(out.find('\x1b') == std::string::npos);
  CHECK(out.find("\xe2\x80\xae") == std::string::npos);
  CHECK(out.find('\a') == std::string::npos);
  CHECK(has(out, "name\\x1b]0;title\\x07.rules:4:"));
  CHECK(has(out, "define a: int = \\u{202e}\\x1b[2J + zz;"));
}

TEST_CASE("hygiene: carets line up under a span that follows escaped characters") {
  auto c = rulebook::dsl::testing::check_text(
      "game \"x\";\nboard 2 x 2;\nplayers 1;\ndefine a: int = \x1b + zz;\n");
  const std::string out = c->errors();
  INFO(out);
  // The quoted line and the caret line: the caret sits under the first byte the span covers.
  const size_t line = out.find("    4 | ");
  REQUIRE(line != std::string::npos);
  const size_t next = out.find('\n', line) + 1;
  const std::string quoted = out.substr(line, next - line - 1);
  const std::string carets = out.substr(next, out.find('\n', next) - next);
  const size_t caret = carets.find('^');
  REQUIRE(caret != std::string::npos);
  const std::string under = quoted.substr(caret);
  CHECK((under.rfind("\\x1b", 0) == 0 || under.rfind("zz", 0) == 0));
}

TEST_CASE("hygiene: checking grows linearly with the number of declarations") {
  // A scan per declaration made 100,000 defines take over 30 s. Quadratic time would make
  // four times the defines take sixteen times as long; allow eight for noise.
  check_defines(2000);  // warm up
  const double small = check_defines(10000);
  const double large = check_defines(40000);
  INFO("10,000 defines: " << small << " s, 40,000: " << large << " s");
  CHECK(large < 8 * small + 0.05);
}

TEST_CASE("hygiene: a board or a player count beyond the limits is refused by name") {
  auto board = rulebook::dsl::testing::check_text(
      "game \"x\";\nboard 100000 x 100000;\nplayers 1;\nphase p {\n  move pass { end; }\n}\n");
  CHECK(has(board->errors(), "test.rules:2:7: error: the board of 100000 x 100000 cells is too "
                             "large: a board has at most 16384 cells"));
  auto edge = rulebook::dsl::testing::check_text(
      "game \"x\";\nboard 128 x 128;\nplayers 1;\nphase p {\n  move pass { end; }\n}\n");
  CHECK_FALSE(edge->diags.has_errors());
  auto players = rulebook::dsl::testing::check_text(
      "game \"x\";\nboard 2 x 2;\nplayers 1000000000;\nphase p {\n  move pass { end; }\n}\n");
  CHECK(has(players->errors(), "test.rules:3:9: error: 1000000000 players are too many: a game "
                               "has at most 256"));
}
