// The reference engine: a tree-walking interpreter of the IR that follows docs/semantics.md.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "compiler/ir/bits.h"
#include "compiler/runtime/engine.h"
#include "compiler/ir/ir.h"
#include "dsl/source.h"

namespace rulebook::compiler {

class Coverage;

namespace interp {
struct Machine;
class Run;

/// A run-time value: a scalar, a set (a bitset over its domain's indices) or a list, as
/// the expression's IR type says.
struct Value {
  int64_t scalar = 0;
  ir::Bits set;
  std::vector<Value> list;
  bool operator==(const Value& o) const {
    return scalar == o.scalar && set == o.set && list == o.list;
  }
};
}  // namespace interp

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
  engine::Status observe(const uint8_t* state, int index, bool value_only, bool& in, int64_t& value) const override;

  /// setup() and apply() counting into `coverage` (of this program) the statements that
  /// run, the `until`s that fire and how the game ends (compiler/interp/coverage.h).
  engine::Status setup_counted(uint8_t* state, const engine::Setup& setup, Coverage& coverage) const;
  engine::Status apply_counted(uint8_t* state, const engine::Move& move, Coverage& coverage) const;
  /// Counts, for each condition of the moves of `state`'s phase, the instances it alone
  /// keeps out of the legal moves (every other condition allowing them).
  engine::Status count_blocked(const uint8_t* state, Coverage& coverage) const;

  const ir::Program& program() const { return program_; }

 private:
  friend class Evaluator;
  engine::Status setup_run(uint8_t* state, uint64_t seed, const std::vector<std::vector<uint32_t>>& overrides,
                           Coverage* coverage) const;
  engine::Status apply_run(uint8_t* state, const engine::Move& move, Coverage* coverage) const;
  const ir::Program& program_;
  std::unique_ptr<interp::Machine> machine_;
  engine::Info info_;
};

/// Reads and runs parts of the rules on one state outside play, as the interpreter does in
/// play: a define's value on a board, a condition checked on a witness, a move's body. A
/// run-time error of the rules comes back as a Status (and leaves the evaluator usable).
class Evaluator {
 public:
  /// `interpreter` must outlive the evaluator.
  explicit Evaluator(const Interpreter& interpreter);
  ~Evaluator();
  Evaluator(const Evaluator&) = delete;
  Evaluator& operator=(const Evaluator&) = delete;

  /// Evaluates on `state` from now on (exec and call may write it), the mover being the
  /// state's player to move, in a fresh frame of `locals` slots, all 0.
  void start(uint8_t* state, int locals = 64);
  void set_mover(int64_t player);
  /// With `on`, a define of no parameter is evaluated once per start() (and set_mover()),
  /// its value then reused: for reading one state many ways (`explore --observe`). exec()
  /// and legal(), which may write the state, remember nothing. Off by default.
  void remember_defines(bool on);
  /// Stores a scalar in slot `slot` of the frame (a move's or a property's parameter).
  void set_local(int slot, int64_t value);

  /// The value of a scalar expression (1 or 0 for a condition) in the frame.
  engine::Status scalar(const ir::Expr& e, int64_t& out);
  /// The value of any expression in the frame.
  engine::Status value(const ir::Expr& e, interp::Value& out);
  /// Runs a block (a move's body) in the frame.
  engine::Status exec(const ir::Block& block);
  /// Whether one instance of `move` (arguments as values) is legal for the mover.
  engine::Status legal(int move, const int32_t* args, bool& out);
  /// The value of define `define` (index in program.functions) on `args`, one per
  /// parameter: scalars in `scalar`, sets as bitsets over the parameter's domain.
  engine::Status call(int define, const std::vector<interp::Value>& args, interp::Value& out);

 private:
  template <class F> engine::Status guarded(F&& f);
  const Interpreter& interpreter_;
  std::unique_ptr<interp::Run> run_;
};

}  // namespace rulebook::compiler
