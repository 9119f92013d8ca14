// Lowering of types: finite domains, IR types, geometry tables, the state layout and the
// data files of `setup x = file "..."`.
#include <algorithm>
#include <filesystem>

#include <fmt/format.h>

#include "compiler/ir/text.h"
#include "compiler/lower/lower_internal.h"
#include "dsl/limits.h"

namespace rulebook::compiler {

namespace {

std::vector<uint64_t> empty_bits(uint32_t n) { return std::vector<uint64_t>((n + 63) / 64, 0); }

uint32_t width_for(uint32_t size) { return size <= 256 ? 1 : size <= 65536 ? 2 : 4; }

std::string join(const std::vector<std::string>& names) {
  std::string s;
  for (size_t i = 0; i < names.size(); ++i) s += (i ? ", " : "") + names[i];
  return s;
}

}  // namespace

// ------------------------------------------------------------------ domains

int Lowering::intern(ir::Domain d) {
  std::string key;
  switch (d.kind) {
    case ir::Domain::Kind::Range:
      key = fmt::format("R{}:{}", d.lo, d.lo + int64_t(d.size) - 1);
      break;
    case ir::Domain::Kind::Enum:
      key = fmt::format("E{}", join(d.members));
      break;
    case ir::Domain::Kind::Record:
      key = "C";
      for (size_t i = 0; i < d.fields.size(); ++i)
        key += fmt::format("{}:{};", d.field_names[i], d.fields[i]);
      break;
    case ir::Domain::Kind::Optional:
      key = fmt::format("O{}", d.inner);
      break;
    default:
      key = fmt::format("F{}", int(d.kind));
      break;
  }
  auto it = domain_ids_.find(key);
  if (it != domain_ids_.end()) return it->second;
  int id = int(prog_.domains.size());
  prog_.domains.push_back(std::move(d));
  domain_ids_.emplace(key, id);
  return id;
}

void Lowering::fixed_domains() {
  using K = ir::Domain::Kind;
  auto fixed = [&](K kind, std::string name, uint32_t size, std::vector<std::string> members) {
    ir::Domain d;
    d.kind = kind;
    d.name = std::move(name);
    d.size = size;
    d.members = std::move(members);
    if (kind == K::Cell || kind == K::Point) d.board_width = width_;
    return intern(std::move(d));
  };
  std::vector<std::string> phases, teams;
  for (const auto& p : game_.phases) phases.push_back(p.name);
  for (const auto& t : game_.teams) teams.push_back(t.name);
  fixed(K::Bool, "bool", 2, {});
  fixed(K::Cell, "Cell", uint32_t(width_ * height_), {});
  fixed(K::Point, "Point", uint32_t((width_ + 1) * (height_ + 1)), {});
  fixed(K::Player, "Player", uint32_t(game_.player_names.size()), game_.player_names);
  fixed(K::Phase, "Phase", uint32_t(phases.size()), phases);
  fixed(K::Enum, "Orientation", 2, {"horizontal", "vertical"});
  fixed(K::Team, "Team", uint32_t(teams.size()), teams);
}

int Lowering::range_domain(int64_t lo, int64_t hi) {
  ir::Domain d;
  d.kind = ir::Domain::Kind::Range;
  d.name = fmt::format("{}..{}", lo, hi);
  d.lo = lo;
  d.size = uint32_t(hi - lo + 1);
  return intern(std::move(d));
}

int Lowering::optional_domain(int inner) {
  ir::Domain d;
  d.kind = ir::Domain::Kind::Optional;
  const std::string& n = prog_.domains[size_t(inner)].name;
  d.name = n.find(' ') != std::string::npos && n.front() != '{' ? fmt::format("({})?", n)
                                                                 : fmt::format("{}?", n);
  d.inner = inner;
  d.size = prog_.domains[size_t(inner)].size + 1;
  return intern(std::move(d));
}

int Lowering::domain_of(const dsl::TypeRef& t) {
  using dsl::TypeTag;
  if (!t) return -1;
  switch (t->tag) {
    case TypeTag::Bool: return ir::kBoolDomain;
    case TypeTag::Cell: return ir::kCellDomain;
    case TypeTag::Point: return ir::kPointDomain;
    case TypeTag::Player: return ir::kPlayerDomain;
    case TypeTag::Phase: return ir::kPhaseDomain;
    case TypeTag::Team: return ir::kTeamDomain;
    case TypeTag::Int:
      if (!t->has_range || t->hi - t->lo >= (int64_t(1) << 31)) return -1;
      return range_domain(t->lo, t->hi);
    case TypeTag::Enum: {
      ir::Domain d;
      d.kind = ir::Domain::Kind::Enum;
      d.members = t->members;
      d.size = uint32_t(t->members.size());
      d.name = t->name;
      for (const dsl::TypeRef& e : game_.enums)
        if (d.name.empty() && e->members == t->members) d.name = e->name;
      if (d.name.empty()) d.name = fmt::format("{{{}}}", join(t->members));
      return intern(std::move(d));
    }
    case TypeTag::Record: {
      ir::Domain d;
      d.kind = ir::Domain::Kind::Record;
      d.field_names = t->members;
      uint64_t size = 1;
      for (const dsl::TypeRef& f : t->elems) {
        int fd = domain_of(f);
        if (fd < 0) return -1;
        d.fields.push_back(fd);
        d.strides.push_back(uint32_t(size));
        size *= prog_.domains[size_t(fd)].size;
        if (size >= (uint64_t(1) << 31)) return -1;
      }
      d.size = uint32_t(size);
      for (const dsl::TypeDecl* td : game_.types) {
        auto it = game_.type_exprs.find(td->type.get());
        if (it != game_.type_exprs.end() && dsl::same_type(it->second, t)) {
          d.name = td->name.name;
          break;
        }
      }
      if (d.name.empty()) d.name = dsl::to_string(t);
      return intern(std::move(d));
    }
    case TypeTag::Optional: {
      int inner = domain_of(t->elem());
      return inner < 0 ? -1 : optional_domain(inner);
    }
    default:
      return -1;
  }
}

int Lowering::require_domain(const dsl::TypeRef& t, dsl::Span where, const char* what) {
  int d = domain_of(t);
  if (d >= 0 || dsl::is_error(t)) return d;
  if (dsl::is_finite(t) && !t->is(dsl::TypeTag::Set) && !t->is(dsl::TypeTag::Seq) &&
      !t->is(dsl::TypeTag::Map) && !t->is(dsl::TypeTag::Any) && !t->is(dsl::TypeTag::None))
    error(where, fmt::format("{} of type {} has too many values (more than 2^31)", what,
                             dsl::to_string(t)));
  else
    error(where, fmt::format("{} of type {} is not finite: give ints a range such as 0..9", what,
                             dsl::to_string(t)));
  return d;
}

ir::TypePtr Lowering::scalar_type(int domain) {
  auto t = std::make_shared<ir::Type>();
  t->domain = domain;
  return t;
}

ir::TypePtr Lowering::set_type(int domain) {
  auto t = std::make_shared<ir::Type>();
  t->kind = ir::Type::Kind::Set;
  t->domain = domain;
  return t;
}

int Lowering::set_domain(int domain, dsl::Span span, bool map_keys) {
  if (domain < 0 || prog_.domains[size_t(domain)].size <= dsl::kMaxSetValues) return domain;
  if (big_sets_.emplace(span.file, span.begin, span.end).second) {
    const ir::Domain& d = prog_.domains[size_t(domain)];
    error(span, fmt::format("{} {} is too large: its elements could take {} values, and a "
                            "set ranges over at most {}",
                            map_keys ? "the set of the keys of a map over" : "a set of", d.name,
                            d.size, dsl::kMaxSetValues))
        .hint = map_keys ? "a map's keys are a set where it is looped over or asked `k in m`: "
                           "give the map a narrower key type"
              : d.kind == ir::Domain::Kind::Range
                    ? kRangeTooLargeHint
                    : "narrow the type of the elements";
  }
  return -1;
}

ir::TypePtr Lowering::list_type(ir::TypePtr elem) {
  auto t = std::make_shared<ir::Type>();
  t->kind = ir::Type::Kind::List;
  t->elem = std::move(elem);
  return t;
}

ir::TypePtr Lowering::ir_type(const dsl::TypeRef& t, dsl::Span where) {
  using dsl::TypeTag;
  if (!t) return scalar_type(-1);
  switch (t->tag) {
    case TypeTag::Set: {
      const dsl::TypeRef& e = t->elem();
      if (e->is(TypeTag::Set) || e->is(TypeTag::Seq) || e->is(TypeTag::Map) ||
          e->is(TypeTag::Tuple))
        return list_type(ir_type(e, where));
      if (e->is(TypeTag::Any)) return set_type(-1);
      return set_type(set_domain(require_domain(e, where, "a set element"), where));
    }
    case TypeTag::Seq:
      return list_type(ir_type(t->elem(), where));
    case TypeTag::Map:
      return list_type(ir_type(t->value(), where));
    case TypeTag::Tuple: {
      dsl::TypeRef e = dsl::element_type(t);
      return list_type(ir_type(e ? e : dsl::int_type(), where));
    }
    default:
      return scalar_type(domain_of(t));
  }
}

// ------------------------------------------------------------------ geometry

void Lowering::build_geometry() {
  ir::Geometry& g = prog_.geometry;
  g.width = width_;
  g.height = height_;
  const uint32_t cells = uint32_t(width_ * height_);
  for (const dsl::RegionInfo& info : game_.regions) {
    ir::Geometry::RegionSet rs;
    rs.name = info.name;
    rs.regions.assign(size_t(info.count), empty_bits(cells));
    rs.region_of.assign(cells, -1);
    for (uint32_t c = 0; c < cells && c < info.cell_region.size(); ++c) {
      int r = info.cell_region[c];
      if (r < 0 || r >= info.count) continue;
      rs.region_of[c] = r;
      rs.regions[size_t(r)][c / 64] |= uint64_t(1) << (c % 64);
    }
    g.region_sets.push_back(std::move(rs));
  }
  for (const dsl::TeamInfo& t : game_.teams) g.teams.push_back(t.members);
}

// ------------------------------------------------------------------ state layout

void Lowering::add_var(const std::string& name, ir::StateVar::Origin origin,
                       const dsl::TypeRef& type, int64_t seq_length, dsl::Span span) {
  using dsl::TypeTag;
  ir::StateVar v;
  v.name = name;
  v.origin = origin;
  v.span = span;
  dsl::TypeRef t = type;
  bool ok = !dsl::is_error(t);
  while (ok) {
    if (t->is(TypeTag::Map)) {
      int k = require_domain(t->key(), span, "a map key");
      ok = k >= 0;
      v.keys.push_back(k);
      t = t->value();
    } else if (t->is(TypeTag::Seq)) {
      if (seq_length < 0) {
        error(span, fmt::format("the length of '{}' must be known: give it a value of known "
                                "length", name));
        ok = false;
        break;
      }
      if (seq_length == 0) {
        error(span, fmt::format("'{}' is an empty sequence", name));
        ok = false;
        break;
      }
      v.is_seq = true;
      v.keys.push_back(range_domain(0, seq_length - 1));
      t = t->elem();
    } else if (t->is(TypeTag::Set)) {
      int k = require_domain(t->elem(), span, "a set element");
      ok = k >= 0;
      v.keys.push_back(k);
      v.is_set = true;
      v.domain = ir::kBoolDomain;
      break;
    } else {
      v.domain = require_domain(t, span, "a state value");
      ok = v.domain >= 0;
      break;
    }
  }
  if (!ok) {
    v.keys.clear();
    v.domain = ir::kBoolDomain;
  }
  uint64_t count = 1;
  constexpr uint64_t kShown = uint64_t(1) << 62;  // counts beyond this are not spelled out
  for (int k : v.keys) count = dsl::capped_product(count, prog_.domains[size_t(k)].size, kShown);
  if (count >= dsl::kMaxVariableElements) {
    error(span, fmt::format("'{}' has {} elements; a state variable holds fewer than {} (2^24)",
                            name, count > kShown ? "more than 2^62" : std::to_string(count),
                            dsl::kMaxVariableElements));
    v.keys.clear();
    count = 1;
  }
  v.count = uint32_t(count);
  v.width = width_for(prog_.domains[size_t(v.domain)].size);
  vars_[name] = int(prog_.vars.size());
  var_types_[name] = type;
  prog_.vars.push_back(std::move(v));
}

void Lowering::layout() {
  uint64_t offset = 0;
  for (ir::StateVar& v : prog_.vars) {
    offset = (offset + v.width - 1) / v.width * v.width;
    v.offset = uint32_t(offset);
    offset += uint64_t(v.count) * v.width;
    if (offset > dsl::kMaxStateBytes) {
      // Named at the variable that passes the limit, with its own share of the bytes.
      error(v.span, fmt::format("the state is too large: with '{}' ({} bytes) it takes {} "
                                "bytes, and a state holds at most {}",
                                v.name, uint64_t(v.count) * v.width, offset, dsl::kMaxStateBytes));
      offset = 0;
      for (ir::StateVar& w : prog_.vars) w.offset = 0;
      break;
    }
  }
  prog_.state_bytes = uint32_t(offset);
}

int64_t Lowering::static_length(const dsl::Expr& e) {
  switch (e.kind) {
    case dsl::ExprKind::SeqLit:
      return int64_t(e.args.size());
    case dsl::ExprKind::Comprehension: {
      const dsl::Expr* lit = game_.expansion(e);
      return lit ? static_length(*lit) : -1;
    }
    case dsl::ExprKind::If: {
      int64_t a = static_length(*e.args[1]), b = static_length(*e.args[2]);
      return a == b ? a : -1;
    }
    case dsl::ExprKind::Name: {
      const dsl::Symbol* s = game_.referent(e);
      if (!s) return -1;
      if (s->kind == dsl::NameKind::Define && s->decl) {
        const auto& d = std::get<dsl::Define>(s->decl->body);
        if (!d.has_params) return static_length(*d.body);
      }
      if (s->kind == dsl::NameKind::Param && s->decl)
        return static_length(*std::get<dsl::Param>(s->decl->body).value);
      if (s->kind == dsl::NameKind::State || s->kind == dsl::NameKind::Setup) {
        auto it = vars_.find(s->name);
        if (it != vars_.end() && prog_.vars[size_t(it->second)].is_seq)
          return prog_.vars[size_t(it->second)].count;
      }
      break;
    }
    default:
      break;
  }
  // A constant set (or list) has a known size: `shuffle 1..9`.
  Frame scratch;
  Frame* saved = begin_frame(scratch, 0);
  size_t errors = diags_.error_count();
  ir::ExprPtr x = expr(e);
  frame_ = saved;
  if (diags_.error_count() != errors) return -1;
  if (x->op == ir::Op::ConstList) return int64_t(x->args.size());
  if (x->op == ir::Op::ConstSet) {
    int64_t n = 0;
    for (uint64_t w : x->bits) n += __builtin_popcountll(w);
    return n;
  }
  return -1;
}

// ------------------------------------------------------------------ data files

void Lowering::read_data_file(const dsl::Setup& decl, ir::SetupVar& setup) {
  namespace fs = std::filesystem;
  const ir::StateVar& var = prog_.vars[size_t(setup.var)];
  if (var.is_set) {
    error(decl.path_span, fmt::format("a data file fills a map, a sequence or one value, but '{}' is {}",
                                      decl.name.name, dsl::to_string(var_types_[decl.name.name])));
    return;
  }
  // `Cell -> T` is read as a grid; anything else as a list of values (records of data).
  const bool grid = var.keys.size() == 1 && var.keys[0] == ir::kCellDomain;
  const ir::Domain& dom = prog_.domains[size_t(var.domain)];
  fs::path base = fs::path(sources_.file(decl.path_span.file).name).parent_path();
  std::string path = (base / decl.path).lexically_normal().string();
  setup.path = path;
  uint32_t id = 0;
  std::string why;
  if (!sources_.load(path, id, why)) {
    error(decl.path_span, fmt::format("cannot read data file '{}': {}", path, why));
    return;
  }
  const std::string& text = sources_.file(id).text;
  struct Row {
    uint32_t offset;
    std::string text;
  };
  std::vector<std::vector<Row>> entries(1);
  size_t pos = 0;
  while (pos <= text.size()) {
    size_t end = text.find('\n', pos);
    if (end == std::string::npos) end = text.size();
    std::string line = text.substr(pos, end - pos);
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ' || line.back() == '\t'))
      line.pop_back();
    bool blank = line.find_first_not_of(" \t") == std::string::npos;
    if (blank) {
      if (!entries.back().empty()) entries.emplace_back();
    } else if (line[line.find_first_not_of(" \t")] != '#') {
      entries.back().push_back({uint32_t(pos), line});
    }
    if (end == text.size()) break;
    pos = end + 1;
  }
  if (entries.back().empty()) entries.pop_back();
  auto here = [&](uint32_t offset, uint32_t length) {
    return dsl::Span{id, offset, offset + std::max<uint32_t>(length, 1)};
  };
  size_t errors = diags_.error_count();
  // A list entry: the variable's elements in key order (as `--setup` takes a map), each a
  // value of the element type, separated by spaces, tabs or line breaks; `#` starts a
  // comment to the end of the line.
  for (size_t n = 0; n < entries.size() && !grid; ++n) {
    std::vector<uint32_t> elems;
    bool bad = false;
    for (const Row& row : entries[n]) {
      const std::string text = row.text.substr(0, row.text.find('#'));
      const size_t before = elems.size();
      size_t at = 0;
      while ((at = text.find_first_not_of(" \t", at)) != std::string::npos) {
        size_t stop = std::min(text.find_first_of(" \t", at), text.size());
        std::string token = text.substr(at, stop - at);
        auto v = parse_value(prog_, var.domain, token);
        if (!v) {
          error(here(row.offset + uint32_t(at), uint32_t(token.size())),
                fmt::format("'{}' is not a value of {}", token, dom.name));
          bad = true;
        } else {
          elems.push_back(uint32_t(ir::domain_index(prog_.domains, var.domain, *v)));
        }
        at = stop;
      }
      if (n == 0 && elems.size() > before) setup.layout.push_back(uint32_t(elems.size() - before));
    }
    if (!bad && elems.size() != var.count)
      error(here(entries[n].front().offset, uint32_t(entries[n].front().text.size())),
            fmt::format("entry {} has {} values, '{}' holds {}", n + 1, elems.size(), decl.name.name,
                        var.count));
    else if (!bad)
      setup.entries.push_back(std::move(elems));
  }
  for (size_t n = 0; n < entries.size() && grid; ++n) {
    const auto& rows = entries[n];
    if (int(rows.size()) != height_) {
      error(here(rows.front().offset, uint32_t(rows.front().text.size())),
            fmt::format("entry {} has {} rows, the board has {}", n + 1, rows.size(), height_));
      continue;
    }
    std::vector<uint32_t> cells;
    for (const Row& row : rows) {
      if (int(row.text.size()) != width_) {
        auto& d = error(here(row.offset, uint32_t(row.text.size())),
                        fmt::format("a row of {} cells, the board has {} columns", row.text.size(), width_));
        if (row.text.find(' ') != std::string::npos)
          d.hint = "each character of a row is one cell: write it without spaces, as '1..'";
        break;
      }
      for (size_t x = 0; x < row.text.size(); ++x) {
        char ch = row.text[x];
        ir::Value v;
        if (ch == '.' || ch == '0') {
          v = dom.kind == ir::Domain::Kind::Optional ? ir::kNone : 0;
        } else if (ch >= '1' && ch <= '9') {
          v = ch - '0';
        } else {
          error(here(row.offset + uint32_t(x), 1),
                fmt::format("unexpected character '{}' in a data file", std::string(1, ch)))
              .hint = "cells are '.' or '0' (empty) or a digit";
          continue;
        }
        int64_t idx = ir::domain_index(prog_.domains, var.domain, v);
        if (idx < 0) {
          error(here(row.offset + uint32_t(x), 1),
                fmt::format("{} is not a value of {}", ch == '.' ? "none" : std::string(1, ch),
                            dom.name));
          idx = 0;
        }
        cells.push_back(uint32_t(idx));
      }
    }
    if (cells.size() == var.count) setup.entries.push_back(std::move(cells));
  }
  if (diags_.error_count() != errors) return;
  if (setup.entries.empty()) {
    error(decl.path_span, fmt::format("data file '{}' holds no entries", path));
    return;
  }
  setup.default_entry = 0;
  if (decl.entry) {
    auto k = game_.constant(*decl.entry);
    if (!k) {
      error(decl.entry->span, "the entry number must be a constant");
    } else if (*k < 1 || size_t(*k) > setup.entries.size()) {
      error(decl.entry->span, fmt::format("entry {} does not exist: '{}' holds entries 1 to {}",
                                          *k, path, setup.entries.size()));
    } else {
      setup.default_entry = int(*k - 1);
    }
  }
}

}  // namespace rulebook::compiler
