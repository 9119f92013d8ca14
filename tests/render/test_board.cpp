// Board diagrams: well-formed and deterministic SVG for every shipped variant, and what the
// model shows checked against the state read another way (owner counts, blocked cells,
// captures, the SMYOZ identity 2*KK + 4 = VP through annotations).
#include <filesystem>

#include "compiler/runtime/random.h"
#include "explorer/metrics.h"
#include "render/annotate.h"
#include "render/board.h"
#include "render/chart.h"
#include "render_test_util.h"

using namespace rulebook;
using rulebook::test::load_variant;
using rulebook::test::occurrences;
using rulebook::test::xml_problem;

namespace {

const ir::StateVar& var_named(const ir::Program& p, const std::string& name) {
  for (const auto& v : p.vars)
    if (v.name == name) return v;
  FAIL("no variable " << name);
  return p.vars[0];
}

}  // namespace

TEST_CASE("every variant's boards are well-formed, deterministic SVG") {
  std::vector<std::string> files;
  for (const auto& e : std::filesystem::recursive_directory_iterator(std::string(RULEBOOK_SOURCE_DIR) + "/variants"))
    if (e.path().extension() == ".rules")
      files.push_back(std::filesystem::relative(e.path(), std::string(RULEBOOK_SOURCE_DIR) + "/variants").string());
  std::sort(files.begin(), files.end());
  REQUIRE(files.size() >= 5);
  for (const std::string& f : files) {
    INFO(f);
    auto l = load_variant(f);
    explorer::GameEnd g = explorer::seeded_game(*l->engine, 7, 12);
    REQUIRE(g.status.ok);
    render::DrawOptions o;
    o.title = "a <title> & more";
    if (g.plies) o.last = render::LastMove{g.last, g.before.data()};
    const std::string svg = render::board_svg(*l->program, g.after.data(), o);
    CHECK(xml_problem(svg) == "");
    CHECK(svg.rfind("<svg", 0) == 0);
    CHECK(svg == render::board_svg(*l->program, g.after.data(), o));
    const std::string text = render::board_text(*l->program, g.after.data(), o);
    // Title, one line per row, then the legend.
    CHECK(occurrences(text, "\n") >= size_t(l->program->geometry.height) + 1);
    const std::string label = render::board_html_label(*l->program, g.after.data(), 8);
    CHECK(xml_problem(label) == "");
    CHECK(occurrences(label, "<TD") == size_t(l->program->geometry.width * l->program->geometry.height));
  }
}

TEST_CASE("pieces, blocked cells and regions are the state's") {
  auto l = load_variant("garnsi-malom/garnsi-6x6.rules");
  const ir::Program& p = *l->program;
  std::vector<uint8_t> s(p.state_bytes);
  engine::Setup setup;
  setup.values = {{"blocked", "r0c0,r5c5"}};
  REQUIRE(l->engine->setup(s.data(), setup).ok);
  render::BoardModel m = render::board_model(p, s.data());
  REQUIRE(m.cells.size() == 36);
  for (size_t c = 0; c < 36; ++c) CHECK(m.cells[c].blocked == (c == 0 || c == 35));
  CHECK(m.main_var == "owner");
  // Six boxes of 2 x 3: region changes between columns 2|3 and rows 1|2, 3|4.
  CHECK(m.region_of[0] == m.region_of[2]);
  CHECK(m.region_of[2] != m.region_of[3]);
  CHECK(m.region_of[6] == m.region_of[0]);
  CHECK(m.region_of[12] != m.region_of[0]);

}

TEST_CASE("one disc per piece, captures crossed, along a game with captures") {
  // garnsi-9 seed 1 captures within 400 plies (rulebook play shows capture moves).
  auto l = load_variant("garnsi-malom/garnsi-9.rules");
  const ir::Program& p = *l->program;
  const ir::StateVar& owner = var_named(p, "owner");
  const uint32_t cells = owner.count;
  auto pieces = [&](const std::vector<uint8_t>& st) {
    int n = 0;
    for (uint32_t c = 0; c < cells; ++c) n += ir::load_index(st.data(), owner, c) != 0;
    return n;
  };
  std::vector<uint8_t> state(p.state_bytes), before;
  engine::Setup setup;
  setup.seed = 1;
  REQUIRE(l->engine->setup(state.data(), setup).ok);
  SplitMix64 rng(1);
  std::vector<engine::Move> moves;
  int captures = 0;
  for (int ply = 0; ply < 400 && !l->engine->terminal(state.data()); ++ply) {
    moves.clear();
    REQUIRE(l->engine->legal_moves(state.data(), moves).ok);
    const engine::Move m = moves[rng.below(moves.size())];
    before = state;
    REQUIRE(l->engine->apply(state.data(), m).ok);
    render::LastMove last{m, before.data()};
    render::BoardModel bm = render::board_model(p, state.data(), &last);
    int discs = 0, crossed = 0;
    for (const auto& cv : bm.cells) discs += cv.player >= 0, crossed += cv.captured;
    CHECK(discs == pieces(state));
    // A move places a piece, moves one, or captures: the drop in pieces beyond a
    // placement is what was captured.
    const int placed = p.moves[size_t(m.kind)].name == "place" ? 1 : 0;
    CHECK(crossed == pieces(before) + placed - pieces(state));
    captures += crossed;
    if (crossed) {
      const std::string svg = render::board_svg(p, state.data(), render::DrawOptions{36, true, "", last, nullptr});
      CHECK(occurrences(svg, "<circle") == size_t(discs));
      CHECK(occurrences(svg, "stroke=\"#b00020\"") == size_t(crossed));
    }
  }
  CHECK(captures > 0);
}

TEST_CASE("annotations come from the rule file's defines") {
  auto l = load_variant("smyoz/smyoz.rules");
  render::Annotator a(*l->program, l->sources);
  int checked = 0;
  const ir::StateVar& fleet = var_named(*l->program, "fleet");
  // Random placement can get stuck; the identities hold for complete fleets (one is enough
  // here: evaluating a definition per point is slow in the interpreter).
  for (uint64_t seed = 1; seed <= 40 && checked == 0; ++seed) {
    explorer::GameEnd g = explorer::seeded_game(*l->engine, seed, 100);
    REQUIRE(g.status.ok);
    uint32_t placed = 0;
    for (uint32_t s = 0; s < fleet.count; ++s) placed += ir::load_index(g.after.data(), fleet, s) != 0;
    if (placed != fleet.count) continue;
    std::vector<render::Layer> layers(2);
    std::string error;
    REQUIRE(render::parse_layer("cells:ship_area", layers[0], error));
    REQUIRE(render::parse_layer("points:water_point_set:components", layers[1], error));
    render::Annotations n;
    REQUIRE(a.draw(layers, g.after.data(), n).ok);
    // A complete fleet covers 1*4 + 2*3 + 3*2 + 4*1 cells; its water points are 2*KK + 4.
    CHECK(n.fills.size() == 20);
    int kk_index = -1;
    for (size_t m = 0; m < l->program->metrics.size(); ++m)
      if (l->program->metrics[m].name == "moored_ships") kk_index = int(m);
    REQUIRE(kk_index >= 0);
    bool rec = false;
    int64_t kk = 0;
    REQUIRE(l->engine->metric(g.after.data(), kk_index, rec, kk).ok);
    REQUIRE(rec);
    CHECK(int64_t(n.marks.size()) == 2 * kk + 4);
    render::DrawOptions o;
    o.annotations = &n;
    const std::string svg = render::board_svg(*l->program, g.after.data(), o);
    CHECK(xml_problem(svg) == "");
    CHECK(svg == render::board_svg(*l->program, g.after.data(), o));
    ++checked;
  }
  CHECK(checked > 0);

  render::Layer bad;
  std::string error;
  REQUIRE(render::parse_layer("cells:code", bad, error));
  render::Annotations n;
  std::vector<uint8_t> s(l->program->state_bytes);
  REQUIRE(l->engine->setup(s.data(), {}).ok);
  engine::Status st = a.draw({bad}, s.data(), n);
  CHECK_FALSE(st.ok);
  CHECK(st.message.find("'code'") != std::string::npos);
  CHECK(st.message.find("set of Cell") != std::string::npos);
  REQUIRE(render::parse_layer("cells:no_such_define", bad, error));
  CHECK_FALSE(a.draw({bad}, s.data(), n).ok);
  CHECK_FALSE(render::parse_layer("blobs:ship_area", bad, error));
  CHECK(error.find("unknown kind") != std::string::npos);
}

TEST_CASE("charts are well-formed and escape their labels") {
  std::vector<render::Bar> bars{{"a<b", 0.25, 0.1, 0.4, ""}, {"c&d", 0.75, {}, {}, "#123456"}};
  render::ChartOptions o;
  o.title = "wins \"per\" player";
  o.percent = true;
  const std::string svg = render::bar_chart_svg(bars, o);
  CHECK(xml_problem(svg) == "");
  CHECK(occurrences(svg, "<rect") == 3);  // background and two bars
  CHECK(svg.find("a&lt;b") != std::string::npos);
  CHECK(xml_problem(render::bar_chart_svg({}, {})) == "");
}

TEST_CASE("a text board names the enum member a cell's shade stands for") {
  // In pictures an enum member is a shade of colour; a text board has no colour, so it
  // shows the member's short name (a cell with no value stays '.').
  const std::string text =
      "game \"T\";\nboard 2 x 2;\nplayers 1;\ntype Colour = {light, dark};\nstate colour: Cell -> Colour?;\n"
      "phase paint { move put(c: Cell, k: Colour) requires colour[c] == none; { colour[c] := k; } }\n";
  dsl::SourceSet sources;
  dsl::Diagnostics diags;
  auto p = compiler::load_program_text("t.rules", text, sources, diags);
  INFO(diags.render(sources));
  REQUIRE(p);
  std::vector<uint8_t> s(p->state_bytes, 0);
  const ir::StateVar& colour = var_named(*p, "colour");
  ir::store_index(s.data(), colour, 0, 1);  // r0c0 light (index 0 is none)
  ir::store_index(s.data(), colour, 3, 2);  // r1c1 dark
  const std::string board = render::board_text(*p, s.data(), render::DrawOptions{});
  CHECK(board.rfind(" li  .\n  . da\n", 0) == 0);
}
