// Chosen moves for `play`: moves written in the notation `play` prints, read from the
// command line or a file, matched to the game's moves, and why one that is not legal is not.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "compiler/interp/interpret.h"
#include "compiler/ir/ir.h"
#include "compiler/runtime/engine.h"
#include "dsl/source.h"

namespace rulebook::cli {

/// One move as the user wrote it, and where (`line` 0: on the command line).
struct WrittenMove {
  std::string text;
  int line = 0;
};

/// The moves to play and what a moves file says about the game they belong to.
struct MoveScript {
  std::vector<WrittenMove> moves;
  std::optional<uint64_t> seed;     ///< `# seed N`, or the `(seed N)` of a play transcript
  std::vector<std::string> setups;  ///< `# setup name=value`
};

/// `--moves "m1, m2, ..."`: split at the commas outside brackets (a move's own arguments
/// are separated by commas too).
std::vector<WrittenMove> split_moves(const std::string& text);

/// A moves file: one move per line, `#` comments, `# seed N` and `# setup name=value`
/// remembered. A whole transcript of `play` is read too: when numbered lines (`  12. p1
/// place(r0c1)  [effects]`) are present, only they are moves. False and `error` when the
/// file cannot be read.
bool read_moves_file(const std::string& path, MoveScript& out, std::string& error);

/// The move `text` names among the program's moves: `name` or `name(a, b)` with the
/// arguments as `play` prints them, whitespace free; a leading player name is taken off
/// into `player` (-1 when there is none). False and `error` saying what is not a move.
bool parse_move(const ir::Program& program, const std::string& text, engine::Move& out, int& player,
                std::string& error);

/// One condition that keeps a move out.
struct Blocker {
  std::string kind;         ///< "rule", "requires", "board rule"
  std::string name;         ///< the rule's name ("" for a requires)
  std::string description;  ///< the rule's description in the file's words
  std::string source;       ///< the condition's source text
  std::string where;        ///< file:line:col
  std::string error;        ///< non-empty: the condition could not be read (a run-time error)
};

/// Why `move` is not a legal move in `state`: `reason` in words ("the game is over",
/// "not a move of phase P", "blocked by rule R", ...) and every condition that fails.
struct Refusal {
  std::string reason;
  std::vector<Blocker> blockers;
};

/// Reads the rules on `state` with the interpreter: the phase, then the move's `requires`
/// and rules, then (when they all hold, or always under `board_rules_always`, to tell a
/// rule that alone forbids a move) the board rules after its body.
Refusal why_not_legal(const compiler::Interpreter& interpreter, const dsl::SourceSet& sources,
                      const uint8_t* state, const engine::Move& move, bool board_rules_always = false);

/// The conditions of a refusal, each with its description and source, as lines for a
/// terminal (not escaped).
std::string blockers_text(const Refusal& refusal);
nlohmann::json refusal_json(const Refusal& refusal);

}  // namespace rulebook::cli
