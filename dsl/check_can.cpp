// Rejects a move whose legality asks can() about itself: deciding it would never finish.
#include "dsl/check_can.h"

#include <algorithm>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include <fmt/core.h>

namespace rulebook::dsl {
namespace {

/// A `can(m)` reached while deciding a move's legality, and where it is written.
struct CanUse {
  std::string target;
  Span span;
  std::string via;  ///< what of the move leads to it: "its requires", "its block", ...
};

class CanCycles {
 public:
  CanCycles(const Game& game, Diagnostics& diags) : game_(game), diags_(diags) {}

  void run() {
    const bool board_rules = std::any_of(game_.rules.begin(), game_.rules.end(),
                                         [](const Rule* r) { return r->on.empty(); });
    // The edges of every move name: one name in two phases is one node (can() names it
    // by name), so its edges are those of every declaration of it.
    for (const PhaseInfo& ph : game_.phases) {
      for (const Move* m : ph.moves) {
        std::vector<CanUse>& out = edges_[m->name.name];
        if (std::find(names_.begin(), names_.end(), m->name.name) == names_.end())
          names_.push_back(m->name.name);
        for (const ExprPtr& r : m->requires_) add(*r, "its requires", out);
        for (const Rule* r : game_.rules)
          for (const MoveRef& on : r->on)
            if (on.move.name == m->name.name)
              add(*r->condition, fmt::format("the rule '{}' on it", r->name.name), out);
        // Board rules are tested in the state after the block: legality plays the block.
        if (board_rules) {
          add_block(m->body, "its block (played to test the board rules)", out);
          for (const Rule* r : game_.rules)
            if (r->on.empty())
              add(*r->condition, fmt::format("the board rule '{}'", r->name.name), out);
        }
      }
    }
    // Depth-first from each name in declaration order; a use that reaches back into the
    // path closes a cycle, reported once at that use.
    std::map<std::string, int> state;  // 0 new, 1 on the path, 2 done
    std::vector<std::pair<std::string, const CanUse*>> path;
    std::function<void(const std::string&)> visit = [&](const std::string& name) {
      state[name] = 1;
      for (const CanUse& u : edges_[name]) {
        if (!edges_.count(u.target)) continue;
        path.push_back({name, &u});
        if (state[u.target] == 1) report(path, u.target);
        else if (state[u.target] == 0) visit(u.target);
        path.pop_back();
      }
      state[name] = 2;
    };
    for (const std::string& name : names_)
      if (state[name] == 0) visit(name);
  }

 private:
  void report(const std::vector<std::pair<std::string, const CanUse*>>& path,
              const std::string& target) {
    size_t first = 0;
    while (first < path.size() && path[first].first != target) ++first;
    const CanUse& closing = *path.back().second;
    if (!reported_.insert({closing.span.file, closing.span.begin}).second) return;
    std::string chain;
    for (size_t i = first; i < path.size(); ++i) {
      const CanUse& u = *path[i].second;
      chain += fmt::format("{}whether '{}' is legal asks can({}) in {}", i == first ? "" : ", ",
                           path[i].first, u.target, u.via);
    }
    Diagnostic& d = diags_.error(closing.span, fmt::format("can({}) depends on itself: {}",
                                                           target, chain));
    for (size_t i = first; i + 1 < path.size(); ++i)
      d.notes.push_back({path[i].second->span, fmt::format("can({}) asked here", path[i].second->target)});
    d.hint = fmt::format(
        "a move's legality may not ask can() about itself, even in a later state (it need not "
        "ever finish); write what can({}) stands for as a define that does not ask can()",
        target);
  }

  void add_block(const Block& b, const std::string& via, std::vector<CanUse>& out) {
    for (const StmtPtr& s : b) {
      if (!s) continue;
      if (s->target) add(*s->target, via, out);
      if (s->value) add(*s->value, via, out);
      for (const Binding& x : s->binders)
        if (x.domain) add(*x.domain, via, out);
      if (s->where) add(*s->where, via, out);
      add_block(s->body, via, out);
      add_block(s->otherwise, via, out);
      // A called action's body runs here (recursion is an error of its own).
      if (const Action* a = game_.called_action(*s); a && inlining_.insert(a).second) {
        add_block(a->body, via, out);
        inlining_.erase(a);
      }
    }
  }

  /// The can() uses `e` reaches, through the defines it reads.
  void add(const Expr& e, const std::string& via, std::vector<CanUse>& out) {
    std::vector<CanUse> found;
    collect(e, found);
    for (CanUse& u : found) {
      u.via = via;
      out.push_back(std::move(u));
    }
  }

  void collect(const Expr& e, std::vector<CanUse>& out) {
    if (e.kind == ExprKind::Call && e.args.size() >= 2) {
      const Symbol* s = game_.referent(*e.args[0]);
      if (s && s->kind == NameKind::Builtin && s->builtin && s->builtin->id == BuiltinId::Can &&
          e.args[1]->kind == ExprKind::Name)
        out.push_back({e.args[1]->ident.name, e.span, ""});
    }
    if (e.kind == ExprKind::Name) {
      const Symbol* s = game_.referent(e);
      if (s && s->kind == NameKind::Define && s->decl) {
        if (const auto* d = std::get_if<Define>(&s->decl->body); d && d->body) {
          auto it = define_uses_.find(d);
          if (it == define_uses_.end()) {
            // Define cycles are errors of their own; an entry made first stops them here.
            it = define_uses_.emplace(d, std::vector<CanUse>{}).first;
            std::vector<CanUse> uses;
            collect(*d->body, uses);
            define_uses_[d] = std::move(uses);
            it = define_uses_.find(d);
          }
          for (const CanUse& u : it->second) out.push_back(u);
        }
      }
    }
    for (const ExprPtr& a : e.args)
      if (a) collect(*a, out);
    for (const Binding& b : e.binders)
      if (b.domain) collect(*b.domain, out);
    if (e.where) collect(*e.where, out);
    for (const GridKey& k : e.grid.keys)
      if (k.value) collect(*k.value, out);
  }

  const Game& game_;
  Diagnostics& diags_;
  std::map<std::string, std::vector<CanUse>> edges_;
  std::vector<std::string> names_;
  std::unordered_map<const Define*, std::vector<CanUse>> define_uses_;
  std::set<std::pair<size_t, size_t>> reported_;
  std::set<const Action*> inlining_;
};

}  // namespace

void check_can_cycles(const Game& game, Diagnostics& diags) { CanCycles(game, diags).run(); }

}  // namespace rulebook::dsl
