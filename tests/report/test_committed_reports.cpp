// The committed reports (reports/, the main job's output) against the rules they were made
// from: every shipped variant has a page made from its current files (digests compared), no
// property of a shipped file is one a backend cannot handle, every proof board satisfies the
// invariants its run proved (read again by the interpreter from the board's bytes), and no
// Garnsi proof board gives a player more pieces than they own at the start. A stale page
// fails here: rerun the main job (README).
#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "compiler/interp/interpret.h"
#include "compiler/load/sha256.h"
#include "compiler/lower/lower.h"
#include "dsl/source.h"

namespace fs = std::filesystem;
using namespace rulebook;

namespace {

const fs::path kRoot = RULEBOOK_SOURCE_DIR;

/// The page data of a shipped rules file: reports/GAME/VARIANT.json, or under the folder
/// RULEBOOK_REPORTS names (a report made elsewhere, e.g. to try a change before the main job).
fs::path page_of(const fs::path& file) {
  const char* dir = std::getenv("RULEBOOK_REPORTS");
  return (dir ? fs::path(dir) : kRoot / "reports") / file.parent_path().filename() / (file.stem().string() + ".json");
}

std::vector<fs::path> shipped_files() {
  std::vector<fs::path> out;
  for (const auto& e : fs::recursive_directory_iterator(kRoot / "variants"))
    if (e.is_regular_file() && e.path().extension() == ".rules") out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

nlohmann::json read_json(const fs::path& p) {
  std::ifstream in(p);
  REQUIRE(in.good());
  return nlohmann::json::parse(in);
}

std::string read_text(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

const ir::StateVar* var(const ir::Program& p, const std::string& name) {
  for (const ir::StateVar& v : p.vars)
    if (v.name == name) return &v;
  return nullptr;
}

std::vector<uint8_t> state_bytes(const nlohmann::json& hex) {
  const std::string h = hex.get<std::string>();
  REQUIRE(h.size() % 2 == 0);
  std::vector<uint8_t> out;
  for (size_t i = 0; i < h.size(); i += 2) out.push_back(uint8_t(std::stoi(h.substr(i, 2), nullptr, 16)));
  return out;
}

/// Whether a boolean expression of `program` holds on `state`, read by the interpreter.
bool holds(const compiler::Interpreter& in, const ir::Property& inv, const std::vector<uint8_t>& state) {
  std::vector<uint8_t> s = state;
  compiler::Evaluator run(in);
  run.start(s.data(), std::max(64, inv.locals + 1));
  int64_t v = 0;
  return run.scalar(*inv.expr, v).ok && v != 0;
}

bool declared_invariant_holds(const compiler::Interpreter& in, const std::string& name, const std::vector<uint8_t>& state) {
  for (const ir::Property& q : in.program().properties)
    if (q.name == name && q.kind == ir::PropertyKind::Invariant) return holds(in, q, state);
  FAIL("no declared invariant " << name);
  return false;
}

/// A found invariant's formula (docs/verifier.md, Found invariants) on a board: its terms
/// `(if phase == X then 1 else 0)`, which the language has no word for, are replaced by the
/// board's phase as the interpreter reads it; the rest is the language's own expression,
/// checked and lowered in a variant of `file` that declares it, then evaluated there.
bool found_invariant_holds(const fs::path& file, const ir::Program& p, const compiler::Interpreter& in,
                           std::string formula, const std::vector<uint8_t>& state) {
  const int phase = in.phase(state.data());
  for (size_t ph = 0; ph < p.phases.size(); ++ph) {
    const std::string term = "(if phase == " + p.phases[ph].name + " then 1 else 0)";
    for (size_t at = formula.find(term); at != std::string::npos; at = formula.find(term))
      formula.replace(at, term.size(), 1, int(ph) == phase ? '1' : '0');
  }
  REQUIRE(formula.find("phase") == std::string::npos);
  const std::string text = "variant \"proof boards\" extends \"" + file.filename().string() +
                           "\";\ninvariant read_again: " + formula + ";\n";
  dsl::SourceSet sources;
  dsl::Diagnostics diags;
  auto q = compiler::load_program_text((file.parent_path() / "proof-boards.rules").string(), text, sources, diags);
  INFO(text);
  REQUIRE(q);
  REQUIRE(q->state_bytes == p.state_bytes);
  const compiler::Interpreter again(*q, sources);
  return declared_invariant_holds(again, "read_again", state);
}

/// What each player owns in Garnsi: the pieces of the start state (seed 1) on the board
/// (`owner`) and in hand (`in_hand`).
std::vector<int64_t> owned_at_start(const ir::Program& p, const dsl::SourceSet& sources) {
  const ir::StateVar* owner = var(p, "owner");
  const ir::StateVar* hand = var(p, "in_hand");
  REQUIRE(owner);
  REQUIRE(hand);
  compiler::Interpreter in(p, sources);
  std::vector<uint8_t> s(p.state_bytes, 0);
  engine::Setup setup;
  setup.seed = 1;
  REQUIRE(in.setup(s.data(), setup).ok);
  std::vector<int64_t> n(size_t(p.players), 0);
  for (uint32_t c = 0; c < owner->count; ++c) {
    const int64_t who = ir::domain_value(p.domains, owner->domain, ir::load_index(s.data(), *owner, c));
    if (who != ir::kNone && who >= 0 && who < p.players) ++n[size_t(who)];
  }
  for (uint32_t q = 0; q < hand->count && q < uint32_t(p.players); ++q)
    n[q] += ir::domain_value(p.domains, hand->domain, ir::load_index(s.data(), *hand, q));
  return n;
}

/// The pieces per player of a board as the report prints it: the `owner:` grid (one token
/// per cell, a player's name or `.`) and the line `in_hand = {p1: 9, ...}`.
std::map<std::string, int64_t> pieces_in_text(const std::string& text) {
  std::map<std::string, int64_t> n;
  std::istringstream lines(text);
  std::string line;
  bool grid = false;
  while (std::getline(lines, line)) {
    if (line == "owner:") {
      grid = true;
      continue;
    }
    if (grid && !line.empty() && line[0] == ' ') {
      std::istringstream cells(line);
      std::string token;
      while (cells >> token)
        if (token != ".") ++n[token];
      continue;
    }
    grid = false;
    if (line.rfind("in_hand = {", 0) == 0) {
      std::string body = line.substr(11, line.find('}') - 11);
      std::replace(body.begin(), body.end(), ',', ' ');
      std::istringstream pairs(body);
      std::string who;
      int64_t k = 0;
      while (pairs >> who >> k) n[who.substr(0, who.size() - 1)] += k;
    }
  }
  return n;
}

}  // namespace

TEST_CASE("every shipped variant has a report made from its current rules files") {
  size_t pages = 0;
  for (const fs::path& file : shipped_files()) {
    const fs::path page = page_of(file);
    INFO(page.string() << " (rerun the main job if it is missing or stale)");
    REQUIRE(fs::exists(page));
    const nlohmann::json j = read_json(page);
    CHECK(j.value("ok", false));
    REQUIRE(j.contains("sources"));
    REQUIRE(!j["sources"].empty());
    CHECK(fs::equivalent(kRoot / j["sources"][0]["file"].get<std::string>(), file));
    for (const nlohmann::json& s : j["sources"]) {
      const std::string name = s["file"];
      INFO(name);
      REQUIRE(fs::exists(kRoot / name));
      CHECK(s["sha256"] == compiler::sha256_hex(read_text(kRoot / name)));
    }
    ++pages;
  }
  CHECK(pages >= 20);
}

TEST_CASE("no property of a shipped file is one a backend cannot handle") {
  size_t results = 0;
  for (const fs::path& file : shipped_files()) {
    const nlohmann::json j = read_json(page_of(file));
    if (!j.contains("analysis") || !j["analysis"].contains("proofs")) continue;
    for (const nlohmann::json& r : j["analysis"]["proofs"]) {
      const std::string detail = r.value("detail", "");
      INFO(file.string() << ": " << r.value("property", "") << ": " << r.value("verdict", "") << ": " << detail);
      ++results;
      CHECK(r["verdict"] != "unsupported");
      CHECK(r["verdict"] != "error");
      for (const char* words : {"unsupported", "not encoded", "not supported"}) CHECK(detail.find(words) == std::string::npos);
    }
  }
  CHECK(results >= 50);
}

TEST_CASE("every proof board of the reports satisfies every invariant its run proved, read again by the interpreter") {
  // Not the report's own `violates`: each board's state bytes are loaded and each proved
  // invariant is evaluated on them by the interpreter. A declared invariant is the rules
  // file's own expression; a found one (`found: true`) is its formula as the page prints
  // it, read by the language's parser and checker in a variant of the file.
  size_t marked = 0, files = 0;
  for (const fs::path& file : shipped_files()) {
    const nlohmann::json j = read_json(page_of(file));
    if (!j.contains("analysis") || !j["analysis"].contains("proofs") || !j["analysis"]["proofs"].is_array()) continue;
    const nlohmann::json& rows = j["analysis"]["proofs"];
    std::vector<const nlohmann::json*> invariants;
    for (const nlohmann::json& r : rows)
      if (r["kind"] == "invariant" && r["verdict"] == "proved") invariants.push_back(&r);
    if (invariants.empty()) continue;
    INFO(file.string());
    dsl::SourceSet sources;
    dsl::Diagnostics diags;
    auto p = compiler::load_program(file.string(), sources, diags);
    REQUIRE(p);
    const compiler::Interpreter in(*p, sources);
    size_t here = 0;
    for (const nlohmann::json& r : rows) {
      if (!r.contains("board") || r["kind"] == "invariant") continue;  // an invariant's step board starts anywhere
      INFO(r["property"].get<std::string>() << " (" << r["verdict"].get<std::string>() << ")\n" << r["board"]["text"].get<std::string>());
      REQUIRE(r["board"].contains("state"));
      const std::vector<uint8_t> state = state_bytes(r["board"]["state"]);
      REQUIRE(state.size() == p->state_bytes);
      for (const nlohmann::json* inv : invariants) {
        const std::string name = (*inv)["property"];
        INFO("invariant " << name << ": " << (*inv)["description"].get<std::string>());
        if (inv->value("found", false))
          CHECK(found_invariant_holds(file, *p, in, (*inv)["description"], state));
        else
          CHECK(declared_invariant_holds(in, name, state));
      }
      // The report says the same.
      REQUIRE(r["board"].contains("violates"));
      CHECK(r["board"]["violates"].empty());
      ++here;
    }
    marked += here;
    files += here > 0;
  }
  // A floor, so that this cannot pass by having nothing to read: the shipped configuration
  // proves invariants for several folders (variants/report.json, `invariant_games`).
  CHECK(marked >= 5);
  CHECK(files >= 2);
  WARN(marked << " proof boards of " << files << " files read against the proved invariants");
}

TEST_CASE("no Garnsi proof board in the reports gives a player more pieces than they own") {
  size_t boards = 0;
  for (const fs::path& file : shipped_files()) {
    if (file.parent_path().filename() != "garnsi-malom") continue;
    INFO(file.string());
    dsl::SourceSet sources;
    dsl::Diagnostics diags;
    auto p = compiler::load_program(file.string(), sources, diags);
    REQUIRE(p);
    const std::vector<int64_t> owned = owned_at_start(*p, sources);
    const nlohmann::json j = read_json(page_of(file));
    if (!j.contains("analysis") || !j["analysis"].contains("proofs")) continue;
    for (const nlohmann::json& r : j["analysis"]["proofs"]) {
      if (!r.contains("board")) continue;
      const std::string text = r["board"]["text"];
      INFO(r.value("property", "") << "\n" << text);
      const std::map<std::string, int64_t> have = pieces_in_text(text);
      for (const auto& [who, k] : have) {
        const auto at = std::find(p->player_names.begin(), p->player_names.end(), who);
        INFO(who);
        REQUIRE(at != p->player_names.end());
        CHECK(k <= owned[size_t(at - p->player_names.begin())]);
      }
      ++boards;
    }
  }
  CHECK(boards >= 10);
}

TEST_CASE("the puzzles of the reports: the Moyo counts of the seed, SMYOZ entries 1 to 5 and 7 unique, the criteria as the proofs give them") {
  // The counts the seed's puzzles 1 to 6 have (RULES.md, moyo.rules' note), found again by
  // the report's own enumeration on every Moyo page.
  const std::map<std::string, uint64_t> moyo = {{"puzzle=1", 19},  {"puzzle=2", 33}, {"puzzle=3", 2252},
                                                {"puzzle=4", 359}, {"puzzle=5", 1},  {"puzzle=6", 1}};
  size_t moyo_rows = 0, smyoz_rows = 0;
  for (const fs::path& file : shipped_files()) {
    const nlohmann::json j = read_json(page_of(file));
    if (!j.contains("analysis") || !j["analysis"].contains("puzzles")) continue;
    INFO(file.string());
    const nlohmann::json& proofs = j["analysis"]["proofs"];
    for (const nlohmann::json& row : j["analysis"]["puzzles"]) {
      const std::string kv = row["setup"];
      INFO(kv);
      REQUIRE(row.contains("solutions"));
      if (file.stem() == "alternate-choosing") {
        // The Shima are claimed in play: which stones the givens are depends on state the
        // count ranges over, so the count stops at the page's limit ("at least"), even for
        // the seed's unique puzzles.
        REQUIRE(moyo.count(kv));
        CHECK(row["exact"] == false);
        CHECK(row["max_reached"] == true);
        CHECK(row["solutions"].get<uint64_t>() >= 2);
        CHECK(row["unique"] == "no");
        ++moyo_rows;
      } else if (file.parent_path().filename() == "sudoku-moyo") {
        REQUIRE(moyo.count(kv));
        CHECK(row["exact"] == true);
        CHECK(row["solutions"].get<uint64_t>() == moyo.at(kv));
        CHECK(row["unique"] == (moyo.at(kv) == 1 ? "proved" : "no"));
        ++moyo_rows;
      } else if (file.stem() == "smyoz-puzzles") {
        // Entries 1 to 5 and 7 are puzzles; entry 6 is entry 1 with other shots, two fleets
        // (tests/cli/smyoz_solutions_check.py checks the fleets listed apart from Z3).
        const bool two = kv == "puzzle=6";
        CHECK(row["exact"] == true);
        CHECK(row["solutions"] == (two ? 2 : 1));
        CHECK(row["unique"] == (two ? "no" : "proved"));
        CHECK(row["boards"].size() == (two ? 2 : 1));
        ++smyoz_rows;
      }
      // The criteria are the proof section's verdicts for this setup value, none left out.
      size_t read = 0;
      if (proofs.is_array())
        for (const nlohmann::json& p : proofs)
          if (p.contains("per_setup") && p["per_setup"].contains(kv)) {
            ++read;
            CHECK(row["criteria"][p["property"].get<std::string>()] == p["per_setup"][kv]);
          }
      CHECK(row["criteria"].size() == read);
    }
  }
  CHECK(moyo_rows == 7 * 6);
  CHECK(smyoz_rows == 7);
}
