// Benchmark (not a test): perft nodes/s and random playouts/s of the Garnsi placement
// phases for the generated engine, the interpreter and the hand-written baselines, all
// measured in one run, interleaved (each round runs every contestant once) in CPU time of
// the measuring thread; prints medians and the median of the per-round ratios, and bytes
// per state.
//
//   bench_engines [--runs N] [--quick] [--profile] [--only 6x6|9x9] [--perft-only]
//
// --profile runs only the generated engines' native perft and playouts (no baselines, no
// ratios): a steady load for `perf record`. --only keeps the one board whose title holds
// the text; --perft-only skips the playouts; --native-only skips the interpreter's runs and
// the runs through the engine interface (their ratios are then not printed). The default run measures everything.
#include <algorithm>
#include <ctime>
#include <cstdio>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <fmt/core.h>

#include "compiler/interp/interpret.h"
#include "compiler/load/load_engine.h"
#include "compiler/lower/lower.h"
#include "compiler/runtime/random.h"
#include "explorer/cpu_time.h"
#include "explorer/perft.h"
#include "garnsi6_placement.h"
#include "garnsi9_placement.h"

using namespace rulebook;

namespace {

using explorer::median;
using explorer::thread_seconds;

/// One contestant: `work` returns the units it did (nodes, playouts), the same every run.
struct Entry {
  explicit Entry(std::function<uint64_t()> w) : work(std::move(w)) {}
  std::function<uint64_t()> work;
  std::vector<double> times;  ///< seconds of each run
  uint64_t units = 0;
  double seconds() const { return median(times); }
  double rate() const { return seconds() > 0 ? static_cast<double>(units) / seconds() : 0; }
};

/// Runs every entry once per round, `runs` rounds, so that a change in the machine's load
/// falls on all of them alike.
void measure(int runs, std::vector<Entry*> entries) {
  for (int i = 0; i < runs; ++i) {
    for (Entry* e : entries) {
      const double t0 = thread_seconds();
      e->units = e->work();
      e->times.push_back(thread_seconds() - t0);
    }
  }
}

/// Median over the rounds of a's time / b's time (each pair measured side by side).
double time_ratio(const Entry& a, const Entry& b) {
  std::vector<double> r;
  for (size_t i = 0; i < a.times.size() && i < b.times.size(); ++i) {
    const double ta = a.times[i] / static_cast<double>(std::max<uint64_t>(a.units, 1));
    const double tb = b.times[i] / static_cast<double>(std::max<uint64_t>(b.units, 1));
    if (tb > 0) r.push_back(ta / tb);
  }
  return median(r);
}

// ---------------------------------------------------------------- hand-written side

template <class Game>
uint64_t hand_perft(const Game& g, typename std::remove_cvref_t<decltype(g.initial())>& pos,
                    int depth, uint64_t* nodes) {
  using Move = typename std::remove_cvref_t<decltype(*std::declval<typename Game::MoveType*>())>;
  Move moves[256];
  if (depth == 1) {
    const int n = g.count_moves(pos);
    *nodes += static_cast<uint64_t>(n);
    return static_cast<uint64_t>(n);
  }
  const int n = g.legal_moves(pos, moves);
  *nodes += static_cast<uint64_t>(n);
  uint64_t total = 0;
  if (depth == 2) {
    // The parents of the leaves are most of the nodes: no call per child, as the
    // generated engines' own perft does (and as bench/hand/perft.cpp does).
    for (int i = 0; i < n; ++i) {
      typename Game::UndoType u;
      g.play(pos, moves[i], u);
      const int leaves = g.count_moves(pos);
      *nodes += static_cast<uint64_t>(leaves);
      total += static_cast<uint64_t>(leaves);
      g.undo(pos, moves[i], u);
    }
    return total;
  }
  for (int i = 0; i < n; ++i) {
    typename Game::UndoType u;
    g.play(pos, moves[i], u);
    total += hand_perft(g, pos, depth - 1, nodes);
    g.undo(pos, moves[i], u);
  }
  return total;
}

/// Adapts a hand-written engine to the names the templates above use.
template <class G, class M, class U>
struct Hand : G {
  using G::G;
  using MoveType = M;
  using UndoType = U;
};
using Hand6 = Hand<hand::garnsi6::Placement, hand::garnsi6::Move, hand::garnsi6::Undo>;
using Hand9 = Hand<hand::garnsi9::Placement, hand::garnsi9::Move, hand::garnsi9::Undo>;

template <class Game, class Over>
uint64_t hand_playouts(const Game& g, int games, Over over) {
  typename Game::MoveType moves[256];
  SplitMix64 rng(1);
  uint64_t plies = 0;
  for (int i = 0; i < games; ++i) {
    auto pos = g.initial();
    while (!over(pos)) {
      const int n = g.legal_moves(pos, moves);
      typename Game::UndoType u;
      g.play(pos, moves[rng.below(static_cast<uint64_t>(n))], u);
      ++plies;
    }
  }
  return plies;
}

// ---------------------------------------------------------------- rulebook side

struct Rules {
  dsl::SourceSet sources;
  std::shared_ptr<const ir::Program> program;
  std::unique_ptr<compiler::CompiledEngine> compiled;
  std::unique_ptr<compiler::Interpreter> interp;
  std::vector<uint8_t> start;
};

bool load(Rules& r, const std::string& path, const engine::Setup& setup) {
  dsl::Diagnostics diags;
  auto p = compiler::load_program(path, r.sources, diags);
  if (!p) {
    fmt::print(stderr, "{}", diags.render(r.sources));
    return false;
  }
  r.program = std::make_shared<const ir::Program>(std::move(*p));
  compiler::LoadedEngine e = compiler::load_engine(r.program, r.sources);
  if (!e.engine) {
    fmt::print(stderr, "{}: {}\n", path, e.status.message);
    return false;
  }
  fmt::print("{}: generated engine {}\n", path.substr(path.rfind('/') + 1),
             e.linked ? "linked into this benchmark" : e.compiled ? "compiled now" : "from the cache");
  r.compiled = std::move(e.engine);
  r.interp = std::make_unique<compiler::Interpreter>(*r.program, r.sources);
  r.start.assign(r.program->state_bytes, 0);
  return r.compiled->setup(r.start.data(), setup).ok;
}

uint64_t sum(const std::vector<uint64_t>& v) {
  uint64_t s = 0;
  for (uint64_t x : v) s += x;
  return s;
}

/// Random playouts of the first phase through the engine interface.
uint64_t engine_playouts(const engine::Engine& e, const std::vector<uint8_t>& start, int games) {
  std::vector<uint8_t> s;
  std::vector<engine::Move> moves;
  SplitMix64 rng(1);
  uint64_t plies = 0;
  for (int i = 0; i < games; ++i) {
    s = start;
    while (!e.terminal(s.data()) && e.phase(s.data()) == 0) {
      moves.clear();
      if (!e.legal_moves(s.data(), moves).ok || moves.empty()) return 0;
      if (!e.apply(s.data(), moves[rng.below(moves.size())]).ok) return 0;
      ++plies;
    }
  }
  return plies;
}

/// The same playouts as engine_playouts, each game played inside the engine.
uint64_t native_playouts(const compiler::CompiledEngine& e, const std::vector<uint8_t>& start,
                         int games) {
  std::vector<uint8_t> s;
  uint64_t rng = 1, plies = 0;  // the stream of SplitMix64(1)
  for (int i = 0; i < games; ++i) {
    s = start;
    uint64_t n = 0;
    if (!e.playout(s.data(), rng, UINT64_MAX, true, n).ok) return 0;
    plies += n;
  }
  return plies;
}

void row(const char* what, const Entry& e, const char* unit) {
  fmt::print("  {:<38} {:>14.0f} {}/s   ({} {} in {:.3f} s)\n", what, e.rate(), unit, e.units,
             unit, e.seconds());
}

bool g_profile = false;
bool g_perft_only = false;
bool g_slow = true;

template <class HandGame, class Over>
void bench_game(const char* title, Rules& r, const HandGame& hand, Over over, int runs,
                int depth, int interp_depth, int games, int interp_games, size_t hand_bytes) {
  fmt::print("{}\n", title);
  if (g_profile) {
    uint64_t nodes = 0, plies = 0;
    for (int i = 0; i < runs; ++i) {
      for (int d = 1; d <= depth; ++d) {
        uint64_t c = 0;
        r.compiled->perft(r.start.data(), d, c);
        nodes += c;
      }
      if (!g_perft_only) plies += native_playouts(*r.compiled, r.start, games);
    }
    fmt::print("  generated only: {} perft nodes, {} playout moves\n", nodes, plies);
    return;
  }
  // Perft with the last ply counted, not played, in every engine.
  Entry gen{[&] {
    uint64_t nodes = 0;
    for (int d = 1; d <= depth; ++d) {
      uint64_t c = 0;
      r.compiled->perft(r.start.data(), d, c);
      nodes += c;
    }
    return nodes;
  }};
  Entry gen_iface{[&] { return sum(explorer::perft(*r.compiled, r.start.data(), depth).paths); }};
  Entry interp{[&] {
    uint64_t nodes = 0;
    for (int d = 1; d <= interp_depth; ++d) {
      uint64_t c = 0;
      r.interp->perft(r.start.data(), d, c);
      nodes += c;
    }
    return nodes;
  }};
  Entry hand_t{[&] {
    uint64_t nodes = 0;
    for (int d = 1; d <= depth; ++d) {
      auto pos = hand.initial();
      uint64_t ignored = 0;
      nodes += hand_perft(hand, pos, d, &ignored);
    }
    return nodes;
  }};
  if (g_slow) measure(runs, {&hand_t, &gen, &gen_iface, &interp});
  else measure(runs, {&hand_t, &gen});
  row("perft, hand-written", hand_t, "nodes");
  row("perft, generated (native)", gen, "nodes");
  if (g_slow) {
    row("perft, generated (rulebook perft)", gen_iface, "nodes");
    row("perft, interpreter", interp, "nodes");
  }
  if (gen.units != hand_t.units) fmt::print("  !! perft counts differ: {} vs {}\n", gen.units, hand_t.units);
  if (g_perft_only) {
    fmt::print("  ratios: generated/hand time  perft {:.2f}x\n", time_ratio(gen, hand_t));
    if (g_slow) {
      fmt::print("          generated/interpreter speed  perft {:.1f}x\n", time_ratio(interp, gen));
    }
    fmt::print("  bytes per state: generated {}  hand-written {}\n\n", r.program->state_bytes, hand_bytes);
    return;
  }

  // Every driver plays the same games (one splitmix64 stream from seed 1, move
  // `next() % n`); the moves played are compared below.
  uint64_t hand_plies = 0, gen_plies = 0, iface_plies = 0;
  Entry hp{[&] {
    hand_plies = hand_playouts(hand, games, over);
    return hand_plies > 0 ? uint64_t(games) : 0;
  }};
  Entry gp{[&] {
    gen_plies = native_playouts(*r.compiled, r.start, games);
    return gen_plies > 0 ? uint64_t(games) : 0;
  }};
  Entry gp_iface{[&] {
    iface_plies = engine_playouts(*r.compiled, r.start, games);
    return iface_plies > 0 ? uint64_t(games) : 0;
  }};
  Entry ip{[&] {
    return engine_playouts(*r.interp, r.start, interp_games) > 0 ? uint64_t(interp_games) : 0;
  }};
  if (g_slow) measure(runs, {&hp, &gp, &gp_iface, &ip});
  else measure(runs, {&hp, &gp});
  row("playouts, hand-written", hp, "games");
  row("playouts, generated (native)", gp, "games");
  if (g_slow) {
    row("playouts, generated (engine interface)", gp_iface, "games");
    row("playouts, interpreter", ip, "games");
  } else {
    iface_plies = hand_plies;  // not played: nothing to compare
  }
  if (gen_plies != hand_plies || iface_plies != hand_plies) {
    fmt::print("  !! playout moves differ: hand {} generated {} interface {}\n", hand_plies,
               gen_plies, iface_plies);
  }

  // Ratios are medians over the rounds of the two contestants' times in that round.
  fmt::print("  ratios: generated/hand time  perft {:.2f}x  playouts {:.2f}x   (target <= 1.5x)\n",
             time_ratio(gen, hand_t), time_ratio(gp, hp));
  if (g_slow) {
    fmt::print("          generated/interpreter speed  perft {:.1f}x  playouts {:.1f}x   (target >= 20x)\n",
               time_ratio(interp, gen), time_ratio(ip, gp));
  }
  if (g_slow) {
    fmt::print("          playouts through the engine interface: generated/hand time {:.2f}x\n",
               time_ratio(gp_iface, hp));
  }
  fmt::print("  bytes per state: generated {}  hand-written {}\n\n", r.program->state_bytes, hand_bytes);
}

constexpr const char* kSixTitle = "Garnsi-Malom 6x6, placement phase, blocked (0,0) (5,5)";
constexpr const char* kNineTitle = "Garnsi-Malom 9x9, placement phase";

bool bench_six(int runs, bool quick) {
  Rules six;
  engine::Setup blocked;
  blocked.values = {{"blocked", "r0c0,r5c5"}};
  if (!load(six, RULEBOOK_SOURCE_DIR "/variants/garnsi-malom/garnsi-6x6.rules", blocked)) return false;
  Hand6 hand6({0, 35});
  bench_game(kSixTitle, six, hand6, [](const hand::garnsi6::Position& p) { return p.over != 0; },
             runs, quick ? 4 : 6, quick ? 3 : 4, quick ? 2000 : 100000, quick ? 50 : 500,
             sizeof(hand::garnsi6::Position));
  return true;
}

bool bench_nine(int runs, bool quick) {
  Rules nine;
  if (!load(nine, RULEBOOK_SOURCE_DIR "/variants/garnsi-malom/garnsi-9.rules", {})) return false;
  Hand9 hand9;
  bench_game(kNineTitle, nine, hand9, [](const hand::garnsi9::Position& p) { return p.left == 0; },
             runs, quick ? 3 : 5, quick ? 2 : 3, quick ? 200 : 20000, quick ? 5 : 50,
             sizeof(hand::garnsi9::Position));
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  int runs = 5;
  bool quick = false;
  std::string only;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--runs") && i + 1 < argc) runs = std::max(1, std::atoi(argv[++i]));
    else if (!std::strcmp(argv[i], "--quick")) quick = true;
    else if (!std::strcmp(argv[i], "--profile")) g_profile = true;
    else if (!std::strcmp(argv[i], "--only") && i + 1 < argc) only = argv[++i];
    else if (!std::strcmp(argv[i], "--perft-only")) g_perft_only = true;
    else if (!std::strcmp(argv[i], "--native-only")) g_slow = false;
    else {
      fmt::print(stderr,
                 "usage: bench_engines [--runs N] [--quick] [--profile] [--only 6x6|9x9] "
                 "[--perft-only] [--native-only]\n");
      return 2;
    }
  }
  const auto wanted = [&only](const char* title) {
    return only.empty() || std::string(title).find(only) != std::string::npos;
  };
  if (quick) runs = 1;
  fmt::print("median of {} interleaved runs, CPU time of the measuring thread\n", runs);

  if (!wanted(kSixTitle) && !wanted(kNineTitle)) {
    fmt::print(stderr, "--only {}: no board's title holds it (6x6, 9x9)\n", only);
    return 2;
  }
  if (wanted(kSixTitle) && !bench_six(runs, quick)) return 1;
  if (wanted(kNineTitle) && !bench_nine(runs, quick)) return 1;
  return 0;
}
