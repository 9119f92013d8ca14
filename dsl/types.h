// Semantic types of the rule language: construction, equality, assignability, printing.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rulebook::dsl {

enum class TypeTag {
  Error,     // the type of an expression that already has an error (suppresses cascades)
  Any,       // the element type of `{}` and `[]`: fits every type
  None,      // the type of the literal `none`
  Bool,
  Int,       // int, or a range lo..hi
  String,    // a string literal (file paths, descriptions)
  Enum,      // { a, b, c }, also the built-in Orientation
  Record,    // { f: T, g: U }
  Cell,
  Point,
  Player,
  Team,
  Phase,
  Move,      // a move name, as the argument of can(...)
  Optional,  // T?
  Set,       // set of T
  Seq,       // seq of T
  Map,       // K -> V
  Tuple,     // [a, b, ...] with different element types (scores)
  Function,  // (params) -> result: defines, regions, built-ins
  Var,       // a type variable in a built-in signature (`size(set of T)`)
};

struct Type;
/// Types are immutable and shared; compare them with the functions below, not by pointer.
using TypeRef = std::shared_ptr<const Type>;

struct Type {
  TypeTag tag = TypeTag::Error;
  bool has_range = false;            ///< Int: bounded by lo..hi (inclusive)
  int64_t lo = 0, hi = 0;
  std::string name;                  ///< Enum: its type name ("" inline); Var: the variable
  std::vector<std::string> members;  ///< Enum members; Record field names
  std::vector<TypeRef> elems;        ///< Record fields; Optional/Set/Seq: [T]; Map: [K, V];
                                     ///< Tuple: elements; Function: parameters
  TypeRef result;                    ///< Function

  bool is(TypeTag t) const { return tag == t; }
  /// The element (Optional/Set/Seq), key (Map) or value type.
  const TypeRef& elem() const { return elems[0]; }
  const TypeRef& key() const { return elems[0]; }
  const TypeRef& value() const { return elems[1]; }
};

// ---------------------------------------------------------------- construction

TypeRef error_type();
TypeRef any_type();
TypeRef none_type();
TypeRef bool_type();
TypeRef int_type();
TypeRef range_type(int64_t lo, int64_t hi);
TypeRef string_type();
TypeRef cell_type();
TypeRef point_type();
TypeRef player_type();
TypeRef team_type();
TypeRef phase_type();
TypeRef move_type();
/// `Orientation` = {horizontal, vertical}.
TypeRef orientation_type();
TypeRef enum_type(std::string name, std::vector<std::string> members);
TypeRef record_type(std::vector<std::string> fields, std::vector<TypeRef> types);
/// `T?`; an optional of an optional (or of none) collapses to one optional.
TypeRef optional_of(TypeRef t);
TypeRef set_of(TypeRef t);
TypeRef seq_of(TypeRef t);
TypeRef map_of(TypeRef key, TypeRef value);
TypeRef tuple_of(std::vector<TypeRef> elems);
TypeRef function_of(std::vector<TypeRef> params, TypeRef result);
TypeRef type_var(std::string name);

/// The built-in type named `name` (Cell, Point, Player, Team, Phase, Orientation), or null.
TypeRef builtin_type(std::string_view name);

// ---------------------------------------------------------------- relations

/// Structural equality; ranges must match too; enums compare by their member lists.
bool same_type(const TypeRef& a, const TypeRef& b);
/// Error or containing Error: no further diagnostics should be reported about it.
bool is_error(const TypeRef& t);
bool is_int(const TypeRef& t);
/// A value of `from` may be stored where `to` is expected: equal types; any int to any
/// int (ranges are checked when the value is known); `none` to any optional; `T` to `T?`;
/// collections element-wise; a tuple to a sequence whose element fits every entry.
bool assignable(const TypeRef& from, const TypeRef& to);
/// The least type both fit (for set literals, `if` branches, `==`), or null when none:
/// int and 0..9 join to int; T and none join to T?.
TypeRef join(const TypeRef& a, const TypeRef& b);
/// Removes one level of `?`.
TypeRef strip_optional(const TypeRef& t);
/// True when every int inside is a range (state, setup and move parameter types).
/// On false, `culprit` (when given) is set to the first unbounded part.
bool is_finite(const TypeRef& t, TypeRef* culprit = nullptr);
/// The element type when `t` can be iterated by a binder (`x in S`): sets, sequences,
/// tuples (joined), map keys. Null otherwise.
TypeRef element_type(const TypeRef& t);

/// As messages show it: `set of Cell`, `0..9`, `Player?`, `Cell -> int`, `{red, blue}`.
std::string to_string(const TypeRef& t);

}  // namespace rulebook::dsl
