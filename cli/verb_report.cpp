// `rulebook report DIR -o OUT`: one page per variant and an index, written deterministically.
// Each page holds the summary, board diagrams, the opening tree, playout statistics and the
// formatted rules (cli/report_variant.cpp computes them); a configuration file tunes the
// analysis per game (docs/report.md).
#include <algorithm>
#include <atomic>
#include <cstdio>
#include <filesystem>
#include <optional>
#include <thread>
#include <fstream>
#include <string>
#include <vector>

#include <fmt/core.h>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cli/alerts_out.h"
#include "cli/interrupt.h"
#include "cli/diff_out.h"
#include "cli/json_out.h"
#include "cli/output_file.h"
#include "cli/report.h"
#include "cli/report_glance.h"
#include "cli/report_book.h"
#include "cli/variant_diff.h"
#include "cli/verbs.h"
#include "compiler/load/sha256.h"
#include "dsl/check.h"
#include "dsl/load.h"
#include "dsl/parser.h"
#include "dsl/printer.h"
#include "dsl/summary.h"

namespace fs = std::filesystem;

namespace rulebook::cli {
namespace {

struct ReportOptions {
  std::string input = "variants";
  std::string output = "reports";
  std::string config;     ///< JSON configuration (docs/report.md); empty: defaults
  bool rules_only = false;  ///< summary and rules only, no playouts or diagrams
  int jobs = 0;             ///< variants analysed at once; 0: one per hardware thread
  bool pdf = false;         ///< also print each rulebook page to PDF (headless Chromium)
};

/// Reads the plan fields present in `j` over `plan`; false (and `error`) on a bad value.
bool apply_plan(const nlohmann::json& j, ReportPlan& plan, std::string& error) {
  try {
    if (j.contains("seed")) plan.seed = j["seed"].get<uint64_t>();
    if (j.contains("games")) plan.games = j["games"].get<int>();
    if (j.contains("greedy_games")) plan.greedy_games = j["greedy_games"].get<int>();
    if (j.contains("max_plies")) plan.max_plies = j["max_plies"].get<int>();
    if (j.contains("coverage_games")) plan.coverage_games = j["coverage_games"].get<int>();
    if (j.contains("coverage_blocked")) plan.coverage_blocked = j["coverage_blocked"].get<bool>();
    if (j.contains("coverage_blocked_budget"))
      plan.coverage_blocked_budget = j["coverage_blocked_budget"].get<uint64_t>();
    if (j.contains("coverage_examine")) plan.coverage_examine = j["coverage_examine"].get<int>();
    if (j.contains("coverage_search_states")) plan.coverage_search_states = j["coverage_search_states"].get<uint64_t>();
    if (j.contains("tree_depth")) plan.tree_depth = j["tree_depth"].get<int>();
    if (j.contains("tree_breadth")) plan.tree_breadth = j["tree_breadth"].get<int>();
    if (j.contains("threads")) plan.threads = j["threads"].get<int>();
    if (j.contains("explore")) plan.explore = j["explore"].get<bool>();
    if (j.contains("explore_depth")) plan.explore_depth = j["explore_depth"].get<int>();
    if (j.contains("explore_states")) plan.explore_states = j["explore_states"].get<uint64_t>();
    if (j.contains("prove")) plan.prove = j["prove"].get<bool>();
    if (j.contains("prove_rlimit")) plan.prove_rlimit = j["prove_rlimit"].get<uint64_t>();
    if (j.contains("invariant_games")) plan.invariant_games = j["invariant_games"].get<int>();
    if (j.contains("prove_reach_states")) plan.prove_reach_states = j["prove_reach_states"].get<uint64_t>();
    if (j.contains("invariant_rlimit")) plan.invariant_rlimit = j["invariant_rlimit"].get<uint64_t>();
    if (j.contains("prove_timeout")) plan.prove_timeout = j["prove_timeout"].get<double>();
    if (j.contains("book")) plan.book = j["book"].get<bool>();
    if (j.contains("book_games")) plan.book_games = j["book_games"].get<int>();
    if (j.contains("book_plies")) plan.book_plies = j["book_plies"].get<int>();
    if (j.contains("book_budget")) plan.book_budget = j["book_budget"].get<uint64_t>();
    if (j.contains("book_search_states")) plan.book_search_states = j["book_search_states"].get<uint64_t>();
    if (j.contains("book_rlimit")) plan.book_rlimit = j["book_rlimit"].get<uint64_t>();
    if (j.contains("book_reach_states")) plan.book_reach_states = j["book_reach_states"].get<uint64_t>();
    if (j.contains("prove_setups")) plan.prove_setups = j["prove_setups"].get<std::vector<std::string>>();
    if (j.contains("puzzles")) plan.puzzles = j["puzzles"].get<bool>();
    if (j.contains("puzzle_max")) plan.puzzle_max = j["puzzle_max"].get<int64_t>();
    if (j.contains("puzzle_rlimit")) plan.puzzle_rlimit = j["puzzle_rlimit"].get<uint64_t>();
    if (j.contains("puzzle_game_states")) plan.puzzle_game_states = j["puzzle_game_states"].get<uint64_t>();
    if (j.contains("game_states")) plan.game_states = j["game_states"].get<uint64_t>();
    if (j.contains("puzzle_timeout")) plan.puzzle_timeout = j["puzzle_timeout"].get<double>();
    if (j.contains("layers")) {
      plan.layers.clear();
      plan.layer_texts.clear();
      for (const auto& l : j["layers"]) {
        render::Layer layer;
        const std::string text = l.get<std::string>();
        if (!render::parse_layer(text, layer, error)) return false;
        plan.layers.push_back(layer);
        plan.layer_texts.push_back(text);
      }
    }
  } catch (const nlohmann::json::exception& e) {
    error = e.what();
    return false;
  }
  if (plan.games < 0 || plan.greedy_games < 0 || plan.coverage_games < 0 || plan.max_plies < 1 || plan.tree_depth < 0 || plan.tree_breadth < 1 || plan.puzzle_max < 1) {
    error = "games and coverage_games must be >= 0, max_plies >= 1, tree_depth >= 0, tree_breadth >= 1 and "
            "puzzle_max >= 1";
    return false;
  }
  return true;
}

/// The plan of one variant: defaults, then the configuration's "defaults", then its
/// "variants" entries whose key is the game folder or "folder/stem" (the longer last).
bool plan_for(const nlohmann::json& config, const std::string& game, const std::string& stem, ReportPlan& plan,
              std::string& error) {
  if (config.contains("defaults") && !apply_plan(config["defaults"], plan, error)) return false;
  if (!config.contains("variants")) return true;
  for (const std::string& key : {game, game + "/" + stem})
    if (config["variants"].contains(key) && !apply_plan(config["variants"][key], plan, error)) {
      error = key + ": " + error;
      return false;
    }
  return true;
}

const char* kStyle =
    "body{font-family:system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;"
    "color:#222}pre{background:#f6f6f2;padding:1rem;overflow-x:auto;border-radius:4px}"
    "table{border-collapse:collapse}td,th{padding:.3rem .8rem;border-bottom:1px solid #ddd;"
    "text-align:left;vertical-align:top}.bad{color:#b00020}.ok{color:#1b5e20}.none{color:#757575}"
    ".boards,.charts{display:flex;flex-wrap:wrap;gap:1rem;align-items:flex-start}"
    ".tree{overflow-x:auto;border:1px solid #ddd;padding:.5rem}.tree svg{height:auto}"
    "body.wide{max-width:none}body.wide table{width:100%}"
    "table.glance th{white-space:nowrap}table.alerts td pre{padding:.4rem;margin:.2rem 0}"
    "pre.wrap{white-space:pre-wrap;word-break:break-word}summary{cursor:pointer}";

/// A page; `wide` pages (the index) use the window's width instead of a column for reading.
std::string page(const std::string& title, const std::string& body, bool wide = false) {
  return fmt::format(
      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
      "<title>{}</title>\n<style>{}</style>\n</head>\n<body{}>\n{}</body>\n</html>\n",
      html_escape(title), kStyle, wide ? " class=\"wide\"" : "", body);
}

/// Writes `text` whole or not at all (a page cut short by a full disk would read as a
/// finished report), and only when it differs, so an unchanged report keeps its files
/// untouched. "" or the error.
std::string write_file(const fs::path& path, const std::string& text) {
  std::error_code ec;
  fs::create_directories(path.parent_path(), ec);
  if (ec) return fmt::format("{}: error: cannot create the folder: {}", path.parent_path().string(), ec.message());
  return write_file_atomically(path.string(), text);
}

/// The game a rules file belongs to: the folder holding it (`game.rules` alone: the current
/// folder's name), which names its folder in the report and its configuration entry.
std::string game_folder(const fs::path& file) {
  std::error_code ec;
  const fs::path folder = fs::absolute(file, ec).parent_path();
  return ec ? file.parent_path().filename().string() : folder.filename().string();
}

struct Entry {
  std::string game;     ///< folder name under the input directory
  std::string stem;     ///< file name without .rules
  std::string title;
  bool ok = false;
  std::vector<std::pair<std::string, std::string>> figures;
  bool book = false;         ///< a rulebook page was written beside the variant's page
  int base = -1;             ///< the file this one extends, when it is reported too
  std::string base_title;
  nlohmann::json analysis;  ///< kept for the diff pages of the variants extending this one
};

/// The files each file extends directly, as indices into `files` (-1: a game, or a base
/// outside the report), read from the extends-chains.
int base_index(const dsl::Game& game, const std::vector<fs::path>& files) {
  if (game.files.size() < 2) return -1;
  std::error_code ec;
  const fs::path base = fs::weakly_canonical(game.files[game.files.size() - 2].path, ec);
  for (size_t i = 0; i < files.size() && !ec; ++i)
    if (fs::weakly_canonical(files[i], ec) == base) return int(i);
  return -1;
}

/// `VARIANT-diff.html` beside the variant's page: what it changes against its base, from
/// the two analyses already made (so it costs only the parsing of the two files).
std::string write_diff_page(const fs::path& out, const std::vector<fs::path>& files, const std::vector<Entry>& entries,
                            size_t i) {
  const Entry& e = entries[i];
  const Entry& b = entries[size_t(e.base)];
  nlohmann::json decls;
  std::string error;
  if (!declarations_diff(files[size_t(e.base)].generic_string(), files[i].generic_string(), decls, error))
    return fmt::format("{}: error: {}", files[i].generic_string(), error);
  const nlohmann::json analysis = analysis_diff(b.analysis, e.analysis);
  const std::string title = "What " + e.title + " changes";
  const std::string body =
      fmt::format("<p><a href=\"../index.html\">all variants</a> · <a href=\"{}.html\">{}</a> · <a href=\"../{}/{}.html\">"
                  "{}</a> · <a href=\"{}-diff.json\">the data of this page (JSON)</a></p>\n<h1>{}</h1>\n",
                  html_escape(e.stem), html_escape(e.title), html_escape(b.game), html_escape(b.stem),
                  html_escape(b.title), html_escape(e.stem), html_escape(title)) +
      diff_html(decls, analysis);
  const fs::path base = out / e.game / (e.stem + "-diff");
  nlohmann::json j{{"declarations", decls}, {"analysis", analysis}};
  error = write_file(base.string() + ".html", page(title, body));
  if (error.empty()) error = write_file(base.string() + ".json", j.dump(2) + "\n");
  return error;
}

/// `VARIANT-rulebook.html` and `.json` beside the variant's page, and with `pdf` its PDF.
/// "" or the error.
std::string write_book(const std::string& file, const fs::path& base, const Entry& e, const ReportPlan& plan, bool pdf,
                       const std::atomic<bool>* stop) {
  fmt::print(stderr, "report: {} rulebook page\n", plan.label);
  const BookPage book = rulebook_page(file, e.title, e.stem, plan, stop);
  if (stop && stop->load()) return "report: " + plan.label + " interrupted in the rulebook page";
  if (!book.ok) return fmt::format("{}: error: the rulebook page: {}", file, book.error);
  const std::string html = base.string() + "-rulebook.html";
  std::string error = write_file(html, book.html);
  if (error.empty()) error = write_file(base.string() + "-rulebook.json", book.json.dump(2) + "\n");
  if (error.empty() && pdf) error = print_pdf(html, base.string() + "-rulebook.pdf");
  return error;
}

int run_report(const ReportOptions& opt) {
  nlohmann::json config = nlohmann::json::object();
  if (!opt.config.empty()) {
    std::ifstream in(opt.config, std::ios::binary);
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    config = nlohmann::json::parse(text, nullptr, false);
    if (!in || config.is_discarded() || !config.is_object()) {
      fmt::print(stderr, "{}: error: not a readable JSON object\n", opt.config);
      return kExitInputError;
    }
  }
  if (opt.pdf && !chromium_available()) {
    fmt::print(stderr, "report: error: --pdf prints with headless Chromium, and chromium is not on PATH\n");
    return kExitUsage;
  }
  StopOnInterrupt interrupt;
  std::vector<fs::path> files;
  std::error_code ec;
  // One rules file is a report of its own: its page (its bases read as `check` reads them)
  // and an index listing it.
  if (fs::is_regular_file(opt.input, ec)) {
    files.push_back(fs::path(opt.input));
  } else {
    for (auto it = fs::recursive_directory_iterator(opt.input, ec);
         !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
      if (it->is_regular_file() && it->path().extension() == ".rules") files.push_back(it->path());
    }
  }
  if (ec) {
    fmt::print(stderr, "{}: error: cannot read the folder: {}\n", opt.input, ec.message());
    return kExitInputError;
  }
  std::sort(files.begin(), files.end());
  const size_t n = files.size();
  // Every variant's plan first: a bad configuration stops the run before any work.
  std::vector<ReportPlan> plans(n);
  for (size_t i = 0; i < n; ++i) {
    std::string error;
    if (!plan_for(config, game_folder(files[i]), files[i].stem().string(), plans[i], error)) {
      fmt::print(stderr, "{}: error: {}\n", opt.config, error);
      return kExitInputError;
    }
    plans[i].label = fmt::format("[{}/{}]", i + 1, n);
  }

  // Variants are analysed side by side, `jobs` at a time, each page written as soon as it
  // is finished. A page depends only on its variant (budgets are counts and resource units),
  // so the pages and the index are the same bytes whatever the number of jobs.
  enum class Outcome { Pending, Written, Failed, Stopped };
  std::vector<Entry> entries(n);
  std::vector<Outcome> outcomes(n, Outcome::Pending);
  std::vector<int> codes(n, kExitOk);
  std::atomic<size_t> next{0};
  std::atomic<bool> failed{false};  // a page could not be written: start no other
  auto analyse = [&](size_t i) {
    const fs::path& file = files[i];
    fmt::print(stderr, "report: {} {}\n", plans[i].label, file.generic_string());
    Entry& e = entries[i];
    e.game = game_folder(file);
    e.stem = file.stem().string();
    dsl::SourceSet sources;
    dsl::Diagnostics diags;
    dsl::Game game = dsl::check_file(file.generic_string(), sources, diags);
    e.ok = !diags.has_errors();
    e.base = e.ok ? base_index(game, files) : -1;
    if (e.base >= 0) e.base_title = game.files[game.files.size() - 2].title;
    if (!e.ok) {
      // The page shows them too, but a run that exits 1 says why where it runs.
      fmt::print(stderr, "{}", diags.render(sources));
      codes[i] = kExitInputError;
    }
    std::string summary = e.ok ? dsl::describe(game) : std::string();
    std::string formatted;
    if (e.ok) {
      // The first buffer loaded is the file itself (its bases follow).
      dsl::Diagnostics fmt_diags;
      std::unique_ptr<dsl::File> tree = dsl::parse(sources, 0, fmt_diags);
      if (tree) e.title = tree->title;
      formatted = dsl::format_file(*tree);
    }
    if (e.title.empty()) e.title = e.stem;

    std::string body = fmt::format("<p><a href=\"../index.html\">all variants</a> · <a href=\"{}.json\">the "
                                   "data of this page (JSON)</a></p>\n<h1>{}</h1>\n<p><code>{}</code></p>\n",
                                   html_escape(e.stem), html_escape(e.title), html_escape(file.generic_string()));
    if (e.base >= 0)
      body += fmt::format("<p>A variant of {}: <a href=\"{}-diff.html\">what it changes</a>.</p>\n",
                          html_escape(e.base_title), html_escape(e.stem));
    std::optional<VariantAnalysis> analysis;
    if (e.ok && !opt.rules_only) {
      analysis = analyse_variant(file.generic_string(), plans[i], interrupt.flag());
      if (!analysis->ok) {
        fmt::print(stderr, "{}: error: {}\n", file.generic_string(), analysis->error);
        codes[i] = kExitInputError;
      }
      e.figures = analysis->key_figures;
      e.analysis = analysis->json;
    }
    e.book = analysis && analysis->ok && plans[i].book;
    if (e.book)
      body += fmt::format("<p><a href=\"{}-rulebook.html\">The illustrated rulebook</a>: the rules in their own "
                          "words with allowed and not-allowed boards.</p>\n", html_escape(e.stem));
    if (analysis && analysis->ok) body += glance_html(analysis->json);
    if (analysis) body += analysis->alerts_html;
    if (!e.ok) {
      body += "<h2 class=\"bad\">Errors</h2>\n<pre>" + html_escape(diags.render(sources)) + "</pre>\n";
    } else {
      // The checker's summary is a reference, not a first read: folded under its heading.
      body += "<h2 id=\"summary\">Declarations</h2>\n<details><summary>What rulebook read: the board, players, "
              "state, phases, moves, rules and properties</summary>\n<pre>" +
              html_escape(summary) + "</pre>\n</details>\n";
      if (analysis) body += analysis->html;
      body += "<h2 id=\"rules\">Rules</h2>\n<pre>" + html_escape(formatted) + "</pre>\n";
    }
    // Ctrl-C: the page in progress is cut short, so it is not written.
    if (interrupt.stopped()) return Outcome::Stopped;
    fs::path base = fs::path(opt.output) / e.game / e.stem;
    nlohmann::json j;
    j["file"] = file.generic_string();
    j["title"] = e.title;
    j["ok"] = e.ok;
    j["diagnostics"] = diagnostics_json(diags, sources);
    j["summary"] = summary;
    // The digest of every rules file the page was made from (the file, then its bases), so
    // a page can be told apart from one made from other rules.
    nlohmann::json digests = nlohmann::json::array();
    for (uint32_t id = 0; id < sources.size(); ++id)
      digests.push_back({{"file", sources.file(id).name}, {"sha256", compiler::sha256_hex(sources.file(id).text)}});
    j["sources"] = std::move(digests);
    if (analysis) j["analysis"] = analysis->json;
    std::string error = write_file(base.string() + ".html", page(e.title, body));
    if (error.empty()) error = write_file(base.string() + ".json", j.dump(2) + "\n");
    if (!error.empty()) {
      fmt::print(stderr, "{}\n", error);
      return Outcome::Failed;
    }
    if (e.book) {
      if (const std::string why = write_book(file.generic_string(), base, e, plans[i], opt.pdf, interrupt.flag());
          !why.empty()) {
        fmt::print(stderr, "{}\n", why);
        return interrupt.stopped() ? Outcome::Stopped : Outcome::Failed;
      }
    }
    fmt::print(stderr, "report: {} written: {}.html\n", plans[i].label, base.generic_string());
    return Outcome::Written;
  };
  // The variants with the largest Z3 budgets (properties, each again per setup value, and
  // puzzles per setup value) start first, so the longest pages do not end the run alone on
  // one core; the pages do not depend on the order.
  std::vector<size_t> order(n);
  {
    std::vector<uint64_t> budget(n, 0);
    for (size_t i = 0; i < n; ++i) {
      const ReportPlan& plan = plans[i];
      if (!plan.prove && !plan.puzzles) continue;
      dsl::SourceSet sources;
      dsl::Diagnostics diags;
      const dsl::Game game = dsl::check_file(files[i].generic_string(), sources, diags);
      const uint64_t puzzles = uint64_t(std::count_if(game.properties.begin(), game.properties.end(), [](const dsl::Property* p) {
        return p->kind == dsl::PropertyKind::Puzzle;
      }));
      const uint64_t setups = std::max<uint64_t>(1, plan.prove_setups.size());
      if (plan.prove) budget[i] += plan.prove_rlimit * (game.properties.size() - puzzles) * (1 + plan.prove_setups.size());
      if (plan.puzzles) budget[i] += plan.puzzle_rlimit * puzzles * setups;
    }
    for (size_t i = 0; i < n; ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return budget[a] > budget[b]; });
  }
  auto worker = [&] {
    for (size_t k; !interrupt.stopped() && !failed.load() && (k = next.fetch_add(1)) < n;) {
      const size_t i = order[k];
      outcomes[i] = analyse(i);
      if (outcomes[i] == Outcome::Failed) failed = true;
    }
  };
  const size_t jobs = std::min<size_t>(n, opt.jobs > 0 ? opt.jobs : std::max(1u, std::thread::hardware_concurrency()));
  std::vector<std::thread> pool;
  for (size_t t = 1; t < jobs; ++t) pool.emplace_back(worker);
  worker();
  for (std::thread& t : pool) t.join();

  if (failed.load()) return kExitInputError;
  // Ctrl-C: the pages finished stay (each whole); those in progress are not written, and
  // neither is the index (it would drop the variants not reached).
  if (interrupt.stopped()) {
    std::vector<std::string> cut;
    size_t written = 0;
    for (size_t i = 0; i < n; ++i) {
      if (outcomes[i] == Outcome::Written) ++written;
      else if (outcomes[i] == Outcome::Stopped) cut.push_back(plans[i].label + " " + files[i].generic_string());
    }
    fmt::print(stderr, "report: interrupted: {} of {} pages written; cut short and not written: {}; the index "
                       "not written\n", written, n, cut.empty() ? std::string("none") : fmt::format("{}", fmt::join(cut, ", ")));
    return kExitInterrupted;
  }
  int result = kExitOk;
  for (int c : codes) result = c != kExitOk ? c : result;
  for (size_t i = 0; i < n; ++i) {
    if (entries[i].base < 0 || !entries[i].ok || !entries[size_t(entries[i].base)].ok) {
      entries[i].base = -1;
      continue;
    }
    if (const std::string error = write_diff_page(opt.output, files, entries, i); !error.empty()) {
      fmt::print(stderr, "{}\n", error);
      return kExitInputError;
    }
  }

  // Key figures: the columns are the union of the variants' figure names, in first-seen order.
  std::vector<std::string> columns;
  for (const Entry& e : entries)
    for (const auto& [name, _] : e.figures)
      if (std::find(columns.begin(), columns.end(), name) == columns.end()) columns.push_back(name);
  std::string rows;
  for (const Entry& e : entries) {
    rows += fmt::format(
        "<tr><td>{}</td><td><a href=\"{}/{}.html\">{}</a>{}</td><td class=\"{}\">{}</td>",
        html_escape(e.game), html_escape(e.game), html_escape(e.stem), html_escape(e.title),
        (e.base < 0 ? std::string()
                    : fmt::format(" · <a href=\"{}/{}-diff.html\">changes</a>", html_escape(e.game), html_escape(e.stem))) +
            (e.book ? fmt::format(" · <a href=\"{}/{}-rulebook.html\">rulebook</a>", html_escape(e.game), html_escape(e.stem))
                    : std::string()),
        e.ok ? "ok" : "bad", e.ok ? "checked" : "errors");
    for (const std::string& c : columns) {
      auto it = std::find_if(e.figures.begin(), e.figures.end(), [&](const auto& f) { return f.first == c; });
      std::string cell = it == e.figures.end() ? std::string() : html_escape(it->second);
      // The alerts' count links to the page's alerts, over the code of the worst of them.
      if (c == "alerts" && !cell.empty() && e.analysis.contains("alerts")) {
        const auto [code, warning] = worst_alert(e.analysis["alerts"]);
        cell = fmt::format("<a href=\"{}/{}.html#alerts\">{}</a>{}", html_escape(e.game), html_escape(e.stem), cell,
                           code.empty() ? "" : fmt::format("<br><code class=\"{}\">{}</code>", warning ? "bad" : "none",
                                                           html_escape(code)));
      }
      rows += "<td>" + cell + "</td>";
    }
    rows += "</tr>\n";
  }
  std::string heads;
  for (const std::string& c : columns) heads += "<th>" + html_escape(c) + "</th>";
  std::string index = fmt::format(
      "<h1>rulebook report</h1>\n<p>{} <code>{}</code>. Figures come from the random "
      "playouts of each page (their number and seeds are stated there).</p>\n"
      "<table>\n<tr><th>game</th><th>variant</th><th>status</th>{}</tr>\n{}</table>\n",
      fs::is_directory(opt.input, ec) ? fmt::format("{} rule files under", entries.size()) : std::string("The rule file"),
      html_escape(opt.input), heads, rows);
  if (const std::string error = write_file(fs::path(opt.output) / "index.html", page("rulebook report", index, true));
      !error.empty()) {
    fmt::print(stderr, "{}\n", error);
    return kExitInputError;
  }
  fmt::print(stderr, "report: {} variants written to {}\n", entries.size(), opt.output);
  return result;
}

}  // namespace

void add_report(CLI::App& app, int& result) {
  auto opt = std::make_shared<ReportOptions>();
  CLI::App* cmd = app.add_subcommand("report", "Analyse every variant and write an HTML report");
  cmd->add_option("input", opt->input, "Folder of variants (one sub-folder per game), or one rules file")
      ->check(CLI::ExistingPath);
  cmd->add_option("-o,--output", opt->output, "Folder to write the report into");
  cmd->add_option("--config", opt->config, "JSON configuration: playout counts, annotations per game")
      ->check(CLI::ExistingFile);
  cmd->add_option("-j,--jobs", opt->jobs, "Variants analysed at once (default: one per hardware thread)")
      ->check(CLI::NonNegativeNumber);
  cmd->add_flag("--pdf", opt->pdf, "Also print each rulebook page to VARIANT-rulebook.pdf (needs chromium on PATH)");
  cmd->add_flag("--rules-only", opt->rules_only, "Only the summary and the rules (no playouts, no diagrams)");
  cmd->callback([opt, &result] { result = run_report(*opt); });
}

}  // namespace rulebook::cli
