// How `play` shows a run-time error of the rules: located like a compile error, with the
// source line, then the game where it happened (player, move, ply, board).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "compiler/ir/ir.h"
#include "compiler/runtime/engine.h"
#include "dsl/source.h"

namespace rulebook::cli {

/// An engine's message (`file:line:col: error: text`, or a bare text) as a compile error
/// prints: the located line, then the source line with a caret when the file is one of
/// `sources`. `path` names an unlocated message. Escaped for a terminal.
std::string engine_error_text(const dsl::SourceSet& sources, const std::string& path,
                              const std::string& message);

/// Where a run-time error happened: the state before the move (the state after an error
/// is unspecified), the player to move, the move and its ply (1-based).
struct ErrorGame {
  const engine::Engine* engine = nullptr;
  const uint8_t* before = nullptr;
  int mover = 0;
  const engine::Move* move = nullptr;  ///< null: while listing the moves
  int ply = 0;
};

/// The notes after the error: `FILE: note: at move N, PLAYER MOVE`, the player to move,
/// the ply and the board before the move. Escaped for a terminal.
std::string error_game_text(const std::string& path, const ErrorGame& where);

/// The `again` statements of move `kind`'s body (nested ones too), in source order.
std::vector<dsl::Span> again_spans(const ir::Program& program, int kind);

/// The message of a turn that `again` brought back to a state it had already been in:
/// located at the move's first `again` (or at the move when it has none).
std::string again_loop_message(const ir::Program& program, const dsl::SourceSet& sources,
                               const engine::Engine& engine, const engine::Move& move, int turn_moves);

}  // namespace rulebook::cli
