// Semantic types: shared singletons, structural relations and the printed form.
#include "dsl/types.h"

#include <algorithm>

namespace rulebook::dsl {

namespace {

TypeRef make(TypeTag tag) {
  auto t = std::make_shared<Type>();
  t->tag = tag;
  return t;
}

TypeRef make(TypeTag tag, std::vector<TypeRef> elems) {
  auto t = std::make_shared<Type>();
  t->tag = tag;
  t->elems = std::move(elems);
  return t;
}

// Simple types are shared so that building them costs nothing.
const TypeRef& simple(TypeTag tag) {
  static const std::vector<TypeRef> table = [] {
    std::vector<TypeRef> v;
    for (int i = 0; i <= static_cast<int>(TypeTag::Var); ++i) v.push_back(make(TypeTag(i)));
    return v;
  }();
  return table[static_cast<size_t>(tag)];
}

bool simple_tag(TypeTag tag) {
  switch (tag) {
    case TypeTag::Error: case TypeTag::Any: case TypeTag::None: case TypeTag::Bool:
    case TypeTag::String: case TypeTag::Cell: case TypeTag::Point: case TypeTag::Player:
    case TypeTag::Team: case TypeTag::Phase: case TypeTag::Move:
      return true;
    default:
      return false;
  }
}

bool same_list(const std::vector<TypeRef>& a, const std::vector<TypeRef>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (!same_type(a[i], b[i])) return false;
  return true;
}

// Set, seq and map element types that must be parenthesised when nested.
bool needs_parens(const TypeRef& t) {
  return t->is(TypeTag::Map) || t->is(TypeTag::Function);
}

std::string nested(const TypeRef& t) {
  std::string s = to_string(t);
  return needs_parens(t) ? "(" + s + ")" : s;
}

}  // namespace

TypeRef error_type() { return simple(TypeTag::Error); }
TypeRef any_type() { return simple(TypeTag::Any); }
TypeRef none_type() { return simple(TypeTag::None); }
TypeRef bool_type() { return simple(TypeTag::Bool); }
TypeRef int_type() { return simple(TypeTag::Int); }
TypeRef string_type() { return simple(TypeTag::String); }
TypeRef cell_type() { return simple(TypeTag::Cell); }
TypeRef point_type() { return simple(TypeTag::Point); }
TypeRef player_type() { return simple(TypeTag::Player); }
TypeRef team_type() { return simple(TypeTag::Team); }
TypeRef phase_type() { return simple(TypeTag::Phase); }
TypeRef move_type() { return simple(TypeTag::Move); }

TypeRef range_type(int64_t lo, int64_t hi) {
  auto t = std::make_shared<Type>();
  t->tag = TypeTag::Int;
  t->has_range = true;
  t->lo = lo;
  t->hi = hi;
  return t;
}

TypeRef orientation_type() {
  static const TypeRef t = enum_type("Orientation", {"horizontal", "vertical"});
  return t;
}

TypeRef enum_type(std::string name, std::vector<std::string> members) {
  auto t = std::make_shared<Type>();
  t->tag = TypeTag::Enum;
  t->name = std::move(name);
  t->members = std::move(members);
  return t;
}

TypeRef record_type(std::vector<std::string> fields, std::vector<TypeRef> types) {
  auto t = std::make_shared<Type>();
  t->tag = TypeTag::Record;
  t->members = std::move(fields);
  t->elems = std::move(types);
  return t;
}

TypeRef optional_of(TypeRef t) {
  if (t->is(TypeTag::Optional) || t->is(TypeTag::Error)) return t;
  if (t->is(TypeTag::None)) return optional_of(any_type());
  return make(TypeTag::Optional, {std::move(t)});
}

TypeRef set_of(TypeRef t) { return make(TypeTag::Set, {std::move(t)}); }
TypeRef seq_of(TypeRef t) { return make(TypeTag::Seq, {std::move(t)}); }
TypeRef map_of(TypeRef key, TypeRef value) {
  return make(TypeTag::Map, {std::move(key), std::move(value)});
}
TypeRef tuple_of(std::vector<TypeRef> elems) { return make(TypeTag::Tuple, std::move(elems)); }

TypeRef function_of(std::vector<TypeRef> params, TypeRef result) {
  auto t = std::make_shared<Type>();
  t->tag = TypeTag::Function;
  t->elems = std::move(params);
  t->result = std::move(result);
  return t;
}

TypeRef type_var(std::string name) {
  auto t = std::make_shared<Type>();
  t->tag = TypeTag::Var;
  t->name = std::move(name);
  return t;
}

TypeRef builtin_type(std::string_view name) {
  if (name == "Cell") return cell_type();
  if (name == "Point") return point_type();
  if (name == "Player") return player_type();
  if (name == "Team") return team_type();
  if (name == "Phase") return phase_type();
  if (name == "Orientation") return orientation_type();
  return nullptr;
}

bool same_type(const TypeRef& a, const TypeRef& b) {
  if (a == b) return true;
  if (!a || !b || a->tag != b->tag) return false;
  switch (a->tag) {
    case TypeTag::Int:
      return a->has_range == b->has_range && (!a->has_range || (a->lo == b->lo && a->hi == b->hi));
    case TypeTag::Enum:
      return a->members == b->members;
    case TypeTag::Record:
      return a->members == b->members && same_list(a->elems, b->elems);
    case TypeTag::Function:
      return same_list(a->elems, b->elems) && same_type(a->result, b->result);
    case TypeTag::Var:
      return a->name == b->name;
    default:
      return same_list(a->elems, b->elems);
  }
}

bool is_error(const TypeRef& t) {
  if (!t || t->is(TypeTag::Error)) return true;
  for (const auto& e : t->elems)
    if (is_error(e)) return true;
  return t->result && is_error(t->result);
}

bool is_int(const TypeRef& t) { return t && t->is(TypeTag::Int); }

bool assignable(const TypeRef& from, const TypeRef& to) {
  if (is_error(from) || is_error(to)) return true;
  if (from->is(TypeTag::Any) || to->is(TypeTag::Any) || to->is(TypeTag::Var)) return true;
  if (to->is(TypeTag::Optional)) {
    if (from->is(TypeTag::None)) return true;
    if (from->is(TypeTag::Optional)) return assignable(from->elem(), to->elem());
    return assignable(from, to->elem());
  }
  if (from->tag != to->tag) {
    if (from->is(TypeTag::Tuple) && to->is(TypeTag::Seq)) {
      return std::all_of(from->elems.begin(), from->elems.end(),
                         [&](const TypeRef& e) { return assignable(e, to->elem()); });
    }
    return false;
  }
  switch (from->tag) {
    case TypeTag::Int:
      return true;
    case TypeTag::Enum:
      return from->members == to->members;
    case TypeTag::Record:
      if (from->members != to->members) return false;
      break;
    case TypeTag::Function:
      return same_type(from, to);
    default:
      if (simple_tag(from->tag)) return true;
      break;
  }
  if (from->elems.size() != to->elems.size()) return false;
  for (size_t i = 0; i < from->elems.size(); ++i)
    if (!assignable(from->elems[i], to->elems[i])) return false;
  return true;
}

TypeRef strip_optional(const TypeRef& t) {
  return t && t->is(TypeTag::Optional) ? t->elem() : t;
}

TypeRef join(const TypeRef& a, const TypeRef& b) {
  if (is_error(a) || is_error(b)) return error_type();
  if (a->is(TypeTag::Any)) return b;
  if (b->is(TypeTag::Any)) return a;
  if (same_type(a, b)) return a;
  if (a->is(TypeTag::None)) return optional_of(b);
  if (b->is(TypeTag::None)) return optional_of(a);
  if (a->is(TypeTag::Optional) || b->is(TypeTag::Optional)) {
    TypeRef j = join(strip_optional(a), strip_optional(b));
    return j ? optional_of(j) : nullptr;
  }
  if (a->is(TypeTag::Int) && b->is(TypeTag::Int)) {
    if (a->has_range && b->has_range)
      return range_type(std::min(a->lo, b->lo), std::max(a->hi, b->hi));
    return int_type();
  }
  if (a->is(TypeTag::Tuple) && b->is(TypeTag::Seq)) return join(b, a);
  if (a->is(TypeTag::Seq) && b->is(TypeTag::Tuple)) {
    TypeRef e = a->elem();
    for (const auto& x : b->elems) {
      e = join(e, x);
      if (!e) return nullptr;
    }
    return seq_of(e);
  }
  if (a->tag != b->tag) return nullptr;
  switch (a->tag) {
    case TypeTag::Enum:
      return a->members == b->members ? a : nullptr;
    case TypeTag::Record:
      if (a->members != b->members) return nullptr;
      break;
    case TypeTag::Set: case TypeTag::Seq: case TypeTag::Map: case TypeTag::Tuple:
      break;
    default:
      return nullptr;
  }
  if (a->elems.size() != b->elems.size()) return nullptr;
  std::vector<TypeRef> elems;
  for (size_t i = 0; i < a->elems.size(); ++i) {
    TypeRef e = join(a->elems[i], b->elems[i]);
    if (!e) return nullptr;
    elems.push_back(e);
  }
  if (a->is(TypeTag::Record)) return record_type(a->members, std::move(elems));
  return make(a->tag, std::move(elems));
}

bool is_finite(const TypeRef& t, TypeRef* culprit) {
  if (t->is(TypeTag::Int) && !t->has_range) {
    if (culprit) *culprit = t;
    return false;
  }
  for (const auto& e : t->elems)
    if (!is_finite(e, culprit)) return false;
  return true;
}

TypeRef element_type(const TypeRef& t) {
  switch (t->tag) {
    case TypeTag::Error:
      return error_type();
    case TypeTag::Set: case TypeTag::Seq:
      return t->elem();
    case TypeTag::Map:
      return t->key();
    case TypeTag::Tuple: {
      TypeRef e = any_type();
      for (const auto& x : t->elems) {
        e = join(e, x);
        if (!e) return nullptr;
      }
      return e;
    }
    default:
      return nullptr;
  }
}

std::string to_string(const TypeRef& t) {
  if (!t) return "<error>";
  switch (t->tag) {
    case TypeTag::Error: return "<error>";
    case TypeTag::Any: return "anything";
    case TypeTag::None: return "none";
    case TypeTag::Bool: return "bool";
    case TypeTag::Int:
      return t->has_range ? std::to_string(t->lo) + ".." + std::to_string(t->hi) : "int";
    case TypeTag::String: return "string";
    case TypeTag::Cell: return "Cell";
    case TypeTag::Point: return "Point";
    case TypeTag::Player: return "Player";
    case TypeTag::Team: return "Team";
    case TypeTag::Phase: return "Phase";
    case TypeTag::Move: return "move";
    case TypeTag::Var: return t->name;
    case TypeTag::Enum: {
      if (!t->name.empty()) return t->name;
      std::string s = "{";
      for (size_t i = 0; i < t->members.size(); ++i) s += (i ? ", " : "") + t->members[i];
      return s + "}";
    }
    case TypeTag::Record: {
      std::string s = "{";
      for (size_t i = 0; i < t->members.size(); ++i)
        s += (i ? ", " : "") + t->members[i] + ": " + to_string(t->elems[i]);
      return s + "}";
    }
    case TypeTag::Optional: {
      const TypeRef& e = t->elem();
      bool wrap = e->is(TypeTag::Set) || e->is(TypeTag::Seq) || needs_parens(e);
      std::string s = to_string(e);
      return (wrap ? "(" + s + ")" : s) + "?";
    }
    case TypeTag::Set: return "set of " + nested(t->elem());
    case TypeTag::Seq: return "seq of " + nested(t->elem());
    case TypeTag::Map: return nested(t->key()) + " -> " + nested(t->value());
    case TypeTag::Tuple: {
      std::string s = "[";
      for (size_t i = 0; i < t->elems.size(); ++i) s += (i ? ", " : "") + to_string(t->elems[i]);
      return s + "]";
    }
    case TypeTag::Function: {
      std::string s = "(";
      for (size_t i = 0; i < t->elems.size(); ++i) s += (i ? ", " : "") + to_string(t->elems[i]);
      return s + ") -> " + to_string(t->result);
    }
  }
  return "<error>";
}

}  // namespace rulebook::dsl
