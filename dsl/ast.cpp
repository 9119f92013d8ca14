// Structural equality of syntax trees, ignoring spans and comments.
#include "dsl/ast.h"

namespace rulebook::dsl {

namespace {

bool same(const Ident& a, const Ident& b) { return a.name == b.name; }
bool same(const Expr& a, const Expr& b);
bool same(const TypeExpr& a, const TypeExpr& b);
bool same(const Stmt& a, const Stmt& b);
bool same(const Binding& a, const Binding& b);
bool same(const Clue& a, const Clue& b);
bool same(const GridKey& a, const GridKey& b);
bool same(const ParamDecl& a, const ParamDecl& b);
bool same(const MoveRef& a, const MoveRef& b);
bool same(const Move& a, const Move& b);
bool same(const Transition& a, const Transition& b);
bool same(const Decl& a, const Decl& b);
template <typename A, typename B>
bool same(const std::pair<A, B>& a, const std::pair<A, B>& b);

template <typename T>
bool same(const std::unique_ptr<T>& a, const std::unique_ptr<T>& b) {
  if (!a || !b) return !a && !b;
  return same(*a, *b);
}

template <typename T>
bool same(const std::vector<T>& a, const std::vector<T>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (!same(a[i], b[i])) return false;
  }
  return true;
}


template <typename A, typename B>
bool same(const std::pair<A, B>& a, const std::pair<A, B>& b) {
  return same(a.first, b.first) && same(a.second, b.second);
}

bool same(const TypeExpr& a, const TypeExpr& b) {
  return a.kind == b.kind && same(a.name, b.name) && same(a.members, b.members) &&
         same(a.elems, b.elems) && same(a.lo, b.lo) && same(a.hi, b.hi);
}

bool same(const Binding& a, const Binding& b) {
  return same(a.var, b.var) && same(a.domain, b.domain);
}

bool same(const GridKey& a, const GridKey& b) {
  return a.key == b.key && same(a.value, b.value);
}

bool same(const Expr& a, const Expr& b) {
  return a.kind == b.kind && a.value == b.value && a.text == b.text && same(a.ident, b.ident) &&
         a.op == b.op && a.quant == b.quant && a.agg == b.agg && same(a.args, b.args) &&
         same(a.binders, b.binders) && same(a.where, b.where) && same(a.fields, b.fields) &&
         a.grid.rows == b.grid.rows && same(a.grid.keys, b.grid.keys);
}

bool same(const Stmt& a, const Stmt& b) {
  return a.kind == b.kind && a.assign == b.assign && same(a.target, b.target) &&
         same(a.value, b.value) && same(a.name, b.name) && same(a.binders, b.binders) &&
         same(a.where, b.where) && same(a.body, b.body) && same(a.otherwise, b.otherwise) &&
         a.has_else == b.has_else;
}

bool same(const ParamDecl& a, const ParamDecl& b) {
  return same(a.name, b.name) && same(a.type, b.type);
}

bool same(const MoveRef& a, const MoveRef& b) {
  return same(a.move, b.move) && a.has_args == b.has_args && same(a.args, b.args);
}

bool same(const Move& a, const Move& b) {
  return same(a.name, b.name) && a.is_override == b.is_override && same(a.phase, b.phase) &&
         same(a.params, b.params) &&
         same(a.requires_, b.requires_) && same(a.body, b.body);
}

bool same(const Transition& a, const Transition& b) {
  return same(a.condition, b.condition) && same(a.target, b.target) && a.is_end == b.is_end;
}

bool same(const PropertySet& a, const PropertySet& b) {
  return a.moves == b.moves && a.reachable == b.reachable && a.play == b.play && same(a.phase, b.phase) && same(a.move_names, b.move_names) &&
         same(a.setups, b.setups) && same(a.where, b.where);
}

// One overload per declaration kind, picked by std::visit below.
bool same(const Param& a, const Param& b) {
  return same(a.name, b.name) && same(a.type, b.type) && same(a.value, b.value);
}
bool same(const Board& a, const Board& b) {
  return same(a.rows, b.rows) && same(a.columns, b.columns);
}
bool same(const Regions& a, const Regions& b) {
  return same(a.name, b.name) && same(a.block_rows, b.block_rows) &&
         same(a.block_columns, b.block_columns) && same(a.grid, b.grid);
}
bool same(const Players& a, const Players& b) {
  return same(a.count, b.count) && same(a.names, b.names);
}
bool same(const Team& a, const Team& b) {
  return same(a.name, b.name) && same(a.members, b.members);
}
bool same(const TypeDecl& a, const TypeDecl& b) {
  return same(a.name, b.name) && same(a.type, b.type);
}
bool same(const Setup& a, const Setup& b) {
  return same(a.name, b.name) && same(a.type, b.type) && a.source == b.source &&
         same(a.value, b.value) && same(a.from, b.from) && a.path == b.path &&
         same(a.entry, b.entry);
}
bool same(const State& a, const State& b) {
  return same(a.name, b.name) && same(a.type, b.type) && same(a.initial, b.initial);
}
bool same(const Init& a, const Init& b) { return same(a.body, b.body); }
bool same(const Action& a, const Action& b) {
  return same(a.name, b.name) && same(a.params, b.params) && same(a.body, b.body);
}
bool same(const Define& a, const Define& b) {
  return same(a.name, b.name) && a.has_params == b.has_params && same(a.params, b.params) &&
         same(a.type, b.type) && same(a.body, b.body);
}
bool same(const Rule& a, const Rule& b) {
  return same(a.name, b.name) && a.description == b.description && same(a.on, b.on) &&
         same(a.condition, b.condition);
}
bool same(const Phase& a, const Phase& b) {
  return same(a.name, b.name) && same(a.moves, b.moves) && a.has_stuck == b.has_stuck &&
         same(a.stuck, b.stuck) && same(a.transitions, b.transitions);
}
bool same(const Score& a, const Score& b) {
  return a.per_team == b.per_team && same(a.var, b.var) && same(a.value, b.value);
}
bool same(const Winner& a, const Winner& b) {
  return a.highest == b.highest && a.per_team == b.per_team;
}
bool same(const EndWhen& a, const EndWhen& b) { return same(a.condition, b.condition); }
bool same(const Clue& a, const Clue& b) {
  return same(a.name, b.name) && same(a.binders, b.binders) && same(a.where, b.where) && same(a.body, b.body);
}
bool same(const Property& a, const Property& b) {
  return a.kind == b.kind && same(a.name, b.name) && a.description == b.description &&
         same(a.over, b.over) && a.maximize == b.maximize && same(a.expr, b.expr) &&
         same(a.subject, b.subject) && same(a.clues, b.clues);
}
bool same(const Metric& a, const Metric& b) {
  return same(a.name, b.name) && a.description == b.description && same(a.value, b.value) &&
         same(a.when, b.when);
}
bool same(const Symmetry& a, const Symmetry& b) {
  return same(a.name, b.name) && same(a.swaps, b.swaps);
}
bool same(const Allow& a, const Allow& b) {
  return same(a.code, b.code) && same(a.subject, b.subject) && a.reason == b.reason;
}
bool same(const Remove& a, const Remove& b) {
  return a.what == b.what && same(a.name, b.name) && same(a.phase, b.phase);
}

bool same(const Decl& a, const Decl& b) {
  if (a.is_override != b.is_override || a.body.index() != b.body.index()) return false;
  return std::visit(
      [&b](const auto& x) {
        using T = std::decay_t<decltype(x)>;
        return same(x, std::get<T>(b.body));
      },
      a.body);
}

}  // namespace

bool same_tree(const File& a, const File& b) {
  return a.is_variant == b.is_variant && a.title == b.title && a.extends == b.extends &&
         same(a.decls, b.decls);
}

ExprPtr clone(const Expr& e) {
  auto c = std::make_unique<Expr>();
  c->kind = e.kind;
  c->span = e.span;
  c->value = e.value;
  c->text = e.text;
  c->ident = e.ident;
  c->op = e.op;
  c->quant = e.quant;
  c->agg = e.agg;
  for (const ExprPtr& a : e.args) c->args.push_back(a ? clone(*a) : nullptr);
  for (const Binding& b : e.binders) c->binders.push_back({b.var, b.domain ? clone(*b.domain) : nullptr});
  if (e.where) c->where = clone(*e.where);
  c->fields = e.fields;
  c->grid.rows = e.grid.rows;
  c->grid.row_spans = e.grid.row_spans;
  for (const GridKey& k : e.grid.keys)
    c->grid.keys.push_back({k.key, k.span, k.value ? clone(*k.value) : nullptr});
  return c;
}

}  // namespace rulebook::dsl
