// `rulebook report DIR -o OUT`: one page per variant and an index, written deterministically.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <fmt/core.h>
#include <nlohmann/json.hpp>

#include "cli/json_out.h"
#include "cli/verbs.h"
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
};

std::string html_escape(const std::string& s) {
  std::string out;
  out.reserve(s.size());
  for (char ch : s) {
    switch (ch) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out += ch;
    }
  }
  return out;
}

const char* kStyle =
    "body{font-family:system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;"
    "color:#222}pre{background:#f6f6f2;padding:1rem;overflow-x:auto;border-radius:4px}"
    "table{border-collapse:collapse}td,th{padding:.3rem .8rem;border-bottom:1px solid #ddd;"
    "text-align:left}.bad{color:#b00020}.ok{color:#1b5e20}";

std::string page(const std::string& title, const std::string& body) {
  return fmt::format(
      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
      "<title>{}</title>\n<style>{}</style>\n</head>\n<body>\n{}</body>\n</html>\n",
      html_escape(title), kStyle, body);
}

/// Writes `text` only when it differs, so an unchanged report keeps its files untouched.
bool write_file(const fs::path& path, const std::string& text) {
  fs::create_directories(path.parent_path());
  std::ifstream in(path, std::ios::binary);
  if (in) {
    std::string old((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (old == text) return true;
  }
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
  return static_cast<bool>(out);
}

struct Entry {
  std::string game;     ///< folder name under the input directory
  std::string stem;     ///< file name without .rules
  std::string title;
  bool ok = false;
};

int run_report(const ReportOptions& opt) {
  std::vector<fs::path> files;
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(opt.input, ec);
       !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
    if (it->is_regular_file() && it->path().extension() == ".rules") files.push_back(it->path());
  }
  if (ec) {
    fmt::print(stderr, "{}: error: cannot read the folder: {}\n", opt.input, ec.message());
    return kExitInputError;
  }
  std::sort(files.begin(), files.end());
  int result = kExitOk;
  std::vector<Entry> entries;
  for (size_t i = 0; i < files.size(); ++i) {
    const fs::path& file = files[i];
    fmt::print(stderr, "report: [{}/{}] {}\n", i + 1, files.size(), file.generic_string());
    Entry e;
    e.game = file.parent_path().filename().string();
    e.stem = file.stem().string();
    dsl::SourceSet sources;
    dsl::Diagnostics diags;
    dsl::Game game = dsl::check_file(file.generic_string(), sources, diags);
    e.ok = !diags.has_errors();
    if (!e.ok) result = kExitInputError;
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

    std::string body = fmt::format("<p><a href=\"../index.html\">all variants</a></p>\n<h1>{}</h1>\n"
                                   "<p><code>{}</code></p>\n",
                                   html_escape(e.title), html_escape(file.generic_string()));
    if (!e.ok) {
      body += "<h2 class=\"bad\">Errors</h2>\n<pre>" + html_escape(diags.render(sources)) + "</pre>\n";
    } else {
      body += "<h2>Summary</h2>\n<pre>" + html_escape(summary) + "</pre>\n";
      body += "<h2>Rules</h2>\n<pre>" + html_escape(formatted) + "</pre>\n";
    }
    fs::path base = fs::path(opt.output) / e.game / e.stem;
    nlohmann::json j;
    j["file"] = file.generic_string();
    j["title"] = e.title;
    j["ok"] = e.ok;
    j["diagnostics"] = diagnostics_json(diags, sources);
    j["summary"] = summary;
    bool written = write_file(base.string() + ".html", page(e.title, body)) &&
                   write_file(base.string() + ".json", j.dump(2) + "\n");
    if (!written) {
      fmt::print(stderr, "{}: error: cannot write the report\n", base.string());
      return kExitInputError;
    }
    entries.push_back(std::move(e));
  }

  std::string rows;
  for (const Entry& e : entries) {
    rows += fmt::format(
        "<tr><td>{}</td><td><a href=\"{}/{}.html\">{}</a></td><td class=\"{}\">{}</td></tr>\n",
        html_escape(e.game), html_escape(e.game), html_escape(e.stem), html_escape(e.title),
        e.ok ? "ok" : "bad", e.ok ? "checked" : "errors");
  }
  std::string index = fmt::format(
      "<h1>rulebook report</h1>\n<p>{} rule files under <code>{}</code>.</p>\n"
      "<table>\n<tr><th>game</th><th>variant</th><th>status</th></tr>\n{}</table>\n",
      entries.size(), html_escape(opt.input), rows);
  if (!write_file(fs::path(opt.output) / "index.html", page("rulebook report", index))) {
    fmt::print(stderr, "{}: error: cannot write the report\n", opt.output);
    return kExitInputError;
  }
  fmt::print(stderr, "report: {} variants written to {}\n", entries.size(), opt.output);
  return result;
}

}  // namespace

void add_report(CLI::App& app, int& result) {
  auto opt = std::make_shared<ReportOptions>();
  CLI::App* cmd = app.add_subcommand("report", "Analyse every variant and write an HTML report");
  cmd->add_option("input", opt->input, "Folder of variants (one sub-folder per game)")
      ->check(CLI::ExistingDirectory);
  cmd->add_option("-o,--output", opt->output, "Folder to write the report into");
  cmd->callback([opt, &result] { result = run_report(*opt); });
}

}  // namespace rulebook::cli
