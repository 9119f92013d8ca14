// The checker's pass over properties: finds, bounds, invariants, proofs, depends and
// puzzles, each in the context of the boards it ranges over.
#include <algorithm>
#include <set>

#include <fmt/format.h>

#include "dsl/check_internal.h"

namespace rulebook::dsl {

void Checker::check_property(const Property& p) {
  ContextScope scope(*this, play_context(false, "a property"));
  auto property_names = [&] {
    std::vector<std::string> names;
    for (const Property* q : game_.properties)
      if (!q->name.name.empty()) names.push_back(q->name.name);
    return names;
  };
  switch (p.kind) {
    case PropertyKind::Depends: {
      const std::string& target = p.subject.name.empty() ? p.name.name : p.subject.name;
      Span span = p.subject.name.empty() ? p.name.span : p.subject.span;
      bool found = std::any_of(game_.properties.begin(), game_.properties.end(), [&](auto* q) {
        return q != &p && q->kind != PropertyKind::Depends && q->name.name == target;
      });
      if (!found) unknown("property", target, span, property_names());
      return;
    }
    case PropertyKind::Redundant: {
      bool found = std::any_of(game_.rules.begin(), game_.rules.end(),
                               [&](const Rule* r) { return r->name.name == p.subject.name; });
      if (!found) {
        std::vector<std::string> names;
        for (const Rule* r : game_.rules) names.push_back(r->name.name);
        unknown("rule", p.subject.name, p.subject.span, names);
      }
      return;
    }
    case PropertyKind::Consistent:
      return;
    case PropertyKind::Puzzle:
      check_puzzle(p);
      return;
    default:
      break;
  }
  push_scope();
  const PropertySet& over = p.over;
  if (over.play && p.kind == PropertyKind::Lemma) {
    error(p.name.span, fmt::format("a lemma over play: the verifier's other questions range over boards, where "
                                   "lemma '{}' is not known to hold", p.name.name))
        .hint = "state it with 'prove ... over play', or as a lemma over boards";
  }
  if (!over.moves && !over.phase.name.empty() && !game_.phase(over.phase.name)) {
    unknown("phase", over.phase.name, over.phase.span, phase_names());
  }
  for (const Ident& m : over.move_names) {
    std::vector<const Move*> moves = moves_named(m.name);
    if (moves.empty()) unknown("move", m.name, m.span, move_names());
  }
  // Over moves, the parameters every one of those moves has (same name, same type) are in
  // scope: `bound b over moves step, jump: max gained(from, to, mover)`.
  if (over.moves) {
    std::vector<const Move*> moves;
    if (over.move_names.empty()) {
      for (const auto& ph : game_.phases) moves.insert(moves.end(), ph.moves.begin(), ph.moves.end());
    }
    for (const Ident& m : over.move_names)
      for (const Move* mv : moves_named(m.name)) moves.push_back(mv);
    auto param_type = [&](const ParamDecl& pd) {
      auto it = game_.type_exprs.find(pd.type.get());
      return it != game_.type_exprs.end() ? it->second : resolve_type(*pd.type);
    };
    if (!moves.empty()) {
      const Move* first = moves.front();
      for (size_t i = 0; i < first->params.size(); ++i) {
        const ParamDecl& pd = first->params[i];
        TypeRef t = param_type(pd);
        bool common = std::all_of(moves.begin() + 1, moves.end(), [&](const Move* other) {
          return std::any_of(other->params.begin(), other->params.end(), [&](const ParamDecl& q) {
            return q.name.name == pd.name.name && same_type(param_type(q), t);
          });
        });
        if (!common) continue;
        Symbol s;
        s.name = pd.name.name;
        s.kind = NameKind::MoveParam;
        s.type = t;
        s.span = pd.name.span;
        s.move = first;
        s.index = static_cast<int>(i);
        declare_local(std::move(s));
      }
    }
  }
  for (const auto& fixed : over.setups) {
    const auto& name = fixed.first;
    const auto& entry = fixed.second;
    // Only a data-file setup is fixed in the file: its value is then one entry, named by number.
    const auto it = std::find_if(game_.setups.begin(), game_.setups.end(),
                                 [&](const Setup* s) { return s->name.name == name.name; });
    if (it == game_.setups.end()) {
      std::vector<std::string> names;
      for (const Setup* s : game_.setups) names.push_back(s->name.name);
      unknown("setup value", name.name, name.span, names);
    } else if ((*it)->source != SetupSource::File) {
      error(name.span, fmt::format("'with' fixes a setup value read from a data file; '{}' is not one", name.name));
    }
    constant_int(*entry, "the entry number");
  }
  if (over.where) expect_bool(*over.where);
  if (p.expr) {
    if (p.kind == PropertyKind::Bound) {
      expect(*p.expr, int_type());
    } else if (p.kind == PropertyKind::Derive) {
      // The verifier derives one value of a finite type at a time, not a collection.
      const TypeRef t = check(*p.expr);
      if (over.play && !is_error(t) && !t->is(TypeTag::Int) && !t->is(TypeTag::Bool))
        error(p.expr->span, fmt::format("derive over play needs a number or a truth value, found {}", to_string(t)))
            .hint = "derive a number of it ('x(c)', 'if e == v then 1 else 0'), or derive it over boards";
      else if (!is_error(t) && (t->is(TypeTag::Set) || t->is(TypeTag::Seq) || t->is(TypeTag::Map) || t->is(TypeTag::Tuple)))
        error(p.expr->span, fmt::format("derive needs a single value, found {}", to_string(t))).hint =
            "derive its size ('size(...)'), or one derive per element ('x in ...') or key";
    } else {
      expect_bool(*p.expr);
    }
  }
  pop_scope();
}

}  // namespace rulebook::dsl
