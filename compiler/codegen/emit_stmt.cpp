// The C++ emitter's statements: assignments (through the stores that keep planes and
// remembered values), if, for over a domain filtered once, let, the flow statements, and
// the stored elements they reach.
#include <algorithm>

#include "compiler/codegen/emit_internal.h"
#include "compiler/ir/int_range.h"

namespace rulebook::compiler::emit {

using ir::Op;


// ---------------------------------------------------------------- statements

void StmtEmitter::block(const ir::Block& b) {
  for (const auto& s : b) stmt(*s);
}

void StmtEmitter::stmt(const ir::Stmt& s) {
  switch (s.op) {
    case ir::StmtOp::Assign:
      assign(s);
      break;
    case ir::StmtOp::If:
      w_.open(fmt::format("if ({}) {{", names_.bare(exprs_.expr(*s.value))));
      block(s.body);
      if (!s.otherwise.empty()) {
        w_.reopen("} else {");
        block(s.otherwise);
      }
      w_.close();
      break;
    case ir::StmtOp::For: {
      // The domain and `where` are evaluated once, before the body runs.
      const ir::Expr& domain = *s.value;
      const std::string outer = names_.slot_binding(s.slot);
      const std::string var = names_.bind_slot(s.slot, s.span, 0);
      std::vector<std::string> lines;
      std::string index;
      const std::string sel = names_.fresh("sel");
      if (domain.type->kind == ir::Type::Kind::List) {
        w_.linef("{} {}{{}};", names_.cpp_type(*domain.type), sel);
        exprs_.loop_lines(domain, var, lines, &index);
        w_.open(lines[0]);
        for (size_t i = 1; i < lines.size(); ++i) w_.line(lines[i].substr(2));
        if (s.where) {
          w_.linef("if ({}) {}.push({});", exprs_.expr(*s.where), sel, var);
        } else {
          w_.linef("{}.push({});", sel, var);
        }
        w_.close();
        w_.open(fmt::format("for (const auto& {} : {}) {{", var, sel));
        w_.linef("(void){};", var);
        ++s_.loop_depth_;
        block(s.body);
        --s_.loop_depth_;
        w_.close();
        names_.restore_slot(s.slot, outer);
        break;
      }
      const int d = domain.type->domain;
      std::optional<std::string> mask;
      if (s.where && d >= 0) mask = masks_.mask_of(*s.where, s.slot, d);
      if (mask) {
        // `where` answered for every element at once (planes, sets).
        w_.linef("const Bits<{}> {} = {} & {};", names_.words(d), sel,
                 names_.paren(exprs_.expr_as(domain, *domain.type)), *mask);
      } else if (s.where) {
        w_.linef("Bits<{}> {}{{}};", names_.words(d), sel);
        exprs_.loop_lines(domain, var, lines, &index);
        w_.open(lines[0]);
        for (size_t i = 1; i < lines.size(); ++i) w_.line(lines[i].substr(2));
        w_.linef("if ({}) {}.set({});", exprs_.expr(*s.where), sel, index);
        w_.close();
      } else {
        w_.linef("const Bits<{}> {} = {};", names_.words(d), sel, exprs_.expr_as(domain, *domain.type));
      }
      const std::string m = names_.fresh("m");
      w_.open(fmt::format("for (Bits<{}> {} = {}; !{}.empty();) {{", names_.words(d), m, sel, m));
      w_.linef("const Int {} = {};", var,
               names_.identity_domain(d) ? m + ".pop()" : fmt::format("val_d{}({}.pop())", d, m));
      w_.linef("(void){};", var);
      ++s_.loop_depth_;
      block(s.body);
      --s_.loop_depth_;
      w_.close();
      names_.restore_slot(s.slot, outer);
      break;
    }
    case ir::StmtOp::Let: {
      const std::string value = exprs_.expr(*s.value);
      const std::string var = names_.bind_slot(s.slot, s.span, 0);
      w_.linef("const {} {} = {};", names_.cpp_type(*s.value->type), var, value);
      break;
    }
    case ir::StmtOp::Again:
      w_.line("g.again_ = true;");
      break;
    case ir::StmtOp::Eliminate:
      w_.linef("{};  // eliminate - {}",
               sys_put(ir::kVarOut,
                       exprs_.checked_index(ir::kPlayerDomain, *s.value, s.span,
                                            run_errors::eliminate_not_a_player(run_errors::kHole1)),
                       "1"),
               names_.line_of(s.span));
      break;
    case ir::StmtOp::Goto:
      w_.linef("{};  // goto phase {}", sys_put(ir::kVarPhase, "", std::to_string(s.phase)), s.phase);
      break;
    case ir::StmtOp::End:
      w_.linef("{};  // end", sys_put(ir::kVarOver, "", "1"));
      break;
  }
}

void StmtEmitter::assign(const ir::Stmt& s) {
  const ir::StateVar& V = program_.vars[size_t(s.var)];
  std::vector<const ir::Expr*> keys;
  for (const auto& k : s.keys) keys.push_back(k.get());
  if (keys.size() != V.keys.size()) {
    assign_whole(s, keys);
    return;
  }
  w_.linef("// store into variable {} - {}", s.var, names_.line_of(s.span));
  std::string flat = element_index(s.var, keys, s.span);
  const bool simple_flat = flat.empty() || std::all_of(flat.begin(), flat.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
  });
  w_.open("{");
  if (!simple_flat) {
    w_.linef("const Int at = {};", flat);
    flat = "at";
  }
  std::string value = exprs_.expr(*s.value);
  if (s.assign != 0 && assignment_cannot_overflow(program_, V.domain, *s.value, s.assign < 0)) {
    value = fmt::format("{} {} {}", element_value(s.var, element(s.var, flat)),
                        s.assign > 0 ? "+" : "-", names_.paren(value));
  } else if (s.assign != 0) {
    // Checked as the interpreter checks it (docs/semantics.md, "Integers").
    value = fmt::format("{}_chk({}, {}, {})", s.assign > 0 ? "add" : "sub",
                        element_value(s.var, element(s.var, flat)), value, names_.where(s.span));
  }
  std::string index = fmt::format("chk_d{}({}, {}, {}{})", V.domain, value, names_.where(s.span),
                                  names_.quote(run_errors::stored_outside(
                                      run_errors::kHole1, names_.dom(V.domain).name, V.name)),
                                  s.assign == 0 && exprs_.holds_none(*s.value) ? ", true" : "");
  // A value of the variable's own domain (or of the inner domain of an optional one) is
  // its own index (one more): nothing to check, as checked_index says.
  const ir::Expr& v = *s.value;
  const ir::Domain& D = names_.dom(V.domain);
  if (s.assign == 0 && v.type && v.type->kind == ir::Type::Kind::Scalar && D.kind != ir::Domain::Kind::Record) {
    if (v.type->domain == V.domain && names_.identity_domain(V.domain)) index = value;
    if (D.kind == ir::Domain::Kind::Optional && v.type->domain == D.inner &&
        names_.identity_domain(D.inner) && names_.dom(D.inner).kind != ir::Domain::Kind::Record)
      index = fmt::format("{} + 1", names_.paren(value));
  }
  // What is known of the element before (the move's `requires`, when this is the first
  // store into the variable and not in a loop) and of the value stored.
  uint64_t old_planes = s_.loop_depth_ == 0 && !s_.stored_.count(s.var) ? fact_of(s.var, keys) : ~uint64_t(0);
  uint64_t new_planes = ~uint64_t(0);
  if (s.assign != 0 && v.op == Op::Const && old_planes != ~uint64_t(0) &&
      (D.kind == ir::Domain::Kind::Range || names_.identity_domain(V.domain))) {
    // `x += k` of an element the requires bound: when every value it can be stays in the
    // domain, the new index is the old one moved by k, with nothing to check.
    const int64_t step = s.assign > 0 ? v.value : -v.value;
    uint64_t moved = 0;
    bool inside = true;
    for (uint64_t m = old_planes; m && inside; m &= m - 1) {
      const int64_t i = __builtin_ctzll(m) + step;
      inside = i >= 0 && i < int64_t(D.size) && i < 64;
      if (inside) moved |= uint64_t(1) << i;
    }
    if (inside) {
      index = fmt::format("{} {} {}", element(s.var, flat), step >= 0 ? "+" : "-", step >= 0 ? step : -step);
      new_planes = moved;
    }
  }
  if (s.assign == 0 && D.kind != ir::Domain::Kind::Record) {
    const uint64_t all = D.size >= 64 ? ~uint64_t(0) : (uint64_t(1) << D.size) - 1;
    if (v.op == Op::Const) {
      const int64_t i = ir::domain_index(program_.domains, V.domain, v.value);
      if (i >= 0 && i < 64) new_planes = uint64_t(1) << i;
    } else if (v.type && v.type->kind == ir::Type::Kind::Scalar && D.kind == ir::Domain::Kind::Optional &&
               v.type->domain == D.inner && names_.identity_domain(D.inner)) {
      new_planes = all & ~uint64_t(1);  // a value of the inner domain is never none
    }
  }
  w_.line(store(s.var, flat, index, old_planes, new_planes) + ";");
  w_.close();
}

uint64_t StmtEmitter::fact_of(int var, const std::vector<const ir::Expr*>& keys) const {
  if (keys.size() != 1 || (keys[0]->op != Op::Local && keys[0]->op != Op::Mover)) return ~uint64_t(0);
  const int key = keys[0]->op == Op::Mover ? -1 : keys[0]->slot;
  const auto it = s_.facts_.find({var, key});
  return it == s_.facts_.end() ? ~uint64_t(0) : it->second;
}

void StmtEmitter::requires_facts(const ir::Expr& e, int params) {
  const ir::Expr& x = masks_.through_calls(e);
  if (x.op == Op::And) {
    requires_facts(*x.args[0], params);
    requires_facts(*x.args[1], params);
    return;
  }
  // var[p] of a parameter p or of the mover (neither changes while the block runs), of a
  // variable of at most 64 values.
  auto element_of_param = [&](const ir::Expr& r) {
    if (r.op != Op::Read || r.args.size() != 1 || !r.args[0]) return false;
    const ir::Expr& k = *r.args[0];
    return (k.op == Op::Mover || (k.op == Op::Local && k.slot < params)) &&
           names_.dom(program_.vars[size_t(r.var)].domain).size <= 64;
  };
  auto add = [&](const ir::Expr& r, uint64_t planes) {
    const int key = r.args[0]->op == Op::Mover ? -1 : r.args[0]->slot;
    auto [it, fresh] = s_.facts_.emplace(std::make_pair(r.var, key), planes);
    if (!fresh) it->second &= planes;
  };
  switch (x.op) {
    case Op::Eq: case Op::Ne: case Op::Lt: case Op::Le: case Op::Gt: case Op::Ge: {
      for (int side = 0; side < 2; ++side) {
        const ir::Expr& r = masks_.through_calls(*x.args[size_t(side)]);
        const ir::Expr& k = masks_.through_calls(*x.args[size_t(1 - side)]);
        if (!element_of_param(r) || k.op != Op::Const) continue;
        const int d = program_.vars[size_t(r.var)].domain;
        const bool ordered = names_.dom(d).kind == ir::Domain::Kind::Range;
        if (x.op != Op::Eq && x.op != Op::Ne && !ordered) return;
        // The indices whose value passes the test (`k op element` when the constant is
        // on the left).
        uint64_t planes = 0;
        for (int64_t i = 0; i < int64_t(names_.dom(d).size); ++i) {
          const ir::Value a = ir::domain_value(program_.domains, d, i);
          const ir::Value lhs = side == 0 ? a : k.value, rhs = side == 0 ? k.value : a;
          const bool pass = x.op == Op::Eq   ? lhs == rhs
                            : x.op == Op::Ne ? lhs != rhs
                            : x.op == Op::Lt ? lhs < rhs
                            : x.op == Op::Le ? lhs <= rhs
                            : x.op == Op::Gt ? lhs > rhs
                                             : lhs >= rhs;
          if (pass) planes |= uint64_t(1) << i;
        }
        if (planes != 0) add(r, planes);  // none: the move is never legal, nothing to gain
        return;
      }
      return;
    }
    default:
      break;
  }
  const bool negated = x.op == Op::Not;
  const ir::Expr& r = negated ? masks_.through_calls(*x.args[0]) : x;
  if (element_of_param(r) && names_.dom(program_.vars[size_t(r.var)].domain).kind == ir::Domain::Kind::Bool)
    add(r, negated ? 1 : 2);  // false is index 0, true index 1
}

void StmtEmitter::assign_whole(const ir::Stmt& s, const std::vector<const ir::Expr*>& keys) {
  const ir::StateVar& V = program_.vars[size_t(s.var)];
  if (keys.size() + 1 != V.keys.size()) {
    s_.errors_.push_back(fmt::format("{}: an assignment to part of {}", names_.where_text(s.span), V.name));
    return;
  }
  const int last = V.keys.back();
  const uint32_t n = names_.dom(last).size;
  w_.linef("// store into variable {} - {}", s.var, names_.line_of(s.span));
  w_.open("{");
  w_.linef("const Int base = {};",
           keys.empty()
               ? std::string("0")
               : fmt::format("{} * {}", names_.paren(element_index(s.var, keys, s.span)), n));
  if (V.is_set && s.value->type->kind == ir::Type::Kind::Set) {
    // A set stored as `T -> bool`: := replaces it, += adds to it, -= takes away from it.
    ir::Type want;
    want.kind = ir::Type::Kind::Set;
    want.domain = last;
    w_.linef("const Bits<{}> value = {};", names_.words(last), exprs_.expr_as(*s.value, want));
    w_.open(fmt::format("for (Int i = 0; i < {}; ++i) {{", n));
    const std::string old = element(s.var, "base + i") + " != 0";
    const std::string now = s.assign == 0  ? "value.has(i)"
                            : s.assign > 0 ? fmt::format("({}) || value.has(i)", old)
                                           : fmt::format("({}) && !value.has(i)", old);
    w_.linef("{};", store(s.var, "base + i", fmt::format("({}) ? 1 : 0", now)));
    w_.close();
  } else if (s.value->type->kind == ir::Type::Kind::List) {
    w_.linef("const auto value = {};", exprs_.expr(*s.value));
    w_.linef("if (value.n != {}) fail_value({}, {}, value.n);", n, names_.where(s.span),
             names_.quote(run_errors::values_count(V.name, std::to_string(n), run_errors::kHole1)));
    w_.linef("for (Int i = 0; i < {}; ++i) {};", n,
             store(s.var, "base + i",
                   fmt::format("chk_d{}(value.a[i], {}, {}{})", V.domain, names_.where(s.span),
                               names_.quote(run_errors::stored_outside(
                                   run_errors::kHole1, names_.dom(V.domain).name, V.name)),
                               exprs_.holds_none(*s.value) ? ", true" : "")));
  } else {
    s_.errors_.push_back(fmt::format("{}: cannot assign this value to {}", names_.where_text(s.span), V.name));
  }
  w_.close();
}

std::string StmtEmitter::store(int var, const std::string& flat, const std::string& index,
                               uint64_t old_planes, uint64_t new_planes) {
  s_.stored_.insert(var);
  const bool known = old_planes != ~uint64_t(0) || new_planes != ~uint64_t(0);
  const std::string facts = known && s_.plane_of_var_[size_t(var)] >= 0
                                ? fmt::format("<0x{:x}ull, 0x{:x}ull>", old_planes, new_planes)
                                : "";
  return fmt::format("put_{}{}(g, {}, {})", names_.field_name(var), facts, flat.empty() ? "0" : flat, index);
}

std::string StmtEmitter::sys_put(int var, const std::string& flat, const std::string& index) const {
  s_.stored_.insert(var);
  return fmt::format("put_{}(g, {}, {})", names_.field_name(var), flat.empty() ? "0" : flat, index);
}
// ---------------------------------------------------------------- elements

std::string StmtEmitter::element_index(int var, const std::vector<const ir::Expr*>& keys,
                                       dsl::Span) {
  const ir::StateVar& V = program_.vars[size_t(var)];
  if (keys.empty()) return "";
  std::string flat;
  for (size_t i = 0; i < keys.size(); ++i) {
    // At the key itself, as the interpreter reports it.
    const std::string k = exprs_.checked_index(V.keys[i], *keys[i], keys[i]->span,
                                        run_errors::key_outside(run_errors::kHole1, names_.dom(V.keys[i]).name, V.name));
    if (i == 0) {
      flat = k;
    } else {
      flat = fmt::format("{} * {} + {}", names_.paren(flat), names_.dom(V.keys[i]).size, names_.paren(k));
    }
  }
  return flat;
}

std::string StmtEmitter::element(int var, const std::string& flat) const {
  const ir::StateVar& V = program_.vars[size_t(var)];
  if (V.keys.empty()) return fmt::format("g.s.{}", names_.field_name(var));
  return fmt::format("g.s.{}[{}]", names_.field_name(var), flat);
}

std::string StmtEmitter::element_value(int var, const std::string& elem) const {
  const ir::StateVar& V = program_.vars[size_t(var)];
  const ir::Domain& D = names_.dom(V.domain);
  if (D.kind == ir::Domain::Kind::Bool) return fmt::format("({} != 0)", elem);
  if (names_.identity_domain(V.domain)) return fmt::format("Int({})", elem);
  return fmt::format("val_d{}({})", V.domain, elem);
}

}  // namespace rulebook::compiler::emit
