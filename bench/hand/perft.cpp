// hand_perft: perft, distinct-state counts and seeded playouts of the hand-written engines.
//
//   hand_perft garnsi6 DEPTH [--divide] [--states] [--no-bulk] [--after MOVES]
//                            [--blocked R,C,R,C] [--setup-seed S] [--mem-mb M]
//   hand_perft garnsi6 playouts N --seed S [--trace] [--blocked R,C,R,C] [--setup-seed S]
//   hand_perft garnsi9 DEPTH [--divide] [--no-bulk] [--after MOVES]
//   hand_perft garnsi9 playouts N --seed S [--trace]
// MOVES: comma-separated cells and `pass` / `sacrifice`, played before counting.
//
// Results go to stdout (diffable against the generated engines); timings to stderr.
#include <algorithm>
#include <array>
#include <cassert>
#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <memory>
#include <string>
#include <vector>

#include "garnsi6_placement.h"
#include "garnsi6_states.h"
#include "garnsi9_placement.h"

namespace {

/// The random stream of docs/semantics.md, so seeded games match the generated engines.
struct SplitMix {
  uint64_t s;
  uint64_t next() {
    uint64_t z = (s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
};

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

/// Paths of exactly `depth` moves. With `bulk`, the last ply is counted, not played.
/// `made` counts the moves played (the make/unmake rate is nodes/s without bulk).
template <class Game, class Position, class Move, class Undo, int kMaxMoves>
uint64_t perft(const Game& game, Position& pos, int depth, bool bulk, uint64_t& made) {
  assert(game.is_ok(pos));
  if (bulk && depth == 1) return static_cast<uint64_t>(game.count_moves(pos));
  if (depth == 0) return 1;
  Move moves[kMaxMoves];
  const int n = game.legal_moves(pos, moves);
  made += static_cast<uint64_t>(n);
  uint64_t total = 0;
  if (bulk && depth == 2) {
    // The parents of the leaves are most of the nodes played: no call per child.
    for (int i = 0; i < n; ++i) {
      Undo u;
      game.play(pos, moves[i], u);
      total += static_cast<uint64_t>(game.count_moves(pos));
      game.undo(pos, moves[i], u);
    }
    return total;
  }
  for (int i = 0; i < n; ++i) {
    Undo u;
    game.play(pos, moves[i], u);
    total += perft<Game, Position, Move, Undo, kMaxMoves>(game, pos, depth - 1, bulk, made);
    game.undo(pos, moves[i], u);
  }
  return total;
}

struct Options {
  std::string game;
  int depth = 0;
  bool playouts = false;
  uint64_t games = 0;
  uint64_t seed = 1;
  bool divide = false;
  bool states = false;
  bool bulk = true;
  bool trace = false;
  std::string after;
  std::array<int, 2> blocked = {0, 35};
  size_t mem_bytes = size_t{4096} << 20;
};

int usage() {
  std::fprintf(stderr,
               "usage: hand_perft garnsi6|garnsi9 DEPTH [--divide] [--states] [--no-bulk]\n"
               "                  [--after MOVES] [--blocked R,C,R,C] [--setup-seed S]\n"
               "                  [--mem-mb M]\n"
               "       hand_perft garnsi6|garnsi9 playouts N --seed S [--trace]\n"
               "                  [--blocked R,C,R,C] [--setup-seed S]\n"
               "MOVES: comma-separated cells (row * width + col) and pass / sacrifice\n");
  return 2;
}

bool parse_u64(const char* s, uint64_t& out) {
  char* end = nullptr;
  out = std::strtoull(s, &end, 10);
  return *s != '\0' && *end == '\0';
}

/// `random 2 of cells` drawn as docs/semantics.md does it, from the setup seed.
std::array<int, 2> blocked_from_seed(uint64_t seed) {
  SplitMix rng{seed};
  std::array<int, hand::garnsi6::kCells> a{};
  for (int i = 0; i < hand::garnsi6::kCells; ++i) a[i] = i;
  for (int i = 0; i < 2; ++i) {
    const int j = i + static_cast<int>(rng.next() % uint64_t(hand::garnsi6::kCells - i));
    std::swap(a[i], a[j]);
  }
  return {std::min(a[0], a[1]), std::max(a[0], a[1])};
}

bool parse(int argc, char** argv, Options& o) {
  if (argc < 3) return false;
  o.game = argv[1];
  if (o.game != "garnsi6" && o.game != "garnsi9") return false;
  int i = 2;
  uint64_t v = 0;
  if (std::strcmp(argv[i], "playouts") == 0) {
    if (argc < 4 || !parse_u64(argv[3], o.games)) return false;
    o.playouts = true;
    i = 4;
  } else {
    if (!parse_u64(argv[2], v) || v < 1 || v > 81) return false;
    o.depth = static_cast<int>(v);
    i = 3;
  }
  for (; i < argc; ++i) {
    const std::string a = argv[i];
    const bool has_value = i + 1 < argc;
    if (a == "--divide") {
      o.divide = true;
    } else if (a == "--states" && o.game == "garnsi6") {
      o.states = true;
    } else if (a == "--no-bulk") {
      o.bulk = false;
    } else if (a == "--trace") {
      o.trace = true;
    } else if (a == "--after" && has_value) {
      o.after = argv[++i];
    } else if (a == "--seed" && has_value && parse_u64(argv[i + 1], o.seed)) {
      ++i;
    } else if (a == "--setup-seed" && has_value && parse_u64(argv[i + 1], v)) {
      o.blocked = blocked_from_seed(v);
      ++i;
    } else if (a == "--mem-mb" && has_value && parse_u64(argv[i + 1], v) && v >= 16) {
      o.mem_bytes = size_t(v) << 20;
      ++i;
    } else if (a == "--blocked" && has_value) {
      int r0, c0, r1, c1;
      if (std::sscanf(argv[++i], "%d,%d,%d,%d", &r0, &c0, &r1, &c1) != 4) return false;
      for (int x : {r0, c0, r1, c1})
        if (x < 0 || x >= hand::garnsi6::kSide) return false;
      o.blocked = {r0 * hand::garnsi6::kSide + c0, r1 * hand::garnsi6::kSide + c1};
      if (o.blocked[0] == o.blocked[1]) return false;
    } else {
      return false;
    }
  }
  return true;
}

/// Plays `o.after` from the initial position; false (with a message) on an illegal move.
template <class Game, class Position, class Move, class Undo, int kMaxMoves>
bool opening(const Game& game, const Options& o, const char* last_move_name, int last_move,
             Position& pos) {
  pos = game.initial();
  size_t at = 0;
  while (at < o.after.size()) {
    size_t comma = o.after.find(',', at);
    if (comma == std::string::npos) comma = o.after.size();
    const std::string word = o.after.substr(at, comma - at);
    at = comma + 1;
    uint64_t cell = 0;
    int move = -1;
    if (word == last_move_name)
      move = last_move;
    else if (parse_u64(word.c_str(), cell) && cell < uint64_t(last_move))
      move = int(cell);
    Move moves[kMaxMoves];
    const int n = game.legal_moves(pos, moves);
    bool legal = false;
    for (int i = 0; i < n; ++i) legal = legal || moves[i] == move;
    if (!legal) {
      std::fprintf(stderr, "error: --after: move '%s' is not legal there\n", word.c_str());
      return false;
    }
    Undo u;
    game.play(pos, Move(move), u);
  }
  return true;
}

template <class Game, class Position, class Move, class Undo, int kMaxMoves>
void run_perft(const Game& game, const Options& o, const Position& start,
               const char* last_move_name, int last_move, hand::garnsi6::StateCounter* states) {
  Position root = start;
  for (int d = 1; d <= o.depth; ++d) {
    const auto t0 = std::chrono::steady_clock::now();
    const std::clock_t c0 = std::clock();
    uint64_t made = 0;
    const uint64_t paths =
        perft<Game, Position, Move, Undo, kMaxMoves>(game, root, d, o.bulk, made);
    const double secs = seconds_since(t0);
    // CPU time too: on a shared machine the wall clock says more about the neighbours.
    const double cpu = std::max(1e-6, double(std::clock() - c0) / CLOCKS_PER_SEC);
    std::printf("depth %d: paths %" PRIu64, d, paths);
    if (states) {
      const auto t1 = std::chrono::steady_clock::now();
      const hand::garnsi6::LevelCount c = states->advance(d < o.depth);
      std::printf(" distinct %" PRIu64 " symmetric %" PRIu64, c.distinct, c.symmetric);
      std::fprintf(stderr,
                   "  states depth %d: %" PRIu64 " edges into the level, %.2f s in %d pass(es)%s\n",
                   d, c.edges, seconds_since(t1), states->passes_last(),
                   c.closed ? "" : " (level not closed under the symmetries)");
    }
    std::printf("\n");
    std::fflush(stdout);
    std::fprintf(stderr,
                 "  perft depth %d: %.3f s wall, %.3f s cpu; per cpu second %.3g paths, %.3g moves "
                 "played%s\n",
                 d, secs, cpu, double(paths) / cpu, double(made) / cpu,
                 o.bulk ? " (the last ply counted, not played)" : "");
  }
  if (!o.divide) return;
  Move moves[kMaxMoves];
  const int n = game.legal_moves(root, moves);
  for (int i = 0; i < n; ++i) {
    Undo u;
    uint64_t made = 0;
    game.play(root, moves[i], u);
    const uint64_t sub =
        perft<Game, Position, Move, Undo, kMaxMoves>(game, root, o.depth - 1, o.bulk, made);
    game.undo(root, moves[i], u);
    if (moves[i] == last_move)
      std::printf("%s: %" PRIu64 "\n", last_move_name, sub);
    else
      std::printf("place(%d): %" PRIu64 "\n", int(moves[i]), sub);
  }
}

/// Random games of the phase. The checksum is FNV-1a 64 over one byte per move (the cell
/// index, or the pass/sacrifice code kCells) and a 0xff byte after each game.
template <class Game, class Position, class Move, class Undo, int kMaxMoves>
void run_playouts(const Game& game, const Options& o, int cells, const char* last_move_name,
                  int last_move) {
  SplitMix rng{o.seed};
  uint64_t plies = 0, holes = 0, checksum = 1469598103934665603ull;
  auto feed = [&checksum](uint64_t byte) { checksum = (checksum ^ byte) * 1099511628211ull; };
  const auto t0 = std::chrono::steady_clock::now();
  Move moves[kMaxMoves];
  for (uint64_t g = 0; g < o.games; ++g) {
    Position pos = game.initial();
    if (o.trace) std::printf("game %" PRIu64 ":", g + 1);
    for (int n, ply = 0; (n = game.legal_moves(pos, moves)) > 0; ++plies, ++ply) {
      const Move m = moves[rng.next() % uint64_t(n)];
      feed(m);
      const char* sep = ply == 0 ? " " : ",";  // as --after reads them
      if (o.trace && m == last_move)
        std::printf("%s%s", sep, last_move_name);
      else if (o.trace)
        std::printf("%s%d", sep, int(m));
      Undo u;
      game.play(pos, m, u);
    }
    feed(0xff);
    if (o.trace) std::printf("\n");
    holes += static_cast<uint64_t>(cells - pos.occupied_count());
  }
  const double secs = seconds_since(t0);
  std::printf("playouts %" PRIu64 " seed %" PRIu64 ": plies %" PRIu64 " holes %" PRIu64
              " checksum %016" PRIx64 "\n",
              o.games, o.seed, plies, holes, checksum);
  std::fprintf(stderr, "  %.3f s, %.3g games/s, %.3g plies/s\n", secs, double(o.games) / secs,
               double(plies) / secs);
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  if (!parse(argc, argv, o)) return usage();
  if (o.game == "garnsi6") {
    namespace g6 = hand::garnsi6;
    const g6::Placement game(o.blocked);
    std::fprintf(stderr, "garnsi6: blocked cells %d and %d\n", o.blocked[0], o.blocked[1]);
    if (o.playouts) {
      run_playouts<g6::Placement, g6::Position, g6::Move, g6::Undo, g6::kMaxMoves>(
          game, o, g6::kCells, "pass", g6::kPass);
      return 0;
    }
    g6::Position start;
    if (!opening<g6::Placement, g6::Position, g6::Move, g6::Undo, g6::kMaxMoves>(game, o, "pass",
                                                                                 g6::kPass, start))
      return 1;
    std::unique_ptr<g6::StateCounter> states;
    if (o.states) {
      states = std::make_unique<g6::StateCounter>(game, o.mem_bytes, start);
      if (states->symmetries().empty()) {
        std::fprintf(stderr, "internal error: the houses disagree with the engine's peers\n");
        return 3;
      }
      std::fprintf(stderr, "symmetries kept by the rules:");
      for (const g6::Symmetry& s : states->symmetries())
        std::fprintf(stderr, " [%s]", s.name.c_str());
      std::fprintf(stderr, "\n");
    }
    run_perft<g6::Placement, g6::Position, g6::Move, g6::Undo, g6::kMaxMoves>(
        game, o, start, "pass", g6::kPass, states.get());
  } else {
    namespace g9 = hand::garnsi9;
    const g9::Placement game;
    if (o.playouts) {
      run_playouts<g9::Placement, g9::Position, g9::Move, g9::Undo, g9::kMaxMoves>(
          game, o, g9::kCells, "sacrifice", g9::kSacrifice);
      return 0;
    }
    g9::Position start;
    if (!opening<g9::Placement, g9::Position, g9::Move, g9::Undo, g9::kMaxMoves>(
            game, o, "sacrifice", g9::kSacrifice, start))
      return 1;
    run_perft<g9::Placement, g9::Position, g9::Move, g9::Undo, g9::kMaxMoves>(
        game, o, start, "sacrifice", g9::kSacrifice, nullptr);
  }
  return 0;
}
