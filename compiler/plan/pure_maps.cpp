// Pure maps of one local, evaluated by the interpreter when the engine is planned (see
// pure_maps.h): what the rules say a neighbour or a step is, not what the C++ would compute.
#include "compiler/plan/pure_maps.h"

#include <algorithm>
#include <set>

#include "compiler/interp/interpret.h"
#include "compiler/plan/analysis.h"

namespace rulebook::compiler::plan {

using ir::Op;

namespace {

void put_constant(ir::Expr& e, int slot, ir::Value value) {
  if (e.op == Op::Local && e.slot == slot) {
    e.op = Op::Const;
    e.value = value;
    e.slot = -1;
  }
  for (auto& a : e.args)
    if (a) put_constant(*a, slot, value);
}

}  // namespace

ir::ExprPtr substitute(const ir::Expr& e, int slot, ir::Value value) {
  ir::ExprPtr x = ir::clone_expr(e);
  put_constant(*x, slot, value);
  return x;
}

bool PureMap::total() const {
  for (int64_t t : to)
    if (t < 0) return false;
  return true;
}

std::optional<int64_t> PureMap::offset() const {
  std::optional<int64_t> d;
  for (size_t v = 0; v < to.size(); ++v) {
    if (to[v] < 0) continue;
    const int64_t here = to[v] - int64_t(v);
    if (d && *d != here) return std::nullopt;
    d = here;
  }
  return d;
}

std::vector<uint64_t> PureMap::defined() const {
  std::vector<uint64_t> bits((to.size() + 63) / 64, 0);
  for (size_t v = 0; v < to.size(); ++v)
    if (to[v] >= 0) bits[v / 64] |= uint64_t(1) << (v % 64);
  return bits;
}

PureMaps::PureMaps(const ir::Program& program, const ProgramFacts& facts) : program_(program), facts_(facts) {
  uint32_t files = 1;
  walk_program(program, [&](const ir::Expr& e) { files = std::max(files, e.span.file + 1); });
  for (uint32_t f = 0; f < files; ++f) placeholders_.add("rules", "");
  interpreter_ = std::make_unique<Interpreter>(program, placeholders_);
  evaluator_ = std::make_unique<Evaluator>(*interpreter_);
  state_.assign(interpreter_->info().state_bytes, 0);
}

PureMaps::~PureMaps() = default;

bool PureMaps::loop_free(const ir::Expr& e, int depth) const {
  // Evaluated once per value while the engine is planned: nothing whose time the rules
  // choose (a binder over a set, a range, a sum) may run, however deep in the calls.
  if (depth > 16) return false;
  bool ok = true;
  walk(e, [&](const ir::Expr& x) {
    if (!ok) return;
    if (is_binder(x.op) || x.op == Op::RangeSet || x.op == Op::Can) ok = false;
    // Built-ins of numbers and cells only (a set's largest group, its components... loop).
    if (x.op == Op::Builtin) {
      if (x.type->kind != ir::Type::Kind::Scalar) ok = false;
      for (const auto& a : x.args)
        if (a && a->type->kind != ir::Type::Kind::Scalar) ok = false;
    }
    if (x.op == Op::Call) {
      const ir::Function& F = program_.functions[size_t(x.function)];
      ok = F.body && loop_free(*F.body, depth + 1);
    }
  });
  return ok;
}

std::optional<PureMap> PureMaps::map(const ir::Expr& e, int slot, int from, int to) {
  if (from < 0 || to < 0 || !facts_.pure(e) || !loop_free(e, 0)) return std::nullopt;
  int locals = slot + 1;
  bool other_local = false;
  walk(e, [&](const ir::Expr& x) {
    if (x.op == Op::Local) {
      if (x.slot != slot) other_local = true;
      locals = std::max(locals, x.slot + 1);
    }
  });
  if (other_local) return std::nullopt;
  const ir::Domain& D = program_.domains[size_t(from)];
  PureMap m;
  m.to.resize(D.size);
  for (uint32_t v = 0; v < D.size; ++v) {
    evaluator_->start(state_.data(), locals);
    evaluator_->set_local(slot, ir::domain_value(program_.domains, from, v));
    int64_t out = 0;
    if (!evaluator_->scalar(e, out).ok) return std::nullopt;
    m.to[v] = ir::domain_index(program_.domains, to, out);
  }
  return m;
}

}  // namespace rulebook::compiler::plan
