// Game trees: node counts per depth equal perft without merging and the number of states
// first reached at each depth (found by a separate set-based search) with merging; the
// breadth limit's summaries; DOT, JSON and Graphviz SVG well-formed and deterministic.
#include <set>

#include <nlohmann/json.hpp>

#include "explorer/perft.h"
#include "explorer/tree.h"
#include "render_test_util.h"

using namespace rulebook;
using rulebook::test::load_variant;
using rulebook::test::occurrences;
using rulebook::test::xml_problem;

namespace {

std::vector<uint8_t> start(const test::Loaded& l, std::vector<std::pair<std::string, std::string>> values = {}) {
  std::vector<uint8_t> s(l.program->state_bytes);
  engine::Setup setup;
  setup.values = std::move(values);
  REQUIRE(l.engine->setup(s.data(), setup).ok);
  return s;
}

/// States whose shortest path from the root has d moves, for d = 0..depth.
std::vector<uint64_t> first_reached(const engine::Engine& e, const std::vector<uint8_t>& root, int depth) {
  std::set<std::vector<uint8_t>> seen{root}, layer{root};
  std::vector<uint64_t> out{1};
  std::vector<engine::Move> moves;
  for (int d = 1; d <= depth; ++d) {
    std::set<std::vector<uint8_t>> next;
    for (const auto& s : layer) {
      if (e.terminal(s.data())) continue;
      moves.clear();
      REQUIRE(e.legal_moves(s.data(), moves).ok);
      for (const auto& m : moves) {
        std::vector<uint8_t> c = s;
        REQUIRE(e.apply(c.data(), m).ok);
        next.insert(c);
      }
    }
    uint64_t fresh = 0;
    std::set<std::vector<uint8_t>> fresh_layer;
    for (const auto& s : next)
      if (seen.insert(s).second) ++fresh, fresh_layer.insert(s);
    out.push_back(fresh);
    layer = std::move(fresh_layer);
  }
  return out;
}

}  // namespace

TEST_CASE("an unmerged tree has perft's nodes at every depth") {
  struct Case { const char* file; std::vector<std::pair<std::string, std::string>> setup; int depth; };
  for (const Case& c : {Case{"sudoku-fill/fill-4x4.rules", {}, 4},
                        Case{"garnsi-malom/garnsi-6x6.rules", {{"blocked", "r0c0,r5c5"}}, 3},
                        Case{"sudoku-moyo/moyo.rules", {}, 2}}) {
    INFO(c.file);
    auto l = load_variant(c.file);
    const auto root = start(*l, c.setup);
    explorer::TreeOptions o;
    o.depth = c.depth;
    explorer::GameTree t = explorer::build_tree(*l->engine, root.data(), o);
    REQUIRE(t.status.ok);
    explorer::PerftResult pr = explorer::perft(*l->engine, root.data(), c.depth);
    REQUIRE(pr.status.ok);
    REQUIRE(t.nodes_at_depth.size() == size_t(c.depth) + 1);
    CHECK(t.nodes_at_depth[0] == 1);
    uint64_t total = 1;
    for (int d = 1; d <= c.depth; ++d) {
      CHECK(t.nodes_at_depth[size_t(d)] == pr.paths[size_t(d - 1)]);
      total += pr.paths[size_t(d - 1)];
    }
    CHECK(boost::num_vertices(t.graph) == total);
    CHECK(boost::num_edges(t.graph) == total - 1);
  }
}

TEST_CASE("a merged tree has one node per state, at its first depth") {
  for (const char* file : {"sudoku-fill/fill-4x4.rules", "garnsi-malom/garnsi-6x6.rules"}) {
    INFO(file);
    auto l = load_variant(file);
    const auto root = start(*l, std::string(file).find("6x6") != std::string::npos
                                    ? std::vector<std::pair<std::string, std::string>>{{"blocked", "r0c0,r5c5"}}
                                    : std::vector<std::pair<std::string, std::string>>{});
    const int depth = 3;
    explorer::TreeOptions o;
    o.depth = depth;
    o.merge = true;
    explorer::GameTree t = explorer::build_tree(*l->engine, root.data(), o);
    REQUIRE(t.status.ok);
    const std::vector<uint64_t> expected = first_reached(*l->engine, root, depth);
    CHECK(t.nodes_at_depth == expected);
    // Every path is still an edge: the edges number the paths of the last unmerged level.
    explorer::TreeOptions u = o;
    u.merge = false;
    explorer::GameTree full = explorer::build_tree(*l->engine, root.data(), u);
    CHECK(boost::num_edges(t.graph) <= boost::num_edges(full.graph));
    CHECK(boost::num_vertices(t.graph) <= boost::num_vertices(full.graph));
  }
  // Two players placing stones: a, b, c and c, b, a reach one state at depth 3.
  auto l = load_variant("sudoku-moyo/moyo.rules");
  const auto root = start(*l);
  explorer::TreeOptions o;
  o.depth = 3;
  o.merge = true;
  explorer::GameTree t = explorer::build_tree(*l->engine, root.data(), o);
  REQUIRE(t.status.ok);
  CHECK(t.nodes_at_depth == first_reached(*l->engine, root, 3));
  explorer::PerftResult pr = explorer::perft(*l->engine, root.data(), 3);
  CHECK(t.nodes_at_depth[3] < pr.paths[2]);
}

TEST_CASE("the breadth limit folds the other moves into one summary") {
  auto l = load_variant("garnsi-malom/garnsi-6x6.rules");
  const auto root = start(*l, {{"blocked", "r0c0,r5c5"}});
  explorer::TreeOptions o;
  o.depth = 2;
  o.breadth = 3;
  explorer::GameTree t = explorer::build_tree(*l->engine, root.data(), o);
  REQUIRE(t.status.ok);
  // 34 empty usable cells: 3 shown + "+31 more"; each shown child has 33 moves: 3 + "+30 more".
  CHECK(t.graph[0].legal == 34);
  CHECK(boost::num_vertices(t.graph) == 1 + 4 + 3 * 4);
  uint64_t summaries = 0, left_out = 0;
  for (size_t v = 0; v < boost::num_vertices(t.graph); ++v)
    if (t.graph[v].state.empty()) ++summaries, left_out += t.graph[v].more;
  CHECK(summaries == 4);
  CHECK(left_out == 31 + 3 * 30);

  const std::string dot = explorer::tree_dot(t, *l->engine, *l->program, {9, "a \"title\""});
  CHECK(occurrences(dot, " -> ") == boost::num_edges(t.graph));
  CHECK(dot == explorer::tree_dot(t, *l->engine, *l->program, {9, "a \"title\""}));
  nlohmann::json j = nlohmann::json::parse(explorer::tree_json(t, *l->engine));
  CHECK(j["nodes"].size() == boost::num_vertices(t.graph));
  CHECK(j["edges"].size() == boost::num_edges(t.graph));
  std::string svg, again;
  REQUIRE(explorer::render_dot(dot, "svg", svg).ok);
  REQUIRE(explorer::render_dot(dot, "svg", again).ok);
  CHECK(svg == again);
  CHECK(svg.rfind("<svg", 0) == 0);
  CHECK(svg.find("<!--") == std::string::npos);
  CHECK(xml_problem(svg) == "");
  CHECK(occurrences(svg, "class=\"node\"") == boost::num_vertices(t.graph));
  std::string png;
  REQUIRE(explorer::render_dot(dot, "png", png).ok);
  CHECK(png.substr(1, 3) == "PNG");
  std::string bad;
  CHECK_FALSE(explorer::render_dot("digraph {", "svg", bad).ok);
}
