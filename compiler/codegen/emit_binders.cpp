// The C++ emitter's binders: quantifiers, aggregates and loops over a domain (cells, a
// set, a sequence, the board's lines) as immediately invoked lambdas over the state `g`.
#include <algorithm>

#include "compiler/codegen/emit_internal.h"
#include "compiler/ir/int_range.h"

namespace rulebook::compiler::emit {

using ir::Op;
using B = dsl::BuiltinId;

// ---------------------------------------------------------------- binders

void ExprEmitter::loop_lines(const ir::Expr& domain, const std::string& var,
                             std::vector<std::string>& lines, std::string* index_name) {
  if (domain.op == Op::ConstList) {
    lines.push_back(fmt::format("for (const auto& {} : {}) {{", var, constant_table(domain)));
    return;
  }
  if (is_list(*domain.type)) {
    lines.push_back(fmt::format("for (const auto& {} : {}) {{", var, expr(domain)));
    return;
  }
  const int d = domain.type->domain;
  const uint32_t n = d >= 0 ? names_.dom(d).size : 0;
  const std::string i = names_.fresh("i");
  if (index_name) *index_name = i;
  const std::string value = names_.identity_domain(d) ? i : fmt::format("val_d{}({})", d, i);
  bool full = domain.op == Op::ConstSet;
  if (full) {
    for (uint32_t k = 0; k < n; ++k) {
      if (size_t(k / 64) >= domain.bits.size() || !((domain.bits[k / 64] >> (k % 64)) & 1)) {
        full = false;
        break;
      }
    }
  }
  if (full) {
    lines.push_back(fmt::format("for (Int {} = 0; {} < {}; ++{}) {{", i, i, n, i));
  } else {
    const std::string m = names_.fresh("m");
    lines.push_back(fmt::format("for (Bits<{}> {} = {}; !{}.empty();) {{", names_.words(d), m,
                                expr_as(domain, *domain.type), m));
    lines.push_back(fmt::format("  const Int {} = {}.pop();", i, m));
  }
  if (value != var) lines.push_back(fmt::format("  const Int {} = {};", var, value));
}

std::string ExprEmitter::quantifier(const ir::Expr& e) {
  const ir::Expr& domain = *e.args[0];
  const ir::Expr* where_e = e.args.size() > 1 ? e.args[1].get() : nullptr;
  const ir::Expr* body_e = e.args.size() > 2 ? e.args[2].get() : nullptr;
  if (e.op == Op::Filter) {
    body_e = where_e;
    where_e = nullptr;
  }
  // Fast forms over planes and plain bit counts.
  if (std::string fast = quantifier_fast(e); !fast.empty()) return fast;

  ++s_.lambda_depth_;
  // Several binders of one quantifier are nested nodes with one span: the n-th is named
  // by the n-th `x in S` of the source.
  int ordinal = 0;
  if (!s_.binder_spans_.empty() && s_.binder_spans_.back().first == e.span.begin &&
      s_.binder_spans_.back().second.first == e.span.file)
    ordinal = s_.binder_spans_.back().second.second + 1;
  s_.binder_spans_.push_back({e.span.begin, {e.span.file, ordinal}});
  const std::string outer = names_.slot_binding(e.slot);
  const std::string var = names_.bind_slot(e.slot, e.span, ordinal);
  std::vector<std::string> lines;
  std::string index;
  const std::string result_type = names_.cpp_type(*e.type);
  switch (e.op) {
    case Op::All: case Op::Some: case Op::No: break;
    case Op::Count: case Op::Sum: lines.push_back("Int acc = 0;"); break;
    case Op::Max: case Op::Min: lines.push_back("Int acc = 0;"); lines.push_back("bool any = false;"); break;
    case Op::Filter: lines.push_back(fmt::format("{} out{{}};", result_type)); break;
    default: break;
  }
  // A question about the players (all, some, no) that cannot fail has one answer in any
  // order: start with the player after the mover, whose `can` the turn asks next.
  const bool rotate = (e.op == Op::All || e.op == Op::Some || e.op == Op::No) &&
                      domain.type->kind == ir::Type::Kind::Set &&
                      domain.type->domain == ir::kPlayerDomain && program_.players > 1 &&
                      (!where_e || masks_.order_free(*where_e)) && (!body_e || masks_.order_free(*body_e)) &&
                      masks_.uses_can(e);
  if (rotate) {
    const std::string set = names_.fresh("players");
    const std::string players = expr_as(domain, *domain.type);
    std::vector<uint64_t> every(size_t(names_.words(ir::kPlayerDomain)), 0);
    for (int p = 0; p < program_.players; ++p) every[size_t(p) / 64] |= uint64_t(1) << (p % 64);
    const bool all = players == names_.bits_literal(ir::kPlayerDomain, every);
    if (!all) lines.push_back(fmt::format("const Bits<{}> {} = {};", names_.words(ir::kPlayerDomain), set, players));
    lines.push_back(fmt::format("Int {} = g.mover_;", var));
    lines.push_back(fmt::format("for (Int k = 0; k < kPlayers; ++k) {{"));
    lines.push_back(fmt::format("  {} = {} + 1 == kPlayers ? 0 : {} + 1;", var, var, var));
    if (!all) lines.push_back(fmt::format("  if (!{}.has({})) continue;", set, var));
  }
  // A `where` of the binder and one other local that reads no state: the elements passing
  // it come, per value of that local, from a table made once (an entry whose `where`
  // failed is left to the loop below, which fails where the rules do).
  std::string tabled;
  if (!rotate && where_e && e.op != Op::Filter) {
    if (auto f = masks_.filter_table(e); f) {
      const int d = domain.type->domain;
      const std::string set = names_.fresh("set"), key = names_.fresh("key"), m = names_.fresh("m");
      tabled = names_.fresh("tabled");
      index = names_.fresh("i");
      lines.push_back(fmt::format("const Bits<{}> {} = {};", names_.words(d), set, expr_as(domain, *domain.type)));
      lines.push_back(fmt::format("const Int {} = idx_d{}({});", key, f->key_domain, names_.slot_name(f->key_slot)));
      lines.push_back(fmt::format("const bool {} = tables_made && {} >= 0 && {}.known[{}];", tabled, key, f->name, key));
      lines.push_back(fmt::format("for (Bits<{}> {} = {} ? {}.of[{}] : {}; !{}.empty();) {{", names_.words(d), m,
                                  tabled, f->name, key, set, m));
      lines.push_back(fmt::format("  const Int {} = {}.pop();", index, m));
      const std::string value = names_.identity_domain(d) ? index : fmt::format("val_d{}({})", d, index);
      if (value != var) lines.push_back(fmt::format("  const Int {} = {};", var, value));
    }
  }
  if (!rotate && tabled.empty()) loop_lines(domain, var, lines, &index);
  ++s_.lambda_depth_;
  const std::string w = where_e ? expr(*where_e) : "";
  const std::string b = body_e ? expr(*body_e) : "";
  --s_.lambda_depth_;
  if (!w.empty() && !tabled.empty()) {
    lines.push_back(fmt::format("  if (!{} && !{}) continue;", tabled, names_.paren(w)));
  } else if (!w.empty()) {
    lines.push_back(fmt::format("  if (!{}) continue;", names_.paren(w)));
  }
  switch (e.op) {
    case Op::All: lines.push_back(fmt::format("  if (!{}) return false;", names_.paren(b))); break;
    case Op::Some: lines.push_back(fmt::format("  if ({}) return true;", b)); break;
    case Op::No: lines.push_back(fmt::format("  if ({}) return false;", b)); break;
    case Op::Count: lines.push_back("  ++acc;"); break;
    case Op::Sum:
      if (cannot_overflow(program_, e)) lines.push_back(fmt::format("  acc += {};", b));
      else lines.push_back(fmt::format("  acc = sum_chk(acc, {}, {});", b, names_.where(e.span)));
      break;
    case Op::Max:
    case Op::Min:
      lines.push_back(fmt::format("  const Int x = {};", b));
      lines.push_back(fmt::format("  if (!any || x {} acc) acc = x;", e.op == Op::Max ? ">" : "<"));
      lines.push_back("  any = true;");
      break;
    case Op::Filter:
      if (is_list(*e.type)) {
        lines.push_back(fmt::format("  if ({}) out.push({});", b, var));
      } else {
        lines.push_back(fmt::format("  if ({}) out.set({});", b, index));
      }
      break;
    default: break;
  }
  lines.push_back("}");
  s_.binder_spans_.pop_back();
  names_.restore_slot(e.slot, outer);
  switch (e.op) {
    case Op::All: case Op::No: lines.push_back("return true;"); break;
    case Op::Some: lines.push_back("return false;"); break;
    case Op::Count: case Op::Sum: lines.push_back("return acc;"); break;
    case Op::Max: case Op::Min:
      lines.push_back(fmt::format("if (!any) fail({}, {});", names_.where(e.span),
                                  names_.quote(run_errors::over_nothing(e.op == Op::Max ? "max" : "min"))));
      lines.push_back("return acc;");
      break;
    case Op::Filter: lines.push_back("return out;"); break;
    default: break;
  }
  --s_.lambda_depth_;
  return names_.lambda(result_type, lines);
}

std::string ExprEmitter::quantifier_fast(const ir::Expr& e) {
  const ir::Expr& domain = *e.args[0];
  if (domain.type->kind != ir::Type::Kind::Set || domain.type->domain < 0) return "";
  const int d = domain.type->domain;
  const ir::Expr* where_e = e.args.size() > 1 ? e.args[1].get() : nullptr;
  const ir::Expr* body_e = e.args.size() > 2 ? e.args[2].get() : nullptr;
  if (e.op == Op::Filter) std::swap(where_e, body_e);
  std::optional<std::string> w, b;
  if (where_e && !(w = masks_.mask_of(*where_e, e.slot, d))) return "";
  if (e.op != Op::Count && body_e && !(b = masks_.mask_of(*body_e, e.slot, d))) return "";
  // The elements of the domain that pass `where`, then what the binder asks of them.
  std::string s = expr_as(domain, *domain.type);
  if (w) s = fmt::format("({} & {})", names_.paren(s), *w);
  switch (e.op) {
    case Op::Count: return fmt::format("{}.count()", names_.paren(s));
    case Op::Filter: return fmt::format("({} & {})", names_.paren(s), *b);
    case Op::Some: return fmt::format("!disjoint({}, {})", s, *b);
    case Op::No: return fmt::format("disjoint({}, {})", s, *b);
    case Op::All: return fmt::format("({} - {}).empty()", names_.paren(s), *b);
    default: return "";
  }
}

}  // namespace rulebook::compiler::emit
