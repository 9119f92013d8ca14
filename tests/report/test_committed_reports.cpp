// The committed reports (reports/, the main job's output) against the rules they were made
// from: every shipped variant has a page made from its current files (digests compared), no
// property of a shipped file is one a backend cannot handle, every proof board satisfies the
// invariants its run proved, and no Garnsi proof board gives a player more pieces than they
// own at the start. A stale page fails here: rerun the main job (README).
#include <algorithm>
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
    const fs::path page = kRoot / "reports" / file.parent_path().filename() / (file.stem().string() + ".json");
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

TEST_CASE("no property of a shipped file is one a backend cannot handle, and every proof board satisfies the proved invariants") {
  size_t results = 0, marked = 0;
  for (const fs::path& file : shipped_files()) {
    const nlohmann::json j = read_json(kRoot / "reports" / file.parent_path().filename() / (file.stem().string() + ".json"));
    if (!j.contains("analysis") || !j["analysis"].contains("proofs")) continue;
    for (const nlohmann::json& r : j["analysis"]["proofs"]) {
      const std::string detail = r.value("detail", "");
      INFO(file.string() << ": " << r.value("property", "") << ": " << r.value("verdict", "") << ": " << detail);
      ++results;
      CHECK(r["verdict"] != "unsupported");
      CHECK(r["verdict"] != "error");
      for (const char* words : {"unsupported", "not encoded", "not supported"}) CHECK(detail.find(words) == std::string::npos);
      if (r.contains("board") && r["board"].contains("violates")) {
        ++marked;
        CHECK(r["board"]["violates"].empty());
      }
    }
  }
  CHECK(results >= 50);
  // Boards are marked only where the run proved invariants; say how many were.
  WARN(marked << " proof boards read against proved invariants");
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
    const nlohmann::json j = read_json(kRoot / "reports" / "garnsi-malom" / (file.stem().string() + ".json"));
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
