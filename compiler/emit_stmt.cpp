// The C++ emitter's statements: assignments (through the stores that keep planes and
// remembered values), if, for over a domain filtered once, let, and the flow statements.
#include <algorithm>

#include "compiler/emit_internal.h"

namespace rulebook::compiler::emit {

using ir::Op;


// ---------------------------------------------------------------- statements

void Emitter::block(const ir::Block& b) {
  for (const auto& s : b) stmt(*s);
}

void Emitter::stmt(const ir::Stmt& s) {
  switch (s.op) {
    case ir::StmtOp::Assign:
      assign(s);
      break;
    case ir::StmtOp::If:
      w_.open(fmt::format("if ({}) {{", bare(expr(*s.value))));
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
      const std::string var = bind_slot(s.slot, s.span, 0);
      std::vector<std::string> lines;
      std::string index;
      const std::string sel = fresh("sel");
      if (domain.type->kind == ir::Type::Kind::List) {
        w_.linef("{} {}{{}};", cpp_type(*domain.type), sel);
        loop_lines(domain, var, lines, &index);
        w_.open(lines[0]);
        for (size_t i = 1; i < lines.size(); ++i) w_.line(lines[i].substr(2));
        if (s.where) {
          w_.linef("if ({}) {}.push({});", expr(*s.where), sel, var);
        } else {
          w_.linef("{}.push({});", sel, var);
        }
        w_.close();
        w_.open(fmt::format("for (const auto& {} : {}) {{", var, sel));
        w_.linef("(void){};", var);
        block(s.body);
        w_.close();
        break;
      }
      const int d = domain.type->domain;
      std::optional<std::string> mask;
      if (s.where && d >= 0) mask = mask_of(*s.where, s.slot, d);
      if (mask) {
        // `where` answered for every element at once (planes, sets).
        w_.linef("const Bits<{}> {} = {} & {};", words(d), sel, paren(expr_as(domain, *domain.type)), *mask);
      } else if (s.where) {
        w_.linef("Bits<{}> {}{{}};", words(d), sel);
        loop_lines(domain, var, lines, &index);
        w_.open(lines[0]);
        for (size_t i = 1; i < lines.size(); ++i) w_.line(lines[i].substr(2));
        w_.linef("if ({}) {}.set({});", expr(*s.where), sel, index);
        w_.close();
      } else {
        w_.linef("const Bits<{}> {} = {};", words(d), sel, expr_as(domain, *domain.type));
      }
      const std::string m = fresh("m");
      w_.open(fmt::format("for (Bits<{}> {} = {}; !{}.empty();) {{", words(d), m, sel, m));
      w_.linef("const Int {} = {};", var,
               identity_domain(d) ? m + ".pop()" : fmt::format("val_d{}({}.pop())", d, m));
      w_.linef("(void){};", var);
      block(s.body);
      w_.close();
      break;
    }
    case ir::StmtOp::Let: {
      const std::string value = expr(*s.value);
      const std::string var = bind_slot(s.slot, s.span, 0);
      w_.linef("const {} {} = {};", cpp_type(*s.value->type), var, value);
      break;
    }
    case ir::StmtOp::Again:
      w_.line("g.again_ = true;");
      break;
    case ir::StmtOp::Eliminate:
      w_.linef("{};  // eliminate — {}",
               sys_put(ir::kVarOut, checked_index(ir::kPlayerDomain, *s.value, s.span, "not a player"), "1"),
               where_text(s.span));
      break;
    case ir::StmtOp::Goto:
      w_.linef("{};  // goto {}", sys_put(ir::kVarPhase, "", std::to_string(s.phase)),
               program_.phases[size_t(s.phase)].name);
      break;
    case ir::StmtOp::End:
      w_.linef("{};  // end", sys_put(ir::kVarOver, "", "1"));
      break;
  }
}

void Emitter::assign(const ir::Stmt& s) {
  const ir::StateVar& V = program_.vars[size_t(s.var)];
  std::vector<const ir::Expr*> keys;
  for (const auto& k : s.keys) keys.push_back(k.get());
  if (keys.size() != V.keys.size()) {
    assign_whole(s, keys);
    return;
  }
  w_.linef("// {} — {}", source_excerpt(s.span), where_text(s.span));
  std::string flat = element_index(s.var, keys, s.span);
  const bool simple_flat = flat.empty() || std::all_of(flat.begin(), flat.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
  });
  w_.open("{");
  if (!simple_flat) {
    w_.linef("const Int at = {};", flat);
    flat = "at";
  }
  std::string value = expr(*s.value);
  if (s.assign != 0) {
    value = fmt::format("{} {} {}", element_value(s.var, element(s.var, flat)),
                        s.assign > 0 ? "+" : "-", paren(value));
  }
  std::string index = fmt::format("chk_d{}({}, {}, \"{} := a value outside {}\")", V.domain, value,
                                  where(s.span), V.name, dom(V.domain).name);
  // A value of the variable's own domain (or of the inner domain of an optional one) is
  // its own index (one more): nothing to check, as checked_index says.
  const ir::Expr& v = *s.value;
  const ir::Domain& D = dom(V.domain);
  if (s.assign == 0 && v.type && v.type->kind == ir::Type::Kind::Scalar && D.kind != ir::Domain::Kind::Record) {
    if (v.type->domain == V.domain && identity_domain(V.domain)) index = value;
    if (D.kind == ir::Domain::Kind::Optional && v.type->domain == D.inner &&
        identity_domain(D.inner) && dom(D.inner).kind != ir::Domain::Kind::Record)
      index = fmt::format("{} + 1", paren(value));
  }
  w_.line(store(s.var, flat, index) + ";");
  w_.close();
}

void Emitter::assign_whole(const ir::Stmt& s, const std::vector<const ir::Expr*>& keys) {
  const ir::StateVar& V = program_.vars[size_t(s.var)];
  if (keys.size() + 1 != V.keys.size()) {
    errors_.push_back(fmt::format("{}: an assignment to part of {}", where_text(s.span), V.name));
    return;
  }
  const int last = V.keys.back();
  const uint32_t n = dom(last).size;
  w_.linef("// {} — {}", source_excerpt(s.span), where_text(s.span));
  w_.open("{");
  w_.linef("const Int base = {};",
           keys.empty() ? std::string("0") : fmt::format("{} * {}", paren(element_index(s.var, keys, s.span)), n));
  if (V.is_set && s.value->type->kind == ir::Type::Kind::Set) {
    // A set stored as `T -> bool`: := replaces it, += adds to it, -= takes away from it.
    ir::Type want;
    want.kind = ir::Type::Kind::Set;
    want.domain = last;
    w_.linef("const Bits<{}> value = {};", words(last), expr_as(*s.value, want));
    w_.open(fmt::format("for (Int i = 0; i < {}; ++i) {{", n));
    const std::string old = element(s.var, "base + i") + " != 0";
    const std::string now = s.assign == 0  ? "value.has(i)"
                            : s.assign > 0 ? fmt::format("({}) || value.has(i)", old)
                                           : fmt::format("({}) && !value.has(i)", old);
    w_.linef("{};", store(s.var, "base + i", fmt::format("({}) ? 1 : 0", now)));
    w_.close();
  } else if (s.value->type->kind == ir::Type::Kind::List) {
    w_.linef("const auto value = {};", expr(*s.value));
    w_.linef("if (value.n != {}) fail({}, \"'{}' needs {} values here\");", n, where(s.span), V.name, n);
    w_.linef("for (Int i = 0; i < {}; ++i) {};", n,
             store(s.var, "base + i", fmt::format("chk_d{}(value.a[i], {}, \"{} := a value outside {}\")",
                                                  V.domain, where(s.span), V.name, dom(V.domain).name)));
  } else {
    errors_.push_back(fmt::format("{}: cannot assign this value to {}", where_text(s.span), V.name));
  }
  w_.close();
}

std::string Emitter::store(int var, const std::string& flat, const std::string& index) {
  return fmt::format("put_{}(g, {}, {})", field_name(var), flat.empty() ? "0" : flat, index);
}

std::string Emitter::sys_put(int var, const std::string& flat, const std::string& index) const {
  return fmt::format("put_{}(g, {}, {})", field_name(var), flat.empty() ? "0" : flat, index);
}
}  // namespace rulebook::compiler::emit
