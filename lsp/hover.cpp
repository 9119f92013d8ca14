// Hover text: what a name is, its type, where it is declared across `extends`, its comment.
#include <algorithm>
#include <filesystem>

#include <fmt/format.h>

#include "dsl/builtins.h"
#include "dsl/printer.h"
#include "dsl/types.h"
#include "lsp/features.h"

namespace rulebook::lsp {

namespace {

using namespace rulebook::dsl;

std::string file_name(const Analysis& a, uint32_t source) {
  return std::filesystem::path(a.path(source)).filename().string();
}

uint32_t line_of(const Analysis& a, uint32_t source, uint32_t offset) {
  return a.sources().position(source, offset).line;
}

std::string params_text(const std::vector<ParamDecl>& params) {
  std::string out;
  for (const ParamDecl& p : params) {
    if (!out.empty()) out += ", ";
    out += p.name.name + (p.type ? ": " + format_type(*p.type) : "");
  }
  return out;
}

/// The first line of the hover: the name as it would be declared.
std::string signature(const Symbol& s) {
  const std::string type = s.type ? ": " + to_string(s.type) : std::string();
  switch (s.kind) {
    case NameKind::Builtin: return fmt::format("{}{}", s.name, type);
    case NameKind::Define:
      if (s.decl)
        if (const auto* d = std::get_if<Define>(&s.decl->body)) {
          const std::string params = d->has_params ? fmt::format("({})", params_text(d->params)) : "";
          return fmt::format("define {}{}{}", s.name, params, type);
        }
      break;
    case NameKind::Move:
      if (s.move) {
        const std::string params = s.move->params.empty() ? "" : fmt::format("({})", params_text(s.move->params));
        return fmt::format("move {}{}", s.name, params);
      }
      break;
    case NameKind::Phase: return fmt::format("phase {}", s.name);
    default: break;
  }
  return fmt::format("{} {}{}", name_kind_word(s.kind), s.name, type);
}

/// The text of `//` comment `c` without its slashes and the space after them.
std::string comment_body(const Comment& c) {
  size_t i = 0;
  while (i < c.text.size() && c.text[i] == '/') ++i;
  if (i < c.text.size() && c.text[i] == ' ') ++i;
  return c.text.substr(i);
}

/// The comment lines right above the declaring line, and a comment trailing it.
std::string doc_comment(const Analysis& a, const Occurrence& decl) {
  const File* f = a.file(decl.source);
  if (!f) return "";
  const uint32_t line = line_of(a, decl.source, decl.begin);
  std::vector<std::string> above;
  std::string trailing;
  uint32_t want = line - 1;
  for (auto it = f->comments.rbegin(); it != f->comments.rend(); ++it) {
    const uint32_t l = line_of(a, decl.source, it->span.begin);
    if (l == line && it->trailing) trailing = comment_body(*it);
    if (l > line || it->trailing) continue;
    if (l != want) {
      if (l < want) break;
      continue;
    }
    above.insert(above.begin(), comment_body(*it));
    --want;
  }
  std::string out;
  for (const std::string& s : above) out += s + "\n";
  if (!trailing.empty()) out += trailing + "\n";
  return out;
}

/// A rule's, property's or metric's description string, from the declaration at `o`.
std::string description(const Analysis& a, const Occurrence& o) {
  const File* f = a.file(o.source);
  if (!f) return "";
  for (const Decl& d : f->decls) {
    if (d.span.begin > o.begin || o.begin >= d.span.end) continue;
    if (const auto* r = std::get_if<Rule>(&d.body)) return r->description;
    if (const auto* p = std::get_if<Property>(&d.body)) return p->description;
    if (const auto* m = std::get_if<Metric>(&d.body)) return m->description;
  }
  return "";
}

std::string key_word(const std::string& key) {
  if (key.rfind("t:", 0) == 0) return "type";
  if (key.rfind("r:", 0) == 0) return "rule";
  if (key.rfind("p:", 0) == 0) return "property";
  if (key.rfind("metric:", 0) == 0) return "metric";
  if (key.rfind("s:", 0) == 0) return "symmetry";
  if (key.rfind("m:", 0) == 0) return "move";
  if (key.rfind("a:", 0) == 0) return "action";
  return "name";
}

}  // namespace

nlohmann::json hover(const Analysis& a, uint32_t offset) {
  const Occurrence* o = a.at(a.main_source(), offset);
  if (!o) return nullptr;
  const std::string name(a.sources().text({o->source, o->begin, o->end}));
  const Symbol* sym = o->symbol;
  if (!sym && o->key.rfind("g:", 0) == 0) sym = a.game().global(name);
  std::string text = "```rules\n";
  text += sym ? signature(*sym) : key_word(o->key) + " " + name;
  text += "\n```\n";
  if (sym && sym->builtin) text += "\nbuilt-in: " + std::string(sym->builtin->meaning) + "\n";

  std::vector<const Occurrence*> decls;
  for (const Occurrence* d : a.with_key(o->key))
    if (d->declaration) decls.push_back(d);
  // Declarations come in chain order (the game file first), so the last one is in effect.
  std::stable_sort(decls.begin(), decls.end(), [&](const Occurrence* x, const Occurrence* y) {
    return a.game().loaded.chain_index(x->source) < a.game().loaded.chain_index(y->source);
  });
  for (size_t i = 0; i < decls.size(); ++i) {
    const Occurrence& d = *decls[i];
    const std::string where = fmt::format("`{}` line {}", file_name(a, d.source),
                                          line_of(a, d.source, d.begin));
    if (i == 0)
      text += "\ndeclared in " + where;
    else
      text += d.source == decls[0]->source ? ", also at " + where : ", overridden in " + where;
  }
  if (!decls.empty()) text += "\n";
  for (auto it = decls.rbegin(); it != decls.rend(); ++it) {
    std::string doc = description(a, **it);
    if (doc.empty()) doc = doc_comment(a, **it);
    if (!doc.empty()) {
      text += "\n" + doc;
      break;
    }
  }
  const LineTable& lines = a.lines(o->source);
  return {{"contents", {{"kind", "markdown"}, {"value", text}}},
          {"range", range_json(lines, o->begin, o->end)}};
}

}  // namespace rulebook::lsp
