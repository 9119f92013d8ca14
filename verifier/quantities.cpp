// The quantities a state's types make easy to read, as values and as IR.
#include "verifier/quantities.h"

#include <fmt/format.h>

namespace rulebook::verifier::qty {

ir::TypePtr type_of(int domain, ir::Type::Kind kind) {
  auto t = std::make_shared<ir::Type>();
  t->domain = domain;
  t->kind = kind;
  return t;
}

ir::ExprPtr node(ir::Op op, int domain) {
  auto e = std::make_unique<ir::Expr>();
  e->op = op;
  e->type = type_of(domain);
  return e;
}

ir::ExprPtr binary(ir::Op op, int domain, ir::ExprPtr a, ir::ExprPtr b) {
  ir::ExprPtr e = node(op, domain);
  e->args.push_back(std::move(a));
  e->args.push_back(std::move(b));
  return e;
}

ir::ExprPtr number(int64_t v) {
  ir::ExprPtr e = node(ir::Op::Const, -1);
  e->value = v;
  return e;
}

ir::ExprPtr local(int slot, int domain) {
  ir::ExprPtr e = node(ir::Op::Local, domain);
  e->slot = slot;
  return e;
}

ir::ExprPtr full_set(const ir::Program& p, int domain) {
  ir::ExprPtr e = node(ir::Op::ConstSet, domain);
  e->type = type_of(domain, ir::Type::Kind::Set);
  const uint32_t n = p.domains[size_t(domain)].size;
  e->bits.assign((n + 63) / 64, 0);
  for (uint32_t i = 0; i < n; ++i) e->bits[i / 64] |= uint64_t(1) << (i % 64);
  return e;
}


int64_t Quantity::read(const ir::Program& p, const uint8_t* s, int64_t player) const {
  if (kind == Kind::PhaseIs) return int64_t(ir::load_index(s, p.vars[ir::kVarPhase], 0)) == value;
  const ir::StateVar& v = p.vars[size_t(var)];
  if (kind == Kind::Number) {
    const uint32_t at = per_player ? uint32_t(player) : 0;
    return ir::domain_value(p.domains, v.domain, ir::load_index(s, v, at));
  }
  const int64_t want = per_player ? player : value;
  int64_t n = 0;
  for (uint32_t c = 0; c < v.count; ++c) n += ir::domain_value(p.domains, v.domain, ir::load_index(s, v, c)) == want;
  return n;
}

ir::ExprPtr Quantity::expr(const ir::Program& p) const {
  if (kind == Kind::PhaseIs) {
    ir::ExprPtr is = binary(ir::Op::Eq, ir::kBoolDomain, node(ir::Op::Phase, ir::kPhaseDomain), node(ir::Op::Const, ir::kPhaseDomain));
    is->args[1]->value = value;
    ir::ExprPtr e = node(ir::Op::If, -1);
    e->args.push_back(std::move(is));
    e->args.push_back(number(1));
    e->args.push_back(number(0));
    return e;
  }
  const ir::StateVar& v = p.vars[size_t(var)];
  if (kind == Kind::Number) {
    ir::ExprPtr r = node(ir::Op::Read, v.domain);
    r->var = var;
    if (per_player) r->args.push_back(local(kPlayerSlot, ir::kPlayerDomain));
    return r;
  }
  ir::ExprPtr r = node(ir::Op::Read, v.domain);
  r->var = var;
  r->args.push_back(local(kCellSlot, ir::kCellDomain));
  ir::ExprPtr want = per_player ? local(kPlayerSlot, ir::kPlayerDomain) : node(ir::Op::Const, v.domain);
  if (!per_player) want->value = value;
  ir::ExprPtr c = node(ir::Op::Count, -1);
  c->slot = kCellSlot;
  c->args.push_back(full_set(p, ir::kCellDomain));
  c->args.push_back(binary(ir::Op::Eq, ir::kBoolDomain, std::move(r), std::move(want)));
  return c;
}

int64_t Quantity::top(const ir::Program& p) const {
  if (kind == Kind::PhaseIs) return 1;
  const ir::StateVar& v = p.vars[size_t(var)];
  if (kind == Kind::CellsHolding) return v.count;
  const ir::Domain& d = p.domains[size_t(v.domain)];
  return d.kind == ir::Domain::Kind::Range ? d.lo + int64_t(d.size) - 1 : 1;
}

/// The quantities the state's types make easy to read.
std::vector<Quantity> quantities(const ir::Program& p, bool empty_cells) {
  std::vector<Quantity> out;
  auto player_valued = [&](int d) {
    const ir::Domain& dom = p.domains[size_t(d)];
    return d == ir::kPlayerDomain || (dom.kind == ir::Domain::Kind::Optional && dom.inner == ir::kPlayerDomain);
  };
  for (size_t i = ir::kSystemVars; i < p.vars.size(); ++i) {
    const ir::StateVar& v = p.vars[i];
    if (v.origin != ir::StateVar::Origin::State || v.is_seq) continue;
    const ir::Domain& dom = p.domains[size_t(v.domain)];
    Quantity q;
    q.var = int(i);
    if (v.keys.empty() && dom.kind == ir::Domain::Kind::Range) {
      q.text = v.name;
      out.push_back(q);
    } else if (v.keys.size() == 1 && v.keys[0] == ir::kPlayerDomain && dom.kind == ir::Domain::Kind::Range) {
      q.per_player = true;
      q.text = v.name + "[p]";
      out.push_back(q);
    } else if (v.keys.size() == 1 && v.keys[0] == ir::kCellDomain && !v.is_set) {
      q.kind = Quantity::Kind::CellsHolding;
      if (player_valued(v.domain)) {
        q.per_player = true;
        q.text = fmt::format("(count c in cells where {}[c] == p)", v.name);
        out.push_back(q);
      } else if (dom.size <= 8 && dom.kind != ir::Domain::Kind::Range) {
        for (uint32_t k = 0; k < dom.size; ++k) {
          q.value = ir::domain_value(p.domains, v.domain, k);
          if (q.value == ir::kNone && !empty_cells) continue;  // they follow from the others
          q.text = fmt::format("(count c in cells where {}[c] == {})", v.name, ir::value_text(p.domains, v.domain, q.value));
          out.push_back(q);
        }
      }
    }
  }
  if (p.phases.size() > 1)
    for (size_t ph = 0; ph < p.phases.size(); ++ph) {
      Quantity q;
      q.kind = Quantity::Kind::PhaseIs;
      q.value = int64_t(ph);
      q.text = fmt::format("(if phase == {} then 1 else 0)", p.phases[ph].name);
      out.push_back(q);
    }
  return out;
}

}  // namespace rulebook::verifier::qty
