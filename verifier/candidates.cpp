// Invariant candidates found from seeded random playouts: the quantities the state's
// types make easy to read (counts of cells per value of a cell map, per player where the
// value is a player; numbers kept per player or alone; the phase), the linear relations
// holding on every sampled state (an exact nullspace) and bounds never exceeded after the
// start. Each becomes an invariant property, tried by induction on a small budget.
#include <algorithm>
#include <cstdint>
#include <map>
#include <numeric>
#include <random>
#include <set>

#include <fmt/format.h>

#include "compiler/interp/interpret.h"
#include "verifier/quantities.h"
#include "verifier/verifier_internal.h"

namespace rulebook::verifier {

namespace {

using namespace qty;
using Big = __int128;

Big gcd_big(Big a, Big b) {
  if (a < 0) a = -a;
  if (b < 0) b = -b;
  while (b != 0) {
    Big t = a % b;
    a = b;
    b = t;
  }
  return a;
}

/// A row divided by the gcd of its entries (and made to start positive).
void normalise(std::vector<Big>& row) {
  Big g = 0;
  for (Big x : row) g = gcd_big(g, x);
  if (g > 1)
    for (Big& x : row) x /= g;
  for (Big x : row)
    if (x != 0) {
      if (x < 0)
        for (Big& y : row) y = -y;
      break;
    }
}

/// The integer vectors v with rows · v = 0 (a basis, from the reduced echelon form), each
/// with the least integer entries of its direction. Exact: integer arithmetic throughout.
std::vector<std::vector<Big>> nullspace(const std::set<std::vector<int64_t>>& rows, size_t cols) {
  std::vector<std::vector<Big>> basis;  // echelon rows, each with a pivot column
  std::vector<size_t> pivots;
  for (const std::vector<int64_t>& r : rows) {
    std::vector<Big> x(r.begin(), r.end());
    for (size_t i = 0; i < basis.size(); ++i) {
      const Big a = x[pivots[i]];
      if (a == 0) continue;
      const Big b = basis[i][pivots[i]];
      for (size_t c = 0; c < cols; ++c) x[c] = x[c] * b - basis[i][c] * a;
      normalise(x);
    }
    size_t p = 0;
    while (p < cols && x[p] == 0) ++p;
    if (p == cols) continue;
    // Keep the form reduced: clear the new pivot's column in the earlier rows.
    for (size_t i = 0; i < basis.size(); ++i) {
      const Big a = basis[i][p];
      if (a == 0) continue;
      for (size_t c = 0; c < cols; ++c) basis[i][c] = basis[i][c] * x[p] - x[c] * a;
      normalise(basis[i]);
    }
    basis.push_back(std::move(x));
    pivots.push_back(p);
    if (basis.size() == cols) break;
  }
  std::vector<std::vector<Big>> out;
  for (size_t f = 0; f < cols; ++f) {
    if (std::find(pivots.begin(), pivots.end(), f) != pivots.end()) continue;
    // v[f] = L, v[pivot_i] = -row_i[f] * L / row_i[pivot_i], L the lcm of the pivots.
    Big l = 1;
    for (size_t i = 0; i < basis.size(); ++i)
      if (basis[i][f] != 0) l = l / gcd_big(l, basis[i][pivots[i]]) * basis[i][pivots[i]];
    if (l < 0) l = -l;
    std::vector<Big> v(cols, 0);
    v[f] = l;
    for (size_t i = 0; i < basis.size(); ++i) v[pivots[i]] = -basis[i][f] * l / basis[i][pivots[i]];
    normalise(v);
    out.push_back(std::move(v));
  }
  return out;
}

/// `sum coef[i] * q[i] (op) rhs` as text, terms in order, unit coefficients unwritten.
std::string linear_text(const std::vector<Quantity>& qs, const std::vector<int64_t>& coef, const char* op, int64_t rhs) {
  std::string out;
  for (size_t i = 0; i < qs.size(); ++i) {
    const int64_t c = coef[i];
    if (c == 0) continue;
    const int64_t a = c < 0 ? -c : c;
    const std::string term = a == 1 ? qs[i].text : fmt::format("{} * {}", a, qs[i].text);
    out += out.empty() ? (c < 0 ? "-" + term : term) : (c < 0 ? " - " : " + ") + term;
  }
  return fmt::format("{} {} {}", out, op, rhs);
}

/// Whether the relation (coefficients `coef` of the quantities, `constant` that of 1) says
/// only that the game is in exactly one phase: the same coefficient on every phase
/// indicator and nothing else. The phase's type says so already; proving it by induction
/// runs the engine's steps after every move, the costliest kind of step, for nothing.
bool one_phase(const std::vector<Quantity>& qs, const std::vector<int64_t>& coef, Big constant) {
  int64_t k = 0;
  size_t phases = 0, all = 0;
  for (size_t i = 0; i < qs.size(); ++i) {
    if (qs[i].kind != Quantity::Kind::PhaseIs) {
      if (coef[i] != 0) return false;
      continue;
    }
    ++all;
    if (coef[i] == 0) continue;
    if (k != 0 && coef[i] != k) return false;
    k = coef[i];
    ++phases;
  }
  return phases == all && phases > 0 && constant == -Big(k);
}

}  // namespace

std::vector<Verifier::Candidate> Verifier::candidates() {
  const std::vector<Quantity> qs = quantities(p_);
  std::vector<Candidate> out;
  if (qs.empty()) return out;
  std::vector<size_t> mine, shared;  // per player, and the same for every player
  for (size_t i = 0; i < qs.size(); ++i) (qs[i].per_player ? mine : shared).push_back(i);
  // Samples: every state of a few seeded random games (the same games on every run).
  compiler::Interpreter in(p_, sources_);
  std::set<std::vector<int64_t>> player_rows, shared_rows;
  std::vector<int64_t> most(qs.size() + mine.size() * mine.size(), INT64_MIN), start_most = most;
  auto sample = [&](const std::vector<uint8_t>& s, bool start) {
    for (int pl = 0; pl < std::max(1, p_.players); ++pl) {
      std::vector<int64_t> v;
      for (const Quantity& q : qs) v.push_back(q.read(p_, s.data(), pl));
      // The constant first and the player's own quantities last: the basis of the
      // nullspace then has one relation per free quantity of a player, written with the
      // earlier columns (the constant, the shared quantities) where it can.
      std::vector<int64_t> row{1};
      for (size_t i : shared) row.push_back(v[i]);
      if (pl == 0) shared_rows.insert(row);
      for (size_t i : mine) row.push_back(v[i]);
      if (!mine.empty()) player_rows.insert(row);
      // Bounds: each quantity, and each sum of two quantities of the same player.
      std::vector<int64_t> b = v;
      for (size_t a : mine)
        for (size_t c : mine) b.push_back(a < c ? v[a] + v[c] : INT64_MIN);
      for (size_t k = 0; k < b.size(); ++k) {
        most[k] = std::max(most[k], b[k]);
        if (start) start_most[k] = std::max(start_most[k], b[k]);
      }
    }
  };
  std::mt19937_64 rng(1);
  std::vector<engine::Move> moves;
  for (int g = 0; g < opt_.candidate_games; ++g) {
    std::vector<uint8_t> s(p_.state_bytes, 0);
    engine::Setup setup;
    setup.seed = uint64_t(g + 1);
    setup.values = opt_.setup;
    if (!in.setup(s.data(), setup).ok) continue;
    sample(s, true);
    for (int ply = 0; ply < opt_.candidate_plies && !in.terminal(s.data()); ++ply) {
      moves.clear();
      if (!in.legal_moves(s.data(), moves).ok || moves.empty()) break;
      if (!in.apply(s.data(), moves[rng() % moves.size()]).ok) break;
      sample(s, false);
    }
  }
  std::set<std::string> seen;
  auto add = [&](std::vector<int64_t> coef, const char* op, int64_t rhs, bool per_player) {
    std::vector<Quantity> used;
    std::vector<int64_t> cs;
    for (size_t i = 0; i < qs.size(); ++i)
      if (coef[i] != 0) {
        used.push_back(qs[i]);
        cs.push_back(coef[i]);
      }
    std::string text = linear_text(used, cs, op, rhs);
    if (per_player) text = "all p in players: " + text;
    if (!seen.insert(text).second) return;
    ir::ExprPtr sum;
    for (size_t i = 0; i < used.size(); ++i) {
      const int64_t a = cs[i] < 0 ? -cs[i] : cs[i];
      ir::ExprPtr term = used[i].expr(p_);
      if (a != 1) term = binary(ir::Op::Mul, -1, number(a), std::move(term));
      if (!sum) sum = cs[i] < 0 ? binary(ir::Op::Sub, -1, number(0), std::move(term)) : std::move(term);
      else sum = binary(cs[i] < 0 ? ir::Op::Sub : ir::Op::Add, -1, std::move(sum), std::move(term));
    }
    ir::ExprPtr e = binary(std::string(op) == "==" ? ir::Op::Eq : ir::Op::Le, ir::kBoolDomain, std::move(sum), number(rhs));
    if (per_player) {
      ir::ExprPtr all = node(ir::Op::All, ir::kBoolDomain);
      all->slot = kPlayerSlot;
      all->args.push_back(full_set(p_, ir::kPlayerDomain));
      all->args.push_back(nullptr);
      all->args.push_back(std::move(e));
      e = std::move(all);
    }
    out.push_back(Candidate{text, std::move(e)});
  };
  constexpr int64_t kSmall = 12;  // larger coefficients are seldom a designer's fact
  auto relations = [&](const std::set<std::vector<int64_t>>& rows, const std::vector<size_t>& cols, bool per_player) {
    if (rows.empty()) return;
    for (const std::vector<Big>& v : nullspace(rows, cols.size() + 1)) {
      // v[0] is the constant's coefficient, v[k + 1] that of quantity cols[k].
      bool small = true, mentions_player = false;
      for (Big x : v) small = small && x <= kSmall && x >= -kSmall;
      if (!small) continue;
      std::vector<int64_t> coef(qs.size(), 0);
      for (size_t k = 0; k < cols.size(); ++k) {
        coef[cols[k]] = int64_t(v[k + 1]);
        mentions_player = mentions_player || (v[k + 1] != 0 && qs[cols[k]].per_player);
      }
      if (per_player != mentions_player) continue;
      if (std::all_of(coef.begin(), coef.end(), [](int64_t x) { return x == 0; })) continue;
      if (one_phase(qs, coef, v[0])) continue;
      // Written with its first coefficient positive: `a + b == 9`, not `-a - b == -9`.
      int64_t rhs = -int64_t(v[0]);
      if (*std::find_if(coef.begin(), coef.end(), [](int64_t x) { return x != 0; }) < 0) {
        for (int64_t& x : coef) x = -x;
        rhs = -rhs;
      }
      add(coef, "==", rhs, per_player);
    }
  };
  std::vector<size_t> player_cols = shared;
  player_cols.insert(player_cols.end(), mine.begin(), mine.end());
  relations(player_rows, player_cols, true);
  relations(shared_rows, shared, false);
  // Bounds never exceeded after the start, unless the type says as much already.
  for (size_t k = 0; k < most.size(); ++k) {
    if (most[k] == INT64_MIN || most[k] != start_most[k]) continue;
    std::vector<int64_t> coef(qs.size(), 0);
    bool per_player = true;
    int64_t type_max = 0;
    if (k < qs.size()) {
      coef[k] = 1;
      per_player = qs[k].per_player;
      type_max = qs[k].top(p_);
    } else {
      const size_t a = mine[(k - qs.size()) / mine.size()], c = mine[(k - qs.size()) % mine.size()];
      coef[a] = coef[c] = 1;
      type_max = qs[a].top(p_) + qs[c].top(p_);
    }
    if (most[k] >= type_max) continue;
    add(coef, "<=", most[k], per_player);
  }
  return out;
}

}  // namespace rulebook::verifier

namespace rulebook::verifier {

void Verifier::found_invariants(std::vector<Result>& out, std::vector<const ir::Property*>& props) {
  std::vector<Candidate> cs = candidates();
  if (opt_.progress)
    opt_.progress(fmt::format("invariant candidates: {} from {} random games", cs.size(), opt_.candidate_games));
  for (size_t i = 0; i < cs.size() && !opt_.stopped(); ++i) {
    auto prop = std::make_unique<ir::Property>();
    prop->kind = ir::PropertyKind::Invariant;
    prop->name = fmt::format("found_{}", i + 1);
    prop->description = cs[i].text;
    prop->expr = std::move(cs[i].expr);
    prop->locals = 2;
    Result r;
    r.found = true;
    r.name = prop->name;
    r.kind = prop->kind;
    r.description = cs[i].text;
    r.set = fmt::format("found: holds on every state of {} seeded random games", opt_.candidate_games);
    budget_.started = Clock::now();
    budget_.rlimit_base = rlimit_seen_;
    budget_.seconds = opt_.candidate_seconds;
    budget_.rlimit = opt_.candidate_rlimit;
    unknown_.clear();
    try {
      invariant(*prop, r);
    } catch (const Unsupported& u) {
      r.verdict = Verdict::Unsupported;
      r.detail = u.what();
    } catch (const z3::exception& z) {
      r.verdict = Verdict::Unknown;
      r.detail = std::string("solver: ") + z.msg();
    }
    r.seconds = std::chrono::duration<double>(Clock::now() - budget_.started).count();
    r.rlimit = rlimit_seen_ - budget_.rlimit_base;
    if (opt_.progress)
      opt_.progress(fmt::format("  {} ({}): {} ({:.1f} s, rlimit {})", r.name, r.description, verdict_name(r.verdict),
                                r.seconds, r.rlimit));
    props.push_back(prop.get());
    found_props_.push_back(std::move(prop));
    out.push_back(std::move(r));
  }
}

}  // namespace rulebook::verifier
