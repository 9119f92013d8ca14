// The reference engine: a tree-walking interpreter of the IR that follows docs/semantics.md.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "compiler/runtime/engine.h"
#include "compiler/ir/ir.h"
#include "dsl/source.h"

namespace rulebook::compiler {

namespace interp {
struct Machine;
}

/// engine::Engine over a Program. Values are int64 scalars, bitsets for sets and vectors
/// for lists; every run-time error of semantics.md comes back as a Status naming the
/// rule's `file:line:col` (nothing is thrown across this interface).
///
/// Where semantics.md leaves an order open, this engine (and every engine that must agree
/// with it) does: conditions of a move are tested stage by stage (stage k once the first k
/// parameters are chosen), within a stage the `requires` in order, then the move rules in
/// order; an assignment evaluates its keys, then its value; `can(m, p)` looks at move m
/// for player p in the current state whatever the phase, out or over flags say.
class Interpreter : public engine::Engine {
 public:
  /// `program` and `sources` (which resolves the spans of error messages) must outlive
  /// the interpreter.
  Interpreter(const ir::Program& program, const dsl::SourceSet& sources);
  ~Interpreter() override;

  const engine::Info& info() const override { return info_; }
  engine::Status setup(uint8_t* state, const engine::Setup& setup) const override;
  engine::Status legal_moves(const uint8_t* state, std::vector<engine::Move>& out) const override;
  engine::Status apply(uint8_t* state, const engine::Move& move) const override;
  bool terminal(const uint8_t* state) const override;
  int phase(const uint8_t* state) const override;
  int to_move(const uint8_t* state) const override;
  engine::Status scores(const uint8_t* state, std::vector<int64_t>& out) const override;
  uint64_t hash(const uint8_t* state) const override;
  std::string move_text(const engine::Move& move) const override;
  std::string board_text(const uint8_t* state) const override;

  /// setup() with the overrides resolved: one entry per setup variable, empty to compute
  /// it as the rules say (drawing from the random stream), else its element indices.
  engine::Status setup_indices(uint8_t* state, uint64_t seed,
                               const std::vector<std::vector<uint32_t>>& overrides) const;
  /// Paths of exactly `depth` moves from `state` (the last ply counted, not played).
  engine::Status perft(const uint8_t* state, int depth, uint64_t& count) const override;
  engine::Status metric(const uint8_t* state, int index, bool& recorded, int64_t& value) const override;

  const ir::Program& program() const { return program_; }

 private:
  const ir::Program& program_;
  std::unique_ptr<interp::Machine> machine_;
  engine::Info info_;
};

}  // namespace rulebook::compiler
