// The name index: walks every parsed file of a game and records where each name is written.
#include <map>
#include <utility>

#include "dsl/types.h"
#include "lsp/analysis.h"

namespace rulebook::lsp {

namespace {

using namespace rulebook::dsl;

bool is_local(NameKind k) {
  return k == NameKind::DefineParam || k == NameKind::MoveParam || k == NameKind::RuleParam ||
         k == NameKind::ScoreVar || k == NameKind::Binder || k == NameKind::Let;
}

/// Walks declarations, statements, expressions and types. The checker's side tables give
/// what names refer to; declarations it did not check (overridden ones) fall back to the
/// global of the same name.
class Indexer {
 public:
  Indexer(const Game& game, std::vector<Occurrence>& out) : game_(game), out_(out) {
    for (const auto& s : game.symbols)
      if (is_local(s->kind)) locals_[{s->span.file, s->span.begin}] = s.get();
  }

  void file(const File& f) {
    for (const Decl& d : f.decls) decl(d);
  }

 private:
  void add(const Ident& id, std::string key, bool declaration, const Symbol* sym = nullptr) {
    if (id.name.empty() || id.span.end <= id.span.begin) return;
    out_.push_back({id.span.file, id.span.begin, id.span.end, std::move(key), declaration, sym});
  }

  void global(const Ident& id, bool declaration) {
    add(id, "g:" + id.name, declaration, game_.global(id.name));
  }

  /// A name that declares a local symbol (binder, let, parameter).
  void local(const Ident& id) {
    auto it = locals_.find({id.span.file, id.span.begin});
    if (it != locals_.end()) add(id, symbol_key(*it->second), true, it->second);
  }

  void decl(const Decl& d) {
    std::visit([&](const auto& b) { body(b); }, d.body);
  }

  void body(const Param& p) {
    global(p.name, true);
    type(p.type.get());
    expr(p.value.get());
  }
  void body(const Board& b) {
    expr(b.rows.get());
    expr(b.columns.get());
  }
  void body(const Regions& r) {
    global(r.name, true);
    expr(r.block_rows.get());
    expr(r.block_columns.get());
    expr(r.grid.get());
  }
  void body(const Players& p) {
    expr(p.count.get());
    for (const Ident& n : p.names) global(n, true);
  }
  void body(const Team& t) {
    global(t.name, true);
    for (const Ident& m : t.members) global(m, false);
  }
  void body(const TypeDecl& t) {
    add(t.name, "t:" + t.name.name, true);
    type(t.type.get());
  }
  void body(const Setup& s) {
    global(s.name, true);
    type(s.type.get());
    expr(s.value.get());
    expr(s.from.get());
    expr(s.entry.get());
  }
  void body(const State& s) {
    global(s.name, true);
    type(s.type.get());
    expr(s.initial.get());
  }
  void body(const Init& i) { block(i.body); }
  void body(const Define& d) {
    global(d.name, true);
    params(d.params);
    type(d.type.get());
    expr(d.body.get());
  }
  void body(const Rule& r) {
    add(r.name, "r:" + r.name.name, true);
    for (const MoveRef& m : r.on) {
      add(m.move, "m:" + m.move.name, false);
      for (const Ident& a : m.args) local(a);
    }
    expr(r.condition.get());
  }
  void body(const Phase& p) {
    global(p.name, true);
    for (const Move& m : p.moves) body(m);
    block(p.stuck);
    for (const Transition& t : p.transitions) {
      expr(t.condition.get());
      if (!t.is_end) global(t.target, false);
    }
  }
  void body(const Move& m) {
    add(m.name, "m:" + m.name.name, true);
    if (!m.phase.name.empty()) global(m.phase, false);  // `move m in P`: a use of phase P
    params(m.params);
    for (const ExprPtr& r : m.requires_) expr(r.get());
    block(m.body);
  }
  void body(const Action& a) {
    add(a.name, "a:" + a.name.name, true);
    params(a.params);
    block(a.body);
  }
  void body(const Allow& a) {
    // The subject of an acknowledged alert: a phase, player or team is a global name.
    if (!a.subject.name.empty() && game_.global(a.subject.name)) global(a.subject, false);
  }
  void body(const Score& s) {
    local(s.var);
    expr(s.value.get());
  }
  void body(const Winner&) {}
  void body(const EndWhen& e) { expr(e.condition.get()); }
  void body(const Property& p) {
    add(p.name, "p:" + p.name.name, true);
    if (!p.over.phase.name.empty()) global(p.over.phase, false);
    for (const Ident& m : p.over.move_names) add(m, "m:" + m.name, false);
    for (const auto& s : p.over.setups) {
      global(s.first, false);
      expr(s.second.get());
    }
    expr(p.over.where.get());
    expr(p.expr.get());
    for (const Clue& c : p.clues) {
      binders(c.binders);
      expr(c.where.get());
      expr(c.body.get());
    }
    if (p.kind == PropertyKind::Depends) add(p.subject, "p:" + p.subject.name, false);
    if (p.kind == PropertyKind::Redundant) add(p.subject, "r:" + p.subject.name, false);
  }
  void body(const Metric& m) {
    add(m.name, "metric:" + m.name.name, true);
    expr(m.value.get());
    expr(m.when.get());
  }
  void body(const Symmetry& s) {
    add(s.name, "s:" + s.name.name, true);
    for (const auto& sw : s.swaps) {
      global(sw.first, false);
      global(sw.second, false);
    }
  }
  void body(const Remove& r) {
    switch (r.what) {
      case DeclKindWord::Move: add(r.name, "m:" + r.name.name, false); break;
      case DeclKindWord::Rule: add(r.name, "r:" + r.name.name, false); break;
      case DeclKindWord::Property: add(r.name, "p:" + r.name.name, false); break;
      case DeclKindWord::Metric: add(r.name, "metric:" + r.name.name, false); break;
      case DeclKindWord::Symmetry: add(r.name, "s:" + r.name.name, false); break;
      case DeclKindWord::Action: add(r.name, "a:" + r.name.name, false); break;
      default: global(r.name, false); break;
    }
    if (!r.phase.name.empty()) global(r.phase, false);  // `remove move m from P`
  }

  void params(const std::vector<ParamDecl>& list) {
    for (const ParamDecl& p : list) {
      local(p.name);
      type(p.type.get());
    }
  }

  void type(const TypeExpr* t) {
    if (!t) return;
    if (t->kind == TypeKind::Named && !builtin_type(t->name.name))
      add(t->name, "t:" + t->name.name, false);
    if (t->kind == TypeKind::Enum)
      for (const Ident& m : t->members) global(m, true);
    for (const TypePtr& e : t->elems) type(e.get());
    expr(t->lo.get());
    expr(t->hi.get());
  }

  void binders(const std::vector<Binding>& list) {
    for (const Binding& b : list) {
      expr(b.domain.get());
      local(b.var);
    }
  }

  void expr(const Expr* e) {
    if (!e) return;
    if (e->kind == ExprKind::Name) {
      if (const Symbol* s = game_.referent(*e)) {
        add(e->ident, symbol_key(*s), false, s);
      } else if (game_.global(e->ident.name)) {
        global(e->ident, false);
      }
    }
    binders(e->binders);
    expr(e->where.get());
    for (const ExprPtr& a : e->args) expr(a.get());
    for (const GridKey& k : e->grid.keys) expr(k.value.get());
  }

  void block(const Block& list) {
    for (const StmtPtr& s : list) stmt(*s);
  }

  void stmt(const Stmt& s) {
    expr(s.target.get());
    if (s.kind == StmtKind::Call && s.value && !s.value->args.empty() && s.value->args[0]->kind == ExprKind::Name) {
      // The callee is an action, not a value: its name is indexed as one, then the arguments.
      add(s.value->args[0]->ident, "a:" + s.value->args[0]->ident.name, false);
      for (size_t i = 1; i < s.value->args.size(); ++i) expr(s.value->args[i].get());
    } else {
      expr(s.value.get());
    }
    if (s.kind == StmtKind::Let) local(s.name);
    if (s.kind == StmtKind::Goto) global(s.name, false);
    binders(s.binders);
    expr(s.where.get());
    block(s.body);
    block(s.otherwise);
  }

  const Game& game_;
  std::vector<Occurrence>& out_;
  std::map<std::pair<uint32_t, uint32_t>, const Symbol*> locals_;
};

}  // namespace

void index_names(const Game& game, std::vector<Occurrence>& out) {
  Indexer indexer(game, out);
  for (const auto& f : game.loaded.files)
    if (f) indexer.file(*f);
}

}  // namespace rulebook::lsp
