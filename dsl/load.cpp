// Loading: follows `extends` (detecting missing files and cycles) and merges declarations.
#include "dsl/load.h"

#include <algorithm>
#include <filesystem>
#include <system_error>
#include <unordered_map>

#include <fmt/format.h>

#include "dsl/parser.h"

namespace rulebook::dsl {

namespace fs = std::filesystem;

namespace {

std::string kind_word(DeclKindWord w) {
  switch (w) {
    case DeclKindWord::Param: return "param";
    case DeclKindWord::Define: return "define";
    case DeclKindWord::Rule: return "rule";
    case DeclKindWord::Phase: return "phase";
    case DeclKindWord::Move: return "move";
    case DeclKindWord::Property: return "property";
    case DeclKindWord::Metric: return "metric";
    case DeclKindWord::Team: return "team";
    case DeclKindWord::State: return "state";
    case DeclKindWord::Setup: return "setup";
    case DeclKindWord::Symmetry: return "symmetry";
    case DeclKindWord::Regions: return "regions";
    case DeclKindWord::Action: return "action";
  }
  return "rule";
}


const Ident& property_ident(const Property& p) {
  return p.name.name.empty() ? p.subject : p.name;
}

/// The name's span, or the declaration's for unnamed ones (board, score, ...).
Span name_span(const Decl& d) {
  return std::visit(
      [&](const auto& b) -> Span {
        using T = std::decay_t<decltype(b)>;
        if constexpr (std::is_same_v<T, Property>) {
          return property_ident(b).span;
        } else if constexpr (requires { b.name.span; }) {
          return b.name.span;
        } else {
          return d.span;
        }
      },
      d.body);
}

/// How the designer writes the declaration's head: "rule X", "board", "prove X".
std::string written_head(const Decl& d) {
  auto [kind, name] = decl_key(d);
  if (const auto* p = std::get_if<Property>(&d.body)) kind = property_keyword(p->kind);
  return name.empty() ? kind : kind + " " + name;
}

/// "rule named 'X'" or "board", as in "no rule named 'X' in base.rules".
std::string what(const std::string& kind, const std::string& name) {
  if (name.empty()) return kind.find(' ') != std::string::npos ? "'" + kind + "'" : kind;
  return fmt::format("{} named '{}'", kind, name);
}

std::string subject(const std::string& kind, const std::string& name) {
  return name.empty() ? "'" + kind + "'" : "'" + name + "'";
}

std::string canonical(const std::string& path) {
  std::error_code ec;
  fs::path p = fs::weakly_canonical(fs::path(path), ec);
  if (ec) p = fs::absolute(fs::path(path), ec).lexically_normal();
  return p.string();
}

struct Frame {
  std::string canonical;
  std::string path;
  const File* file;
};

class Loader {
 public:
  Loader(SourceSet& sources, Diagnostics& diags, LoadedGame& game)
      : sources_(sources), diags_(diags), game_(game) {}

  void load(uint32_t source) {
    top_dir_ = fs::path(sources_.file(source).name).parent_path();
    std::vector<Frame> stack;
    load_file(source, stack);
    merge();
  }

 private:
  // Loads one file and, first, its bases; returns its chain index.
  int load_file(uint32_t source, std::vector<Frame>& stack) {
    game_.files.push_back(parse(sources_, source, diags_));
    const File* file = game_.files.back().get();
    const std::string path = sources_.file(source).name;  // copied: loading a base grows the set
    int base = -1;
    if (file->is_variant) {
      fs::path base_path = (fs::path(path).parent_path() / file->extends).lexically_normal();
      std::string base_canonical = canonical(base_path.string());
      stack.push_back({canonical(path), path, file});
      auto cycle = std::find_if(stack.begin(), stack.end(),
                                [&](const Frame& f) { return f.canonical == base_canonical; });
      if (cycle != stack.end()) {
        report_cycle(stack, static_cast<size_t>(cycle - stack.begin()));
      } else {
        uint32_t id = 0;
        std::string error;
        if (sources_.load(base_path.string(), id, error)) {
          base = load_file(id, stack);
        } else {
          diags_.error(file->extends_span, error);  // "cannot read 'path': reason"
        }
      }
      stack.pop_back();
    }
    game_.chain.push_back({path, source, file, base});
    return static_cast<int>(game_.chain.size()) - 1;
  }

  std::string display(const std::string& path) const {
    fs::path p = fs::path(path).lexically_normal();
    if (top_dir_.empty()) return p.string();
    fs::path rel = p.lexically_relative(top_dir_.lexically_normal());
    return rel.empty() ? p.string() : rel.string();
  }

  void report_cycle(const std::vector<Frame>& stack, size_t from) {
    std::string text;
    for (size_t i = from; i < stack.size(); ++i) text += display(stack[i].path) + " -> ";
    text += display(stack[from].path);
    const File* last = stack.back().file;
    auto& d = diags_.error(last->extends_span, "cyclic extends: " + text);
    for (size_t i = from; i + 1 < stack.size(); ++i)
      d.notes.push_back({stack[i].file->extends_span,
                         fmt::format("'{}' extends '{}' here", display(stack[i].path),
                                     display(stack[i + 1].path))});
  }

  // ------------------------------------------------------------ merging

  struct Entry {
    std::string kind, name;
    MergedDecl merged;
    bool removed = false;  ///< by `remove`; kept in place so that indices stay valid
  };

  void merge() {
    for (size_t ci = 0; ci < game_.chain.size(); ++ci) {
      const ChainFile& cf = game_.chain[ci];
      base_name_ = cf.extends >= 0 ? game_.chain[static_cast<size_t>(cf.extends)].path : "";
      for (const Decl& d : cf.file->decls) apply(d, ci);
    }
    for (auto& e : entries_)
      if (!e.removed) game_.decls.push_back(std::move(e.merged));
  }

  // Declarations are found through an index: a scan per declaration made `check`
  // quadratic in their number.
  static std::string key(const std::string& kind, const std::string& name) {
    return kind + '\0' + name;
  }

  Entry* find(const std::string& kind, const std::string& name) {
    auto it = index_.find(key(kind, name));
    return it == index_.end() ? nullptr : &entries_[it->second];
  }

  void add_entry(Entry entry) {
    index_.emplace(key(entry.kind, entry.name), entries_.size());
    entries_.push_back(std::move(entry));
  }

  std::vector<std::string> names_of(const std::string& kind) const {
    std::vector<std::string> names;
    for (const auto& e : entries_) {
      if (e.removed) continue;
      if (kind == "move" && e.kind == "phase") {
        for (const Move* m : e.merged.moves) names.push_back(m->name.name);
      } else if (e.kind == kind && !e.name.empty()) {
        names.push_back(e.name);
      }
    }
    return names;
  }

  // "nothing to override: no rule named 'X' in base.rules" and its "did you mean".
  void report_missing(const char* verb, Span span, const std::string& kind,
                      const std::string& name) {
    if (base_name_.empty()) {
      diags_.error(span, fmt::format("nothing to {}: this file is a game, not a variant", verb))
          .hint = "only a file that starts with 'variant \"...\" extends \"...\"' has a base";
      return;
    }
    auto& d = diags_.error(span, fmt::format("nothing to {}: no {} in {}", verb,
                                             what(kind, name), base_name_));
    std::string guess = name.empty() ? "" : closest_name(name, names_of(kind));
    if (!guess.empty()) d.hint = fmt::format("did you mean '{}'?", guess);
    // The name may be there as another kind of declaration: `remove define tip_rule`.
    for (const auto& e : entries_) {
      if (e.removed || name.empty() || e.name != name || e.kind == kind) continue;
      d.hint = fmt::format("'{}' is a {}: write '{} {} {}'", name, e.kind, verb, e.kind, name);
      break;
    }
  }

  void apply(const Decl& d, size_t ci) {
    if (const auto* r = std::get_if<Remove>(&d.body)) return apply_remove(d, *r);
    if (const auto* m = std::get_if<Move>(&d.body)) return apply_move(*m, ci);
    auto [kind, name] = decl_key(d);
    MergedDecl merged{&d, ci, &d, {}, {}};
    if (const auto* p = std::get_if<Phase>(&d.body))
      for (const Move& m : p->moves) merged.moves.push_back(&m);
    if (kind == "init") {
      entries_.push_back({kind, name, std::move(merged)});
      return;
    }
    Entry* old = find(kind, name);
    if (d.is_override && base_name_.empty()) return report_missing("override", name_span(d), kind, name);
    if (old && d.is_override && old->merged.file != ci) {
      merged.first = old->merged.first;
      if (kind == "phase") replay_edits(merged, old->merged.edits);
      old->merged = std::move(merged);
      return;
    }
    if (old) {
      const Decl& prev = *old->merged.decl;
      if (old->merged.file == ci) {
        // An override replaces what the base declares, not an earlier line of this file.
        auto& e = diags_.error(name_span(d), fmt::format("{} is already defined", subject(kind, name)));
        e.notes.push_back({name_span(prev), "first defined here"});
      } else {
        const std::string& where = game_.chain[old->merged.file].path;
        auto& e = diags_.error(name_span(d), fmt::format("{} is already defined in {}",
                                                         subject(kind, name), where));
        e.notes.push_back({name_span(prev), fmt::format("{} is defined here", subject(kind, name))});
        e.hint = fmt::format("write 'override {}' to replace it", written_head(d));
      }
      return;
    }
    if (d.is_override) return report_missing("override", name_span(d), kind, name);
    add_entry({kind, name, std::move(merged)});
  }

  // ------------------------------------------------------------ single moves

  // A phase's moves are edited by name: `move m in P` adds, `override move m [in P]`
  // replaces, `remove move m [from P]` deletes. Adds and overrides are kept with the phase
  // and replayed when a later `override phase P` replaces it (docs/language.md).
  static const Move** find_move(std::vector<const Move*>& moves, const std::string& name) {
    for (const Move*& m : moves)
      if (m->name.name == name) return &m;
    return nullptr;
  }

  static std::vector<std::string> move_names(const std::vector<const Move*>& moves) {
    std::vector<std::string> names;
    for (const Move* m : moves) names.push_back(m->name.name);
    return names;
  }

  // "nothing to override: phase 'battle' has no move named 'x'".
  void report_not_in_phase(const char* verb, const Ident& name, const Entry& phase) {
    auto& d = diags_.error(name.span, fmt::format("nothing to {}: phase '{}' has no move named '{}'", verb,
                                                  phase.name, name.name));
    std::string guess = closest_name(name.name, move_names(phase.merged.moves));
    if (!guess.empty()) d.hint = fmt::format("did you mean '{}'?", guess);
  }

  // The inherited phase a single-move edit names, or null after reporting it.
  Entry* edited_phase(const char* verb, const Ident& phase) {
    if (base_name_.empty()) {
      report_missing(verb, phase.span, "phase", phase.name);
      return nullptr;
    }
    Entry* e = find("phase", phase.name);
    if (!e) report_missing(verb, phase.span, "phase", phase.name);
    return e;
  }

  void apply_move(const Move& move, size_t ci) {
    const char* verb = move.is_override ? "override" : "add to";
    if (!move.phase.name.empty()) {
      Entry* e = edited_phase(verb, move.phase);
      if (!e) return;
      const Move** old = find_move(e->merged.moves, move.name.name);
      if (move.is_override && !old) return report_not_in_phase("override", move.name, *e);
      if (!move.is_override && old) {
        auto& d = diags_.error(move.name.span, fmt::format("phase '{}' already has a move named '{}'",
                                                           e->name, move.name.name));
        d.notes.push_back({(*old)->name.span, fmt::format("'{}' is defined here", move.name.name)});
        d.hint = fmt::format("write 'override move {} in {}' to replace it", move.name.name, e->name);
        return;
      }
      if (old) *old = &move;
      else e->merged.moves.push_back(&move);
      e->merged.edits.push_back({&move, ci});
      return;
    }
    if (base_name_.empty()) return report_missing("override", move.name.span, "move", move.name.name);
    bool found = false;
    for (auto& e : entries_) {
      if (e.removed || e.kind != "phase") continue;
      if (const Move** m = find_move(e.merged.moves, move.name.name)) {
        *m = &move;
        e.merged.edits.push_back({&move, ci});
        found = true;
      }
    }
    if (!found) report_missing("override", move.name.span, "move", move.name.name);
  }

  // `override phase P` after edits of P's moves: each added or overridden move is put back
  // into the new phase (an override only where the new phase still has the move).
  void replay_edits(MergedDecl& phase, const std::vector<MoveEdit>& edits) {
    for (const MoveEdit& edit : edits) {
      const Move** m = find_move(phase.moves, edit.move->name.name);
      if (m) {
        *m = edit.move;
      } else if (!edit.move->is_override) {
        phase.moves.push_back(edit.move);
      } else {
        game_.dropped.push_back({phase.decl, edit.move});
        continue;
      }
      phase.edits.push_back(edit);
    }
  }

  void apply_remove(const Decl& d, const Remove& r) {
    std::string kind = kind_word(r.what);
    if (r.what == DeclKindWord::Move) {
      auto remove_from = [&](Entry& e) {
        auto& moves = e.merged.moves;
        auto it = std::find_if(moves.begin(), moves.end(),
                               [&](const Move* m) { return m->name.name == r.name.name; });
        if (it == moves.end()) return false;
        game_.removed.push_back({kind, r.name.name, d.span, (*it)->name.span});
        moves.erase(it);
        auto& edits = e.merged.edits;
        edits.erase(std::remove_if(edits.begin(), edits.end(),
                                   [&](const MoveEdit& x) { return x.move->name.name == r.name.name; }),
                    edits.end());
        return true;
      };
      if (!r.phase.name.empty()) {
        Entry* e = edited_phase("remove", r.phase);
        if (e && !remove_from(*e)) report_not_in_phase("remove", r.name, *e);
        return;
      }
      for (auto& e : entries_)
        if (!e.removed && e.kind == "phase" && remove_from(e)) return;
      return report_missing("remove", r.name.span, kind, r.name.name);
    }
    Entry* e = find(kind, r.name.name);
    if (!e) return report_missing("remove", r.name.span, kind, r.name.name);
    game_.removed.push_back({kind, r.name.name, d.span, name_span(*e->merged.decl)});
    e->removed = true;
    index_.erase(key(kind, r.name.name));
  }

  SourceSet& sources_;
  Diagnostics& diags_;
  LoadedGame& game_;
  fs::path top_dir_;
  std::string base_name_;
  std::vector<Entry> entries_;
  std::unordered_map<std::string, size_t> index_;  ///< key(kind, name) -> entries_ index
};

}  // namespace

int LoadedGame::chain_index(uint32_t source) const {
  for (size_t i = 0; i < chain.size(); ++i)
    if (chain[i].source == source) return static_cast<int>(i);
  return -1;
}

std::pair<std::string, std::string> decl_key(const Decl& decl) {
  return std::visit(
      [](const auto& b) -> std::pair<std::string, std::string> {
        using T = std::decay_t<decltype(b)>;
        if constexpr (std::is_same_v<T, Param>) return {"param", b.name.name};
        if constexpr (std::is_same_v<T, Board>) return {"board", ""};
        if constexpr (std::is_same_v<T, Regions>) return {"regions", b.name.name};
        if constexpr (std::is_same_v<T, Players>) return {"players", ""};
        if constexpr (std::is_same_v<T, Team>) return {"team", b.name.name};
        if constexpr (std::is_same_v<T, TypeDecl>) return {"type", b.name.name};
        if constexpr (std::is_same_v<T, Setup>) return {"setup", b.name.name};
        if constexpr (std::is_same_v<T, State>) return {"state", b.name.name};
        if constexpr (std::is_same_v<T, Init>) return {"init", ""};
        if constexpr (std::is_same_v<T, Define>) return {"define", b.name.name};
        if constexpr (std::is_same_v<T, Rule>) return {"rule", b.name.name};
        if constexpr (std::is_same_v<T, Phase>) return {"phase", b.name.name};
        if constexpr (std::is_same_v<T, Score>) return {"score", ""};
        if constexpr (std::is_same_v<T, Winner>) return {"winner", ""};
        if constexpr (std::is_same_v<T, EndWhen>) return {"end when", ""};
        if constexpr (std::is_same_v<T, Property>) {
          // `depends p;` has no name of its own: it is keyed by the property it talks about.
          if (b.kind == PropertyKind::Depends) return {"depends", b.subject.name};
          return {"property", property_ident(b).name};
        }
        if constexpr (std::is_same_v<T, Metric>) return {"metric", b.name.name};
        if constexpr (std::is_same_v<T, Symmetry>) return {"symmetry", b.name.name};
        if constexpr (std::is_same_v<T, Remove>) return {"remove", b.name.name};
        if constexpr (std::is_same_v<T, Move>) return {"move", b.name.name};
        if constexpr (std::is_same_v<T, Action>) return {"action", b.name.name};
        if constexpr (std::is_same_v<T, Allow>) return {"allow", b.code.name + " " + b.subject.name};
      },
      decl.body);
}

LoadedGame load_game_source(uint32_t source, SourceSet& sources, Diagnostics& diags) {
  LoadedGame game;
  game.loaded = true;
  Loader(sources, diags, game).load(source);
  return game;
}

LoadedGame load_game(const std::string& path, SourceSet& sources, Diagnostics& diags) {
  uint32_t id = 0;
  std::string error;
  if (!sources.load(path, id, error)) {
    // Give the error a buffer to point into; it has no text to quote.
    uint32_t empty = sources.add(path, "");
    diags.error(Span{empty, 0, 0}, error);  // "cannot read 'path': reason"
    return LoadedGame{};
  }
  return load_game_source(id, sources, diags);
}

}  // namespace rulebook::dsl
