// Perft over the engine interface: one depth-first walk counts every depth at once; the
// last ply is counted by the engine's own perft rather than played.
#include "explorer/perft.h"

#include <cstring>

namespace rulebook::explorer {
namespace {

/// Reusable buffers so the walk allocates only while the first path goes down.
class Walker {
 public:
  Walker(const engine::Engine& engine, int depth)
      : engine_(engine), bytes_(engine.info().state_bytes),
        states_(static_cast<size_t>(depth + 1) * bytes_), moves_(static_cast<size_t>(depth + 1)) {}

  uint8_t* state(int ply) { return states_.data() + static_cast<size_t>(ply) * bytes_; }

  /// Adds to paths[ply .. depth-1] the paths below the state at `ply`.
  bool walk(int ply, int depth, std::vector<uint64_t>& paths, engine::Status& status) {
    if (ply + 1 == depth) {
      uint64_t n = 0;
      status = engine_.perft(state(ply), 1, n);
      paths[static_cast<size_t>(ply)] += n;
      return status.ok;
    }
    std::vector<engine::Move>& moves = moves_[static_cast<size_t>(ply)];
    moves.clear();
    status = engine_.legal_moves(state(ply), moves);
    if (!status.ok) return false;
    paths[static_cast<size_t>(ply)] += moves.size();
    for (const engine::Move& m : moves) {
      std::memcpy(state(ply + 1), state(ply), bytes_);
      status = engine_.apply(state(ply + 1), m);
      if (!status.ok || !walk(ply + 1, depth, paths, status)) return false;
    }
    return true;
  }

 private:
  const engine::Engine& engine_;
  size_t bytes_;
  std::vector<uint8_t> states_;
  std::vector<std::vector<engine::Move>> moves_;
};

}  // namespace

PerftResult perft(const engine::Engine& engine, const uint8_t* root, int depth) {
  PerftResult result;
  if (depth <= 0) return result;
  result.paths.assign(static_cast<size_t>(depth), 0);
  Walker w(engine, depth);
  std::memcpy(w.state(0), root, engine.info().state_bytes);
  w.walk(0, depth, result.paths, result.status);
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
