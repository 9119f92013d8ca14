// The engine interface: what the generated state machines and the interpreter both
// implement, and all the explorer and the playout runner ever see.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

namespace rulebook::engine {

inline constexpr int kMaxMoveArgs = 4;

/// A move: its kind (index of the move in the game, declaration order) and its
/// arguments as values (see ir::Value; cells and players as indices). Trivially copyable.
struct Move {
  int32_t kind = -1;
  int32_t args[kMaxMoveArgs] = {0, 0, 0, 0};
  bool operator==(const Move& o) const { return std::memcmp(this, &o, sizeof(Move)) == 0; }
};

/// The outcome of a call; an engine never prints, exits or throws across this interface.
struct Status {
  bool ok = true;
  std::string message;  ///< what went wrong and in which rule (file:line:col)
  static Status Ok() { return {}; }
  static Status Error(std::string m) { return {false, std::move(m)}; }
};

/// Parameters chosen when a game is set up: the seed for random choices and
/// `name=value` overrides of setup variables (a data-file entry number, or a value).
struct Setup {
  uint64_t seed = 1;
  std::vector<std::pair<std::string, std::string>> values;
};

/// What a game looks like from outside.
struct Info {
  std::string title;
  uint32_t state_bytes = 0;
  int players = 0;
  std::vector<std::string> player_names;
  std::vector<std::string> phase_names;
  std::vector<std::string> move_names;  ///< by kind
  std::vector<int> move_arity;
  int score_width = 1;      ///< entries per player (or team): >1 for tuple scores
  bool score_per_team = false;
  int score_subjects = 0;   ///< players, or teams
  bool highest_wins = true;
};

/// A game engine. States are `state_bytes` of plain bytes: copy them with memcpy, compare
/// them with memcmp. Legal moves come in one canonical order shared by every engine of the
/// same rules: by kind, then by arguments in ascending index order (first argument
/// outermost). So a seeded random game is the same move list under every engine.
class Engine {
 public:
  virtual ~Engine() = default;
  virtual const Info& info() const = 0;

  /// Writes the initial state: setup values, `init`, then the first player to move.
  virtual Status setup(uint8_t* state, const Setup& setup) const = 0;
  /// Appends the legal moves of the player to move (none once the game is over).
  virtual Status legal_moves(const uint8_t* state, std::vector<Move>& out) const = 0;
  /// Plays a legal move: its effects, the end and phase tests, the turn, `when stuck`.
  virtual Status apply(uint8_t* state, const Move& move) const = 0;

  virtual bool terminal(const uint8_t* state) const = 0;
  virtual int phase(const uint8_t* state) const = 0;
  virtual int to_move(const uint8_t* state) const = 0;
  /// score_subjects * score_width values, subject-major.
  virtual Status scores(const uint8_t* state, std::vector<int64_t>& out) const = 0;
  /// 64-bit hash of the state bytes (the same function in every engine).
  virtual uint64_t hash(const uint8_t* state) const = 0;

  virtual std::string move_text(const Move& move) const = 0;
  virtual std::string board_text(const uint8_t* state) const = 0;

  /// Metric `index` of the rules (declaration order) in `state`: `recorded` tells whether
  /// its `when` holds (for an `at end` metric: whether the game is over); `value` is
  /// computed only then. An engine that evaluates no metrics records none.
  virtual Status metric(const uint8_t* state, int index, bool& recorded, int64_t& value) const {
    (void)state, (void)index;
    recorded = false;
    value = 0;
    return Status::Ok();
  }

  /// Property `index` of the rules (declaration order), one declared `over play`, in
  /// `state`: `in` tells whether the state is in its set (its phase and `where`); `value`
  /// (1 or 0 for a condition) is computed only then. With `value_only`, the value alone,
  /// wherever the state is (`in` is false): what a branch and bound reads on every state.
  /// The explorer's search of a set over play (explorer/play_search.h) reads it.
  virtual Status observe(const uint8_t* state, int index, bool value_only, bool& in, int64_t& value) const {
    (void)state, (void)index, (void)value_only;
    in = false;
    value = 0;
    return Status::Error("this engine does not evaluate properties over play");
  }

  /// The legal moves of `state` (replacing `moves`) and the state each one leads to
  /// (replacing `states`: move i's at `i * state_bytes`). Engines answer it natively in one
  /// call; this default walks legal_moves and apply and says the same.
  virtual Status children(const uint8_t* state, std::vector<Move>& moves,
                          std::vector<uint8_t>& states) const {
    moves.clear();
    Status st = legal_moves(state, moves);
    const size_t n = info().state_bytes;
    states.resize(moves.size() * n);
    for (size_t i = 0; st.ok && i < moves.size(); ++i) {
      std::memcpy(states.data() + i * n, state, n);
      st = apply(states.data() + i * n, moves[i]);
    }
    return st;
  }
  /// Paths of exactly `depth` moves from `state`. Engines answer it natively (no copies
  /// through this interface); this default walks the interface and says the same.
  virtual Status perft(const uint8_t* state, int depth, uint64_t& count) const {
    count = 0;
    std::vector<Move> moves;
    Status st = legal_moves(state, moves);
    if (!st.ok || depth <= 1) {
      count = depth <= 0 ? 1 : moves.size();
      return st;
    }
    std::vector<uint8_t> child(info().state_bytes);
    for (const Move& m : moves) {
      std::memcpy(child.data(), state, child.size());
      if (!(st = apply(child.data(), m)).ok) return st;
      uint64_t below = 0;
      if (!(st = perft(child.data(), depth - 1, below)).ok) return st;
      count += below;
    }
    return st;
  }
};

/// The hash every engine uses: FNV-1a over the bytes, finished with a 64-bit mix.
inline uint64_t hash_bytes(const uint8_t* p, size_t n) {
  uint64_t h = 1469598103934665603ull;
  for (size_t i = 0; i < n; ++i) h = (h ^ p[i]) * 1099511628211ull;
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdull;
  h ^= h >> 33;
  return h;
}

}  // namespace rulebook::engine
