// The C ABI every generated engine exports: one table of plain functions behind one
// `extern "C"` entry point. Shared by the emitter (which writes a copy of these
// declarations into each generated source) and the loader (which reads the table).
#pragma once

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

// Everything from here to "end of the ABI" is copied verbatim into every generated source
// (the build embeds these lines into the emitter: cmake/embed_text.cmake).
// begin of the ABI
/// Bumped whenever the layout or meaning of anything below changes; the loader refuses an
/// engine built against another version.
#define RULEBOOK_ABI_VERSION 4

/// The entry point of an engine is `const rb_engine* rulebook_engine_<hash>(void)`, where
/// <hash> is the source hash in 16 lower-case hex digits.
#define RULEBOOK_ENTRY_PREFIX "rulebook_engine_"

/// Result codes of the calls that can fail.
enum {
  RB_OK = 0,
  RB_RULE_ERROR = 1,   ///< a run-time error of the rules (range, none, division by zero...)
  RB_BAD_CALL = 2,     ///< the caller passed something invalid (an illegal move kind...)
  RB_TRUNCATED = 3,    ///< legal_moves: more moves than `cap`; `*count` holds how many
  RB_INTERNAL = 4,     ///< a bug of the engine
};

/// What went wrong: a code and a message naming the rule's `file:line:col`.
typedef struct rb_error {
  int32_t code;
  char message[500];
} rb_error;

/// A move: the same layout as rulebook::engine::Move (kind, then up to 4 argument values).
typedef struct rb_move {
  int32_t kind;
  int32_t args[4];
} rb_move;

/// The table an engine exports. Every function is reentrant: all state is in the bytes
/// the caller passes (no globals are written after load).
typedef struct rb_engine {
  uint32_t abi_version;       ///< RULEBOOK_ABI_VERSION
  uint32_t table_bytes;       ///< sizeof(rb_engine), a second guard against a stale layout
  uint32_t state_bytes;
  uint64_t source_hash;       ///< hash of the generated source above its ABI footer
  const char* rules_file;     ///< file name of the rules the engine was generated from
  const char* title;
  int32_t players;
  int32_t phases;
  int32_t moves;              ///< move kinds
  int32_t setups;             ///< setup variables
  int32_t score_width;
  int32_t score_subjects;     ///< players, or teams
  int32_t score_per_team;
  int32_t highest_wins;
  int32_t metrics;
  uint32_t max_moves;         ///< an upper bound on the legal moves of one state
  const char* const* player_names;
  const char* const* phase_names;
  const char* const* move_names;
  const int32_t* move_arity;
  const char* const* setup_names;
  const uint32_t* setup_counts;  ///< elements of each setup variable
  const char* const* metric_names;

  /// Writes the initial state. `overrides` has one entry per setup variable: null to
  /// compute it as the rules say, or `setup_counts[i]` element indices to store instead
  /// (an override draws nothing from the random stream).
  int32_t (*setup)(uint8_t* state, uint64_t seed, const uint32_t* const* overrides,
                   rb_error* err);
  /// Writes up to `cap` legal moves in canonical order and their number to `*count`
  /// (RB_TRUNCATED when there are more than `cap`).
  int32_t (*legal_moves)(const uint8_t* state, rb_move* out, uint32_t cap, uint32_t* count,
                         rb_error* err);
  /// Counts the legal moves without listing them.
  int32_t (*count_moves)(const uint8_t* state, uint64_t* count, rb_error* err);
  /// Plays a legal move (an illegal one gives RB_BAD_CALL and leaves the state as it was).
  int32_t (*apply)(uint8_t* state, const rb_move* move, rb_error* err);
  /// Paths of exactly `depth` moves from the state (the last ply counted, not played).
  int32_t (*perft)(const uint8_t* state, int32_t depth, uint64_t* count, rb_error* err);
  /// score_subjects * score_width values, subject-major.
  int32_t (*scores)(const uint8_t* state, int64_t* out, rb_error* err);
  /// Metric `index`: `*recorded` is whether its `when` holds (for an `at end` metric,
  /// whether the game is over); `*value` is computed only then.
  int32_t (*metric)(const uint8_t* state, int32_t index, int32_t* recorded, int64_t* value,
                    rb_error* err);
  int32_t (*terminal)(const uint8_t* state);
  int32_t (*phase)(const uint8_t* state);
  int32_t (*to_move)(const uint8_t* state);
  uint64_t (*hash)(const uint8_t* state);
  /// Random moves from `*state` until the game is over, `max_plies` moves were played,
  /// or (with `same_phase`) the phase is no longer the one it started in. Each move is
  /// legal move `next() % n` of the n in canonical order, drawn from the splitmix64
  /// stream whose state is `*rng` (left advanced). Writes the last state back and the
  /// moves played to `*plies`. The same game as legal_moves and apply in a loop.
  int32_t (*playout)(uint8_t* state, uint64_t* rng, uint64_t max_plies, int32_t same_phase,
                     uint64_t* plies, rb_error* err);
  /// The legal moves and the state each one leads to, in one call: up to `cap` moves in
  /// canonical order at `out`, the state after move i at `states + i * state_bytes`, their
  /// number in `*count` (RB_TRUNCATED when there are more than `cap`). The same moves and
  /// states as legal_moves, then apply on a copy of the state for each move.
  int32_t (*children)(const uint8_t* state, rb_move* out, uint8_t* states, uint32_t cap,
                      uint32_t* count, rb_error* err);
  /// Property `index` (declaration order), one declared `over play`: `*in` is whether the
  /// state is in its set (phase and `where`); `*value` (1 or 0 for a condition) is computed
  /// only then. With `value_only`, the value alone (`*in` 0). Another property gives
  /// RB_BAD_CALL.
  int32_t (*observe)(const uint8_t* state, int32_t index, int32_t value_only, int32_t* in, int64_t* value,
                     rb_error* err);
} rb_engine;

typedef const rb_engine* (*rb_entry_fn)(void);
// end of the ABI

/// Defined by the loader (compiler/load/load_engine.cpp): engines compiled into a tool call it
/// from a static initializer when they are built with RULEBOOK_ENGINE_REGISTER defined.
void rulebook_register_engine(rb_entry_fn entry);

#ifdef __cplusplus
}
#endif
