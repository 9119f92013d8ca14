// Properties over moves against brute force: every state and every legal move of a tiny
// mill game is played by the interpreter, and the verifier's per-case verdicts (bounds,
// finds, proofs) must agree; a broken copy that lets a move form more mills must raise
// the bound and refute the claim with a counterexample the interpreter confirms.
#include <fstream>
#include <map>
#include <sstream>
#include <string>

#include <catch2/catch.hpp>

#include "compiler/interp/interpret.h"
#include "compiler/lower/lower.h"
#include "verifier/verify.h"

using namespace rulebook;

namespace {

const std::string kTiny = std::string(RULEBOOK_SOURCE_DIR) + "/tests/verify/tiny_mills.rules";

std::string slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::optional<ir::Program> load_text(const std::string& path, const std::string& text, dsl::SourceSet& sources) {
  dsl::Diagnostics diags;
  auto p = compiler::load_program_text(path, text, sources, diags);
  REQUIRE_FALSE(diags.has_errors());
  return p;
}

const verifier::Result& named(const std::vector<verifier::Result>& rs, const std::string& n) {
  for (const auto& r : rs)
    if (r.name == n) return r;
  FAIL("no result " << n);
  return rs.front();
}

const ir::StateVar& var(const ir::Program& p, const std::string& name) {
  for (const auto& v : p.vars)
    if (v.name == name) return v;
  FAIL("no variable " << name);
  return p.vars.front();
}

/// Plays one instance of `move` from `state` with the interpreter: the state after its
/// body, or nullopt when the instance is not legal (or its body errs).
std::optional<std::vector<uint8_t>> play(const compiler::Interpreter& m, int move, const std::vector<uint8_t>& state,
                                         const std::vector<int32_t>& args) {
  const ir::Move& mv = m.program().moves[size_t(move)];
  std::vector<uint8_t> after = state;
  compiler::Evaluator run(m);
  run.start(after.data(), std::max(mv.locals, 1) + 8);
  bool legal = false;
  if (!run.legal(move, args.data(), legal).ok || !legal) return std::nullopt;
  for (size_t i = 0; i < args.size(); ++i) run.set_local(int(i), args[i]);
  if (!run.exec(mv.body).ok) return std::nullopt;
  return after;
}

/// The property's value in the state after move `mi` of the property, parameters `args`.
int64_t value_after(const compiler::Interpreter& m, const ir::Property& prop, size_t mi,
                    std::vector<uint8_t> after, const std::vector<int32_t>& args) {
  compiler::Evaluator run(m);
  run.start(after.data(), std::max(prop.locals, 1) + 8);
  const auto& mp = prop.move_params[mi];
  for (size_t s = 0; s < mp.size(); ++s)
    if (mp[s] >= 0) run.set_local(int(s), args[size_t(mp[s])]);
  int64_t v = 0;
  const engine::Status st = run.scalar(*prop.expr, v);
  INFO(st.message);
  REQUIRE(st.ok);
  return v;
}

std::optional<int64_t> played(const compiler::Interpreter& m, const ir::Property& prop, size_t mi,
                              const std::vector<uint8_t>& state, const std::vector<int32_t>& args) {
  auto after = play(m, prop.moves[mi], state, args);
  if (!after) return std::nullopt;
  return value_after(m, prop, mi, *after, args);
}

struct Brute {
  int64_t lo = INT64_MAX, hi = INT64_MIN;
  bool any = false, all = true;
};

/// Every owner assignment of the board, the mover and phase set for each move, every
/// parameter tuple: per property, the values it takes after each legal move of its own.
std::map<std::string, Brute> brute(const ir::Program& p, const dsl::SourceSet& sources) {
  compiler::Interpreter m(p, sources);
  const ir::StateVar& owner = var(p, "owner");
  const uint32_t cells = uint32_t(p.domains[size_t(owner.keys[0])].size);
  const uint32_t values = p.domains[size_t(owner.domain)].size;
  std::vector<uint8_t> state(p.state_bytes, 0);
  std::map<std::string, Brute> out;
  uint64_t boards = 1;
  for (uint32_t c = 0; c < cells; ++c) boards *= values;
  for (size_t move = 0; move < p.moves.size(); ++move) {
    const ir::Move& mv = p.moves[move];
    REQUIRE(mv.params.size() == 2);
    for (uint64_t n = 0; n < boards; ++n) {
      uint64_t rest = n;
      for (uint32_t c = 0; c < cells; ++c) {
        ir::store_index(state.data(), owner, c, uint32_t(rest % values));
        rest /= values;
      }
      ir::store_index(state.data(), p.vars[ir::kVarPhase], 0, uint32_t(mv.phase));
      for (int32_t from = 0; from < int32_t(cells); ++from)
        for (int32_t to = 0; to < int32_t(cells); ++to) {
          auto after = play(m, int(move), state, {from, to});
          if (!after) continue;
          for (const ir::Property& prop : p.properties)
            for (size_t mi = 0; mi < prop.moves.size(); ++mi) {
              if (prop.moves[mi] != int(move)) continue;
              const int64_t v = value_after(m, prop, mi, *after, {from, to});
              Brute& b = out[prop.name];
              b.lo = std::min(b.lo, v);
              b.hi = std::max(b.hi, v);
              b.any = b.any || v != 0;
              b.all = b.all && v != 0;
            }
        }
    }
  }
  return out;
}

void agree(const ir::Program& p, const dsl::SourceSet& sources, const std::vector<verifier::Result>& rs) {
  const std::map<std::string, Brute> all = brute(p, sources);
  for (const ir::Property& prop : p.properties) {
    const Brute b = all.at(prop.name);
    const auto& r = named(rs, prop.name);
    INFO(prop.name << ": " << verifier::result_text(r, false) << " brute force: " << b.lo << ".." << b.hi);
    if (prop.kind == ir::PropertyKind::Prove) CHECK(r.verdict == (b.all ? verifier::Verdict::Proved : verifier::Verdict::Refuted));
    if (prop.kind == ir::PropertyKind::Find) CHECK(r.verdict == (b.any ? verifier::Verdict::Found : verifier::Verdict::None));
    if (prop.kind == ir::PropertyKind::Bound) {
      REQUIRE(r.verdict == verifier::Verdict::Bound);
      CHECK(*r.value == (prop.maximize ? b.hi : b.lo));
      REQUIRE(r.board);
    }
  }
}

/// The instance a witness names (`p1 plays jump(r0c1, r2c3)`), replayed by the interpreter:
/// the property's value after it.
std::optional<int64_t> replay(const ir::Program& p, const dsl::SourceSet& sources, const ir::Property& prop,
                              const verifier::Board& board) {
  compiler::Interpreter m(p, sources);
  const auto open = board.move.find('(');
  const std::string name = board.move.substr(board.move.rfind(' ', open) + 1, open - board.move.rfind(' ', open) - 1);
  for (size_t mi = 0; mi < prop.moves.size(); ++mi) {
    const ir::Move& mv = p.moves[size_t(prop.moves[mi])];
    if (mv.name != name) continue;
    std::vector<int32_t> args;
    size_t at = open + 1;
    for (const auto& param : mv.params) {
      const size_t end = board.move.find_first_of(",)", at);
      const std::string text = board.move.substr(at, end - at);
      at = board.move.find_first_not_of(", ", end);
      const auto& d = p.domains[size_t(param.domain)];
      for (uint32_t i = 0; i < d.size; ++i)
        if (ir::value_text(p.domains, param.domain, ir::domain_value(p.domains, param.domain, i)) == text)
          args.push_back(int32_t(i));
    }
    REQUIRE(args.size() == mv.params.size());
    return played(m, prop, mi, board.state, args);
  }
  FAIL("the witness names no move of the property: " << board.move);
  return std::nullopt;
}

}  // namespace

TEST_CASE("bounds, finds and proofs over moves agree with playing every move of a tiny board") {
  dsl::SourceSet sources;
  auto p = load_text(kTiny, slurp(kTiny), sources);
  verifier::Options o;
  o.timeout_seconds = 30;
  auto rs = verifier::verify(*p, sources, o);
  agree(*p, sources, rs);
  // Each witness, replayed by the interpreter, is a legal move reaching the bound.
  for (const ir::Property& prop : p->properties) {
    const auto& r = named(rs, prop.name);
    if (prop.kind != ir::PropertyKind::Bound || !r.board) continue;
    INFO(prop.name << ": " << r.board->move);
    auto v = replay(*p, sources, prop, *r.board);
    REQUIRE(v);
    CHECK(*v == *r.value);
  }
}

TEST_CASE("a broken copy where pairs count as mills raises the bound and refutes the claim") {
  std::string text = slurp(kTiny);
  const std::string triple = "segment(s, o, 3)";
  auto at = text.find(triple);
  REQUIRE(at != std::string::npos);
  text.replace(at, triple.size(), "segment(s, o, 2)");
  at = text.find("size(triple(s, o)) == 3");
  REQUIRE(at != std::string::npos);
  text.replace(at, std::string("size(triple(s, o)) == 3").size(), "size(triple(s, o)) == 2");
  dsl::SourceSet sources;
  auto p = load_text(std::string(RULEBOOK_BINARY_DIR) + "/tests/verify/tiny_mills_pairs.rules", text, sources);
  verifier::Options o;
  o.timeout_seconds = 30;
  auto rs = verifier::verify(*p, sources, o);
  agree(*p, sources, rs);
  const auto& most = named(rs, "most_mills");
  REQUIRE(most.verdict == verifier::Verdict::Bound);
  CHECK(*most.value > 3);  // pairs: up to four through one cell
  const auto& claim = named(rs, "at_most_two");
  REQUIRE(claim.verdict == verifier::Verdict::Refuted);
  REQUIRE(claim.board);
  for (const ir::Property& prop : p->properties)
    if (prop.name == "at_most_two") {
      auto v = replay(*p, sources, prop, *claim.board);
      REQUIRE(v);
      CHECK(*v == 0);  // the counterexample's move breaks the claim
    }
}

TEST_CASE("encoding a move's instances is part of the time limit: out of it, unknown and why") {
  dsl::SourceSet sources;
  auto p = load_text(kTiny, slurp(kTiny), sources);
  verifier::Options o;
  o.timeout_seconds = 1e-6;  // spent before the first 64 of a move's 144 instances are encoded
  auto rs = verifier::verify(*p, sources, o);
  size_t over_moves = 0;
  for (const ir::Property& prop : p->properties) {
    if (prop.moves.empty()) continue;
    ++over_moves;
    const auto& r = named(rs, prop.name);
    INFO(prop.name << ": " << r.detail);
    CHECK(r.verdict == verifier::Verdict::Unknown);
    CHECK(r.detail.find("ran out while encoding move") != std::string::npos);
    CHECK(r.detail.find("of its 144 instances encoded") != std::string::npos);
  }
  CHECK(over_moves == 6);
}
