// Properties over play (verifier/play.cpp, explorer/play_search.h): each verdict and value
// read a second time by a breadth-first enumeration of its own over the interpreter (every
// state play reaches, each property evaluated on it), with the interpreter and with the
// compiled engine searching; and Engine::observe of the two engines compared on every state.
#include <catch2/catch.hpp>

#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "compiler/interp/interpret.h"
#include "compiler/load/load_engine.h"
#include "compiler/lower/lower.h"
#include "verifier/verify.h"
#include "verify_testing.h"

using namespace rulebook;
using verify_testing::named;

namespace {

const std::string kFile = std::string(RULEBOOK_SOURCE_DIR) + "/tests/verify/play_marks.rules";

struct Loaded {
  dsl::SourceSet sources;
  std::shared_ptr<const ir::Program> program;
};

Loaded load() {
  Loaded l;
  auto p = verify_testing::load(kFile, l.sources);
  l.program = std::make_shared<const ir::Program>(std::move(*p));
  return l;
}

/// Every state play reaches from the setup (seed 1), breadth first.
std::vector<std::vector<uint8_t>> reachable(const compiler::Interpreter& in) {
  std::vector<uint8_t> start(in.info().state_bytes);
  REQUIRE(in.setup(start.data(), engine::Setup{}).ok);
  std::set<std::vector<uint8_t>> seen{start};
  std::vector<std::vector<uint8_t>> order{start};
  for (size_t i = 0; i < order.size(); ++i) {
    const std::vector<uint8_t> s = order[i];
    if (in.terminal(s.data())) continue;
    std::vector<engine::Move> moves;
    REQUIRE(in.legal_moves(s.data(), moves).ok);
    for (const engine::Move& m : moves) {
      std::vector<uint8_t> t = s;
      REQUIRE(in.apply(t.data(), m).ok);
      if (seen.insert(t).second) order.push_back(t);
    }
  }
  return order;
}

/// What the enumeration says of one property: the values of its expression on the states
/// of its set (phase and where read by the interpreter's evaluator, not by observe).
struct Seen {
  std::set<int64_t> values;
  size_t in_set = 0;
};

Seen read(const ir::Program& p, const compiler::Interpreter& in, const ir::Property& prop,
          const std::vector<std::vector<uint8_t>>& states) {
  Seen out;
  for (std::vector<uint8_t> s : states) {
    compiler::Evaluator run(in);
    run.start(s.data(), std::max(64, prop.locals + 1));
    if (prop.phase >= 0 && in.phase(s.data()) != prop.phase) continue;
    if (prop.where && !verify_testing::truth(run, *prop.where)) continue;
    int64_t v = 0;
    REQUIRE(run.scalar(*prop.expr, v).ok);
    ++out.in_set;
    out.values.insert(v);
  }
  (void)p;
  return out;
}

void check_against(const std::vector<verifier::Result>& rs, const ir::Program& p, const compiler::Interpreter& in,
                   const std::vector<std::vector<uint8_t>>& states) {
  using V = verifier::Verdict;
  for (const ir::Property& prop : p.properties) {
    if (!prop.over_play) continue;
    const verifier::Result& r = named(rs, prop.name);
    INFO(prop.name << ": " << verifier::result_text(r, false));
    const Seen seen = read(p, in, prop, states);
    REQUIRE(seen.in_set > 0);
    switch (prop.kind) {
      case ir::PropertyKind::Prove:
      case ir::PropertyKind::Criterion:
        CHECK(r.verdict == (seen.values.count(0) ? V::Refuted : V::Proved));
        break;
      case ir::PropertyKind::Find:
        CHECK(r.verdict == (seen.values.count(1) ? V::Found : V::None));
        break;
      case ir::PropertyKind::Bound:
        REQUIRE(r.verdict == V::Bound);
        CHECK(*r.value == (prop.maximize ? *seen.values.rbegin() : *seen.values.begin()));
        break;
      case ir::PropertyKind::Derive:
        CHECK(r.verdict == (seen.values.size() == 1 ? V::Derived : V::NotConstant));
        if (seen.values.size() == 1) CHECK(*r.value == *seen.values.begin());
        break;
      default:
        FAIL("a kind the file does not use over play");
    }
    // A board shown is one the search reached, with its line: played again it is the board.
    if (r.board) {
      REQUIRE(r.reach);
      CHECK(r.reach->reached);
      std::vector<uint8_t> s(in.info().state_bytes);
      REQUIRE(in.setup(s.data(), engine::Setup{}).ok);
      for (const std::string& text : r.reach->line) {
        std::vector<engine::Move> moves;
        REQUIRE(in.legal_moves(s.data(), moves).ok);
        bool played = false;
        for (const engine::Move& m : moves)
          if (in.move_text(m) == text) {
            REQUIRE(in.apply(s.data(), m).ok);
            played = true;
            break;
          }
        REQUIRE(played);
      }
      CHECK(s == r.board->state);
    }
  }
}

compiler::CompileOptions test_cache() {
  compiler::CompileOptions o;
  o.cache_dir = std::string(RULEBOOK_BINARY_DIR) + "/tests/emit/engine-cache";
  return o;
}

}  // namespace

TEST_CASE("properties over play agree with an enumeration of every state play reaches") {
  Loaded l = load();
  const compiler::Interpreter in(*l.program, l.sources);
  const auto states = reachable(in);
  CHECK(states.size() == 5833);
  verifier::Options o;
  const auto rs = verifier::verify(*l.program, l.sources, o);
  check_against(rs, *l.program, in, states);
  // The same file's prove over boards is refuted: a board need not occur in play.
  CHECK(named(rs, "balanced_boards").verdict == verifier::Verdict::Refuted);
  CHECK(named(rs, "balanced").verdict == verifier::Verdict::Proved);
  // The bounds whose value only falls (rises) along a move cut states off; the crosses rise.
  CHECK(named(rs, "most_empty_rows_at_four").detail.find("not expanded by the bound") != std::string::npos);
  CHECK(named(rs, "fewest_marks_at_end").detail.find("not expanded by the bound") != std::string::npos);
  CHECK(named(rs, "most_crosses").detail.find("not expanded") == std::string::npos);
}

TEST_CASE("the compiled engine reads properties over play as the interpreter does") {
  Loaded l = load();
  const compiler::Interpreter in(*l.program, l.sources);
  compiler::LoadedEngine le = compiler::load_engine(l.program, l.sources, test_cache());
  INFO(le.status.message);
  REQUIRE(le.engine);
  const auto states = reachable(in);
  size_t compared = 0;
  for (size_t i = 0; i < l.program->properties.size(); ++i) {
    if (!l.program->properties[i].over_play) continue;
    for (const auto& s : states)
      for (bool value_only : {false, true}) {
        bool in_a = false, in_b = false;
        int64_t a = 0, b = 0;
        REQUIRE(in.observe(s.data(), int(i), value_only, in_a, a).ok);
        REQUIRE(le.engine->observe(s.data(), int(i), value_only, in_b, b).ok);
        CHECK(in_a == in_b);
        CHECK(a == b);
        ++compared;
      }
  }
  CHECK(compared == 2 * 5833 * 9);  // nine properties over play
  // Another property is not one the engines read.
  bool inside = false;
  int64_t v = 0;
  CHECK_FALSE(le.engine->observe(states[0].data(), 1, false, inside, v).ok);
  CHECK_FALSE(in.observe(states[0].data(), 1, false, inside, v).ok);

  verifier::Options o;
  o.play_engine = le.engine.get();
  const auto rs = verifier::verify(*l.program, l.sources, o);
  check_against(rs, *l.program, in, states);
}

TEST_CASE("a search of play that its budget stops says what it saw, not a verdict") {
  Loaded l = load();
  verifier::Options o;
  o.play_states = 50;
  o.only = {"balanced", "most_crosses", "row_of_four_marks", "lead_at_end"};
  const auto rs = verifier::verify(*l.program, l.sources, o);
  for (const std::string& n : o.only) {
    const verifier::Result& r = named(rs, n);
    INFO(verifier::result_text(r, false));
    CHECK(r.verdict == verifier::Verdict::Unknown);
    CHECK(r.detail.find("state budget reached (50 states)") != std::string::npos);
  }
}

TEST_CASE("the checker refuses a lemma over play and a derive over play of a value that is not a number") {
  const std::string head = R"(game "g";
board 2 x 2;
players 1;
state mark: Cell -> bool;
phase play {
  move put(c: Cell) requires not mark[c]; { mark[c] := true; }
  until (all c in cells: mark[c]) -> end;
}
)";
  for (const auto& [extra, message] : std::vector<std::pair<std::string, std::string>>{
           {"lemma l over play: true;", "a lemma over play"},
           {"derive d over play: cell(0, 0);", "derive over play needs a number or a truth value"}}) {
    dsl::SourceSet sources;
    dsl::Diagnostics diags;
    auto p = compiler::load_program_text("g.rules", head + extra, sources, diags);
    const std::string text = diags.render(sources);
    INFO(text);
    CHECK(diags.has_errors());
    CHECK(text.find(message) != std::string::npos);
  }
}
