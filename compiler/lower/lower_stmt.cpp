// Lowering of statements: assignments (also of whole maps and of record fields), if, for,
// let and the play statements (again, eliminate, goto, end).
#include <functional>

#include <fmt/format.h>

#include "compiler/lower/lower_internal.h"

namespace rulebook::compiler {

using dsl::ExprKind;
using dsl::StmtKind;
using dsl::TypeTag;
using ir::Op;
using ir::StmtOp;

namespace {

ir::StmtPtr make_stmt(StmtOp op, dsl::Span span) {
  auto s = std::make_unique<ir::Stmt>();
  s->op = op;
  s->span = span;
  return s;
}

}  // namespace

ir::Block Lowering::block(const dsl::Block& b) {
  const int saved = frame_->next;
  ir::Block out;
  for (const dsl::StmtPtr& s : b) stmt(*s, out);
  release_to(saved);
  return out;
}

void Lowering::stmt(const dsl::Stmt& s, ir::Block& out) {
  switch (s.kind) {
    case StmtKind::Assign:
      assign(s, out);
      return;
    case StmtKind::If: {
      auto x = make_stmt(StmtOp::If, s.span);
      x->value = expr(*s.value, dsl::bool_type());
      x->body = block(s.body);
      x->otherwise = block(s.otherwise);
      out.push_back(std::move(x));
      return;
    }
    case StmtKind::For: {
      const int saved = frame_->next;
      std::vector<std::pair<int, ir::ExprPtr>> loops;
      for (const dsl::Binding& b : s.binders) {
        dsl::TypeRef dt = game_.type_of(*b.domain);
        ir::ExprPtr domain =
            dt && dt->is(TypeTag::Map)
                ? full_set(require_domain(dt->key(), b.domain->span, "a map key"), b.domain->span, SetOf::MapKeys)
                : expr(*b.domain);
        int slot = take_slot(&b);
        loops.emplace_back(slot, std::move(domain));
      }
      ir::ExprPtr where = s.where ? expr(*s.where, dsl::bool_type()) : nullptr;
      ir::Block body = block(s.body);
      for (size_t i = loops.size(); i-- > 0;) {
        auto x = make_stmt(StmtOp::For, s.span);
        x->slot = loops[i].first;
        x->value = std::move(loops[i].second);
        if (i + 1 == loops.size()) x->where = std::move(where);
        x->body = std::move(body);
        body = ir::Block();
        body.push_back(std::move(x));
      }
      for (auto& x : body) out.push_back(std::move(x));
      release_to(saved);
      return;
    }
    case StmtKind::Let: {
      auto x = make_stmt(StmtOp::Let, s.span);
      x->value = expr(*s.value);
      x->slot = take_slot(&s);  // lives to the end of the enclosing block
      out.push_back(std::move(x));
      return;
    }
    case StmtKind::Again:
      out.push_back(make_stmt(StmtOp::Again, s.span));
      return;
    case StmtKind::End:
      out.push_back(make_stmt(StmtOp::End, s.span));
      return;
    case StmtKind::Eliminate: {
      auto x = make_stmt(StmtOp::Eliminate, s.span);
      x->value = expr(*s.value, dsl::player_type());
      out.push_back(std::move(x));
      return;
    }
    case StmtKind::Call:
      call_action(s, out);
      return;
    case StmtKind::Goto: {
      auto x = make_stmt(StmtOp::Goto, s.span);
      for (size_t i = 0; i < game_.phases.size(); ++i)
        if (game_.phases[i].name == s.name.name) x->phase = int(i);
      if (x->phase < 0) error(s.name.span, fmt::format("unknown phase '{}'", s.name.name));
      out.push_back(std::move(x));
      return;
    }
  }
}

void Lowering::assign(const dsl::Stmt& s, ir::Block& out) {
  const dsl::Expr* t = s.target.get();
  std::vector<std::string> fields;
  while (t->kind == ExprKind::Field) {
    fields.insert(fields.begin(), t->ident.name);
    t = t->args[0].get();
  }
  std::vector<const dsl::Expr*> keys;
  while (t->kind == ExprKind::Index) {
    keys.insert(keys.begin(), t->args[1].get());
    t = t->args[0].get();
  }
  const dsl::Symbol* sym = t->kind == ExprKind::Name ? game_.referent(*t) : nullptr;
  if (!sym || !vars_.count(sym->name)) {
    error(s.target->span, "only state can be assigned");
    return;
  }
  const int var = vars_[sym->name];
  dsl::TypeRef vt = var_types_[sym->name];
  std::vector<ir::ExprPtr> ir_keys;
  for (const dsl::Expr* k : keys) {
    dsl::TypeRef kt = dsl::int_type();
    if (vt && vt->is(TypeTag::Map)) {
      kt = vt->key();
      vt = vt->value();
    } else if (vt && vt->is(TypeTag::Seq)) {
      vt = vt->elem();
    }
    ir_keys.push_back(expr(*k, kt));
  }
  const int op = s.assign == dsl::AssignOp::Set ? 0 : s.assign == dsl::AssignOp::Add ? 1 : -1;
  if (fields.empty()) {
    assign_whole(var, std::move(ir_keys), expr(*s.value, vt), op, s.span, out);
    return;
  }
  // `stone[c].number := v` (at any depth) stores the whole record, one field replaced.
  auto read = node(Op::Read, scalar_type(prog_.vars[size_t(var)].domain), s.target->span);
  read->var = var;
  for (const auto& k : ir_keys) read->args.push_back(clone(*k, k->span));
  std::function<ir::ExprPtr(const ir::Expr&, const dsl::TypeRef&, size_t)> rebuild =
      [&](const ir::Expr& base, const dsl::TypeRef& type, size_t depth) -> ir::ExprPtr {
    dsl::TypeRef rt = dsl::strip_optional(type);
    if (!rt || !rt->is(TypeTag::Record)) {
      error(s.target->span, "only a field of a record can be assigned");
      return constant(0, -1, s.span);
    }
    size_t f = 0;
    while (f < rt->members.size() && rt->members[f] != fields[depth]) ++f;
    if (f == rt->members.size()) return constant(0, -1, s.span);
    auto field_of = [&](size_t j) {
      auto x = node(Op::Field, scalar_type(domain_of(rt->elems[j])), s.target->span);
      x->field = int(j);
      x->args.push_back(clone(base, base.span));
      return x;
    };
    ir::ExprPtr value;
    if (depth + 1 < fields.size()) {
      ir::ExprPtr inner = field_of(f);
      value = rebuild(*inner, rt->elems[f], depth + 1);
    } else {
      value = expr(*s.value, rt->elems[f]);
      if (op != 0) {
        auto x = node(op > 0 ? Op::Add : Op::Sub, scalar_type(-1), s.span);
        x->args.push_back(field_of(f));
        x->args.push_back(std::move(value));
        value = std::move(x);
      }
    }
    auto record = node(Op::RecordLit, scalar_type(require_domain(rt, s.span, "a record")), s.span);
    for (size_t j = 0; j < rt->members.size(); ++j)
      record->args.push_back(j == f ? std::move(value) : field_of(j));
    return record;
  };
  auto x = make_stmt(StmtOp::Assign, s.span);
  x->var = var;
  x->keys = std::move(ir_keys);
  x->value = rebuild(*read, vt, 0);
  out.push_back(std::move(x));
}

void Lowering::assign_whole(int var, std::vector<ir::ExprPtr> keys, ir::ExprPtr value, int op,
                            dsl::Span span, ir::Block& out) {
  const ir::StateVar& v = prog_.vars[size_t(var)];
  const size_t missing = v.keys.size() - std::min(v.keys.size(), keys.size());
  if (missing == 0 || (v.is_set && missing == 1)) {
    auto x = make_stmt(StmtOp::Assign, span);
    x->var = var;
    x->assign = op;
    x->keys = std::move(keys);
    x->value = std::move(value);
    out.push_back(std::move(x));
    return;
  }
  // A whole map or sequence: evaluate it once, then store it key by key. The value's slot
  // lives to the end of the enclosing block, as a `let` does: a generated engine names a
  // local by its slot, so two whole stores in one block must not share one.
  const int whole = take_slot(nullptr);
  const int saved = frame_->next;
  ir::TypePtr whole_type = value->type;
  auto let = make_stmt(StmtOp::Let, span);
  let->slot = whole;
  let->value = std::move(value);
  out.push_back(std::move(let));
  const int key_domain = v.keys[keys.size()];
  const int loop = take_slot(nullptr);
  auto x = make_stmt(StmtOp::For, span);
  x->slot = loop;
  x->value = full_set(key_domain, span, SetOf::StoredKeys);
  auto whole_read = node(Op::Local, whole_type, span);
  whole_read->slot = whole;
  auto key = node(Op::Local, scalar_type(key_domain), span);
  key->slot = loop;
  const ir::Domain& kd = prog_.domains[size_t(key_domain)];
  ir::ExprPtr index = clone(*key, span);
  if (kd.kind == ir::Domain::Kind::Range && kd.lo != 0) {
    auto sub = node(Op::Sub, scalar_type(-1), span);
    sub->args.push_back(std::move(index));
    sub->args.push_back(constant(kd.lo, -1, span));
    index = std::move(sub);
  }
  ir::TypePtr elem = whole_type->elem ? whole_type->elem : scalar_type(v.domain);
  auto item = node(Op::At, elem, span);
  item->args.push_back(std::move(whole_read));
  item->args.push_back(std::move(index));
  keys.push_back(std::move(key));
  assign_whole(var, std::move(keys), std::move(item), op, span, x->body);
  out.push_back(std::move(x));
  release_to(saved);
}

// An action's call is its body, inlined: the IR and every backend see the statements as
// if written in place. The arguments are evaluated once, when the call starts: a local or
// a constant stands for itself, anything else (which the body could change by assigning
// state) is held in a fresh local first. The body's locals live to the end of the
// enclosing block, as a `let` written there would.
void Lowering::call_action(const dsl::Stmt& s, ir::Block& out) {
  const dsl::Action* a = game_.called_action(s);
  if (!a) {
    error(s.span, "the action was not resolved");
    return;
  }
  std::unordered_map<const dsl::ParamDecl*, ir::ExprPtr> args;
  for (size_t i = 0; i < a->params.size() && i + 1 < s.value->args.size(); ++i) {
    const dsl::Expr& arg = *s.value->args[i + 1];
    auto t = game_.type_exprs.find(a->params[i].type.get());
    ir::ExprPtr v = expr(arg, t == game_.type_exprs.end() ? game_.type_of(arg) : t->second);
    if (v->op != Op::Local && v->op != Op::Const) {
      auto let = make_stmt(StmtOp::Let, arg.span);
      let->slot = take_slot(&arg);
      auto read = node(Op::Local, v->type, arg.span);
      read->slot = let->slot;
      let->value = std::move(v);
      out.push_back(std::move(let));
      v = std::move(read);
    }
    args[&a->params[i]] = std::move(v);
  }
  // Calls nest (recursion is rejected by the checker): each one sees its own arguments.
  for (auto& [param, value] : args) std::swap(action_args_[param], value);
  for (const dsl::StmtPtr& b : a->body) stmt(*b, out);
  for (auto& [param, value] : args) {
    if (value) {
      std::swap(action_args_[param], value);
    } else {
      action_args_.erase(param);
    }
  }
}

}  // namespace rulebook::compiler
