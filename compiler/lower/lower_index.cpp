// Lowering of indexing: a state map, a table or a list read at keys, with the keys checked
// against the map's key types.
#include <algorithm>

#include <fmt/format.h>

#include "compiler/lower/lower_internal.h"
#include "dsl/integers.h"

namespace rulebook::compiler {

using dsl::ExprKind;
using dsl::NameKind;
using dsl::TypeTag;
using ir::Op;

ir::ExprPtr Lowering::index(const dsl::Expr& e) {
  std::vector<const dsl::Expr*> keys;
  const dsl::Expr* base = &e;
  while (base->kind == ExprKind::Index) {
    keys.insert(keys.begin(), base->args[1].get());
    base = base->args[0].get();
  }
  return index_into(*base, keys);
}

ir::ExprPtr Lowering::at(ir::ExprPtr list, const dsl::TypeRef& key_type, ir::ExprPtr key,
                         const ir::TypePtr& elem, dsl::Span span) {
  if (key_type && key_type->is(TypeTag::Int) && key_type->has_range && key_type->lo != 0) {
    auto sub = node(Op::Sub, scalar_type(-1), span);
    sub->args.push_back(std::move(key));
    sub->args.push_back(constant(key_type->lo, -1, span));
    key = fold(std::move(sub));
  }
  auto x = node(Op::At, elem, span);
  x->args.push_back(std::move(list));
  x->args.push_back(std::move(key));
  return fold(std::move(x));
}

ir::ExprPtr Lowering::index_into(const dsl::Expr& base, const std::vector<const dsl::Expr*>& keys) {
  // The key types, outermost first, and what remains after the keys.
  dsl::TypeRef t = game_.type_of(base);
  std::vector<dsl::TypeRef> key_types;
  for (size_t i = 0; i < keys.size(); ++i) {
    t = dsl::strip_optional(t);
    if (t && t->is(TypeTag::Map)) {
      key_types.push_back(t->key());
      t = t->value();
    } else if (t && (t->is(TypeTag::Seq) || t->is(TypeTag::Tuple))) {
      key_types.push_back(dsl::int_type());
      t = t->is(TypeTag::Seq) ? t->elem() : dsl::element_type(t);
    } else {
      key_types.push_back(dsl::int_type());
      t = dsl::error_type();
    }
  }
  const dsl::TypeRef result = t;
  const dsl::Span span = keys.empty() ? base.span : dsl::Span{base.span.file, base.span.begin,
                                                              keys.back()->span.end + 1};
  if (base.kind == ExprKind::Name) {
    const dsl::Symbol* s = game_.referent(base);
    if (s && (s->kind == NameKind::State || s->kind == NameKind::Setup) && vars_.count(s->name)) {
      auto x = node(Op::Read, ir_type(result, span), span);
      x->var = vars_[s->name];
      for (size_t i = 0; i < keys.size(); ++i) x->args.push_back(expr(*keys[i], key_types[i]));
      return x;
    }
    // A map-valued define without parameters is indexed where it is used: a grid becomes
    // a table lookup, another map a read.
    if (s && s->kind == NameKind::Define) {
      const auto& d = std::get<dsl::Define>(s->decl->body);
      if (!d.has_params && (d.body->kind == ExprKind::Grid || d.body->kind == ExprKind::Name))
        return index_into(*d.body, keys);
    }
    if (s && s->kind == NameKind::Param)
      return index_into(*std::get<dsl::Param>(s->decl->body).value, keys);
  }
  ir::ExprPtr x = expr(base);
  for (size_t i = 0; i < keys.size(); ++i) {
    ir::TypePtr elem = x->type->kind == ir::Type::Kind::List && x->type->elem
                           ? x->type->elem
                           : scalar_type(-1);
    if (i + 1 == keys.size()) elem = ir_type(result, span);
    x = at(std::move(x), key_types[i], expr(*keys[i], key_types[i]), elem, span);
  }
  return x;
}

}  // namespace rulebook::compiler
