// Parser tests: tree shapes of every construct, recovery, and exact diagnostics.
#include <catch2/catch.hpp>

#include <filesystem>

#include "dsl/parser.h"
#include "tests/parse/samples.h"

using namespace rulebook::dsl;

namespace {

struct Parsed {
  SourceSet sources;
  Diagnostics diags;
  std::unique_ptr<File> file;

  explicit Parsed(const std::string& text) {
    uint32_t id = sources.add("t.rules", text);
    file = parse(sources, id, diags);
  }
  std::string errors() const { return diags.render(sources); }
};

std::string sx(const TypeExpr& t);

// A fully parenthesized form that shows the tree's shape.
std::string sx(const Expr& e) {
  auto all = [](const std::vector<ExprPtr>& v, size_t from = 0) {
    std::string s;
    for (size_t i = from; i < v.size(); ++i) {
      s += ' ';
      s += sx(*v[i]);
    }
    return s;
  };
  auto binders = [](const Expr& x) {
    std::string s;
    for (const Binding& b : x.binders) s += " (" + b.var.name + " " + sx(*b.domain) + ")";
    if (x.where) s += " :where " + sx(*x.where);
    return s;
  };
  static const char* kOps[] = {"or", "and", "not", "==", "!=", "<",  "<=", ">", ">=", "in",
                               "not in", "..", "+", "-", "*", "/", "%", "&", "neg"};
  switch (e.kind) {
    case ExprKind::Int: return std::to_string(e.value);
    case ExprKind::String: return "\"" + e.text + "\"";
    case ExprKind::Bool: return e.value ? "true" : "false";
    case ExprKind::None: return "none";
    case ExprKind::Name: return e.ident.name;
    case ExprKind::Call: return "(call" + all(e.args) + ")";
    case ExprKind::Index: return "(index" + all(e.args) + ")";
    case ExprKind::Field: return "(. " + sx(*e.args[0]) + " " + e.ident.name + ")";
    case ExprKind::Unary:
    case ExprKind::Binary: return std::string("(") + kOps[static_cast<int>(e.op)] + all(e.args) + ")";
    case ExprKind::If: return "(if" + all(e.args) + ")";
    case ExprKind::Quant: {
      const char* q = e.quant == Quantifier::All ? "all" : e.quant == Quantifier::Some ? "some" : "no";
      return std::string("(") + q + binders(e) + all(e.args) + ")";
    }
    case ExprKind::Aggregate: {
      static const char* kAgg[] = {"count", "sum", "max", "min"};
      return std::string("(") + kAgg[static_cast<int>(e.agg)] + binders(e) + all(e.args) + ")";
    }
    case ExprKind::SetLit: return "(set" + all(e.args) + ")";
    case ExprKind::SetFilter: return "(filter" + binders(e) + all(e.args) + ")";
    case ExprKind::RecordLit: {
      std::string s = "(record";
      for (size_t i = 0; i < e.args.size(); ++i) s += " " + e.fields[i].name + ":" + sx(*e.args[i]);
      return s + ")";
    }
    case ExprKind::SeqLit: return "(seq" + all(e.args) + ")";
    case ExprKind::Comprehension: return std::string(e.value ? "(setof" : "(seqof") + binders(e) + all(e.args) + ")";
    case ExprKind::Grid: {
      std::string s = "(grid";
      for (const std::string& r : e.grid.rows) s += " \"" + r + "\"";
      for (const GridKey& k : e.grid.keys) s += " " + k.key + "=" + sx(*k.value);
      return s + ")";
    }
  }
  return "?";
}

std::string sx(const TypeExpr& t) {
  switch (t.kind) {
    case TypeKind::Bool: return "bool";
    case TypeKind::Int: return "int";
    case TypeKind::Range: return "(range " + sx(*t.lo) + " " + sx(*t.hi) + ")";
    case TypeKind::Enum:
    case TypeKind::Record: {
      std::string s = t.kind == TypeKind::Enum ? "(enum" : "(record";
      for (size_t i = 0; i < t.members.size(); ++i) {
        s += " " + t.members[i].name;
        if (t.kind == TypeKind::Record) s += ":" + sx(*t.elems[i]);
      }
      return s + ")";
    }
    case TypeKind::Named: return t.name.name;
    case TypeKind::Optional: return "(opt " + sx(*t.elems[0]) + ")";
    case TypeKind::Set: return "(set " + sx(*t.elems[0]) + ")";
    case TypeKind::Seq: return "(seqof " + sx(*t.elems[0]) + ")";
    case TypeKind::Map: return "(map " + sx(*t.elems[0]) + " " + sx(*t.elems[1]) + ")";
  }
  return "?";
}

/// The tree of `text` read as a rule's condition; "" (and a failed check) on errors.
std::string tree(const std::string& text) {
  Parsed p("game \"t\";\nrule r: " + text + ";\n");
  INFO(text);
  CHECK(p.errors() == "");
  if (p.file->decls.size() != 1) return "";
  return sx(*std::get<Rule>(p.file->decls[0].body).condition);
}

std::string type_tree(const std::string& text) {
  Parsed p("game \"t\";\ntype T = " + text + ";\n");
  INFO(text);
  CHECK(p.errors() == "");
  if (p.file->decls.size() != 1) return "";
  return sx(*std::get<TypeDecl>(p.file->decls[0].body).type);
}

/// The rendered diagnostics of `body` placed after a valid header line.
std::string errors_of(const std::string& body) {
  Parsed p("game \"t\";\n" + body);
  return p.errors();
}

}  // namespace

// ---------------------------------------------------------------- expressions

TEST_CASE("parser: precedence of operators") {
  CHECK(tree("a or b and not c == d + e * -f") ==
        "(or a (and b (not (== c (+ d (* e (neg f)))))))");
  CHECK(tree("a - b - c") == "(- (- a b) c)");
  CHECK(tree("a / b % c & d") == "(& (% (/ a b) c) d)");
  CHECK(tree("a & b + c") == "(+ (& a b) c)");
  CHECK(tree("a or b or c") == "(or (or a b) c)");
  CHECK(tree("not not a") == "(not (not a))");
  CHECK(tree("- -a") == "(neg (neg a))");
  CHECK(tree("1..n + 1") == "(.. 1 (+ n 1))");
  CHECK(tree("x in 1..9") == "(in x (.. 1 9))");
  CHECK(tree("(a or b) and c") == "(and (or a b) c)");
}

TEST_CASE("parser: comparisons, `in` and `not in`") {
  CHECK(tree("a <= b") == "(<= a b)");
  CHECK(tree("a != b") == "(!= a b)");
  CHECK(tree("x in S and y not in T") == "(and (in x S) (not in y T))");
  CHECK(tree("not x in S") == "(not (in x S))");
}

TEST_CASE("parser: literals and postfix chains") {
  CHECK(tree("42") == "42");
  CHECK(tree("\"a\\\"b\"") == "\"a\"b\"");
  CHECK(tree("true or false or none") == "(or (or true false) none)");
  CHECK(tree("f(a, b)[i].g") == "(. (index (call f a b) i) g)");
  CHECK(tree("f()") == "(call f)");
  CHECK(tree("[a, [b], []]") == "(seq a (seq b) (seq))");
}

TEST_CASE("parser: quantifiers, aggregates and if") {
  CHECK(tree("all c in cells, d in row(c) where c != d: p(c, d)") ==
        "(all (c cells) (d (call row c)) :where (!= c d) (call p c d))");
  CHECK(tree("some x in S: x > 1 and x < 3") == "(some (x S) (and (> x 1) (< x 3)))");
  CHECK(tree("no x in S: f(x)") == "(no (x S) (call f x))");
  CHECK(tree("count c in cells where free(c)") == "(count (c cells) :where (call free c))");
  CHECK(tree("sum p in players: s(p) + 1") == "(sum (p players) (+ (call s p) 1))");
  CHECK(tree("1 + sum p in players: s(p) > 3") == "(+ 1 (sum (p players) (> (call s p) 3)))");
  CHECK(tree("max p in players: s[p]") == "(max (p players) (index s p))");
  CHECK(tree("min x in S, y in T: x - y") == "(min (x S) (y T) (- x y))");
  CHECK(tree("f(count x in S, y)") == "(call f (count (x S)) y)");
  CHECK(tree("if a then b else if c then d else e") == "(if a b (if c d e))");
  CHECK(tree("x == (if a then 1 else 2)") == "(== x (if a 1 2))");
}

TEST_CASE("parser: max and min are calls unless a binder follows") {
  CHECK(tree("max(a, b)") == "(call max a b)");
  CHECK(tree("min(a, b) + max") == "(+ (call min a b) max)");
  CHECK(tree("count + sum") == "(+ count sum)");
}

TEST_CASE("parser: braces are sets, filters or records") {
  CHECK(tree("{}") == "(set)");
  CHECK(tree("{a, b + 1}") == "(set a (+ b 1))");
  CHECK(tree("{x in S | x > 1}") == "(filter (x S) (> x 1))");
  CHECK(tree("{x in S, y}") == "(set (in x S) y)");
  CHECK(tree("{x in S and y or z}") == "(set (or (and (in x S) y) z))");
  CHECK(tree("{f: 1, g: a}") == "(record f:1 g:a)");
  CHECK(tree("{x in a..b | true}") == "(filter (x (.. a b)) true)");
  CHECK(tree("{x in S or T | p}") == "(filter (x (or S T)) p)");
  CHECK(tree("{x in S + T or y, z}") == "(set (or (in x (+ S T)) y) z)");
  Parsed missing_pipe("game \"t\";\nrule r: {x in S == T};\n");
  CHECK(missing_pipe.diags.all().at(0).message ==
        "expected '|' after the domain of the set filter, found '}'");
}

TEST_CASE("parser: grid literals") {
  CHECK(tree("grid { \"ab\" \"c.\" } with { a = 1, \"b\" = x, 7 = none }") ==
        "(grid \"ab\" \"c.\" a=1 b=x 7=none)");
  CHECK(tree("grid { \"12\" }") == "(grid \"12\")");
  CHECK(tree("grid + 1") == "(+ grid 1)");
}

TEST_CASE("parser: contextual keywords are names elsewhere") {
  CHECK(tree("x(c) + players + size(boards) + of + with + set") ==
        "(+ (+ (+ (+ (+ (call x c) players) (call size boards)) of) with) set)");
}

TEST_CASE("parser: spans cover the whole expression") {
  Parsed p("game \"t\";\nrule r: f(a) + (b);\n");
  const Expr& e = *std::get<Rule>(p.file->decls[0].body).condition;
  CHECK(p.sources.text(e.span) == "f(a) + (b)");
  CHECK(p.sources.text(e.args[0]->span) == "f(a)");
  CHECK(p.sources.text(e.args[1]->span) == "(b)");
  CHECK(p.sources.text(p.file->decls[0].span) == "rule r: f(a) + (b);");
}

// ---------------------------------------------------------------- types

TEST_CASE("parser: types") {
  CHECK(type_tree("bool") == "bool");
  CHECK(type_tree("int") == "int");
  CHECK(type_tree("0..n - 1") == "(range 0 (- n 1))");
  CHECK(type_tree("-1..(n)") == "(range (neg 1) n)");
  CHECK(type_tree("{a, b}") == "(enum a b)");
  CHECK(type_tree("{f: int, g: Cell?}") == "(record f:int g:(opt Cell))");
  CHECK(type_tree("set of seq of Cell") == "(set (seqof Cell))");
  CHECK(type_tree("Cell -> Player?") == "(map Cell (opt Player))");
  CHECK(type_tree("A -> B -> C") == "(map A (map B C))");
  CHECK(type_tree("set of Cell -> bool") == "(set (map Cell bool))");
  CHECK(type_tree("0..9?") == "(opt (range 0 9))");
  CHECK(type_tree("{x, set}") == "(enum x set)");
}

// ---------------------------------------------------------------- declarations

TEST_CASE("parser: every declaration of the sample") {
  Parsed p(test::kEveryConstruct);
  REQUIRE(p.errors() == "");
  const File& f = *p.file;
  CHECK_FALSE(f.is_variant);
  CHECK(f.title == "Everything");
  REQUIRE(f.decls.size() == 51);
  CHECK(f.comments.size() == 3);

  const auto& k = std::get<Param>(f.decls[1].body);
  CHECK(k.name.name == "k");
  CHECK(sx(*k.type) == "(range 1 9)");
  CHECK(sx(*k.value) == "3");
  CHECK(sx(*std::get<Param>(f.decls[2].body).value) == "(grid \"ab.\" \"ba.\" a=1 b=2 0=none)");
  const auto& board = std::get<Board>(f.decls[3].body);
  CHECK(sx(*board.rows) == "n");
  const auto& box = std::get<Regions>(f.decls[4].body);
  CHECK(box.name.name == "box");
  CHECK(sx(*box.block_rows) == "3");
  CHECK_FALSE(box.grid);
  CHECK(std::get<Regions>(f.decls[5].body).grid->grid.rows.size() == 2);
  const auto& players = std::get<Players>(f.decls[6].body);
  CHECK(sx(*players.count) == "4");
  REQUIRE(players.names.size() == 4);
  CHECK(players.names[3].name == "west");
  CHECK(std::get<Team>(f.decls[7].body).members.size() == 2);
  CHECK(sx(*std::get<TypeDecl>(f.decls[9].body).type) == "(record owner:Player kind:Kind)");
  CHECK(sx(*std::get<TypeDecl>(f.decls[11].body).type) == "(set (seqof (range 0 (- n 1))))");

  const auto& random = std::get<Setup>(f.decls[12].body);
  CHECK(random.source == SetupSource::Random);
  CHECK(sx(*random.value) == "2");
  CHECK(sx(*random.from) == "cells");
  CHECK(std::get<Setup>(f.decls[13].body).source == SetupSource::Shuffle);
  const auto& file = std::get<Setup>(f.decls[14].body);
  CHECK(file.source == SetupSource::File);
  CHECK(file.path == "puzzles.txt");
  CHECK(sx(*file.entry) == "3");
  CHECK(std::get<Setup>(f.decls[15].body).source == SetupSource::Value);

  CHECK_FALSE(std::get<State>(f.decls[16].body).initial);
  CHECK(sx(*std::get<State>(f.decls[17].body).type) == "(map Player (range 0 81))");

  const auto& init = std::get<Init>(f.decls[19].body);
  REQUIRE(init.body.size() == 2);
  CHECK(init.body[1]->kind == StmtKind::For);
  CHECK(sx(*init.body[1]->where) == "(== (call x c) 0)");

  const auto& free = std::get<Define>(f.decls[20].body);
  CHECK(free.has_params);
  REQUIRE(free.params.size() == 1);
  CHECK(sx(*free.params[0].type) == "Cell");
  CHECK(sx(*free.type) == "bool");
  const auto& total = std::get<Define>(f.decls[21].body);
  CHECK_FALSE(total.has_params);
  CHECK_FALSE(total.type);
  const auto& f3 = std::get<Define>(f.decls[22].body);
  CHECK(f3.has_params);
  CHECK(f3.params.empty());

  const auto& rule = std::get<Rule>(f.decls[24].body);
  CHECK(rule.description == "no two in a row");
  REQUIRE(rule.on.size() == 2);
  CHECK(rule.on[0].move.name == "place");
  CHECK(rule.on[1].args.size() == 2);
  CHECK(rule.on[1].has_args);
  CHECK(std::get<Rule>(f.decls[25].body).on.empty());

  const auto& phase = std::get<Phase>(f.decls[26].body);
  CHECK(phase.name.name == "placement");
  REQUIRE(phase.moves.size() == 1);
  const Move& place = phase.moves[0];
  CHECK(place.requires_.size() == 2);
  CHECK(sx(*place.requires_[1]) == "(not (in c start))");
  REQUIRE(place.body.size() == 3);
  const Stmt& assign = *place.body[1];
  CHECK(assign.kind == StmtKind::Assign);
  CHECK(assign.assign == AssignOp::Add);
  CHECK(sx(*assign.target) == "(index placed mover)");
  const Stmt& ifs = *place.body[2];
  CHECK(ifs.kind == StmtKind::If);
  CHECK(ifs.has_else);
  REQUIRE(ifs.otherwise.size() == 1);
  const Stmt& elif = *ifs.otherwise[0];
  CHECK(elif.kind == StmtKind::If);
  REQUIRE(elif.otherwise.size() == 2);
  CHECK(elif.body[0]->kind == StmtKind::Eliminate);
  CHECK(elif.otherwise[0]->kind == StmtKind::Let);
  CHECK(elif.otherwise[0]->name.name == "t");
  CHECK(elif.otherwise[1]->assign == AssignOp::Sub);
  CHECK(phase.has_stuck);
  CHECK(phase.stuck[0]->kind == StmtKind::End);
  REQUIRE(phase.transitions.size() == 2);
  CHECK(phase.transitions[0].target.name == "battle");
  CHECK_FALSE(phase.transitions[0].is_end);
  CHECK(phase.transitions[1].is_end);
  CHECK(std::get<Phase>(f.decls[27].body).moves[0].body[2]->kind == StmtKind::Goto);

  CHECK_FALSE(std::get<Score>(f.decls[28].body).per_team);
  CHECK(std::get<Score>(f.decls[29].body).per_team);
  const auto& winner = std::get<Winner>(f.decls[30].body);
  CHECK(winner.highest);
  CHECK(winner.per_team);
  CHECK(sx(*std::get<EndWhen>(f.decls[31].body).condition) == "(no (c cells) (call free c))");

  const auto& prove = std::get<Property>(f.decls[32].body);
  CHECK(prove.kind == PropertyKind::Prove);
  CHECK(prove.description == "a property");
  CHECK(prove.over.phase.name == "placement");
  CHECK(sx(*prove.over.where) == "flag");
  const auto& find = std::get<Property>(f.decls[33].body);
  CHECK(find.over.moves);
  CHECK(find.over.move_names.size() == 2);
  CHECK(std::get<Property>(f.decls[34].body).kind == PropertyKind::Derive);
  CHECK(std::get<Property>(f.decls[35].body).kind == PropertyKind::Lemma);
  const auto& bound = std::get<Property>(f.decls[36].body);
  CHECK(bound.kind == PropertyKind::Bound);
  CHECK(bound.maximize);
  CHECK(sx(*bound.expr) == "(count (c cells) :where (call free c))");
  CHECK(std::get<Property>(f.decls[37].body).subject.name == "p1");
  CHECK(std::get<Property>(f.decls[38].body).name.name == "all_rules");
  const auto& redundant = std::get<Property>(f.decls[39].body);
  CHECK(redundant.name.name == "r1");
  CHECK(redundant.subject.name == "distinct");
  const auto& m1 = std::get<Metric>(f.decls[40].body);
  CHECK(m1.description == "pieces");
  CHECK(sx(*m1.when) == "flag");
  const auto& m2 = std::get<Metric>(f.decls[41].body);
  CHECK_FALSE(m2.when);
  CHECK(sx(*m2.value) == "(max (p players) (index placed p))");
  const auto& sym = std::get<Symmetry>(f.decls[42].body);
  REQUIRE(sym.swaps.size() == 2);
  CHECK(sym.swaps[1].first.name == "east");
  CHECK(sym.swaps[1].second.name == "west");
  CHECK(std::get<Rule>(f.decls[50].body).name.name == "last");
}

TEST_CASE("parser: a variant file") {
  Parsed p(test::kVariant);
  REQUIRE(p.errors() == "");
  const File& f = *p.file;
  CHECK(f.is_variant);
  CHECK(f.title == "House");
  CHECK(f.extends == "base.rules");
  REQUIRE(f.decls.size() == 6);
  CHECK(f.decls[0].is_override);
  const auto& move = std::get<Move>(f.decls[1].body);
  CHECK(move.is_override);
  CHECK(move.name.name == "place");
  const auto& remove = std::get<Remove>(f.decls[2].body);
  CHECK(remove.what == DeclKindWord::Rule);
  CHECK(remove.name.name == "distinct");
  CHECK(std::get<Remove>(f.decls[3].body).what == DeclKindWord::Property);
  CHECK(f.decls[4].is_override);
  CHECK(std::holds_alternative<EndWhen>(f.decls[4].body));
  CHECK_FALSE(std::get<Winner>(f.decls[5].body).highest);
}

// ---------------------------------------------------------------- diagnostics

TEST_CASE("parser: empty file") {
  CHECK(errors_of("").find("error") == std::string::npos);
  Parsed p("");
  CHECK(p.errors() ==
        "t.rules:1:1: error: empty file: expected 'game \"title\";' or 'variant \"title\" "
        "extends \"file\";'\n"
        "    1 |\n"
        "      | ^\n");
  Parsed comment("// nothing\n");
  CHECK(comment.diags.all().at(0).message.starts_with("empty file"));
}

TEST_CASE("parser: missing header") {
  Parsed p("param n = 1;\n");
  CHECK(p.errors() ==
        "t.rules:1:1: error: expected 'game \"title\";' or 'variant \"title\" extends "
        "\"file\";' at the start of the file, found 'param'\n"
        "    1 | param n = 1;\n"
        "      | ^~~~~\n");
  CHECK(p.file->decls.size() == 1);
}

TEST_CASE("parser: missing ';' is reported after the previous token") {
  Parsed p("game \"t\";\nparam x = 3\nrule r: a;\n");
  CHECK(p.errors() ==
        "t.rules:2:12: error: expected ';' after the declaration, found 'rule'\n"
        "    2 | param x = 3\n"
        "      |            ^\n"
        "help: add ';' at the end of the previous line\n");
  CHECK(p.file->decls.size() == 2);  // both kept: the ';' was all that was missing
}

TEST_CASE("parser: missing ';' on the same line points at what was found") {
  CHECK(errors_of("param x = 3 4;\n") ==
        "t.rules:2:13: error: expected ';' after the declaration, found '4'\n"
        "    2 | param x = 3 4;\n"
        "      |             ^\n");
}

TEST_CASE("parser: expected an expression") {
  CHECK(errors_of("rule t: (a + );\n") ==
        "t.rules:2:14: error: expected an expression, found ')'\n"
        "    2 | rule t: (a + );\n"
        "      |              ^\n");
  CHECK(errors_of("rule t: a and rule;\n") ==
        "t.rules:2:15: error: expected an expression, found 'rule'\n"
        "    2 | rule t: a and rule;\n"
        "      |               ^~~~\n");
}

TEST_CASE("parser: unknown declaration suggests the closest keyword") {
  CHECK(errors_of("rulez s: b;\nrule ok: a;\n") ==
        "t.rules:2:1: error: unknown declaration 'rulez'\n"
        "    2 | rulez s: b;\n"
        "      | ^~~~~\n"
        "help: did you mean 'rule'?\n");
  Parsed p("game \"t\";\nfoo bar;\n");
  REQUIRE(p.diags.all().size() == 1);
  CHECK(p.diags.all()[0].message == "unknown declaration 'foo'");
  CHECK(p.diags.all()[0].hint.empty());
}

TEST_CASE("parser: '=' as assignment or comparison") {
  CHECK(errors_of("init { x = 1; }\n") ==
        "t.rules:2:10: error: '=' is not assignment here; did you mean ':=' ?\n"
        "    2 | init { x = 1; }\n"
        "      |          ^\n");
  CHECK(errors_of("rule u: a = b;\n") ==
        "t.rules:2:11: error: '=' is not a comparison\n"
        "    2 | rule u: a = b;\n"
        "      |           ^\n"
        "help: use '==' to compare\n");
}

TEST_CASE("parser: recovery reports one error per broken declaration") {
  Parsed p(
      "game \"t\";\n"
      "param a = ;\n"
      "param ok1 = 1;\n"
      "rule r: (a + ) and ) and (;\n"  // several problems, one report
      "phase p {\n"
      "  move m {\n"
      "    x := ;\n"
      "    y = ;\n"
      "  }\n"
      "}\n"
      "param ok2 = 2;\n"
      "}\n"
      "rule last: true;\n");
  std::vector<std::string> messages;
  for (const Diagnostic& d : p.diags.all()) messages.push_back(d.message);
  CHECK(messages == std::vector<std::string>{
                        "expected an expression, found ';'",
                        "expected an expression, found ')'",
                        "expected an expression, found ';'",
                        "expected a declaration, found '}'",
                    });
  std::vector<std::string> names;
  for (const Decl& d : p.file->decls) {
    if (auto* param = std::get_if<Param>(&d.body)) names.push_back(param->name.name);
    if (auto* rule = std::get_if<Rule>(&d.body)) names.push_back(rule->name.name);
  }
  CHECK(names == std::vector<std::string>{"ok1", "ok2", "last"});
}

TEST_CASE("parser: an unclosed block stops at the next declaration") {
  Parsed p("game \"t\";\ninit {\n  x := 1;\nrule r: a;\n");
  CHECK(p.errors() ==
        "t.rules:4:1: error: expected '}' to close the 'init' block, found 'rule'\n"
        "    4 | rule r: a;\n"
        "      | ^~~~\n"
        "t.rules:2:6: note: the block opens here\n"
        "    2 | init {\n"
        "      |      ^\n");
  REQUIRE(p.file->decls.size() == 1);
  CHECK(std::holds_alternative<Rule>(p.file->decls[0].body));
}

TEST_CASE("parser: `end;` inside a block is not taken for `end when`") {
  Parsed p("game \"t\";\nphase p {\n  move m {\n    x := ;\nend;\n  }\n}\nrule r: a;\n");
  REQUIRE(p.diags.all().size() == 1);
  CHECK(p.diags.all()[0].message == "expected an expression, found ';'");
  REQUIRE(p.file->decls.size() == 1);
  CHECK(std::holds_alternative<Rule>(p.file->decls[0].body));
}

TEST_CASE("parser: friendly errors") {
  Parsed nine("game \"t\";\nboard 9x9;\n");
  REQUIRE(nine.diags.all().size() == 1);
  CHECK(nine.diags.all()[0].message == "expected 'x' after the number of rows, found 'x9'");
  CHECK(nine.diags.all()[0].hint == "put spaces around 'x', as in 'rows x columns'");

  Parsed reserved("game \"t\";\nparam in = 3;\n");
  CHECK(reserved.diags.all().at(0).message ==
        "expected the parameter's name after 'param', found 'in'");
  CHECK(reserved.diags.all().at(0).hint == "'in' is a reserved word; pick another name");

  Parsed then("game \"t\";\ninit { if a then x := 1; }\n");
  CHECK(then.diags.all().at(0).message == "expected '{' after the condition of 'if', found 'then'");

  Parsed over("game \"t\";\noverride init { }\n");
  CHECK(over.diags.all().at(0).message == "'init' cannot be overridden");

  Parsed move("game \"t\";\nmove m { }\n");
  CHECK(move.diags.all().at(0).message == "a 'move' belongs inside a phase");

  Parsed header("game \"t\";\ngame \"u\";\n");
  CHECK(header.diags.all().at(0).message ==
        "'game' may appear only once, as the first line of the file");

  Parsed stuck("game \"t\";\nphase p { when stuck { end; } when stuck { end; } }\n");
  CHECK(stuck.diags.all().at(0).message == "phase 'p' has two 'when stuck' blocks");
  CHECK(stuck.diags.all().at(0).notes.size() == 1);

  // `f(x);` calls the action f; only a name can be called as a statement.
  Parsed call("game \"t\";\ninit { m[k](x); }\n");
  CHECK(call.diags.all().at(0).message == "expected ':=', '+=' or '-=' after 'm[k]', found '('");
  Parsed action_call("game \"t\";\ninit { f(x, 1); }\n");
  CHECK(action_call.diags.all().empty());
}

TEST_CASE("parser: nesting is limited instead of overflowing the stack") {
  std::string deep = "game \"t\";\nparam a = " + std::string(100000, '(') + "1" +
                     std::string(100000, ')') + ";\nparam b = " + std::string(50000, '-') +
                     "1;\nparam c = 1" + std::string(0, ' ');
  for (int i = 0; i < 50000; ++i) deep += " + 1";
  deep += ";\ntype T = ";
  for (int i = 0; i < 50000; ++i) deep += "set of ";
  deep += "int;\ninit { ";
  for (int i = 0; i < 50000; ++i) deep += "if a { ";
  deep += "\nparam ok = 1;\n";
  Parsed p(deep);
  size_t too_deep = 0;
  for (const Diagnostic& d : p.diags.all()) {
    too_deep += d.message == "nesting too deep: more than 256 levels";
  }
  CHECK(too_deep == 5);
  REQUIRE(p.file->decls.size() == 1);
  CHECK(std::get<Param>(p.file->decls[0].body).name.name == "ok");

  // 200 levels are fine.
  Parsed fine("game \"t\";\nparam a = " + std::string(200, '(') + "1" + std::string(200, ')') + ";\n");
  CHECK_FALSE(fine.diags.has_errors());
}

TEST_CASE("parser: stops after 20 errors") {
  std::string text = "game \"t\";\n";
  for (int i = 0; i < 50; ++i) text += "param p" + std::to_string(i) + " = ;\n";
  Parsed p(text);
  CHECK(p.diags.error_count() == 21);
  CHECK(p.diags.all().back().message == "too many errors; stopping");
}

TEST_CASE("parser: binary junk ends quickly with a bounded report") {
  std::string junk;
  uint32_t x = 12345;
  for (int i = 0; i < 1'000'000; ++i) {
    x = x * 1103515245 + 12345;
    junk += static_cast<char>(x >> 24);
  }
  Parsed p(junk);
  CHECK(p.diags.error_count() <= 21);
  CHECK(p.diags.has_errors());
}

// ---------------------------------------------------------------- shipped variants

TEST_CASE("parser: every shipped variant parses without errors") {
  namespace fs = std::filesystem;
  fs::path root = fs::path(RULEBOOK_SOURCE_DIR) / "variants";
  if (!fs::exists(root)) return;
  for (const auto& entry : fs::recursive_directory_iterator(root)) {
    if (entry.path().extension() != ".rules") continue;
    SourceSet sources;
    uint32_t id = 0;
    std::string error;
    REQUIRE(sources.load(entry.path().string(), id, error));
    Diagnostics diags;
    parse(sources, id, diags);
    INFO(entry.path().string());
    CHECK(diags.render(sources) == "");
  }
}
