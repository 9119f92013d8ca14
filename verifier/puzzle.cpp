// Puzzles: the boards of `over boards` (board rules) where the solution and every clue
// instance hold, the setup bound. Solutions are enumerated with blocking clauses over the
// state elements the encoding reads; each clue is asked again without it.
#include "verifier/puzzle.h"

#include <algorithm>
#include <chrono>
#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <set>
#include <stdexcept>

#include <fmt/format.h>

#include "explorer/symmetry.h"
#include "verifier/int_bits.h"
#include "verifier/slice.h"
#include "verifier/verifier_internal.h"

namespace rulebook::verifier {

std::vector<const ir::Property*> puzzles(const ir::Program& program) {
  std::vector<const ir::Property*> out;
  for (const ir::Property& p : program.properties)
    if (p.kind == ir::PropertyKind::Puzzle) out.push_back(&p);
  return out;
}

void Verifier::clue_instances(const ir::Clue& c, const ir::Expr& x, int depth, Encoder::Frame& f,
                              const std::string& args, std::vector<std::pair<std::string, z3::expr>>& out,
                              const z3::expr& where, std::vector<z3::expr>* wheres) {
  if (depth == 0) {
    auto [b, err] = enc_.condition(x, f);
    const std::string name = args.empty() ? c.name : c.name + "(" + args + ")";
    out.emplace_back(name, where.is_true() ? b && !err : z3::implies(where, b && !err));
    if (wheres) wheres->push_back(where);
    return;
  }
  // One `all` per binder (ir::Clue): its domain and `where` read setup data only, bound
  // here, so they are concrete values; or, when generation leaves the puzzle's table free
  // (symbolic_setup_), a set the table decides: each member of its type is an instance,
  // present where it is in the set.
  const SymP dom = enc_.eval(*x.args[0], f);
  const int d = x.args[0]->type->domain;
  std::vector<std::pair<int64_t, int>> elems;  // value, its domain
  std::vector<z3::expr> member;                // the instance is in the set (symbolic sets)
  if (symbolic_setup_ >= 0 && dom->k == Sym::K::Set && d >= 0 && dom->items.size() == p_.domains[size_t(d)].size) {
    if (!enc_.err_of(dom).is_false())
      throw Unsupported(fmt::format("the set clue '{}' ranges over can be an error", c.name));
    for (uint32_t i = 0; i < p_.domains[size_t(d)].size; ++i) {
      const z3::expr in = enc_.to_bool(dom->items[i]);
      if (in.is_false()) continue;
      elems.emplace_back(ir::domain_value(p_.domains, d, i), d);
      member.push_back(in);
    }
  } else {
    if (!Encoder::concrete(*dom) || (dom->k != Sym::K::Bits && dom->k != Sym::K::List) ||
        (dom->k == Sym::K::Bits && d < 0))
      throw Unsupported(fmt::format("the instances of clue '{}' are not known from the setup alone", c.name));
    if (dom->k == Sym::K::List) {
      for (const SymP& it : dom->items) {
        if (it->k != Sym::K::Val)
          throw Unsupported(fmt::format("clue '{}' ranges over values that are not scalars", c.name));
        elems.emplace_back(it->v, x.args[0]->type->elem ? x.args[0]->type->elem->domain : -1);
      }
    } else {
      for (uint32_t i = 0; i < p_.domains[size_t(d)].size; ++i)
        if (ir::test(dom->bits, i)) elems.emplace_back(ir::domain_value(p_.domains, d, i), d);
    }
  }
  for (size_t n = 0; n < elems.size(); ++n) {
    const auto& [v, vd] = elems[n];
    f[size_t(x.slot)] = enc_.val(v);
    z3::expr inner = member.empty() ? where : where && member[n];
    if (x.args[1]) {
      const SymP w = enc_.eval(*x.args[1], f);
      if (w->k == Sym::K::Val && !w->err) {
        if (!w->v) continue;
      } else if (symbolic_setup_ >= 0) {
        // Generation leaves the puzzle's table free: the instance holds where the table
        // says it is given (the table then decides which instances a puzzle has).
        auto [b, err] = enc_.condition(*x.args[1], f);
        inner = inner && b && !err;
      } else {
        throw Unsupported(fmt::format("the 'where' of clue '{}' is not known from the setup alone", c.name));
      }
    }
    const std::string text = ir::value_text(p_.domains, vd, v);
    clue_instances(c, *x.args[2], depth - 1, f, args.empty() ? text : args + ", " + text, out, inner, wheres);
  }
  f[size_t(x.slot)] = nullptr;
}

std::function<z3::expr(const z3::expr&)> Verifier::sat_form(const std::vector<z3::expr>& conds, bool arith) {
  if (!arith) return [](const z3::expr& e) { return e; };
  auto as_bits = std::make_shared<IntsAsBits>(z3_);
  auto bits = [this, as_bits](const z3::expr& e) { return (*as_bits)(cards_(e)); };
  for (const z3::expr& e : conds)
    if (!bits(e)) return {};
  // A cut or a blocking clause has no integer the conditions have not: none fails later.
  return [bits](const z3::expr& e) { return bits(e).value_or(e); };
}

Verifier::PuzzleForm Verifier::puzzle_form(const std::vector<Part>& parts) {
  PuzzleForm out;
  bool arith = false;
  for (const Part& p : parts) {
    support(p);
    arith = arith || p.arith;
    out.counted = out.counted || enc_.reads_counts(p.e);
  }
  if (out.counted) out.count_facts = enc_.count_facts();
  std::vector<z3::expr> conds = out.count_facts;
  for (const Part& p : parts) conds.push_back(p.e);
  out.form = sat_form(conds, arith);
  return out;
}

namespace {

/// The questions of one puzzle: the set, the solution and the clue instances, asked with
/// some clues kept and possibly one broken, with a deadline and the stop flag. One solver
/// holds everything, each clue behind a literal of its own (assumed, or left out): the
/// SAT-based solver (each solution of an enumeration is one more incremental check), with
/// counts as cardinalities and other integers as bit-vectors (`form`), else, for integers
/// of other kinds, the general one with the one-hot sums. (SMYOZ's entries, whose answers
/// are weighted sums compared with each other: the general solver took 491 s on one, the
/// SAT-based one 10 s. Z3 4.8.12's tactic `lia2card; qffd` gave answers that contradict
/// each other, with assumption literals and without: it is not used.)
struct PuzzleQuestions {
  z3::context& ctx;
  const std::vector<std::pair<std::string, z3::expr>>& clues;
  const PuzzleOptions& opt;
  z3::solver solver;
  std::vector<z3::expr> clue_lits;
  unsigned timeout_ms = 0;
  std::optional<z3::model> model;
  /// Counts of components are lazy (Encoder::component_cuts): a model whose counts are
  /// wrong is repaired, or cut off and asked again.
  std::function<std::vector<z3::expr>(z3::model&)> cuts;
  /// What the solver is given for a condition (the SAT-based solver's form of it).
  std::function<z3::expr(const z3::expr&)> form;
  RepairedModel repaired;

  PuzzleQuestions(z3::context& c, const Encoder& enc, std::function<z3::expr(const z3::expr&)> fd_form,
                  const std::vector<std::pair<std::string, z3::expr>>& cl, const PuzzleOptions& o)
      : ctx(c), clues(cl), opt(o), solver(fd_form ? z3::solver(c, "QF_FD") : z3::solver(c)), form(std::move(fd_form)),
        repaired(enc) {
    for (size_t i = 0; i < clues.size(); ++i) {
      clue_lits.push_back(ctx.bool_const(fmt::format("clue:{}", i).c_str()));
      add(z3::implies(clue_lits.back(), clues[i].second));
    }
  }

  void add(const z3::expr& e) { repaired.add(solver, form ? form(e) : e); }

  /// Is there a board of the set where the solution and the clues `kept` hold, and the clue
  /// `broken` (if any) fails?
  z3::check_result ask(const std::vector<bool>& kept, std::optional<size_t> broken, double seconds,
                       std::string& why) {
    model.reset();
    if (opt.stop && opt.stop->load()) {
      why = "interrupted";
      return z3::unknown;
    }
    // Setting parameters resets the SAT-based solver's state: only when the limit changes
    // (each solution is one more incremental check, not a search from scratch).
    const unsigned ms = unsigned(std::max(1.0, seconds * 1000));
    if (ms != timeout_ms) {
      z3::params ps(ctx);
      ps.set("timeout", ms);
      if (opt.rlimit > 0) ps.set("rlimit", unsigned(std::min<uint64_t>(opt.rlimit, std::numeric_limits<unsigned>::max())));
      ps.set("ctrl_c", false);
      solver.set(ps);
      timeout_ms = ms;
    }
    z3::expr_vector as(ctx);
    for (size_t i = 0; i < clues.size(); ++i)
      if (kept[i] && broken != i) as.push_back(clue_lits[i]);
    if (broken) {
      const z3::expr lit = ctx.bool_const(fmt::format("break:{}", *broken).c_str());
      add(z3::implies(lit, !clues[*broken].second));
      as.push_back(lit);
    }
    const uint64_t before = rlimit_count(solver);
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(ms);
    // The rounds of cuts share the question's time and units.
    const z3::check_result r = check_with_cuts(
        solver, repaired, as, cuts, [this](const z3::expr& c) { add(c); },
        [&] {
          return std::chrono::steady_clock::now() < deadline &&
                 !(opt.rlimit > 0 && rlimit_count(solver) - before >= opt.rlimit);
        },
        model);
    // Z3 says "canceled" for both limits: the units, the same on every machine, decide first.
    if (r == z3::unknown)
      why = opt.stop && opt.stop->load()                              ? "interrupted"
            : opt.rlimit > 0 && rlimit_count(solver) - before >= opt.rlimit ? fmt::format("resource limit ({} units per question)", opt.rlimit)
                                                                           : "timeout (" + solver.reason_unknown() + ")";
    return r;
  }
};

}  // namespace

PuzzleResult Verifier::solve_puzzle(const ir::Property& prop, const PuzzleOptions& po) {
  const auto started = Clock::now();
  StopWatcher watcher(z3_, opt_.stop);
  bind_setups();
  PuzzleResult res;
  res.name = prop.name;
  res.description = prop.description;
  // Every setup value a clue reads must be fixed: the clue instances are the setup's.
  std::set<int> clue_reads;
  for (const ir::Clue& c : prop.clues) reads_of(p_, *c.family, clue_reads);
  for (size_t i = 0; i < p_.setups.size(); ++i)
    if (clue_reads.count(p_.setups[i].var) && bound_[i].empty())
      throw std::invalid_argument(
          p_.setups[i].source == ir::SetupVar::Source::Entries
              ? fmt::format("the clues of puzzle '{}' read '{}': choose one of the {} entries of {} with --setup {}=K",
                            prop.name, p_.setups[i].name, p_.setups[i].entries.size(), p_.setups[i].path,
                            p_.setups[i].name)
              : fmt::format("the clues of puzzle '{}' read '{}': fix it with --setup {}=VALUE", prop.name,
                            p_.setups[i].name, p_.setups[i].name));
  budget_.started = started;
  Scope sc = scope(prop, 0);
  res.set = set_text(prop) + "; the solution" + (prop.clues.empty() ? "" : " and every clue") + " holding";
  auto [solution, err] = value_pair(sc, *prop.expr);
  std::vector<std::pair<std::string, z3::expr>> clues;
  for (const ir::Clue& c : prop.clues) {
    Encoder::Frame f(size_t(std::max(prop.locals, 1)), nullptr);
    clue_instances(c, *c.family, c.binders, f, "", clues, z3_.bool_val(true));
  }
  res.clue_count = clues.size();
  if (opt_.progress)
    opt_.progress(fmt::format("  puzzle {}: {} clue instances, {} selectors", prop.name, clues.size(),
                              enc_.selectors().size()));
  // The formula: no arithmetic goes to the SAT-based solver (incremental: each blocking
  // clause is one more clause), else to the general one with the one-hot sums.
  std::vector<Part> all;
  for (const z3::expr& x : enc_.facts()) all.push_back(Part{x, -1, std::nullopt});
  for (const Part& p : sc.parts) all.push_back(p);
  all.push_back(Part{solution && !err, -1, std::nullopt});
  for (const auto& c : clues) all.push_back(Part{c.second, -1, std::nullopt});
  const PuzzleForm pf = puzzle_form(all);
  const std::function<z3::expr(const z3::expr&)>& fd_form = pf.form;
  PuzzleQuestions q(z3_, enc_, fd_form, clues, po);
  if (pf.counted) {
    q.cuts = [&](z3::model& m) { return enc_.component_cuts(m); };
    for (const z3::expr& x : pf.count_facts) q.add(x);
  }
  if (!fd_form)
    for (const z3::expr& x : enc_.sum_facts()) q.add(x);
  for (size_t i = 0; i + clues.size() < all.size(); ++i) q.add(all[i].e);
  for (const z3::expr& l : sc.lits) q.add(l);  // every named board rule holds
  const std::vector<bool> every(clues.size(), true);
  // Blocking clauses over the base state elements read (not the move parameters, none here).
  std::vector<int> state_sels;
  for (size_t s = 0; s < enc_.selectors().size(); ++s)
    if (enc_.selectors()[s].var >= 0) state_sels.push_back(int(s));
  // `up to`: the maps named (the board's, declared swaps) that keep the puzzle's set, its
  // solution and its clues, checked on the encoding; each solution found blocks its whole
  // orbit, so the solutions listed are one per class.
  std::vector<SelectorMap> group;
  if (!prop.up_to.empty()) {
    const std::vector<explorer::Transform> board = explorer::board_transforms(p_);
    std::vector<explorer::Transform> maps{board.front()};  // the identity first
    for (const std::string& u : prop.up_to) {
      if (u == "board") maps.insert(maps.end(), board.begin() + 1, board.end());
      for (const ir::Symmetry& s : p_.symmetries)
        if (s.name == u) maps.push_back(explorer::declared_transform(p_, s));
    }
    z3::expr_vector every_clue(z3_);
    for (const auto& c : clues) every_clue.push_back(c.second);
    budget_.seconds = po.timeout_seconds;
    budget_.rlimit = po.rlimit;
    budget_.rlimit_base = rlimit_seen_;
    // Every image of a solution is blocked: the whole group, not a part of it.
    CheckedGroup g = checked_group(sc, {solution && !err, z3::mk_and(every_clue)}, maps, explorer::kMaxGroup);
    if (!g.closed)
      throw Unsupported(fmt::format("the symmetries of 'up to' in puzzle '{}' generate more than {} maps: its "
                                    "solutions are not counted up to them",
                                    prop.name, explorer::kMaxGroup));
    group = std::move(g.elements);
    res.group = group.size();
    res.symmetry = fmt::format("up to {}: a group of {}", fmt::join(prop.up_to, ", "), group.size());
    if (!g.kept.empty()) res.symmetry += fmt::format(" generated by {}", fmt::join(g.kept, ", "));
    if (!g.rejected.empty()) res.symmetry += fmt::format("; not kept: {}", fmt::join(g.rejected, "; "));
  }
  auto left = [&] { return po.timeout_seconds - std::chrono::duration<double>(Clock::now() - started).count(); };
  while (true) {
    if (int64_t(res.solutions.size()) >= po.max_solutions) {
      res.hit_max = true;
      break;
    }
    if (left() <= 0) {
      res.unknown = fmt::format("timeout ({} s)", po.timeout_seconds);
      break;
    }
    const z3::check_result r = q.ask(every, std::nullopt, po.timeout_seconds, res.unknown);
    if (r == z3::unsat) {
      res.exact = true;
      break;
    }
    if (r == z3::unknown) break;
    const z3::model m = *q.model;
    res.solutions.push_back(board(m, sc));
    // The value of each state selector (its true guard), then the board and its images blocked.
    std::vector<std::pair<int, size_t>> value;
    for (int s : state_sels) {
      const Selector& sel = enc_.selectors()[size_t(s)];
      for (size_t k = 0; k < sel.guard.size(); ++k)
        if (m.eval(sel.guard[k], true).is_true()) value.emplace_back(s, k);
    }
    if (value.empty()) {  // the solution reads no state: one board stands for them all
      res.exact = true;
      break;
    }
    const size_t images = std::max<size_t>(1, group.size());
    for (size_t gi = 0; gi < images; ++gi) {
      z3::expr_vector other(z3_);
      for (const auto& [s, k] : value) {
        const int to = group.empty() ? s : group[gi].to[size_t(s)];
        const size_t ix = group.empty() ? k : group[gi].index[size_t(s)][k];
        other.push_back(!enc_.selectors()[size_t(to)].guard[ix]);
      }
      q.add(z3::mk_or(other));
    }
    if (opt_.progress && res.solutions.size() % 500 == 0)
      opt_.progress(fmt::format("  {} solutions so far", res.solutions.size()));
  }
  if (po.clues || po.minimise) {
    // Clue i is needed when the solution and the other clues allow a board breaking it:
    // without it, the puzzle has a solution it does not have now. The blocking clauses
    // exclude only boards where every clue holds, so they change nothing here.
    // Minimising asks the same question against the clues kept so far: unsat drops the
    // clue (the kept ones imply it, so the solutions stay the same). A clue found needed
    // stays needed as later ones are dropped: its board breaks it and satisfies every clue
    // kept, a subset of those it was asked against.
    std::vector<bool> kept(clues.size(), true);
    for (size_t i = 0; i < clues.size(); ++i) {
      ClueVerdict v;
      v.name = clues[i].first;
      const auto clue_started = Clock::now();
      const z3::check_result r = q.ask(kept, i, po.timeout_seconds, v.detail);
      if (r == z3::sat) {
        v.status = ClueVerdict::Status::Needed;
        v.board = board(*q.model, sc);
      } else if (r == z3::unsat) {
        v.status = po.minimise ? ClueVerdict::Status::Dropped : ClueVerdict::Status::NotNeeded;
        kept[i] = !po.minimise;
      }
      if (opt_.progress)
        opt_.progress(fmt::format("  clue {}: {} ({:.1f} s)", v.name,
                                  r == z3::sat     ? "needed"
                                  : r == z3::unsat ? (po.minimise ? "dropped" : "not needed")
                                                   : "unknown",
                                  std::chrono::duration<double>(Clock::now() - clue_started).count()));
      res.clues.push_back(std::move(v));
    }
  }
  res.seconds = std::chrono::duration<double>(Clock::now() - started).count();
  return res;
}

std::string uniqueness(const PuzzleResult& r) {
  const size_t n = r.solutions.size();
  if (n >= 2) return "no";
  if (!r.exact) return "unknown";
  return n == 1 ? "proved" : "no solution";
}

std::string count_text(const PuzzleResult& r, const std::string& max_words) {
  const size_t n = r.solutions.size();
  const std::string word = std::string(n == 1 ? "solution" : "solutions") + (r.symmetry.empty() ? "" : " up to symmetry");
  if (r.exact) return fmt::format("{} {}", n, word);
  return fmt::format("at least {} {} ({})", n, word, r.hit_max ? max_words : r.unknown);
}

PuzzleResult solve_puzzle(const ir::Program& program, const dsl::SourceSet& sources, const ir::Property& puzzle,
                          const PuzzleOptions& options) {
  Options o;
  o.setup = options.setup;
  o.timeout_seconds = options.timeout_seconds;
  o.progress = options.progress;
  o.stop = options.stop;
  Verifier v(program, sources, o);
  return v.solve_puzzle(puzzle, options);
}

}  // namespace rulebook::verifier
