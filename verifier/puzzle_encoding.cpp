// A puzzle generation's encodings (verifier/puzzle_generation.h): the set, the solution and
// the clue instances in one solver, in this verifier or in one of its own with some state
// elements read as constants.
#include <algorithm>
#include <stdexcept>

#include <fmt/format.h>

#include "verifier/puzzle_generation.h"

namespace rulebook::verifier {


/// A new vector of the same expressions (copying an expr_vector shares it).
z3::expr_vector copy(const z3::expr_vector& v) {
  z3::expr_vector out(v.ctx());
  for (unsigned i = 0; i < v.size(); ++i) out.push_back(v[i]);
  return out;
}

std::unique_ptr<Verifier::GenEncoding> Verifier::generation_encoding(const ir::Property& prop,
                                                                     const GenerateOptions& go, int table, bool grid,
                                                                     uint32_t blank, bool table_free,
                                                                     const std::vector<bool>& allowed,
                                                                     const std::function<void()>& before_parts,
                                                                     bool with_clues) {
  const ir::SetupVar& sv = p_.setups[size_t(table)];
  const ir::StateVar& tv = p_.vars[size_t(sv.var)];
  auto out = std::make_unique<GenEncoding>();
  // The table's selectors first, so that their facts are among those asserted.
  std::vector<int> table_sels;
  if (table_free)
    for (uint32_t k = 0; k < tv.count; ++k) table_sels.push_back(enc_.base_selector(sv.var, k));
  out->sc = scope(prop, 0);
  Scope& sc = out->sc;
  auto [solution, err] = value_pair(sc, *prop.expr);
  std::vector<std::pair<std::string, z3::expr>>& clues = out->clues;
  std::vector<z3::expr> wheres;
  std::vector<size_t>& family = out->family;
  for (const ir::Clue& c : prop.clues) {
    if (!with_clues) break;
    Encoder::Frame f(size_t(std::max(prop.locals, 1)), nullptr);
    clue_instances(c, *c.family, c.binders, f, "", clues, z3_.bool_val(true), &wheres);
    family.resize(clues.size(), size_t(&c - prop.clues.data()));
  }
  std::vector<z3::expr> lits, present;
  if (!grid)
    for (size_t i = 0; i < clues.size(); ++i) {
      lits.push_back(z3_.bool_const(fmt::format("clue:{}", i).c_str()));
      present.push_back(z3_.bool_const(fmt::format("present:{}", i).c_str()));
    }
  if (before_parts) before_parts();
  std::vector<Part> all;
  for (const z3::expr& x : enc_.facts()) all.push_back(Part{x, -1, std::nullopt});
  for (const Part& p : sc.parts) all.push_back(p);
  all.push_back(Part{solution && !err, -1, std::nullopt});
  for (size_t i = 0; i < clues.size(); ++i) {
    if (grid) {
      all.push_back(Part{clues[i].second, -1, std::nullopt});
    } else {
      // An instance of a clue the entries may not give (--clue) is never present: its
      // condition would never be asked.
      if (allowed[family[i]]) all.push_back(Part{z3::implies(lits[i], clues[i].second), -1, std::nullopt});
      all.push_back(Part{present[i] == wheres[i], -1, std::nullopt});
    }
  }
  // The facts of counts where a part reads one; the SAT-based solver when every integer has
  // a form it takes, else the general one.
  const PuzzleForm pf = puzzle_form(all);
  const bool counted = pf.counted;
  const std::vector<z3::expr>& count_facts = pf.count_facts;
  std::function<z3::expr(const z3::expr&)> form = pf.form;
  const bool sat_based = bool(form);
  if (!sat_based) form = [](const z3::expr& e) { return e; };
  out->sat_based = sat_based;
  out->counted = counted;
  out->g.reset(new Generation{z3_, sat_based ? z3::solver(z3_, "QF_FD") : z3::solver(z3_), go, Clock::now(), {}, {},
                              blank, form, {}, "", 0, RepairedModel(enc_), {}, {}, {}, {}, {}});
  Generation& g = *out->g;
  if (counted) {
    g.cuts = [this](z3::model& m) { return enc_.component_cuts(m); };
    for (const z3::expr& x : count_facts) g.add(x);
  }
  if (!sat_based)
    for (const z3::expr& x : enc_.sum_facts()) g.add(x);
  for (const Part& p : all) g.add(p.e);
  for (const z3::expr& l : sc.lits) g.add(l);
  // Before any attempt's blocking clause (as given: the SAT-based solver's own list is its clauses).
  out->base = g.repaired.assertions();
  for (int s : table_sels) g.table.push_back(enc_.selectors()[size_t(s)]);
  g.lits = lits;
  g.present = present;
  for (size_t i = 0; i < wheres.size(); ++i) {
    g.removable.push_back(!wheres[i].simplify().is_true());
    if (table_free && !g.removable.back() && !allowed[family[i]])
      throw std::invalid_argument(fmt::format("clue '{}' is given by every entry (its instances read no `where` of "
                                              "the table): it cannot be left out",
                                              prop.clues[family[i]].name));
  }
  g.allowed = allowed;
  g.family = family;
  for (const Selector& s : enc_.selectors())
    if (s.var >= 0 && s.var != sv.var) g.state.push_back(s);
  return out;
}

std::unique_ptr<Verifier::BoundGeneration> Verifier::bound_generation(
    const ir::Property& prop, const GenerateOptions& go, int table, uint32_t blank, bool table_free,
    const std::vector<bool>& allowed, const std::vector<std::tuple<int, uint32_t, int64_t>>& fixed,
    bool with_clues) {
  auto b = std::make_unique<BoundGeneration>();
  b->opt = opt_;
  b->opt.progress = nullptr;
  b->v = std::make_unique<Verifier>(p_, sources_, b->opt);
  Verifier& v = *b->v;
  b->watch = std::make_unique<StopWatcher>(v.z3_, opt_.stop);
  v.bind_setups();
  v.bound_ = bound_;
  v.symbolic_setup_ = symbolic_setup_;
  v.budget_ = budget_;
  for (const auto& [var, element, value] : fixed) v.enc_.bind(var, element, value);
  b->e = v.generation_encoding(prop, go, table, false, blank, table_free, allowed, {}, with_clues);
  return b;
}
}  // namespace rulebook::verifier
