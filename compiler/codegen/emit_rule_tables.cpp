// Board rules answered from tables. A rule such as
//
//   all s in ships, t in ships where s < t: <something of fleet[s] and fleet[t]>
//
// reads the state only through the entries of one map variable at its quantified keys, so
// its verdict for a pair of keys is a function of the two stored values. For the board rules
// of that form (over the same variable, one or two quantified keys), the generated engine
// computes, once and when first needed, for each pair of keys and each pair of values
// whether every such rule holds for them. A board is then checked with one lookup per pair
// of keys, and after a move that stored a few entries of a board on which those rules held,
// only the pairs holding a changed key are looked at. The other board rules (`rest`) run
// their own code once the tables say the tabulated ones hold; a board the tables reject is
// rejected at once only when no such rule comes before a tabulated one (else an earlier rule
// could fail or err first, and the code of every rule decides).
//
// The tables change nothing the rules mean: a table entry is the rule's own code evaluated
// on a state holding those two values. An entry whose evaluation fails with an error of the
// rules is marked unknown, and a state holding such a pair, or an index outside the
// variable's domain, is checked by the rules' code, which reports the error where the rules
// would. A move whose block stores one entry gets, once per key, the values it may take.
// Which rules are tabulated is decided by the plan (compiler/plan/pass_rule_tables.cpp);
// this file prints the tables.
#include <algorithm>

#include "compiler/codegen/emit_internal.h"

namespace rulebook::compiler::emit {

using ir::Op;

const ir::Stmt* MaskBuilder::table_store(int m) const {
  if (!tabulated()) return nullptr;
  const ir::Move& M = program_.moves[size_t(m)];
  if (M.body.size() != 1) return nullptr;
  const ir::Stmt& s = *M.body[0];
  if (s.op != ir::StmtOp::Assign || s.assign != 0 || s.var != s_.rule_tables_.var) return nullptr;
  if (s.keys.size() != 1 || !s.keys[0] || s.keys[0]->op != Op::Local) return nullptr;
  if (s.keys[0]->slot < 0 || size_t(s.keys[0]->slot) >= M.params.size()) return nullptr;
  if (!s.value || !s.value->type || s.value->type->kind != ir::Type::Kind::Scalar) return nullptr;
  if (!s_.ir_facts_.pure(*s.value)) return nullptr;
  return &s;
}

void MaskBuilder::rule_tables() {
  const RuleTablePlan& p = s_.rule_tables_;
  const uint32_t K = names_.dom(p.keys).size, N = names_.dom(p.values).size;
  const int W = names_.words(p.values);
  const std::string f = names_.field_name(p.var);
  w_.line("// ================================================================ rule tables");
  w_.blank();
  // One function per rule: the rule for one tuple of keys, in the state as it is.
  for (const TabulatedRule& t : p.rules) {
    const ir::Rule& R = program_.rules[size_t(t.rule)];
    names_.begin_frame(R.locals);
    s_.slots_[size_t(t.slots[0])] = "q0";
    if (t.arity == 2) s_.slots_[size_t(t.slots[1])] = "q1";
    w_.linef("/// rule {} for the key{} given - {}", t.rule, t.arity == 2 ? "s" : "", names_.line_of(R.span));
    w_.open(fmt::format("bool clause_{}(Game& g, Int q0{}) {{", names_.rule_name(t.rule),
                        t.arity == 2 ? ", Int q1" : ""));
    for (const ir::ExprPtr& guard : t.guards) w_.linef("if (!{}) return true;", names_.paren(exprs_.cond(*guard)));
    w_.linef("return {};", names_.bare(exprs_.cond(*t.body)));
    w_.close();
    w_.blank();
  }
  w_.linef("/// Every board rule reads the state only through variable {}[k] for its quantified keys: the",
           p.var);
  w_.line("/// verdicts for every pair of keys and of stored values, computed once. `fine` holds the");
  w_.line("/// values for which every rule holds; `known` those for which no rule failed with an");
  w_.line("/// error (a state holding a pair not known is checked by the rules' own code).");
  w_.open("struct Verdicts {");
  w_.linef("Bits<{}> fine, known;", W);
  w_.close("};");
  w_.open("struct RuleTables {");
  w_.linef("Verdicts one[{}];             // one[i]: over the values of key i, alone", K);
  w_.linef("Verdicts pair[{}][{}][{}];  // pair[i][j][v]: over the values of key j, beside key i = v", K, K, N);
  w_.close("};");
  w_.blank();
  w_.line("/// What one evaluation of a rule said, noted in `fine` and `known` at `u`.");
  w_.line("template <class Clause>");
  w_.open("void note(Verdicts& a, Int u, Verdicts* b, Int v, Clause&& clause) {");
  w_.open("try {");
  w_.line("if (clause()) return;");
  w_.reopen("} catch (const RuleError&) {");
  w_.line("a.known.reset(u);");
  w_.line("if (b) b->known.reset(v);");
  w_.close();
  w_.line("a.fine.reset(u);");
  w_.line("if (b) b->fine.reset(v);");
  w_.close();
  w_.blank();
  w_.line("/// The tables, made when first asked for.");
  w_.open("const RuleTables& rule_tables() {");
  w_.open("static const RuleTables* const tables = [] {");
  w_.line("static RuleTables made;  // in static storage: freed with the engine");
  w_.line("RuleTables* t = &made;");
  w_.open(fmt::format("for (Int v = 0; v < {}; ++v) {{", N));
  w_.open(fmt::format("for (Int i = 0; i < {}; ++i) {{", K));
  w_.line("t->one[i].fine.set(v);");
  w_.line("t->one[i].known.set(v);");
  w_.open(fmt::format("for (Int j = 0; j < {}; ++j) {{", K));
  w_.linef("for (Int u = 0; u < {}; ++u) t->pair[i][j][v].fine.set(u), t->pair[i][j][v].known.set(u);", N);
  w_.close();
  w_.close();
  w_.close();
  w_.line("Game g;");
  w_.line("const uint8_t zero[sizeof(State)] = {};");
  w_.line("load(g, zero);");
  for (const TabulatedRule& t : p.rules) {
    const std::string name = names_.rule_name(t.rule);
    w_.open(fmt::format("for (Int i = 0; i < {}; ++i) {{", K));
    if (t.arity == 1) {
      w_.open(fmt::format("for (Int v = 0; v < {}; ++v) {{", N));
      w_.linef("put_{}(g, i, v);", f);
      w_.linef("note(t->one[i], v, nullptr, 0, [&] {{ return clause_{}(g, val_d{}(i)); }});", name, p.keys);
      w_.close();
    } else {
      w_.open(fmt::format("for (Int j = 0; j < {}; ++j) {{", K));
      w_.open("if (i == j) {");
      w_.open(fmt::format("for (Int v = 0; v < {}; ++v) {{", N));
      w_.linef("put_{}(g, i, v);", f);
      w_.linef("note(t->one[i], v, nullptr, 0, [&] {{ return clause_{}(g, val_d{}(i), val_d{}(i)); }});",
               name, p.keys, p.keys);
      w_.close();
      w_.line("continue;");
      w_.close();
      w_.open(fmt::format("for (Int v = 0; v < {}; ++v) {{", N));
      w_.linef("put_{}(g, i, v);", f);
      w_.open(fmt::format("for (Int u = 0; u < {}; ++u) {{", N));
      w_.linef("put_{}(g, j, u);", f);
      w_.linef("note(t->pair[i][j][v], u, &t->pair[j][i][u], v, [&] {{ return clause_{}(g, val_d{}(i), val_d{}(j)); }});",
               name, p.keys, p.keys);
      w_.close();
      w_.close();
      w_.close();
    }
    w_.close();
  }
  w_.line("return t;");
  w_.close("}();");
  w_.line("return *tables;");
  w_.close();
  w_.blank();
  auto at = [&](const char* game, const char* index) { return fmt::format("{}.s.{}[{}]", game, f, index); };
  w_.line("/// The tuples holding key i = v, with the entries j >= from of `g` (j != i): 1 when every");
  w_.line("/// rule holds for them, 0 when one fails, -1 when one of them is not known.");
  w_.open("int key_verdict(const RuleTables& t, const Game& g, Int i, Int v, Int from) {");
  w_.line("bool fine = true;");
  w_.open("if (!t.one[i].fine.has(v)) {");
  w_.line("if (!t.one[i].known.has(v)) return -1;");
  w_.line("fine = false;");
  w_.close();
  w_.open(fmt::format("for (Int j = from; j < {}; ++j) {{", K));
  w_.line("const Verdicts& e = t.pair[i][j][v];");
  w_.linef("const Int u = {};", at("g", "j"));
  w_.line("if (j == i || e.fine.has(u)) continue;");
  w_.line("if (!e.known.has(u)) return -1;");
  w_.line("fine = false;");
  w_.close();
  w_.line("return fine ? 1 : 0;");
  w_.close();
  w_.blank();
  w_.line("/// 1 when every board rule holds, 0 when one fails, -1 when the tables cannot tell (a");
  w_.line("/// pair of values some rule fails on with an error, or a value outside the domain).");
  w_.open("int table_verdict(Game& g) {");
  w_.line("const RuleTables& t = rule_tables();");
  w_.linef("for (Int i = 0; i < {}; ++i)", K);
  w_.linef("  if ({} >= {}) return -1;", at("g", "i"), N);
  w_.line("int verdict = 1;");
  w_.open(fmt::format("for (Int i = 0; i < {}; ++i) {{", K));
  w_.linef("const int k = key_verdict(t, g, i, {}, i + 1);", at("g", "i"));
  w_.line("if (k < 0) return -1;");
  w_.line("verdict &= k;");
  w_.close();
  w_.line("return verdict;");
  w_.close();
  w_.blank();
  if (p.memo_slot >= 0) {
    w_.linef("/// table_verdict after variable {}[i] := v in a state where it was 1 (only the pairs holding i",
             s_.rule_tables_.var);
    w_.line("/// can have changed).");
    w_.open("int verdict_after_store(Game& g, Int i, Int v) {");
    w_.linef("return v >= {} ? -1 : key_verdict(rule_tables(), g, i, v, 0);", N);
    w_.close();
    w_.blank();
  }
  w_.line("/// table_verdict, remembered until the variable is stored (and followed through the");
  w_.line("/// stores while it is 1).");
  w_.open("int rules_held(Game& g) {");
  if (p.memo_slot >= 0) {
    w_.linef("if (g.known_ & (uint64_t(1) << {})) return int(g.memo_[{}]);", p.memo_slot, p.memo_slot);
    w_.line("const int v = table_verdict(g);");
    w_.linef("g.memo_[{}] = v;", p.memo_slot);
    w_.linef("g.known_ |= uint64_t(1) << {};", p.memo_slot);
    w_.line("return v;");
  } else {
    w_.line("return table_verdict(g);");
  }
  w_.close();
  w_.blank();
  w_.linef("/// The values of variable {}[k] with which every board rule holds, the other entries staying",
           s_.rule_tables_.var);
  w_.line("/// (`allowed`), and those no rule fails on with an error (`decided`). For a state in");
  w_.line("/// which table_verdict is 1.");
  w_.open(fmt::format("void rules_allow(Game& g, Int k, Bits<{}>& allowed, Bits<{}>& decided) {{", W, W));
  w_.line("const RuleTables& t = rule_tables();");
  w_.line("allowed = t.one[k].fine;");
  w_.line("decided = t.one[k].known;");
  w_.open(fmt::format("for (Int j = 0; j < {}; ++j) {{", K));
  w_.line("if (j == k) continue;");
  w_.linef("const Verdicts& e = t.pair[j][k][{}];", at("g", "j"));
  w_.line("allowed = allowed & e.fine;");
  w_.line("decided = decided & e.known;");
  w_.close();
  w_.close();
  w_.blank();
  w_.line("bool board_rules_hold(Game& g);");
  if (!p.rest.empty()) w_.line("bool rest_rules_hold(Game& g);");
  w_.line("/// The board rules hold in `t`, made from `g` by a move's block: when the tabulated ones");
  w_.line("/// held in `g`, only the pairs holding a key whose value changed are looked at.");
  w_.open("bool rules_hold_after(Game& g, Game& t) {");
  w_.line("if (rules_held(g) != 1) return board_rules_hold(t);");
  w_.line("const RuleTables& r = rule_tables();");
  w_.linef("for (Int i = 0; i < {}; ++i)", K);
  w_.linef("  if ({} >= {}) return board_rules_hold(t);", at("t", "i"), N);
  w_.line("int verdict = 1;");
  w_.open(fmt::format("for (Int i = 0; i < {}; ++i) {{", K));
  w_.linef("if ({} == {}) continue;", at("t", "i"), at("g", "i"));
  w_.linef("const int k = key_verdict(r, t, i, {}, 0);", at("t", "i"));
  w_.line("if (k < 0) return board_rules_hold(t);");
  w_.line("verdict &= k;");
  w_.close();
  if (p.rest.empty()) {
    w_.line("return verdict == 1;");
  } else {
    w_.line("if (verdict == 1) return rest_rules_hold(t);");
    w_.line(p.rest_after ? "return false;" : "return board_rules_hold(t);");
  }
  w_.close();
  w_.blank();
}

}  // namespace rulebook::compiler::emit
