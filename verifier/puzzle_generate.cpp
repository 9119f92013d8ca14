// Puzzle generation: the puzzle's data-file table left free in one incremental solver, a
// seeded random solution, the table it gives in full, then entries blanked one at a time
// while no second solution exists (each step an unsat answer), and a check at the end.
#include <algorithm>
#include <functional>
#include <numeric>
#include <set>
#include <stdexcept>

#include <fmt/format.h>

#include "compiler/runtime/random.h"
#include "verifier/puzzle_generation.h"
#include "verifier/slice.h"

namespace rulebook::verifier {

namespace {

template <class T>
void shuffle(std::vector<T>& v, SplitMix64& rng) {
  for (size_t i = v.size(); i > 1; --i) std::swap(v[i - 1], v[size_t(rng.below(i))]);
}

/// How an attempt on a list entry ended: a puzzle made, every clue allowing another board
/// (draw another solution), or stopped (a timeout, Ctrl-C).
enum class ListOutcome { Done, Again, Stopped };

uint64_t stat_of(z3::solver& s, const char* key) {
  z3::stats st = s.statistics();
  uint64_t n = 0;
  for (unsigned i = 0; i < st.size(); ++i)
    if (st.key(i) == key) n += st.is_uint(i) ? st.uint_value(i) : uint64_t(st.double_value(i));
  return n;
}

}  // namespace


std::vector<GeneratedPuzzle> Verifier::generate_puzzles(const ir::Property& prop, const GenerateOptions& go) {
  StopWatcher watcher(z3_, opt_.stop);
  bind_setups();
  GeneratedPuzzle proto;
  proto.puzzle = prop.name;
  // The table: the one data-file setup the clues read that --setup leaves free.
  std::set<int> clue_reads;
  for (const ir::Clue& c : prop.clues) reads_of(p_, *c.family, clue_reads);
  std::vector<size_t> tables;
  for (size_t i = 0; i < p_.setups.size(); ++i)
    if (clue_reads.count(p_.setups[i].var) && bound_[i].empty()) tables.push_back(i);
  if (tables.size() != 1 || p_.setups[tables[0]].source != ir::SetupVar::Source::Entries)
    throw std::invalid_argument(fmt::format(
        "puzzle '{}': generation needs clues that read one data-file setup (`setup T: ... = file ...`) "
        "left free; {}",
        prop.name, tables.empty() ? "its clues read none" : fmt::format("they read {}", tables.size())));
  const ir::SetupVar& sv = p_.setups[tables[0]];
  const ir::StateVar& tv = p_.vars[size_t(sv.var)];
  proto.table = sv.name;
  proto.path = sv.path;
  symbolic_setup_ = int(tables[0]);
  bound_[tables[0]] = "generated";  // no "one of the file's entries" condition (entry_parts)
  const ir::Domain& tdom = p_.domains[size_t(tv.domain)];
  // A grid of cells (`Cell -> T`): a puzzle is the cells given, each blanked in turn. Any
  // other table (a list entry): a puzzle is the clue instances the table gives, each
  // dropped in turn, the entry written for those kept.
  const bool grid = tv.keys.size() == 1 && tv.keys[0] == ir::kCellDomain;
  int64_t blank_index =
      ir::domain_index(p_.domains, tv.domain, tdom.kind == ir::Domain::Kind::Optional ? ir::kNone : 0);
  if (blank_index < 0 && grid) throw std::invalid_argument(fmt::format("'{}' has no empty value ('.')", sv.name));
  if (blank_index < 0) blank_index = 0;
  // The clues a list entry may give (--clue): the others are never given.
  std::vector<bool> allowed(prop.clues.size(), go.clues.empty());
  for (const std::string& name : go.clues) {
    auto it = std::find_if(prop.clues.begin(), prop.clues.end(), [&](const ir::Clue& c) { return c.name == name; });
    if (it == prop.clues.end())
      throw std::invalid_argument(fmt::format("puzzle '{}' declares no clue '{}'", prop.name, name));
    if (grid)
      throw std::invalid_argument(fmt::format("--clue chooses the clues of a list entry; '{}' is a grid of cells",
                                              sv.name));
    allowed[size_t(it - prop.clues.begin())] = true;
  }
  if (go.full && grid)
    throw std::invalid_argument(fmt::format("--full writes the full puzzle of a list entry; '{}' is a grid of cells "
                                            "(its full puzzle is the solution)",
                                            sv.name));
  budget_.started = Clock::now();
  const auto encode_started = budget_.started;
  // The properties of the setup (as `solve` lists them): over boards, reading the table;
  // encoded after the clues, before the solver is given its parts.
  struct Criterion {
    const ir::Property* prop;
    z3::expr fails;
  };
  std::vector<Criterion> criteria;
  std::vector<Scope> crit_scopes;
  auto encode_criteria = [&] {
    for (const ir::Property& p : p_.properties) {
      if ((p.kind != ir::PropertyKind::Prove && p.kind != ir::PropertyKind::Criterion) || p.over_moves || p.over_play ||
          !p.setup.empty())
        continue;
      const std::vector<size_t> reads = setups_read(p);
      if (std::find(reads.begin(), reads.end(), tables[0]) == reads.end()) continue;
      crit_scopes.push_back(scope(p, 0));
      auto [v, e] = value_pair(crit_scopes.back(), *p.expr);
      criteria.push_back(Criterion{&p, !v || e});
    }
  };
  std::unique_ptr<GenEncoding> main_enc = generation_encoding(prop, go, int(tables[0]), grid, uint32_t(blank_index),
                                                              true, allowed, encode_criteria);
  proto.over = set_text(prop) + "; the solution and the clues given holding";
  Generation& g = *main_enc->g;
  const Scope& sc = main_enc->sc;
  const std::vector<std::pair<std::string, z3::expr>>& clues = main_enc->clues;
  const std::vector<size_t>& family = main_enc->family;
  // A separate solver decides the criteria: each fails on a board of the set, or not.
  // (the general solver: criteria count, `givens <= 32`).
  z3::solver crit_solver(z3_);
  for (const z3::expr& x : enc_.facts()) crit_solver.add(x);
  for (const z3::expr& x : enc_.sum_facts()) crit_solver.add(x);
  std::vector<z3::expr> crit_lits;
  for (size_t i = 0; i < criteria.size(); ++i) {
    for (const Part& p : crit_scopes[i].parts) crit_solver.add(p.e);
    for (const z3::expr& l : crit_scopes[i].lits) crit_solver.add(l);
    crit_lits.push_back(z3_.bool_const(fmt::format("criterion:{}", i).c_str()));
    crit_solver.add(z3::implies(crit_lits.back(), criteria[i].fails));
  }
  auto criterion = [&](size_t i, const std::vector<uint32_t>& t) {
    // A criterion of the table alone folds to a constant once the table's guards are
    // replaced by their values (Moyo's); another is asked of the solver.
    z3::expr_vector src(z3_), dst(z3_);
    for (size_t k = 0; k < t.size(); ++k)
      for (size_t v = 0; v < g.table[k].guard.size(); ++v) {
        src.push_back(g.table[k].guard[v]);
        dst.push_back(z3_.bool_val(v == t[k]));
      }
    const z3::expr folded = z3::expr(criteria[i].fails).substitute(src, dst).simplify();
    if (folded.is_true()) return CriterionVerdict::Status::NotMet;
    if (folded.is_false()) return CriterionVerdict::Status::Met;
    z3::expr_vector as(z3_);
    g.fix_table(t, as);
    as.push_back(crit_lits[i]);
    const z3::check_result r = crit_solver.check(as);
    return r == z3::unsat ? CriterionVerdict::Status::Met
           : r == z3::sat ? CriterionVerdict::Status::NotMet
                          : CriterionVerdict::Status::Unknown;
  };
  auto met = [&](const std::vector<CriterionVerdict>& cs) {
    return size_t(std::count_if(cs.begin(), cs.end(),
                                [](const CriterionVerdict& c) { return c.status == CriterionVerdict::Status::Met; }));
  };
  auto say = [&](const std::string& s) {
    if (go.progress) go.progress(s);
  };
  // The questions and the reason to stop of an encoding asked besides the whole one (g),
  // counted as g's; false once g has a reason to stop.
  auto absorb = [&](Generation& x) {
    if (&x != &g) {
      g.questions += x.questions;
      x.questions = 0;
      if (g.stopped.empty()) g.stopped = x.stopped;
    }
    return g.stopped.empty();
  };

  // A list entry, for the solution `sol` (`at_sol` its assumptions, `other`: a board that
  // is not it):
  // 2. the full puzzle: every clue instance the table can give on this solution (all at
  //    once, else one at a time in a random order), then the table's values drawn (blank
  //    where allowed, else the first allowed of a random order);
  // 3. the instances dropped one at a time (the clues in the order declared, the instances
  //    of one in a random order), each while no second board holds the rest, the table
  //    fixed; an instance the table gives always (no `where`) stays;
  // 4. the entry for those kept: each dropped instance absent, each value the full
  //    table's where it can stay (in order), then every value blank where the solution
  //    and the clues kept still hold with it;
  // 5. the check on that entry: unique, and each instance kept needed (without it, a second
  //    board). The entry's clues are its own: the check is of the entry, not of step 3.
  // What is known is read as constants, in an encoding of its own (the same rules, set and
  // clues; Encoder::bind): steps 2 and 4 ask of the solution's values (only the table is
  // free), steps 3 and 5 of the table's (only the board is free, as `solve` reads a data
  // file's entry). An encoding whose instances are not named as here is not used (the
  // whole one is asked instead).
  const size_t table_setup = tables[0];
  // An encoding with the entry `t` read as constants: its instances (those the entry gives)
  // by name, and the literal of "a board that is not the solution".
  struct FixedTable {
    std::unique_ptr<BoundGeneration> b;
    std::map<std::string, z3::expr> lit;
    std::optional<z3::expr> another;
    z3::expr_vector other;
  };
  auto fixed_table = [&](const std::vector<uint32_t>& t,
                         const std::map<std::pair<int, uint32_t>, int64_t>& sol_values) -> std::unique_ptr<FixedTable> {
    std::vector<std::tuple<int, uint32_t, int64_t>> at;
    for (size_t k = 0; k < t.size(); ++k)
      at.emplace_back(sv.var, uint32_t(k), ir::domain_value(p_.domains, tv.domain, t[k]));
    auto b = bound_generation(prop, go, int(table_setup), uint32_t(blank_index), false, allowed, at);
    Generation& h = *b->e->g;
    h.started = g.started;
    z3::context& hz = h.z3;
    auto out = std::unique_ptr<FixedTable>(new FixedTable{std::move(b), {}, std::nullopt, z3::expr_vector(hz)});
    const GenEncoding& he = *out->b->e;
    for (size_t i = 0; i < he.clues.size(); ++i)
      if (!out->lit.emplace(he.clues[i].first, h.lits[i]).second) return nullptr;
    for (const Selector& s : h.state) {
      auto it = sol_values.find({s.var, s.element});
      if (it == sol_values.end()) return nullptr;  // an element the whole encoding does not read
      auto at_v = std::find(s.values.begin(), s.values.end(), it->second);
      if (at_v == s.values.end()) return nullptr;
      out->other.push_back(!s.guard[size_t(at_v - s.values.begin())]);
    }
    out->another = hz.bool_const("another");
    h.add(z3::implies(*out->another, z3::mk_or(out->other)));
    return out;
  };
  auto list_attempt = [&](const std::vector<uint32_t>& sol, const z3::expr_vector& at_sol,
                          const z3::expr_vector& other, SplitMix64& rng, uint64_t seed, int attempt,
                          std::vector<uint32_t>& table, GeneratedPuzzle& cur,
                          std::unique_ptr<FixedTable>& final_table) -> ListOutcome {
    const size_t n = g.lits.size();
    std::map<std::pair<int, uint32_t>, int64_t> sol_values;
    std::vector<std::tuple<int, uint32_t, int64_t>> at;
    for (size_t i = 0; i < g.state.size(); ++i) {
      sol_values[{g.state[i].var, g.state[i].element}] = g.state[i].values[sol[i]];
      at.emplace_back(g.state[i].var, g.state[i].element, g.state[i].values[sol[i]]);
    }
    // Steps 2 and 4: the solution's values as constants (d), else the whole encoding.
    std::unique_ptr<BoundGeneration> at_solution =
        bound_generation(prop, go, int(table_setup), uint32_t(blank_index), true, allowed, at);
    bool solution_bound = at_solution->e->clues.size() == n && at_solution->e->g->table.size() == g.table.size();
    for (size_t i = 0; i < n && solution_bound; ++i)
      solution_bound = at_solution->e->clues[i].first == clues[i].first;
    Generation& d = solution_bound ? *at_solution->e->g : g;
    d.started = g.started;
    auto sync = [&] { return absorb(d); };
    z3::expr_vector d_sol(d.z3);  // the solution, where d does not read it as constants
    if (&d == &g) d_sol = copy(at_sol);
    std::optional<z3::model> model;
    z3::expr_vector as = copy(d_sol);
    d.all_clues(as);
    for (size_t i = 0; i < n; ++i)
      if (!d.allowed[d.family[i]]) as.push_back(!d.present[i]);
    {
      z3::expr_vector every = copy(as);
      for (size_t i = 0; i < n; ++i)
        if (d.allowed[d.family[i]] && d.removable[i]) every.push_back(d.present[i]);
      const z3::check_result r = d.ask(every);
      if (r == z3::sat) {
        model = d.solver.get_model();
        as = every;
      } else if (r == z3::unsat) {
        std::vector<size_t> order(n);
        std::iota(order.begin(), order.end(), size_t(0));
        shuffle(order, rng);
        for (size_t i : order) {
          if (!d.allowed[d.family[i]] || !d.removable[i]) continue;
          as.push_back(d.present[i]);
          if (d.ask(as) == z3::sat) model = d.solver.get_model();
          else as.pop_back();
          if (!d.stopped.empty()) break;
        }
        if (!model && d.stopped.empty() && d.ask(as) == z3::sat) model = d.solver.get_model();
      }
    }
    if (!sync() || !model) return ListOutcome::Stopped;
    // The table's values drawn one element at a time, in a random order: blank where the
    // clues allow it, else the first value of a random order they allow (a value the last
    // model has needs no question; after
    // three values not allowed, one question asks whether the model's is the only one). Each choice
    // depends on the seed and on what is allowed, not on the solver's history: a seed gives
    // the same puzzle alone or in a run of several.
    {
      std::vector<size_t> elems(d.table.size());
      std::iota(elems.begin(), elems.end(), size_t(0));
      shuffle(elems, rng);
      for (size_t k : elems) {
        const Selector& t = d.table[k];
        std::vector<uint32_t> vs(t.guard.size());
        std::iota(vs.begin(), vs.end(), 0u);
        shuffle(vs, rng);
        // Blank first: a value no instance given needs stays blank (step 4 has less to tidy),
        // the others the first of their random order.
        const auto blank = std::find(vs.begin(), vs.end(), d.blank);
        std::rotate(vs.begin(), blank, blank + 1);
        int tried = 0;
        for (uint32_t v : vs) {
          const uint32_t now = Generation::values(*model, {t})[0];
          if (v == now) {
            as.push_back(t.guard[v]);
            break;
          }
          // After a few values not allowed: is the model's the only one? (It is then the
          // first allowed in this order too.)
          if (++tried == 4) {
            as.push_back(!t.guard[now]);
            const z3::check_result only = d.ask(as);
            as.pop_back();
            if (only == z3::unknown) return sync(), ListOutcome::Stopped;
            if (only == z3::unsat) {
              as.push_back(t.guard[now]);
              break;
            }
            model = d.solver.get_model();
            if (model->eval(t.guard[v], true).is_true()) {
              as.push_back(t.guard[v]);
              break;
            }
          }
          as.push_back(t.guard[v]);
          const z3::check_result r = d.ask(as);
          if (r == z3::sat) {
            model = d.solver.get_model();
            break;
          }
          as.pop_back();
          if (r == z3::unknown) return sync(), ListOutcome::Stopped;
        }
      }
      if (d.ask(as) != z3::sat) return sync(), ListOutcome::Stopped;
      model = d.solver.get_model();
    }
    table = Generation::values(*model, d.table);
    std::vector<bool> kept(n);
    for (size_t i = 0; i < n; ++i) kept[i] = model->eval(d.present[i], true).is_true();
    if (!sync()) return ListOutcome::Stopped;
    z3::expr block = z3_.bool_const(fmt::format("another:{}:{}", seed, attempt).c_str());
    g.add(z3::implies(block, z3::mk_or(other)));
    // Whether table `t` with the instances `k` asserted allows a second board: asked of `f`
    // (the table read as constants) when there is one, else of the whole encoding.
    auto second = [&](const std::vector<uint32_t>& t, const std::vector<bool>& k, FixedTable* f) {
      if (f) {
        Generation& h = *f->b->e->g;
        z3::expr_vector q(h.z3);
        for (size_t i = 0; i < n; ++i) {
          if (!k[i]) continue;
          auto it = f->lit.find(clues[i].first);
          if (it != f->lit.end()) q.push_back(it->second);  // else the entry does not give it
        }
        q.push_back(*f->another);
        const z3::check_result r = h.ask(q);
        absorb(h);
        return r;
      }
      z3::expr_vector q(z3_);
      g.fix_table(t, q);
      for (size_t i = 0; i < n; ++i)
        if (k[i]) q.push_back(g.lits[i]);
      q.push_back(block);
      return g.ask(q);
    };
    cur.full_givens = size_t(std::count(kept.begin(), kept.end(), true));
    say(fmt::format("  seed {} attempt {}: {} clue instances given in full ({:.1f} s)", seed, attempt,
                    cur.full_givens, g.elapsed()));
    // --full: the entry of every instance given, none dropped (step 5 says whether it is unique).
    std::unique_ptr<FixedTable> full_table = go.full ? nullptr : fixed_table(table, sol_values);
    const z3::check_result full = go.full ? z3::unsat : second(table, kept, full_table.get());
    if (full == z3::unknown) return ListOutcome::Stopped;
    if (full == z3::sat) {
      say(fmt::format("  seed {} attempt {}: every clue of its solution ({} instances) allows another board", seed,
                      attempt, cur.full_givens));
      return ListOutcome::Again;
    }
    // 3.
    std::vector<size_t> order;  // none under --full
    for (size_t f = 0; f < prop.clues.size() && !go.full; ++f) {
      std::vector<size_t> mine;
      for (size_t i = 0; i < n; ++i)
        if (family[i] == f && kept[i] && g.removable[i]) mine.push_back(i);
      shuffle(mine, rng);
      order.insert(order.end(), mine.begin(), mine.end());
    }
    for (size_t i : order) {
      std::vector<bool> trial = kept;
      trial[i] = false;
      const z3::check_result r = second(table, trial, full_table.get());
      if (r == z3::unknown) return ListOutcome::Stopped;
      if (r == z3::unsat) kept = trial;
      say(fmt::format("  seed {} attempt {}: {} {} ({:.1f} s)", seed, attempt, clues[i].first,
                      r == z3::unsat ? "dropped" : "kept", g.elapsed()));
    }
    full_table.reset();
    // 4.
    z3::expr_vector pattern = copy(d_sol);
    d.all_clues(pattern);
    for (size_t i = 0; i < n; ++i) pattern.push_back(kept[i] ? d.present[i] : !d.present[i]);
    auto with = [&](const std::vector<uint32_t>& t, size_t upto) {
      z3::expr_vector q = copy(pattern);
      for (size_t k = 0; k < upto; ++k) q.push_back(d.table[k].guard[t[k]]);
      return q;
    };
    // Each element in turn: the full table's value where the elements before it and the
    // pattern allow it, else blank, else the first value allowed (one exists: the elements
    // before it were allowed together).
    std::vector<uint32_t> t = table;
    {
      const z3::check_result r = d.ask(with(t, 0));
      if (r != z3::sat) return sync(), ListOutcome::Stopped;  // the kept instances of step 3 hold on the solution
    }
    std::optional<z3::model> last = d.solver.get_model();
    for (size_t k = 0; k < t.size(); ++k) {
      std::vector<uint32_t> tries{table[k], d.blank};
      for (uint32_t v = 0; v < d.table[k].guard.size(); ++v) tries.push_back(v);
      bool found = false;
      for (uint32_t v : tries) {
        t[k] = v;
        if (last->eval(d.table[k].guard[v], true).is_true()) {
          found = true;
          break;
        }
        const z3::check_result r = d.ask(with(t, k + 1));
        if (r == z3::unknown) return sync(), ListOutcome::Stopped;
        if (r == z3::sat) {
          last = d.solver.get_model();
          found = true;
          break;
        }
      }
      if (!found) throw std::logic_error(fmt::format("puzzle '{}': no entry gives the clues kept", prop.name));
    }
    // Values nothing kept needs: blank where the solution and the clues kept hold without
    // them (the check below decides whether the puzzle is still the same).
    const std::vector<uint32_t> untidy = t;
    for (size_t k = 0; k < t.size(); ++k) {
      if (t[k] == d.blank) continue;
      std::vector<uint32_t> trial = t;
      trial[k] = d.blank;
      const z3::check_result r = d.ask(with(trial, t.size()));
      if (r == z3::unknown) return sync(), ListOutcome::Stopped;
      if (r == z3::sat) t = trial;
    }
    if (!sync()) return ListOutcome::Stopped;
    // 5.
    const std::vector<bool> all(n, true);
    auto check = [&](const std::vector<uint32_t>& e) {
      final_table = fixed_table(e, sol_values);
      cur.unique = second(e, all, final_table.get()) == z3::unsat;
      cur.givens = cur.needed = 0;
      cur.clues_kept.clear();
      for (size_t i = 0; i < n; ++i) {
        if (!kept[i]) continue;
        ++cur.givens;
        cur.clues_kept.push_back(clues[i].first);
        if (go.full) continue;
        std::vector<bool> without = all;
        without[i] = false;
        cur.needed += second(e, without, final_table.get()) == z3::sat;
      }
      return go.full || (cur.unique && cur.needed == cur.givens);
    };
    table = t;
    if (!check(t) && g.stopped.empty() && untidy != t) {
      table = untidy;
      check(untidy);
    }
    if (!g.stopped.empty()) return ListOutcome::Stopped;
    return ListOutcome::Done;
  };


  // An attempt is done when its puzzle is minimal and meets every criterion; else the one
  // closest to that is kept (minimal first: a criterion can keep an entry uniqueness
  // does not need).
  auto rank = [&](const GeneratedPuzzle& p) {
    return std::pair<bool, size_t>(p.unique && p.needed == p.givens, met(p.criteria));
  };
  const std::vector<uint32_t> empty(g.table.size(), g.blank);
  // Step 1 of a list entry asks an encoding of the set and the solution alone (no clue is
  // asserted then, and the clue instances are most of the whole encoding), when it reads
  // the state elements the whole one reads, in the same order (else the whole one).
  std::unique_ptr<BoundGeneration> set_only;
  if (!grid) {
    set_only = bound_generation(prop, go, int(tables[0]), uint32_t(blank_index), true, allowed, {}, false);
    const std::vector<Selector>& st = set_only->e->g->state;
    bool same = st.size() == g.state.size();
    for (size_t i = 0; same && i < st.size(); ++i)
      same = st[i].var == g.state[i].var && st[i].element == g.state[i].element && st[i].values == g.state[i].values;
    if (same) set_only->e->g->started = g.started;
    else set_only.reset();
  }
  std::vector<GeneratedPuzzle> results;
  for (int n = 0; n < std::max(1, go.count) && g.stopped.empty(); ++n) {
    const uint64_t seed = go.seed + uint64_t(n);
    const auto seed_started = Clock::now();
    GeneratedPuzzle out = proto;
    bool have = false;
    for (int attempt = 1; attempt <= std::max(1, go.attempts) && g.stopped.empty(); ++attempt) {
      SplitMix64 rng(seed * 0x9e3779b97f4a7c15ull + uint64_t(attempt));
      GeneratedPuzzle cur;
      // 1. A random solution: the table empty (no clue given), each state element in a
      // random order given a random value the rest still allows.
      // (A list entry: no clue asserted, asked of the set alone; step 2 finds the clues
      // this solution gives.)
      Generation& g1 = set_only ? *set_only->e->g : g;
      z3::expr_vector fixed(g1.z3);
      if (grid) g.fix_table(empty, fixed);
      if (g1.ask(fixed) != z3::sat) {
        absorb(g1);
        if (!g.stopped.empty()) break;
        throw std::invalid_argument(fmt::format("puzzle '{}' has no solution", prop.name));
      }
      std::optional<z3::model> last = g1.solver.get_model();
      std::vector<size_t> order(g1.state.size());
      std::iota(order.begin(), order.end(), size_t(0));
      shuffle(order, rng);
      for (size_t o : order) {
        const Selector& s = g1.state[o];
        std::vector<uint32_t> vs(s.guard.size());
        std::iota(vs.begin(), vs.end(), 0u);
        shuffle(vs, rng);
        for (uint32_t v : vs) {
          fixed.push_back(s.guard[v]);
          // The last model has this value: it is allowed, no question needed.
          if (last->eval(s.guard[v], true).is_true()) break;
          const z3::check_result r = g1.ask(fixed);
          if (r == z3::sat) {
            last = g1.solver.get_model();
            break;
          }
          fixed.pop_back();
          if (r == z3::unknown) break;
        }
        if (!g1.stopped.empty()) break;
      }
      absorb(g1);
      if (!g.stopped.empty()) break;
      if (g1.ask(fixed) != z3::sat) {
        absorb(g1);
        break;
      }
      const std::vector<uint32_t> sol = Generation::values(g1.solver.get_model(), g1.state);
      absorb(g1);
      last.reset();
      say(fmt::format("  seed {} attempt {}: a solution drawn ({:.1f} s, {} questions so far)", seed, attempt,
                      g.elapsed(), g.questions));
      z3::expr_vector at_sol(z3_), other(z3_);
      for (size_t i = 0; i < g.state.size(); ++i) {
        at_sol.push_back(g.state[i].guard[sol[i]]);
        other.push_back(!g.state[i].guard[sol[i]]);
      }
      std::vector<uint32_t> table;
      std::vector<CriterionVerdict> held(criteria.size());
      std::unique_ptr<FixedTable> final_table;  // a list entry's, as written (step 5)
      if (!grid) {
        const ListOutcome o = list_attempt(sol, at_sol, other, rng, seed, attempt, table, cur, final_table);
        if (o == ListOutcome::Stopped) break;
        if (o == ListOutcome::Again) {
          out.attempts_made = attempt;
          continue;
        }
        for (size_t i = 0; i < criteria.size(); ++i) held[i].status = criterion(i, table);
      } else {
        // 2. The full table this solution gives: every element given where one can be.
        z3::expr_vector as = copy(at_sol);
        for (const Selector& t : g.table) as.push_back(!t.guard[g.blank]);
        if (g.ask(as) == z3::sat) {
          table = Generation::values(g.solver.get_model(), g.table);
        } else {
          if (!g.stopped.empty()) break;
          table = empty;
          std::vector<size_t> keys(g.table.size());
          std::iota(keys.begin(), keys.end(), size_t(0));
          shuffle(keys, rng);
          as = copy(at_sol);
          for (size_t k : keys) {
            as.push_back(!g.table[k].guard[g.blank]);
            if (g.ask(as) == z3::sat) table[k] = Generation::values(g.solver.get_model(), {g.table[k]})[0];
            else as.pop_back();
            if (!g.stopped.empty()) break;
          }
        }
        if (!g.stopped.empty()) break;
        // The literal of this attempt's "another board": one of its own per seed and attempt
        // (a literal shared with an earlier seed would assume that seed's clause too, and a
        // second solution equal to the earlier solution would be missed).
        z3::expr block = z3_.bool_const(fmt::format("another:{}:{}", seed, attempt).c_str());
        g.add(z3::implies(block, z3::mk_or(other)));
        // Whether table `t` allows a second solution: sat (yes), unsat (unique).
        auto second = [&](const std::vector<uint32_t>& t) {
          z3::expr_vector q(z3_);
          g.fix_table(t, q);
          q.push_back(block);
          return g.ask(q);
        };
        for (uint32_t v : table) cur.full_givens += v != g.blank;
        const z3::check_result full = second(table);
        if (full != z3::unsat) {
          if (full == z3::unknown) break;
          // Every clue this solution can give still allows another board (its clues say
          // nothing of some cells): the next attempt draws another solution.
          say(fmt::format("  seed {} attempt {}: every clue of its solution ({} entries) allows another board", seed,
                          attempt, cur.full_givens));
          out.attempts_made = attempt;
          continue;
        }
        // 3. Entries blanked one at a time in a random order, while the solution stays unique
        // and no criterion that holds stops holding.
        for (size_t i = 0; i < criteria.size(); ++i) held[i].status = criterion(i, table);
        std::vector<size_t> keys;
        for (size_t k = 0; k < table.size(); ++k)
          if (table[k] != g.blank) keys.push_back(k);
        shuffle(keys, rng);
        for (size_t k : keys) {
          std::vector<uint32_t> trial = table;
          trial[k] = g.blank;
          const z3::check_result r = second(trial);
          if (r == z3::unknown) break;
          if (r == z3::sat) continue;  // needed now, and with fewer entries still
          std::vector<CriterionVerdict> now(criteria.size());
          bool keeps = true;
          for (size_t i = 0; i < criteria.size(); ++i) {
            now[i].status = criterion(i, trial);
            keeps = keeps && !(held[i].status == CriterionVerdict::Status::Met && now[i].status != held[i].status);
          }
          if (!keeps) continue;
          table = trial;
          held = now;
        }
        if (!g.stopped.empty()) break;
        // 4. The check: unique, and each kept entry needed.
        cur.unique = second(table) == z3::unsat;
        for (size_t k = 0; k < table.size(); ++k) {
          if (table[k] == g.blank) continue;
          ++cur.givens;
          std::vector<uint32_t> trial = table;
          trial[k] = g.blank;
          cur.needed += second(trial) == z3::sat;
        }
      }
      if (!g.stopped.empty()) break;
      for (size_t i = 0; i < criteria.size(); ++i) {
        held[i].name = criteria[i].prop->name;
        held[i].description = criteria[i].prop->description;
      }
      cur.criteria = held;
      cur.entry = table;
      cur.attempt = attempt;
      // The solution's board, its setup the puzzle (what init derives from it included).
      z3::expr_vector board_q = copy(at_sol);
      g.fix_table(table, board_q);
      g.all_clues(board_q);
      // The solution holds the entry's clues (else no "unique": the entry has no solution).
      const z3::check_result holds = g.ask(board_q);
      if (holds == z3::sat) cur.solution = board(g.solver.get_model(), sc);
      else if (holds == z3::unsat) cur.unique = false;
      // Difficulty: a fresh solver proves uniqueness, with nothing learned before and the
      // same assertions whatever ran before (alone or in a run of several seeds). A list
      // entry's question is that of its check (the entry read as constants, as `solve`
      // reads it), a grid's the whole encoding with the table fixed.
      const bool fixed_entry = bool(final_table);
      Verifier& qv = fixed_entry ? *final_table->b->v : *this;
      const GenEncoding& qe = fixed_entry ? *final_table->b->e : *main_enc;
      z3::expr_vector question(qv.z3_);
      for (const z3::expr& a : qe.base) question.push_back(a);
      if (fixed_entry) {
        qe.g->all_clues(question);
        question.push_back(z3::mk_or(final_table->other));
      } else {
        g.fix_table(table, question);
        g.all_clues(question);
        question.push_back(z3::mk_or(other));
      }
      // In a context of its own, a solver of the same kind: the terms numbered as this
      // question alone numbers them.
      z3::context own;
      z3::solver alone = qe.sat_based ? z3::solver(own, "QF_FD") : z3::solver(own);
      for (const z3::expr& a : question) alone.add(z3::to_expr(own, Z3_translate(qv.z3_, a, own)));
      cur.difficulty_solver = qe.sat_based ? "the SAT-based solver" : "the general solver";
      z3::params own_ps(own);
      own_ps.set("ctrl_c", false);  // SIGINT is the caller's (the stop flag), not Z3's
      own_ps.set("timeout", unsigned(std::max(1.0, g.left() * 1000)));
      alone.set(own_ps);
      StopWatcher own_watch(own, opt_.stop);
      // Counts of components: each model whose counts are wrong is taken back to the
      // encoding's context for its cuts, which join the question (the solver's figures
      // are those of its whole life: every round).
      z3::check_result proof = alone.check();
      std::vector<char> euler_stated;  // this solver's own (not what earlier questions were told)
      while (proof == z3::sat && qe.counted) {
        z3::model back(qv.z3_, Z3_model_translate(own, alone.get_model(), qv.z3_));
        const std::vector<z3::expr> cs = qv.enc_.component_cuts(back, &euler_stated);
        if (cs.empty()) break;
        for (const z3::expr& c : cs) alone.add(z3::to_expr(own, Z3_translate(qv.z3_, qe.g->form(c), own)));
        if (g.left() <= 0 || (opt_.stop && opt_.stop->load())) {
          proof = z3::unknown;
          break;
        }
        proof = alone.check();
        ++cur.rounds;
      }
      if (proof == z3::unsat) {
        cur.conflicts = stat_of(alone, "sat conflicts") + stat_of(alone, "conflicts");
        cur.decisions = stat_of(alone, "sat decisions") + stat_of(alone, "decisions");
      } else {
        cur.difficulty_unknown = proof == z3::sat  ? "a second solution there"
                                 : g.left() <= 0   ? fmt::format("timeout ({} s)", go.timeout_seconds)
                                                   : alone.reason_unknown();
      }
      say(fmt::format("  seed {} attempt {}: {} of {} {} kept, unique {}, {} needed, {} of {} criteria met "
                      "({} questions so far)",
                      seed, attempt, cur.givens, cur.full_givens, grid ? "entries" : "clue instances",
                      cur.unique ? "proved" : "not proved", cur.needed, met(cur.criteria), criteria.size(),
                      g.questions));
      out.attempts_made = attempt;
      if (!have || rank(cur) > rank(out)) {
        cur.puzzle = proto.puzzle;
        cur.over = proto.over;
        cur.table = proto.table;
        cur.path = proto.path;
        cur.attempts_made = attempt;
        out = std::move(cur);
        have = true;
      }
      if (rank(out) == std::pair<bool, size_t>(true, criteria.size()) || go.full) break;
    }
    out.seed = seed;
    out.stopped = g.stopped;
    // A seed that makes nothing says why; the other seeds of the run go on (and keep theirs).
    if (!have && g.stopped.empty())
      out.stopped = fmt::format("in each of {} attempts, every clue of the solution drawn allowed another board",
                                std::max(1, go.attempts));
    if (have) {
      // The entry as a data file's lines: one row of cells each, `.` for the blank; a
      // list's values as the file's first entry lays them out (else 16 a line).
      const int w = p_.geometry.width;
      out.list = !grid;
      out.full = go.full;
      if (!grid) {
        size_t line = 0, on_line = 0;
        for (size_t k = 0; k < out.entry.size(); ++k) {
          const size_t width = line < sv.layout.size() ? sv.layout[line] : 16;
          out.entry_text += (on_line ? " " : "") +
                            ir::value_text(p_.domains, tv.domain, ir::domain_value(p_.domains, tv.domain, out.entry[k]));
          if (++on_line == width || k + 1 == out.entry.size()) {
            out.entry_text += '\n';
            ++line;
            on_line = 0;
          }
        }
      }
      for (size_t k = 0; k < out.entry.size() && grid; ++k) {
        const ir::Value v = ir::domain_value(p_.domains, tv.domain, out.entry[k]);
        if (out.entry[k] == g.blank) out.entry_text += '.';
        else if (v >= 1 && v <= 9) out.entry_text += char('0' + v);
        else throw Unsupported(fmt::format("a data file holds digits 1 to 9; '{}' gives {}", sv.name, v));
        if (int(k % size_t(w)) == w - 1) out.entry_text += '\n';
      }
    }
    out.seconds = std::chrono::duration<double>(Clock::now() - seed_started).count();
    if (n == 0) out.seconds += std::chrono::duration<double>(seed_started - encode_started).count();
    results.push_back(std::move(out));
  }
  return results;
}

std::vector<GeneratedPuzzle> generate_puzzles(const ir::Program& program, const dsl::SourceSet& sources,
                                              const ir::Property& puzzle, const GenerateOptions& options) {
  Options o;
  o.setup = options.setup;
  o.timeout_seconds = options.timeout_seconds;
  o.progress = options.progress;
  o.stop = options.stop;
  Verifier v(program, sources, o);
  return v.generate_puzzles(puzzle, options);
}

}  // namespace rulebook::verifier
