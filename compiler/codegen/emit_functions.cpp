// The defines and the board rules of a generated engine: declarations, bodies (remembered
// values, constant tables, the RuleScope of the board rules) and board_rules_hold.
#include <algorithm>

#include "compiler/codegen/emit_internal.h"

namespace rulebook::compiler::emit {

// ---------------------------------------------------------------- defines and rules

void Emitter::declarations() {
  w_.line("// ================================================================ declarations");
  w_.blank();
  for (size_t f = 0; f < program_.functions.size(); ++f) {
    const ir::Function& F = program_.functions[f];
    std::string params = "Game& g";
    for (size_t i = 0; i < F.params.size(); ++i) {
      params += fmt::format(", {} a{}", names_.param_type(*F.params[i]), i);
    }
    // A remembered define is a lookup, inlined where it is called (its computation is not):
    // the board rules call such a define many times per state.
    const bool lookup = !s_.scoped_.empty() && s_.scoped_[f] && s_.plan_.table_entries[f] == 0;
    w_.linef("[[maybe_unused]]{} {} {}({});", lookup ? " [[gnu::always_inline]] inline" : " inline",
             names_.cpp_type(F.result), names_.fn_name(int(f)), params);
  }
  for (size_t m = 0; m < program_.moves.size(); ++m) {
    w_.linef("[[maybe_unused]] inline bool can_{}(Game& g, Int player);", names_.move_name(int(m)));
    w_.linef("[[maybe_unused]] bool cancheck_{}(Game& g, Int player);", names_.move_name(int(m)));
  }
  w_.blank();
}

namespace {

/// `r.argF_[k]` (a remembered set argument of define F) equals the set `a`, word by word.
std::string same_set(size_t f, const std::string& a, int words) {
  std::string same;
  for (int k = 0; k < words; ++k) same += fmt::format("{}r.arg{}_[k].w[{}] == {}.w[{}]", k ? " && " : "", f, k, a, k);
  return same;
}

}  // namespace

void Emitter::functions() {
  w_.line("// ================================================================ defines");
  w_.blank();
  if (s_.scoped_count_ > 0) {
    w_.line("/// Values of one-parameter defines of the state, per argument index, remembered while");
    w_.line("/// the board rules are evaluated (they store nothing, so a value cannot go stale).");
    w_.open("struct RuleScope {");
    for (size_t f = 0; f < program_.functions.size(); ++f) {
      if (!s_.scoped_[f]) continue;
      const ir::Function& F = program_.functions[f];
      if (s_.scoped_[f] == plan::kScopedByIndexAndSet) {
        w_.linef("int sets{}_ = 0;  // define {}: its first {} set arguments, per set its values by index", f, f,
                 plan::kScopedSets);
        w_.linef("{} arg{}_[{}];", names_.cpp_type(F.params[1]), f, plan::kScopedSets);
        w_.linef("uint64_t known{}_[{}];", f, plan::kScopedSets);
        w_.linef("int last{}_ = 0;  // the slot of the last lookup", f);
        w_.linef("{} value{}_[{}][{}];", names_.cpp_type(F.result), f, plan::kScopedSets,
                 names_.dom(F.params[0]->domain).size);
        continue;
      }
      if (s_.scoped_[f] == plan::kScopedBySet) {
        w_.linef("int sets{}_ = 0;  // define {}: its first {} set arguments and values", f, f, plan::kScopedSets);
        w_.linef("{} arg{}_[{}];", names_.cpp_type(F.params[0]), f, plan::kScopedSets);
        w_.linef("{} value{}_[{}];", names_.cpp_type(F.result), f, plan::kScopedSets);
        continue;
      }
      w_.linef("uint64_t known{}_ = 0;", f);
      w_.linef("{} value{}_[{}];  // define {}", names_.cpp_type(F.result), f, names_.dom(F.params[0]->domain).size, f);
    }
    w_.close("};");
    w_.blank();
  }
  for (size_t f = 0; f < program_.functions.size(); ++f) {
    const ir::Function& F = program_.functions[f];
    names_.begin_frame(F.locals);
    std::string params = "Game& g", names;
    for (size_t i = 0; i < F.params.size(); ++i) {
      const std::string name = names_.local_name(F.param_names[i], int(i));
      s_.slots_[i] = name;
      params += fmt::format(", {} {}", names_.param_type(*F.params[i]), name);
      names += ", " + name;
    }
    const std::string type = names_.cpp_type(F.result);
    const uint64_t entries = s_.plan_.table_entries[f];
    w_.linef("/// define {} - {}", f, names_.line_of(F.span));
    const int slot = s_.memo_slot_[f];
    if (slot >= 0) {
      // Remembered until a variable it reads is stored.
      w_.open(fmt::format("{} {}({}) {{", type, names_.fn_name(int(f)), params));
      w_.linef("if (g.known_ & (uint64_t(1) << {})) return {}(g.memo_[{}]);", slot, type, slot);
      w_.linef("const {} value = {};", type, exprs_.expr_as(*F.body, *F.result));
      w_.linef("g.memo_[{}] = Int(value);", slot);
      w_.linef("g.known_ |= uint64_t(1) << {};", slot);
      w_.line("return value;");
      w_.close("}");
      w_.blank();
      continue;
    }
    if (entries == 0 && s_.scoped_[f]) {
      w_.open(fmt::format("[[gnu::noinline]] {} compute_{}({}) {{", type, names_.fn_base(int(f)), params));
      w_.linef("return {};", exprs_.expr_as(*F.body, *F.result));
      w_.close("}");
      w_.open(fmt::format("{} {}({}) {{", type, names_.fn_name(int(f)), params));
      if (s_.scoped_[f] == plan::kScopedByIndexAndSet) {
        // The set's slot first (a new one has no value known), then the scalar's bit.
        const std::string& a = s_.slots_[1];
        const int words = names_.words(F.params[1]->domain);
        w_.linef("const Int i = idx_d{}({});", F.params[0]->domain, s_.slots_[0]);
        w_.linef("if (!g.scope_ || i < 0) return compute_{}(g{});", names_.fn_base(int(f)), names);
        w_.line("RuleScope& r = *g.scope_;");
        const std::string same = same_set(f, a, words);
        // The set of the last lookup first: a rule's loop asks about one line for many ships.
        w_.linef("int k = r.last{}_;", f);
        w_.linef("if (k >= r.sets{}_ || !({})) {{", f, same);
        w_.line("  k = 0;");
        w_.linef("  while (k < r.sets{}_ && !({})) ++k;", f, same);
        w_.linef("  if (k == r.sets{}_) {{", f);
        w_.linef("    if (k == {}) return compute_{}(g{});", plan::kScopedSets, names_.fn_base(int(f)), names);
        w_.linef("    r.arg{}_[k] = {};", f, a);
        w_.linef("    r.known{}_[k] = 0;", f);
        w_.linef("    ++r.sets{}_;", f);
        w_.line("  }");
        w_.linef("  r.last{}_ = k;", f);
        w_.line("}");
        w_.linef("if ((r.known{}_[k] >> i) & 1) return r.value{}_[k][i];", f, f);
        w_.linef("const {} value = compute_{}(g{});", type, names_.fn_base(int(f)), names);
        w_.linef("r.value{}_[k][i] = value;", f);
        w_.linef("r.known{}_[k] |= uint64_t(1) << i;", f);
        w_.line("return value;");
        w_.close("}");
        w_.blank();
        continue;
      }
      if (s_.scoped_[f] == plan::kScopedBySet) {
        const std::string& a = s_.slots_[0];
        const int words = names_.words(F.params[0]->domain);
        w_.linef("if (!g.scope_) return compute_{}(g{});", names_.fn_base(int(f)), names);
        w_.line("RuleScope& r = *g.scope_;");
        const std::string same = same_set(f, a, words);
        w_.linef("for (int k = 0; k < r.sets{}_; ++k)", f);
        w_.linef("  if ({}) return r.value{}_[k];", same, f);
        w_.linef("const {} value = compute_{}(g{});", type, names_.fn_base(int(f)), names);
        w_.linef("if (r.sets{}_ < {}) {{", f, plan::kScopedSets);
        w_.linef("  r.arg{}_[r.sets{}_] = {};", f, f, a);
        w_.linef("  r.value{}_[r.sets{}_++] = value;", f, f);
        w_.line("}");
        w_.line("return value;");
        w_.close("}");
        w_.blank();
        continue;
      }
      const int d = F.params[0]->domain;
      w_.linef("const Int i = idx_d{}({});", d, s_.slots_[0]);
      w_.linef("if (!g.scope_ || i < 0) return compute_{}(g{});", names_.fn_base(int(f)), names);
      w_.line("RuleScope& r = *g.scope_;");
      w_.linef("if ((r.known{}_ >> i) & 1) return r.value{}_[i];", f, f);
      w_.linef("r.value{}_[i] = compute_{}(g{});", f, names_.fn_base(int(f)), names);
      w_.linef("r.known{}_ |= uint64_t(1) << i;", f);
      w_.linef("return r.value{}_[i];", f);
      w_.close("}");
      w_.blank();
      continue;
    }
    if (entries == 0) {
      w_.open(fmt::format("{} {}({}) {{", type, names_.fn_name(int(f)), params));
      w_.linef("return {};", exprs_.expr_as(*F.body, *F.result));
      w_.close("}");
      w_.blank();
      continue;
    }
    // Its value depends on its arguments only: computed once per argument, when first
    // needed. An argument whose value fails is computed (and fails) where it is used.
    w_.open(fmt::format("{} compute_{}({}) {{", type, names_.fn_base(int(f)), params));
    w_.linef("return {};", exprs_.expr_as(*F.body, *F.result));
    w_.close("}");
    // The table is made out of line, so that a lookup is small enough to be inlined.
    const std::string table_type = fmt::format("Table_{}", names_.fn_base(int(f)));
    w_.open(fmt::format("struct {} {{", table_type));
    w_.linef("{} value[{}];", type, entries);
    w_.linef("bool known[{}];", entries);
    w_.close("};");
    w_.open(fmt::format("[[gnu::cold, gnu::noinline]] const {}* tabulate_{}() {{", table_type, names_.fn_base(int(f))));
    w_.linef("static {} t{{}};", table_type);
    w_.line("static Game scratch{};");
    std::string index = "0", call;
    for (size_t i = 0; i < F.params.size(); ++i) {
      const int d = F.params[i]->domain;
      w_.open(fmt::format("for (Int i{} = 0; i{} < {}; ++i{}) {{", i, i, names_.dom(d).size, i));
      index = i == 0 ? fmt::format("i{}", i) : fmt::format("({}) * {} + i{}", index, names_.dom(d).size, i);
      call += fmt::format(", val_d{}(i{})", d, i);
    }
    w_.linef("const Int at = {};", index);
    w_.open("try {");
    w_.linef("t.value[at] = compute_{}(scratch{});", names_.fn_base(int(f)), call);
    w_.line("t.known[at] = true;");
    w_.close("} catch (const RuleError&) {");
    w_.line("}");
    for (size_t i = 0; i < F.params.size(); ++i) w_.close();
    w_.line("return &t;");
    w_.close();
    w_.open(fmt::format("[[gnu::always_inline]] inline {} {}({}) {{", type, names_.fn_name(int(f)), params));
    w_.linef("static const {}& table = *tabulate_{}();", table_type, names_.fn_base(int(f)));
    index = std::string("0");  // (a move: GCC 12 warns wrongly about assigning a literal)
    for (size_t i = 0; i < F.params.size(); ++i) {
      const int d = F.params[i]->domain;
      // An argument outside its parameter's type is no error (docs/language.md, Define):
      // the table has no entry for it, so the body is computed as the interpreter does.
      w_.linef("const Int i{} = idx_d{}({});", i, d, s_.slots_[i]);
      w_.linef("if (i{} < 0) return compute_{}(g{});", i, names_.fn_base(int(f)), names);
      index = i == 0 ? fmt::format("i{}", i) : fmt::format("({}) * {} + i{}", index, names_.dom(d).size, i);
    }
    w_.linef("const Int at = {};", index);
    w_.linef("return table.known[at] ? table.value[at] : compute_{}(g{});", names_.fn_base(int(f)), names);
    w_.close("}");
    w_.blank();
  }
}

void Emitter::rules() {
  s_.has_board_rules_ = false;
  for (const ir::Rule& r : program_.rules) s_.has_board_rules_ |= r.board_rule;
  if (!s_.has_board_rules_) return;
  if (masks_.tabulated()) masks_.rule_tables();
  w_.line("// ================================================================ board rules");
  w_.blank();
  const std::vector<int>& rest = s_.rule_tables_.rest;
  // The code of the given rules in program order (their defines remembered while it runs).
  auto code = [&](const std::vector<int>& which) {
    if (s_.scoped_count_ > 0) {
      w_.line("RuleScope scope;");
      w_.open("struct Enter {  // the defines remember their values until the rules are done");
      w_.line("Game& g;");
      w_.line("RuleScope* saved;");
      w_.line("~Enter() { g.scope_ = saved; }");
      w_.close("} enter{g, g.scope_};");
      w_.line("g.scope_ = &scope;");
    }
    for (int k : which) {
      const ir::Rule& r = program_.rules[size_t(k)];
      names_.begin_frame(r.locals);
      w_.linef("// rule {} - {}", k, names_.line_of(r.span));
      w_.linef("if (!({})) return false;", exprs_.cond(*r.condition));
    }
    w_.line("return true;");
  };
  if (masks_.tabulated() && !rest.empty()) {
    w_.line("/// The board rules the tables do not answer hold (when the tabulated ones do).");
    w_.open("bool rest_rules_hold(Game& g) {");
    code(rest);
    w_.close("}");
    w_.blank();
  }
  w_.line("/// Every board rule holds (tested in the state after a move's block).");
  w_.open("bool board_rules_hold(Game& g) {");
  if (masks_.tabulated()) {
    w_.open("if (const int v = table_verdict(g); v >= 0) {");
    w_.line(rest.empty() ? "if (v == 1) return true;" : "if (v == 1) return rest_rules_hold(g);");
    if (s_.rule_tables_.rest_after) w_.line("return false;");
    w_.close();
  }
  std::vector<int> all;
  for (size_t k = 0; k < program_.rules.size(); ++k)
    if (program_.rules[k].board_rule) all.push_back(int(k));
  code(all);
  w_.close("}");
  w_.blank();
}

}  // namespace rulebook::compiler::emit
