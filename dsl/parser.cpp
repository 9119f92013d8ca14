// Parser: file, declarations and statements; panic-mode recovery at declarations.
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
    case TokenKind::Int: return "'" + shorten(token.text) + "'";
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
///      | symmetry | "override" overridable | "remove" kind IDENT ";" ;
/// overridable = param | define | rule | phase | state | setup | score | winner | endwhen
///      | property | metric | team | regions | board | players | move ;
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
    case TokenKind::KwRedundant: return parse_property();
    case TokenKind::KwMetric: return parse_metric();
    case TokenKind::KwSymmetry: return parse_symmetry();
    case TokenKind::KwRemove: return parse_remove();
    case TokenKind::KwMove:
      if (is_override) return parse_move(true);
      fail(t.span, "a 'move' belongs inside a phase",
           "write it inside 'phase name { ... }', or 'override move' in a variant");
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

/// param = "param" IDENT [ ":" type ] "=" expr ";" ;
Param Parser::parse_param() {
  advance();
  Param p;
  p.name = expect_name("the parameter's name after 'param'");
  if (accept(TokenKind::Colon)) p.type = parse_type();
  expect(TokenKind::Assign, fmt::format("before the value of '{}'", p.name.name));
  p.value = parse_expr();
  expect_semicolon("the declaration");
  return p;
}

// `expr "x"`, with a friendly error for `9x9` (which lexes as 9, x9).
ExprPtr Parser::parse_dimension_then_x(std::string_view what) {
  ExprPtr e = parse_expr();
  if (accept(TokenKind::KwX)) return e;
  const Token& t = peek();
  if (t.kind == TokenKind::Ident && t.text.size() > 1 && t.text[0] == 'x' &&
      t.text.find_first_not_of("0123456789", 1) == std::string_view::npos) {
    fail(t.span, fmt::format("expected 'x' after the {}, found {}", what, describe(t)),
         "put spaces around 'x', as in '9 x 9'");
  }
  fail(t.span, fmt::format("expected 'x' after the {}, found {}", what, describe(t)));
}

/// board = "board" expr "x" expr ";" ;
Board Parser::parse_board() {
  advance();
  Board b;
  b.rows = parse_dimension_then_x("number of rows");
  b.columns = parse_expr();
  expect_semicolon("the declaration");
  return b;
}

/// regions = "regions" IDENT "=" ( "blocks" expr "x" expr | "grid" gridlit ) ";" ;
Regions Parser::parse_regions() {
  advance();
  Regions r;
  r.name = expect_name("the regions' name after 'regions'");
  expect(TokenKind::Assign, fmt::format("after '{}'", r.name.name));
  if (accept(TokenKind::KwBlocks)) {
    r.block_rows = parse_dimension_then_x("rows of a block");
    r.block_columns = parse_expr();
  } else if (at(TokenKind::KwGrid)) {
    Token grid = advance();
    r.grid = parse_grid(grid);
  } else {
    fail_expected("'blocks' or 'grid'");
  }
  expect_semicolon("the declaration");
  return r;
}

/// players = "players" expr [ "named" "{" IDENT { "," IDENT } "}" ] ";" ;
Players Parser::parse_players() {
  advance();
  Players p;
  p.count = parse_expr();
  if (accept(TokenKind::KwNamed)) {
    expect(TokenKind::LBrace, "after 'named'");
    do {
      p.names.push_back(expect_name("a player's name"));
    } while (accept(TokenKind::Comma));
    expect(TokenKind::RBrace, "after the players' names");
  }
  expect_semicolon("the declaration");
  return p;
}

/// team = "team" IDENT "=" "{" IDENT { "," IDENT } "}" ";" ;
Team Parser::parse_team() {
  advance();
  Team t;
  t.name = expect_name("the team's name after 'team'");
  expect(TokenKind::Assign, fmt::format("after '{}'", t.name.name));
  expect(TokenKind::LBrace, "before the team's members");
  do {
    t.members.push_back(expect_name("a player's name"));
  } while (accept(TokenKind::Comma));
  expect(TokenKind::RBrace, "after the team's members");
  expect_semicolon("the declaration");
  return t;
}

/// typedecl = "type" IDENT "=" type ";" ;
TypeDecl Parser::parse_typedecl() {
  advance();
  TypeDecl t;
  t.name = expect_name("the type's name after 'type'");
  expect(TokenKind::Assign, fmt::format("after '{}'", t.name.name));
  t.type = parse_type();
  expect_semicolon("the declaration");
  return t;
}

/// setup    = "setup" IDENT ":" type "=" setupval ";" ;
/// setupval = expr | "random" expr "of" expr | "shuffle" expr | "file" STRING [ "entry" expr ] ;
Setup Parser::parse_setup() {
  advance();
  Setup s;
  s.name = expect_name("the setup's name after 'setup'");
  expect(TokenKind::Colon, fmt::format("after '{}' (setup values are typed)", s.name.name));
  s.type = parse_type();
  expect(TokenKind::Assign, "before the setup value");
  // `random`, `shuffle` and `file` are forms only when an operand follows them.
  auto operand_follows = [this] {
    TokenKind k = peek(1).kind;
    return at_name(1) || k == TokenKind::Int || k == TokenKind::String ||
           k == TokenKind::LParen || k == TokenKind::LBrace || k == TokenKind::LBracket ||
           k == TokenKind::KwTrue || k == TokenKind::KwFalse || k == TokenKind::KwNone;
  };
  if (at(TokenKind::KwRandom) && operand_follows()) {
    advance();
    s.source = SetupSource::Random;
    s.value = parse_expr();
    expect(TokenKind::KwOf, "after the number of random picks");
    s.from = parse_expr();
  } else if (at(TokenKind::KwShuffle) && operand_follows()) {
    advance();
    s.source = SetupSource::Shuffle;
    s.value = parse_expr();
  } else if (at(TokenKind::KwFile) && peek(1).kind == TokenKind::String) {
    advance();
    s.source = SetupSource::File;
    Token path = advance();
    s.path = path.string_value;
    s.path_span = path.span;
    if (accept(TokenKind::KwEntry)) s.entry = parse_expr();
  } else {
    s.value = parse_expr();
  }
  expect_semicolon("the declaration");
  return s;
}

/// state = "state" IDENT ":" type [ "=" expr ] ";" ;
State Parser::parse_state() {
  advance();
  State s;
  s.name = expect_name("the state's name after 'state'");
  expect(TokenKind::Colon, fmt::format("after '{}' (state is typed)", s.name.name));
  s.type = parse_type();
  if (accept(TokenKind::Assign)) s.initial = parse_expr();
  expect_semicolon("the declaration");
  return s;
}

/// init = "init" block ;
Init Parser::parse_init() {
  advance();
  Init i;
  i.body = parse_block("the 'init' block");
  return i;
}

/// params = IDENT ":" type { "," IDENT ":" type } ;
std::vector<ParamDecl> Parser::parse_params() {
  std::vector<ParamDecl> params;
  do {
    ParamDecl p;
    p.name = expect_name("a parameter name");
    expect(TokenKind::Colon, fmt::format("after the parameter '{}' (parameters are typed)",
                                         p.name.name));
    p.type = parse_type();
    params.push_back(std::move(p));
  } while (accept(TokenKind::Comma));
  return params;
}

/// define = "define" IDENT [ "(" params ")" ] [ ":" type ] "=" expr ";" ;
/// (`define f() = ...` is accepted too: `has_params` with no parameters.)
Define Parser::parse_define() {
  advance();
  Define d;
  d.name = expect_name("the definition's name after 'define'");
  if (accept(TokenKind::LParen)) {
    d.has_params = true;
    if (!at(TokenKind::RParen)) d.params = parse_params();
    expect(TokenKind::RParen, "after the parameters");
  }
  if (accept(TokenKind::Colon)) d.type = parse_type();
  expect(TokenKind::Assign, fmt::format("before the body of '{}'", d.name.name));
  d.body = parse_expr();
  expect_semicolon("the declaration");
  return d;
}

/// moveref = IDENT [ "(" IDENT { "," IDENT } ")" ] ;
MoveRef Parser::parse_moveref() {
  MoveRef m;
  m.move = expect_name("a move's name after 'on'");
  if (accept(TokenKind::LParen)) {
    m.has_args = true;
    do {
      m.args.push_back(expect_name("a name for the move's parameter"));
    } while (accept(TokenKind::Comma));
    expect(TokenKind::RParen, "after the move's parameters");
  }
  return m;
}

/// rule = "rule" IDENT [ STRING ] [ "on" moveref { "," moveref } ] ":" expr ";" ;
Rule Parser::parse_rule() {
  advance();
  Rule r;
  r.name = expect_name("the rule's name after 'rule'");
  if (at(TokenKind::String)) r.description = advance().string_value;
  if (accept(TokenKind::KwOn)) {
    do {
      r.on.push_back(parse_moveref());
    } while (accept(TokenKind::Comma));
  }
  expect(TokenKind::Colon, fmt::format("before the condition of rule '{}'", r.name.name));
  r.condition = parse_expr();
  expect_semicolon("the rule");
  return r;
}

/// phase = "phase" IDENT "{" { phaseitem } "}" ;
Phase Parser::parse_phase() {
  advance();
  Phase p;
  p.name = expect_name("the phase's name after 'phase'");
  Token open = expect(TokenKind::LBrace, fmt::format("to open phase '{}'", p.name.name));
  ++open_blocks_;
  while (!accept(TokenKind::RBrace)) {
    if (at(TokenKind::Eof) || starts_declaration()) {
      Diagnostic* d = report(peek().span, fmt::format("expected '}}' to close phase '{}', found {}",
                                                      p.name.name, describe(peek())));
      if (d) d->notes.push_back({open.span, "the phase opens here"});
      throw ParseError{};
    }
    parse_phase_item(p);
  }
  --open_blocks_;
  return p;
}

/// phaseitem = move | "when" "stuck" block | "until" expr "->" ( IDENT | "end" ) ";" ;
void Parser::parse_phase_item(Phase& phase) {
  if (at(TokenKind::KwMove)) {
    phase.moves.push_back(parse_move(false));
  } else if (at(TokenKind::KwWhen)) {
    Token when = advance();
    expect(TokenKind::KwStuck, "after 'when' in a phase");
    if (phase.has_stuck) {
      Diagnostic* d = report(from(when.span),
                             fmt::format("phase '{}' has two 'when stuck' blocks", phase.name.name));
      if (d) d->notes.push_back({phase.stuck_span, "the first one is here"});
    }
    phase.has_stuck = true;
    phase.stuck_span = when.span;
    phase.stuck = parse_block("the 'when stuck' block");
    phase.stuck_span = from(when.span);
  } else if (at(TokenKind::KwUntil)) {
    Token until = advance();
    Transition t;
    t.condition = parse_expr();
    expect(TokenKind::Arrow, "after the condition of 'until'");
    if (at(TokenKind::KwEnd)) {
      Token end = advance();
      t.target = Ident{"end", end.span};
      t.is_end = true;
    } else {
      t.target = expect_name("a phase name or 'end' after '->'");
    }
    expect_semicolon("the 'until' line");
    t.span = from(until.span);
    phase.transitions.push_back(std::move(t));
  } else {
    fail_expected(fmt::format("'move', 'when stuck', 'until' or '}}' in phase '{}'",
                              phase.name.name));
  }
}

/// move = "move" IDENT [ "(" params ")" ] { "requires" expr ";" } block ;
Move Parser::parse_move(bool is_override) {
  Token move = advance();
  Move m;
  m.is_override = is_override;
  m.name = expect_name("the move's name after 'move'");
  if (accept(TokenKind::LParen)) {
    m.params = parse_params();
    expect(TokenKind::RParen, "after the move's parameters");
  }
  while (accept(TokenKind::KwRequires)) {
    m.requires_.push_back(parse_expr());
    expect_semicolon("the 'requires' condition");
  }
  m.body = parse_block(fmt::format("the block of move '{}'", m.name.name));
  m.span = from(move.span);
  return m;
}

/// score = "score" [ "team" ] IDENT "=" expr ";" ;
Score Parser::parse_score() {
  advance();
  Score s;
  s.per_team = accept(TokenKind::KwTeam);
  s.var = expect_name(s.per_team ? "the team variable" : "the player variable after 'score'");
  expect(TokenKind::Assign, fmt::format("after '{}'", s.var.name));
  s.value = parse_expr();
  expect_semicolon("the declaration");
  return s;
}

/// winner = "winner" ( "highest" | "lowest" ) [ "team" ] ";" ;
Winner Parser::parse_winner() {
  advance();
  Winner w;
  if (accept(TokenKind::KwHighest)) {
    w.highest = true;
  } else if (accept(TokenKind::KwLowest)) {
    w.highest = false;
  } else {
    fail_expected("'highest' or 'lowest' after 'winner'");
  }
  w.per_team = accept(TokenKind::KwTeam);
  expect_semicolon("the declaration");
  return w;
}

/// endwhen = "end" "when" expr ";" ;
EndWhen Parser::parse_endwhen() {
  advance();
  expect(TokenKind::KwWhen, "after 'end' (the game ends with 'end when condition;')");
  EndWhen e;
  e.condition = parse_expr();
  expect_semicolon("the declaration");
  return e;
}

/// property = ( "prove" | "find" | "derive" | "lemma" ) IDENT [ STRING ] "over" set ":" expr ";"
///          | "bound" IDENT [ STRING ] "over" set ":" ( "max" | "min" ) expr ";"
///          | "depends" IDENT ";" | "consistent" IDENT ";" | "redundant" IDENT ":" IDENT ";" ;
Property Parser::parse_property() {
  Token word = advance();
  Property p;
  std::string_view spelled = token_spelling(word.kind);
  switch (word.kind) {
    case TokenKind::KwDepends:
      p.kind = PropertyKind::Depends;
      p.subject = expect_name("a property's name after 'depends'");
      expect_semicolon("the declaration");
      return p;
    case TokenKind::KwConsistent:
      p.kind = PropertyKind::Consistent;
      p.name = expect_name("a name after 'consistent'");
      expect_semicolon("the declaration");
      return p;
    case TokenKind::KwRedundant:
      p.kind = PropertyKind::Redundant;
      p.name = expect_name("a name after 'redundant'");
      expect(TokenKind::Colon, "before the rule to test");
      p.subject = expect_name("a rule's name");
      expect_semicolon("the declaration");
      return p;
    case TokenKind::KwProve: p.kind = PropertyKind::Prove; break;
    case TokenKind::KwFind: p.kind = PropertyKind::Find; break;
    case TokenKind::KwDerive: p.kind = PropertyKind::Derive; break;
    case TokenKind::KwLemma: p.kind = PropertyKind::Lemma; break;
    default: p.kind = PropertyKind::Bound; break;
  }
  p.name = expect_name(fmt::format("a name after '{}'", spelled));
  if (at(TokenKind::String)) p.description = advance().string_value;
  expect(TokenKind::KwOver, "(what the property ranges over: 'over boards' or 'over moves')");
  p.over = parse_property_set();
  expect(TokenKind::Colon, "before the property's expression");
  if (p.kind == PropertyKind::Bound) {
    if (accept(TokenKind::KwMax)) {
      p.maximize = true;
    } else if (accept(TokenKind::KwMin)) {
      p.maximize = false;
    } else {
      fail_expected("'max' or 'min' after 'bound ...:'");
    }
  }
  p.expr = parse_expr();
  expect_semicolon("the declaration");
  return p;
}

/// set = "boards" [ "of" IDENT ] [ "where" expr ] | "moves" [ IDENT { "," IDENT } ] [ "where" expr ] ;
PropertySet Parser::parse_property_set() {
  PropertySet s;
  Span start = peek().span;
  if (accept(TokenKind::KwBoards)) {
    if (accept(TokenKind::KwOf)) s.phase = expect_name("a phase name after 'of'");
  } else if (accept(TokenKind::KwMoves)) {
    s.moves = true;
    if (at_name()) {
      do {
        s.move_names.push_back(expect_name("a move's name"));
      } while (accept(TokenKind::Comma));
    }
  } else {
    fail_expected("'boards' or 'moves' after 'over'");
  }
  if (accept(TokenKind::KwWhere)) s.where = parse_expr();
  s.span = from(start);
  return s;
}

/// metric = "metric" IDENT [ STRING ] "=" expr ( "when" expr | "at" "end" ) ";" ;
Metric Parser::parse_metric() {
  advance();
  Metric m;
  m.name = expect_name("the metric's name after 'metric'");
  if (at(TokenKind::String)) m.description = advance().string_value;
  expect(TokenKind::Assign, fmt::format("before the value of metric '{}'", m.name.name));
  m.value = parse_expr();
  if (accept(TokenKind::KwWhen)) {
    m.when = parse_expr();
  } else if (accept(TokenKind::KwAt)) {
    expect(TokenKind::KwEnd, "after 'at'");
  } else {
    fail_expected("'when condition' or 'at end' after the metric's value");
  }
  expect_semicolon("the declaration");
  return m;
}

/// symmetry = "symmetry" IDENT ":" "swap" IDENT "<->" IDENT { "," IDENT "<->" IDENT } ";" ;
Symmetry Parser::parse_symmetry() {
  advance();
  Symmetry s;
  s.name = expect_name("the symmetry's name after 'symmetry'");
  expect(TokenKind::Colon, fmt::format("after '{}'", s.name.name));
  expect(TokenKind::KwSwap, "after ':' in a symmetry");
  do {
    Ident a = expect_name("a name to swap");
    expect(TokenKind::SwapArrow, fmt::format("after '{}'", a.name));
    Ident b = expect_name("a name to swap with");
    s.swaps.emplace_back(std::move(a), std::move(b));
  } while (accept(TokenKind::Comma));
  expect_semicolon("the declaration");
  return s;
}

/// "remove" kind IDENT ";"
/// kind = "param" | "define" | "rule" | "phase" | "move" | "property" | "metric"
///      | "team" | "state" | "setup" | "symmetry" | "regions" ;
Remove Parser::parse_remove() {
  advance();
  Remove r;
  switch (peek().kind) {
    case TokenKind::KwParam: r.what = DeclKindWord::Param; break;
    case TokenKind::KwDefine: r.what = DeclKindWord::Define; break;
    case TokenKind::KwRule: r.what = DeclKindWord::Rule; break;
    case TokenKind::KwPhase: r.what = DeclKindWord::Phase; break;
    case TokenKind::KwMove: r.what = DeclKindWord::Move; break;
    case TokenKind::KwProperty: r.what = DeclKindWord::Property; break;
    case TokenKind::KwMetric: r.what = DeclKindWord::Metric; break;
    case TokenKind::KwTeam: r.what = DeclKindWord::Team; break;
    case TokenKind::KwState: r.what = DeclKindWord::State; break;
    case TokenKind::KwSetup: r.what = DeclKindWord::Setup; break;
    case TokenKind::KwSymmetry: r.what = DeclKindWord::Symmetry; break;
    case TokenKind::KwRegions: r.what = DeclKindWord::Regions; break;
    default:
      fail_expected("what to remove after 'remove' (param, define, rule, phase, move, "
                    "property, metric, team, state, setup, symmetry or regions)");
  }
  advance();
  r.name = expect_name("the name of what to remove");
  expect_semicolon("the declaration");
  return r;
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
          fail(peek().span, fmt::format("expected ':=', '+=' or '-=' after '{}', found '('",
                                        sources_.text(s->target->span)),
               "a call is not a statement; statements assign, branch, loop or end the move");
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
