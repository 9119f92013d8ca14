// Reading the examples of a Markdown page and making each a whole rules program.
#include "tests/backends/doc_examples.h"

#include <fmt/core.h>

#include <cctype>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace rulebook::testing {

namespace fs = std::filesystem;

std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

namespace {

std::string trim(const std::string& s) {
  size_t a = 0, b = s.size();
  while (a < b && std::isspace(static_cast<unsigned char>(s[a]))) ++a;
  while (b > a && std::isspace(static_cast<unsigned char>(s[b - 1]))) --b;
  return s.substr(a, b - a);
}

/// The marker `<!-- example: KIND ARG -->` of `line`, or Unmarked.
FenceKind parse_marker(const std::string& line, std::string& arg) {
  const std::string t = trim(line);
  const std::string open = "<!-- example:", close = "-->";
  if (t.rfind(open, 0) != 0 || t.size() < open.size() + close.size() ||
      t.compare(t.size() - close.size(), close.size(), close) != 0)
    return FenceKind::Unmarked;
  const std::string body = trim(t.substr(open.size(), t.size() - open.size() - close.size()));
  const size_t sp = body.find(' ');
  const std::string kind = body.substr(0, sp);
  arg = sp == std::string::npos ? "" : trim(body.substr(sp + 1));
  if (kind == "whole") return FenceKind::Whole;
  if (kind == "quoted" && !arg.empty()) return FenceKind::Quoted;
  if (kind == "extends" && !arg.empty()) return FenceKind::Extends;
  if (kind == "in" && !arg.empty()) return FenceKind::Hole;
  if (kind == "error") return FenceKind::Error;
  if (kind == "syntax-only" && !arg.empty()) return FenceKind::SyntaxOnly;
  return FenceKind::Unmarked;
}

}  // namespace

std::vector<Fence> read_fences(const std::string& path) {
  std::vector<Fence> out;
  std::istringstream in(read_text(path));
  std::vector<std::string> lines;
  for (std::string l; std::getline(in, l);) lines.push_back(l);
  for (size_t i = 0; i < lines.size(); ++i) {
    const std::string t = trim(lines[i]);
    if (t != "```rules") continue;
    const size_t indent = lines[i].find('`');
    Fence f;
    f.page = path;
    f.line = int(i + 1);
    if (i > 0) f.kind = parse_marker(lines[i - 1], f.arg);
    size_t j = i + 1;
    for (; j < lines.size() && trim(lines[j]) != "```"; ++j) {
      const std::string& l = lines[j];
      size_t cut = 0;
      while (cut < indent && cut < l.size() && l[cut] == ' ') ++cut;
      f.text += l.substr(cut) + "\n";
    }
    out.push_back(std::move(f));
    i = j;
  }
  return out;
}

std::string squeeze(const std::string& text) {
  std::string out;
  bool space = false, comment = false;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '\n') comment = false;
    if (!comment && c == '/' && i + 1 < text.size() && text[i + 1] == '/') comment = true;
    if (comment) continue;
    if (std::isspace(static_cast<unsigned char>(c))) {
      space = true;
      continue;
    }
    if (space && !out.empty()) out += ' ';
    space = false;
    out += c;
  }
  return out;
}

std::string whole_program(const Fence& f, const std::string& root, std::string& name, std::string& error) {
  const fs::path base = fs::path(root) / f.arg;
  if (!fs::is_regular_file(base)) {
    error = fmt::format("{}:{}: the example names '{}', which is not a file", f.page, f.line, f.arg);
    return "";
  }
  const std::string page = fs::path(f.page).stem().string();
  name = (base.parent_path() / fmt::format("{}_example_{}.rules", page, f.line)).string();
  if (f.kind == FenceKind::Extends)
    return fmt::format("variant \"{} example at line {}\" extends \"{}\";\n{}", page, f.line,
                       base.filename().string(), f.text);
  std::string harness = read_text(base.string());
  const std::string hole = "// example\n";
  const size_t at = harness.find(hole);
  if (at == std::string::npos || harness.find(hole, at + 1) != std::string::npos) {
    error = fmt::format("{}:{}: the harness '{}' must hold one line '// example'", f.page, f.line, f.arg);
    return "";
  }
  return harness.replace(at, hole.size(), f.text);
}

}  // namespace rulebook::testing
