// random_programs: generates rules files from seeds and runs each through the interpreter
// and its compiled engine; prints every disagreement with the one command that repeats it.
//
//   random_programs --seed S --count N [--jobs J] [--keep DIR] [--print] [--reduce]
//     [--no-pass PASS|all]...: the engines built with passes of their plan off
//                   [--enable FEATURE]... [--risk PERCENT] [--depth D] [--opt FLAG]
//                   [--cache DIR] [--coverage] [--quiet] [--text-only]
//   random_programs --proofs --seed S --count N [--rlimit N] [--max-states N] ...: tiny
//                   programs, the verifier's verdicts against brute force
#include <fmt/core.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>

#include "compiler/lower/lower.h"
#include "compiler/plan/engine_plan.h"
#include "tests/random/batch.h"
#include "tests/random/proof_driver.h"

using namespace rulebook::testing;
namespace fs = std::filesystem;

namespace {

int usage(const std::string& why) {
  fmt::print(stderr, "random_programs: {}\n", why);
  fmt::print(stderr,
             "usage: random_programs --seed S --count N [--jobs J] [--keep DIR] [--print] [--reduce]\n"
             "       [--enable FEATURE]... [--risk PERCENT] [--depth D] [--opt FLAG] [--cache DIR]\n"
             "       [--coverage] [--quiet] [--text-only] [--no-pass PASS|all]...\n"
             "       random_programs --proofs [--rlimit N] [--max-states N] (and the options above)\nfeatures:");
  for (const auto& f : gen_features()) fmt::print(stderr, " {}", f.first);
  fmt::print(stderr, "\n");
  return 2;
}

const char* kind_name(DiffResult::Kind k) {
  switch (k) {
    case DiffResult::Agree: return "agree";
    case DiffResult::CheckFailed: return "GENERATOR BUG (the program fails check)";
    case DiffResult::CompileFailed: return "ENGINE DOES NOT COMPILE";
    case DiffResult::Disagree: return "ENGINES DISAGREE";
  }
  return "?";
}

}  // namespace

int main(int argc, char** argv) {
  uint64_t seed = 1;
  int count = 1, jobs = 2;
  bool print = false, reduce = false, coverage = false, quiet = false, text_only = false, proofs = false;
  ProofOptions proof;
  std::string keep = "random-failures", opt = "-O0";
  GenOptions gen;
  DiffOptions diff;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&]() -> std::string { return i + 1 < argc ? argv[++i] : ""; };
    if (a == "--seed") seed = std::strtoull(value().c_str(), nullptr, 10);
    else if (a == "--count") count = std::atoi(value().c_str());
    else if (a == "--jobs") jobs = std::atoi(value().c_str());
    else if (a == "--keep") keep = value();
    else if (a == "--print") print = true;
    else if (a == "--reduce") reduce = true;
    else if (a == "--coverage") coverage = true;
    else if (a == "--quiet") quiet = true;
    else if (a == "--text-only") text_only = true;
    else if (a == "--proofs") proofs = gen.tiny_for_proofs = true;
    else if (a == "--rlimit") proof.rlimit = std::strtoull(value().c_str(), nullptr, 10);
    else if (a == "--max-states") proof.brute.max_states = std::strtoull(value().c_str(), nullptr, 10);
    else if (a == "--risk") gen.risk_percent = std::atoi(value().c_str());
    else if (a == "--depth") gen.max_depth = std::atoi(value().c_str());
    else if (a == "--opt") opt = value();
    else if (a == "--cache") diff.cache_dir = value();
    else if (a == "--no-pass") diff.no_pass.push_back(value());
    else if (a == "--enable") {
      const std::string f = value();
      bool found = false;
      for (const auto& [name, member] : gen_features())
        if (name == f) gen.*member = found = true;
      if (!found) return usage("unknown feature '" + f + "'");
    } else {
      return usage("unknown argument '" + a + "'");
    }
  }
  if (count < 1 || jobs < 1) return usage("--count and --jobs must be at least 1");
  rulebook::compiler::plan::PassSwitches passes;
  if (const std::string bad = rulebook::compiler::plan::switch_off(diff.no_pass, passes); !bad.empty())
    return usage(bad);
  diff.flags = {"-std=c++20", opt, "-fPIC", "-shared"};
  if (text_only) {
    // The programs alone, run by nothing: for a seed that crashes a driver (with
    // --coverage: only the table of the constructs they use).
    std::map<std::string, int> uses, programs;
    for (int i = 0; i < count; ++i) {
      const GeneratedProgram p = generate_program(seed + uint64_t(i), gen);
      if (!coverage) fmt::print("{}", p.text);
      for (const auto& [tag, n] : p.constructs) uses[tag] += n, ++programs[tag];
    }
    if (coverage)
      for (const auto& [tag, n] : uses) fmt::print("  {:28} {:6} {:8}\n", tag, programs[tag], n);
    return 0;
  }
  const std::string self = argc > 0 ? argv[0] : "random_programs";
  if (proofs) {
    ProofDriverFlags f;
    f.print = print, f.reduce = reduce, f.quiet = quiet, f.coverage = coverage, f.keep = keep, f.self = self;
    return run_proofs(seed, count, jobs, gen, proof, f);
  }
  std::string extra = gen_flags(gen) + (opt != "-O0" ? " --opt " + opt : "");
  for (const std::string& p : diff.no_pass) extra += " --no-pass " + p;

  std::map<int, int> kinds;
  std::map<std::string, int> constructs, programs_using;
  int errors = 0, failed = 0, compiled = 0;
  double compile_seconds = 0;
  run_batch(seed, count, gen, diff, jobs, [&](const BatchItem& item) {
    ++kinds[item.diff.kind];
    errors += item.diff.runtime_error;
    if (item.diff.compiled) ++compiled, compile_seconds += item.diff.compile_seconds;
    for (const auto& [tag, n] : item.program.constructs) constructs[tag] += n, ++programs_using[tag];
    if (print) fmt::print("{}", item.program.text);
    if (!quiet)
      fmt::print(stderr, "seed {}: {} (perft depth {}, {} states{}{})\n", item.seed, kind_name(item.diff.kind),
                 item.diff.perft_depth, item.diff.states, item.diff.runtime_error ? ", a run-time error" : "",
                 item.diff.compiled ? fmt::format(", compiled in {:.1f} s", item.diff.compile_seconds) : "");
    if (item.diff.kind == DiffResult::Agree) return;
    ++failed;
    std::error_code ec;
    fs::create_directories(keep, ec);
    const std::string saved = fmt::format("{}/seed-{}.rules", keep, item.seed);
    std::ofstream(saved) << item.program.text;
    fmt::print("FAIL seed {}: {}\n{}\n  program saved as {}\n  reproduce: {} --seed {} --count 1 --print{}\n",
               item.seed, kind_name(item.diff.kind), item.diff.message, saved, self, item.seed, extra);
    if (reduce && item.diff.kind != DiffResult::CheckFailed) {
      const DiffResult::Kind kind = item.diff.kind;
      const std::string reduced = reduce_program(item.program.text, [&](const std::string& text) {
        return run_differential("reduced.rules", text, diff).kind == kind;
      });
      const std::string path = fmt::format("{}/seed-{}.reduced.rules", keep, item.seed);
      std::ofstream(path) << reduced;
      fmt::print("  reduced to {} lines: {}\n", std::count(reduced.begin(), reduced.end(), '\n'), path);
    }
  });
  fmt::print("{} programs from seed {}: {} agree, {} generator bugs, {} do not compile, {} disagree; "
             "{} met a run-time error (the same in both); {} compiled in {:.1f} s ({:.2f} s each)\n",
             count, seed, kinds[DiffResult::Agree], kinds[DiffResult::CheckFailed],
             kinds[DiffResult::CompileFailed], kinds[DiffResult::Disagree], errors, compiled, compile_seconds,
             compiled ? compile_seconds / compiled : 0.0);
  if (coverage) {
    fmt::print("construct coverage (programs using it / uses):\n");
    for (const auto& [tag, n] : constructs) fmt::print("  {:28} {:6} {:8}\n", tag, programs_using[tag], n);
  }
  return failed ? 1 : 0;
}
