// The checker's warnings about the loaded file (docs/language.md, "Warnings"): an override
// that changes base declarations using it, a dropped move override, unused declarations,
// shadowed names and rules that never apply; each acknowledged by `allow CODE SUBJECT`.
#include <algorithm>
#include <set>
#include <unordered_map>

#include <fmt/format.h>

#include "dsl/alert_codes.h"
#include "dsl/check_internal.h"

namespace rulebook::dsl {

namespace {

/// A declaration, or a move inside a phase, that an expression can stand in.
struct Container {
  Span span;
  const Decl* decl = nullptr;
  std::string label;      ///< "rule fits", "move place"
  bool observer = false;  ///< properties, metrics: they watch the game, they are not its rules
};

struct Pending {
  std::string code, subject;
  Diagnostic diag;
};

bool inside(const Span& outer, const Span& inner) {
  return outer.file == inner.file && outer.begin <= inner.begin && inner.end <= outer.end;
}

std::string label_of(const Decl& d) {
  auto [kind, name] = decl_key(d);
  return name.empty() ? kind : kind + " " + name;
}

/// "a, b and c".
std::string listing(const std::vector<std::string>& items) {
  std::string out;
  for (size_t i = 0; i < items.size(); ++i) {
    if (i > 0) out += i + 1 == items.size() ? " and " : ", ";
    out += items[i];
  }
  return out;
}

void collect_gotos(const Block& block, std::vector<std::string>& out) {
  for (const StmtPtr& s : block) {
    if (s->kind == StmtKind::Goto) out.push_back(s->name.name);
    collect_gotos(s->body, out);
    collect_gotos(s->otherwise, out);
  }
}

class Warner {
 public:
  Warner(const Game& game, Diagnostics& diags)
      : game_(game), diags_(diags), top_(game.loaded.chain.back().source) {}

  void run() {
    index_containers();
    count_uses();
    overrides();
    dropped();
    unused();
    shadowed();
    rules();
    flush();
  }

 private:
  bool here(const Span& s) const { return s.file == top_; }

  Diagnostic& add(const std::string& code, const std::string& subject, Span span, std::string message) {
    pending_.push_back({code, subject, Diagnostic{Severity::Warning, span, std::move(message), {}, {}, code}});
    return pending_.back().diag;
  }

  static std::string acknowledge(const std::string& code, const std::string& subject) {
    return fmt::format("acknowledge with 'allow {} {} \"reason\";'", code, subject);
  }

  void index_containers() {
    for (const ChainFile& cf : game_.loaded.chain) {
      for (const Decl& d : cf.file->decls) {
        const bool observer = std::holds_alternative<Property>(d.body) || std::holds_alternative<Metric>(d.body) ||
                              std::holds_alternative<Symmetry>(d.body) || std::holds_alternative<Allow>(d.body);
        if (const auto* m = std::get_if<Move>(&d.body)) {
          containers_.push_back({d.span, &d, "move " + m->name.name, false});
          continue;
        }
        containers_.push_back({d.span, &d, label_of(d), observer});
        if (const auto* p = std::get_if<Phase>(&d.body))
          for (const Move& m : p->moves) containers_.push_back({m.span, &d, "move " + m.name.name, false});
      }
    }
  }

  /// The innermost declaration (or move) holding `span`, or null.
  const Container* container(const Span& span) const {
    const Container* best = nullptr;
    for (const Container& c : containers_)
      if (inside(c.span, span) && (!best || c.span.end - c.span.begin < best->span.end - best->span.begin))
        best = &c;
    return best;
  }

  void count_uses() {
    // By source position, so that the notes come out in a stable order.
    std::vector<std::pair<const Expr*, const Symbol*>> refs(game_.referents.begin(), game_.referents.end());
    std::sort(refs.begin(), refs.end(), [](const auto& a, const auto& b) {
      if (a.first->span.file != b.first->span.file) return a.first->span.file < b.first->span.file;
      return a.first->span.begin < b.first->span.begin;
    });
    std::set<std::pair<const Symbol*, uint64_t>> seen;  // (symbol, file << 32 | offset)
    for (const auto& ref : refs) {
      const Symbol* s = ref.second;
      if (!s->decl) continue;
      if (!seen.insert({s, ref.first->span.begin + (uint64_t(ref.first->span.file) << 32)}).second) continue;
      const Container* c = container(ref.first->span);
      if (!c || c->decl == s->decl) continue;  // a declaration using itself is not a use
      uses_[s].push_back({c, ref.first->span});
    }
    for (const auto& t : game_.type_exprs)
      if (t.first->kind == TypeKind::Named) used_types_.insert(t.first->name.name);
  }

  const Symbol* symbol_of(const Decl& d) const {
    auto [kind, name] = decl_key(d);
    const Symbol* s = game_.global(name);
    return s && s->decl == &d ? s : nullptr;
  }

  void overrides() {
    for (const Decl* d : game_.decls) {
      if (!d->is_override || !here(d->span)) continue;
      // A param is a knob: changing what uses it is what overriding it is for.
      if (std::holds_alternative<Param>(d->body)) continue;
      const Symbol* s = symbol_of(*d);
      if (!s) continue;
      auto it = uses_.find(s);
      if (it == uses_.end()) continue;
      std::vector<std::string> users;
      std::vector<DiagnosticNote> notes;
      for (const Use& u : it->second) {
        if (here(u.where) || u.by->observer) continue;
        if (std::find(users.begin(), users.end(), u.by->label) != users.end()) continue;
        users.push_back(u.by->label);
        notes.push_back({u.where, fmt::format("{} uses '{}' here", u.by->label, s->name)});
      }
      if (users.empty()) continue;
      auto [kind, name] = decl_key(*d);
      Diagnostic& w = add("changed-users", name, s->span,
                          fmt::format("overriding {} '{}' also changes {}, which {} it", kind, name, listing(users),
                                      users.size() == 1 ? "uses" : "use"));
      w.notes = std::move(notes);
      w.hint = fmt::format("review {}, or {}", listing(users), acknowledge("changed-users", name));
    }
  }

  void dropped() {
    for (const DroppedOverride& x : game_.loaded.dropped) {
      const auto* phase = std::get_if<Phase>(&x.phase->body);
      if (!phase || !here(phase->name.span)) continue;
      const std::string& move = x.move->name.name;
      Diagnostic& w = add("dropped-override", phase->name.name, phase->name.span,
                          fmt::format("overriding phase '{}' drops the earlier override of move '{}': the new "
                                      "phase has no move '{}'",
                                      phase->name.name, move, move));
      w.notes.push_back({x.move->name.span, fmt::format("move '{}' is overridden here", move)});
      w.hint = fmt::format("add move '{}' to the new phase, or {}", move,
                           acknowledge("dropped-override", phase->name.name));
    }
  }

  void unused() {
    for (const Decl* d : game_.decls) {
      if (!here(d->span)) continue;
      auto [kind, name] = decl_key(*d);
      bool used = false;
      if (const auto* t = std::get_if<TypeDecl>(&d->body)) {
        used = used_types_.count(t->name.name) > 0;
      } else if (std::holds_alternative<Param>(d->body) || std::holds_alternative<Define>(d->body) ||
                 std::holds_alternative<State>(d->body) || std::holds_alternative<Setup>(d->body) ||
                 std::holds_alternative<Regions>(d->body) || std::holds_alternative<Action>(d->body)) {
        const Symbol* s = symbol_of(*d);
        used = !s || uses_.count(s) > 0;
      } else {
        continue;
      }
      if (used) continue;
      const Symbol* s = symbol_of(*d);
      Span at = s ? s->span : d->span;
      if (const auto* t = std::get_if<TypeDecl>(&d->body)) at = t->name.span;
      Diagnostic& w = add("unused", name, at, fmt::format("{} '{}' is never used", kind, name));
      w.hint = fmt::format("remove it, or {}", acknowledge("unused", name));
    }
  }

  void shadowed() {
    std::set<uint32_t> warned;
    for (const auto& sym : game_.symbols) {
      const Symbol& s = *sym;
      switch (s.kind) {
        case NameKind::DefineParam:
        case NameKind::MoveParam:
        case NameKind::RuleParam:
        case NameKind::Binder:
        case NameKind::Let:
        case NameKind::ActionParam: break;
        default: continue;
      }
      if (!here(s.span) || !warned.insert(s.span.begin).second) continue;
      const Symbol* g = game_.global(s.name);
      if (!g || g->kind == NameKind::Builtin) continue;
      const std::string local(name_kind_word(s.kind)), global(name_kind_word(g->kind));
      Diagnostic& w = add("shadowed-name", s.name, s.span,
                          fmt::format("{} '{}' hides {} '{}'", local, s.name, global, s.name));
      if (g->span.end > g->span.begin) w.notes.push_back({g->span, fmt::format("{} '{}' is declared here", global, s.name)});
      w.hint = fmt::format("rename the {}, or {}", local, acknowledge("shadowed-name", s.name));
    }
  }

  /// Phases play can enter: the first, then every `until` and `goto` target of one entered.
  std::set<std::string> reachable_phases() const {
    std::set<std::string> out;
    if (game_.phases.empty()) return out;
    std::vector<std::string> from_actions;
    for (const Action* a : game_.actions) collect_gotos(a->body, from_actions);
    std::vector<const PhaseInfo*> todo{&game_.phases.front()};
    out.insert(game_.phases.front().name);
    while (!todo.empty()) {
      const PhaseInfo* p = todo.back();
      todo.pop_back();
      std::vector<std::string> next = from_actions;
      for (const Transition& t : p->phase->transitions)
        if (!t.is_end) next.push_back(t.target.name);
      collect_gotos(p->phase->stuck, next);
      for (const Move* m : p->moves) collect_gotos(m->body, next);
      for (const std::string& n : next)
        if (const PhaseInfo* q = game_.phase(n); q && out.insert(n).second) todo.push_back(q);
    }
    return out;
  }

  void rules() {
    const std::set<std::string> reachable = reachable_phases();
    for (const Rule* r : game_.rules) {
      if (!here(r->name.span)) continue;
      const std::string& name = r->name.name;
      if (std::optional<int64_t> v = game_.constant(*r->condition)) {
        if (*v) {
          add("rule-never-applies", name, r->name.span,
              fmt::format("rule '{}' always holds: it never keeps a move out", name))
              .hint = fmt::format("remove it, or {}", acknowledge("rule-never-applies", name));
        } else {
          add("rule-blocks-all", name, r->name.span,
              fmt::format("rule '{}' never holds: no move it covers can ever be played", name))
              .hint = fmt::format("remove the moves it covers, or {}", acknowledge("rule-blocks-all", name));
        }
        continue;
      }
      if (r->on.empty()) continue;
      bool live = false;
      for (const MoveRef& ref : r->on)
        for (const PhaseInfo& p : game_.phases)
          for (const Move* m : p.moves)
            live = live || (m->name.name == ref.move.name && reachable.count(p.name) > 0);
      if (live) continue;
      add("rule-never-applies", name, r->name.span,
          fmt::format("rule '{}' never applies: the moves it is on are only in phases play never enters", name))
          .hint = fmt::format("remove it, or {}", acknowledge("rule-never-applies", name));
    }
  }

  void flush() {
    std::vector<bool> used(game_.allows.size(), false);
    for (Pending& p : pending_) {
      bool acknowledged = false;
      for (size_t i = 0; i < game_.allows.size(); ++i) {
        const Allow& a = *game_.allows[i];
        if (a.code.name == p.code && a.subject.name == p.subject) acknowledged = used[i] = true;
      }
      if (!acknowledged) {
        Diagnostic& d = diags_.warning(p.diag.span, p.code, p.diag.message);
        d.notes = std::move(p.diag.notes);
        d.hint = std::move(p.diag.hint);
      }
    }
    for (size_t i = 0; i < game_.allows.size(); ++i) {
      const Allow& a = *game_.allows[i];
      const AlertCode* code = find_alert_code(a.code.name);
      if (used[i] || !code || !code->checker || !here(a.code.span) || a.code.name == "stale-allow") continue;
      diags_.warning(a.code.span, "stale-allow",
                     fmt::format("'allow {} {}' acknowledges no warning", a.code.name, a.subject.name))
          .hint = "remove it: what it acknowledged is gone";
    }
  }

  struct Use {
    const Container* by;
    Span where;
  };

  const Game& game_;
  Diagnostics& diags_;
  uint32_t top_;
  std::vector<Container> containers_;
  std::unordered_map<const Symbol*, std::vector<Use>> uses_;
  std::set<std::string> used_types_;
  std::vector<Pending> pending_;
};

}  // namespace

void warn_game(const Game& game, Diagnostics& diags) {
  if (game.loaded.chain.empty()) return;
  Warner(game, diags).run();
}

}  // namespace rulebook::dsl
