// The step-through viewer in headless Chromium. A small report made here (the test's
// tic-tac-toe and its misère variant, and the shipped 4x4 fill puzzle) and the committed
// reports/index.html are opened in one harness page, each variant page with #selftest:
// its script clicks every game forward, back and to the end and compares the board's cell
// texts with the step data. Then, outside the browser: the viewer's last board of the
// random game has the cell labels of the page's end board, and the moves it saves replay
// with `rulebook play --moves-file` to the same end, score and last move; the index spans
// the window and its alerts column links each page's alerts under the worst alert's code.
// No console message, no failed load. Chromium missing fails the test (tools/install-deps
// installs it).
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

namespace fs = std::filesystem;

namespace {

const fs::path kSource = RULEBOOK_SOURCE_DIR;
const fs::path kBinary = RULEBOOK_BINARY_DIR;

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

/// Runs `command` with stdout in `out` (stderr in `err`); the exit status.
int run(const std::string& command, const fs::path& out, const fs::path& err) {
  return std::system((command + " >'" + out.string() + "' 2>'" + err.string() + "'").c_str());
}

std::string chromium() {
  for (const char* name : {"chromium", "chromium-browser"})
    if (std::system((std::string("command -v ") + name + " >/dev/null 2>&1").c_str()) == 0) return name;
  return "";
}

std::string unescape_html(std::string s) {
  for (const auto& [from, to] : std::vector<std::pair<std::string, std::string>>{
           {"&lt;", "<"}, {"&gt;", ">"}, {"&quot;", "\""}, {"&#39;", "'"}, {"&nbsp;", "\xc2\xa0"}, {"&amp;", "&"}})
    for (size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size()))
      s.replace(at, from.size(), to);
  return s;
}

/// The pages of a report: its index and every page the index links.
std::vector<fs::path> pages_of(const fs::path& report) {
  std::vector<fs::path> pages{report / "index.html"};
  const std::string index = slurp(report / "index.html");
  const std::regex link("href=\"([^\"#]+\\.html)\"");
  std::set<std::string> seen;
  for (auto it = std::sregex_iterator(index.begin(), index.end(), link); it != std::sregex_iterator(); ++it)
    if (seen.insert((*it)[1].str()).second) pages.push_back(report / (*it)[1].str());
  return pages;
}

bool variant_page(const fs::path& page) {
  const std::string name = page.filename().string();
  // Diff pages and rulebook pages have no viewer; they are still loaded and checked for
  // console errors.
  return name != "index.html" && name.find("-diff.html") == std::string::npos &&
         name.find("-rulebook.html") == std::string::npos;
}

/// The labels of a board as `board_text` writes it (the JSON's end_board): per cell in
/// row-major order, without the marks of the last move, givens and blocked cells.
std::map<int, std::string> text_labels(const std::string& board) {
  std::map<int, std::string> out;
  std::istringstream in(board);
  std::string line;
  int cell = 0;
  std::getline(in, line);  // the title
  // The rows, up to the legend's first "name: what" line.
  while (std::getline(in, line) && line.find(": ") == std::string::npos) {
    std::istringstream row(line);
    for (std::string t; row >> t;) {
      if (t == "|") continue;
      if (t.size() > 2 && t.front() == '[' && t.back() == ']') t = t.substr(1, t.size() - 2);
      while (!t.empty() && (t.back() == '*' || t.back() == '#')) t.pop_back();
      if (t != "." && t != "x" && t != "~" && !t.empty()) out[cell] = t;
      ++cell;
    }
  }
  return out;
}

}  // namespace

TEST_CASE("the viewer steps every game of a small report in headless Chromium, and its saved moves replay") {
  const std::string browser = chromium();
  INFO("chromium is not installed: run tools/install-deps (Debian package chromium)");
  REQUIRE(!browser.empty());
  const fs::path scratch = kBinary / "tests" / "report" / "viewer";
  fs::remove_all(scratch);
  fs::create_directories(scratch / "profile");
  const std::string rulebook = (kBinary / "cli" / "rulebook").string();
  const std::string config = (kSource / "tests" / "report" / "viewer" / "report.json").string();

  // The small report: the test's games, and a shipped variant of its own.
  const fs::path small = scratch / "small", shipped = scratch / "shipped";
  REQUIRE(run("cd '" + kSource.string() + "' && " + rulebook + " report tests/report/viewer -o '" + small.string() +
                  "' --config " + config,
              scratch / "report.out", scratch / "report.err") == 0);
  REQUIRE(run("cd '" + kSource.string() + "' && " + rulebook + " report variants/sudoku-fill/fill-4x4.rules -o '" +
                  shipped.string() + "' --config " + config,
              scratch / "report.out", scratch / "report.err") == 0);
  std::vector<fs::path> pages = pages_of(small);
  for (const fs::path& p : pages_of(shipped)) pages.push_back(p);
  pages.push_back(kSource / "reports" / "index.html");
  size_t viewers = 0;
  for (const fs::path& p : pages) viewers += variant_page(p);
  REQUIRE(viewers == 3);

  // One browser for every page: each in a frame, variant pages running their self-test,
  // whose results the harness collects into its own DOM.
  std::string frames;
  for (const fs::path& p : pages) {
    frames += "<iframe src=\"file://" + fs::absolute(p).string() + (variant_page(p) ? "#selftest" : "") + "\"></iframe>\n";
  }
  // The listener comes first: a frame may post before the rest of the harness is parsed.
  std::ofstream(scratch / "harness.html")
      << "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">\n"
         "<script>window.addEventListener('message', function (e) { var p = document.createElement('pre'); "
         "p.className = 'result'; p.textContent = JSON.stringify(e.data); "
         "document.getElementById('results').appendChild(p); });</script>\n"
         "</head><body>\n<div id=\"results\"></div>\n"
      << frames << "</body></html>\n";
  const fs::path dom = scratch / "dom.html", log = scratch / "chromium.log";
  const int status = run(browser + " --headless --disable-gpu --no-sandbox --no-first-run --user-data-dir='" +
                             (scratch / "profile").string() +
                             "' --enable-logging=stderr --v=0 --virtual-time-budget=20000 --dump-dom 'file://" +
                             fs::absolute(scratch / "harness.html").string() + "'",
                         dom, log);
  const std::string out = slurp(dom), err = slurp(log);
  INFO(err.substr(0, 3000));
  REQUIRE(status == 0);
  CHECK(err.find("CONSOLE") == std::string::npos);
  CHECK(err.find("Failed to load") == std::string::npos);
  CHECK(err.find("ERR_FILE_NOT_FOUND") == std::string::npos);

  std::map<std::string, nlohmann::json> results;  // by page path
  const std::regex pre("<pre class=\"result\">([^<]*)</pre>");
  for (auto it = std::sregex_iterator(out.begin(), out.end(), pre); it != std::sregex_iterator(); ++it) {
    nlohmann::json r = nlohmann::json::parse(unescape_html((*it)[1].str()));
    results[r["page"].get<std::string>()] = r;
  }
  INFO(out.substr(0, 3000));
  REQUIRE(results.size() == viewers);

  const fs::path page = small / "tictactoe" / "tictactoe.html";
  for (const auto& result : results) {
    INFO(result.first);
    CHECK(result.second["selftest"] == "PASS");
  }
  const nlohmann::json& r = results[fs::absolute(page).string()];
  const nlohmann::json data = nlohmann::json::parse(slurp(small / "tictactoe" / "tictactoe.json"));
  const nlohmann::json& game = data["analysis"]["example_game"];

  // The viewer's last board of the random game: the labels of the page's end board.
  std::map<int, std::string> shown;
  for (const auto& item : r["labels"].items()) shown[std::stoi(item.key())] = item.value().get<std::string>();
  CHECK(shown == text_labels(game["end_board"].get<std::string>()));
  CHECK(!shown.empty());

  // The saved moves, played back: the same number of moves, end, last move and score.
  const std::string moves = r["moves"].get<std::string>();
  CHECK(moves.find("# seed 1\n") != std::string::npos);
  std::ofstream(scratch / "saved.moves") << moves;
  REQUIRE(run(rulebook + " play '" + (kSource / "tests/report/viewer/tictactoe/tictactoe.rules").string() +
                  "' --json --moves-file '" + (scratch / "saved.moves").string() + "'",
              scratch / "play.json", scratch / "play.err") == 0);
  const nlohmann::json played = nlohmann::json::parse(slurp(scratch / "play.json"));
  CHECK(played["plies"] == game["plies"]);
  CHECK(played["finished"] == game["over"]);
  CHECK(played["scores"] == game["scores"]);
  REQUIRE(!played["moves"].empty());
  CHECK(played["moves"].back()["move"] == game["last_move"]);

  // The page holds the line of play the proof's search found to its witness.
  const std::string html = slurp(page);
  CHECK(html.find("property two_each (found): its board reached (4 plies)") != std::string::npos);
  // The index: the window's width and the alerts column linking to each page's alerts.
  const std::string index = slurp(small / "index.html");
  CHECK(index.find("<body class=\"wide\">") != std::string::npos);
  // tictactoe.rules's move `tenth` is never legal: one warning, dead-move the worst alert.
  CHECK(index.find("<a href=\"tictactoe/tictactoe.html#alerts\">1</a><br><code class=\"bad\">dead-move</code>") !=
        std::string::npos);
}
