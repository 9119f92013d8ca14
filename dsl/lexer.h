// Lexer: the bytes of one source buffer to tokens, comments collected on the side.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "dsl/ast.h"
#include "dsl/diagnostics.h"

namespace rulebook::dsl {

// Every fixed token is listed once here; the enum, the spelling table and the keyword
// lookup are all generated from these lists.

// X(Name, "spelling")
#define RULEBOOK_PUNCTUATION(X)                                                           \
  X(LParen, "(") X(RParen, ")") X(LBrace, "{") X(RBrace, "}") X(LBracket, "[")            \
  X(RBracket, "]") X(Comma, ",") X(Semicolon, ";") X(Colon, ":") X(Dot, ".")              \
  X(DotDot, "..") X(Question, "?") X(Pipe, "|") X(Assign, "=") X(ColonAssign, ":=")       \
  X(PlusAssign, "+=") X(MinusAssign, "-=") X(EqEq, "==") X(NotEq, "!=") X(Less, "<")      \
  X(LessEq, "<=") X(Greater, ">") X(GreaterEq, ">=") X(Plus, "+") X(Minus, "-")           \
  X(Star, "*") X(Slash, "/") X(Percent, "%") X(Amp, "&") X(Arrow, "->") X(SwapArrow, "<->")

// X(Name, "spelling", role). Reserved words cannot name anything; Decl words also start a
// top-level declaration (error recovery resumes at them); Contextual words are keywords
// only where the grammar expects them and ordinary identifiers elsewhere.
#define RULEBOOK_KEYWORDS(K)                                                                  \
  K(Game, "game", Decl) K(Variant, "variant", Decl) K(Param, "param", Decl)                   \
  K(Board, "board", Decl) K(Regions, "regions", Decl) K(Players, "players", DeclContextual)   \
  K(Team, "team", Decl) K(Type, "type", Decl) K(Setup, "setup", Decl) K(State, "state", Decl) \
  K(Init, "init", Decl) K(Define, "define", Decl) K(Rule, "rule", Decl)                       \
  K(Phase, "phase", Decl) K(Score, "score", Decl) K(Winner, "winner", Decl)                   \
  K(End, "end", Decl) K(Prove, "prove", Decl) K(Find, "find", Decl)                           \
  K(Derive, "derive", Decl) K(Lemma, "lemma", Decl) K(Bound, "bound", Decl)                   \
  K(Depends, "depends", Decl) K(Consistent, "consistent", Decl)                               \
  K(Redundant, "redundant", Decl) K(Invariant, "invariant", Decl) K(Metric, "metric", Decl)   \
  K(Symmetry, "symmetry", Decl) K(Action, "action", Decl)                                      \
  K(Allow, "allow", DeclContextual) K(Puzzle, "puzzle", DeclContextual)                      \
  K(Criterion, "criterion", DeclContextual)                                                    \
  K(Override, "override", Decl) K(Remove, "remove", Decl) K(Move, "move", Reserved)           \
  K(True, "true", Reserved) K(False, "false", Reserved) K(None, "none", Reserved)             \
  K(Not, "not", Reserved) K(And, "and", Reserved) K(Or, "or", Reserved) K(In, "in", Reserved) \
  K(If, "if", Reserved) K(Then, "then", Reserved) K(Else, "else", Reserved)                   \
  K(All, "all", Reserved) K(Some, "some", Reserved) K(No, "no", Reserved)                     \
  K(Where, "where", Reserved) K(Let, "let", Reserved) K(For, "for", Reserved)                 \
  K(Again, "again", Reserved) K(Eliminate, "eliminate", Reserved) K(Goto, "goto", Reserved)   \
  K(When, "when", Reserved) K(Until, "until", Reserved) K(Requires, "requires", Reserved)     \
  K(Bool, "bool", Reserved) K(Int, "int", Reserved) K(Count, "count", Contextual)             \
  K(Sum, "sum", Contextual) K(Max, "max", Contextual) K(Min, "min", Contextual)               \
  K(Grid, "grid", Contextual) K(With, "with", Contextual) K(Blocks, "blocks", Contextual)     \
  K(X, "x", Contextual) K(Named, "named", Contextual) K(Extends, "extends", Contextual)        \
  K(Random, "random", Contextual) K(Shuffle, "shuffle", Contextual) K(Of, "of", Contextual)   \
  K(File, "file", Contextual) K(Entry, "entry", Contextual) K(On, "on", Contextual)           \
  K(Stuck, "stuck", Contextual) K(Highest, "highest", Contextual)                             \
  K(Lowest, "lowest", Contextual) K(Over, "over", Contextual) K(Boards, "boards", Contextual) \
  K(Moves, "moves", Contextual) K(At, "at", Contextual) K(Swap, "swap", Contextual)           \
  K(Set, "set", Contextual) K(Seq, "seq", Contextual) K(Property, "property", Contextual)    \
  K(Reachable, "reachable", Contextual) K(Solution, "solution", Contextual) K(Clue, "clue", Contextual) \
  K(Play, "play", Contextual)

enum class TokenKind : uint8_t {
  Eof,
  Ident,
  Int,
  String,
#define RULEBOOK_X(name, text) name,
  RULEBOOK_PUNCTUATION(RULEBOOK_X)
#undef RULEBOOK_X
#define RULEBOOK_X(name, text, role) Kw##name,
  RULEBOOK_KEYWORDS(RULEBOOK_X)
#undef RULEBOOK_X
};

/// How a keyword may be used (see RULEBOOK_KEYWORDS).
enum class KeywordRole : uint8_t { NotKeyword, Reserved, Decl, DeclContextual, Contextual };

struct Token {
  TokenKind kind = TokenKind::Eof;
  Span span;
  bool line_start = false;   ///< first token on its line
  int64_t int_value = 0;     ///< Int
  std::string string_value;  ///< String: contents with escapes resolved
  std::string_view text;     ///< the bytes as written
};

/// How a kind is written in messages: `';'`, `'rule'`, `identifier`, `end of file`.
std::string_view token_kind_name(TokenKind kind);
/// The bare spelling of a keyword or punctuation (`rule`, `;`), "" for other kinds.
std::string_view token_spelling(TokenKind kind);
KeywordRole keyword_role(TokenKind kind);
/// The keyword spelled `word`, or Ident.
TokenKind keyword_kind(std::string_view word);
/// Every word that may start a top-level declaration, in the order of the keyword list.
const std::vector<std::string>& declaration_words();

/// Errors one file may report before the front end gives up on it.
inline constexpr size_t kMaxErrorsPerFile = 20;

/// Tokenizes one buffer on demand. Errors go to `diags`, counted against the file's error
/// limit, which the parser shares through `error()`; once the limit is passed the lexer
/// reports `too many errors; stopping` and returns only Eof.
class Lexer {
 public:
  Lexer(const SourceSet& sources, uint32_t file, Diagnostics& diags);

  Token next();

  /// Reports an error unless the limit is spent; returns null when it was not reported.
  Diagnostic* error(Span span, std::string message, std::string hint = "");
  size_t errors() const { return errors_; }
  bool stopped() const { return stopped_; }
  uint32_t file() const { return file_; }

  std::vector<Comment> take_comments() { return std::move(comments_); }

 private:
  void skip_space_and_comments(bool& line_start);
  Token lex_word(uint32_t start);
  Token lex_number(uint32_t start);
  Token lex_string(uint32_t start);
  Token make(TokenKind kind, uint32_t start, uint32_t end);

  std::string_view text_;
  uint32_t file_;
  Diagnostics& diags_;
  uint32_t pos_ = 0;
  bool code_on_line_ = false;  ///< a token already stands on the current line
  size_t errors_ = 0;
  bool stopped_ = false;
  std::vector<Comment> comments_;
};

/// Every token of a buffer up to and including Eof (tests and tools; the parser streams).
std::vector<Token> lex_all(const SourceSet& sources, uint32_t file, Diagnostics& diags,
                           std::vector<Comment>* comments = nullptr);

}  // namespace rulebook::dsl
