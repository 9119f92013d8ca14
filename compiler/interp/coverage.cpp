// The sites coverage counts, found by walking the program once, and the interpreter's
// counting that needs more than a hook: the alternatives of `end when`, and which single
// condition blocked an instance of a move.
#include "compiler/interp/coverage.h"

#include <cstring>

#include "compiler/interp/interpret_internal.h"

namespace rulebook::compiler {

const char* end_cause_text(EndCause cause) {
  switch (cause) {
    case EndCause::EndWhen: return "end when";
    case EndCause::Transition: return "until ... -> end";
    case EndCause::EndStatement: return "end statement";
    case EndCause::NobodyCanMove: return "nobody can move";
    case EndCause::AllOut: return "every player out";
  }
  return "?";
}

namespace {

std::string statement_what(const ir::Program& p, const ir::Stmt& s) {
  switch (s.op) {
    case ir::StmtOp::Assign: return "store " + p.vars[size_t(s.var)].name;
    case ir::StmtOp::If: return "if";
    case ir::StmtOp::For: return "for";
    case ir::StmtOp::Let: return "let";
    case ir::StmtOp::Again: return "again";
    case ir::StmtOp::Eliminate: return "eliminate";
    case ir::StmtOp::Goto: return "goto " + p.phases[size_t(s.phase)].name;
    case ir::StmtOp::End: return "end";
  }
  return "?";
}

/// The alternatives of a condition: its operands at the top-level `or`s, left to right.
void split_or(const ir::Expr& e, std::vector<const ir::Expr*>& out) {
  if (e.op == ir::Op::Or) {
    split_or(*e.args[0], out);
    split_or(*e.args[1], out);
    return;
  }
  out.push_back(&e);
}

}  // namespace

Coverage::Coverage(const ir::Program& program) : program_(program) {
  const ir::Program& p = program;
  add_block(p.init, "init");
  for (size_t m = 0; m < p.moves.size(); ++m) {
    const ir::Move& mv = p.moves[m];
    requires_base_.push_back(int(sites_.size()));
    for (const ir::ExprPtr& r : mv.requires_)
      add_site({CoverageSite::Kind::Requires, "move " + mv.name, "requires", int(m), r->span});
    checks_base_.push_back(int(sites_.size()));
    for (const ir::Check& c : mv.checks) {
      const ir::Rule& rule = p.rules[size_t(c.rule)];
      add_site({CoverageSite::Kind::Rule, "move " + mv.name, rule.name, int(m), rule.span});
    }
    add_block(mv.body, "move " + mv.name);
  }
  for (const ir::Phase& ph : p.phases) {
    if (ph.has_stuck) add_block(ph.stuck, "when stuck in " + ph.name);
    transition_base_.push_back(int(sites_.size()));
    for (const ir::Transition& t : ph.transitions)
      add_site({CoverageSite::Kind::Transition, "phase " + ph.name,
                "until -> " + (t.target < 0 ? std::string("end") : p.phases[size_t(t.target)].name), -1, t.span});
  }
  for (const ir::Rule& rule : p.rules)
    board_rule_site_.push_back(rule.board_rule ? add_site({CoverageSite::Kind::BoardRule, "board", rule.name, -1, rule.span}) : -1);
  end_base_ = int(sites_.size());
  if (p.end_when) split_or(*p.end_when, end_parts_);
  for (const ir::Expr* e : end_parts_) add_site({CoverageSite::Kind::EndCondition, "end when", "", -1, e->span});
  counts.assign(sites_.size(), 0);
  legal_in.assign(p.moves.size(), 0);
  instances.assign(p.moves.size(), 0);
  chosen.assign(p.moves.size(), 0);
  games_chosen.assign(p.moves.size(), 0);
}

int Coverage::add_site(CoverageSite site) {
  sites_.push_back(std::move(site));
  return int(sites_.size()) - 1;
}

void Coverage::add_block(const ir::Block& block, const std::string& where) {
  for (const ir::StmtPtr& s : block) {
    statement_site_[s.get()] = add_site({CoverageSite::Kind::Statement, where, statement_what(program_, *s), -1, s->span});
    add_block(s->body, where);
    add_block(s->otherwise, where);
  }
}

void Coverage::add(const Coverage& other) {
  for (size_t i = 0; i < counts.size() && i < other.counts.size(); ++i) counts[i] += other.counts[i];
  for (size_t i = 0; i < kEndCauses; ++i) ended_by[i] += other.ended_by[i];
  for (size_t m = 0; m < chosen.size() && m < other.chosen.size(); ++m) {
    legal_in[m] += other.legal_in[m];
    instances[m] += other.instances[m];
    chosen[m] += other.chosen[m];
    games_chosen[m] += other.games_chosen[m];
  }
  decisions += other.decisions;
  blocked_decisions += other.blocked_decisions;
  blocked_work += other.blocked_work;
}

namespace interp {

namespace {

/// A condition's truth, or -1 when evaluating it is a run-time error (then the run is
/// put back as it was, as an error thrown through frames leaves it).
int guarded_truth(Run& r, const ir::Expr& e) {
  const size_t base = r.base_, top = r.top_;
  const int64_t mover = r.mover_;
  const size_t depth = r.depth_;
  const int can_depth = r.can_depth_;
  uint8_t* const state = r.state_;
  try {
    return r.truth(e) ? 1 : 0;
  } catch (const RuleError&) {
    r.base_ = base, r.top_ = top, r.mover_ = mover, r.depth_ = depth, r.can_depth_ = can_depth;
    r.state_ = state;
    return -1;
  }
}

constexpr int kNone = 0x7fffffff;  ///< no condition failed (a condition item is >= 0 or ~index)

/// How many board rules fail after the body of `mv` (its parameters in the frame), and the
/// last of them; -1 when the body or a rule is a run-time error.
int failing_board_rules(Run& r, const ir::Move& mv, int& which) {
  if (r.scratch_.size() <= r.depth_) r.scratch_.emplace_back(r.p_.state_bytes);
  uint8_t* copy = r.scratch_[r.depth_].data();
  std::memcpy(copy, r.state_, r.p_.state_bytes);
  uint8_t* const saved_state = r.state_;
  const bool saved_again = r.again_;
  const size_t base = r.base_, top = r.top_;
  r.state_ = copy;
  ++r.depth_;
  int failing = 0;
  try {
    r.exec(mv.body);
    for (size_t i = 0; i < r.p_.rules.size(); ++i) {
      const ir::Rule& rule = r.p_.rules[i];
      if (!rule.board_rule) continue;
      size_t saved = r.push_frame(rule.locals);
      const int t = guarded_truth(r, *rule.condition);
      r.pop_frame(saved, rule.locals);
      if (t < 0) {
        failing = -1;
        break;
      }
      if (t == 0) ++failing, which = int(i);
    }
  } catch (const RuleError&) {
    failing = -1;
  }
  r.base_ = base, r.top_ = top;
  --r.depth_;
  r.state_ = saved_state;
  r.again_ = saved_again;
  return failing;
}

/// Tests one stage's conditions; a failing one is recorded in `failed` when none had
/// failed yet. False when a second fails or one is a run-time error: no such instance counts.
bool stage_allows(Run& r, const ir::Move& mv, const std::vector<int>& items, int& failed, uint64_t& work) {
  for (int item : items) {
    ++work;
    const ir::Expr& c = item >= 0 ? *mv.requires_[size_t(item)] : *mv.checks[size_t(~item)].condition;
    const int t = guarded_truth(r, c);
    if (t == 1) continue;
    if (t < 0 || failed != kNone) return false;
    failed = item;
  }
  return true;
}

/// Chooses parameters k.. of `mv` as the generator does, letting at most one condition
/// fail (`failed`); an instance where exactly one failed counts for that condition.
void walk(Run& r, const ir::Move& mv, int move, size_t k, int failed, Coverage& cov) {
  const auto& st = r.m_.stages[size_t(move)];
  if (k == mv.params.size()) {
    if (failed != kNone) {
      ++cov.counts[size_t(failed >= 0 ? cov.requires_site(move, failed) : cov.check_site(move, ~failed))];
    } else if (r.m_.has_board_rules) {
      int which = -1;
      cov.blocked_work += 1 + r.p_.rules.size();
      if (failing_board_rules(r, mv, which) == 1) ++cov.counts[size_t(cov.board_rule_site(which))];
    }
    return;
  }
  const int d = mv.params[k].domain;
  const uint32_t n = r.m_.domain_size(d);
  for (uint32_t i = 0; i < n; ++i) {
    r.local(int(k)).scalar = ir::domain_value(r.p_.domains, d, i);
    int f = failed;
    if (stage_allows(r, mv, st[k + 1], f, cov.blocked_work)) walk(r, mv, move, k + 1, f, cov);
  }
}

}  // namespace

void count_blocked(Run& r, Coverage& cov) {
  ++cov.blocked_decisions;
  const ir::Phase& ph = r.p_.phases[size_t(r.get(ir::kVarPhase))];
  for (int m : ph.moves) {
    const ir::Move& mv = r.p_.moves[size_t(m)];
    const size_t saved = r.push_frame(mv.locals);
    int f = kNone;
    if (stage_allows(r, mv, r.m_.stages[size_t(m)][0], f, cov.blocked_work)) walk(r, mv, m, 0, f, cov);
    r.pop_frame(saved, mv.locals);
  }
}

void count_end_parts(Run& r, Coverage& cov) {
  const std::vector<const ir::Expr*>& parts = cov.end_parts();
  for (size_t i = 0; i < parts.size(); ++i)
    if (guarded_truth(r, *parts[i]) == 1) ++cov.counts[size_t(cov.end_base()) + i];
}

}  // namespace interp
}  // namespace rulebook::compiler
