// The checker's warnings and single-move edits of inherited phases: every shipped file
// checks without an unacknowledged warning, and the order of move edits is as documented.
#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "check_test_util.h"
#include "dsl/parser.h"
#include "dsl/printer.h"

using namespace rulebook::dsl;
using namespace rulebook::dsl::testing;

namespace {

const char* kBase =
    "game \"base\";\n"
    "board 4 x 4;\n"
    "players 2;\n"
    "state owner: Cell -> Player?;\n"
    "phase opening {\n"
    "  move place(c: Cell) { owner[c] := mover; }\n"
    "  move wait { }\n"
    "  until count c in cells where owner[c] != none >= 2 -> battle;\n"
    "}\n"
    "phase battle {\n"
    "  move take(c: Cell) requires owner[c] != none; { owner[c] := mover; }\n"
    "  move wait { }\n"
    "}\n"
    "end when count c in cells where owner[c] == none == 0;\n";

std::unique_ptr<Checked> variant(ScratchDir& dir, const std::string& body) {
  dir.write("base.rules", kBase);
  return check_text("variant \"v\" extends \"base.rules\";\n" + body, "v.rules");
}

/// "place wait" for a phase's moves after merging, each marked with its source line.
std::string moves_of(const Checked& c, const std::string& phase) {
  const PhaseInfo* p = c.game.phase(phase);
  if (!p) return "?";
  std::string out;
  for (const Move* m : p->moves) {
    if (!out.empty()) out += ' ';
    out += m->name.name + "@" + std::to_string(c.sources.position(m->name.span.file, m->name.span.begin).line) +
           (m->name.span.file == c.game.loaded.chain.back().source ? "v" : "b");
  }
  return out;
}

size_t warnings(const Diagnostics& d, const std::string& code) {
  return static_cast<size_t>(std::count_if(d.all().begin(), d.all().end(), [&](const Diagnostic& x) {
    return x.severity == Severity::Warning && x.code == code;
  }));
}

}  // namespace

TEST_CASE("a variant adds, overrides and removes one move of a named phase", "[warnings]") {
  ScratchDir dir;
  auto c = variant(dir,
                   "move pass in battle { }\n"
                   "override move wait in opening { }\n"
                   "remove move wait from battle;\n");
  INFO(c->errors());
  REQUIRE_FALSE(c->diags.has_errors());
  CHECK(moves_of(*c, "opening") == "place@6b wait@3v");
  CHECK(moves_of(*c, "battle") == "take@11b pass@2v");
}

TEST_CASE("the formatter prints the single-move forms and reads them back", "[warnings]") {
  const std::string text =
      "variant \"v\" extends \"base.rules\";\n"
      "move pass in battle { }\n"
      "override move wait in opening requires true; { }\n"
      "remove move wait from battle;\n";
  SourceSet sources;
  Diagnostics diags;
  auto tree = parse(sources, sources.add("v.rules", text), diags);
  REQUIRE(diags.render(sources) == "");
  const std::string printed = format_file(*tree);
  INFO(printed);
  CHECK(printed.find("move pass in battle {}") != std::string::npos);
  CHECK(printed.find("override move wait in opening\n") != std::string::npos);
  CHECK(printed.find("remove move wait from battle;") != std::string::npos);
  auto back = parse(sources, sources.add("w.rules", printed), diags);
  CHECK(diags.render(sources) == "");
  CHECK(same_tree(*tree, *back));
}

TEST_CASE("the all-phases forms keep their meaning", "[warnings]") {
  ScratchDir dir;
  auto c = variant(dir, "override move wait { }\nremove move wait;\n");
  INFO(c->errors());
  REQUIRE_FALSE(c->diags.has_errors());
  // The override reached both phases; the remove took it out of the first one only.
  CHECK(moves_of(*c, "opening") == "place@6b");
  CHECK(moves_of(*c, "battle") == "take@11b wait@2v");
}

TEST_CASE("an override of a phase replays earlier move edits, or warns", "[warnings]") {
  ScratchDir dir;
  SECTION("the new phase still has the move: the earlier override stays") {
    auto c = variant(dir,
                     "override move take(c: Cell) { owner[c] := none; }\n"
                     "move pass in battle { }\n"
                     "override phase battle {\n"
                     "  move take(c: Cell) { owner[c] := mover; }\n"
                     "}\n");
    INFO(c->errors());
    REQUIRE_FALSE(c->diags.has_errors());
    CHECK(moves_of(*c, "battle") == "take@2v pass@3v");
    CHECK(c->diags.warning_count() == 0);
  }
  SECTION("the new phase lacks it: dropped, with a warning on the phase") {
    auto c = variant(dir,
                     "override move take(c: Cell) { owner[c] := none; }\n"
                     "override phase battle {\n"
                     "  move wait { }\n"
                     "}\n");
    REQUIRE_FALSE(c->diags.has_errors());
    CHECK(moves_of(*c, "battle") == "wait@4v");
    CHECK(warnings(c->diags, "dropped-override") == 1);
  }
  SECTION("an allow acknowledges the drop") {
    auto c = variant(dir,
                     "override move take(c: Cell) { owner[c] := none; }\n"
                     "override phase battle {\n"
                     "  move wait { }\n"
                     "}\n"
                     "allow dropped-override battle \"take is gone on purpose\";\n");
    INFO(c->errors());
    CHECK(c->diags.warning_count() == 0);
  }
}

TEST_CASE("warnings need no errors and are about the loaded file", "[warnings]") {
  ScratchDir dir;
  // The base itself is clean; a variant's unused define warns, the base's names do not.
  dir.write("base.rules", kBase);
  auto base = check_text(kBase, "b.rules");
  CHECK(base->errors() == "");
  auto v = variant(dir, "define spare: int = 1;\n");
  CHECK(warnings(v->diags, "unused") == 1);
  auto broken = variant(dir, "define spare: int = nothing;\n");
  CHECK(broken->diags.has_errors());
  CHECK(broken->diags.warning_count() == 0);
}

TEST_CASE("every shipped file checks without an unacknowledged warning", "[warnings][variants]") {
  namespace fs = std::filesystem;
  fs::path root = fs::path(RULEBOOK_SOURCE_DIR) / "variants";
  std::vector<fs::path> files;
  for (const auto& dir : fs::directory_iterator(root)) {
    if (!dir.is_directory()) continue;
    for (const auto& f : fs::directory_iterator(dir.path()))
      if (f.path().extension() == ".rules") files.push_back(f.path());
  }
  std::sort(files.begin(), files.end());
  CHECK(files.size() >= 20);
  for (const fs::path& f : files) {
    SourceSet sources;
    Diagnostics diags;
    check_file(f.string(), sources, diags);
    INFO(diags.render(sources));
    CHECK(diags.error_count() == 0);
    CHECK(diags.warning_count() == 0);
  }
}
