// The checker's pass over the means of reuse: actions and their calls, comprehensions.
#include <fmt/format.h>

#include "dsl/check_internal.h"

namespace rulebook::dsl {

namespace {

// Comprehensions are written out in full; a bigger one is a mistake, not a deck.
constexpr size_t kMaxComprehension = 10000;

std::string_view play_word(StmtKind k) {
  switch (k) {
    case StmtKind::Again: return "again";
    case StmtKind::Eliminate: return "eliminate";
    default: return "goto";
  }
}

/// A copy of `e` with each free use of `name` replaced by a copy of `value` (spans kept:
/// a message about the copy points at what the designer wrote).
ExprPtr substitute(const Expr& e, const std::string& name, const Expr& value) {
  if (e.kind == ExprKind::Name && e.ident.name == name) {
    ExprPtr v = clone(value);
    v->span = e.span;
    return v;
  }
  bool rebinds = false;
  for (const Binding& b : e.binders) rebinds = rebinds || b.var.name == name;
  ExprPtr c = clone(e);
  if (rebinds) {
    // Only the domains still see the outer name.
    for (size_t i = 0; i < e.binders.size(); ++i)
      if (e.binders[i].domain) c->binders[i].domain = substitute(*e.binders[i].domain, name, value);
    return c;
  }
  for (size_t i = 0; i < e.args.size(); ++i)
    if (e.args[i]) c->args[i] = substitute(*e.args[i], name, value);
  for (size_t i = 0; i < e.binders.size(); ++i)
    if (e.binders[i].domain) c->binders[i].domain = substitute(*e.binders[i].domain, name, value);
  if (e.where) c->where = substitute(*e.where, name, value);
  for (size_t i = 0; i < e.grid.keys.size(); ++i)
    if (e.grid.keys[i].value) c->grid.keys[i].value = substitute(*e.grid.keys[i].value, name, value);
  return c;
}

ExprPtr int_literal(int64_t v, Span span) {
  auto e = std::make_unique<Expr>();
  e->kind = ExprKind::Int;
  e->value = v;
  e->span = span;
  return e;
}

}  // namespace

// ------------------------------------------------------------------ actions

std::vector<std::string> Checker::action_names() const {
  std::vector<std::string> names;
  for (const Action* a : game_.actions) names.push_back(a->name.name);
  return names;
}

void Checker::ensure_action(Symbol& s, Span use) {
  ActionInfo& info = actions_[&s];
  if (info.state == 2) return;
  if (info.state == 1) {
    auto& d = error(use, fmt::format("action '{}' calls itself", s.name));
    d.notes.push_back({s.span, fmt::format("'{}' is declared here", s.name)});
    d.hint = "an action is copied where it is called, so it cannot recur; repeat with a "
             "'for' loop instead";
    return;
  }
  info.state = 1;
  const Action& a = std::get<Action>(s.decl->body);
  ActionInfo result;
  {
    // Checked once, as a move body with only its parameters in scope; where it is called
    // decides whether its `mover` and play statements are allowed (check_call_stmt).
    ContextScope scope(*this, play_context(true, "an action"));
    auto saved_scopes = std::move(scopes_);
    auto saved_action = current_action_;
    current_action_ = &result;
    scopes_.clear();
    push_scope();
    for (size_t i = 0; i < a.params.size(); ++i) {
      Symbol p;
      p.name = a.params[i].name.name;
      p.kind = NameKind::ActionParam;
      {
        ContextScope types(*this, constant_context("a range bound"));
        p.type = resolve_type(*a.params[i].type);
      }
      p.span = a.params[i].name.span;
      p.decl = s.decl;
      p.index = static_cast<int>(i);
      declare_local(std::move(p));
    }
    check_block(a.body);
    scopes_ = std::move(saved_scopes);
    current_action_ = saved_action;
    result.mover = uses_mover_;
  }
  result.state = 2;
  actions_[&s] = result;
}

void Checker::note_play_statement(const Stmt& s) {
  if (current_action_ && !current_action_->play) current_action_->play = &s;
}

void Checker::check_call_stmt(const Stmt& s) {
  const Expr& call = *s.value;
  const Expr& callee = *call.args[0];
  const size_t n = call.args.size() - 1;
  auto check_args = [&] {
    for (size_t i = 1; i < call.args.size(); ++i) check(*call.args[i]);
  };
  const Symbol* found = lookup(callee.ident.name);
  if (!found || found->kind != NameKind::Action) {
    if (!found) {
      unknown("action", callee.ident.name, callee.ident.span, action_names());
    } else {
      const std::string_view word = name_kind_word(found->kind);
      const bool vowel = std::string_view("aeiou").find(word.front()) != std::string_view::npos;
      auto& d = error(callee.span, fmt::format("'{}' is {} {}, not an action", callee.ident.name,
                                               vowel ? "an" : "a", word));
      d.hint = found->kind == NameKind::Define
                   ? "a define computes a value: use it in an expression, or declare "
                     "'action NAME(...) { ... }' for statements"
                   : "a statement calls an action: 'action NAME(...) { ... }'";
    }
    check_args();
    return;
  }
  Symbol& sym = const_cast<Symbol&>(*found);
  game_.referents.emplace(&callee, &sym);
  ensure_action(sym, callee.span);
  const Action& a = std::get<Action>(sym.decl->body);
  const ActionInfo& info = actions_[&sym];
  if (n != a.params.size()) {
    auto& d = error(call.span, fmt::format("action '{}' takes {}, {} given", sym.name,
                                           plural(int64_t(a.params.size()), "argument"), n));
    d.notes.push_back({sym.span, fmt::format("'{}' is declared here", sym.name)});
    check_args();
  } else {
    for (size_t i = 0; i < n; ++i) {
      auto it = game_.type_exprs.find(a.params[i].type.get());
      expect(*call.args[i + 1], it == game_.type_exprs.end() ? error_type() : it->second);
    }
  }
  note_use(sym, Time::Play, info.mover, callee.span);
  if (info.play && current_action_ && !current_action_->play) current_action_->play = info.play;
  if (info.play && !ctx_.play_statements) {
    auto& d = error(callee.span, fmt::format("action '{}' uses '{}', which can only be used in "
                                             "a move or a 'when stuck' block",
                                             sym.name, play_word(info.play->kind)));
    d.notes.push_back({info.play->span, fmt::format("'{}' is here", play_word(info.play->kind))});
  }
}

// ------------------------------------------------------------------ comprehensions

TypeRef Checker::check_comprehension(const Expr& e, const TypeRef& expected) {
  // Each binder's values, as expressions to put in place of its name.
  std::vector<std::vector<ExprPtr>> values;
  bool ok = true;
  for (const Binding& b : e.binders) {
    std::vector<ExprPtr> vs;
    const Expr& d = *b.domain;
    if (d.kind == ExprKind::Binary && d.op == Op::Range) {
      ContextScope scope(*this, constant_context("a comprehension's range"));
      auto lo = constant_int(*d.args[0], "the bounds of a comprehension's range");
      auto hi = constant_int(*d.args[1], "the bounds of a comprehension's range");
      if (!lo || !hi) {
        ok = false;
        continue;
      }
      if (*hi >= *lo && uint64_t(*hi - *lo) >= kMaxComprehension) {
        error(d.span, fmt::format("a comprehension lists at most {} values", kMaxComprehension));
        ok = false;
        continue;
      }
      for (int64_t v = *lo; v <= *hi; ++v) vs.push_back(int_literal(v, b.var.span));
    } else if (d.kind == ExprKind::SetLit || d.kind == ExprKind::SeqLit) {
      for (const ExprPtr& x : d.args) vs.push_back(clone(*x));
    } else {
      check(d);
      error(d.span, fmt::format("a comprehension ranges over constants: '{}' needs a range "
                                "'lo..hi' or a literal list or set",
                                b.var.name))
          .hint = "to keep the elements of a set that holds, write a filter '{x in S | cond}'";
      ok = false;
    }
    values.push_back(std::move(vs));
  }
  const bool set = e.value != 0;
  if (!ok) {
    return set ? set_of(error_type()) : seq_of(error_type());
  }
  auto lit = std::make_unique<Expr>();
  lit->kind = set ? ExprKind::SetLit : ExprKind::SeqLit;
  lit->span = e.span;
  // Every combination, the first binder varying slowest, as nested loops read.
  std::vector<size_t> at(values.size(), 0);
  size_t total = 1;
  for (const auto& vs : values) total = vs.empty() ? 0 : total * vs.size();
  if (total > kMaxComprehension) {
    error(e.span, fmt::format("a comprehension lists at most {} values, this one {}",
                              kMaxComprehension, total));
    return set ? set_of(error_type()) : seq_of(error_type());
  }
  for (size_t k = 0; k < total; ++k) {
    auto put = [&](const Expr& x) {
      ExprPtr c = clone(x);
      for (size_t i = 0; i < values.size(); ++i)
        c = substitute(*c, e.binders[i].var.name, *values[i][at[i]]);
      return c;
    };
    bool keep = true;
    if (e.where) {
      ExprPtr w = put(*e.where);
      ContextScope scope(*this, constant_context("a comprehension's 'where'"));
      const bool nested = diags_ != &main_diags_;
      if (!nested) begin_quiet();
      const size_t before = quiet_.error_count();  // begin_quiet starts from none
      expect_bool(*w);
      const bool said = quiet_.error_count() > before;
      if (!nested) end_quiet();
      auto v = eval(*w);
      if (!v && said) {
        // Already said why (a name that changes during play, a wrong type).
        return set ? set_of(error_type()) : seq_of(error_type());
      }
      if (!v) {
        error(e.where->span, "the 'where' of a comprehension must be a compile-time constant")
            .hint = "it may use the comprehension's variables, params and constants";
        return set ? set_of(error_type()) : seq_of(error_type());
      }
      keep = *v != 0;
      game_.checked_copies.push_back(std::move(w));
    }
    if (keep) lit->args.push_back(put(*e.args[0]));
    for (size_t i = values.size(); i-- > 0;) {
      if (++at[i] < values[i].size()) break;
      at[i] = 0;
    }
  }
  // The copies repeat the element's mistakes: report each once. The elements have one
  // type, the expected one when the place of the comprehension says it.
  const bool nested = diags_ != &main_diags_;
  if (!nested) begin_quiet();
  TypeRef want = expected && (expected->is(TypeTag::Seq) || expected->is(TypeTag::Set))
                     ? element_type(expected)
                     : nullptr;
  const size_t before = diags_->error_count();
  if (want)
    for (const ExprPtr& x : lit->args) expect(*x, want);
  const bool bad = diags_->error_count() > before;
  TypeRef t = check(*lit, expected);
  if (bad) {
    t = error_type();  // said at the element
  } else {
    if (!set && t && t->is(TypeTag::Tuple))
      error(e.args[0]->span, "the elements of a comprehension have one type: these differ")
          .hint = "declare the type it makes, as in 'define d: seq of T = [...]'";
  }
  if (!nested) end_quiet();
  game_.expansions[&e] = std::move(lit);
  return t;
}

}  // namespace rulebook::dsl
