// Navigation and editing of names: definition, references, rename and completion.
#include <algorithm>
#include <set>
#include <utility>

#include "dsl/builtins.h"
#include "dsl/lexer.h"
#include "lsp/features.h"

namespace rulebook::lsp {

namespace {

using namespace rulebook::dsl;

nlohmann::json location(const Analysis& a, const Occurrence& o) {
  return {{"uri", a.uri(o.source)}, {"range", range_json(a.lines(o.source), o.begin, o.end)}};
}

/// Every occurrence of `key` in the analyses to search, each place once: (analysis, occurrence).
std::vector<std::pair<const Analysis*, const Occurrence*>> gather(
    const std::vector<const Analysis*>& all, const Analysis& a, const std::string& key) {
  std::vector<const Analysis*> search{&a};
  // Locals are keyed by their symbol, which only their own analysis knows.
  if (key.rfind("l:", 0) != 0)
    for (const Analysis* other : all)
      if (other != &a) search.push_back(other);
  std::vector<std::pair<const Analysis*, const Occurrence*>> out;
  std::set<std::pair<std::string, uint32_t>> seen;
  for (const Analysis* s : search)
    for (const Occurrence* o : s->with_key(key))
      if (seen.insert({s->path(o->source), o->begin}).second) out.emplace_back(s, o);
  return out;
}

int completion_kind(NameKind k) {
  switch (k) {
    case NameKind::Builtin: return 3;      // Function
    case NameKind::Param: return 21;       // Constant
    case NameKind::Define: return 3;       // Function
    case NameKind::EnumMember: return 20;  // EnumMember
    case NameKind::Player:
    case NameKind::Team: return 21;
    case NameKind::Phase: return 9;        // Module
    case NameKind::Move: return 2;         // Method
    default: return 6;                     // Variable
  }
}

}  // namespace

nlohmann::json definition(const Analysis& a, uint32_t offset) {
  const Occurrence* o = a.at(a.main_source(), offset);
  if (!o) return nullptr;
  nlohmann::json out = nlohmann::json::array();
  std::vector<const Occurrence*> decls;
  for (const Occurrence* d : a.with_key(o->key))
    if (d->declaration) decls.push_back(d);
  // The declaration in effect (the last of the chain) first, then the ones it overrides.
  std::stable_sort(decls.begin(), decls.end(), [&](const Occurrence* x, const Occurrence* y) {
    return a.game().loaded.chain_index(x->source) > a.game().loaded.chain_index(y->source);
  });
  for (const Occurrence* d : decls) out.push_back(location(a, *d));
  if (out.empty()) return nullptr;
  return out;
}

nlohmann::json references(const std::vector<const Analysis*>& all, const Analysis& a,
                          uint32_t offset, bool include_declaration) {
  const Occurrence* o = a.at(a.main_source(), offset);
  if (!o) return nullptr;
  nlohmann::json out = nlohmann::json::array();
  for (const auto& [an, occ] : gather(all, a, o->key))
    if (include_declaration || !occ->declaration) out.push_back(location(*an, *occ));
  return out;
}

nlohmann::json rename(const std::vector<const Analysis*>& all, const Analysis& a, uint32_t offset,
                      const std::string& new_name, std::string& error) {
  const Occurrence* o = a.at(a.main_source(), offset);
  if (!o) {
    error = "no name here to rename";
    return nullptr;
  }
  if (o->key.rfind("b:", 0) == 0) {
    error = "a built-in name cannot be renamed";
    return nullptr;
  }
  const KeywordRole role = keyword_role(keyword_kind(new_name));
  if (!is_identifier(new_name) || role == KeywordRole::Reserved || role == KeywordRole::Decl) {
    error = "'" + new_name + "' is not a name the language allows";
    return nullptr;
  }
  if (find_builtin(new_name)) {
    error = "'" + new_name + "' is a built-in name";
    return nullptr;
  }
  nlohmann::json changes = nlohmann::json::object();
  for (const auto& [an, occ] : gather(all, a, o->key)) {
    const std::string uri = an->uri(occ->source);
    changes[uri].push_back(
        {{"range", range_json(an->lines(occ->source), occ->begin, occ->end)}, {"newText", new_name}});
  }
  return {{"changes", changes}};
}

nlohmann::json completion(const Analysis& a, uint32_t offset) {
  const std::string& text = a.sources().file(a.main_source()).text;
  uint32_t start = std::min<uint32_t>(offset, static_cast<uint32_t>(text.size()));
  while (start > 0 && is_name_char(text[start - 1])) --start;
  const std::string prefix = text.substr(start, offset - start);
  nlohmann::json items = nlohmann::json::array();
  std::set<std::string> seen;
  auto offer = [&](const std::string& label, int kind, const std::string& detail) {
    if (label.rfind(prefix, 0) != 0 || !seen.insert(label).second) return;
    nlohmann::json item = {{"label", label}, {"kind", kind}};
    if (!detail.empty()) item["detail"] = detail;
    items.push_back(std::move(item));
  };
  const Game& game = a.game();
  // Locals of the declaration the cursor is in.
  for (const auto& s : game.symbols) {
    if (!s->decl || s->span.file != a.main_source() || s->kind == NameKind::Builtin) continue;
    if (s->decl->span.begin <= offset && offset <= s->decl->span.end && s->span.end <= offset)
      offer(s->name, completion_kind(s->kind), std::string(name_kind_word(s->kind)));
  }
  for (const auto& [name, sym] : game.globals)
    offer(name, completion_kind(sym->kind), std::string(name_kind_word(sym->kind)));
  for (const PhaseInfo& p : game.phases)
    for (const Move* m : p.moves) offer(m->name.name, 2, "move");
  for (const TypeDecl* t : game.types) offer(t->name.name, 22, "type");
  for (const Builtin& b : builtins()) offer(std::string(b.name), b.is_function ? 3 : 21, "built-in");
  for (int k = static_cast<int>(TokenKind::KwGame); k <= static_cast<int>(TokenKind::KwProperty); ++k)
    offer(std::string(token_spelling(static_cast<TokenKind>(k))), 14, "keyword");
  return {{"isIncomplete", false}, {"items", items}};
}

}  // namespace rulebook::lsp
