// The verifier against brute force on tiny random programs (random_programs --proofs), and
// brute force itself against answers counted by hand.
#include <catch2/catch.hpp>
#include <fmt/core.h>

#include <map>
#include <set>

#include "compiler/lower/lower.h"
#include "tests/random/brute_force.h"
#include "tests/random/proof_check.h"

using namespace rulebook;
using namespace rulebook::testing;

namespace {

/// The seed range CI runs: about 20 s on two cores (the verifier nearly all of it).
constexpr uint64_t kFirstSeed = 1;
constexpr int kPrograms = 300;

GenOptions tiny() {
  GenOptions o;
  o.tiny_for_proofs = true;
  return o;
}

}  // namespace

TEST_CASE("random proofs: the same seed gives the same tiny program", "[random][proofs]") {
  for (uint64_t seed = 1; seed <= 20; ++seed) CHECK(generate_program(seed, tiny()).text == generate_program(seed, tiny()).text);
  CHECK(generate_program(1, tiny()).text != generate_program(1).text);
}

TEST_CASE("random proofs: every tiny program passes check", "[random][proofs]") {
  for (uint64_t seed = 1; seed <= 500; ++seed) {
    const GeneratedProgram p = generate_program(seed, tiny());
    dsl::SourceSet sources;
    dsl::Diagnostics diags;
    const bool ok = compiler::load_program_text("random.rules", p.text, sources, diags).has_value();
    INFO("seed " << seed << "\n" << p.text << "\n" << diags.render(sources));
    CHECK(ok);
  }
}

TEST_CASE("brute force: verdicts counted by hand", "[random][proofs]") {
  // 1 x 3 cells, a set of marked cells of at most two (1 + 3 + 3 = 7 states) and a level
  // pinned to 1; the mover (two players) is enumerated only where it is read.
  const std::string text = R"(game "by hand";
board 1 x 3;
players 2;
state marked: set of Cell;
state level: 0..2;
rule few: size(marked) <= 2;
rule pinned: level == 1;
rule weaker: size(marked) <= 3;
phase play {
  move mark(c: Cell)
    requires c not in marked;
  {
    marked := marked + {c};
  }
}
score q = 0;
winner highest;
prove at_most_two over boards: size(marked) <= 2;
prove none_marked over boards: size(marked) == 0;
prove empty_set over boards where level == 2: false;
find three over boards: size(marked) == 3;
find two over boards where mover == p2: size(marked) == 2;
bound most over boards: max size(marked);
bound least_after over moves mark: min size(marked);
bound last over moves mark where x(c) == 2: max count d in marked where d != c;
derive level_is over boards: level;
derive marked_count over boards: size(marked);
consistent rules_agree;
redundant weaker_follows: weaker;
redundant few_needed: few;
bound highest_column over boards: max (max d in marked: x(d));
)";
  dsl::SourceSet sources;
  dsl::Diagnostics diags;
  auto p = compiler::load_program_text("by_hand.rules", text, sources, diags);
  INFO(diags.render(sources));
  REQUIRE(p);
  BruteForce brute(*p, sources);
  std::map<std::string, BruteVerdict> v;
  for (const ir::Property& prop : p->properties) v[prop.name] = brute.verdict(prop);
  CHECK(v["at_most_two"].verdict == "proved");
  CHECK(v["at_most_two"].elements == 7);  // the mover is not read: not enumerated
  CHECK(v["none_marked"].verdict == "refuted");
  CHECK(v["empty_set"].verdict == "vacuous");
  CHECK(v["three"].verdict == "none");
  CHECK(v["two"].verdict == "found");
  CHECK(v["two"].elements == 7);
  CHECK(v["most"].verdict == "bound");
  CHECK(v["most"].value == 2);
  // From a set of at most two marked, one more is marked and at most two may remain:
  // before the move 0 or 1 marked (the rule holds after), 2 choices of mover.
  CHECK(v["least_after"].verdict == "bound");
  CHECK(v["least_after"].value == 1);
  CHECK(v["least_after"].elements == 2 * (3 + 3 * 2));
  CHECK(v["last"].value == 1);
  CHECK(v["level_is"].verdict == "derived");
  CHECK(v["level_is"].value == 1);
  CHECK(v["marked_count"].verdict == "not-constant");
  CHECK(v["rules_agree"].verdict == "consistent");
  CHECK(v["weaker_follows"].verdict == "redundant");
  CHECK(v["few_needed"].verdict == "not-redundant");
  CHECK(v["highest_column"].verdict == "error");  // max of nothing when none is marked
  // And the verifier agrees on every one of them.
  const ProofResult r = run_proof_check("by_hand.rules", text, ProofOptions{});
  INFO(r.message);
  CHECK(r.kind == ProofResult::Agree);
  CHECK(r.agreed == int(p->properties.size()));
}

TEST_CASE("brute force: a set over its budget is refused", "[random][proofs]") {
  const std::string text = R"(game "large";
board 2 x 3;
players 2;
state a: Cell -> 0..2;
state b: Cell -> 0..2;
phase play {
  move pass
  {
  }
}
score q = 0;
winner highest;
find any over boards: some c in cells: a[c] == b[c];
)";
  dsl::SourceSet sources;
  dsl::Diagnostics diags;
  auto p = compiler::load_program_text("large.rules", text, sources, diags);
  INFO(diags.render(sources));
  REQUIRE(p);
  BruteOptions o;
  o.max_states = 100000;  // 3^12 = 531441 states
  BruteForce brute(*p, sources, o);
  CHECK(brute.verdict(p->properties[0]).verdict == "too large");
}

TEST_CASE("random proofs: the verifier agrees with brute force", "[random][proofs]") {
  std::vector<ProofItem> items;
  run_proof_batch(kFirstSeed, kPrograms, tiny(), ProofOptions{}, 2, [&](const ProofItem& item) { items.push_back(item); });
  int agreed = 0, unknown = 0;
  std::set<std::string> verdicts;
  for (const ProofItem& item : items) {
    INFO(fmt::format("seed {}:\n{}\nreproduce: build/tests/random/random_programs --proofs --seed {} --count 1 --print\n{}",
                     item.seed, item.result.message, item.seed, item.program.text));
    CHECK(item.result.kind == ProofResult::Agree);
    agreed += item.result.agreed;
    unknown += item.result.unknown;
    for (const PropertyCheck& c : item.result.properties)
      if (c.outcome == PropertyCheck::Agree) verdicts.insert(c.kind + " " + c.brute.substr(0, c.brute.find(' ')));
  }
  // Most verdicts are definite, and each kind's answers all occur, true and false alike.
  CHECK(agreed > 4 * unknown);
  for (const char* v : {"prove proved", "prove refuted", "prove vacuous", "lemma proved", "lemma refuted", "find found",
                        "find none", "bound bound", "bound empty", "derive derived", "derive not-constant",
                        "derive empty", "consistent consistent", "consistent inconsistent", "redundant redundant",
                        "redundant not-redundant", "depends depends", "depends refuted"}) {
    INFO(v);
    CHECK(verdicts.count(v) == 1);
  }
}
