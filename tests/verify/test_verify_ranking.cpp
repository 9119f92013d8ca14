// Termination proved by a ranking (verifier/ranking.cpp): tic-tac-toe ends because every
// move fills a cell, a placement game because every move empties a hand, whether it
// places or sacrifices; a game that cycles has no ranking.
#include <string>

#include <catch2/catch.hpp>

#include "verify_testing.h"

using namespace rulebook;

namespace {

std::string path(const std::string& rel) { return std::string(RULEBOOK_SOURCE_DIR) + "/" + rel; }

verifier::Ranking rank(const std::string& rel) {
  dsl::SourceSet sources;
  auto p = verify_testing::load(path(rel), sources);
  verifier::Options o;
  return verifier::prove_ranking(*p, sources, o);
}

}  // namespace

TEST_CASE("tic-tac-toe ends: every move fills a cell", "[ranking]") {
  const verifier::Ranking r = rank("bench/plain/tictactoe.rules");
  INFO(r.detail);
  REQUIRE(r.proved);
  REQUIRE(r.order.size() == 1);
  CHECK(r.order[0] == "cells where owner[c] == none");
  // Nine empty cells at the start, one fewer after every move but the last: at most 10.
  CHECK(r.plies == 10);
  CHECK(r.checked >= 1);
  CHECK(r.rlimit > 0);
}

TEST_CASE("a placement game ends: every move empties a hand, whether it places or sacrifices", "[ranking]") {
  const verifier::Ranking r = rank("tests/verify/rank_placement.rules");
  INFO(r.detail);
  REQUIRE(r.proved);
  REQUIRE(r.order.size() == 1);
  CHECK(r.order[0] == "sum of in_hand[p]");
  CHECK(r.plies == 3 * 2 + 1);
  // The empty cells do not fall on a sacrifice: a sampled game rules them out.
  CHECK(r.sampled_out >= 1);
}

TEST_CASE("a game that cycles has no ranking", "[ranking]") {
  const verifier::Ranking r = rank("tests/verify/rank_cycle.rules");
  CHECK_FALSE(r.proved);
  CHECK(r.candidates > 0);
  CHECK(r.sampled_out == r.candidates);
  CHECK(r.checked == 0);
}
