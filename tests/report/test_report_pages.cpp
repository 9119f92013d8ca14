// Opens reports/index.html and every page it links in headless Chromium: each page must
// load and log nothing to the console; a variant's page must hold its diagrams (svg
// elements in the DOM), the page of what a variant changes its declarations. Chromium
// missing is a failure (tools/install-deps installs it), never a skip.
#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <regex>
#include <string>

#include <catch2/catch.hpp>

namespace fs = std::filesystem;

namespace {

struct Run {
  int status = -1;
  std::string out, err;
};

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

/// Runs `command` with stdout and stderr captured in files of a scratch folder.
Run run(const std::string& command, const fs::path& scratch) {
  Run r;
  const fs::path out = scratch / "out.txt", err = scratch / "err.txt";
  r.status = std::system((command + " >" + out.string() + " 2>" + err.string()).c_str());
  r.out = slurp(out);
  r.err = slurp(err);
  return r;
}

std::string chromium() {
  for (const char* name : {"chromium", "chromium-browser"}) {
    if (std::system((std::string("command -v ") + name + " >/dev/null 2>&1").c_str()) == 0) return name;
  }
  return "";
}

size_t count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

}  // namespace

TEST_CASE("every report page loads in headless Chromium with its diagrams and no console error") {
  const std::string browser = chromium();
  INFO("chromium is not installed: run tools/install-deps (Debian package chromium)");
  REQUIRE(!browser.empty());
  const fs::path reports = fs::path(RULEBOOK_SOURCE_DIR) / "reports";
  const fs::path index = reports / "index.html";
  REQUIRE(fs::exists(index));
  const fs::path scratch = fs::path(RULEBOOK_BINARY_DIR) / "tests" / "report" / "chromium";
  fs::create_directories(scratch / "profile");

  std::vector<fs::path> pages{index};
  const std::string index_html = slurp(index);
  const std::regex link("href=\"([^\"]+\\.html)\"");
  for (auto it = std::sregex_iterator(index_html.begin(), index_html.end(), link); it != std::sregex_iterator(); ++it)
    pages.push_back(reports / (*it)[1].str());
  REQUIRE(pages.size() > 5);

  for (const fs::path& page : pages) {
    INFO(page.string());
    REQUIRE(fs::exists(page));
    const std::string command = browser + " --headless --disable-gpu --no-sandbox --no-first-run " +
                                "--user-data-dir=" + (scratch / "profile").string() +
                                " --enable-logging=stderr --v=0 --dump-dom 'file://" + fs::absolute(page).string() + "'";
    Run r = run(command, scratch);
    INFO(r.err.substr(0, 2000));
    CHECK(r.status == 0);
    // The DOM after loading: the page's own end and, on variant pages, the diagrams.
    CHECK(r.out.find("</body>") != std::string::npos);
    // A page of what a variant changes has no diagrams: its declarations and its tables.
    const std::string name = page.filename().string();
    const bool diff_page = name.size() > 10 && name.compare(name.size() - 10, 10, "-diff.html") == 0;
    const bool book_page = name.size() > 14 && name.compare(name.size() - 14, 14, "-rulebook.html") == 0;
    if (diff_page) {
      CHECK(r.out.find("id=\"declarations\"") != std::string::npos);
    } else if (book_page) {
      // The rulebook: the start board, the rules with their example boards, the end.
      CHECK(r.out.find("id=\"start\"") != std::string::npos);
      CHECK(r.out.find("id=\"rules\"") != std::string::npos);
      CHECK(r.out.find("id=\"end\"") != std::string::npos);
      CHECK(count(r.out, "<svg") >= 2 + count(r.out, "class=\"rule-example"));
    } else if (page != index) {
      CHECK(count(r.out, "<svg") >= 3);          // two boards and the opening tree at least
      CHECK(count(r.out, "class=\"board\"") >= 2);  // the start and the end; witnesses add more
      CHECK(r.out.find("id=\"glance\"") != std::string::npos);  // the sentences a designer reads first
      CHECK(r.out.find("id=\"tree\"") != std::string::npos);
      CHECK(r.out.find("id=\"proofs\"") != std::string::npos);
      CHECK(r.out.find("id=\"enumeration\"") != std::string::npos);
      // The state-space table, or the reason it is not there (a file whose report settings
      // leave enumeration out says so in place of the table).
      const size_t section = r.out.find("id=\"enumeration\"");
      const size_t next = r.out.find("<h2", section == std::string::npos ? 0 : section + 1);
      const std::string enumeration =
          section == std::string::npos ? "" : r.out.substr(section, next == std::string::npos ? std::string::npos : next - section);
      CHECK((enumeration.find("<th>distinct states</th>") != std::string::npos ||
             enumeration.find("<p class=\"none\">Not computed: ") != std::string::npos));
    }
    // Any console message (the viewer's script logs nothing) or failed load is an error.
    CHECK(r.err.find("CONSOLE") == std::string::npos);
    CHECK(r.err.find("Failed to load") == std::string::npos);
    CHECK(r.err.find("ERR_FILE_NOT_FOUND") == std::string::npos);
  }
}
