// Evaluator::remember_defines (a define of no parameter evaluated once per state, as
// `explore --observe` reads a state) against the plain evaluator on random programs: every
// define of no parameter or of one over a finite type, on states reached by random play,
// gives the same value or the same error either way, whatever order the calls come in.
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "compiler/interp/interpret.h"
#include "compiler/lower/lower.h"
#include "explorer/symmetry.h"
#include "tests/random/program_gen.h"

using namespace rulebook;

TEST_CASE("random programs: defines remembered per state give what the plain evaluator gives",
          "[random][interp]") {
  uint64_t compared = 0, nullary = 0, errors = 0;
  for (uint64_t seed = 1; seed <= 80; ++seed) {
    const testing::GeneratedProgram gp = testing::generate_program(seed);
    dsl::SourceSet sources;
    dsl::Diagnostics diags;
    auto p = compiler::load_program_text("random.rules", gp.text, sources, diags);
    INFO("seed " << seed << "\n" << gp.text);
    REQUIRE(p);
    compiler::Interpreter engine(*p, sources);
    std::vector<uint8_t> root(p->state_bytes);
    if (!engine.setup(root.data(), engine::Setup{}).ok) continue;
    const std::vector<std::vector<uint8_t>> samples = explorer::sample_states(engine, root.data(), 12, 1000, seed);
    compiler::Evaluator plain(engine), remembering(engine);
    remembering.remember_defines(true);
    // Calls in the order of the defines, then again backwards: a value remembered from an
    // earlier call must be the one a fresh evaluation gives.
    std::vector<std::pair<int, int64_t>> calls;  // define, argument index (-1: none)
    for (size_t f = 0; f < p->functions.size(); ++f) {
      const ir::Function& fn = p->functions[f];
      if (fn.params.empty()) {
        calls.emplace_back(int(f), -1);
        ++nullary;
      } else if (fn.params.size() == 1 && fn.params[0]->kind == ir::Type::Kind::Scalar && fn.params[0]->domain >= 0) {
        const uint32_t n = std::min<uint32_t>(p->domains[size_t(fn.params[0]->domain)].size, 16);
        for (uint32_t i = 0; i < n; ++i) calls.emplace_back(int(f), int64_t(i));
      }
    }
    std::vector<std::pair<int, int64_t>> order = calls;
    order.insert(order.end(), calls.rbegin(), calls.rend());
    for (const std::vector<uint8_t>& s : samples) {
      std::vector<uint8_t> a(s), b(s);
      a.resize(p->state_bytes + 8, 0);
      b.resize(p->state_bytes + 8, 0);
      remembering.start(b.data());
      for (const auto& [f, i] : order) {
        const ir::Function& fn = p->functions[size_t(f)];
        std::vector<compiler::interp::Value> args;
        if (i >= 0) {
          args.emplace_back();
          args.back().scalar = ir::domain_value(p->domains, fn.params[0]->domain, i);
        }
        plain.start(a.data());
        compiler::interp::Value va, vb;
        const engine::Status sa = plain.call(f, args, va), sb = remembering.call(f, args, vb);
        INFO(fn.name << " argument " << i);
        REQUIRE(sa.ok == sb.ok);
        if (sa.ok) CHECK(va == vb);
        else {
          CHECK(sa.message == sb.message);
          ++errors;
        }
        ++compared;
      }
      CHECK(a == b);  // nothing wrote the state
    }
  }
  INFO(compared << " calls compared, " << nullary << " defines of no parameter, " << errors << " errors");
  CHECK(compared > 10000);
  CHECK(nullary > 50);
}
