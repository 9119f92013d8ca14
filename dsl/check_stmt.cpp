// The checker's statement pass and the constant evaluator of checked expressions.
#include <fmt/format.h>

#include "dsl/check_internal.h"
#include "dsl/integers.h"

namespace rulebook::dsl {

namespace {

std::string_view statement_word(StmtKind k) {
  switch (k) {
    case StmtKind::Again: return "again";
    case StmtKind::Eliminate: return "eliminate";
    case StmtKind::Goto: return "goto";
    default: return "end";
  }
}

}  // namespace

// ------------------------------------------------------------------ statements

void Checker::check_block(const Block& block) {
  push_scope();
  for (const StmtPtr& s : block) check_stmt(*s);
  pop_scope();
}

void Checker::check_assign(const Stmt& s) {
  const Expr* root = s.target.get();
  while (root->kind == ExprKind::Index || root->kind == ExprKind::Field) root = root->args[0].get();
  if (root->kind != ExprKind::Name) {
    error(s.target->span, "only state can be assigned");
    check(*s.value);
    return;
  }
  const Symbol* sym = lookup(root->ident.name);
  if (!sym) {
    unknown_name(root->ident.name, root->ident.span);
    check(*s.value);
    return;
  }
  if (sym->kind != NameKind::State) {
    error(root->span, fmt::format("'{}' is not state; only 'state' declarations can be assigned",
                                  root->ident.name));
    check(*s.value);
    return;
  }
  TypeRef t = check(*s.target);
  if (s.assign == AssignOp::Set) {
    expect(*s.value, t);
  } else if (is_error(t) || is_int(t)) {
    expect(*s.value, int_type());
  } else if (t->is(TypeTag::Set)) {
    expect(*s.value, t);
  } else {
    error(s.target->span, fmt::format("'{}' needs an int or a set, found {}",
                                      s.assign == AssignOp::Add ? "+=" : "-=", to_string(t)));
    check(*s.value);
  }
}

void Checker::check_stmt(const Stmt& s) {
  switch (s.kind) {
    case StmtKind::Assign:
      check_assign(s);
      return;
    case StmtKind::If:
      expect_bool(*s.value);
      check_block(s.body);
      if (s.has_else) check_block(s.otherwise);
      return;
    case StmtKind::For:
      push_scope();
      bind(s.binders, s.where);
      check_block(s.body);
      pop_scope();
      return;
    case StmtKind::Let: {
      Symbol sym;
      sym.name = s.name.name;
      sym.kind = NameKind::Let;
      sym.type = check(*s.value);
      sym.span = s.name.span;
      sym.let = &s;
      declare_local(std::move(sym));
      return;
    }
    case StmtKind::End:
      return;
    case StmtKind::Call:
      check_call_stmt(s);
      return;
    case StmtKind::Again:
    case StmtKind::Eliminate:
    case StmtKind::Goto:
      break;
  }
  note_play_statement(s);
  if (!ctx_.play_statements) {
    error(s.span, fmt::format("'{}' can only be used in a move or a 'when stuck' block",
                              statement_word(s.kind)));
  }
  if (s.kind == StmtKind::Eliminate) expect(*s.value, player_type());
  if (s.kind == StmtKind::Goto && !game_.phase(s.name.name))
    unknown("phase", s.name.name, s.name.span, phase_names());
}

// ------------------------------------------------------------------ constants

namespace {

// The size of a built-in set whose size the board and players fix (`size(cells)`).
std::optional<int64_t> constant_size(const Game& game, const Expr& e) {
  const Symbol* s = e.kind == ExprKind::Name ? game.referent(e) : nullptr;
  if (!s) return std::nullopt;
  if (s->kind == NameKind::Builtin && s->builtin->id == BuiltinId::Players)
    return game.player_count();
  if (s->kind == NameKind::Builtin && s->builtin->id == BuiltinId::Teams)
    return static_cast<int64_t>(game.teams.size());
  if (!game.rows || !game.columns) return std::nullopt;
  const int64_t h = *game.rows, w = *game.columns;
  if (s->kind == NameKind::Region && s->index >= 0 && size_t(s->index) < game.regions.size() &&
      game.regions[size_t(s->index)].count > 0)
    return game.regions[size_t(s->index)].count;
  if (s->kind != NameKind::Builtin) return std::nullopt;
  switch (s->builtin->id) {
    case BuiltinId::Cells: return h * w;
    case BuiltinId::Rows: return h;
    case BuiltinId::Columns: return w;
    case BuiltinId::Lines: return h + w;
    case BuiltinId::Points: return (h + 1) * (w + 1);
    case BuiltinId::InnerPoints: return (h - 1) * (w - 1);
    default: return std::nullopt;
  }
}

/// The checked arithmetic of a binary operator of the rules: nullptr, or the error.
const char* arith(Op op, int64_t a, int64_t b, int64_t& out) {
  switch (op) {
    case Op::Add: return integers::add(a, b, out);
    case Op::Sub: return integers::sub(a, b, out);
    case Op::Mul: return integers::mul(a, b, out);
    case Op::Div: return integers::div(a, b, out);
    default: return integers::mod(a, b, out);
  }
}

}  // namespace

std::optional<int64_t> evaluate(const Game& game, const Expr& e,
                                const std::function<std::optional<int64_t>(const Symbol&)>& param) {
  auto sub = [&](size_t i) { return evaluate(game, *e.args[i], param); };
  switch (e.kind) {
    case ExprKind::Int:
    case ExprKind::Bool:
      return e.value;
    case ExprKind::Name: {
      const Symbol* s = game.referent(e);
      if (!s) return std::nullopt;
      if (s->kind == NameKind::Param) return param(*s);
      if (s->kind == NameKind::Builtin && s->builtin->id == BuiltinId::Width) return game.columns;
      if (s->kind == NameKind::Builtin && s->builtin->id == BuiltinId::Height) return game.rows;
      return std::nullopt;
    }
    case ExprKind::Unary: {
      auto a = sub(0);
      if (!a) return std::nullopt;
      if (e.op == Op::Not) return int64_t(!*a);
      int64_t r;
      if (integers::neg(*a, r)) return std::nullopt;  // reported by Checker::check_arith
      return r;
    }
    case ExprKind::If: {
      auto c = sub(0);
      if (!c) return std::nullopt;
      return *c ? sub(1) : sub(2);
    }
    case ExprKind::Call: {
      const Symbol* s = game.referent(*e.args[0]);
      if (!s || s->kind != NameKind::Builtin) return std::nullopt;
      if (s->builtin->id == BuiltinId::Size && e.args.size() == 2)
        return constant_size(game, *e.args[1]);
      std::vector<int64_t> args;
      for (size_t i = 1; i < e.args.size(); ++i) {
        auto v = sub(i);
        if (!v) return std::nullopt;
        args.push_back(*v);
      }
      switch (s->builtin->id) {
        case BuiltinId::Abs: {
          int64_t r;
          if (args.size() == 1 && !integers::abs(args[0], r)) return r;
          break;
        }
        case BuiltinId::Min:
          if (args.size() == 2) return std::min(args[0], args[1]);
          break;
        case BuiltinId::Max:
          if (args.size() == 2) return std::max(args[0], args[1]);
          break;
        default:
          break;
      }
      return std::nullopt;
    }
    case ExprKind::Binary: {
      if (e.op == Op::And || e.op == Op::Or) {
        auto a = sub(0);
        if (!a) return std::nullopt;
        if (e.op == Op::And && !*a) return 0;
        if (e.op == Op::Or && *a) return 1;
        auto b = sub(1);
        if (!b) return std::nullopt;
        return int64_t(*b != 0);
      }
      auto a = sub(0), b = sub(1);
      if (!a || !b) return std::nullopt;
      switch (e.op) {
        case Op::Eq: return int64_t(*a == *b);
        case Op::Ne: return int64_t(*a != *b);
        case Op::Lt: return int64_t(*a < *b);
        case Op::Le: return int64_t(*a <= *b);
        case Op::Gt: return int64_t(*a > *b);
        case Op::Ge: return int64_t(*a >= *b);
        case Op::Add: case Op::Sub: case Op::Mul: case Op::Div: case Op::Mod: {
          // An operation that fails has no value (Checker::check_arith reports it).
          int64_t r;
          return arith(e.op, *a, *b, r) ? std::nullopt : std::optional<int64_t>(r);
        }
        default: return std::nullopt;
      }
    }
    default:
      return std::nullopt;
  }
}

std::optional<int64_t> Checker::eval(const Expr& e) {
  return evaluate(game_, e, [&](const Symbol& s) -> std::optional<int64_t> {
    ensure_param(const_cast<Symbol&>(s), e.span);
    return s.value;
  });
}

bool Checker::is_arith(const Expr& e) const {
  if (e.kind == ExprKind::Binary)
    return e.op == Op::Add || e.op == Op::Sub || e.op == Op::Mul || e.op == Op::Div || e.op == Op::Mod;
  if (e.kind == ExprKind::Unary) return e.op == Op::Neg;
  if (e.kind != ExprKind::Call || e.args.size() != 2) return false;
  const Symbol* s = game_.referent(*e.args[0]);
  return s && s->kind == NameKind::Builtin && s->builtin->id == BuiltinId::Abs;
}

void Checker::check_arith(const Expr& e) {
  // Each operation is checked once its operands are: an operand that failed has no value,
  // so one bad operation is reported once, at its own span, not again by the enclosing
  // ones. The values of the operations checked are kept, so that a long chain of them is
  // not evaluated again at every step.
  if (!is_arith(e)) return;
  auto operand = [&](const Expr& x) -> std::optional<int64_t> {
    if (!is_arith(x)) return eval(x);
    auto it = arith_values_.find(&x);
    if (it == arith_values_.end()) return std::nullopt;
    return it->second;
  };
  const bool unary = e.kind == ExprKind::Unary || e.kind == ExprKind::Call;
  auto a = operand(*e.args[unary && e.kind == ExprKind::Call ? 1 : 0]);
  if (!a) return;
  std::optional<int64_t> b;
  if (!unary && !(b = operand(*e.args[1]))) return;
  int64_t r = 0;
  const char* failure = e.kind == ExprKind::Binary ? arith(e.op, *a, *b, r)
                        : e.kind == ExprKind::Unary ? integers::neg(*a, r)
                                                     : integers::abs(*a, r);
  if (failure) {
    error(e.span, failure);
    return;
  }
  arith_values_[&e] = r;
}

std::optional<int64_t> Checker::constant_int(const Expr& e, const char* what) {
  size_t before = diags_->error_count();
  TypeRef t = expect(e, int_type());
  if (is_error(t) || diags_->error_count() != before) return std::nullopt;
  auto v = eval(e);
  if (!v) error(e.span, fmt::format("{} must be a compile-time constant", what));
  return v;
}

}  // namespace rulebook::dsl
