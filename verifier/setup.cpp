// Setup values in the verifier: those given with `--setup` or fixed by a property (`with`)
// are constants, a data-file setup left free is one of the file's entries, and each set says
// what its setup values range over.
#include <algorithm>
#include <map>
#include <set>
#include <stdexcept>

#include <fmt/format.h>

#include "compiler/ir/text.h"
#include "verifier/slice.h"
#include "verifier/verifier_internal.h"

namespace rulebook::verifier {

namespace {

/// Adds the variables every expression of `b` reads (conditions, keys, values) to `vars`.
void block_reads(const ir::Program& p, const ir::Block& b, std::set<int>& vars) {
  for (const ir::StmtPtr& s : b) {
    for (const ir::ExprPtr& k : s->keys)
      if (k) reads_of(p, *k, vars);
    if (s->value) reads_of(p, *s->value, vars);
    if (s->where) reads_of(p, *s->where, vars);
    block_reads(p, s->body, vars);
    block_reads(p, s->otherwise, vars);
  }
}

/// The variables the value of `prop`, its `where` and, over moves, the moves' conditions
/// and bodies read (with the board rules' when `board_rules`).
std::set<int> vars_read(const ir::Program& p, const ir::Property& prop, bool board_rules) {
  std::set<int> vars;
  if (prop.expr) reads_of(p, *prop.expr, vars);
  if (prop.where) reads_of(p, *prop.where, vars);
  for (const ir::Clue& c : prop.clues) reads_of(p, *c.family, vars);
  if (board_rules)
    for (const ir::Rule& r : p.rules)
      if (r.board_rule) reads_of(p, *r.condition, vars);
  if (prop.over_moves)
    for (int m : prop.moves) {
      const ir::Move& mv = p.moves[size_t(m)];
      for (const ir::ExprPtr& r : mv.requires_) reads_of(p, *r, vars);
      for (const ir::Check& c : mv.checks) reads_of(p, *c.condition, vars);
      block_reads(p, mv.body, vars);
    }
  return vars;
}

/// The setup variables (indices of p.setups) the set or the value of `prop` reads.
std::vector<size_t> setup_vars_read(const ir::Program& p, const ir::Property& prop) {
  if (p.setups.empty()) return {};
  const std::set<int> vars = vars_read(p, prop, true);
  std::vector<size_t> out;
  for (size_t i = 0; i < p.setups.size(); ++i)
    if (vars.count(p.setups[i].var)) out.push_back(i);
  return out;
}

}  // namespace

std::vector<size_t> Verifier::setups_read(const ir::Property& prop) const { return setup_vars_read(p_, prop); }

std::vector<int> Verifier::board_vars(const ir::Property& prop) const {
  using K = ir::PropertyKind;
  if (prop.kind == K::Depends)
    for (const ir::Property& q : p_.properties)
      if (q.name == prop.subject && q.kind != K::Depends) return board_vars(q);
  // The board rules hold on every board shown and on every position a game reaches: a
  // variable only they read decides nothing the result says, unless they are the subject.
  std::set<int> vars = vars_read(p_, prop, prop.kind == K::Consistent || prop.kind == K::Redundant);
  if (prop.phase >= 0) vars.insert(ir::kVarPhase);
  if (prop.over_moves) vars.insert(ir::kVarMover);
  return {vars.begin(), vars.end()};
}

std::vector<std::string> setups_read(const ir::Program& p, const ir::Property& prop) {
  std::vector<std::string> out;
  for (size_t i : setup_vars_read(p, prop)) out.push_back(p.setups[i].name);
  return out;
}

void Verifier::bind_setups() {
  bound_.assign(p_.setups.size(), "");
  if (opt_.setup.empty()) return;
  engine::Setup given;
  given.values = opt_.setup;
  std::vector<std::vector<uint32_t>> indices;
  const engine::Status st = compiler::setup_overrides(p_, given, indices);
  if (!st.ok) throw std::invalid_argument(st.message);
  for (const auto& [name, text] : opt_.setup)
    for (size_t i = 0; i < p_.setups.size(); ++i)
      if (p_.setups[i].name == name) bound_[i] = text;
  for (size_t i = 0; i < p_.setups.size(); ++i) {
    if (indices[i].empty()) continue;
    const ir::StateVar& v = p_.vars[size_t(p_.setups[i].var)];
    // The same checks as the engines' setup: a value per element, each in the domain.
    if (indices[i].size() != v.count)
      throw std::invalid_argument(fmt::format("'{}' needs {} values, {} given", v.name, v.count, indices[i].size()));
    for (uint32_t k = 0; k < v.count; ++k) {
      if (indices[i][k] >= p_.domains[size_t(v.domain)].size)
        throw std::invalid_argument(fmt::format("a value given for '{}' is outside {}", v.name,
                                                p_.domains[size_t(v.domain)].name));
      enc_.bind(p_.setups[i].var, k, ir::domain_value(p_.domains, v.domain, indices[i][k]));
    }
  }
}

void Verifier::entry_parts(const ir::Property& prop, Scope& sc) {
  // A data-file setup takes one of the file's entries and nothing else: without this, a
  // puzzle would be any grid of its type, and a `find` would find made-up puzzles.
  for (size_t i : setups_read(prop)) {
    const ir::SetupVar& sv = p_.setups[i];
    if (!bound_[i].empty() || sv.source != ir::SetupVar::Source::Entries) continue;
    const ir::StateVar& v = p_.vars[size_t(sv.var)];
    std::vector<int> sels;
    for (uint32_t k = 0; k < v.count; ++k) sels.push_back(enc_.base_selector(sv.var, k));
    z3::expr_vector entries(z3_);
    for (const std::vector<uint32_t>& entry : sv.entries) {
      if (entry.size() != v.count) continue;  // the engines' setup refuses such an entry too
      z3::expr_vector is(z3_);
      for (uint32_t k = 0; k < v.count; ++k) is.push_back(enc_.selectors()[size_t(sels[k])].guard[entry[k]]);
      entries.push_back(z3::mk_and(is));
    }
    sc.parts.push_back(Part{entries.empty() ? z3_.bool_val(false) : z3::mk_or(entries), -1, std::nullopt});
  }
}

std::string Verifier::setup_text(const ir::Property& prop) const {
  std::string out;
  for (size_t i : setups_read(prop)) {
    const ir::SetupVar& sv = p_.setups[i];
    const bool entries = sv.source == ir::SetupVar::Source::Entries;
    std::string what;
    if (int(i) == symbolic_setup_)
      what = fmt::format("{}: the table generated", sv.name);
    else if (!bound_[i].empty())
      what = entries ? fmt::format("{}: entry {} of {}", sv.name, bound_[i], sv.path)
                     : fmt::format("{} = {} (given)", sv.name, bound_[i]);
    else if (entries)
      what = fmt::format("{}: any of the {} entries of {} (--setup {}=K fixes one)", sv.name, sv.entries.size(),
                         sv.path, sv.name);
    else
      what = fmt::format("{}: any value of its type, not only those its setup gives (--setup {}=VALUE fixes one)",
                         sv.name, sv.name);
    out += (out.empty() ? "setup " : "; setup ") + what;
  }
  return out;
}

const std::vector<std::pair<std::string, std::string>>& fixed_setup(const ir::Program& p, const ir::Property& prop) {
  if (prop.kind == ir::PropertyKind::Depends)
    for (const ir::Property& q : p.properties)
      if (q.name == prop.subject && q.kind != ir::PropertyKind::Depends) return q.setup;
  return prop.setup;
}

std::vector<Result> verify(const ir::Program& program, const dsl::SourceSet& sources,
                           const Options& options) {
  using Binding = std::vector<std::pair<std::string, std::string>>;
  std::vector<Binding> groups{{}};
  for (const ir::Property& prop : program.properties)
    if (std::find(groups.begin(), groups.end(), fixed_setup(program, prop)) == groups.end())
      groups.push_back(fixed_setup(program, prop));
  if (groups.size() == 1) {
    Verifier v(program, sources, options);
    return v.run();
  }
  // One verifier per group of properties fixing the same setup values (over those given
  // on the command line), the results put back in file order.
  std::map<const ir::Property*, Result> by_property;
  std::vector<Result> out;  // the invariants found (of the first group), then the file's
  for (const Binding& g : groups) {
    Options o = options;
    for (const auto& kv : g) {
      o.setup.erase(std::remove_if(o.setup.begin(), o.setup.end(), [&](const auto& x) { return x.first == kv.first; }),
                    o.setup.end());
      o.setup.push_back(kv);
    }
    Verifier v(program, sources, o);
    v.only_group(&g);
    std::vector<Result> rs = v.run();
    for (size_t i = 0; i < rs.size(); ++i) {
      const ir::Property* prop = v.ran()[i];
      const bool in_file = prop >= program.properties.data() && prop < program.properties.data() + program.properties.size();
      if (!in_file) {
        if (g.empty()) out.push_back(std::move(rs[i]));
      } else if (fixed_setup(program, *prop) == g) {
        by_property.emplace(prop, std::move(rs[i]));
      }
    }
  }
  for (const ir::Property& prop : program.properties)
    if (auto it = by_property.find(&prop); it != by_property.end()) out.push_back(std::move(it->second));
  return out;
}

}  // namespace rulebook::verifier
