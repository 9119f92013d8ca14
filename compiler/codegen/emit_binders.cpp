// The C++ emitter's binders: quantifiers, aggregates and loops over a domain (cells, a
// set, a sequence, the board's lines) as immediately invoked lambdas over the state `g`.
#include <algorithm>

#include "compiler/codegen/emit_internal.h"
#include "compiler/ir/int_range.h"

namespace rulebook::compiler::emit {

using ir::Op;
using B = dsl::BuiltinId;

// ---------------------------------------------------------------- binders

void Emitter::loop_lines(const ir::Expr& domain, const std::string& var,
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
  const uint32_t n = d >= 0 ? dom(d).size : 0;
  const std::string i = fresh("i");
  if (index_name) *index_name = i;
  const std::string value = identity_domain(d) ? i : fmt::format("val_d{}({})", d, i);
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
    const std::string m = fresh("m");
    lines.push_back(fmt::format("for (Bits<{}> {} = {}; !{}.empty();) {{", words(d), m,
                                expr_as(domain, *domain.type), m));
    lines.push_back(fmt::format("  const Int {} = {}.pop();", i, m));
  }
  if (value != var) lines.push_back(fmt::format("  const Int {} = {};", var, value));
}

std::string Emitter::quantifier(const ir::Expr& e) {
  const ir::Expr& domain = *e.args[0];
  const ir::Expr* where_e = e.args.size() > 1 ? e.args[1].get() : nullptr;
  const ir::Expr* body_e = e.args.size() > 2 ? e.args[2].get() : nullptr;
  if (e.op == Op::Filter) {
    body_e = where_e;
    where_e = nullptr;
  }
  // Fast forms over planes and plain bit counts.
  if (std::string fast = quantifier_fast(e); !fast.empty()) return fast;

  ++lambda_depth_;
  // Several binders of one quantifier are nested nodes with one span: the n-th is named
  // by the n-th `x in S` of the source.
  int ordinal = 0;
  if (!binder_spans_.empty() && binder_spans_.back().first == e.span.begin &&
      binder_spans_.back().second.first == e.span.file)
    ordinal = binder_spans_.back().second.second + 1;
  binder_spans_.push_back({e.span.begin, {e.span.file, ordinal}});
  const std::string outer = slot_binding(e.slot);
  const std::string var = bind_slot(e.slot, e.span, ordinal);
  std::vector<std::string> lines;
  std::string index;
  const std::string result_type = cpp_type(*e.type);
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
                      (!where_e || order_free(*where_e)) && (!body_e || order_free(*body_e)) &&
                      uses_can(e);
  if (rotate) {
    const std::string set = fresh("players");
    const std::string players = expr_as(domain, *domain.type);
    std::vector<uint64_t> every(size_t(words(ir::kPlayerDomain)), 0);
    for (int p = 0; p < program_.players; ++p) every[size_t(p) / 64] |= uint64_t(1) << (p % 64);
    const bool all = players == bits_literal(ir::kPlayerDomain, every);
    if (!all) lines.push_back(fmt::format("const Bits<{}> {} = {};", words(ir::kPlayerDomain), set, players));
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
    if (auto f = filter_table(e); f) {
      const int d = domain.type->domain;
      const std::string set = fresh("set"), key = fresh("key"), m = fresh("m");
      tabled = fresh("tabled");
      index = fresh("i");
      lines.push_back(fmt::format("const Bits<{}> {} = {};", words(d), set, expr_as(domain, *domain.type)));
      lines.push_back(fmt::format("const Int {} = idx_d{}({});", key, f->key_domain, slot_name(f->key_slot)));
      lines.push_back(fmt::format("const bool {} = tables_made && {} >= 0 && {}.known[{}];", tabled, key, f->name, key));
      lines.push_back(fmt::format("for (Bits<{}> {} = {} ? {}.of[{}] : {}; !{}.empty();) {{", words(d), m,
                                  tabled, f->name, key, set, m));
      lines.push_back(fmt::format("  const Int {} = {}.pop();", index, m));
      const std::string value = identity_domain(d) ? index : fmt::format("val_d{}({})", d, index);
      if (value != var) lines.push_back(fmt::format("  const Int {} = {};", var, value));
    }
  }
  if (!rotate && tabled.empty()) loop_lines(domain, var, lines, &index);
  ++lambda_depth_;
  const std::string w = where_e ? expr(*where_e) : "";
  const std::string b = body_e ? expr(*body_e) : "";
  --lambda_depth_;
  if (!w.empty() && !tabled.empty()) {
    lines.push_back(fmt::format("  if (!{} && !{}) continue;", tabled, paren(w)));
  } else if (!w.empty()) {
    lines.push_back(fmt::format("  if (!{}) continue;", paren(w)));
  }
  switch (e.op) {
    case Op::All: lines.push_back(fmt::format("  if (!{}) return false;", paren(b))); break;
    case Op::Some: lines.push_back(fmt::format("  if ({}) return true;", b)); break;
    case Op::No: lines.push_back(fmt::format("  if ({}) return false;", b)); break;
    case Op::Count: lines.push_back("  ++acc;"); break;
    case Op::Sum:
      if (cannot_overflow(program_, e)) lines.push_back(fmt::format("  acc += {};", b));
      else lines.push_back(fmt::format("  acc = sum_chk(acc, {}, {});", b, where(e.span)));
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
  binder_spans_.pop_back();
  restore_slot(e.slot, outer);
  switch (e.op) {
    case Op::All: case Op::No: lines.push_back("return true;"); break;
    case Op::Some: lines.push_back("return false;"); break;
    case Op::Count: case Op::Sum: lines.push_back("return acc;"); break;
    case Op::Max: case Op::Min:
      lines.push_back(fmt::format("if (!any) fail({}, {});", where(e.span),
                                  quote(run_errors::over_nothing(e.op == Op::Max ? "max" : "min"))));
      lines.push_back("return acc;");
      break;
    case Op::Filter: lines.push_back("return out;"); break;
    default: break;
  }
  --lambda_depth_;
  return lambda(result_type, lines);
}

std::string Emitter::quantifier_fast(const ir::Expr& e) {
  const ir::Expr& domain = *e.args[0];
  if (domain.type->kind != ir::Type::Kind::Set || domain.type->domain < 0) return "";
  const int d = domain.type->domain;
  const ir::Expr* where_e = e.args.size() > 1 ? e.args[1].get() : nullptr;
  const ir::Expr* body_e = e.args.size() > 2 ? e.args[2].get() : nullptr;
  if (e.op == Op::Filter) std::swap(where_e, body_e);
  std::optional<std::string> w, b;
  if (where_e && !(w = mask_of(*where_e, e.slot, d))) return "";
  if (e.op != Op::Count && body_e && !(b = mask_of(*body_e, e.slot, d))) return "";
  // The elements of the domain that pass `where`, then what the binder asks of them.
  std::string s = expr_as(domain, *domain.type);
  if (w) s = fmt::format("({} & {})", paren(s), *w);
  switch (e.op) {
    case Op::Count: return fmt::format("{}.count()", paren(s));
    case Op::Filter: return fmt::format("({} & {})", paren(s), *b);
    case Op::Some: return fmt::format("!disjoint({}, {})", s, *b);
    case Op::No: return fmt::format("disjoint({}, {})", s, *b);
    case Op::All: return fmt::format("({} - {}).empty()", paren(s), *b);
    default: return "";
  }
}

}  // namespace rulebook::compiler::emit
