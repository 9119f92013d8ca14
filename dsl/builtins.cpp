// The built-in table: names, signatures and when each value is known.
#include "dsl/builtins.h"

#include <algorithm>

namespace rulebook::dsl {

namespace {

TypeRef fn(std::vector<TypeRef> params, TypeRef result) {
  return function_of(std::move(params), std::move(result));
}

Builtin value(BuiltinId id, std::string_view name, TypeRef type, std::string_view meaning,
              BuiltinTime time = BuiltinTime::Constant) {
  return Builtin{id, name, false, {std::move(type)}, time, meaning};
}

Builtin function(BuiltinId id, std::string_view name, std::vector<TypeRef> overloads,
                 std::string_view meaning, BuiltinTime time = BuiltinTime::Constant) {
  return Builtin{id, name, true, std::move(overloads), time, meaning};
}

std::vector<Builtin> make_table() {
  const TypeRef cell = cell_type(), point = point_type(), num = int_type();
  const TypeRef cells = set_of(cell), groups = set_of(set_of(cell)), points = set_of(point);
  const TypeRef player = player_type(), team = team_type();
  const TypeRef t = type_var("T"), u = type_var("U");
  using B = BuiltinId;
  return {
      value(B::Width, "width", num, "number of columns"),
      value(B::Height, "height", num, "number of rows"),
      value(B::Cells, "cells", cells, "every cell"),
      value(B::Rows, "rows", groups, "the rows, each a set of cells"),
      value(B::Columns, "columns", groups, "the columns, each a set of cells"),
      value(B::Lines, "lines", groups, "rows and columns"),
      function(B::Row, "row", {fn({cell}, cells)}, "the row through a cell"),
      function(B::Column, "column", {fn({cell}, cells)}, "the column through a cell"),
      function(B::X, "x", {fn({cell}, num), fn({point}, num)}, "column index, from 0"),
      function(B::Y, "y", {fn({cell}, num), fn({point}, num)}, "row index, from 0"),
      function(B::CellAt, "cell", {fn({num, num}, optional_of(cell))},
               "the cell at (y, x), or none off the board"),
      function(B::Orth, "orth", {fn({cell}, cells)}, "the 4 orthogonal neighbours"),
      function(B::Diag, "diag", {fn({cell}, cells)}, "the 4 diagonal neighbours"),
      function(B::King, "king", {fn({cell}, cells)}, "the 8 neighbours"),
      value(B::Edge, "edge", cells, "cells on the board's rim"),
      value(B::CornerCells, "corner_cells", cells, "the four corner cells"),
      value(B::Points, "points", points, "every crossing of grid lines"),
      value(B::InnerPoints, "inner_points", points, "crossings inside the board"),
      value(B::RimPoints, "rim_points", points, "crossings on the rim"),
      function(B::Corners, "corners", {fn({cell}, points)}, "the four crossings around a cell"),
      function(B::Around, "around", {fn({point}, cells)}, "the cells touching a crossing"),
      function(B::Segment, "segment", {fn({cell, orientation_type(), num}, cells)},
               "n cells from c rightward or downward (empty if off the board)"),
      function(B::Ends, "ends", {fn({cell, orientation_type(), num}, cells)},
               "the two tip cells of a segment"),
      function(B::Size, "size",
               {fn({set_of(t)}, num), fn({seq_of(t)}, num), fn({map_of(t, u)}, num)},
               "number of elements"),
      function(B::Components, "components", {fn({cells}, groups)},
               "orthogonally connected groups"),
      function(B::LargestGroup, "largest_group", {fn({cells}, num)},
               "size of the largest orthogonal group (0 if empty)"),
      function(B::Abs, "abs", {fn({num}, num)}, "absolute value"),
      function(B::Min, "min", {fn({num, num}, num)}, "the smaller of two numbers"),
      function(B::Max, "max", {fn({num, num}, num)}, "the larger of two numbers"),
      value(B::Players, "players", set_of(player), "every player"),
      function(B::Seat, "seat", {fn({player}, num)}, "a player's seat, from 1"),
      function(B::Next, "next", {fn({player}, player)}, "the next player in seat order"),
      function(B::Out, "out", {fn({player}, bool_type())}, "the player is eliminated",
               BuiltinTime::Play),
      value(B::Teams, "teams", set_of(team), "every team"),
      function(B::TeamOf, "team_of", {fn({player}, team)}, "a player's team"),
      function(B::Members, "members", {fn({team}, set_of(player))}, "a team's players"),
      value(B::Mover, "mover", player, "the player to move", BuiltinTime::Mover),
      function(B::Can, "can",
               {fn({move_type()}, bool_type()), fn({move_type(), player}, bool_type())},
               "the move has a legal instance (for the mover, or for a player)",
               BuiltinTime::Play),
      value(B::Horizontal, "horizontal", orientation_type(), "an Orientation"),
      value(B::Vertical, "vertical", orientation_type(), "an Orientation"),
  };
}

}  // namespace

const std::vector<Builtin>& builtins() {
  static const std::vector<Builtin> table = make_table();
  return table;
}

const Builtin* find_builtin(std::string_view name) {
  for (const auto& b : builtins())
    if (b.name == name) return &b;
  return nullptr;
}

const Builtin& builtin(BuiltinId id) {
  for (const auto& b : builtins())
    if (b.id == id) return b;
  return builtins().front();  // unreachable: every id is in the table
}

std::vector<std::string> builtin_names() {
  std::vector<std::string> names;
  for (const auto& b : builtins()) names.emplace_back(b.name);
  return names;
}

std::string arity_text(const Builtin& b) {
  std::vector<size_t> counts;
  for (const auto& s : b.signatures)
    if (std::find(counts.begin(), counts.end(), s->elems.size()) == counts.end())
      counts.push_back(s->elems.size());
  std::sort(counts.begin(), counts.end());
  std::string text;
  for (size_t i = 0; i < counts.size(); ++i) {
    if (i) text += i + 1 == counts.size() ? " or " : ", ";
    text += std::to_string(counts[i]);
  }
  return text;
}

TypeRef region_set_type() { return set_of(set_of(cell_type())); }
TypeRef region_function_type() { return function_of({cell_type()}, set_of(cell_type())); }

std::string_view name_kind_word(NameKind kind) {
  switch (kind) {
    case NameKind::Builtin: return "built-in";
    case NameKind::Param: return "param";
    case NameKind::State: return "state";
    case NameKind::Setup: return "setup";
    case NameKind::Define: return "define";
    case NameKind::DefineParam: return "define parameter";
    case NameKind::MoveParam: return "move parameter";
    case NameKind::RuleParam: return "rule parameter";
    case NameKind::ScoreVar: return "score variable";
    case NameKind::Binder: return "bound variable";
    case NameKind::Let: return "let";
    case NameKind::EnumMember: return "enum member";
    case NameKind::Player: return "player";
    case NameKind::Team: return "team";
    case NameKind::Region: return "regions";
    case NameKind::Phase: return "phase";
    case NameKind::Move: return "move";
    case NameKind::Action: return "action";
    case NameKind::ActionParam: return "action parameter";
  }
  return "name";
}

}  // namespace rulebook::dsl
