// The interpreter's statements and play: legal moves with staged conditions, applying a
// move, setup and scores; the Engine interface over them (the turn after a move and the
// stuck loop: interpret_turn.cpp).
#include "compiler/interp/interpret.h"

#include <cstring>

#include <fmt/format.h>

#include "compiler/interp/interpret_internal.h"
#include "compiler/runtime/random.h"
#include "compiler/ir/run_errors.h"
#include "compiler/ir/text.h"
#include "dsl/integers.h"

namespace rulebook::compiler {

namespace interp {

Run::Run(const Machine& m, uint8_t* state) : m_(m), p_(m.p), state_(state) {
  stack_.resize(256);
  scratch_.reserve(16);
  if (state) mover_ = get(ir::kVarMover);
}

// ------------------------------------------------------------------ statements

void Run::store(const ir::StateVar& v, int64_t element, int64_t value, dsl::Span span, bool none) {
  int64_t idx = ir::domain_index(p_.domains, v.domain, value);
  if (idx < 0)
    m_.fail(span, run_errors::stored_outside(run_errors::value_text(value, none),
                                             p_.domains[size_t(v.domain)].name, v.name));
  ir::store_index(state_, v, uint32_t(element), uint32_t(idx));
}

void Run::store_whole(const ir::StateVar& v, int64_t base, size_t key, const Value& value,
                      dsl::Span span, bool none) {
  if (key == v.keys.size()) {
    store(v, base, value.scalar, span, none);
    return;
  }
  const uint32_t n = m_.domain_size(v.keys[key]);
  if (v.is_set && key + 1 == v.keys.size()) {
    for (uint32_t i = 0; i < n; ++i)
      ir::store_index(state_, v, uint32_t(base * n + i),
                      i / 64 < value.set.size() && test(value.set, i) ? 1 : 0);
    return;
  }
  if (value.list.size() != n)
    m_.fail(span, run_errors::values_count(v.name, std::to_string(n), std::to_string(value.list.size())));
  for (uint32_t i = 0; i < n; ++i) store_whole(v, base * n + i, key + 1, value.list[i], span, none);
}

void Run::exec(const ir::Block& block) {
  for (const ir::StmtPtr& sp : block) {
    const ir::Stmt& s = *sp;
    if (cov_ && depth_ == 0) cov_->ran(s);
    switch (s.op) {
      case ir::StmtOp::Assign: {
        const ir::StateVar& v = p_.vars[size_t(s.var)];
        const size_t k = s.keys.size();
        const int64_t at = element(v, s.keys, k, s.span);
        if (k == v.keys.size()) {
          int64_t x = scalar(*s.value);
          if (s.assign != 0) {
            int64_t old = ir::domain_value(p_.domains, v.domain, ir::load_index(state_, v, uint32_t(at)));
            const char* failure = s.assign > 0 ? integers::add(old, x, x) : integers::sub(old, x, x);
            if (failure) m_.fail(s.span, failure);
          }
          store(v, at, x, s.span, s.assign == 0 && run_errors::may_be_none(p_.domains, s.value->type->domain));
        } else if (v.is_set && k + 1 == v.keys.size()) {
          Bits b;
          set_in(*s.value, v.keys.back(), b);
          const uint32_t n = m_.domain_size(v.keys.back());
          b.resize(words(n), 0);
          for (uint32_t i = 0; i < n; ++i) {
            uint32_t el = uint32_t(at * n + i);
            bool in = test(b, i);
            bool old = ir::load_index(state_, v, el) != 0;
            bool now = s.assign == 0 ? in : s.assign > 0 ? (old || in) : (old && !in);
            ir::store_index(state_, v, el, now);
          }
        } else {
          store_whole(v, at, k, value(*s.value), s.span, run_errors::holds_none(p_.domains, *s.value->type));
        }
        break;
      }
      case ir::StmtOp::If:
        exec(truth(*s.value) ? s.body : s.otherwise);
        break;
      case ir::StmtOp::For: {
        // The domain and `where` are evaluated once, before the body runs
        // (docs/language.md): the body cannot change which elements it visits.
        std::vector<std::decay_t<decltype(local(s.slot))>> chosen;
        each(*s.value, s.slot, [&] {
          if (!s.where || truth(*s.where)) chosen.push_back(local(s.slot));
          return true;
        });
        for (auto& v : chosen) {
          local(s.slot) = std::move(v);
          exec(s.body);
        }
        break;
      }
      case ir::StmtOp::Let:
        local(s.slot) = value(*s.value);
        break;
      case ir::StmtOp::Again:
        again_ = true;
        break;
      case ir::StmtOp::Eliminate: {
        int64_t q = scalar(*s.value);
        if (q < 0 || q >= p_.players)
          m_.fail(s.span, run_errors::eliminate_not_a_player(
                              run_errors::value_text(q, run_errors::may_be_none(p_.domains, s.value->type->domain))));
        put(ir::kVarOut, q, 1);
        break;
      }
      case ir::StmtOp::Goto:
        put(ir::kVarPhase, 0, s.phase);
        break;
      case ir::StmtOp::End:
        if (cov_ && depth_ == 0 && !get(ir::kVarOver)) cov_->ended(EndCause::EndStatement);
        put(ir::kVarOver, 0, 1);
        break;
    }
  }
}

// ------------------------------------------------------------------ legal moves

namespace {

template <class F>
bool choose(Run& r, const ir::Move& mv, const std::vector<std::vector<int>>& st, size_t k,
            F& emit) {
  auto stage_holds = [&](size_t s) {
    for (int item : st[s]) {
      const ir::Expr& c = item >= 0 ? *mv.requires_[size_t(item)] : *mv.checks[size_t(~item)].condition;
      if (!r.truth(c)) return false;
    }
    return true;
  };
  if (k == mv.params.size()) {
    if (r.m_.has_board_rules && !r.board_rules_hold(mv)) return true;
    int32_t args[engine::kMaxMoveArgs] = {0, 0, 0, 0};
    for (size_t i = 0; i < mv.params.size() && i < size_t(engine::kMaxMoveArgs); ++i)
      args[i] = int32_t(r.local(int(i)).scalar);
    return emit(args);
  }
  const int d = mv.params[k].domain;
  const uint32_t n = r.m_.domain_size(d);
  for (uint32_t i = 0; i < n; ++i) {
    r.local(int(k)).scalar = ir::domain_value(r.p_.domains, d, i);
    if (stage_holds(k + 1) && !choose(r, mv, st, k + 1, emit)) return false;
  }
  return true;
}

}  // namespace

template <class F>
bool Run::instances(int move, F&& emit) {
  const ir::Move& mv = p_.moves[size_t(move)];
  const auto& st = m_.stages[size_t(move)];
  size_t saved = push_frame(mv.locals);
  bool go = true;
  bool first = true;
  for (int item : st[0]) {
    const ir::Expr& c = item >= 0 ? *mv.requires_[size_t(item)] : *mv.checks[size_t(~item)].condition;
    if (!truth(c)) {
      first = false;
      break;
    }
  }
  if (first) go = choose(*this, mv, st, 0, emit);
  pop_frame(saved, mv.locals);
  return go;
}

bool Run::legal_instance(int move, const int32_t* args) {
  const ir::Move& mv = p_.moves[size_t(move)];
  const auto& st = m_.stages[size_t(move)];
  size_t saved = push_frame(mv.locals);
  for (size_t i = 0; i < mv.params.size(); ++i) local(int(i)).scalar = args[i];
  bool ok = true;
  for (size_t s = 0; s < st.size() && ok; ++s) {
    for (int item : st[s]) {
      const ir::Expr& c = item >= 0 ? *mv.requires_[size_t(item)] : *mv.checks[size_t(~item)].condition;
      if (!truth(c)) {
        ok = false;
        break;
      }
    }
  }
  if (ok && m_.has_board_rules) ok = board_rules_hold(mv);
  pop_frame(saved, mv.locals);
  return ok;
}

bool Run::board_rules_hold(const ir::Move& mv) {
  if (scratch_.size() <= depth_) scratch_.emplace_back(p_.state_bytes);
  uint8_t* copy = scratch_[depth_].data();
  std::memcpy(copy, state_, p_.state_bytes);
  uint8_t* saved_state = state_;
  const bool saved_again = again_;
  const NotRemembering after_move(*this);  // the state after the move
  state_ = copy;
  ++depth_;
  exec(mv.body);
  bool ok = true;
  for (const ir::Rule& rule : p_.rules) {
    if (!rule.board_rule) continue;
    size_t saved = push_frame(rule.locals);
    ok = truth(*rule.condition);
    pop_frame(saved, rule.locals);
    if (!ok) break;
  }
  --depth_;
  state_ = saved_state;
  again_ = saved_again;
  return ok;
}

bool Run::can(int move, int64_t player) {
  const ir::Move& mv = p_.moves[size_t(move)];
  if (player < 0 || player >= p_.players) m_.fail(mv.span, "can: not a player");
  // A move whose legality asks can() about itself would never finish.
  if (can_depth_ > 64) m_.fail(mv.span, fmt::format("can({}) depends on itself", mv.name));
  const int64_t saved = mover_;
  const NotRemembering other_mover(*this);  // another mover, states after moves
  mover_ = player;
  ++can_depth_;
  bool found = !instances(move, [](const int32_t*) { return false; });
  --can_depth_;
  mover_ = saved;
  return found;
}

bool Run::has_legal_move() {
  const ir::Phase& ph = p_.phases[size_t(get(ir::kVarPhase))];
  for (int m : ph.moves)
    if (!instances(m, [](const int32_t*) { return false; })) return true;
  return false;
}

}  // namespace interp

// ------------------------------------------------------------------ the Engine

using interp::Run;

namespace {

template <class F>
engine::Status guarded(F&& f) {
  try {
    f();
    return engine::Status::Ok();
  } catch (const interp::RuleError& e) {
    return engine::Status::Error(e.message);
  } catch (const std::exception& e) {
    return engine::Status::Error(std::string("internal error: ") + e.what());
  }
}

}  // namespace

Interpreter::Interpreter(const ir::Program& program, const dsl::SourceSet& sources)
    : program_(program), machine_(std::make_unique<interp::Machine>(program, sources)) {
  info_.title = program.title;
  info_.state_bytes = program.state_bytes;
  info_.players = program.players;
  info_.player_names = program.player_names;
  for (const auto& ph : program.phases) info_.phase_names.push_back(ph.name);
  for (const auto& m : program.moves) {
    info_.move_names.push_back(m.name);
    info_.move_arity.push_back(int(m.params.size()));
  }
  info_.score_width = program.score.width;
  info_.score_per_team = program.score.per_team;
  info_.score_subjects = program.score.per_team ? int(program.geometry.teams.size()) : program.players;
  info_.highest_wins = program.score.highest;
}

Interpreter::~Interpreter() = default;

engine::Status Interpreter::setup(uint8_t* state, const engine::Setup& setup) const {
  std::vector<std::vector<uint32_t>> overrides;
  engine::Status s = setup_overrides(program_, setup, overrides);
  if (!s.ok) return s;
  return setup_indices(state, setup.seed, overrides);
}

engine::Status Interpreter::setup_indices(uint8_t* state, uint64_t seed,
                                          const std::vector<std::vector<uint32_t>>& overrides) const {
  return setup_run(state, seed, overrides, nullptr);
}

engine::Status Interpreter::setup_counted(uint8_t* state, const engine::Setup& setup, Coverage& coverage) const {
  std::vector<std::vector<uint32_t>> overrides;
  engine::Status s = setup_overrides(program_, setup, overrides);
  if (!s.ok) return s;
  return setup_run(state, setup.seed, overrides, &coverage);
}

engine::Status Interpreter::setup_run(uint8_t* state, uint64_t seed, const std::vector<std::vector<uint32_t>>& overrides,
                                      Coverage* coverage) const {
  const ir::Program& p = program_;
  return guarded([&] {
    std::memset(state, 0, p.state_bytes);
    Run r(*machine_, state);
    r.mover_ = 0;
    SplitMix64 rng(seed);
    for (size_t i = 0; i < p.setups.size(); ++i) {
      const ir::SetupVar& sv = p.setups[i];
      const ir::StateVar& v = p.vars[size_t(sv.var)];
      const std::vector<uint32_t>* given = i < overrides.size() && !overrides[i].empty() ? &overrides[i] : nullptr;
      if (!given && sv.source == ir::SetupVar::Source::Entries) given = &sv.entries[size_t(sv.default_entry)];
      if (given) {
        if (given->size() != v.count)
          machine_->fail(sv.span, run_errors::values_count(sv.name, std::to_string(v.count), std::to_string(given->size())));
        for (uint32_t k = 0; k < v.count; ++k) {
          if ((*given)[k] >= machine_->domain_size(v.domain))
            machine_->fail(sv.span, run_errors::given_outside(sv.name, p.domains[size_t(v.domain)].name));
          ir::store_index(state, v, k, (*given)[k]);
        }
        continue;
      }
      size_t frame = r.push_frame(sv.locals);
      if (sv.source == ir::SetupVar::Source::Value) {
        interp::Value val = r.value(*sv.value);
        if (v.is_set && sv.value->type->kind == ir::Type::Kind::Set) {
          interp::Bits b;
          r.set_in(*sv.value, v.keys.back(), b);
          val.set = b;
        }
        r.store_whole(v, 0, 0, val, sv.span, run_errors::holds_none(p.domains, *sv.value->type));
      } else {
        // random k of S / shuffle L: elements in ascending index (or list) order, then a
        // partial Fisher-Yates shuffle drawing from the stream.
        const ir::Expr& src = sv.source == ir::SetupVar::Source::Random ? *sv.from : *sv.value;
        std::vector<interp::Value> items;
        if (src.type->kind == ir::Type::Kind::Set) {
          interp::Bits b;
          r.set(src, b);
          for (int64_t k = 0; k < int64_t(b.size() * 64); ++k)
            if (interp::test(b, k)) {
              interp::Value x;
              x.scalar = ir::domain_value(p.domains, src.type->domain, k);
              items.push_back(x);
            }
        } else {
          items = r.list(src);
        }
        const int64_t n = int64_t(items.size());
        const int64_t k = sv.source == ir::SetupVar::Source::Random ? r.scalar(*sv.value) : n;
        if (k < 0 || k > n)
          machine_->fail(sv.span, run_errors::random_too_many(std::to_string(k), std::to_string(n)));
        for (int64_t j = 0; j < k; ++j) std::swap(items[size_t(j)], items[size_t(j + int64_t(rng.below(uint64_t(n - j))))]);
        if (sv.source == ir::SetupVar::Source::Random) {
          interp::Value chosen;
          const int d = v.keys.back();
          chosen.set.assign(interp::words(machine_->domain_size(d)), 0);
          for (int64_t j = 0; j < k; ++j) {
            int64_t idx = ir::domain_index(p.domains, d, items[size_t(j)].scalar);
            if (idx < 0)
              machine_->fail(sv.span, run_errors::drawn_outside(
                                          run_errors::value_text(items[size_t(j)].scalar,
                                                                 run_errors::holds_none(p.domains, *src.type)),
                                          p.domains[size_t(d)].name, sv.name));
            interp::set_bit(chosen.set, idx);
          }
          r.store_whole(v, 0, 0, chosen, sv.span);
        } else {
          interp::Value seq;
          seq.list = std::move(items);
          r.store_whole(v, 0, 0, seq, sv.span, run_errors::holds_none(p.domains, *src.type));
        }
      }
      r.pop_frame(frame, sv.locals);
    }
    size_t saved = r.push_frame(p.initial_locals);
    r.exec(p.initial);
    r.pop_frame(saved, p.initial_locals);
    r.cov_ = coverage;  // the rules' own blocks, not the initial values of declarations
    saved = r.push_frame(p.init_locals);
    r.exec(p.init);
    r.pop_frame(saved, p.init_locals);
    r.put(ir::kVarPhase, 0, 0);
    r.put(ir::kVarMover, 0, 0);
    r.stuck_loop();
  });
}

engine::Status Interpreter::legal_moves(const uint8_t* state, std::vector<engine::Move>& out) const {
  return guarded([&] {
    Run r(*machine_, const_cast<uint8_t*>(state));  // legal-move generation only reads it
    if (r.get(ir::kVarOver)) return;
    const ir::Phase& ph = program_.phases[size_t(r.get(ir::kVarPhase))];
    for (int m : ph.moves) {
      r.instances(m, [&](const int32_t* args) {
        engine::Move mv;
        mv.kind = m;
        for (int i = 0; i < engine::kMaxMoveArgs; ++i) mv.args[i] = args[i];
        out.push_back(mv);
        return true;
      });
    }
  });
}

engine::Status Interpreter::apply(uint8_t* state, const engine::Move& move) const {
  return apply_run(state, move, nullptr);
}

engine::Status Interpreter::apply_counted(uint8_t* state, const engine::Move& move, Coverage& coverage) const {
  return apply_run(state, move, &coverage);
}

engine::Status Interpreter::count_blocked(const uint8_t* state, Coverage& coverage) const {
  return guarded([&] {
    Run r(*machine_, const_cast<uint8_t*>(state));  // only reads it
    if (!r.get(ir::kVarOver)) interp::count_blocked(r, coverage);
  });
}

engine::Status Interpreter::apply_run(uint8_t* state, const engine::Move& move, Coverage* coverage) const {
  const ir::Program& p = program_;
  return guarded([&] {
    Run r(*machine_, state);
    r.cov_ = coverage;
    const std::string text = compiler::move_text(p, move);
    if (r.get(ir::kVarOver)) throw interp::RuleError{"the game is over: no move can be played"};
    const ir::Phase& ph = p.phases[size_t(r.get(ir::kVarPhase))];
    bool in_phase = false;
    for (int m : ph.moves) in_phase = in_phase || m == move.kind;
    if (!in_phase) throw interp::RuleError{fmt::format("'{}' is not a move of phase '{}'", text, ph.name)};
    const ir::Move& mv = p.moves[size_t(move.kind)];
    for (size_t i = 0; i < mv.params.size(); ++i)
      if (ir::domain_index(p.domains, mv.params[i].domain, move.args[i]) < 0)
        throw interp::RuleError{fmt::format("'{}': argument {} is out of range", text, i + 1)};
    // The move must be legal: the same conditions as legal_moves, for this instance only.
    if (!r.legal_instance(move.kind, move.args)) throw interp::RuleError{fmt::format("'{}' is not a legal move", text)};
    r.put(ir::kVarPasses, 0, 0);
    r.again_ = false;
    size_t saved = r.push_frame(mv.locals);
    for (size_t i = 0; i < mv.params.size(); ++i) r.local(int(i)).scalar = move.args[i];
    r.exec(mv.body);
    r.pop_frame(saved, mv.locals);
    r.after_move();
    r.stuck_loop();
  });
}

bool Interpreter::terminal(const uint8_t* state) const {
  return ir::load_index(state, program_.vars[ir::kVarOver], 0) != 0;
}

int Interpreter::phase(const uint8_t* state) const {
  return int(ir::load_index(state, program_.vars[ir::kVarPhase], 0));
}

int Interpreter::to_move(const uint8_t* state) const {
  return int(ir::load_index(state, program_.vars[ir::kVarMover], 0));
}

engine::Status Interpreter::scores(const uint8_t* state, std::vector<int64_t>& out) const {
  const ir::Score& sc = program_.score;
  return guarded([&] {
    Run r(*machine_, const_cast<uint8_t*>(state));
    for (int s = 0; s < info_.score_subjects; ++s) {
      if (!sc.value) {
        out.insert(out.end(), size_t(sc.width), 0);
        continue;
      }
      size_t saved = r.push_frame(sc.locals);
      r.local(0).scalar = s;
      if (sc.value->type->kind == ir::Type::Kind::List) {
        std::vector<interp::Value> items = r.list(*sc.value);
        for (int i = 0; i < sc.width; ++i) out.push_back(size_t(i) < items.size() ? items[size_t(i)].scalar : 0);
      } else {
        out.push_back(r.scalar(*sc.value));
      }
      r.pop_frame(saved, sc.locals);
    }
  });
}

uint64_t Interpreter::hash(const uint8_t* state) const {
  return engine::hash_bytes(state, program_.state_bytes);
}

std::string Interpreter::move_text(const engine::Move& move) const {
  return compiler::move_text(program_, move);
}

std::string Interpreter::board_text(const uint8_t* state) const {
  return compiler::board_text(program_, state);
}

engine::Status Interpreter::perft(const uint8_t* state, int depth, uint64_t& count) const {
  count = 0;
  if (depth <= 0) {
    count = 1;
    return engine::Status::Ok();
  }
  std::vector<engine::Move> moves;
  engine::Status s = legal_moves(state, moves);
  if (!s.ok || depth == 1) {
    count = moves.size();
    return s;
  }
  std::vector<uint8_t> next(program_.state_bytes);
  for (const engine::Move& m : moves) {
    std::memcpy(next.data(), state, program_.state_bytes);
    if (!(s = apply(next.data(), m)).ok) return s;
    uint64_t sub = 0;
    if (!(s = perft(next.data(), depth - 1, sub)).ok) return s;
    count += sub;
  }
  return engine::Status::Ok();
}

engine::Status Interpreter::metric(const uint8_t* state, int index, bool& recorded,
                                   int64_t& value) const {
  const ir::Metric& m = program_.metrics[size_t(index)];
  recorded = false;
  value = 0;
  return guarded([&] {
    Run r(*machine_, const_cast<uint8_t*>(state));
    size_t saved = r.push_frame(m.locals);
    recorded = m.when ? r.truth(*m.when) : r.get(ir::kVarOver) != 0;
    if (recorded) value = r.scalar(*m.value);
    r.pop_frame(saved, m.locals);
  });
}

engine::Status Interpreter::observe(const uint8_t* state, int index, bool value_only, bool& in,
                                    int64_t& value) const {
  in = false;
  value = 0;
  if (index < 0 || size_t(index) >= program_.properties.size() || !program_.properties[size_t(index)].over_play)
    return engine::Status::Error(fmt::format("internal: property {} is not one over play", index));
  const ir::Property& p = program_.properties[size_t(index)];
  return guarded([&] {
    Run r(*machine_, const_cast<uint8_t*>(state));
    size_t saved = r.push_frame(p.locals);
    in = !value_only && (p.phase < 0 || r.get(ir::kVarPhase) == p.phase) && (!p.where || r.truth(*p.where));
    if (in || value_only)
      value = p.expr->type->domain == ir::kBoolDomain ? int64_t(r.truth(*p.expr)) : r.scalar(*p.expr);
    r.pop_frame(saved, p.locals);
  });
}

}  // namespace rulebook::compiler
