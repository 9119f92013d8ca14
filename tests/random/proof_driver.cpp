// `random_programs --proofs`: tiny programs through the verifier and brute force, each
// disagreement printed with the one command that repeats it (and reduced on request).
#include "tests/random/proof_driver.h"

#include <fmt/core.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>

#include "tests/random/batch.h"

namespace rulebook::testing {

namespace fs = std::filesystem;

namespace {

/// The names of the properties that disagree (the reducer keeps one of them failing).
std::vector<std::string> disagreeing(const ProofResult& r) {
  std::vector<std::string> out;
  for (const PropertyCheck& c : r.properties)
    if (c.outcome == PropertyCheck::Disagree) out.push_back(c.name);
  return out;
}

}  // namespace

std::string proof_flags(const ProofOptions& o) {
  const ProofOptions d;
  std::string s;
  if (o.rlimit != d.rlimit) s += " --rlimit " + std::to_string(o.rlimit);
  if (o.brute.max_states != d.brute.max_states) s += " --max-states " + std::to_string(o.brute.max_states);
  return s;
}

int run_proofs(uint64_t seed, int count, int jobs, const GenOptions& gen, const ProofOptions& options,
               const ProofDriverFlags& flags) {
  GenOptions g = gen;
  g.tiny_for_proofs = true;
  const std::string extra = gen_flags(g) + proof_flags(options);
  int agree = 0, generator_bugs = 0, failed = 0, programs_with_unknowns = 0;
  int empty_sets = 0, props = 0, agreed = 0, unknown = 0, too_large = 0, unchecked = 0, disagreed = 0;
  double verify_seconds = 0, brute_seconds = 0;
  std::map<std::string, int> verdicts, constructs, programs_using;
  run_proof_batch(seed, count, g, options, jobs, [&](const ProofItem& item) {
    const ProofResult& r = item.result;
    if (flags.print) {
      fmt::print("{}", item.program.text);
      static const char* outcome[] = {"agree", "unknown", "too large", "not compared", "DISAGREE"};
      for (const PropertyCheck& c : r.properties)
        fmt::print("// {} {}: verifier {}, brute force {} ({} elements): {}{}\n", c.kind, c.name, c.verifier, c.brute,
                   c.elements, outcome[c.outcome], c.outcome == PropertyCheck::Unknown ? " (" + c.detail + ")" : "");
    }
    for (const auto& [tag, n] : item.program.constructs) constructs[tag] += n, ++programs_using[tag];
    verify_seconds += r.verify_seconds;
    brute_seconds += r.brute_seconds;
    agreed += r.agreed, unknown += r.unknown, too_large += r.too_large, unchecked += r.unchecked;
    disagreed += r.disagreed;
    programs_with_unknowns += r.unknown > 0;
    for (const PropertyCheck& c : r.properties) {
      ++props;
      empty_sets += c.elements == 0 && c.kind != "consistent" && c.kind != "redundant" && c.kind != "depends";
      if (c.outcome == PropertyCheck::Agree) ++verdicts[c.kind + " " + c.brute.substr(0, c.brute.find(' '))];
    }
    if (!flags.quiet)
      fmt::print(stderr, "seed {}: {} ({} agree, {} unknown, {} too large; verifier {:.2f} s, brute force {:.2f} s)\n",
                 item.seed, r.kind == ProofResult::Agree ? "agree" : r.kind == ProofResult::CheckFailed ? "GENERATOR BUG" : "DISAGREE",
                 r.agreed, r.unknown, r.too_large, r.verify_seconds, r.brute_seconds);
    if (r.kind == ProofResult::Agree) {
      ++agree;
      return;
    }
    ++failed;
    generator_bugs += r.kind == ProofResult::CheckFailed;
    std::error_code ec;
    fs::create_directories(flags.keep, ec);
    const std::string saved = fmt::format("{}/proofs-seed-{}.rules", flags.keep, item.seed);
    std::ofstream(saved) << item.program.text;
    fmt::print("FAIL seed {}: {}\n{}\n  program saved as {}\n  reproduce: {} --proofs --seed {} --count 1 --print{}\n",
               item.seed,
               r.kind == ProofResult::CheckFailed ? "GENERATOR BUG (the program fails check)"
                                                  : "THE VERIFIER AND BRUTE FORCE DISAGREE",
               r.message, saved, flags.self, item.seed, extra);
    if (flags.reduce && r.kind == ProofResult::Disagree) {
      const std::vector<std::string> names = disagreeing(r);
      const std::string reduced = reduce_program(item.program.text, [&](const std::string& text) {
        const std::vector<std::string> now = disagreeing(run_proof_check("reduced.rules", text, options));
        return std::any_of(now.begin(), now.end(),
                           [&](const std::string& n) { return std::find(names.begin(), names.end(), n) != names.end(); });
      });
      const std::string path = fmt::format("{}/proofs-seed-{}.reduced.rules", flags.keep, item.seed);
      std::ofstream(path) << reduced;
      fmt::print("  reduced to {} lines: {}\n{}", std::count(reduced.begin(), reduced.end(), '\n'), path, reduced);
    }
  });
  fmt::print("{} programs from seed {}: {} agree, {} disagree, {} generator bugs; {} with an unknown verdict\n"
             "{} properties: {} agree, {} unknown or unsupported, {} too large to enumerate, {} not compared, "
             "{} disagree; {} over an empty set; verifier {:.1f} s, brute force {:.1f} s\n",
             count, seed, agree, failed - generator_bugs, generator_bugs, programs_with_unknowns, props, agreed,
             unknown, too_large, unchecked, disagreed, empty_sets, verify_seconds, brute_seconds);
  fmt::print("agreed verdicts:");
  for (const auto& [v, n] : verdicts) fmt::print(" {} {};", v, n);
  fmt::print("\n");
  if (flags.coverage) {
    fmt::print("construct coverage (programs using it / uses):\n");
    for (const auto& [tag, n] : constructs) fmt::print("  {:28} {:6} {:8}\n", tag, programs_using[tag], n);
  }
  return failed ? 1 : 0;
}

}  // namespace rulebook::testing
