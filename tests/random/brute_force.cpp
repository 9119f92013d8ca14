// Brute force over a property's set: an odometer over the elements of the variables the
// question reads, each state (and move instance) read by the interpreter.
#include "tests/random/brute_force.h"

#include <fmt/core.h>

#include <algorithm>
#include <functional>
#include <set>

#include "compiler/interp/interpret.h"

namespace rulebook::testing {

namespace {

using compiler::interp::Run;
using compiler::interp::RuleError;
using ir::Op;

/// The state variables an expression, block or move can read (through calls and can()).
/// Written here again, not taken from the verifier, so that a variable the verifier's own
/// analysis forgets shows up as a disagreement instead of being forgotten twice.
class Reads {
 public:
  explicit Reads(const ir::Program& p) : p_(p) {}

  void expr(const ir::Expr& e) {
    switch (e.op) {
      case Op::Read: vars.insert(e.var); break;
      case Op::Mover: vars.insert(ir::kVarMover); break;
      case Op::Phase: vars.insert(ir::kVarPhase); break;
      case Op::Builtin:
        if (e.builtin == dsl::BuiltinId::Out) vars.insert(ir::kVarOut);
        if (e.builtin == dsl::BuiltinId::Mover) vars.insert(ir::kVarMover);
        break;
      case Op::Call:
        if (fns_.insert(e.function).second) expr(*p_.functions[size_t(e.function)].body);
        break;
      case Op::Can:
        vars.insert(ir::kVarMover);
        move(e.move);
        break;
      default: break;
    }
    for (const ir::ExprPtr& a : e.args)
      if (a) expr(*a);
  }

  void block(const ir::Block& b) {
    for (const ir::StmtPtr& s : b) {
      // `+=` and `-=` read the old value; a partial store keeps the others.
      if (s->op == ir::StmtOp::Assign) vars.insert(s->var);
      for (const ir::ExprPtr& k : s->keys) expr(*k);
      if (s->value) expr(*s->value);
      if (s->where) expr(*s->where);
      block(s->body);
      block(s->otherwise);
    }
  }

  /// A move's legality and body (can() plays the body and checks the board rules).
  void move(int m) {
    if (!moves_.insert(m).second) return;
    const ir::Move& mv = p_.moves[size_t(m)];
    for (const ir::ExprPtr& r : mv.requires_) expr(*r);
    for (const ir::Check& c : mv.checks) expr(*c.condition);
    block(mv.body);
    board_rules();
  }

  void board_rules() {
    for (const ir::Rule& r : p_.rules)
      if (r.board_rule) expr(*r.condition);
  }

  std::set<int> vars;

 private:
  const ir::Program& p_;
  std::set<int> fns_, moves_;
};

/// Saturating product (a count of states above any budget stays above it).
uint64_t times(uint64_t a, uint64_t b) {
  constexpr uint64_t kCap = uint64_t(1) << 62;
  if (a == 0 || b == 0) return 0;
  return a > kCap / b ? kCap : a * b;
}

bool scalar_type(const ir::Expr& e) { return e.type && e.type->kind == ir::Type::Kind::Scalar; }

}  // namespace

struct BruteForce::Impl {
  Impl(const ir::Program& program, const dsl::SourceSet& s, BruteOptions options)
      : p(program), sources(s), o(options), machine(program, s), run(machine, nullptr), after(machine, nullptr) {
    // Elements nothing reads keep the values of the game's setup (seed 1), as on the
    // verifier's boards.
    base.assign(p.state_bytes, 0);
    compiler::Interpreter in(p, sources);
    (void)in.setup(base.data(), engine::Setup{});
  }

  const ir::Program& p;
  const dsl::SourceSet& sources;
  BruteOptions o;
  compiler::interp::Machine machine;
  Run run, after;  // the state before, and after a move's body
  std::vector<uint8_t> base, after_state;
  std::set<std::string> dropped;  // rules not assumed (depends)

  static void reset(Run& r) {
    r.base_ = r.top_ = 0;
    r.depth_ = 0;
    r.can_depth_ = 0;
    r.again_ = false;
  }

  /// Where a run was, to come back to after a rule error: an error thrown inside can()
  /// leaves the mover and, with board rules, the state pointing at a scratch copy.
  struct Mark {
    size_t base, top;
    uint8_t* state;
    int64_t mover;
  };
  static Mark mark(const Run& r) { return Mark{r.base_, r.top_, r.state_, r.mover_}; }
  static void restore(Run& r, const Mark& k) {
    r.base_ = k.base;
    r.top_ = k.top;
    r.state_ = k.state;
    r.mover_ = k.mover;
    r.depth_ = 0;
    r.can_depth_ = 0;
    r.again_ = false;
  }

  static compiler::interp::Value scalar_value(int64_t v) {
    compiler::interp::Value out;
    out.scalar = v;
    return out;
  }

  static void point(Run& r, uint8_t* state) {
    reset(r);
    r.state_ = state;
    r.mover_ = r.get(ir::kVarMover);
  }

  /// Whether every board rule (but `skip`) holds without error on the run's state.
  bool rules_hold(Run& r, const std::string& skip = "") {
    for (const ir::Rule& rule : p.rules) {
      if (!rule.board_rule || rule.name == skip || dropped.count(rule.name)) continue;
      if (holds(r, *rule.condition, rule.locals) != 1) return false;
    }
    return true;
  }

  /// 1 when `e` holds in a frame of its own, 0 when not, -1 when it errs.
  int holds(Run& r, const ir::Expr& e, int locals) {
    const Mark k = mark(r);
    try {
      const size_t saved = r.push_frame(std::max(locals, 1));
      const bool v = r.truth(e);
      r.pop_frame(saved, std::max(locals, 1));
      return v ? 1 : 0;
    } catch (const RuleError&) {
      restore(r, k);
      return -1;
    }
  }

  /// The property's `where` and value in the run's current frame (the element is in the
  /// set only if `where` holds without error).
  void read_property(Run& r, const ir::Property& prop, Element& el, bool with_where = true) {
    const Mark k = mark(r);
    try {
      if (with_where && prop.where && !r.truth(*prop.where)) return;
    } catch (const RuleError&) {
      restore(r, k);
      return;
    }
    el.in_set = true;
    try {
      if (scalar_type(*prop.expr)) el.value.scalar = r.scalar(*prop.expr);
      else el.value = r.value(*prop.expr);
    } catch (const RuleError& e) {
      restore(r, k);
      el.err = true;
      el.error = e.message;
    }
  }

  /// An element over boards: the state `s` (already in `run`).
  Element board_element(const ir::Property& prop) {
    Element el;
    if (prop.phase >= 0 && run.get(ir::kVarPhase) != prop.phase) return el;
    if (prop.kind == ir::PropertyKind::Redundant) {
      // The other board rules hold; the value says whether the rule does (a rule that is
      // not a board rule is never shown to hold: the verifier asks only for the others).
      if (!rules_hold(run, prop.subject)) return el;
      el.in_set = true;
      for (const ir::Rule& rule : p.rules)
        if (rule.name == prop.subject && rule.board_rule) el.value.scalar = holds(run, *rule.condition, rule.locals) == 1;
      return el;
    }
    if (!rules_hold(run)) return el;
    if (prop.kind == ir::PropertyKind::Consistent) {
      el.in_set = true;
      return el;
    }
    const int locals = std::max(prop.locals, 1);
    const size_t saved = run.push_frame(locals);
    read_property(run, prop, el);
    run.pop_frame(saved, locals);
    return el;
  }

  /// An element over moves: move `prop.moves[mi]` with parameter values `args`, played
  /// from the state in `run` (whose board rules and phase the caller has checked).
  Element move_element(const ir::Property& prop, size_t mi, const std::vector<int64_t>& args) {
    Element el;
    const ir::Move& mv = p.moves[size_t(prop.moves[mi])];
    const int mlocals = std::max({mv.locals, int(mv.params.size()), 1});
    // No move once the game is over; `where` is read before the move, the parameters
    // bound by name.
    if (run.get(ir::kVarOver) != 0) return el;
    const auto& bound = prop.move_params[mi];
    const int locals = std::max(prop.locals, std::max(int(bound.size()), 1));
    if (prop.where) {
      const Mark k = mark(run);
      try {
        const size_t saved = run.push_frame(locals);
        for (size_t s = 0; s < bound.size(); ++s)
          if (bound[s] >= 0) run.local(int(s)) = scalar_value(args[size_t(bound[s])]);
        const bool in = run.truth(*prop.where);
        run.pop_frame(saved, locals);
        if (!in) return el;
      } catch (const RuleError&) {
        restore(run, k);
        return el;
      }
    }
    // Legal: every requires and move rule holds before (each without error).
    {
      const Mark k = mark(run);
      try {
        const size_t saved = run.push_frame(mlocals);
        for (size_t i = 0; i < args.size(); ++i) run.local(int(i)) = scalar_value(args[i]);
        bool ok = true;
        for (const ir::ExprPtr& r : mv.requires_) ok = ok && run.truth(*r);
        for (const ir::Check& c : mv.checks)
          if (!dropped.count(p.rules[size_t(c.rule)].name)) ok = ok && run.truth(*c.condition);
        run.pop_frame(saved, mlocals);
        if (!ok) return el;
      } catch (const RuleError&) {
        restore(run, k);
        return el;
      }
    }
    // The body, run without error on a copy; the board rules hold after it.
    after_state.assign(run.state_, run.state_ + p.state_bytes);
    point(after, after_state.data());
    after.mover_ = run.mover_;
    try {
      const size_t saved = after.push_frame(mlocals);
      for (size_t i = 0; i < args.size(); ++i) after.local(int(i)) = scalar_value(args[i]);
      after.exec(mv.body);
      after.pop_frame(saved, mlocals);
    } catch (const RuleError&) {
      return el;
    }
    reset(after);
    after.mover_ = run.mover_;
    if (!rules_hold(after)) return el;
    // Read after the move, the parameters bound by name.
    const size_t saved = after.push_frame(locals);
    for (size_t s = 0; s < bound.size(); ++s)
      if (bound[s] >= 0) after.local(int(s)) = scalar_value(args[size_t(bound[s])]);
    read_property(after, prop, el, false);
    after.pop_frame(saved, locals);
    return el;
  }

  /// Every parameter tuple of a move, as values.
  std::vector<std::vector<int64_t>> tuples(const ir::Move& mv) const {
    std::vector<std::vector<int64_t>> out(1);
    for (const ir::MoveParam& param : mv.params) {
      std::vector<std::vector<int64_t>> next;
      const ir::Domain& d = p.domains[size_t(param.domain)];
      for (const auto& t : out)
        for (uint32_t i = 0; i < d.size; ++i) {
          next.push_back(t);
          next.back().push_back(ir::domain_value(p.domains, param.domain, i));
        }
      out = std::move(next);
    }
    return out;
  }

  std::set<int> read_set(const ir::Property& prop, int move) const {
    Reads r(p);
    r.board_rules();
    if (prop.where) r.expr(*prop.where);
    if (prop.expr) r.expr(*prop.expr);
    if (prop.phase >= 0) r.vars.insert(ir::kVarPhase);
    if (move >= 0) {
      r.move(move);
      r.vars.insert(ir::kVarMover);  // the move's text names the mover
      r.vars.insert(ir::kVarPhase);
      r.vars.insert(ir::kVarOver);  // no move once the game is over
    }
    return r.vars;
  }

  /// One digit of the odometer: an element of a variable.
  struct Digit {
    const ir::StateVar* var;
    uint32_t element;
    uint32_t size;
  };

  /// Calls `each()` for every state of the variables `vars` (the phase fixed to `phase`
  /// when it is >= 0), other elements as in the setup. False when over the budget.
  bool enumerate(const std::set<int>& vars, int phase, uint64_t per_state, uint64_t& states,
                 const std::function<void()>& each) {
    std::vector<Digit> digits;
    std::vector<uint8_t> state = base;
    states = 1;
    for (int v : vars) {
      const ir::StateVar& var = p.vars[size_t(v)];
      if (v == ir::kVarPhase && phase >= 0) {
        ir::store_index(state.data(), var, 0, uint32_t(phase));
        continue;
      }
      const uint32_t size = p.domains[size_t(var.domain)].size;
      for (uint32_t i = 0; i < var.count; ++i) {
        digits.push_back(Digit{&var, i, size});
        states = times(states, size);
        ir::store_index(state.data(), var, i, 0);
      }
    }
    if (states > o.max_states || times(states, per_state) > o.max_work) return false;
    point(run, state.data());
    std::vector<uint32_t> at(digits.size(), 0);
    while (true) {
      run.mover_ = run.get(ir::kVarMover);
      reset(run);
      each();
      size_t i = 0;
      for (; i < digits.size(); ++i) {
        const Digit& d = digits[i];
        if (++at[i] < d.size) {
          ir::store_index(state.data(), *d.var, d.element, at[i]);
          break;
        }
        at[i] = 0;
        ir::store_index(state.data(), *d.var, d.element, 0);
      }
      if (i == digits.size()) return true;
    }
  }
};

BruteForce::BruteForce(const ir::Program& program, const dsl::SourceSet& sources, BruteOptions options)
    : impl_(std::make_unique<Impl>(program, sources, options)) {}

BruteForce::~BruteForce() = default;

void BruteForce::drop_rules(const std::set<std::string>& names) { impl_->dropped = names; }

std::vector<int> BruteForce::enumerated_vars(const ir::Property& prop, int move) const {
  std::set<int> s = impl_->read_set(prop, move);
  return {s.begin(), s.end()};
}

BruteVerdict BruteForce::verdict(const ir::Property& prop) {
  Impl& m = *impl_;
  BruteVerdict out;
  const std::string kind = ir::kind_name(prop.kind);
  if (kind == "depends") {
    out.verdict = "unsupported";
    return out;
  }
  bool any_true = false, any_bad = false, constant = true;
  std::optional<int64_t> lo, hi;
  std::optional<compiler::interp::Value> first;
  auto take = [&](const Element& el) {
    if (!el.in_set) return;
    ++out.elements;
    if (kind == "consistent") return;
    if (kind == "redundant") {
      any_bad = any_bad || el.value.scalar == 0;
      return;
    }
    if (el.err) {
      out.any_error = true;
      any_bad = true;
      return;
    }
    const int64_t v = el.value.scalar;
    any_true = any_true || v != 0;
    any_bad = any_bad || v == 0;
    lo = lo ? std::min(*lo, v) : v;
    hi = hi ? std::max(*hi, v) : v;
    if (!first) first = el.value;
    else if (!(*first == el.value)) constant = false;
  };
  bool fits = true;
  if (!prop.over_moves) {
    uint64_t states = 0;
    fits = m.enumerate(m.read_set(prop, -1), prop.phase, 1, states, [&] { take(m.board_element(prop)); });
    out.states += states;
  } else {
    for (size_t mi = 0; mi < prop.moves.size() && fits; ++mi) {
      const ir::Move& mv = m.p.moves[size_t(prop.moves[mi])];
      const auto tuples = m.tuples(mv);
      uint64_t states = 0;
      fits = m.enumerate(m.read_set(prop, prop.moves[mi]), mv.phase, tuples.size(), states, [&] {
        if (!m.rules_hold(m.run)) return;
        for (const auto& args : tuples) take(m.move_element(prop, mi, args));
      });
      out.states += states;
    }
  }
  if (!fits) {
    out.verdict = "too large";
    out.detail = fmt::format("more than {} states or {} move instances", m.o.max_states, m.o.max_work);
    return out;
  }
  const bool some = out.elements > 0;
  if (kind == "prove" || kind == "lemma" || kind == "criterion") {
    out.verdict = any_bad ? "refuted" : some ? "proved" : "vacuous";
  } else if (kind == "find") {
    out.verdict = any_true ? "found" : "none";
  } else if (kind == "bound") {
    out.verdict = out.any_error ? "error" : some ? "bound" : "empty";
    if (some && !out.any_error) out.value = prop.maximize ? *hi : *lo;
  } else if (kind == "derive") {
    // An expression erring on every element is no constant (nor an empty set).
    out.verdict = !first ? (out.any_error ? "not-constant" : "empty") : (out.any_error || !constant) ? "not-constant" : "derived";
    if (first && out.verdict == "derived" && scalar_type(*prop.expr)) out.value = first->scalar;
  } else if (kind == "consistent") {
    out.verdict = some ? "consistent" : "inconsistent";
  } else if (kind == "redundant") {
    out.verdict = any_bad ? "not-redundant" : "redundant";
  } else {
    out.verdict = "unsupported";
  }
  return out;
}

std::optional<Element> BruteForce::element(const ir::Property& prop, const std::vector<uint8_t>& state,
                                           const std::string& move_text) {
  Impl& m = *impl_;
  std::vector<uint8_t> s = state;
  if (s.size() != m.p.state_bytes) return std::nullopt;
  Impl::point(m.run, s.data());
  if (!prop.over_moves) return m.board_element(prop);
  const int mover = int(m.run.get(ir::kVarMover));
  const std::string who = mover >= 0 && mover < int(m.p.player_names.size()) ? m.p.player_names[size_t(mover)] : "?";
  for (size_t mi = 0; mi < prop.moves.size(); ++mi) {
    const ir::Move& mv = m.p.moves[size_t(prop.moves[mi])];
    for (const auto& args : m.tuples(mv)) {
      std::string list;
      for (size_t i = 0; i < args.size(); ++i)
        list += (i ? ", " : "") + ir::value_text(m.p.domains, mv.params[i].domain, args[i]);
      if (fmt::format("{} plays {}({})", who, mv.name, list) != move_text) continue;
      Element el;
      if (m.run.get(ir::kVarPhase) != mv.phase || !m.rules_hold(m.run)) return el;
      Impl::reset(m.run);
      return m.move_element(prop, mi, args);
    }
  }
  return std::nullopt;
}

}  // namespace rulebook::testing
