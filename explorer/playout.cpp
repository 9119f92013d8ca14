// Seeded random playouts: the same seed gives the same game under every engine.
#include "explorer/playout.h"

#include "compiler/runtime/random.h"

namespace rulebook::explorer {

Playout random_playout(const engine::Engine& engine, const uint8_t* start,
                       const PlayoutOptions& options) {
  Playout out;
  out.last.assign(start, start + engine.info().state_bytes);
  SplitMix64 rng(options.seed);
  std::vector<engine::Move> moves;
  for (int ply = 0; ply < options.max_plies; ++ply) {
    if (engine.terminal(out.last.data())) {
      out.finished = true;
      break;
    }
    moves.clear();
    out.status = engine.legal_moves(out.last.data(), moves);
    if (!out.status.ok) return out;
    if (moves.empty()) {
      // The stuck loop leaves no live state without moves: an engine that does is wrong.
      out.status = engine::Status::Error("a state that is not over has no legal move");
      return out;
    }
    PlayoutStep step;
    step.move = moves[rng.below(moves.size())];
    step.mover = engine.to_move(out.last.data());
    out.status = engine.apply(out.last.data(), step.move);
    if (!out.status.ok) return out;
    step.phase = engine.phase(out.last.data());
    step.hash = engine.hash(out.last.data());
    out.steps.push_back(step);
  }
  if (!out.finished && engine.terminal(out.last.data())) out.finished = true;
  out.status = engine.scores(out.last.data(), out.scores);
  return out;
}

}  // namespace rulebook::explorer
