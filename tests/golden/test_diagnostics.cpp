// Golden diagnostics: every malformed input (or warned-about one, warn_*) yields exactly its
// expected text, never silence.
#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "compiler/lower/lower.h"
#include "dsl/check.h"
#include "dsl/load.h"

namespace fs = std::filesystem;
using namespace rulebook::dsl;

namespace {

const char* kCaseDir = "tests/golden/diagnostics";

std::string read_all(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

/// What `rulebook check` prints for `path` (relative to the source tree).
std::string check_output(const std::string& path, size_t& errors) {
  SourceSet sources;
  Diagnostics diags;
  const Game game = check_file(path, sources, diags);
  if (!diags.has_errors()) rulebook::compiler::lower_game(game, sources, diags);  // as the verb does
  errors = diags.error_count();
  return diags.render(sources);
}

std::vector<fs::path> cases() {
  std::vector<fs::path> out;
  for (const auto& entry : fs::directory_iterator(kCaseDir))
    if (entry.path().extension() == ".rules") out.push_back(entry.path());
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

TEST_CASE("every malformed input gives its exact diagnostics", "[golden]") {
  const bool update = std::getenv("RULEBOOK_UPDATE_GOLDEN") != nullptr;
  std::vector<fs::path> all = cases();
  CHECK(all.size() >= 40);
  for (const fs::path& input : all) {
    fs::path expected_path = input;
    expected_path.replace_extension(".expected");
    size_t errors = 0;
    std::string actual = check_output(input.generic_string(), errors);
    INFO("case: " << input.generic_string());
    // warn_*: a game without errors that the checker warns about; the others have errors.
    if (input.filename().string().rfind("warn_", 0) == 0) {
      CHECK(errors == 0);
      CHECK(actual.find(": warning[") != std::string::npos);
    } else {
      CHECK(errors > 0);
    }
    if (update) {
      std::ofstream(expected_path, std::ios::binary) << actual;
      continue;
    }
    REQUIRE(fs::exists(expected_path));
    CHECK(actual == read_all(expected_path));
  }
}

TEST_CASE("a 10 MB file is read and its error found on the right line", "[golden]") {
  // 10 MB of comment lines, then one bad declaration: the position must be exact.
  fs::path dir = fs::path(RULEBOOK_BINARY_DIR) / "golden";
  fs::create_directories(dir);
  fs::path big = dir / "ten_megabytes.rules";
  const std::string line = "// a comment line that is exactly sixty-four bytes long........\n";
  REQUIRE(line.size() == 64);
  const size_t lines = 10 * 1024 * 1024 / line.size();
  {
    std::ofstream out(big, std::ios::binary);
    out << "game \"big\";\n";
    for (size_t i = 0; i < lines; ++i) out << line;
    out << "board 4 x ;\n";
  }
  REQUIRE(fs::file_size(big) > 10 * 1024 * 1024);
  size_t errors = 0;
  std::string actual = check_output(big.string(), errors);
  CHECK(errors == 1);
  std::string where = big.string() + ":" + std::to_string(lines + 2) + ":11: error: ";
  CHECK(actual.rfind(where, 0) == 0);
}
