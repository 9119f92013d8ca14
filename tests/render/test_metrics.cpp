// Playout statistics: Wilson intervals against known values, results independent of the
// thread count, lengths equal to explorer::random_playout's, metrics and phase lengths
// consistent with the game lengths, cut-off games counted apart.
#include "explorer/metrics.h"
#include "explorer/playout.h"
#include "render_test_util.h"

using namespace rulebook;
using rulebook::test::load_variant;

TEST_CASE("Wilson score intervals") {
  explorer::Share s = explorer::wilson(5, 10);
  CHECK(s.share == Approx(0.5));
  CHECK(s.lo == Approx(0.2366).epsilon(1e-3));
  CHECK(s.hi == Approx(0.7634).epsilon(1e-3));
  s = explorer::wilson(0, 10);
  CHECK(s.lo == 0);
  CHECK(s.hi == Approx(0.2775).epsilon(1e-3));
  s = explorer::wilson(0, 0);
  CHECK(s.lo == 0);
  CHECK(s.hi == 1);
}

TEST_CASE("random playouts agree with random_playout and do not depend on threads") {
  auto l = load_variant("sudoku-fill/fill-4x4.rules");
  explorer::PlayoutPlan plan;
  plan.games = 60;
  plan.seed = 11;
  plan.threads = 1;
  explorer::PlayoutStats one = explorer::play_games(*l->engine, *l->program, plan);
  plan.threads = 3;
  explorer::PlayoutStats three = explorer::play_games(*l->engine, *l->program, plan);
  CHECK(one.finished == 60);
  CHECK(one.length.histogram == three.length.histogram);
  CHECK(one.branching_mean == three.branching_mean);
  CHECK(one.metrics[1].values.histogram == three.metrics[1].values.histogram);

  // The same games played by the playout runner of explorer/playout.h.
  std::map<int64_t, uint64_t> lengths;
  uint64_t complete = 0;
  for (int g = 0; g < plan.games; ++g) {
    std::vector<uint8_t> s(l->program->state_bytes);
    engine::Setup setup;
    setup.seed = plan.seed + uint64_t(g);
    REQUIRE(l->engine->setup(s.data(), setup).ok);
    explorer::PlayoutOptions po;
    po.seed = setup.seed;
    explorer::Playout p = explorer::random_playout(*l->engine, s.data(), po);
    REQUIRE(p.finished);
    ++lengths[int64_t(p.steps.size())];
    complete += p.scores[0] == 1;
  }
  CHECK(one.length.histogram == lengths);
  CHECK(one.wins.empty());  // a single player cannot lose to anyone
  CHECK(one.scores[0].histogram[1] == complete);
  // cells_filled (a metric of the rules) counts the moves of a game: one cell per move.
  REQUIRE(one.metrics[1].name == "cells_filled");
  CHECK(one.metrics[1].values.histogram == lengths);
  // One phase: all plies are in it.
  CHECK(one.phase_length[0].histogram == lengths);
}

TEST_CASE("team results, phases and the greedy policy") {
  auto l = load_variant("garnsi-malom/garnsi-6x6.rules");
  explorer::PlayoutPlan plan;
  plan.games = 30;
  plan.threads = 2;
  explorer::PlayoutStats r = explorer::play_games(*l->engine, *l->program, plan);
  CHECK(r.finished + r.cut_off + r.errors == 30);
  CHECK(r.errors == 0);
  REQUIRE(r.per_team);
  REQUIRE(r.wins.size() == 2);
  CHECK(r.wins[0].count + r.wins[1].count + r.drawn == uint64_t(r.finished));
  CHECK(r.team_wins[0].count == r.wins[0].count);
  double phase_sum = 0;
  for (const auto& ph : r.phase_length) phase_sum += ph.mean;
  CHECK(phase_sum == Approx(r.length.mean));

  plan.policy = explorer::Policy::Greedy;
  explorer::PlayoutStats g1 = explorer::play_games(*l->engine, *l->program, plan);
  plan.threads = 1;
  explorer::PlayoutStats g2 = explorer::play_games(*l->engine, *l->program, plan);
  CHECK(g1.length.histogram == g2.length.histogram);
  CHECK(g1.wins[0].count == g2.wins[0].count);
  CHECK(g1.errors == 0);

  plan.policy = explorer::Policy::Random;
  plan.max_plies = 5;
  explorer::PlayoutStats cut = explorer::play_games(*l->engine, *l->program, plan);
  CHECK(cut.cut_off == 30);
  CHECK(cut.finished == 0);
  CHECK(cut.length.count == 0);
}
