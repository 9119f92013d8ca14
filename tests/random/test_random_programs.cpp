// Random valid rules programs from a fixed seed range: each passes check, its engine
// compiles, and the engine plays and counts exactly as the interpreter does.
#include <catch2/catch.hpp>
#include <fmt/core.h>

#include "compiler/lower/lower.h"
#include "tests/random/batch.h"

using namespace rulebook;
using namespace rulebook::testing;

namespace {

/// The seed range CI runs: 300 programs in four shards of 75 (the test names give the
/// seeds). The generator runs with its defaults: the constructs of known compiler bugs are
/// off (GenOptions).
constexpr uint64_t kFirstSeed = 1;
constexpr int kShardPrograms = 75;

DiffOptions ci_options() {
  DiffOptions o;
  o.cache_dir = std::string(RULEBOOK_BINARY_DIR) + "/tests/random/engine-cache";
  return o;
}

bool passes_check(const std::string& text) {
  dsl::SourceSet sources;
  dsl::Diagnostics diags;
  return compiler::load_program_text("reduced.rules", text, sources, diags).has_value();
}

}  // namespace

TEST_CASE("random programs: the same seed gives the same program", "[random]") {
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    const GeneratedProgram a = generate_program(seed), b = generate_program(seed);
    CHECK(a.text == b.text);
    CHECK(a.constructs == b.constructs);
  }
  CHECK(generate_program(1).text != generate_program(2).text);
}

TEST_CASE("random programs: every generated program passes check", "[random]") {
  // A program the checker rejects is a bug of the generator: its diagnostics say where.
  for (uint64_t seed = 1; seed <= 300; ++seed) {
    const GeneratedProgram p = generate_program(seed);
    dsl::SourceSet sources;
    dsl::Diagnostics diags;
    const bool ok = compiler::load_program_text("random.rules", p.text, sources, diags).has_value();
    INFO("seed " << seed << "\n" << p.text << "\n" << diags.render(sources));
    CHECK(ok);
  }
}

TEST_CASE("random programs: the reducer keeps what the failure needs", "[random]") {
  const std::string text = generate_program(7).text;
  // A stand-in failure: the program still declares its first state.
  const size_t at = text.find("\nstate ");
  REQUIRE(at != std::string::npos);
  const std::string needed = text.substr(at + 1, text.find('\n', at + 1) - at - 1);
  const std::string reduced = reduce_program(text, [&](const std::string& t) {
    return t.find(needed) != std::string::npos && passes_check(t);
  });
  CHECK(reduced.find(needed) != std::string::npos);
  CHECK(passes_check(reduced));
  CHECK(reduced.size() < text.size());
}

namespace {

/// `count` programs from seed `first`, on one thread, engines built with `options`.
void compiled_equals_interpreter(uint64_t first, int count, const DiffOptions& options) {
  std::vector<BatchItem> items;
  run_batch(first, count, GenOptions{}, options, 1,
            [&](const BatchItem& item) { items.push_back(item); });
  REQUIRE(items.size() == size_t(count));
  std::string flags;
  for (const std::string& p : options.no_pass) flags += " --no-pass " + p;
  int errors = 0;
  for (const BatchItem& item : items) {
    INFO(fmt::format("seed {}: {}\nreproduce: build/tests/random/random_programs --seed {} --count 1 --print{}\n{}",
                     item.seed, item.diff.message, item.seed, flags, item.program.text));
    CHECK(item.diff.kind == DiffResult::Agree);
    errors += item.diff.runtime_error;
  }
  // Some programs must reach a run-time error, so that error texts are compared too.
  CHECK(errors > 0);
}

/// One shard of the CI's seed range, on one thread: CTest runs the shards side by side.
void compiled_equals_interpreter(int shard) {
  compiled_equals_interpreter(kFirstSeed + uint64_t(shard) * kShardPrograms, kShardPrograms, ci_options());
}

}  // namespace

TEST_CASE("random programs: compiled = interpreter, seeds 1-75", "[random]") { compiled_equals_interpreter(0); }
TEST_CASE("random programs: compiled = interpreter, seeds 76-150", "[random]") { compiled_equals_interpreter(1); }
TEST_CASE("random programs: compiled = interpreter, seeds 151-225", "[random]") { compiled_equals_interpreter(2); }
TEST_CASE("random programs: compiled = interpreter, seeds 226-300", "[random]") { compiled_equals_interpreter(3); }

TEST_CASE("random programs: compiled with every plan pass off = interpreter, seeds 301-320", "[random]") {
  // The plain code every pass falls back to, on programs the shards above do not run.
  DiffOptions o = ci_options();
  o.no_pass = {"all"};
  compiled_equals_interpreter(301, 20, o);
}
