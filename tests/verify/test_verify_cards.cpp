// The card game's yellow cards in a line: a table built by hand with all nine yellow cards in
// the centre row, read by the interpreter (the engines' own evaluation of the state bytes)
// against the bound's own set (`legal_table`) and value (`most_yellows_in_a_line`). So the
// text's "at most 4" is not the maximum over legal tables: nine yellow cards exist, one per
// number, and this table lines them all up.
#include <optional>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "compiler/interp/interpret.h"
#include "compiler/lower/lower.h"
#include "verifier/verify.h"

using namespace rulebook;

namespace {

struct Table {
  dsl::SourceSet sources;
  std::optional<ir::Program> p;
  const ir::Property* bound = nullptr;
  const ir::StateVar* table = nullptr;
  std::vector<uint8_t> state;

  Table() {
    dsl::Diagnostics diags;
    p = compiler::load_program(std::string(RULEBOOK_SOURCE_DIR) + "/variants/sudoku-cards/cards.rules", sources, diags);
    REQUIRE(p);
    for (const auto& q : p->properties)
      if (q.name == "most_yellow_in_line") bound = &q;
    for (const auto& v : p->vars)
      if (v.name == "table") table = &v;
    REQUIRE(bound);
    REQUIRE(bound->where);
    REQUIRE(table);
    state.assign(p->state_bytes, 0);  // every cell empty (index 0: none)
  }
  /// Lays card (number, yellow) on row y, column x.
  void lay(int y, int x, int number, bool yellow) {
    const ir::Domain& opt = p->domains[size_t(table->domain)];
    const ir::Domain& card = p->domains[size_t(opt.inner)];
    uint32_t index = 0;
    for (size_t f = 0; f < card.fields.size(); ++f)
      index += uint32_t(card.field_names[f] == "number" ? number - 1 : yellow ? 1 : 0) * card.strides[f];
    store_index(state.data(), *table, uint32_t(y * p->geometry.width + x), index + 1);
  }
  std::pair<bool, int64_t> read() {
    compiler::Interpreter interpreter(*p, sources);
    compiler::Evaluator run(interpreter);
    run.start(state.data());
    int64_t where = 0, value = 0;
    REQUIRE(run.scalar(*bound->where, where).ok);
    REQUIRE(run.scalar(*bound->expr, value).ok);
    return {where != 0, value};
  }
};

/// Yellow cards 1..9 on the yellow spots of the centre row (columns 0, 2, ..., 16); the row
/// above holds a non-yellow card at columns 0..8, the row below at columns 8..16, so the
/// table is connected through them; every row, column and 3x3 square around a yellow card
/// holds different numbers, and each non-yellow number is used twice.
void build(Table& t) {
  const int above[9] = {2, 3, 4, 5, 6, 7, 8, 9, 1};  // row 7, columns 0..8
  const int below[9] = {2, 3, 4, 5, 6, 9, 7, 1, 8};  // row 9, columns 8..16
  for (int k = 0; k < 9; ++k) t.lay(8, 2 * k, k + 1, true);
  for (int k = 0; k < 9; ++k) t.lay(7, k, above[k], false);
  for (int k = 0; k < 9; ++k) t.lay(9, 8 + k, below[k], false);
}

}  // namespace

TEST_CASE("the card game: a legal table with nine yellow cards in one row") {
  Table t;
  REQUIRE(t.p->geometry.width == 17);
  build(t);
  const auto [legal, most] = t.read();
  CHECK(legal);
  CHECK(most == 9);
}

TEST_CASE("the card game: the same table with a repeated number is not legal") {
  Table t;
  build(t);
  t.lay(7, 1, 1, false);  // beside the yellow 1, in its square and in row 7 with another 1
  CHECK_FALSE(t.read().first);
  Table u;
  build(u);
  u.lay(5, 0, 3, false);  // a card that touches nothing (its number repeats nowhere): the table falls apart
  CHECK_FALSE(u.read().first);
}

TEST_CASE("the card game: the bound of yellow cards in a line is 9, with a witness, and nothing exceeds it") {
  // The bound starts from the witness of the find over the stated table (a narrower set)
  // and proves that no legal table has 10; the witness is read again by the interpreter.
  Table t;
  verifier::Options o;
  o.timeout_seconds = 120;
  o.only = {"most_yellow_in_line"};
  const auto rs = verifier::verify(*t.p, t.sources, o);
  const verifier::Result* r = nullptr;
  for (const auto& x : rs)
    if (x.name == "most_yellow_in_line") r = &x;
  REQUIRE(r);
  INFO(verifier::result_text(*r, false));
  REQUIRE(r->verdict == verifier::Verdict::Bound);
  CHECK(*r->value == 9);
  CHECK(r->detail.find("the witness of find nine_yellows_in_a_line, checked") != std::string::npos);
  REQUIRE(r->board);
  t.state = r->board->state;
  const auto [legal, most] = t.read();
  CHECK(legal);
  CHECK(most == 9);
}
