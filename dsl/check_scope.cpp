// The checker's scopes and symbols (lookup, locals, unknown names with a suggestion, the
// uses a name makes) and type expressions resolved to types.
#include <algorithm>
#include <cctype>
#include <map>

#include <fmt/format.h>

#include "dsl/check_internal.h"

namespace rulebook::dsl {

std::string did_you_mean(const std::string& name, const std::vector<std::string>& candidates) {
  std::string guess = closest_name(name, candidates);
  return guess.empty() ? "" : fmt::format("did you mean '{}'?", guess);
}

// ------------------------------------------------------------------ scopes and symbols

const Symbol* Checker::lookup(const std::string& name) const {
  for (auto scope = scopes_.rbegin(); scope != scopes_.rend(); ++scope)
    for (auto it = scope->rbegin(); it != scope->rend(); ++it)
      if ((*it)->name == name) return *it;
  if (auto it = game_.globals.find(name); it != game_.globals.end()) return it->second;
  if (auto it = builtin_symbols_.find(name); it != builtin_symbols_.end()) return it->second;
  for (const Symbol* m : move_symbols_)
    if (m->name == name) return m;
  return nullptr;
}

Symbol* Checker::declare_local(Symbol s) {
  if (scopes_.empty()) push_scope();
  for (const Symbol* old : scopes_.back()) {
    if (old->name != s.name) continue;
    auto& d = error(s.span, fmt::format("'{}' is already defined", s.name));
    d.notes.push_back({old->span, "first defined here"});
    break;
  }
  Symbol* sym = add_symbol(std::move(s));
  scopes_.back().push_back(sym);
  return sym;
}

std::vector<std::string> Checker::visible_names() const {
  std::vector<std::string> names;
  for (const auto& scope : scopes_)
    for (const Symbol* s : scope) names.push_back(s->name);
  for (const auto& [name, s] : game_.globals) names.push_back(name);
  for (const auto& b : builtins()) names.emplace_back(b.name);
  for (const Symbol* m : move_symbols_) names.push_back(m->name);
  return names;
}

TypeRef Checker::record(const Expr& e, TypeRef t) {
  if (!t) t = error_type();
  game_.expr_types.emplace(&e, t);
  return t;
}

void Checker::unknown_name(const std::string& name, Span span) {
  auto& d = unknown("name", name, span, visible_names());
  // A type where a value (a set to range over) is expected.
  if (typedecls_.count(name)) {
    const TypeRef t = ensure_typedecl(name, span);
    d.hint = t && t->tag == TypeTag::Enum
                 ? fmt::format("'{}' is a type, not a value: to range over its members, list them ({{{}}})", name,
                               fmt::join(t->members, ", "))
                 : fmt::format("'{}' is a type, not a value: range over a set of its values", name);
  }
  // `r1c1` is how boards and --setup write a cell, but no name of the rules.
  int y = 0, x = 0, used = 0;
  if (d.hint.empty() && std::sscanf(name.c_str(), "r%dc%d%n", &y, &x, &used) == 2 && size_t(used) == name.size())
    d.hint = fmt::format("a cell is no name in the rules: bind it, 'some c in cells where y(c) == {} and x(c) == {}: ...', "
                         "or use cell({}, {}), a Cell? that is none off the board",
                         y, x, y, x);
}

Diagnostic& Checker::unknown(const char* what, const std::string& name, Span span,
                             const std::vector<std::string>& candidates) {
  auto& d = error(span, fmt::format("unknown {} '{}'", what, name));
  d.hint = did_you_mean(name, candidates);
  // A variant may have removed it: say where, since the base still reads as if it exists.
  for (const RemovedDecl& r : game_.loaded.removed)
    if (r.name == name)
      d.notes.push_back({r.removed_at, fmt::format("{} '{}' was removed here", r.kind, name)});
  return d;
}

void Checker::note_use(const Symbol& s, Time t, bool mover, Span use) {
  time_ = std::max(time_, t);
  setup_used_ = setup_used_ || t == Time::Setup;
  uses_mover_ = uses_mover_ || mover;
  if (mover && !ctx_.mover) {
    if (s.name == "can") {
      error(use, fmt::format("'can(m)' asks about 'mover', which is not defined in {}", ctx_.what))
          .hint = "name the player: can(m, p)";
      return;
    }
    std::string who = s.name == "mover" ? std::string("'mover'")
                                        : fmt::format("'{}' uses 'mover', which", s.name);
    error(use, fmt::format("{} is not defined in {}", who, ctx_.what)).hint =
        "'mover' is the player to move: use it in moves, rules, phases and properties";
    return;
  }
  if (t > ctx_.latest) {
    const char* when = t == Time::Play ? "changes during play" : "is chosen at setup";
    const char* why = ctx_.latest == Time::Constant ? "must be a compile-time constant"
                                                    : "is fixed before play starts";
    error(use, fmt::format("'{}' {}; {} {}", s.name, when, ctx_.what, why));
  }
}

// ------------------------------------------------------------------ types

TypeRef Checker::resolve_type(const TypeExpr& t) {
  if (auto it = game_.type_exprs.find(&t); it != game_.type_exprs.end()) return it->second;
  TypeRef r;
  switch (t.kind) {
    case TypeKind::Bool:
      r = bool_type();
      break;
    case TypeKind::Int:
      r = int_type();
      break;
    case TypeKind::Range: {
      ContextScope scope(*this, {Time::Constant, false, false, "a range bound"});
      auto lo = constant_int(*t.lo, "a range bound");
      auto hi = constant_int(*t.hi, "a range bound");
      if (!lo || !hi) {
        r = error_type();
      } else if (*lo > *hi) {
        error(t.span, fmt::format("empty range {}..{}", *lo, *hi));
        r = error_type();
      } else {
        r = range_type(*lo, *hi);
      }
      break;
    }
    case TypeKind::Enum: {
      if (!enum_of_.count(&t)) collect_types(&t, "");
      r = enum_of_[&t];
      break;
    }
    case TypeKind::Record: {
      std::vector<std::string> names;
      std::vector<TypeRef> types;
      for (size_t i = 0; i < t.members.size(); ++i) {
        if (std::find(names.begin(), names.end(), t.members[i].name) != names.end())
          error(t.members[i].span, fmt::format("field '{}' is listed twice", t.members[i].name));
        names.push_back(t.members[i].name);
        types.push_back(resolve_type(*t.elems[i]));
      }
      r = record_type(std::move(names), std::move(types));
      break;
    }
    case TypeKind::Named: {
      r = builtin_type(t.name.name);
      if (!r) r = ensure_typedecl(t.name.name, t.name.span);
      if (!r) {
        std::vector<std::string> names = {"Cell", "Point", "Player", "Team", "Phase", "Orientation"};
        for (const auto& [name, info] : typedecls_) names.push_back(name);
        error(t.name.span, fmt::format("unknown type '{}'", t.name.name)).hint =
            did_you_mean(t.name.name, names);
        r = error_type();
      }
      break;
    }
    case TypeKind::Optional:
      r = optional_of(resolve_type(*t.elems[0]));
      break;
    case TypeKind::Set:
      r = set_of(resolve_type(*t.elems[0]));
      break;
    case TypeKind::Seq:
      r = seq_of(resolve_type(*t.elems[0]));
      break;
    case TypeKind::Map:
      r = map_of(resolve_type(*t.elems[0]), resolve_type(*t.elems[1]));
      break;
  }
  game_.type_exprs[&t] = r;
  return r;
}

}  // namespace rulebook::dsl
