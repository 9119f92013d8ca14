// Lexer tests (token kinds, spans, comments, lexical errors) and diagnostic rendering.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

#include "dsl/lexer.h"

using namespace rulebook::dsl;
using K = TokenKind;

namespace {

struct Lexed {
  SourceSet sources;
  Diagnostics diags;
  std::vector<Token> tokens;
  std::vector<Comment> comments;

  explicit Lexed(const std::string& text) {
    uint32_t id = sources.add("t.rules", text);
    tokens = lex_all(sources, id, diags, &comments);
  }
  std::vector<TokenKind> kinds() const {
    std::vector<TokenKind> out;
    for (const Token& t : tokens) out.push_back(t.kind);
    return out;
  }
  std::string errors() const { return diags.render(sources); }
};

}  // namespace

TEST_CASE("lexer: punctuation takes the longest match") {
  Lexed l("<-> <= < -> - := : .. . == = != >= > += -= ? | & % / * ( ) [ ] { } , ;");
  CHECK(l.kinds() == std::vector<K>{K::SwapArrow, K::LessEq,     K::Less,        K::Arrow,
                                    K::Minus,     K::ColonAssign, K::Colon,      K::DotDot,
                                    K::Dot,       K::EqEq,        K::Assign,     K::NotEq,
                                    K::GreaterEq, K::Greater,     K::PlusAssign, K::MinusAssign,
                                    K::Question,  K::Pipe,        K::Amp,        K::Percent,
                                    K::Slash,     K::Star,        K::LParen,     K::RParen,
                                    K::LBracket,  K::RBracket,    K::LBrace,     K::RBrace,
                                    K::Comma,     K::Semicolon,   K::Eof});
  CHECK_FALSE(l.diags.has_errors());
}

TEST_CASE("lexer: ranges are not decimals") {
  Lexed l("1..9 x.y..z");
  CHECK(l.kinds() == std::vector<K>{K::Int, K::DotDot, K::Int, K::KwX, K::Dot, K::Ident,
                                    K::DotDot, K::Ident, K::Eof});
  CHECK(l.tokens[0].int_value == 1);
  CHECK(l.tokens[2].int_value == 9);
}

TEST_CASE("lexer: keywords come from one table, with roles") {
  Lexed l("game rule players x max Cell rulez _a1 end");
  CHECK(l.kinds() == std::vector<K>{K::KwGame, K::KwRule, K::KwPlayers, K::KwX, K::KwMax,
                                    K::Ident, K::Ident, K::Ident, K::KwEnd, K::Eof});
  CHECK(keyword_role(K::KwRule) == KeywordRole::Decl);
  CHECK(keyword_role(K::KwPlayers) == KeywordRole::DeclContextual);
  CHECK(keyword_role(K::KwX) == KeywordRole::Contextual);
  CHECK(keyword_role(K::KwIn) == KeywordRole::Reserved);
  CHECK(keyword_role(K::Ident) == KeywordRole::NotKeyword);
  CHECK(token_kind_name(K::KwRule) == "'rule'");
  CHECK(token_kind_name(K::Semicolon) == "';'");
  CHECK(token_kind_name(K::Eof) == "end of file");
  CHECK(token_spelling(K::SwapArrow) == "<->");
  // Every keyword's spelling maps back to it.
  for (auto k = static_cast<size_t>(K::KwGame); k <= static_cast<size_t>(K::KwProperty); ++k) {
    CHECK(keyword_kind(token_spelling(static_cast<K>(k))) == static_cast<K>(k));
  }
  const auto& words = declaration_words();
  CHECK(words.front() == "game");
  CHECK(std::find(words.begin(), words.end(), "rule") != words.end());
  CHECK(std::find(words.begin(), words.end(), "move") == words.end());
}

TEST_CASE("lexer: spans, text and line starts") {
  Lexed l("rule  r:\n  a;");
  REQUIRE(l.tokens.size() == 6);
  CHECK(l.tokens[0].span.begin == 0);
  CHECK(l.tokens[0].span.end == 4);
  CHECK(l.tokens[1].text == "r");
  CHECK(l.tokens[1].span.begin == 6);
  CHECK(l.tokens[0].line_start);
  CHECK_FALSE(l.tokens[1].line_start);
  CHECK(l.tokens[3].text == "a");
  CHECK(l.tokens[3].line_start);
  CHECK(l.tokens[5].kind == K::Eof);
  CHECK(l.tokens[5].span.begin == 13);
}

TEST_CASE("lexer: strings resolve escapes") {
  Lexed l(R"("a\"b\\c\nd" "")");
  REQUIRE(l.kinds() == std::vector<K>{K::String, K::String, K::Eof});
  CHECK(l.tokens[0].string_value == "a\"b\\c\nd");
  CHECK(l.tokens[1].string_value.empty());
  CHECK(l.tokens[0].text == R"("a\"b\\c\nd")");
}

TEST_CASE("lexer: comments are collected with their trailing flag") {
  Lexed l("// head\nparam v = 1; // tail\r\n  // own line\nw");
  REQUIRE(l.comments.size() == 3);
  CHECK(l.comments[0].text == "// head");
  CHECK_FALSE(l.comments[0].trailing);
  CHECK(l.comments[1].text == "// tail");
  CHECK(l.comments[1].trailing);
  CHECK(l.comments[2].text == "// own line");
  CHECK_FALSE(l.comments[2].trailing);
  CHECK(l.comments[0].span.begin == 0);
  CHECK(l.comments[0].span.end == 7);
  CHECK(l.kinds() == std::vector<K>{K::KwParam, K::Ident, K::Assign, K::Int, K::Semicolon,
                                    K::Ident, K::Eof});
}

TEST_CASE("lexer: errors name the character or byte") {
  Lexed l("a @ b \x01 c \xC3\xA9 d ! e");
  CHECK(l.kinds() ==
        std::vector<K>{K::Ident, K::Ident, K::Ident, K::Ident, K::Ident, K::Eof});
  // The control byte is shown escaped (four columns), and the carets after it move with it.
  CHECK(l.errors() ==
        "t.rules:1:3: error: unexpected character '@'\n"
        "    1 | a @ b \\x01 c é d ! e\n"
        "      |   ^\n"
        "t.rules:1:7: error: unexpected byte 0x01\n"
        "    1 | a @ b \\x01 c é d ! e\n"
        "      |       ^~~~\n"
        "t.rules:1:11: error: unexpected byte 0xC3\n"
        "    1 | a @ b \\x01 c é d ! e\n"
        "      |              ^\n"
        "help: names and operators are ASCII; other text belongs in strings or comments\n"
        "t.rules:1:16: error: unexpected character '!'\n"
        "    1 | a @ b \\x01 c é d ! e\n"
        "      |                  ^\n"
        "help: use 'not' for negation, '!=' for inequality\n");
}

TEST_CASE("lexer: a NUL byte marks binary data: one error, no tokens") {
  Lexed l(std::string("a\0b", 3));
  CHECK(l.kinds() == std::vector<K>{K::Eof});
  REQUIRE(l.diags.all().size() == 1);
  CHECK(l.diags.all()[0].message == "this is not a rule file: it holds binary data (byte 0x00)");
  CHECK(l.diags.all()[0].span.begin == 1);
}

TEST_CASE("lexer: many control bytes mark binary data; a stray one is an ordinary error") {
  std::string junk;
  for (int i = 0; i < 400; ++i) junk += (i % 7 == 0) ? '\x02' : 'q';
  Lexed bin(junk);
  CHECK(bin.diags.error_count() == 1);
  CHECK(bin.diags.all()[0].message == "this is not a rule file: it holds binary data (byte 0x02)");

  Lexed stray("a \x02 b");
  CHECK(stray.kinds() == std::vector<K>{K::Ident, K::Ident, K::Eof});
  REQUIRE(stray.diags.all().size() == 1);
  CHECK(stray.diags.all()[0].message == "unexpected byte 0x02");
}

TEST_CASE("lexer: unterminated string and unknown escape") {
  Lexed l("v \"abc\ny \"a\\qb\"");
  CHECK(l.kinds() == std::vector<K>{K::Ident, K::String, K::Ident, K::String, K::Eof});
  CHECK(l.tokens[1].string_value == "abc");
  CHECK(l.tokens[3].string_value == "ab");
  CHECK(l.errors() ==
        "t.rules:1:3: error: unterminated string\n"
        "    1 | v \"abc\n"
        "      |   ^~~~\n"
        "help: close it with '\"' on the same line\n"
        "t.rules:2:5: error: unknown escape in string\n"
        "    2 | y \"a\\qb\"\n"
        "      |     ^~\n"
        "help: the escapes are \\\", \\\\ and \\n\n");
}

TEST_CASE("lexer: integer too large") {
  Lexed l("9223372036854775807 9223372036854775808");
  CHECK(l.tokens[0].int_value == 9223372036854775807);
  REQUIRE(l.diags.all().size() == 1);
  CHECK(l.diags.all()[0].message == "integer too large");
  CHECK(l.diags.all()[0].span.begin == 20);
  CHECK(l.diags.all()[0].span.end == 39);
}

TEST_CASE("lexer: stops after 20 errors, in linear time on printable junk") {
  std::string junk;
  for (int i = 0; i < 5'000'000; ++i) junk += (i % 3 == 0) ? '$' : (i % 3 == 1 ? 'a' : '@');
  Lexed l(junk);
  CHECK(l.diags.error_count() == 21);
  CHECK(l.diags.all().back().message == "too many errors; stopping");
  CHECK(l.tokens.back().kind == K::Eof);
  CHECK(l.tokens.size() == 21);  // the identifiers before the 21st error, then Eof
}

// ---------------------------------------------------------------- sources and rendering

TEST_CASE("source: positions are 1-based lines and byte columns") {
  SourceSet s;
  uint32_t id = s.add("f", "ab\ncd\r\n\nlast");
  CHECK(s.position(id, 0).line == 1);
  CHECK(s.position(id, 1).column == 2);
  CHECK(s.position(id, 3).line == 2);
  CHECK(s.position(id, 3).column == 1);
  CHECK(s.position(id, 8).line == 4);
  CHECK(s.position(id, 12).column == 5);  // end of file: just past the last byte
  CHECK(s.line_text(id, 4) == "cd");
  CHECK(s.line_text(id, 7) == "");
  CHECK(s.line_text(id, 12) == "last");
  CHECK(s.text(Span{id, 3, 5}) == "cd");
}

TEST_CASE("source: load reads any bytes and reports unreadable files") {
  namespace fs = std::filesystem;
  fs::path dir = fs::temp_directory_path() / "rulebook_test_lexer";
  fs::create_directories(dir);
  std::string bytes("a\0b\xFF\n", 5);
  { std::ofstream(dir / "bin.rules", std::ios::binary) << bytes; }
  SourceSet s;
  uint32_t id = 99;
  std::string error;
  REQUIRE(s.load((dir / "bin.rules").string(), id, error));
  CHECK(id == 0);
  CHECK(s.file(id).text == bytes);
  CHECK_FALSE(s.load((dir / "missing.rules").string(), id, error));
  CHECK(error == "cannot read '" + (dir / "missing.rules").string() + "': No such file or directory");
  CHECK_FALSE(s.load(dir.string(), id, error));
  CHECK(error == "cannot read '" + dir.string() + "': it is a directory");
  CHECK(s.size() == 1);
  fs::remove_all(dir);
}

TEST_CASE("diagnostics: notes, hints, tabs and end of file") {
  SourceSet s;
  uint32_t id = s.add("g.rules", "\tabc def\nx");
  Diagnostics d;
  Diagnostic& e = d.error(Span{id, 5, 8}, "bad");
  e.notes.push_back({Span{id, 1, 4}, "see here"});
  e.hint = "fix it";
  d.warning(Span{id, 10, 10}, "at the end");
  CHECK(d.error_count() == 1);
  CHECK(d.render(s) ==
        "g.rules:1:6: error: bad\n"
        "    1 |  abc def\n"
        "      |      ^~~\n"
        "g.rules:1:2: note: see here\n"
        "    1 |  abc def\n"
        "      |  ^~~\n"
        "help: fix it\n"
        "g.rules:2:2: warning: at the end\n"
        "    2 | x\n"
        "      |  ^\n");
}

TEST_CASE("diagnostics: a span over several lines underlines to the end of the first") {
  SourceSet s;
  uint32_t id = s.add("m", "ab cd\nef");
  Diagnostics d;
  d.error(Span{id, 3, 8}, "multi");
  CHECK(d.render(s) == "m:1:4: error: multi\n    1 | ab cd\n      |    ^~\n");
}

TEST_CASE("diagnostics: long lines are trimmed around the span") {
  SourceSet s;
  std::string line = std::string(300, 'a') + "XYZ" + std::string(300, 'b');
  uint32_t id = s.add("long", line);
  Diagnostics d;
  d.error(Span{id, 300, 303}, "here");
  std::string expected_line = "..." + std::string(60, 'a') + "XYZ" + std::string(97, 'b') + "...";
  CHECK(d.render(s) == "long:1:301: error: here\n    1 | " + expected_line + "\n      | " +
                           std::string(63, ' ') + "^~~\n");
}

TEST_CASE("closest_name: case-insensitive, bounded, first wins ties") {
  std::vector<std::string> words{"rule", "phase", "param", "define"};
  CHECK(closest_name("rulez", words) == "rule");
  CHECK(closest_name("RULE", words) == "rule");
  CHECK(closest_name("pharam", words) == "param");  // distance 1 to param, 2 to phase
  CHECK(closest_name("xyz", words).empty());
  CHECK(closest_name("defnie", words) == "define");  // 2 edits, allowed for 6 letters
  CHECK(closest_name("pa", {"pb", "pc"}) == "pb");
  CHECK(closest_name("q", {}).empty());
}
