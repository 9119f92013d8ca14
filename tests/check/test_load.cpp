// Loading and merging: the extends-chain, override / remove, singletons, positions, cycles.
#include <catch2/catch.hpp>

#include "check_test_util.h"

using namespace rulebook::dsl;
using rulebook::dsl::testing::Checked;
using rulebook::dsl::testing::ScratchDir;

namespace {

const char* kBase =
    "game \"Base\";\n"
    "param n = 3;\n"
    "board n x n;\n"
    "players 2;\n"
    "state owner: Cell -> Player?;\n"
    "define empty(c: Cell): bool = owner[c] == none;\n"
    "rule tip_rule: true;\n"
    "rule side_rule: true;\n"
    "phase opening {\n"
    "  move place(c: Cell) requires empty(c); { owner[c] := mover; }\n"
    "  move pass { }\n"
    "  until false -> battle;\n"
    "}\n"
    "phase battle {\n"
    "  move step(from: Cell, to: Cell) requires owner[from] == mover; { owner[to] := mover; }\n"
    "}\n"
    "score p = count c in cells where owner[c] == p;\n"
    "winner highest;\n";

std::vector<std::string> keys(const LoadedGame& g) {
  std::vector<std::string> out;
  for (const MergedDecl& d : g.decls) {
    auto [kind, name] = decl_key(*d.decl);
    out.push_back(name.empty() ? kind : kind + " " + name);
  }
  return out;
}

struct Loaded {
  SourceSet sources;
  Diagnostics diags;
  LoadedGame game;
};

std::unique_ptr<Loaded> load(const std::string& path) {
  auto l = std::make_unique<Loaded>();
  l->game = load_game(path, l->sources, l->diags);
  return l;
}

}  // namespace

TEST_CASE("a game file loads as one chain entry with its declarations in order", "[load]") {
  ScratchDir dir;
  dir.write("base.rules", kBase);
  auto l = load("base.rules");
  CHECK(l->diags.render(l->sources) == "");
  REQUIRE(l->game.chain.size() == 1);
  CHECK(l->game.chain[0].path == "base.rules");
  CHECK(l->game.chain[0].extends == -1);
  CHECK(keys(l->game) == std::vector<std::string>{
                             "param n", "board", "players", "state owner", "define empty",
                             "rule tip_rule", "rule side_rule", "phase opening", "phase battle",
                             "score", "winner"});
}

TEST_CASE("a variant adds, overrides and removes declarations, keeping positions", "[load]") {
  ScratchDir dir;
  dir.write("rules/base.rules", kBase);
  dir.write("rules/house.rules",
            "variant \"House\" extends \"base.rules\";\n"
            "override param n = 5;\n"
            "rule extra: true;\n"
            "remove rule tip_rule;\n"
            "override rule side_rule: 1 == 1;\n"
            "override phase opening {\n"
            "  move place(c: Cell) { owner[c] := mover; }\n"
            "}\n"
            "override winner lowest;\n");
  auto l = load("rules/house.rules");
  CHECK(l->diags.render(l->sources) == "");
  REQUIRE(l->game.chain.size() == 2);
  CHECK(l->game.chain[0].path == "rules/base.rules");
  CHECK(l->game.chain[1].path == "rules/house.rules");
  CHECK(l->game.chain[1].extends == 0);
  // Overrides keep the base's place; new names go last; removed ones are gone.
  CHECK(keys(l->game) == std::vector<std::string>{
                             "param n", "board", "players", "state owner", "define empty",
                             "rule side_rule", "phase opening", "phase battle", "score",
                             "winner", "rule extra"});
  const MergedDecl& param = l->game.decls[0];
  CHECK(param.file == 1);
  CHECK(param.first != param.decl);
  const MergedDecl& opening = l->game.decls[6];
  CHECK(opening.file == 1);
  REQUIRE(opening.moves.size() == 1);  // the overriding phase has only `place`
  REQUIRE(l->game.removed.size() == 1);
  CHECK(l->game.removed[0].kind == "rule");
  CHECK(l->game.removed[0].name == "tip_rule");

  // Checking the merged game sees the overridden param.
  Diagnostics diags;
  Game g = check_game(std::move(l->game), l->sources, diags);
  CHECK(diags.error_count() == 0);
  // Both rules of the scratch files read `true`: the checker says they never apply.
  CHECK(diags.warning_count() == 2);
  for (const Diagnostic& d : diags.all()) CHECK(d.code == "rule-never-applies");
  CHECK(g.rows == 5);
  CHECK(g.columns == 5);
  CHECK(g.param_value("n") == 5);
  REQUIRE(g.files.size() == 2);
  CHECK(g.files[1].extends == "base.rules");
  CHECK(g.title == "House");
  CHECK(g.phases[0].name == "opening");  // an overridden phase does not move
}

TEST_CASE("override move replaces one move inside its phase", "[load]") {
  ScratchDir dir;
  dir.write("base.rules", kBase);
  dir.write("v.rules",
            "variant \"V\" extends \"base.rules\";\n"
            "override move step(from: Cell, to: Cell) requires from != to; { owner[to] := mover; }\n"
            "remove move pass;\n");
  auto l = load("v.rules");
  CHECK(l->diags.render(l->sources) == "");
  const MergedDecl* opening = nullptr;
  const MergedDecl* battle = nullptr;
  for (const MergedDecl& d : l->game.decls) {
    if (const auto* p = std::get_if<Phase>(&d.decl->body)) {
      if (p->name.name == "opening") opening = &d;
      if (p->name.name == "battle") battle = &d;
    }
  }
  REQUIRE(opening);
  REQUIRE(battle);
  CHECK(opening->moves.size() == 1);  // `pass` removed
  REQUIRE(battle->moves.size() == 1);
  CHECK(battle->moves[0]->requires_.size() == 1);
  CHECK(battle->moves[0]->name.span.file == l->game.chain.back().source);  // from v.rules
  CHECK(battle->file == 0);  // the phase itself still comes from the base
}

TEST_CASE("a name the base has needs override", "[load][diagnostics]") {
  ScratchDir dir;
  dir.write("base.rules", kBase);
  dir.write("v.rules",
            "variant \"V\" extends \"base.rules\";\n"
            "rule tip_rule: false;\n");
  auto l = load("v.rules");
  CHECK(l->diags.render(l->sources) ==
        "v.rules:2:6: error: 'tip_rule' is already defined in base.rules\n"
        "    2 | rule tip_rule: false;\n"
        "      |      ^~~~~~~~\n"
        "base.rules:7:6: note: 'tip_rule' is defined here\n"
        "    7 | rule tip_rule: true;\n"
        "      |      ^~~~~~~~\n"
        "help: write 'override rule tip_rule' to replace it\n");
  // The base's rule stays in effect.
  CHECK(l->game.decls.size() == 11);
}

TEST_CASE("singletons are replaced only with override", "[load][diagnostics]") {
  ScratchDir dir;
  dir.write("base.rules", kBase);
  dir.write("v.rules",
            "variant \"V\" extends \"base.rules\";\n"
            "board 4 x 4;\n"
            "override end when false;\n");
  auto l = load("v.rules");
  CHECK(l->diags.render(l->sources) ==
        "v.rules:2:1: error: 'board' is already defined in base.rules\n"
        "    2 | board 4 x 4;\n"
        "      | ^~~~~~~~~~~~\n"
        "base.rules:3:1: note: 'board' is defined here\n"
        "    3 | board n x n;\n"
        "      | ^~~~~~~~~~~~\n"
        "help: write 'override board' to replace it\n"
        "v.rules:3:1: error: nothing to override: no 'end when' in base.rules\n"
        "    3 | override end when false;\n"
        "      | ^~~~~~~~~~~~~~~~~~~~~~~~\n");
}

TEST_CASE("override and remove of a missing name suggest a close one", "[load][diagnostics]") {
  ScratchDir dir;
  dir.write("base.rules", kBase);
  dir.write("v.rules",
            "variant \"V\" extends \"base.rules\";\n"
            "override rule tip_rul: true;\n"
            "remove rule sde_rule;\n"
            "override move stap(c: Cell) { }\n");
  auto l = load("v.rules");
  CHECK(l->diags.render(l->sources) ==
        "v.rules:2:15: error: nothing to override: no rule named 'tip_rul' in base.rules\n"
        "    2 | override rule tip_rul: true;\n"
        "      |               ^~~~~~~\n"
        "help: did you mean 'tip_rule'?\n"
        "v.rules:3:13: error: nothing to remove: no rule named 'sde_rule' in base.rules\n"
        "    3 | remove rule sde_rule;\n"
        "      |             ^~~~~~~~\n"
        "help: did you mean 'side_rule'?\n"
        "v.rules:4:15: error: nothing to override: no move named 'stap' in base.rules\n"
        "    4 | override move stap(c: Cell) { }\n"
        "      |               ^~~~\n"
        "help: did you mean 'step'?\n");
}

TEST_CASE("override or remove of the wrong kind names the right one", "[load][diagnostics]") {
  ScratchDir dir;
  dir.write("base.rules", kBase);
  dir.write("v.rules", "variant \"V\" extends \"base.rules\";\nremove define tip_rule;\n");
  auto l = load("v.rules");
  REQUIRE(l->diags.error_count() == 1);
  CHECK(l->diags.all()[0].message == "nothing to remove: no define named 'tip_rule' in base.rules");
  CHECK(l->diags.all()[0].hint == "'tip_rule' is a rule: write 'remove rule tip_rule'");
}

TEST_CASE("a game file has nothing to override", "[load][diagnostics]") {
  ScratchDir dir;
  dir.write("g.rules", "game \"G\";\nboard 2 x 2;\noverride board 3 x 3;\n");
  auto l = load("g.rules");
  CHECK(l->diags.render(l->sources) ==
        "g.rules:3:1: error: nothing to override: this file is a game, not a variant\n"
        "    3 | override board 3 x 3;\n"
        "      | ^~~~~~~~~~~~~~~~~~~~~\n"
        "help: only a file that starts with 'variant \"...\" extends \"...\"' has a base\n");
}

TEST_CASE("a duplicate inside one file points at the first", "[load][diagnostics]") {
  ScratchDir dir;
  dir.write("g.rules", "game \"G\";\nboard 2 x 2;\nrule r: true;\nrule r: false;\n");
  auto l = load("g.rules");
  CHECK(l->diags.render(l->sources) ==
        "g.rules:4:6: error: 'r' is already defined\n"
        "    4 | rule r: false;\n"
        "      |      ^\n"
        "g.rules:3:6: note: first defined here\n"
        "    3 | rule r: true;\n"
        "      |      ^\n");
}

TEST_CASE("a missing base file is reported at the extends string", "[load][diagnostics]") {
  ScratchDir dir;
  dir.write("v.rules", "variant \"V\" extends \"nowhere.rules\";\nrule r: true;\n");
  auto l = load("v.rules");
  REQUIRE(l->diags.error_count() == 1);
  const Diagnostic& d = l->diags.all()[0];
  CHECK(d.message.rfind("cannot read 'nowhere.rules': ", 0) == 0);
  CHECK(d.message.find("cannot read", 5) == std::string::npos);  // said once
  Position pos = l->sources.position(d.span.file, d.span.begin);
  CHECK(pos.line == 1);
  CHECK(pos.column == 21);
  CHECK(l->sources.text(d.span) == "\"nowhere.rules\"");
  // What the variant itself declares is still there.
  CHECK(l->game.decls.size() == 1);
}

TEST_CASE("a file that cannot be read is one error", "[load][diagnostics]") {
  ScratchDir dir;
  auto l = load("absent.rules");
  REQUIRE(l->diags.error_count() == 1);
  CHECK(l->diags.all()[0].message.rfind("cannot read 'absent.rules'", 0) == 0);
  CHECK_FALSE(l->game.loaded);
  Diagnostics more;
  Game g = check_game(std::move(l->game), l->sources, more);
  CHECK(more.error_count() == 0);
}

TEST_CASE("cyclic extends names the cycle with a note at each extends", "[load][diagnostics]") {
  ScratchDir dir;
  dir.write("a.rules", "variant \"A\" extends \"b.rules\";\n");
  dir.write("b.rules", "variant \"B\" extends \"a.rules\";\n");
  auto l = load("a.rules");
  CHECK(l->diags.render(l->sources) ==
        "b.rules:1:21: error: cyclic extends: a.rules -> b.rules -> a.rules\n"
        "    1 | variant \"B\" extends \"a.rules\";\n"
        "      |                     ^~~~~~~~~\n"
        "a.rules:1:21: note: 'a.rules' extends 'b.rules' here\n"
        "    1 | variant \"A\" extends \"b.rules\";\n"
        "      |                     ^~~~~~~~~\n");
}

TEST_CASE("a file extending itself is a cycle of one", "[load][diagnostics]") {
  ScratchDir dir;
  dir.write("a.rules", "variant \"A\" extends \"./a.rules\";\n");
  auto l = load("a.rules");
  REQUIRE(l->diags.error_count() == 1);
  CHECK(l->diags.all()[0].message == "cyclic extends: a.rules -> a.rules");
}

TEST_CASE("a chain of three files applies each in turn", "[load]") {
  ScratchDir dir;
  dir.write("base.rules", kBase);
  dir.write("mid.rules", "variant \"Mid\" extends \"base.rules\";\noverride param n = 4;\nrule mid_rule: true;\n");
  dir.write("top.rules", "variant \"Top\" extends \"mid.rules\";\noverride rule mid_rule: false;\noverride param n = 6;\n");
  auto l = load("top.rules");
  CHECK(l->diags.render(l->sources) == "");
  REQUIRE(l->game.chain.size() == 3);
  CHECK(l->game.chain[2].extends == 1);
  CHECK(l->game.chain[1].extends == 0);
  CHECK(l->game.decls.size() == 12);
  CHECK(l->game.decls.back().file == 2);  // mid_rule, overridden by top.rules, stays last
  Diagnostics diags;
  Game g = check_game(std::move(l->game), l->sources, diags);
  CHECK(g.param_value("n") == 6);
  REQUIRE(g.files.size() == 3);
  CHECK(g.files[0].title == "Base");
  CHECK(g.files[2].title == "Top");
}

TEST_CASE("a removed name that is still used is unknown, with a note", "[load][diagnostics]") {
  ScratchDir dir;
  dir.write("base.rules", kBase);
  dir.write("v.rules", "variant \"V\" extends \"base.rules\";\nremove define empty;\n");
  Checked c;
  c.game = check_file("v.rules", c.sources, c.diags);
  CHECK(c.errors() ==
        "base.rules:10:32: error: unknown name 'empty'\n"
        "   10 |   move place(c: Cell) requires empty(c); { owner[c] := mover; }\n"
        "      |                                ^~~~~\n"
        "v.rules:2:1: note: define 'empty' was removed here\n"
        "    2 | remove define empty;\n"
        "      | ^~~~~~~~~~~~~~~~~~~~\n");
}
