// Helpers of the drawing tests: loading shipped variants and checking that markup is
// well formed (balanced tags, quoted attributes, known entities) without an XML library.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "compiler/interp/interpret.h"
#include "compiler/lower/lower.h"
#include "dsl/diagnostics.h"

namespace rulebook::test {

struct Loaded {
  dsl::SourceSet sources;
  std::unique_ptr<ir::Program> program;
  std::unique_ptr<compiler::Interpreter> engine;
};

inline std::unique_ptr<Loaded> load_variant(const std::string& relative) {
  auto l = std::make_unique<Loaded>();
  dsl::Diagnostics diags;
  auto p = compiler::load_program(std::string(RULEBOOK_SOURCE_DIR) + "/variants/" + relative, l->sources, diags);
  INFO(diags.render(l->sources));
  REQUIRE(p);
  l->program = std::make_unique<ir::Program>(std::move(*p));
  l->engine = std::make_unique<compiler::Interpreter>(*l->program, l->sources);
  return l;
}

/// "" when `xml` is one well-formed element (with text, comments-free), else what is wrong.
inline std::string xml_problem(const std::string& xml) {
  std::vector<std::string> open;
  size_t i = 0, roots = 0;
  while (i < xml.size()) {
    const char c = xml[i];
    if (c == '&') {
      size_t semi = xml.find(';', i);
      if (semi == std::string::npos || semi - i > 8) return "bare & at " + std::to_string(i);
      std::string ent = xml.substr(i, semi - i + 1);
      if (ent != "&amp;" && ent != "&lt;" && ent != "&gt;" && ent != "&quot;" && ent != "&#39;" && ent.rfind("&#", 0) != 0)
        return "unknown entity " + ent;
      i = semi + 1;
      continue;
    }
    if (c == '>') return "stray > at " + std::to_string(i);
    if (c != '<') {
      if (open.empty() && !isspace(static_cast<unsigned char>(c))) return "text outside the root at " + std::to_string(i);
      ++i;
      continue;
    }
    if (xml.compare(i, 4, "<!--") == 0) {
      size_t end = xml.find("-->", i);
      if (end == std::string::npos) return "unclosed comment";
      i = end + 3;
      continue;
    }
    const bool closing = i + 1 < xml.size() && xml[i + 1] == '/';
    size_t j = i + (closing ? 2 : 1);
    size_t name_start = j;
    while (j < xml.size() && (isalnum(static_cast<unsigned char>(xml[j])) || xml[j] == ':' || xml[j] == '-')) ++j;
    const std::string name = xml.substr(name_start, j - name_start);
    if (name.empty()) return "a tag without a name at " + std::to_string(i);
    // Attributes: name="value", quotes balanced, no < inside.
    bool self_closing = false;
    while (j < xml.size() && xml[j] != '>') {
      if (xml[j] == '"') {
        size_t q = xml.find('"', j + 1);
        if (q == std::string::npos) return "unclosed attribute in <" + name;
        if (xml.substr(j, q - j).find('<') != std::string::npos) return "< inside an attribute of <" + name;
        j = q + 1;
        continue;
      }
      if (xml[j] == '<') return "< inside tag <" + name;
      if (xml[j] == '/' && j + 1 < xml.size() && xml[j + 1] == '>') self_closing = true;
      ++j;
    }
    if (j >= xml.size()) return "unclosed tag <" + name;
    if (closing) {
      if (open.empty() || open.back() != name) return "</" + name + "> closes " + (open.empty() ? "nothing" : "<" + open.back() + ">");
      open.pop_back();
    } else if (!self_closing) {
      if (open.empty()) ++roots;
      open.push_back(name);
    } else if (open.empty()) {
      ++roots;
    }
    i = j + 1;
  }
  if (!open.empty()) return "<" + open.back() + "> never closed";
  if (roots != 1) return std::to_string(roots) + " root elements";
  return "";
}

inline size_t occurrences(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

}  // namespace rulebook::test
