// Evaluation outside play: expressions, blocks and defines of the rules on a given state,
// with the errors of the rules returned as a Status.
#include <stdexcept>

#include "compiler/interp/interpret.h"
#include "compiler/interp/interpret_internal.h"

namespace rulebook::compiler {

Evaluator::Evaluator(const Interpreter& interpreter)
    : interpreter_(interpreter), run_(std::make_unique<interp::Run>(*interpreter.machine_, nullptr)) {}

Evaluator::~Evaluator() = default;

void Evaluator::start(uint8_t* state, int locals) {
  interp::Run& r = *run_;
  r.state_ = state;
  r.mover_ = r.get(ir::kVarMover);
  r.base_ = r.top_ = 0;
  r.depth_ = 0;
  r.can_depth_ = 0;
  r.again_ = false;
  r.push_frame(locals);
  for (int i = 0; i < locals; ++i) r.local(i) = interp::Value{};
  r.forget();
}

void Evaluator::set_mover(int64_t player) {
  run_->mover_ = player;
  run_->forget();
}

void Evaluator::remember_defines(bool on) {
  interp::Run& r = *run_;
  r.remember_ = on;
  r.remembered_.assign(on ? interpreter_.program().functions.size() : 0, interp::Value{});
  r.remembered_known_.assign(r.remembered_.size(), 0);
}

void Evaluator::set_local(int slot, int64_t value) { run_->local(slot).scalar = value; }

// An error thrown deep inside (within can(), a board-rule check or a call) leaves the run
// in a callee's frame, maybe on a scratch copy of the state: it is put back where it was.
template <class F>
engine::Status Evaluator::guarded(F&& f) {
  interp::Run& r = *run_;
  const size_t base = r.base_, top = r.top_;
  uint8_t* const state = r.state_;
  const int64_t mover = r.mover_;
  auto restore = [&] {
    r.base_ = base;
    r.top_ = top;
    r.state_ = state;
    r.mover_ = mover;
    r.depth_ = 0;
    r.can_depth_ = 0;
    r.again_ = false;
  };
  try {
    f(r);
    return engine::Status::Ok();
  } catch (const interp::RuleError& e) {
    restore();
    return engine::Status::Error(e.message);
  } catch (const std::exception& e) {
    restore();
    return engine::Status::Error(std::string("internal error: ") + e.what());
  }
}

engine::Status Evaluator::scalar(const ir::Expr& e, int64_t& out) {
  return guarded([&](interp::Run& r) { out = r.scalar(e); });
}

engine::Status Evaluator::value(const ir::Expr& e, interp::Value& out) {
  return guarded([&](interp::Run& r) { out = r.value(e); });
}

engine::Status Evaluator::exec(const ir::Block& block) {
  // A body writes the state: nothing is remembered across it.
  const interp::Run::NotRemembering writing(*run_);
  run_->forget();
  return guarded([&](interp::Run& r) { r.exec(block); });
}

engine::Status Evaluator::legal(int move, const int32_t* args, bool& out) {
  const interp::Run::NotRemembering writing(*run_);
  run_->forget();
  return guarded([&](interp::Run& r) { out = r.legal_instance(move, args); });
}

engine::Status Evaluator::call(int define, const std::vector<interp::Value>& args, interp::Value& out) {
  const ir::Function& f = interpreter_.program().functions.at(size_t(define));
  if (args.size() != f.params.size())
    return engine::Status::Error("internal error: a define called with the wrong number of arguments");
  return guarded([&](interp::Run& r) {
    const size_t frame = r.reserve_frame(f.locals);
    for (size_t i = 0; i < args.size(); ++i) r.stack_[frame + i] = args[i];
    out = r.call_bound(f, frame);
  });
}

}  // namespace rulebook::compiler
