// Generated engines under hostile names and text: C++ keywords, every identifier the
// emitter writes, numeric suffixes, derived-name collisions and one move in two phases
// compile and play as the interpreter does; a title or file name never reaches a comment.
#include <algorithm>
#include <filesystem>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include <catch2/catch.hpp>
#include <fmt/core.h>

#include "compiler/codegen/emit_cpp.h"
#include "compiler/codegen/emit_internal.h"
#include "compiler/interp/interpret.h"
#include "compiler/load/load_engine.h"
#include "compiler/lower/lower.h"
#include "explorer/playout.h"

using namespace rulebook;
namespace fs = std::filesystem;

namespace {

struct Rules {
  dsl::SourceSet sources;
  std::shared_ptr<const ir::Program> program;
};

std::unique_ptr<Rules> load(const std::string& name, const std::string& text) {
  auto r = std::make_unique<Rules>();
  dsl::Diagnostics diags;
  auto p = compiler::load_program_text(name, text, r->sources, diags);
  INFO(diags.render(r->sources));
  REQUIRE(p);
  r->program = std::make_shared<const ir::Program>(std::move(*p));
  return r;
}

/// `text` is a program the checker accepts.
bool accepted(const std::string& text) {
  dsl::SourceSet sources;
  dsl::Diagnostics diags;
  return compiler::load_program_text("probe.rules", text, sources, diags).has_value();
}

compiler::CompileOptions cache() {
  compiler::CompileOptions o;
  o.cache_dir = std::string(RULEBOOK_BINARY_DIR) + "/tests/emit/engine-cache";
  return o;
}

/// The compiled engine of `r` counts perft to `depth` and plays `games` seeded games as
/// the interpreter does.
void agree(const Rules& r, int depth, int games) {
  compiler::LoadedEngine le = compiler::load_engine(r.program, r.sources, cache());
  INFO(le.status.message);
  REQUIRE(le.engine);
  const engine::Engine& gen = *le.engine;
  compiler::Interpreter interp(*r.program, r.sources);
  std::vector<uint8_t> a(r.program->state_bytes), b(r.program->state_bytes);
  engine::Setup setup;
  setup.seed = 1;
  REQUIRE(gen.setup(a.data(), setup).ok);
  REQUIRE(interp.setup(b.data(), setup).ok);
  REQUIRE(a == b);
  for (int d = 1; d <= depth; ++d) {
    uint64_t want = 0, got = 0;
    REQUIRE(interp.perft(b.data(), d, want).ok);
    REQUIRE(gen.perft(a.data(), d, got).ok);
    INFO("perft depth " << d);
    CHECK(got == want);
    CHECK(want > 0);
  }
  for (int game = 1; game <= games; ++game) {
    explorer::PlayoutOptions opt{uint64_t(game), 200};
    explorer::Playout x = explorer::random_playout(gen, a.data(), opt);
    explorer::Playout y = explorer::random_playout(interp, b.data(), opt);
    INFO("game " << game << ": " << x.status.message << " | " << y.status.message);
    REQUIRE(x.status.ok);
    REQUIRE(y.status.ok);
    REQUIRE(x.steps.size() == y.steps.size());
    for (size_t i = 0; i < x.steps.size(); ++i) {
      REQUIRE(x.steps[i].move == y.steps[i].move);
      REQUIRE(x.steps[i].hash == y.steps[i].hash);
    }
    CHECK(x.last == y.last);
    CHECK(x.scores == y.scores);
  }
}

/// The game every name test builds on: two players mark the cells of a 2 x 2 board in
/// turn. `decls`, `requires` (lines of the move) and `body` (statements) add to it; its
/// own names start with `zq`, which no name tested does.
std::string game(const std::string& decls, const std::string& requires_, const std::string& body,
                 const std::string& score = "0") {
  return fmt::format(R"(game "names";
board 2 x 2;
players 2;
state zqmark: Cell -> 0..2;
{}
phase zqplay {{
  move zqput(zqc: Cell)
    requires zqmark[zqc] == 0;
{}
  {{
    zqmark[zqc] := seat(mover);
{}
  }}
  when stuck {{ end; }}
}}
score p = (count zqd in cells where zqmark[zqd] == seat(p)) + ({}) * 0;
winner highest;
)",
                     decls, requires_, body, score);
}

/// C++ keywords and names of the C++ library the generated file includes.
const char* const kCppWords[] = {
    "alignas", "alignof", "asm", "auto", "bitand", "bitor", "break", "case", "catch", "char",
    "char8_t", "char16_t", "char32_t", "class", "compl", "concept", "const", "consteval",
    "constexpr", "constinit", "const_cast", "continue", "co_await", "co_return", "co_yield",
    "decltype", "default", "delete", "do", "double", "dynamic_cast", "enum", "explicit",
    "export", "extern", "float", "friend", "goto", "inline", "long", "mutable", "namespace",
    "new", "noexcept", "not_eq", "nullptr", "operator", "or_eq", "private", "protected",
    "public", "register", "reinterpret_cast", "return", "short", "signed", "sizeof",
    "static", "static_assert", "static_cast", "struct", "switch", "template", "this",
    "thread_local", "throw", "try", "typedef", "typeid", "typename", "union", "unsigned",
    "using", "virtual", "void", "volatile", "wchar_t", "while", "xor", "xor_eq", "final",
    "override", "main", "std", "size_t", "uint8_t", "uint16_t", "uint32_t", "uint64_t",
    "int64_t", "int32_t", "memcpy", "memset", "printf", "fopen", "NULL", "EOF", "errno",
    "assert", "abort", "exit", "_Bool", "__func__", "_A", "_x41", "_u", "a__b", "a_"};

/// Names built to collide with what a naive scheme derives: numeric suffixes, a name and
/// a derived name of it, the emitter's own prefixes and suffixes.
const char* const kDerivedWords[] = {
    "c_1", "c_2", "x_2", "v_1", "m", "m_checked", "f", "f_compute", "f_table", "Table_f",
    "can_m", "gen_m", "apply_m", "legal_m", "search_m", "play_m", "restore_m", "board_ok_m",
    "define_f", "compute_f", "tabulate_f", "cancheck_m", "clause_r", "put_over", "over",
    "passes", "mover", "out", "phase_", "var_over", "overis", "v0", "v1", "q0", "q1", "a0",
    "i0", "i1", "mask1", "it0", "x_u1", "c_u1", "s", "g", "t", "k", "n", "i", "r", "u",
    "sink", "player", "saved", "value", "scratch", "table", "at", "old", "held", "found",
    "verdict", "moves", "known", "memo", "scope", "kNone", "Int", "Bits", "List", "Game",
    "State", "RuleScope", "Sink", "Exists", "RuleError", "fail", "fail_value", "union0",
    "derived0", "kTable0", "kFilter0", "kWidth", "kPlayers", "idx_d0", "val_d0", "chk_d0",
    "full_d0", "load", "save", "settle", "report", "open", "Last", "bit"};

/// The identifiers of a generated source (`whole`), and the parts after their underscores
/// (`parts`: so that KIND_name forms are tried too).
void identifiers(const std::string& source, std::set<std::string>& whole, std::set<std::string>& parts) {
  auto ident = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
  for (size_t i = 0; i < source.size();) {
    if (source[i] == '"') {  // a string literal: text, not names
      for (++i; i < source.size() && source[i] != '"' && source[i] != '\n'; ++i)
        if (source[i] == '\\') ++i;
      ++i;
      continue;
    }
    if (source.compare(i, 2, "//") == 0) {  // a comment
      i = source.find('\n', i);
      continue;
    }
    if (source[i] == '\'') {  // a character literal
      i += source[i + 1] == '\\' ? 4 : 3;
      continue;
    }
    if (!ident(source[i]) || std::isdigit(static_cast<unsigned char>(source[i]))) {
      while (i < source.size() && ident(source[i])) ++i;
      ++i;
      continue;
    }
    size_t j = i;
    while (j < source.size() && ident(source[j])) ++j;
    const std::string w = source.substr(i, j - i);
    whole.insert(w);
    for (size_t u = w.find('_'); u != std::string::npos; u = w.find('_', u + 1))
      if (u + 1 < w.size() && !std::isdigit(static_cast<unsigned char>(w[u + 1]))) parts.insert(w.substr(u + 1));
    i = j;
  }
}

/// The names to try, those the checker accepts as a state's name: the lists above, then
/// the identifiers the emitter writes for two shipped games, then the parts of them after
/// an underscore; at most `cap` (an engine of a thousand moves takes minutes to compile).
std::vector<std::string> hostile_names(size_t cap) {
  std::set<std::string> whole, parts;
  for (const char* path : {"/variants/garnsi-malom/garnsi-6x6.rules", "/variants/smyoz/smyoz.rules"}) {
    dsl::SourceSet sources;
    dsl::Diagnostics diags;
    auto p = compiler::load_program(std::string(RULEBOOK_SOURCE_DIR) + path, sources, diags);
    REQUIRE(p);
    const compiler::EmittedCpp e = compiler::emit_cpp(*p, sources);
    REQUIRE(e.error == "");
    identifiers(e.source, whole, parts);
  }
  std::vector<std::string> order(std::begin(kCppWords), std::end(kCppWords));
  order.insert(order.end(), std::begin(kDerivedWords), std::end(kDerivedWords));
  // Identifiers and parts in turn, each spread over its whole range.
  const std::vector<std::string> w(whole.begin(), whole.end()), q(parts.begin(), parts.end());
  const size_t n = std::max(w.size(), q.size());
  for (size_t k = 0; k < n; ++k) {
    const size_t at = (k * 7919) % n;  // a prime step: every index once, spread out
    if (at < w.size()) order.push_back(w[at]);
    if (at < q.size()) order.push_back(q[at]);
  }
  std::vector<std::string> out;
  std::set<std::string> seen;
  for (const std::string& n : order) {
    if (out.size() >= cap) break;
    if (n.rfind("zq", 0) == 0 || n.size() > 40 || !seen.insert(n).second) continue;
    if (accepted(game(fmt::format("state {}: 0..3;", n), "", ""))) out.push_back(n);
  }
  return out;
}

std::string join(const std::vector<std::string>& v, const char* sep) {
  std::string s;
  for (const std::string& x : v) s += (s.empty() ? "" : sep) + x;
  return s;
}

/// The sum of `terms` as defines of at most 40 terms each (a sum of hundreds nests too
/// deep for the parser): their declarations go to `decls`, the sum of them is returned.
std::string sum_of(const std::vector<std::string>& terms, std::vector<std::string>& decls) {
  std::vector<std::string> parts;
  for (size_t at = 0; at < terms.size(); at += 40) {
    const std::vector<std::string> chunk(terms.begin() + long(at),
                                         terms.begin() + long(std::min(terms.size(), at + 40)));
    parts.push_back(fmt::format("zqsum{}", at / 40));
    decls.push_back(fmt::format("define {}: int = {};", parts.back(), join(chunk, " + ")));
  }
  return parts.empty() ? "0" : join(parts, " + ");
}

}  // namespace

TEST_CASE("no identifier the emitter makes starts like one made of a user name", "[emit][names]") {
  // Every identifier with a prefix of the naming scheme is that prefix and the mapped name
  // of something in the rules, or a member ending in `_` (which no mapped name does).
  const char* const kPrefixes[] = {"var_", "put_var_", "define_", "compute_", "tabulate_", "Table_",
                                   "gen_", "apply_", "legal_", "board_ok_", "search_", "can_",
                                   "cancheck_", "play_", "restore_", "clause_"};
  for (const char* path : {"/variants/garnsi-malom/garnsi-6x6.rules", "/variants/smyoz/smyoz.rules",
                           "/variants/sudoku-cards/cards.rules", "/variants/sudoku-moyo/moyo.rules"}) {
    dsl::SourceSet sources;
    dsl::Diagnostics diags;
    auto p = compiler::load_program(std::string(RULEBOOK_SOURCE_DIR) + path, sources, diags);
    REQUIRE(p);
    std::set<std::string> mapped;
    for (const ir::StateVar& v : p->vars) mapped.insert(compiler::emit::escaped_name(v.name));
    for (const ir::Function& f : p->functions) mapped.insert(compiler::emit::escaped_name(f.name));
    for (size_t m = 0; m < p->moves.size(); ++m) {
      mapped.insert(compiler::emit::escaped_name(p->moves[m].name));
      mapped.insert(fmt::format("{}_{}", m, compiler::emit::escaped_name(p->moves[m].name)));
    }
    for (const ir::Rule& r : p->rules) mapped.insert(compiler::emit::escaped_name(r.name));
    std::set<std::string> whole, parts;
    identifiers(compiler::emit_cpp(*p, sources).source, whole, parts);
    size_t seen = 0;
    for (const std::string& id : whole) {
      for (const char* prefix : kPrefixes) {
        if (id.rfind(prefix, 0) != 0) continue;
        const std::string rest = id.substr(std::string(prefix).size());
        if (rest.empty() || rest.back() == '_') continue;  // a member, or `cancheck_*` in a comment
        if (id == "legal_moves") continue;  // a member of the ABI's rb_engine (plugin_abi.h)
        INFO(path << ": " << id);
        CHECK(mapped.count(rest) == 1);
        ++seen;
      }
    }
    CHECK(seen > 10);
  }
}

TEST_CASE("hostile names: the ones the checker accepts include every kind tried", "[emit][names]") {
  const std::vector<std::string> names = hostile_names(100000);
  for (const char* must : {"over", "passes", "m", "m_checked", "f", "f_compute", "c_1", "class",
                           "return", "g", "sink", "can_m", "gen_m", "put_over", "define_f"})
    CHECK(std::find(names.begin(), names.end(), must) != names.end());
  CHECK(names.size() > 1000);
}

TEST_CASE("hostile names as states and defines compile and play as the interpreter does",
          "[emit][names]") {
  const std::vector<std::string> names = hostile_names(400);
  std::vector<std::string> decls, sum, requires_, body;
  for (size_t k = 0; k < names.size(); ++k) {
    const std::string& n = names[k];
    decls.push_back(fmt::format("state {}: 0..3;", n));
    body.push_back(fmt::format("    {} := if {} < 3 then {} + 1 else 0;", n, n, n));
    sum.push_back(n);
  }
  const std::string state_sum = sum_of(sum, decls);
  auto states = load("states.rules", game(join(decls, "\n"), "", join(body, "\n"), state_sum));
  agree(*states, 4, 3);

  // Defines: pure ones of a small parameter (a table and its compute function), ones
  // reading the state (remembered), and parameterless ones.
  decls.clear(), sum.clear(), requires_.clear();
  for (size_t k = 0; k < names.size(); ++k) {
    const std::string& n = names[k];
    switch (k % 3) {
      case 0:
        decls.push_back(fmt::format("define {}(zqa: Cell): int = x(zqa) + y(zqa);", n));
        requires_.push_back(fmt::format("    requires {}(zqc) >= 0;", n));
        break;
      case 1:
        decls.push_back(fmt::format("define {}(zqa: Cell): bool = zqmark[zqa] == 0;", n));
        requires_.push_back(fmt::format("    requires {}(zqc);", n));
        break;
      default:
        decls.push_back(fmt::format("define {}: int = count zqa in cells where zqmark[zqa] != 0;", n));
        sum.push_back(n);
    }
  }
  const std::string define_sum = sum_of(sum, decls);
  auto defines = load("defines.rules", game(join(decls, "\n"), join(requires_, "\n"), "", define_sum));
  agree(*defines, 4, 3);
}

TEST_CASE("hostile names as moves, parameters and binders play as the interpreter does",
          "[emit][names]") {
  const std::vector<std::string> names = hostile_names(400);
  // Moves: every name a move of its own; each is played once, in any order, and `can`
  // asks for two of them. (The names that meet the functions made of a move's name, and
  // keywords: an engine's compile time grows with the square of the moves in a phase, and
  // 80 moves take a minute and a half.)
  const std::vector<std::string> chosen = {
      "m", "m_checked", "can_m", "cancheck_m", "gen_m", "apply_m", "legal_m", "search_m",
      "play_m", "restore_m", "board_ok_m", "checked", "moves", "kind", "over", "passes",
      "class", "return", "delete", "new", "this", "operator", "static", "g", "sink", "player",
      "t", "bit", "found", "saved", "bytes", "kept"};
  std::vector<std::string> moves;
  for (size_t k = 0; k < chosen.size(); ++k) {
    moves.push_back(fmt::format("  move {}\n    requires zqlast != {} and zqturns < 3;\n  {{\n"
                                "    zqlast := {};\n    zqturns += 1;\n  }}",
                                chosen[k], k, k));
  }
  const std::string move_text = fmt::format(R"(game "moves";
board 1 x 1;
players 2;
state zqlast: 0..{};
state zqturns: 0..3;
state zqasked: bool;
phase zqplay {{
{}
  move zqprobe
    requires zqturns == 2 and not zqasked and can({}) and can({}, p1);
  {{
    zqasked := true;
  }}
}}
end when zqturns == 3;
score p = if zqasked then zqlast else 0;
winner highest;
)",
                                            moves.size(), join(moves, "\n"), chosen[0], chosen[1]);
  auto m = load("moves.rules", move_text);
  agree(*m, 2, 3);

  // Locals: every name a parameter of a define, beside a binder named after the next
  // name (and the binder of the next define named after this parameter).
  std::vector<std::string> decls, requires_;
  for (size_t k = 0; k < names.size(); ++k) {
    const std::string& n = names[k];
    const std::string& b = names[(k + 1) % names.size()];
    decls.push_back(fmt::format(
        "define zqd{}({}: Cell): bool = zqmark[{}] == 0 and (count {} in cells where {} != {} and zqmark[{}] == 0) >= 0;",
        k, n, n, b, b, n, b));
    requires_.push_back(fmt::format("    requires zqd{}(zqc);", k));
  }
  auto locals = load("locals.rules", game(join(decls, "\n"), join(requires_, "\n"), ""));
  agree(*locals, 4, 3);
}

TEST_CASE("a parameter named like a numbered binder keeps its own value", "[emit][names]") {
  // The binder `c` of slot 1 and the parameter `c_1` were one C++ name: the `where` (not
  // a mask, so tested with the binder in scope) then compared the parameter with itself,
  // and perft(2) was 0 where the interpreter counts 12.
  auto r = load("binder.rules", R"(game "binder";
board 2 x 2;
players 2;
state zqmark: Cell -> 0..2;
phase zqplay {
  move put(c_1: Cell)
    requires zqmark[c_1] == 0;
  {
    for c in cells where zqmark[c] + x(c) == zqmark[c_1] + x(c_1) and c == c_1 {
      zqmark[c] := seat(mover);
    }
  }
  when stuck { end; }
}
score p = count d in cells where zqmark[d] == seat(p);
winner highest;
)");
  agree(*r, 4, 5);
  compiler::Interpreter interp(*r->program, r->sources);
  std::vector<uint8_t> s(r->program->state_bytes);
  REQUIRE(interp.setup(s.data(), {}).ok);
  uint64_t n = 0;
  REQUIRE(interp.perft(s.data(), 2, n).ok);
  CHECK(n == 12);
}

TEST_CASE("one move name in two phases, and names of derived functions", "[emit][names]") {
  auto r = load("phases.rules", R"(game "phases";
board 2 x 2;
players 2;
state over: 0..3;
state passes: 0..3;
state zqmark: Cell -> 0..2;
define f(c: Cell): int = x(c) + 2 * y(c);
define f_compute(c: Cell): bool = f(c) < 3;
define f_table: int = count c in cells where zqmark[c] != 0;
phase first {
  move m(c: Cell)
    requires zqmark[c] == 0 and f_compute(c);
  {
    zqmark[c] := seat(mover);
    over := if over < 3 then over + 1 else 3;
  }
  move m_checked
    requires can(m) and f_table == 0;
  {
    passes := 1;
  }
  until f_table >= 2 -> second;
}
phase second {
  move m(c: Cell)
    requires zqmark[c] == 0;
  {
    zqmark[c] := seat(mover);
    passes := if passes < 3 then passes + 1 else 3;
  }
  when stuck { end; }
}
score p = (count c in cells where zqmark[c] == seat(p)) + over + passes;
winner highest;
)");
  agree(*r, 4, 10);
}

TEST_CASE("titles, descriptions and file names reach generated C++ only as string literals",
          "[emit][names]") {
  // Bytes the text holds: newline, CR, a comment end, quotes, backslashes, other control
  // bytes, `??` and UTF-8; and C++ that would run if the text became code.
  const std::string title = "TITLEX\\nint injected_title = 1; // \\\" */ \\\\ ?\?/ \r end";
  const std::string text = fmt::format(R"(game "{}";
board 2 x 2;
players 2;
state zqmark: Cell -> 0..2;
rule zqrule "{}" on zqput(zqc): zqmark[zqc] == 0;
phase zqplay {{
  move zqput(zqc: Cell)
    requires zqmark[zqc] == 0;
  {{
    zqmark[zqc] := seat(mover);
  }}
  when stuck {{ end; }}
}}
score p = count zqd in cells where zqmark[zqd] == seat(p);
winner highest;
metric zqm "{}" = 1 at end;
)",
                                       title, "DESCX \\n*/ fopen(\\\"INJECTED\\\")", "METRICX\\n\r*/");
  const std::string file = "FILEX\nird\r*/ \"q\" \\ \xc3\xa9.rules";
  auto r = load(file, text);
  // Bytes a rules file may not get past the checker, put in as the title would hold them.
  const_cast<ir::Program&>(*r->program).title += "\x01\x1b\x07\x7f\xc3\xa9\t\v\f ?\?= end";
  const compiler::EmittedCpp e = compiler::emit_cpp(*r->program, r->sources);
  REQUIRE(e.error == "");
  for (size_t i = 0; i < e.source.size(); ++i) {
    const auto c = static_cast<unsigned char>(e.source[i]);
    INFO("byte " << i << " is " << int(c));
    REQUIRE((c == '\n' || (c >= 0x20 && c <= 0x7e)));
  }
  // No comment holds any of the text: the comments of every line, past the string
  // literals before them.
  size_t comments = 0;
  for (size_t at = 0; at < e.source.size();) {
    size_t end = e.source.find('\n', at);
    if (end == std::string::npos) end = e.source.size();
    const std::string line = e.source.substr(at, end - at);
    at = end + 1;
    bool in_string = false;
    for (size_t i = 0; i + 1 < line.size(); ++i) {
      if (in_string) {
        if (line[i] == '\\') ++i;
        else if (line[i] == '"') in_string = false;
        continue;
      }
      if (line[i] == '"') in_string = true;
      if (line[i] == '/' && line[i + 1] == '/') {
        const std::string comment = line.substr(i);
        ++comments;
        INFO(comment);
        for (const char* bad : {"injected", "INJECTED", "TITLEX", "DESCX", "METRICX", "FILEX", "ird",
                                "zq", ".rules", "*/", "??", "\\"})
          CHECK(comment.find(bad) == std::string::npos);
        break;
      }
    }
  }
  CHECK(comments > 50);
  // The engine compiles, loads and reports the title as written.
  compiler::LoadedEngine le = compiler::load_engine(r->program, r->sources, cache());
  INFO(le.status.message);
  REQUIRE(le.engine);
  CHECK(le.engine->info().title == r->program->title);
  CHECK(r->program->title.find('\n') != std::string::npos);
  agree(*r, 4, 2);
}
