// The one table of built-in names (geometry, players, mover, can, ...) and their signatures.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "dsl/types.h"

namespace rulebook::dsl {

/// Every built-in name of docs/language.md; the compiler switches on these.
enum class BuiltinId {
  // board geometry
  Width, Height, Cells, Rows, Columns, Lines, Row, Column, X, Y, CellAt, Orth, Diag, King,
  Edge, CornerCells, Points, InnerPoints, RimPoints, Corners, Around, Segment, Ends,
  // sets and numbers
  Size, Components, LargestGroup, Abs, Min, Max,
  // players and teams
  Players, Seat, Next, Out, Teams, TeamOf, Members, Mover, Can,
  // members of the built-in enum Orientation
  Horizontal, Vertical,
};

/// When a built-in's value is known.
enum class BuiltinTime {
  Constant,  ///< fixed once the board and players are known (usable in `param`)
  Play,      ///< depends on the state of play (`out`, `can`)
  Mover,     ///< depends on the player to move: only where there is one (`mover`)
};

struct Builtin {
  BuiltinId id;
  std::string_view name;
  bool is_function = false;
  /// A value: one entry, its type. A function: one Function type per overload; type
  /// variables (`T`) stand for any type and must match consistently.
  std::vector<TypeRef> signatures;
  BuiltinTime time = BuiltinTime::Constant;
  std::string_view meaning;  ///< one line, for summaries and hover text
};

/// The table, in the order of docs/language.md.
const std::vector<Builtin>& builtins();
/// The built-in called `name`, or null.
const Builtin* find_builtin(std::string_view name);
const Builtin& builtin(BuiltinId id);
/// Every built-in name (for "did you mean" suggestions).
std::vector<std::string> builtin_names();
/// "1", "1 or 2", "3": the argument counts a built-in function accepts, for messages.
std::string arity_text(const Builtin& b);

/// A `regions NAME = ...` declaration names two things: NAME, the set of its regions ...
TypeRef region_set_type();
/// ... and NAME(c), the region holding cell c.
TypeRef region_function_type();

/// What a name in an expression can refer to.
enum class NameKind {
  Builtin, Param, State, Setup, Define, DefineParam, MoveParam, RuleParam, ScoreVar,
  Binder, Let, EnumMember, Player, Team, Region, Phase, Move, Action, ActionParam,
};

/// The designer's word for a kind of name, as messages use it ("state", "param", ...).
std::string_view name_kind_word(NameKind kind);

}  // namespace rulebook::dsl
