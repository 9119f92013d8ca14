// Analysis: check a document with the front end and index its names for the features.
#include "lsp/analysis.h"

#include <algorithm>
#include <filesystem>

#include "dsl/load.h"

namespace rulebook::lsp {

namespace fs = std::filesystem;

std::string symbol_key(const dsl::Symbol& symbol) {
  using dsl::NameKind;
  switch (symbol.kind) {
    case NameKind::Builtin: return "b:" + symbol.name;
    case NameKind::Move: return "m:" + symbol.name;
    case NameKind::Param:
    case NameKind::State:
    case NameKind::Setup:
    case NameKind::Define:
    case NameKind::EnumMember:
    case NameKind::Player:
    case NameKind::Team:
    case NameKind::Region:
    case NameKind::Phase: return "g:" + symbol.name;
    default: return "l:" + std::to_string(reinterpret_cast<uintptr_t>(&symbol));
  }
}

Analysis::Analysis(const std::string& path, const std::string& text, const std::string& uri) : uri_(uri) {
  main_ = sources_.add(path, text);
  game_ = dsl::check_game(dsl::load_game_source(main_, sources_, diags_), sources_, diags_);
  // Line tables point into the buffers, which no longer move once loading is over.
  for (size_t i = 0; i < sources_.size(); ++i)
    lines_.emplace_back(sources_.file(static_cast<uint32_t>(i)).text);
  index_names(game_, occurrences_);
  std::sort(occurrences_.begin(), occurrences_.end(), [](const Occurrence& a, const Occurrence& b) {
    return a.source != b.source ? a.source < b.source : a.begin < b.begin;
  });
  // One place written twice (a name both walked and declared) counts once, declaration kept.
  auto same = [](const Occurrence& a, const Occurrence& b) {
    return a.source == b.source && a.begin == b.begin;
  };
  std::vector<Occurrence> unique;
  for (Occurrence& o : occurrences_) {
    if (!unique.empty() && same(unique.back(), o)) {
      unique.back().declaration = unique.back().declaration || o.declaration;
      if (!unique.back().symbol) unique.back().symbol = o.symbol;
      continue;
    }
    unique.push_back(std::move(o));
  }
  occurrences_ = std::move(unique);
}

std::string Analysis::path(uint32_t source) const {
  std::error_code ec;
  fs::path p = fs::absolute(fs::path(sources_.file(source).name), ec);
  if (ec) return sources_.file(source).name;
  return p.lexically_normal().string();
}

std::string Analysis::uri(uint32_t source) const {
  if (source == main_ && !uri_.empty()) return uri_;
  return path_to_uri(path(source));
}

const dsl::File* Analysis::file(uint32_t source) const {
  for (const auto& f : game_.loaded.files)
    if (f && f->source == source) return f.get();
  return nullptr;
}

const Occurrence* Analysis::at(uint32_t source, uint32_t offset) const {
  for (const Occurrence& o : occurrences_)
    if (o.source == source && o.begin <= offset && offset <= o.end) return &o;
  return nullptr;
}

std::vector<const Occurrence*> Analysis::with_key(const std::string& key) const {
  std::vector<const Occurrence*> out;
  for (const Occurrence& o : occurrences_)
    if (o.key == key) out.push_back(&o);
  return out;
}

}  // namespace rulebook::lsp
