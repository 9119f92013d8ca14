// Boards for a rulebook's examples asked of Z3: the set of one move over reachable boards
// (rule_boards.h), with the named rules as assumptions, so that "every rule but R holds and
// R does not" is the set's question with R's literal left unassumed.
#include "verifier/rule_boards.h"

#include <algorithm>
#include <cstdint>
#include <unordered_set>

#include <fmt/format.h>

#include "verifier/verifier_internal.h"

namespace rulebook::verifier {

namespace {
/// Parameter tuples of a move above which an example's question reads it as one symbolic
/// instance (parameters as selectors) rather than one instance per tuple.
constexpr size_t kExampleInstances = 100;
}  // namespace

RuleAnswer Verifier::rule_board(const RuleQuestion& question, int move, size_t index) {
  RuleAnswer out;
  const ir::Move& mv = p_.moves[size_t(move)];
  const ir::Rule& rule = p_.rules[size_t(question.rule)];
  ir::Property prop;
  prop.kind = ir::PropertyKind::Find;
  // The name prefixes the parameters' selectors, which must be fresh in each question.
  prop.name = fmt::format("example{}", index);
  prop.over_moves = true;
  prop.reachable = true;
  prop.moves = {move};
  prop.locals = std::max(1, int(mv.params.size()));
  std::vector<int> params;
  for (size_t i = 0; i < mv.params.size(); ++i) params.push_back(int(i));
  prop.move_params = {params};
  // Implied by the set, lemmas cannot change whether it has an element (as for a find).
  use_lemmas_ = false;
  struct Restore {
    bool& flag;
    ~Restore() { flag = true; }
  } restore{use_lemmas_};
  // One symbolic instance for a move of many parameter tuples: a state after per tuple
  // (thousands for a move from one cell to another) costs far more to build than the
  // question costs to answer.
  // The statements of the body that only err are left out too: a board where the body
  // errs is one the interpreter does not confirm.
  struct Limit {
    Verifier& v;
    ~Limit() {
      v.max_instances_ = SIZE_MAX;
      v.keep_erring_ = true;
    }
  } limit{*this};
  max_instances_ = kExampleInstances;
  keep_erring_ = false;
  Scope sc = scope(prop, 0);
  Answer a;
  if (question.allowed) {
    a = ask(sc, z3_.bool_val(true));
  } else {
    size_t lit = 0;
    while (lit < sc.lit_names.size() && sc.lit_names[lit] != rule.name) ++lit;
    if (lit == sc.lit_names.size()) {
      out.verdict = Verdict::Unsupported;
      out.detail = rule.name + " does not govern " + mv.name;
      return out;
    }
    std::vector<size_t> on;
    for (size_t i = 0; i < sc.lits.size(); ++i)
      if (i != lit) on.push_back(i);
    // The rule's parts are its conditions on the move (a board rule's: before the move and
    // on each instance after it). It fails when one of them does; a board rule still holds
    // before the move, as on every board of a game.
    z3::expr before = rule.board_rule ? board_rule(size_t(question.rule)) : z3_.bool_val(true);
    std::vector<z3::expr> before_parts;
    conjuncts(before, before_parts);
    std::unordered_set<unsigned> before_ids;
    for (const z3::expr& e : before_parts) before_ids.insert(e.id());
    z3::expr_vector fails(z3_);
    for (const Part& part : sc.parts)
      if (part.lit == int(lit) && !before_ids.count(part.e.id()))
        fails.push_back(before.is_true() ? !part.e : before && !part.e);
    if (fails.empty()) {
      out.verdict = Verdict::None;
      out.detail = "the rule reads nothing this move changes";
      return out;
    }
    a = ask(sc, z3::mk_or(fails), &on);
  }
  if (a.result == z3::sat) {
    out.verdict = Verdict::Found;
    out.board = board(*a.model, sc);
    out.board->vars = board_vars(prop);
  } else if (a.result == z3::unsat) {
    out.verdict = Verdict::None;
  } else {
    out.verdict = Verdict::Unknown;
    out.detail = unknown_;
  }
  return out;
}

RuleBoards Verifier::rule_boards(const std::vector<RuleQuestion>& questions) {
  StopWatcher watcher(z3_, opt_.stop);
  bind_setups();
  RuleBoards out;
  const uint64_t started = rlimit_seen_;
  auto start_budget = [&] {
    budget_.started = Clock::now();
    budget_.rlimit_base = rlimit_seen_;
    budget_.seconds = opt_.timeout_seconds;
    budget_.rlimit = opt_.rlimit;
    unknown_.clear();
  };
  // The invariants first: every question's set assumes those proved.
  std::vector<Result> found;
  std::vector<const ir::Property*> props;
  if (opt_.candidate_games > 0) found_invariants(found, props);
  prove_invariants([&] {
    start_budget();
    return true;
  });
  for (const ir::Property* inv : proved_invariants_) out.invariants.push_back(inv->name);
  size_t asked = 0;
  for (const RuleQuestion& question : questions) {
    RuleAnswer a;
    a.verdict = Verdict::None;
    std::vector<std::string> unknown;
    for (int move : question.moves) {
      RuleAnswer one;
      if (opt_.stopped()) {
        a.verdict = Verdict::Interrupted;
        a.detail = "the run was interrupted";
        break;
      }
      start_budget();
      try {
        one = rule_board(question, move, asked++);
      } catch (const Unsupported& u) {
        one.verdict = Verdict::Unsupported;
        one.detail = u.what();
      } catch (const z3::exception& z) {
        one.verdict = Verdict::Unknown;
        one.detail = std::string("solver: ") + z.msg();
      }
      one.rlimit = rlimit_seen_ - budget_.rlimit_base;
      a.rlimit += one.rlimit;
      if (opt_.progress)
        opt_.progress(fmt::format("  {} example of {} on {}: {} (rlimit {})", question.allowed ? "allowed" : "not-allowed",
                                  p_.rules[size_t(question.rule)].name, p_.moves[size_t(move)].name,
                                  verdict_name(one.verdict), one.rlimit));
      if (opt_.stopped() && one.verdict != Verdict::Found && one.verdict != Verdict::None) {
        a.verdict = Verdict::Interrupted;
        a.detail = "the run was interrupted while asking it";
        break;
      }
      if (one.verdict == Verdict::Found) {
        a.verdict = Verdict::Found;
        a.board = std::move(one.board);
        a.detail.clear();
        break;
      }
      // Unknown or unsupported on one move: not proved impossible, whatever the others say.
      if (one.verdict != Verdict::None) {
        a.verdict = Verdict::Unknown;
        unknown.push_back(p_.moves[size_t(move)].name + ": " + one.detail);
      }
    }
    if (a.verdict == Verdict::Unknown) a.detail = fmt::format("{}", fmt::join(unknown, "; "));
    out.answers.push_back(std::move(a));
  }
  out.rlimit = rlimit_seen_ - started;
  return out;
}

RuleBoards rule_boards(const ir::Program& program, const dsl::SourceSet& sources, const Options& options,
                       const std::vector<RuleQuestion>& questions) {
  Verifier v(program, sources, options);
  return v.rule_boards(questions);
}

}  // namespace rulebook::verifier
