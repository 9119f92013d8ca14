// Parser: one function per declaration kind, each below the grammar rule it reads.
#include <fmt/format.h>

#include "dsl/parser_internal.h"

namespace rulebook::dsl::detail {

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
         "put spaces around 'x', as in 'rows x columns'");
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

/// namelist = "{" IDENT { "," IDENT } "}" ;   (players' names)
std::vector<Ident> Parser::parse_name_list(std::string_view open_where,
                                           std::string_view close_where) {
  std::vector<Ident> names;
  expect(TokenKind::LBrace, open_where);
  do {
    names.push_back(expect_name("a player's name"));
  } while (accept(TokenKind::Comma));
  expect(TokenKind::RBrace, close_where);
  return names;
}

/// players = "players" expr [ "named" "{" IDENT { "," IDENT } "}" ] ";" ;
Players Parser::parse_players() {
  advance();
  Players p;
  p.count = parse_expr();
  if (accept(TokenKind::KwNamed)) {
    p.names = parse_name_list("after 'named'", "after the players' names");
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
  t.members = parse_name_list("before the team's members", "after the team's members");
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

/// action = "action" IDENT "(" [ params ] ")" block ;
Action Parser::parse_action() {
  advance();
  Action a;
  a.name = expect_name("the action's name after 'action'");
  expect(TokenKind::LParen, fmt::format("after '{}' (an action lists its parameters, "
                                        "'()' for none)", a.name.name));
  if (!at(TokenKind::RParen)) a.params = parse_params();
  expect(TokenKind::RParen, "after the parameters");
  a.body = parse_block(fmt::format("the action '{}'", a.name.name));
  return a;
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
    phase.moves.push_back(parse_move(false, false));
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
/// At top level: "move" IDENT [ "(" params ")" ] "in" IDENT ... adds to a phase, and
/// "override move" takes an optional "in" IDENT.
Move Parser::parse_move(bool is_override, bool top_level) {
  Token move = advance();
  Move m;
  m.is_override = is_override;
  m.name = expect_name("the move's name after 'move'");
  if (accept(TokenKind::LParen)) {
    m.params = parse_params();
    expect(TokenKind::RParen, "after the move's parameters");
  }
  if (top_level && accept(TokenKind::KwIn)) {
    m.phase = expect_name("the phase's name after 'in'");
  } else if (top_level && !is_override) {
    fail(move.span, "a 'move' belongs inside a phase",
         "write it inside 'phase name { ... }', or 'move m(...) in PHASE ...' in a variant");
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

/// property = ( "prove" | "find" | "derive" | "lemma" | "criterion" ) IDENT [ STRING ] "over" set ":" expr ";"
///          | "invariant" IDENT [ STRING ] ":" expr ";"
///          | "puzzle" IDENT [ STRING ] ":" "solution" expr ";" { clue }
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
    case TokenKind::KwInvariant: p.kind = PropertyKind::Invariant; break;
    case TokenKind::KwPuzzle: p.kind = PropertyKind::Puzzle; break;
    case TokenKind::KwCriterion: p.kind = PropertyKind::Criterion; break;
    default: p.kind = PropertyKind::Bound; break;
  }
  p.name = expect_name(fmt::format("a name after '{}'", spelled));
  if (at(TokenKind::String)) p.description = advance().string_value;
  if (p.kind == PropertyKind::Invariant) {
    // Proved by induction over the start states and every move: no set to name.
    p.over.span = peek().span;
    expect(TokenKind::Colon, "before the invariant's expression");
    p.expr = parse_expr();
    expect_semicolon("the declaration");
    return p;
  }
  if (p.kind == PropertyKind::Puzzle) {
    parse_puzzle(p);
    return p;
  }
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

/// After `puzzle NAME ["text"]`: ":" "solution" expr ";" [ "up" "to" IDENT { "," IDENT } ";" ] { clue } ;
/// clue = "clue" IDENT [ "for" binder ] ":" expr ";" ;
/// A puzzle ranges over boards; each clue is a family, one condition per binding.
void Parser::parse_puzzle(Property& p) {
  p.over.span = peek().span;
  expect(TokenKind::Colon, "before the puzzle's 'solution'");
  expect(TokenKind::KwSolution, "(what a solution of the puzzle is: 'solution condition;')");
  p.expr = parse_expr();
  expect_semicolon("the puzzle's solution");
  // `up to board, NAME;` (both words contextual: `up` and `to` stay free as names).
  if (at(TokenKind::Ident) && peek().text == "up") {
    advance();
    if (!at(TokenKind::Ident) || peek().text != "to") fail_expected("'to' after 'up' ('up to board;')");
    advance();
    do {
      if (at(TokenKind::KwBoard)) p.up_to.push_back(Ident{"board", advance().span});
      else p.up_to.push_back(expect_name("'board' or a symmetry's name after 'up to'"));
    } while (accept(TokenKind::Comma));
    expect_semicolon("'up to'");
  }
  while (at(TokenKind::KwClue)) {
    Clue c;
    const Span start = advance().span;
    c.name = expect_name("a name after 'clue'");
    if (accept(TokenKind::KwFor)) parse_binder(c.binders, c.where);
    expect(TokenKind::Colon, "before the clue's condition");
    c.body = parse_expr();
    expect_semicolon("the clue");
    c.span = from(start);
    p.clues.push_back(std::move(c));
  }
}

/// set = ( ( "boards" | "reachable" | "play" ) [ "of" IDENT ] | [ "reachable" ] "moves" [ IDENT { "," IDENT } ] )
///       [ "with" IDENT "=" expr { "," IDENT "=" expr } ] [ "where" expr ] ;
PropertySet Parser::parse_property_set() {
  PropertySet s;
  Span start = peek().span;
  // `reachable` narrows the states (before a move) to those the proved invariants allow.
  s.reachable = accept(TokenKind::KwReachable);
  if (!s.reachable) s.play = accept(TokenKind::KwPlay);
  if ((s.reachable && !at(TokenKind::KwMoves)) || s.play || accept(TokenKind::KwBoards)) {
    if (accept(TokenKind::KwOf)) s.phase = expect_name("a phase name after 'of'");
  } else if (accept(TokenKind::KwMoves)) {
    s.moves = true;
    if (at_name()) {
      do {
        s.move_names.push_back(expect_name("a move's name"));
      } while (accept(TokenKind::Comma));
    }
  } else {
    fail_expected("'boards', 'reachable', 'play' or 'moves' after 'over'");
  }
  if (accept(TokenKind::KwWith)) {
    do {
      Ident name = expect_name("a setup value's name after 'with'");
      expect(TokenKind::Assign, fmt::format("after '{}' (with {} = entry number)", name.name, name.name));
      s.setups.emplace_back(std::move(name), parse_expr());
    } while (accept(TokenKind::Comma));
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

/// allow = "allow" CODE [ IDENT ] STRING ";" ;   CODE = IDENT { "-" IDENT } (no spaces)
Allow Parser::parse_allow() {
  advance();
  Allow a;
  a.code = expect_name("the alert's code after 'allow' (e.g. dead-move)");
  // The words after a hyphen may be reserved ones (`dead-move`, `never-ends`).
  while (at(TokenKind::Minus) && peek().span.begin == a.code.span.end && peek(1).span.begin == peek().span.end &&
         (peek(1).kind == TokenKind::Ident || keyword_role(peek(1).kind) != KeywordRole::NotKeyword)) {
    advance();
    const Token more = advance();
    a.code.name += '-';
    a.code.name += more.text;
    a.code.span.end = more.span.end;
  }
  if (at_name()) a.subject = expect_name("what the alert names");
  a.reason = expect(TokenKind::String, "giving the reason the alert is acknowledged").string_value;
  expect_semicolon("the declaration");
  return a;
}

/// "remove" kind IDENT [ "from" IDENT ] ";"   (from: moves only)
/// kind = "param" | "define" | "rule" | "phase" | "move" | "property" | "metric"
///      | "team" | "state" | "setup" | "symmetry" | "regions" | "action" ;
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
    case TokenKind::KwAction: r.what = DeclKindWord::Action; break;
    default:
      fail_expected("what to remove after 'remove' (param, define, rule, phase, move, "
                    "property, metric, team, state, setup, symmetry, regions or action)");
  }
  advance();
  r.name = expect_name("the name of what to remove");
  // `from` is a word only here: moves often name a parameter `from`.
  if (r.what == DeclKindWord::Move && at(TokenKind::Ident) && peek().text == "from") {
    advance();
    r.phase = expect_name("the phase's name after 'from'");
  }
  expect_semicolon("the declaration");
  return r;
}

}  // namespace rulebook::dsl::detail
