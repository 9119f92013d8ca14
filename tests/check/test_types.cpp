// Unit tests of semantic types and the built-in table: printing, equality, assignability, join.
#include <catch2/catch.hpp>

#include "dsl/builtins.h"
#include "dsl/types.h"

using namespace rulebook::dsl;

TEST_CASE("types print as messages show them", "[types]") {
  CHECK(to_string(set_of(cell_type())) == "set of Cell");
  CHECK(to_string(range_type(0, 9)) == "0..9");
  CHECK(to_string(range_type(-3, 3)) == "-3..3");
  CHECK(to_string(optional_of(player_type())) == "Player?");
  CHECK(to_string(int_type()) == "int");
  CHECK(to_string(map_of(cell_type(), optional_of(range_type(1, 9)))) == "Cell -> 1..9?");
  CHECK(to_string(set_of(set_of(cell_type()))) == "set of set of Cell");
  CHECK(to_string(seq_of(map_of(player_type(), bool_type()))) == "seq of (Player -> bool)");
  CHECK(to_string(optional_of(set_of(point_type()))) == "(set of Point)?");
  CHECK(to_string(enum_type("", {"red", "blue"})) == "{red, blue}");
  CHECK(to_string(enum_type("Colour", {"red", "blue"})) == "Colour");
  CHECK(to_string(orientation_type()) == "Orientation");
  CHECK(to_string(record_type({"n", "c"}, {range_type(1, 9), cell_type()})) == "{n: 1..9, c: Cell}");
  CHECK(to_string(tuple_of({int_type(), bool_type()})) == "[int, bool]");
  CHECK(to_string(function_of({cell_type(), int_type()}, bool_type())) == "(Cell, int) -> bool");
}

TEST_CASE("optional of optional collapses", "[types]") {
  TypeRef t = optional_of(optional_of(cell_type()));
  CHECK(to_string(t) == "Cell?");
  CHECK(same_type(t, optional_of(cell_type())));
}

TEST_CASE("type equality is structural", "[types]") {
  CHECK(same_type(set_of(cell_type()), set_of(cell_type())));
  CHECK_FALSE(same_type(set_of(cell_type()), set_of(point_type())));
  CHECK(same_type(range_type(0, 9), range_type(0, 9)));
  CHECK_FALSE(same_type(range_type(0, 9), range_type(1, 9)));
  CHECK_FALSE(same_type(range_type(0, 9), int_type()));
  // Enums compare by their members: an inline enum equals a named one with the same list.
  CHECK(same_type(enum_type("A", {"x", "y"}), enum_type("", {"x", "y"})));
  CHECK_FALSE(same_type(enum_type("A", {"x", "y"}), enum_type("A", {"y", "x"})));
  CHECK_FALSE(same_type(record_type({"a"}, {int_type()}), record_type({"b"}, {int_type()})));
}

TEST_CASE("assignability follows the spec", "[types]") {
  // Range ints assign to int, and ints to ranges (bounds are checked where values are known).
  CHECK(assignable(range_type(0, 9), int_type()));
  CHECK(assignable(int_type(), range_type(0, 9)));
  // none to any optional; T to T?.
  CHECK(assignable(none_type(), optional_of(cell_type())));
  CHECK_FALSE(assignable(none_type(), cell_type()));
  CHECK(assignable(cell_type(), optional_of(cell_type())));
  CHECK_FALSE(assignable(optional_of(cell_type()), cell_type()));
  CHECK_FALSE(assignable(cell_type(), player_type()));
  CHECK_FALSE(assignable(int_type(), bool_type()));
  // Collections element-wise; the empty set fits every set.
  CHECK(assignable(set_of(any_type()), set_of(cell_type())));
  CHECK(assignable(map_of(cell_type(), player_type()), map_of(cell_type(), optional_of(player_type()))));
  CHECK_FALSE(assignable(set_of(cell_type()), seq_of(cell_type())));
  // A tuple literal fits a sequence whose element fits every entry.
  CHECK(assignable(tuple_of({int_type(), range_type(0, 3)}), seq_of(int_type())));
  CHECK_FALSE(assignable(tuple_of({int_type(), cell_type()}), seq_of(int_type())));
  // Error types fit everywhere, so one mistake gives one message.
  CHECK(assignable(error_type(), cell_type()));
  CHECK(assignable(cell_type(), set_of(error_type())));
}

TEST_CASE("join finds the common type of branches and elements", "[types]") {
  CHECK(to_string(join(range_type(0, 3), range_type(2, 9))) == "0..9");
  CHECK(to_string(join(range_type(0, 3), int_type())) == "int");
  CHECK(to_string(join(none_type(), player_type())) == "Player?");
  CHECK(to_string(join(optional_of(player_type()), player_type())) == "Player?");
  CHECK(to_string(join(set_of(any_type()), set_of(cell_type()))) == "set of Cell");
  CHECK(join(cell_type(), player_type()) == nullptr);
  CHECK(is_error(join(error_type(), cell_type())));
}

TEST_CASE("finiteness: every int must be a range", "[types]") {
  CHECK(is_finite(map_of(cell_type(), optional_of(range_type(1, 9)))));
  CHECK(is_finite(record_type({"a"}, {bool_type()})));
  TypeRef culprit;
  CHECK_FALSE(is_finite(map_of(player_type(), int_type()), &culprit));
  REQUIRE(culprit);
  CHECK(to_string(culprit) == "int");
}

TEST_CASE("element types of binder domains", "[types]") {
  CHECK(to_string(element_type(set_of(cell_type()))) == "Cell");
  CHECK(to_string(element_type(seq_of(player_type()))) == "Player");
  CHECK(to_string(element_type(map_of(cell_type(), int_type()))) == "Cell");
  CHECK(element_type(int_type()) == nullptr);
}

TEST_CASE("the built-in table", "[types][builtins]") {
  const Builtin* orth = find_builtin("orth");
  REQUIRE(orth);
  CHECK(orth->is_function);
  CHECK(arity_text(*orth) == "1");
  CHECK(to_string(orth->signatures[0]) == "(Cell) -> set of Cell");

  const Builtin* can = find_builtin("can");
  REQUIRE(can);
  CHECK(arity_text(*can) == "1 or 2");
  CHECK(can->time == BuiltinTime::Play);

  const Builtin* mover = find_builtin("mover");
  REQUIRE(mover);
  CHECK_FALSE(mover->is_function);
  CHECK(mover->time == BuiltinTime::Mover);
  CHECK(to_string(mover->signatures[0]) == "Player");

  CHECK(to_string(find_builtin("cell")->signatures[0]) == "(int, int) -> Cell?");
  CHECK(to_string(find_builtin("rows")->signatures[0]) == "set of set of Cell");
  CHECK(to_string(find_builtin("segment")->signatures[0]) == "(Cell, Orientation, int) -> set of Cell");
  CHECK(find_builtin("size")->signatures.size() == 3);
  CHECK(find_builtin("no_such_thing") == nullptr);

  // Every name is unique and every id is in the table once.
  std::vector<std::string> names = builtin_names();
  std::sort(names.begin(), names.end());
  CHECK(std::adjacent_find(names.begin(), names.end()) == names.end());
  CHECK(builtin(BuiltinId::Vertical).name == "vertical");

  CHECK(to_string(region_set_type()) == "set of set of Cell");
  CHECK(to_string(region_function_type()) == "(Cell) -> set of Cell");
}
