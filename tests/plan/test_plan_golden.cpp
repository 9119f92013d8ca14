// Golden engine plans: `rulebook plan` of every shipped variant is exactly its
// tests/golden/plan/GAME__VARIANT.plan. RULEBOOK_UPDATE_GOLDEN=1 rewrites them.
#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "compiler/lower/lower.h"
#include "compiler/plan/engine_plan.h"

namespace fs = std::filesystem;
using namespace rulebook;

namespace {

std::string read_all(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

/// variants/GAME/VARIANT.rules, sorted.
std::vector<fs::path> variants() {
  std::vector<fs::path> out;
  for (const auto& game : fs::directory_iterator("variants"))
    if (game.is_directory())
      for (const auto& f : fs::directory_iterator(game.path()))
        if (f.path().extension() == ".rules") out.push_back(f.path());
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

TEST_CASE("every shipped variant's engine plan is its golden file", "[plan][golden]") {
  const bool update = std::getenv("RULEBOOK_UPDATE_GOLDEN") != nullptr;
  const std::vector<fs::path> all = variants();
  CHECK(all.size() >= 21);
  for (const fs::path& rules : all) {
    const std::string name =
        rules.parent_path().filename().string() + "__" + rules.stem().string();
    INFO("variant: " << rules.generic_string());
    dsl::SourceSet sources;
    dsl::Diagnostics diags;
    auto program = compiler::load_program(rules.generic_string(), sources, diags);
    REQUIRE(program);
    const std::string plan = compiler::plan::print_plan(compiler::plan::make_plan(*program), *program);
    const fs::path golden = fs::path("tests/golden/plan") / (name + ".plan");
    if (update) {
      fs::create_directories(golden.parent_path());
      std::ofstream(golden, std::ios::binary) << plan;
      continue;
    }
    REQUIRE(fs::exists(golden));
    CHECK(plan == read_all(golden));
  }
}
