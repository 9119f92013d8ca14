// What the verifier's tests share: loading a rules file, finding a result, and a second,
// independent reading of a verdict by the interpreter (every fleet enumerated, or one board
// evaluated). Included after catch.hpp.
#pragma once

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "compiler/interp/interpret.h"
#include "compiler/lower/lower.h"
#include "verifier/verify.h"

namespace rulebook::verify_testing {

inline std::string slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

inline std::optional<ir::Program> load(const std::string& path, dsl::SourceSet& sources) {
  dsl::Diagnostics diags;
  auto p = compiler::load_program(path, sources, diags);
  REQUIRE(!diags.has_errors());
  return p;
}

inline const verifier::Result& named(const std::vector<verifier::Result>& rs, const std::string& n) {
  for (const auto& r : rs)
    if (r.name == n) return r;
  FAIL("no result " << n);
  return rs.front();
}

/// Whether condition `e` holds where `run` points (an error of the rules fails the test).
inline bool truth(compiler::Evaluator& run, const ir::Expr& e) {
  int64_t v = 0;
  const engine::Status st = run.scalar(e, v);
  INFO(st.message);
  REQUIRE(st.ok);
  return v != 0;
}

/// Brute force over every value of the `fleet` variable (every element, every value of
/// its domain): board rules and where as the interpreter evaluates them; returns, per
/// property, min/max/any/all of its expression.
struct Brute {
  int64_t lo = INT64_MAX, hi = INT64_MIN;
  bool any = false, all = true;
  int64_t states = 0;  ///< states in the set
};

inline Brute brute(const ir::Program& p, const dsl::SourceSet& sources, const ir::Property& prop) {
  compiler::Interpreter interpreter(p, sources);
  compiler::Evaluator run(interpreter);
  std::vector<uint8_t> state(p.state_bytes, 0);
  const ir::StateVar* fleet = nullptr;
  for (const auto& v : p.vars)
    if (v.name == "fleet") fleet = &v;
  REQUIRE(fleet);
  const uint32_t n = p.domains[size_t(fleet->domain)].size;
  const uint32_t ships = p.domains[size_t(fleet->keys.at(0))].size;
  std::vector<uint32_t> value(ships, 0);
  Brute b;
  while (true) {
    for (uint32_t i = 0; i < ships; ++i) ir::store_index(state.data(), *fleet, i, value[i]);
    run.start(state.data());
    bool in = true;
    for (const auto& r : p.rules)
      if (r.board_rule) in = in && truth(run, *r.condition);
    if (in && prop.where) in = truth(run, *prop.where);
    if (in) {
      int64_t v = 0;
      REQUIRE(run.scalar(*prop.expr, v).ok);
      b.lo = std::min(b.lo, v);
      b.hi = std::max(b.hi, v);
      b.any = b.any || v != 0;
      b.all = b.all && v != 0;
      ++b.states;
    }
    uint32_t i = 0;
    while (i < ships && ++value[i] == n) value[i++] = 0;
    if (i == ships) break;
  }
  return b;
}

/// Whether the property's expression and every board rule hold on a board, as the
/// interpreter evaluates them (a second, independent reading of the verifier's board).
inline std::pair<bool, bool> interpret_on(const ir::Program& p, const dsl::SourceSet& sources, const std::string& name,
                                   const std::vector<uint8_t>& state) {
  compiler::Interpreter interpreter(p, sources);
  compiler::Evaluator run(interpreter);
  std::vector<uint8_t> s = state;
  run.start(s.data());
  bool rules = true;
  for (const auto& r : p.rules)
    if (r.board_rule) rules = rules && truth(run, *r.condition);
  for (const auto& prop : p.properties)
    if (prop.name == name) return {rules && (!prop.where || truth(run, *prop.where)), truth(run, *prop.expr)};
  FAIL("no property " << name);
  return {false, false};
}

inline const ir::Property& property(const ir::Program& p, const std::string& name) {
  for (const auto& prop : p.properties)
    if (prop.name == name) return prop;
  FAIL("no property " << name);
  return p.properties.front();
}

}  // namespace rulebook::verify_testing
