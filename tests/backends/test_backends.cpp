// One language for every backend: every example of the docs and every shipped and lint
// rules file is accepted by `check` and then run alike by the interpreter and the generated
// engine and encoded by the verifier, or `check` rejects it with a located error.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <map>
#include <memory>
#include <regex>
#include <string>
#include <vector>

#include <catch2/catch.hpp>
#include <fmt/core.h>

#include "compiler/lower/lower.h"
#include "tests/backends/doc_examples.h"
#include "tests/random/differential.h"
#include "verifier/verify.h"

using namespace rulebook;
using namespace rulebook::testing;
namespace fs = std::filesystem;

namespace {

const std::string kRoot = RULEBOOK_SOURCE_DIR;

/// A whole program to run: its file name (for extends and diagnostics), its text, and
/// whether the verifier is asked about it here.
struct Program {
  std::string name, text;
  bool verify = true;
  /// An example spliced onto a shipped game: the verifier is asked only about the
  /// properties it adds (the base's are the report's, and too slow for this test).
  bool spliced = false;
  std::vector<std::string> only;
};

/// The names of the properties a rules text declares.
std::vector<std::string> property_names(const std::string& text) {
  static const std::regex decl(R"((?:^|\n)\s*(?:prove|find|derive|lemma|bound|invariant|consistent|redundant)\s+([A-Za-z_][A-Za-z0-9_]*))");
  std::vector<std::string> out;
  for (auto it = std::sregex_iterator(text.begin(), text.end(), decl); it != std::sregex_iterator(); ++it)
    out.push_back((*it)[1].str());
  return out;
}

std::vector<std::string> files_under(const std::string& dir, const std::string& ext, bool recurse) {
  std::vector<std::string> out;
  auto take = [&](const fs::directory_entry& e) {
    if (e.is_regular_file() && e.path().extension() == ext) out.push_back(e.path().string());
  };
  if (recurse) {
    for (const auto& e : fs::recursive_directory_iterator(dir)) take(e);
  } else {
    for (const auto& e : fs::directory_iterator(dir)) take(e);
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<Fence> all_fences() {
  std::vector<Fence> out;
  for (const std::string& page : files_under(kRoot + "/docs", ".md", false))
    for (Fence& f : read_fences(page)) out.push_back(std::move(f));
  return out;
}

/// Loads and lowers; the rendered diagnostics in `out`.
bool loads(const std::string& name, const std::string& text, std::string& out) {
  dsl::SourceSet sources;
  dsl::Diagnostics diags;
  const bool ok = compiler::load_program_text(name, text, sources, diags).has_value();
  out = diags.render(sources);
  return ok && !diags.has_errors();
}

bool located_error(const std::string& rendered) {
  static const std::regex located(R"(\.rules:[0-9]+:[0-9]+: error: )");
  return std::regex_search(rendered, located);
}

/// The programs of the docs' examples (whole, spliced into a base or a harness), and the
/// files quoted that are not shipped variants.
std::vector<Program> doc_programs() {
  std::vector<Program> out;
  for (const Fence& f : all_fences()) {
    Program p;
    if (f.kind == FenceKind::Whole) {
      p.name = kRoot + "/docs/" + fs::path(f.page).stem().string() + "_example_" + std::to_string(f.line) + ".rules";
      p.text = f.text;
    } else if (f.kind == FenceKind::Extends || f.kind == FenceKind::Hole) {
      std::string error;
      p.text = whole_program(f, kRoot, p.name, error);
      if (p.text.empty()) continue;  // reported by the test of the markers
      if (f.kind == FenceKind::Extends) {
        p.spliced = true;
        p.only = property_names(f.text);
        p.verify = !p.only.empty();
      }
    } else if (f.kind == FenceKind::Quoted && f.arg.rfind("variants/", 0) != 0) {
      p.name = kRoot + "/" + f.arg;
      p.text = read_text(p.name);
    } else {
      continue;
    }
    if (std::none_of(out.begin(), out.end(), [&](const Program& q) { return q.name == p.name; }))
      out.push_back(std::move(p));
  }
  return out;
}

/// Every program the test runs: the shipped variants (run by the verifier in the report,
/// where its budget is: too slow for this test), the lint goldens, the docs' examples and
/// the files of the issue's known cases.
std::vector<Program> all_programs() {
  std::vector<Program> out;
  for (const std::string& f : files_under(kRoot + "/variants", ".rules", true)) out.push_back({f, read_text(f), false});
  for (const std::string& f : files_under(kRoot + "/tests/golden/lint", ".rules", false))
    out.push_back({f, read_text(f), true});
  for (const std::string& f : files_under(kRoot + "/tests/backends/cases", ".rules", false))
    out.push_back({f, read_text(f), true});
  for (Program& p : doc_programs()) out.push_back(std::move(p));
  return out;
}

/// A set expression listing the values of domain `d`, "" when there is none to write.
std::string domain_text(const ir::Program& prog, int d) {
  using K = ir::Domain::Kind;
  if (d < 0) return "";
  const ir::Domain& dom = prog.domains[size_t(d)];
  switch (dom.kind) {
    case K::Bool: return "{true, false}";
    case K::Range: return fmt::format("{}..{}", dom.lo, dom.lo + int64_t(dom.size) - 1);
    case K::Cell: return "cells";
    case K::Point: return "points";
    case K::Player: return "players";
    case K::Team: return "teams";
    case K::Enum: {
      std::string s;
      for (const std::string& m : dom.members) s += (s.empty() ? "" : ", ") + m;
      return "{" + s + "}";
    }
    default: return "";
  }
}

/// Properties that read every define (whose parameters range over sets the language can
/// write), every rule and every move: what the verifier must encode besides the file's own
/// properties. `skipped` names the defines left out.
std::string probes(const ir::Program& prog, std::vector<std::string>& skipped) {
  std::string out = "consistent backends_probe_rules;\n";
  if (!prog.moves.empty()) out += "find backends_probe_moves over moves: true;\n";
  for (const ir::Function& f : prog.functions) {
    std::string binders, args;
    bool ok = true;
    for (size_t i = 0; i < f.params.size(); ++i) {
      const std::string d = f.params[i]->kind == ir::Type::Kind::Scalar ? domain_text(prog, f.params[i]->domain) : "";
      if (d.empty()) ok = false;
      binders += fmt::format("{}a{} in {}", i ? ", " : "", i, d);
      args += fmt::format("{}a{}", i ? ", " : "", i);
    }
    if (!ok) {
      skipped.push_back(f.name);
      continue;
    }
    const std::string call = f.params.empty() ? f.name : f.name + "(" + args + ")";
    const bool is_bool = f.result->kind == ir::Type::Kind::Scalar && f.result->domain >= 0 &&
                         prog.domains[size_t(f.result->domain)].kind == ir::Domain::Kind::Bool;
    const std::string probe = "backends_probe_" + f.name;
    // A derive takes one value; a collection is read through its size.
    const bool scalar = f.result->kind == ir::Type::Kind::Scalar;
    const std::string read = is_bool ? call : scalar ? call + " == " + call : "size(" + call + ") >= 0";
    if (f.params.empty() && scalar && !is_bool)
      out += fmt::format("derive {} over boards: {};\n", probe, call);
    else if (f.params.empty())
      out += fmt::format("find {} over boards: {};\n", probe, read);
    else
      out += fmt::format("find {} over boards: some {}: {};\n", probe, binders, read);
  }
  return out;
}

/// The verifier's results that say a construct is not handled.
std::string unsupported(const std::vector<verifier::Result>& results) {
  std::string out;
  for (const verifier::Result& r : results) {
    const std::string& d = r.detail;
    if (r.verdict == verifier::Verdict::Unsupported || d.find("not encoded") != std::string::npos ||
        d.find("unsupported") != std::string::npos || d.find("not supported") != std::string::npos)
      out += fmt::format("  {}: {}: {}\n", r.name, verifier::verdict_name(r.verdict), d);
  }
  return out;
}

std::vector<verifier::Result> run_verifier(const std::string& name, const std::string& text,
                                           const std::vector<std::string>& only, std::string& diags_out) {
  dsl::SourceSet sources;
  dsl::Diagnostics diags;
  auto p = compiler::load_program_text(name, text, sources, diags);
  diags_out = diags.render(sources);
  if (!p) return {};
  verifier::Options o;
  o.rlimit = 200000;
  o.timeout_seconds = 5;
  o.only = only;
  const auto t0 = std::chrono::steady_clock::now();
  std::vector<verifier::Result> out = verifier::verify(*p, sources, o);
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (s > 5) fmt::print(stderr, "{}: the verifier took {:.1f} s\n", name, s);  // the budget of the test
  return out;
}

}  // namespace

TEST_CASE("every rules example of the docs is marked and made whole", "[backends][docs]") {
  std::vector<std::string> shown_only;
  int count = 0;
  for (const Fence& f : all_fences()) {
    ++count;
    const std::string at = fmt::format("{}:{}", fs::path(f.page).filename().string(), f.line);
    INFO(at);
    std::string diags;
    switch (f.kind) {
      case FenceKind::Unmarked:
        FAIL_CHECK(at << ": no '<!-- example: ... -->' marker before the fence");
        break;
      case FenceKind::Whole: {
        const bool ok = loads(kRoot + "/docs/example.rules", f.text, diags);
        INFO(diags);
        CHECK(ok);
        break;
      }
      case FenceKind::Quoted: {
        const std::string file = kRoot + "/" + f.arg;
        REQUIRE(fs::is_regular_file(file));
        INFO("quoted from " << f.arg << ":\n" << f.text);
        CHECK(squeeze(read_text(file)).find(squeeze(f.text)) != std::string::npos);
        break;
      }
      case FenceKind::Extends:
      case FenceKind::Hole: {
        std::string name, error;
        const std::string text = whole_program(f, kRoot, name, error);
        INFO(error);
        REQUIRE(!text.empty());
        const bool ok = loads(name, text, diags);
        INFO(diags);
        CHECK(ok);
        break;
      }
      case FenceKind::Error: {
        // The example is a file of tests/golden (named by the marker) or stands alone.
        std::string name = kRoot + "/docs/example.rules", text = f.text;
        if (!f.arg.empty()) {
          name = kRoot + "/" + f.arg;
          text = read_text(name);
          CHECK(squeeze(text) == squeeze(f.text));
        }
        const bool ok = loads(name, text, diags);
        INFO(diags);
        CHECK_FALSE(ok);
        CHECK(located_error(diags));
        break;
      }
      case FenceKind::SyntaxOnly:
        shown_only.push_back(at + ": " + f.arg);
        break;
    }
  }
  CHECK(count > 50);
  for (const std::string& s : shown_only) WARN("shown, not run: " << s);
  CHECK(shown_only.size() <= 3);
}

TEST_CASE("every program: the interpreter and the generated engine agree", "[backends][engines]") {
  DiffOptions o;
  o.games = 3;
  o.max_plies = 60;
  o.max_perft_depth = 2;
  const std::vector<std::string> quick = o.flags;  // -O0: compiling dominates, behaviour is the same
  for (const Program& p : all_programs()) {
    // A shipped file's engine is built with the usual flags, as test_engines and the
    // report build it, so the cache serves it; the others compile faster unoptimised.
    const bool shipped = p.name.rfind(kRoot + "/variants/", 0) == 0 && !p.spliced;
    o.flags = shipped ? std::vector<std::string>{} : quick;
    DYNAMIC_SECTION(fs::relative(p.name, kRoot).string()) {
      const DiffResult r = run_differential(p.name, p.text, o);
      INFO(r.message);
      CHECK(r.kind == DiffResult::Agree);
      CHECK(r.message.empty());
      CHECK(r.perft_depth >= 1);
    }
  }
}

TEST_CASE("every program the verifier is asked about here encodes every property, define, rule and move",
          "[backends][verifier]") {
  for (const Program& p : all_programs()) {
    if (!p.verify) continue;
    DYNAMIC_SECTION(fs::relative(p.name, kRoot).string()) {
      std::string diags;
      const std::vector<verifier::Result> own = run_verifier(p.name, p.text, p.only, diags);
      INFO(diags);
      INFO(unsupported(own));
      CHECK(unsupported(own).empty());
      if (p.spliced) continue;  // the probes of a shipped base cost minutes

      dsl::SourceSet sources;
      dsl::Diagnostics d;
      auto prog = compiler::load_program_text(p.name, p.text, sources, d);
      REQUIRE(prog);
      std::vector<std::string> skipped;
      const std::string probe_name = (fs::path(p.name).parent_path() / "backends_probe.rules").string();
      const std::string text = fmt::format("variant \"probe\" extends \"{}\";\n{}", fs::path(p.name).filename().string(),
                                           probes(*prog, skipped));
      // The probe variant extends the file on disk: programs made in memory are not there.
      if (!fs::is_regular_file(p.name)) continue;
      const std::vector<verifier::Result> probed = run_verifier(probe_name, text, {}, diags);
      INFO(text);
      INFO(diags);
      CHECK_FALSE(probed.empty());
      INFO(unsupported(probed));
      CHECK(unsupported(probed).empty());
      for (const std::string& s : skipped) WARN(p.name << ": define " << s << " has a parameter no probe ranges over");
    }
  }
}

TEST_CASE("the constructs no backend runs are errors of check, located and with a hint", "[backends][check]") {
  // Issue 21's cases: a set of unbounded ints (refused by lowering), a derive of a set, a
  // Cell? from cell(y, x) used as a map key. A union of sets of sets runs everywhere
  // (tests/backends/cases/tictactoe_lines.rules, above).
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"set_of_unbounded_ints", "give ints a range"},
      {"derive_of_set", "help: derive its size"},
      {"optional_cell_as_key", "help: a Cell? may be none"},
  };
  for (const auto& c : cases) {
    const std::string path = kRoot + "/tests/golden/diagnostics/" + c.first + ".rules";
    std::string diags;
    const bool ok = loads(path, read_text(path), diags);
    INFO(diags);
    CHECK_FALSE(ok);
    CHECK(located_error(diags));
    CHECK(diags.find(c.second) != std::string::npos);
  }
}
