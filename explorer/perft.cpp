// Perft over the engine interface: one depth-first walk counts every depth at once; the
// last two plies are counted by the engine's own perft rather than walked.
#include "explorer/perft.h"

#include <cstring>

namespace rulebook::explorer {
namespace {

/// Reusable buffers so the walk allocates only while the first path goes down.
class Walker {
 public:
  Walker(const engine::Engine& engine, int depth)
      : engine_(engine), bytes_(engine.info().state_bytes),
        moves_(static_cast<size_t>(depth + 1)), children_(static_cast<size_t>(depth + 1)) {}

  /// Adds to paths[ply .. depth-1] the paths below `state`, at `ply`. A state's children
  /// come from the engine in one call (no call per move, no rebuild per sibling).
  bool walk(const uint8_t* state, int ply, int depth, std::vector<uint64_t>& paths,
            engine::Status& status) {
    if (ply + 2 >= depth) {
      // The last one or two plies in the engine: its perft plays the moves on copies of its
      // working state, where a walk would hand each child back as bytes to rebuild.
      uint64_t n = 0;
      if (!(status = engine_.perft(state, 1, n)).ok) return false;
      paths[static_cast<size_t>(ply)] += n;
      if (ply + 2 == depth) {
        if (!(status = engine_.perft(state, 2, n)).ok) return false;
        paths[static_cast<size_t>(ply) + 1] += n;
      }
      return true;
    }
    std::vector<engine::Move>& moves = moves_[static_cast<size_t>(ply)];
    std::vector<uint8_t>& children = children_[static_cast<size_t>(ply)];
    status = engine_.children(state, moves, children);
    if (!status.ok) return false;
    paths[static_cast<size_t>(ply)] += moves.size();
    for (size_t i = 0; i < moves.size(); ++i)
      if (!walk(children.data() + i * bytes_, ply + 1, depth, paths, status)) return false;
    return true;
  }

 private:
  const engine::Engine& engine_;
  size_t bytes_;
  std::vector<std::vector<engine::Move>> moves_;
  std::vector<std::vector<uint8_t>> children_;
};

}  // namespace

PerftResult perft(const engine::Engine& engine, const uint8_t* root, int depth) {
  PerftResult result;
  if (depth <= 0) return result;
  result.paths.assign(static_cast<size_t>(depth), 0);
  Walker w(engine, depth);
  w.walk(root, 0, depth, result.paths, result.status);
  return result;
}

std::vector<DivideEntry> divide(const engine::Engine& engine, const uint8_t* root, int depth,
                                engine::Status& status) {
  std::vector<DivideEntry> out;
  std::vector<engine::Move> first;
  status = engine.legal_moves(root, first);
  if (!status.ok) return out;
  std::vector<uint8_t> child(engine.info().state_bytes);
  for (const engine::Move& m : first) {
    DivideEntry e{m, 1};
    if (depth > 1) {
      std::memcpy(child.data(), root, child.size());
      status = engine.apply(child.data(), m);
      if (status.ok) status = engine.perft(child.data(), depth - 1, e.paths);
      if (!status.ok) return out;
    }
    out.push_back(e);
  }
  return out;
}

}  // namespace rulebook::explorer
