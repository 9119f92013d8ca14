// Parser: tokens, errors and recovery, the file and its declarations, statements.
#include "dsl/parser.h"

#include <fmt/format.h>

#include "dsl/parser_internal.h"

namespace rulebook::dsl {

namespace detail {

Parser::Parser(const SourceSet& sources, uint32_t file, Diagnostics& diags)
    : lexer_(sources, file, diags), sources_(sources), file_(file) {}

// ---------------------------------------------------------------- tokens

const Token& Parser::peek(size_t n) {
  while (ahead_count_ <= n) {
    ahead_[(ahead_first_ + ahead_count_) % kLookahead] = lexer_.next();
    ++ahead_count_;
  }
  return ahead_[(ahead_first_ + n) % kLookahead];
}

Token Parser::advance() {
  peek();
  Token t = std::move(ahead_[ahead_first_]);
  ahead_first_ = (ahead_first_ + 1) % kLookahead;
  --ahead_count_;
  if (t.kind != TokenKind::Eof) prev_end_ = t.span.end;
  if (t.kind == TokenKind::LBrace) ++open_braces_;
  if (t.kind == TokenKind::RBrace && open_braces_ > 0) --open_braces_;
  return t;
}

bool Parser::accept(TokenKind kind) {
  if (!at(kind)) return false;
  advance();
  return true;
}

std::string Parser::describe(const Token& token) const {
  constexpr size_t kShown = 40;
  auto shorten = [](std::string_view s) {
    return s.size() > kShown ? std::string(s.substr(0, kShown)) + "..." : std::string(s);
  };
  switch (token.kind) {
    case TokenKind::Eof: return "end of file";
    case TokenKind::Ident:
    case TokenKind::Int: return fmt::format("'{}'", shorten(token.text));
    case TokenKind::String: return "string " + shorten(token.text);
    default: return std::string(token_kind_name(token.kind));
  }
}

Token Parser::expect(TokenKind kind, std::string_view context) {
  if (at(kind)) return advance();
  fail(peek().span, fmt::format("expected {} {}, found {}", token_kind_name(kind), context,
                                describe(peek())));
}

bool Parser::at_name(size_t n) {
  TokenKind kind = peek(n).kind;
  KeywordRole role = keyword_role(kind);
  return kind == TokenKind::Ident || role == KeywordRole::Contextual ||
         role == KeywordRole::DeclContextual;
}

Ident Parser::expect_name(std::string_view what) {
  if (at_name()) {
    Token t = advance();
    return Ident{std::string(t.text), t.span};
  }
  const Token& t = peek();
  std::string hint;
  if (keyword_role(t.kind) != KeywordRole::NotKeyword) {
    hint = fmt::format("{} is a reserved word; pick another name", token_kind_name(t.kind));
  }
  fail(t.span, fmt::format("expected {}, found {}", what, describe(t)), hint);
}

void Parser::expect_semicolon(std::string_view after) {
  if (accept(TokenKind::Semicolon)) return;
  const Token& t = peek();
  std::string message = fmt::format("expected ';' after {}, found {}", after, describe(t));
  if (t.line_start) {
    report(here(), std::move(message), "add ';' at the end of the previous line");
    return;
  }
  fail(t.span, std::move(message));
}

// ---------------------------------------------------------------- errors

Diagnostic* Parser::report(Span span, std::string message, std::string hint) {
  if (lexer_.errors() > decl_error_mark_ || span.begin == last_error_at_) return nullptr;
  last_error_at_ = span.begin;
  return lexer_.error(span, std::move(message), std::move(hint));
}

void Parser::fail(Span span, std::string message, std::string hint) {
  report(span, std::move(message), std::move(hint));
  throw ParseError{};
}

void Parser::fail_expected(std::string_view what) {
  fail(peek().span, fmt::format("expected {}, found {}", what, describe(peek())));
}

void Parser::enter(const Span& span) {
  if (++depth_ > kMaxDepth) {
    fail(span, fmt::format("nesting too deep: more than {} levels", kMaxDepth),
         "split the expression with 'define' or 'let'");
  }
}

// A declaration word at the start of a line is where recovery resumes. `end` counts only
// as `end when` (a statement `end;` is common inside blocks), `players` only outside braces
// (it is also the set of all players).
bool Parser::starts_declaration() {
  const Token& t = peek();
  if (!t.line_start) return false;
  KeywordRole role = keyword_role(t.kind);
  if (role == KeywordRole::DeclContextual) return open_braces_ == 0;
  if (role != KeywordRole::Decl) return false;
  if (t.kind == TokenKind::KwEnd) return peek(1).kind == TokenKind::KwWhen;
  return true;
}

// Skips to just after the `;` or `}` that ends the broken declaration, or to the next
// declaration word at the start of a line, whichever comes first. Expression braces nest
// inside block braces, so when a block was open at the error, the `}` that closes every
// brace closes the declaration; otherwise only a `}` at the end of a line is taken as its
// end, not one closing a set literal met while skipping.
void Parser::sync_declaration(uint32_t decl_start) {
  const int blocks_at_error = open_blocks_;
  while (!at(TokenKind::Eof)) {
    if (peek().span.begin != decl_start && starts_declaration()) return;
    Token t = advance();
    if (t.kind == TokenKind::Semicolon && open_braces_ == 0) return;
    if (t.kind == TokenKind::RBrace && open_braces_ == 0 &&
        (blocks_at_error > 0 || peek().line_start)) {
      return;
    }
  }
}

// ---------------------------------------------------------------- file

namespace {

// The line starts and the blank lines of `text`, which the formatter keeps.
SourceLines scan_lines(std::string_view text) {
  SourceLines lines;
  bool blank_seen = false;
  for (size_t start = 0; start < text.size();) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    lines.starts.push_back(static_cast<uint32_t>(start));
    size_t first = text.find_first_not_of(" \t\r", start);
    if (first >= end) {
      blank_seen = true;
    } else {
      if (blank_seen) lines.after_blank.push_back(static_cast<uint32_t>(first));
      blank_seen = false;
    }
    start = end + 1;
  }
  return lines;
}

}  // namespace

/// file = header { decl } ;
std::unique_ptr<File> Parser::parse_file() {
  auto file = std::make_unique<File>();
  file->source = file_;
  if (at(TokenKind::Eof)) {
    report(Span{file_, 0, 0},
           "empty file: expected 'game \"title\";' or 'variant \"title\" extends \"file\";'");
  } else {
    uint32_t start = peek().span.begin;
    try {
      parse_header(*file);
    } catch (const ParseError&) {
      sync_declaration(start);
    }
    while (!at(TokenKind::Eof) && !lexer_.stopped()) parse_declaration(*file);
  }
  file->comments = lexer_.take_comments();
  file->lines = scan_lines(sources_.file(file_).text);
  return file;
}

/// header = "game" STRING ";" | "variant" STRING "extends" STRING ";" ;
void Parser::parse_header(File& file) {
  decl_error_mark_ = lexer_.errors();
  if (!at(TokenKind::KwGame) && !at(TokenKind::KwVariant)) {
    report(peek().span,
           fmt::format("expected 'game \"title\";' or 'variant \"title\" extends \"file\";' at "
                       "the start of the file, found {}",
                       describe(peek())));
    return;  // go on with the declarations
  }
  file.is_variant = advance().kind == TokenKind::KwVariant;
  Token title = expect(TokenKind::String, file.is_variant ? "after 'variant'" : "after 'game'");
  file.title = title.string_value;
  file.title_span = title.span;
  if (file.is_variant) {
    expect(TokenKind::KwExtends, "after the variant's title");
    Token base = expect(TokenKind::String, "after 'extends' (the path of the base file)");
    file.extends = base.string_value;
    file.extends_span = base.span;
  }
  expect_semicolon("the header");
}

void Parser::parse_declaration(File& file) {
  decl_error_mark_ = lexer_.errors();
  depth_ = 0;
  open_braces_ = 0;
  open_blocks_ = 0;
  uint32_t start = peek().span.begin;
  try {
    Decl decl;
    decl.is_override = at(TokenKind::KwOverride);
    if (decl.is_override) advance();
    decl.body = parse_declaration_body(decl.is_override);
    decl.span = Span{file_, start, prev_end_};
    file.decls.push_back(std::move(decl));
  } catch (const ParseError&) {
    sync_declaration(start);
  }
}

/// decl = param | board | regions | players | team | typedecl | setup | state | init
///      | define | rule | phase | score | winner | endwhen | property | metric
///      | symmetry | action | allow | "override" overridable | "remove" kind IDENT ";" ;
/// overridable = param | define | rule | phase | state | setup | score | winner | endwhen
///      | property | metric | team | regions | board | players | move | action ;
/// A top-level move without `override` must say `in PHASE` (see parse_move).
DeclBody Parser::parse_declaration_body(bool is_override) {
  const Token& t = peek();
  if (is_override) {
    switch (t.kind) {
      case TokenKind::KwType:
      case TokenKind::KwInit:
      case TokenKind::KwSymmetry:
      case TokenKind::KwRemove:
      case TokenKind::KwOverride:
      case TokenKind::KwGame:
      case TokenKind::KwVariant:
        fail(t.span, fmt::format("{} cannot be overridden", token_kind_name(t.kind)));
      default: break;
    }
  }
  switch (t.kind) {
    case TokenKind::KwParam: return parse_param();
    case TokenKind::KwBoard: return parse_board();
    case TokenKind::KwRegions: return parse_regions();
    case TokenKind::KwPlayers: return parse_players();
    case TokenKind::KwTeam: return parse_team();
    case TokenKind::KwType: return parse_typedecl();
    case TokenKind::KwSetup: return parse_setup();
    case TokenKind::KwState: return parse_state();
    case TokenKind::KwInit: return parse_init();
    case TokenKind::KwDefine: return parse_define();
    case TokenKind::KwAction: return parse_action();
    case TokenKind::KwRule: return parse_rule();
    case TokenKind::KwPhase: return parse_phase();
    case TokenKind::KwScore: return parse_score();
    case TokenKind::KwWinner: return parse_winner();
    case TokenKind::KwEnd: return parse_endwhen();
    case TokenKind::KwProve:
    case TokenKind::KwFind:
    case TokenKind::KwDerive:
    case TokenKind::KwLemma:
    case TokenKind::KwBound:
    case TokenKind::KwDepends:
    case TokenKind::KwConsistent:
    case TokenKind::KwRedundant:
    case TokenKind::KwInvariant:
    case TokenKind::KwPuzzle:
    case TokenKind::KwCriterion: return parse_property();
    case TokenKind::KwMetric: return parse_metric();
    case TokenKind::KwSymmetry: return parse_symmetry();
    case TokenKind::KwAllow: return parse_allow();
    case TokenKind::KwRemove: return parse_remove();
    case TokenKind::KwMove: return parse_move(is_override, true);
    case TokenKind::KwGame:
    case TokenKind::KwVariant:
      fail(t.span, fmt::format("{} may appear only once, as the first line of the file",
                               token_kind_name(t.kind)));
    case TokenKind::Ident: {
      std::string suggestion = closest_name(std::string(t.text), declaration_words());
      fail(t.span, fmt::format("unknown declaration {}", describe(t)),
           suggestion.empty() ? "" : fmt::format("did you mean '{}'?", suggestion));
    }
    default:
      fail(t.span, fmt::format("expected a declaration, found {}", describe(t)));
  }
}

// ---------------------------------------------------------------- statements

/// block = "{" { stmt } "}" ;
Block Parser::parse_block(std::string_view what) {
  Token open = expect(TokenKind::LBrace, fmt::format("to open {}", what));
  ++open_blocks_;
  enter(open.span);
  Block block;
  while (!accept(TokenKind::RBrace)) {
    if (at(TokenKind::Eof) || starts_declaration()) {
      Diagnostic* d = report(peek().span, fmt::format("expected '}}' to close {}, found {}", what,
                                                      describe(peek())));
      if (d) d->notes.push_back({open.span, "the block opens here"});
      throw ParseError{};
    }
    block.push_back(parse_stmt());
  }
  --open_blocks_;
  --depth_;
  return block;
}

/// lvalue = IDENT { "[" expr "]" | "." IDENT } ;
ExprPtr Parser::parse_lvalue() {
  Ident name = expect_name("a statement");
  ExprPtr e = make(ExprKind::Name, name.span);
  e->ident = std::move(name);
  while (true) {
    if (accept(TokenKind::LBracket)) {
      ExprPtr index = make(ExprKind::Index, e->span);
      index->args.push_back(std::move(e));
      index->args.push_back(parse_expr());
      expect(TokenKind::RBracket, "to close '['");
      index->span = from(index->span);
      e = std::move(index);
    } else if (accept(TokenKind::Dot)) {
      ExprPtr field = make(ExprKind::Field, e->span);
      field->ident = expect_name("a field name after '.'");
      field->args.push_back(std::move(e));
      field->span = from(field->span);
      e = std::move(field);
    } else {
      return e;
    }
  }
}

/// stmt = lvalue ( ":=" | "+=" | "-=" ) expr ";"
///      | "if" expr block [ "else" ( block | ifstmt ) ]
///      | "for" binder block
///      | "let" IDENT "=" expr ";"
///      | IDENT "(" [ expr { "," expr } ] ")" ";"
///      | "again" ";" | "eliminate" expr ";" | "goto" IDENT ";" | "end" ";" ;
StmtPtr Parser::parse_stmt() {
  auto s = std::make_unique<Stmt>();
  Span start = peek().span;
  switch (peek().kind) {
    case TokenKind::KwIf: return parse_if_stmt();
    case TokenKind::KwFor:
      advance();
      s->kind = StmtKind::For;
      parse_binder(s->binders, s->where);
      s->body = parse_block("the 'for' block");
      break;
    case TokenKind::KwLet:
      advance();
      s->kind = StmtKind::Let;
      s->name = expect_name("a name after 'let'");
      if (at(TokenKind::ColonAssign)) {
        report(peek().span, "'let' takes '=', not ':='", "write 'let name = value;'");
        advance();
      } else {
        expect(TokenKind::Assign, fmt::format("after 'let {}'", s->name.name));
      }
      s->value = parse_expr();
      expect_semicolon("the statement");
      break;
    case TokenKind::KwAgain:
      advance();
      s->kind = StmtKind::Again;
      expect_semicolon("'again'");
      break;
    case TokenKind::KwEliminate:
      advance();
      s->kind = StmtKind::Eliminate;
      s->value = parse_expr();
      expect_semicolon("the statement");
      break;
    case TokenKind::KwGoto:
      advance();
      s->kind = StmtKind::Goto;
      s->name = expect_name("a phase name after 'goto'");
      expect_semicolon("the statement");
      break;
    case TokenKind::KwEnd:
      advance();
      s->kind = StmtKind::End;
      expect_semicolon("'end'");
      break;
    default: {
      if (!at_name()) fail_expected("a statement");
      s->kind = StmtKind::Assign;
      s->target = parse_lvalue();
      switch (peek().kind) {
        case TokenKind::ColonAssign: s->assign = AssignOp::Set; break;
        case TokenKind::PlusAssign: s->assign = AssignOp::Add; break;
        case TokenKind::MinusAssign: s->assign = AssignOp::Sub; break;
        case TokenKind::Assign:
          report(peek().span, "'=' is not assignment here; did you mean ':=' ?");
          s->assign = AssignOp::Set;
          break;
        case TokenKind::LParen:
          if (s->target->kind == ExprKind::Name) {
            // `name(args);` calls an action.
            ExprPtr call = make(ExprKind::Call, s->target->span);
            advance();
            call->args.push_back(std::move(s->target));
            if (!at(TokenKind::RParen)) {
              do {
                call->args.push_back(parse_expr());
              } while (accept(TokenKind::Comma));
            }
            expect(TokenKind::RParen, "after the action's arguments");
            call->span = from(call->span);
            s->kind = StmtKind::Call;
            s->value = std::move(call);
            expect_semicolon("the call");
            s->span = from(start);
            return s;
          }
          fail(peek().span, fmt::format("expected ':=', '+=' or '-=' after '{}', found '('",
                                        sources_.text(s->target->span)),
               "a call is not a statement; statements assign, branch, loop, call an action "
               "or end the move");
        default:
          fail(peek().span, fmt::format("expected ':=', '+=' or '-=' after '{}', found {}",
                                        sources_.text(s->target->span), describe(peek())));
      }
      advance();
      s->value = parse_expr();
      expect_semicolon("the assignment");
    }
  }
  s->span = from(start);
  return s;
}

/// ifstmt = "if" expr block [ "else" ( block | ifstmt ) ] ;
StmtPtr Parser::parse_if_stmt() {
  Token word = advance();
  enter(word.span);
  auto s = std::make_unique<Stmt>();
  s->kind = StmtKind::If;
  s->value = parse_expr();
  if (at(TokenKind::KwThen)) {
    fail(peek().span, "expected '{' after the condition of 'if', found 'then'",
         "a statement is written 'if condition { ... }'; 'if a then b else c' is an "
         "expression");
  }
  s->body = parse_block("the 'if' block");
  if (accept(TokenKind::KwElse)) {
    s->has_else = true;
    if (at(TokenKind::KwIf)) {
      s->otherwise.push_back(parse_if_stmt());
    } else {
      s->otherwise = parse_block("the 'else' block");
    }
  }
  --depth_;
  s->span = from(word.span);
  return s;
}

}  // namespace detail

std::unique_ptr<File> parse(const SourceSet& sources, uint32_t file, Diagnostics& diags) {
  detail::Parser parser(sources, file, diags);
  return parser.parse_file();
}

}  // namespace rulebook::dsl
