// Parser: expressions and types, by precedence climbing one grammar level per function.
#include <fmt/format.h>

#include "dsl/parser_internal.h"

namespace rulebook::dsl::detail {

ExprPtr Parser::make(ExprKind kind, Span span) {
  auto e = std::make_unique<Expr>();
  e->kind = kind;
  e->span = span;
  return e;
}

ExprPtr Parser::binary(Op op, ExprPtr lhs, ExprPtr rhs) {
  ExprPtr e = make(ExprKind::Binary, Span{file_, lhs->span.begin, rhs->span.end});
  e->op = op;
  e->args.reserve(2);
  e->args.push_back(std::move(lhs));
  e->args.push_back(std::move(rhs));
  return e;
}

/// expr = quant | ifexpr | or ;
ExprPtr Parser::parse_expr() {
  enter(peek().span);
  ExprPtr e;
  switch (peek().kind) {
    case TokenKind::KwAll:
    case TokenKind::KwSome:
    case TokenKind::KwNo: e = parse_quant(); break;
    case TokenKind::KwIf: e = parse_if_expr(); break;
    default: e = parse_or(); break;
  }
  --depth_;
  return e;
}

/// quant = ( "all" | "some" | "no" ) binder ":" expr ;
ExprPtr Parser::parse_quant() {
  Token word = advance();
  ExprPtr e = make(ExprKind::Quant, word.span);
  e->quant = word.kind == TokenKind::KwAll    ? Quantifier::All
             : word.kind == TokenKind::KwSome ? Quantifier::Some
                                              : Quantifier::No;
  parse_binder(e->binders, e->where);
  expect(TokenKind::Colon, fmt::format("before the condition of {}", token_kind_name(word.kind)));
  e->args.push_back(parse_expr());
  e->span = from(word.span);
  return e;
}

/// binder = IDENT "in" expr { "," IDENT "in" expr } [ "where" expr ] ;
/// A `,` continues the binder only when `IDENT in` follows, so `f(count x in S, y)` works.
void Parser::parse_binder(std::vector<Binding>& binders, ExprPtr& where) {
  while (true) {
    Binding b;
    b.var = expect_name("a variable name");
    expect(TokenKind::KwIn, fmt::format("after the variable '{}'", b.var.name));
    b.domain = parse_expr();
    binders.push_back(std::move(b));
    if (!(at(TokenKind::Comma) && at_name(1) && peek(2).kind == TokenKind::KwIn)) break;
    advance();
  }
  if (accept(TokenKind::KwWhere)) where = parse_expr();
}

/// comprehension = "[" expr "for" binder "]" | "{" expr "for" binder "}" ;
/// Called at `for`, with the element already parsed into e.args[0]; e starts at the bracket.
void Parser::parse_comprehension(Expr& e, std::string_view what) {
  const bool set = e.kind == ExprKind::SetLit;
  advance();  // for
  e.kind = ExprKind::Comprehension;
  e.value = set ? 1 : 0;
  parse_binder(e.binders, e.where);
  expect(set ? TokenKind::RBrace : TokenKind::RBracket, fmt::format("to close {}", what));
  e.span = from(e.span);
}

/// ifexpr = "if" expr "then" expr "else" expr ;
ExprPtr Parser::parse_if_expr() {
  Token word = advance();
  ExprPtr e = make(ExprKind::If, word.span);
  e->args.push_back(parse_expr());
  if (at(TokenKind::LBrace)) {
    fail(peek().span, "expected 'then' after the condition, found '{'",
         "'if ... {' is a statement; inside an expression write 'if c then a else b'");
  }
  expect(TokenKind::KwThen, "after the condition");
  e->args.push_back(parse_expr());
  expect(TokenKind::KwElse, "(an 'if' expression needs both branches)");
  e->args.push_back(parse_expr());
  e->span = from(word.span);
  return e;
}

/// or = and { "or" and } ;
ExprPtr Parser::parse_or() { return parse_or_rest(parse_and()); }

// Each operator of a chain deepens the (left-leaning) tree by one level, so chains count
// against kMaxDepth like nesting does.
ExprPtr Parser::parse_or_rest(ExprPtr lhs) {
  int chain = 0;
  while (at(TokenKind::KwOr)) {
    enter(advance().span);
    ++chain;
    lhs = binary(Op::Or, std::move(lhs), parse_and());
  }
  depth_ -= chain;
  return lhs;
}

/// and = not { "and" not } ;
ExprPtr Parser::parse_and() { return parse_and_rest(parse_not()); }

ExprPtr Parser::parse_and_rest(ExprPtr lhs) {
  int chain = 0;
  while (at(TokenKind::KwAnd)) {
    enter(advance().span);
    ++chain;
    lhs = binary(Op::And, std::move(lhs), parse_not());
  }
  depth_ -= chain;
  return lhs;
}

/// not = "not" not | cmp ;
ExprPtr Parser::parse_not() {
  if (!at(TokenKind::KwNot)) return parse_cmp();
  Token word = advance();
  enter(word.span);
  ExprPtr e = make(ExprKind::Unary, word.span);
  e->op = Op::Not;
  e->args.push_back(parse_not());
  e->span = from(word.span);
  --depth_;
  return e;
}

/// cmp = range [ ( "==" | "!=" | "<" | "<=" | ">" | ">=" | "in" | "not" "in" ) range ] ;
ExprPtr Parser::parse_cmp() {
  ExprPtr lhs = parse_range();
  Op op;
  switch (peek().kind) {
    case TokenKind::EqEq: op = Op::Eq; break;
    case TokenKind::NotEq: op = Op::Ne; break;
    case TokenKind::Less: op = Op::Lt; break;
    case TokenKind::LessEq: op = Op::Le; break;
    case TokenKind::Greater: op = Op::Gt; break;
    case TokenKind::GreaterEq: op = Op::Ge; break;
    case TokenKind::KwIn: op = Op::In; break;
    case TokenKind::KwNot:
      if (peek(1).kind != TokenKind::KwIn) return lhs;
      advance();
      op = Op::NotIn;
      break;
    case TokenKind::Assign:
      // Recovered as `==` so the rest of the declaration is still checked.
      report(peek().span, "'=' is not a comparison", "use '==' to compare");
      op = Op::Eq;
      break;
    default: return lhs;
  }
  advance();
  return binary(op, std::move(lhs), parse_range());
}

/// range = add [ ".." add ] ;
ExprPtr Parser::parse_range() {
  ExprPtr lhs = parse_add();
  if (!accept(TokenKind::DotDot)) return lhs;
  return binary(Op::Range, std::move(lhs), parse_add());
}

/// add = mul { ( "+" | "-" ) mul } ;
ExprPtr Parser::parse_add() {
  ExprPtr lhs = parse_mul();
  int chain = 0;
  while (at(TokenKind::Plus) || at(TokenKind::Minus)) {
    Token t = advance();
    enter(t.span);
    ++chain;
    lhs = binary(t.kind == TokenKind::Plus ? Op::Add : Op::Sub, std::move(lhs), parse_mul());
  }
  depth_ -= chain;
  return lhs;
}

/// mul = unary { ( "*" | "/" | "%" | "&" ) unary } ;
ExprPtr Parser::parse_mul() {
  ExprPtr lhs = parse_unary();
  int chain = 0;
  while (true) {
    Op op;
    switch (peek().kind) {
      case TokenKind::Star: op = Op::Mul; break;
      case TokenKind::Slash: op = Op::Div; break;
      case TokenKind::Percent: op = Op::Mod; break;
      case TokenKind::Amp: op = Op::Inter; break;
      default: depth_ -= chain; return lhs;
    }
    enter(advance().span);
    ++chain;
    lhs = binary(op, std::move(lhs), parse_unary());
  }
}

/// unary = "-" unary | postfix ;
ExprPtr Parser::parse_unary() {
  if (!at(TokenKind::Minus)) return parse_postfix();
  Token minus = advance();
  enter(minus.span);
  ExprPtr e = make(ExprKind::Unary, minus.span);
  e->op = Op::Neg;
  e->args.push_back(parse_unary());
  e->span = from(minus.span);
  --depth_;
  return e;
}

/// postfix = primary { "(" [ args ] ")" | "[" expr "]" | "." IDENT } ;
/// args    = expr { "," expr } ;
ExprPtr Parser::parse_postfix() {
  ExprPtr e = parse_primary();
  int chain = 0;
  while (true) {
    Span start = e->span;
    if (at(TokenKind::LParen)) {
      enter(advance().span);
      ExprPtr call = make(ExprKind::Call, start);
      call->args.push_back(std::move(e));
      if (!at(TokenKind::RParen)) {
        do {
          call->args.push_back(parse_expr());
        } while (accept(TokenKind::Comma));
      }
      expect(TokenKind::RParen, "to close the arguments");
      e = std::move(call);
    } else if (at(TokenKind::LBracket)) {
      enter(advance().span);
      ExprPtr index = make(ExprKind::Index, start);
      index->args.reserve(2);
      index->args.push_back(std::move(e));
      index->args.push_back(parse_expr());
      expect(TokenKind::RBracket, "to close '['");
      e = std::move(index);
    } else if (at(TokenKind::Dot)) {
      enter(advance().span);
      ExprPtr field = make(ExprKind::Field, start);
      field->ident = expect_name("a field name after '.'");
      field->args.push_back(std::move(e));
      e = std::move(field);
    } else {
      depth_ -= chain;
      return e;
    }
    ++chain;
    e->span = from(start);
  }
}

/// primary = INT | STRING | "true" | "false" | "none" | IDENT | "(" expr ")" | agg
///         | "{" ... "}" | "[" [ expr { "," expr } ] "]" | "grid" gridlit ;
ExprPtr Parser::parse_primary() {
  const Token& t = peek();
  switch (t.kind) {
    case TokenKind::Int: {
      ExprPtr e = make(ExprKind::Int, t.span);
      e->value = t.int_value;
      advance();
      return e;
    }
    case TokenKind::String: {
      ExprPtr e = make(ExprKind::String, t.span);
      e->text = t.string_value;
      advance();
      return e;
    }
    case TokenKind::KwTrue:
    case TokenKind::KwFalse: {
      ExprPtr e = make(ExprKind::Bool, t.span);
      e->value = t.kind == TokenKind::KwTrue;
      advance();
      return e;
    }
    case TokenKind::KwNone: {
      ExprPtr e = make(ExprKind::None, t.span);
      advance();
      return e;
    }
    case TokenKind::LParen: {
      Token open = advance();
      ExprPtr e = parse_expr();
      if (!at(TokenKind::RParen)) {
        Diagnostic* d = report(peek().span, fmt::format("expected ')' to close '(', found {}",
                                                        describe(peek())));
        if (d) d->notes.push_back({open.span, "the '(' is here"});
        throw ParseError{};
      }
      advance();
      e->span = from(open.span);
      return e;
    }
    case TokenKind::LBrace: return parse_braces();
    case TokenKind::LBracket: {
      Token open = advance();
      ExprPtr e = make(ExprKind::SeqLit, open.span);
      if (!at(TokenKind::RBracket)) {
        e->args.push_back(parse_expr());
        if (at(TokenKind::KwFor)) {
          parse_comprehension(*e, "the sequence");
          return e;
        }
        while (accept(TokenKind::Comma)) e->args.push_back(parse_expr());
      }
      expect(TokenKind::RBracket, "to close the sequence");
      e->span = from(open.span);
      return e;
    }
    case TokenKind::KwCount:
    case TokenKind::KwSum:
    case TokenKind::KwMax:
    case TokenKind::KwMin:
      // `max x in S: e` is an aggregate; `max(a, b)` and a plain `max` are names.
      if (at_name(1) && peek(2).kind == TokenKind::KwIn) return parse_aggregate();
      break;
    case TokenKind::KwGrid:
      if (peek(1).kind == TokenKind::LBrace) {
        Token word = advance();
        return parse_grid(word);
      }
      break;
    default: break;
  }
  if (at_name()) {
    Token name = advance();
    ExprPtr e = make(ExprKind::Name, name.span);
    e->ident = Ident{std::string(name.text), name.span};
    return e;
  }
  if (t.kind == TokenKind::KwAll || t.kind == TokenKind::KwSome || t.kind == TokenKind::KwNo ||
      t.kind == TokenKind::KwIf) {
    fail(t.span, fmt::format("expected an expression, found {}", describe(t)),
         fmt::format("as an operand, {} ... goes in parentheses", token_kind_name(t.kind)));
  }
  fail_expected("an expression");
}

/// agg = "count" binder | ( "sum" | "max" | "min" ) binder ":" expr ;
ExprPtr Parser::parse_aggregate() {
  Token word = advance();
  ExprPtr e = make(ExprKind::Aggregate, word.span);
  switch (word.kind) {
    case TokenKind::KwCount: e->agg = AggregateKind::Count; break;
    case TokenKind::KwSum: e->agg = AggregateKind::Sum; break;
    case TokenKind::KwMax: e->agg = AggregateKind::Max; break;
    default: e->agg = AggregateKind::Min; break;
  }
  parse_binder(e->binders, e->where);
  if (e->agg != AggregateKind::Count) {
    expect(TokenKind::Colon, fmt::format("before the value of {}", token_kind_name(word.kind)));
    e->args.push_back(parse_expr());
  }
  e->span = from(word.span);
  return e;
}

/// "{" [ expr { "," expr } ] "}"                     (* set literal *)
/// "{" IDENT "in" expr "|" expr "}"                  (* set filter *)
/// "{" IDENT ":" expr { "," IDENT ":" expr } "}"     (* record literal *)
/// `{x in D` is a filter when `|` follows the domain D; otherwise it was the start of a set
/// whose first element begins with the test `x in ...` (see regroup_membership).
ExprPtr Parser::parse_braces() {
  Token open = advance();
  if (at_name() && peek(1).kind == TokenKind::Colon) {
    ExprPtr e = make(ExprKind::RecordLit, open.span);
    do {
      e->fields.push_back(expect_name("a field name"));
      expect(TokenKind::Colon, fmt::format("after the field '{}'", e->fields.back().name));
      e->args.push_back(parse_expr());
    } while (accept(TokenKind::Comma));
    expect(TokenKind::RBrace, "to close the record");
    e->span = from(open.span);
    return e;
  }
  ExprPtr e = make(ExprKind::SetLit, open.span);
  if (accept(TokenKind::RBrace)) {
    e->span = from(open.span);
    return e;
  }
  if (at_name() && peek(1).kind == TokenKind::KwIn) {
    Binding b;
    b.var = expect_name("a variable name");
    advance();  // in
    b.domain = parse_expr();
    if (accept(TokenKind::Pipe)) {
      e->kind = ExprKind::SetFilter;
      e->args.push_back(parse_expr());
      e->binders.push_back(std::move(b));
      expect(TokenKind::RBrace, "to close the set filter");
      e->span = from(open.span);
      return e;
    }
    e->args.push_back(regroup_membership(std::move(b)));
    if (accept(TokenKind::Comma)) {
      do {
        e->args.push_back(parse_expr());
      } while (accept(TokenKind::Comma));
    }
  } else {
    e->args.push_back(parse_expr());
    if (at(TokenKind::KwFor)) {
      parse_comprehension(*e, "the set");
      return e;
    }
    while (accept(TokenKind::Comma)) e->args.push_back(parse_expr());
  }
  expect(TokenKind::RBrace, "to close the set");
  e->span = from(open.span);
  return e;
}

// `x in D` read as an expression, given D parsed as a whole expression: `in` binds tighter
// than `and`/`or`, so it takes the leftmost operand of D's and/or spine; an operand that
// `in` cannot take (a comparison, `not`, a quantifier) means D was meant as a filter's
// domain and the `|` is missing.
ExprPtr Parser::regroup_membership(Binding b) {
  ExprPtr var = make(ExprKind::Name, b.var.span);
  var->ident = b.var;
  ExprPtr* leaf = &b.domain;
  std::vector<Expr*> spine;
  while ((*leaf)->kind == ExprKind::Binary && ((*leaf)->op == Op::And || (*leaf)->op == Op::Or)) {
    spine.push_back(leaf->get());
    leaf = &(*leaf)->args[0];
  }
  const Expr& operand = **leaf;
  bool takes = !(operand.kind == ExprKind::Quant || operand.kind == ExprKind::If ||
                 (operand.kind == ExprKind::Unary && operand.op == Op::Not) ||
                 (operand.kind == ExprKind::Binary && operand.op != Op::Range &&
                  operand.op != Op::Add && operand.op != Op::Sub && operand.op != Op::Mul &&
                  operand.op != Op::Div && operand.op != Op::Mod && operand.op != Op::Inter));
  if (!takes) fail_expected("'|' after the domain of the set filter");
  *leaf = binary(Op::In, std::move(var), std::move(*leaf));
  for (Expr* node : spine) node->span.begin = b.var.span.begin;
  return std::move(b.domain);
}

/// gridlit = "{" STRING { STRING } "}" [ "with" "{" gridkey { "," gridkey } "}" ] ;
/// gridkey = ( IDENT | STRING | INT ) "=" expr ;
ExprPtr Parser::parse_grid(const Token& grid_word) {
  ExprPtr e = make(ExprKind::Grid, grid_word.span);
  expect(TokenKind::LBrace, "after 'grid'");
  do {
    Token row = expect(TokenKind::String, "(one string per row of the grid)");
    e->grid.rows.push_back(row.string_value);
    e->grid.row_spans.push_back(row.span);
  } while (at(TokenKind::String));
  expect(TokenKind::RBrace, "after the last row of the grid");
  if (at(TokenKind::KwWith) && peek(1).kind == TokenKind::LBrace) {
    advance();
    advance();
    do {
      GridKey key;
      const Token& t = peek();
      if (t.kind == TokenKind::String) {
        key.key = t.string_value;
      } else if (t.kind == TokenKind::Int || at_name()) {
        key.key = std::string(t.text);
      } else {
        fail_expected("a grid key (a letter, a string or a digit)");
      }
      key.span = advance().span;
      expect(TokenKind::Assign, fmt::format("after the grid key '{}'", key.key));
      key.value = parse_expr();
      e->grid.keys.push_back(std::move(key));
    } while (accept(TokenKind::Comma));
    expect(TokenKind::RBrace, "to close the 'with' table");
  }
  e->span = from(grid_word.span);
  return e;
}

// ---------------------------------------------------------------- types

/// type = "bool" | "int" | expr ".." expr | "{" IDENT { "," IDENT } "}"
///      | "{" IDENT ":" type { "," IDENT ":" type } "}"
///      | IDENT | type "?" | "set" "of" type | "seq" "of" type | type "->" type ;
/// `->` is right-associative; `set of` / `seq of` take everything after them.
TypePtr Parser::parse_type() {
  Span start = peek().span;
  enter(start);
  TypePtr t = parse_type_operand();
  if (accept(TokenKind::Arrow)) {
    auto map = std::make_unique<TypeExpr>();
    map->kind = TypeKind::Map;
    map->elems.push_back(std::move(t));
    map->elems.push_back(parse_type());
    map->span = from(start);
    t = std::move(map);
  }
  --depth_;
  return t;
}

TypePtr Parser::parse_type_operand() {
  Span start = peek().span;
  auto t = std::make_unique<TypeExpr>();
  t->span = start;
  const Token& tok = peek();
  if (tok.kind == TokenKind::KwBool || tok.kind == TokenKind::KwInt) {
    t->kind = tok.kind == TokenKind::KwBool ? TypeKind::Bool : TypeKind::Int;
    advance();
  } else if ((tok.kind == TokenKind::KwSet || tok.kind == TokenKind::KwSeq) &&
             peek(1).kind == TokenKind::KwOf) {
    t->kind = tok.kind == TokenKind::KwSet ? TypeKind::Set : TypeKind::Seq;
    advance();
    advance();
    t->elems.push_back(parse_type());
    t->span = from(start);
    return t;
  } else if (tok.kind == TokenKind::LBrace) {
    advance();
    t->kind = at_name() && peek(1).kind == TokenKind::Colon ? TypeKind::Record : TypeKind::Enum;
    do {
      t->members.push_back(expect_name(t->kind == TypeKind::Record ? "a field name"
                                                                    : "an enumeration value"));
      if (t->kind == TypeKind::Record) {
        expect(TokenKind::Colon, fmt::format("after the field '{}'", t->members.back().name));
        t->elems.push_back(parse_type());
      }
    } while (accept(TokenKind::Comma));
    expect(TokenKind::RBrace, t->kind == TypeKind::Record ? "to close the record type"
                                                          : "to close the enumeration");
  } else if (at_name() || tok.kind == TokenKind::Int || tok.kind == TokenKind::LParen ||
             tok.kind == TokenKind::Minus) {
    // A range `lo .. hi` or a type name: both start like an expression.
    ExprPtr lo = parse_add();
    if (accept(TokenKind::DotDot)) {
      t->kind = TypeKind::Range;
      t->lo = std::move(lo);
      t->hi = parse_add();
    } else if (lo->kind == ExprKind::Name) {
      t->kind = TypeKind::Named;
      t->name = lo->ident;
    } else {
      fail(lo->span, "expected a type, found an expression",
           "an integer type is a range, as in '0..9'");
    }
  } else {
    fail_expected("a type");
  }
  t->span = from(start);
  while (at(TokenKind::Question)) {
    advance();
    auto opt = std::make_unique<TypeExpr>();
    opt->kind = TypeKind::Optional;
    opt->elems.push_back(std::move(t));
    opt->span = from(start);
    t = std::move(opt);
  }
  return t;
}

}  // namespace rulebook::dsl::detail
