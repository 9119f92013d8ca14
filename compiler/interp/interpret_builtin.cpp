// The interpreter's tables (built once per program) and its built-in functions.
#include <algorithm>

#include <fmt/format.h>

#include "compiler/interp/interpret_internal.h"
#include "compiler/ir/run_errors.h"
#include "dsl/integers.h"

namespace rulebook::compiler::interp {

using B = dsl::BuiltinId;

Machine::Machine(const ir::Program& program, const dsl::SourceSet& source_set)
    : ir::BoardTables(program.geometry), p(program), sources(source_set) {
  for (const Bits& r : row_sets) rows.push_back(Value{0, r, {}});
  for (const Bits& c : column_sets) columns.push_back(Value{0, c, {}});
  for (const Bits& l : line_sets) lines.push_back(Value{0, l, {}});
  for (const ir::Rule& r : p.rules) has_board_rules = has_board_rules || r.board_rule;
  for (const ir::Move& mv : p.moves) {
    std::vector<std::vector<int>> st(mv.params.size() + 1);
    for (size_t i = 0; i < mv.requires_.size(); ++i) st[size_t(mv.requires_stage[i])].push_back(int(i));
    for (size_t i = 0; i < mv.checks.size(); ++i) st[size_t(mv.checks_stage[i])].push_back(~int(i));
    stages.push_back(std::move(st));
  }
}

void Machine::fail(dsl::Span span, const std::string& message) const {
  throw RuleError{run_errors::located(ir::location(sources, span), message)};
}

std::string Run::none_text(const ir::Expr& e, int64_t v) const {
  return run_errors::value_text(v, run_errors::holds_none(p_.domains, *e.type));
}

namespace {

/// Orthogonally connected groups of `s`, each as a set, by their smallest cell.
std::vector<Value> groups(const Machine& m, const Bits& s) {
  std::vector<Value> out;
  for (Bits& g : m.groups(s)) out.push_back(Value{0, std::move(g), {}});
  return out;
}

}  // namespace

int64_t Run::builtin_scalar(const ir::Expr& e) {
  const auto& a = e.args;
  auto cell_arg = [&](size_t i) {
    int64_t c = scalar(*a[i]);
    if (c < 0 || c >= m_.cells) m_.fail(a[i]->span, run_errors::not_a(none_text(*a[i], c), "cell"));
    return c;
  };
  auto player_arg = [&](size_t i) {
    int64_t q = scalar(*a[i]);
    if (q < 0 || q >= p_.players) m_.fail(a[i]->span, run_errors::not_a(none_text(*a[i], q), "player"));
    return q;
  };
  switch (e.builtin) {
    case B::Width: return m_.width;
    case B::Height: return m_.height;
    case B::X:
    case B::Y: {
      if (a[0]->type->domain == ir::kPointDomain) {
        int64_t pt = scalar(*a[0]);
        if (pt < 0 || pt >= m_.points) m_.fail(a[0]->span, run_errors::not_a(none_text(*a[0], pt), "point"));
        return e.builtin == B::X ? pt % (m_.width + 1) : pt / (m_.width + 1);
      }
      int64_t c = cell_arg(0);
      return e.builtin == B::X ? c % m_.width : c / m_.width;
    }
    case B::CellAt: {
      int64_t y = scalar(*a[0]), x = scalar(*a[1]);
      return y >= 0 && y < m_.height && x >= 0 && x < m_.width ? y * m_.width + x : ir::kNone;
    }
    case B::Size:
      if (a[0]->type->kind == ir::Type::Kind::Set) {
        Bits b;
        set(*a[0], b);
        return count(b);
      }
      return int64_t(list(*a[0]).size());
    case B::LargestGroup: {
      Bits b;
      set(*a[0], b);
      int64_t best = 0;
      for (const Value& g : groups(m_, b)) best = std::max(best, count(g.set));
      return best;
    }
    case B::Abs: {
      int64_t r = 0;
      if (const char* failure = integers::abs(scalar(*a[0]), r)) m_.fail(e.span, failure);
      return r;
    }
    case B::Min: return std::min(scalar(*a[0]), scalar(*a[1]));
    case B::Max: return std::max(scalar(*a[0]), scalar(*a[1]));
    case B::Seat: return player_arg(0) + 1;
    case B::Next: return (player_arg(0) + 1) % p_.players;
    case B::Out: return get(ir::kVarOut, player_arg(0));
    case B::TeamOf: {
      int64_t q = player_arg(0);
      for (size_t t = 0; t < p_.geometry.teams.size(); ++t)
        for (int member : p_.geometry.teams[t])
          if (member == q) return int64_t(t);
      m_.fail(e.span, run_errors::in_no_team(p_.player_names[size_t(q)]));
    }
    case B::Mover: return mover_;
    case B::Horizontal: return 0;
    case B::Vertical: return 1;
    default:
      m_.fail(e.span, "internal error: this built-in is not a number");
  }
}

void Run::builtin_set(const ir::Expr& e, Bits& out) {
  const auto& a = e.args;
  auto cell_arg = [&](size_t i) {
    int64_t c = scalar(*a[i]);
    if (c < 0 || c >= m_.cells) m_.fail(a[i]->span, run_errors::not_a(none_text(*a[i], c), "cell"));
    return size_t(c);
  };
  switch (e.builtin) {
    case B::Cells: out = m_.all_cells; return;
    case B::Edge: out = m_.edge; return;
    case B::CornerCells: out = m_.corner_cells; return;
    case B::InnerPoints: out = m_.inner_points; return;
    case B::RimPoints: out = m_.rim_points; return;
    case B::Points:
      out.assign(words(uint32_t(m_.points)), 0);
      for (int i = 0; i < m_.points; ++i) set_bit(out, i);
      return;
    case B::Players:
    case B::Teams: {
      uint32_t n = e.builtin == B::Players ? uint32_t(p_.players) : uint32_t(p_.geometry.teams.size());
      out.assign(words(n), 0);
      for (uint32_t i = 0; i < n; ++i) set_bit(out, i);
      return;
    }
    case B::Row: out = m_.row[cell_arg(0)]; return;
    case B::Column: out = m_.column[cell_arg(0)]; return;
    case B::Orth: out = m_.orth[cell_arg(0)]; return;
    case B::Diag: out = m_.diag[cell_arg(0)]; return;
    case B::King: out = m_.king[cell_arg(0)]; return;
    case B::Corners: out = m_.corners[cell_arg(0)]; return;
    case B::Around: {
      int64_t pt = scalar(*a[0]);
      if (pt < 0 || pt >= m_.points) m_.fail(a[0]->span, run_errors::not_a(none_text(*a[0], pt), "point"));
      out = m_.around[size_t(pt)];
      return;
    }
    case B::Segment:
    case B::Ends: {
      const size_t c = cell_arg(0);
      const int64_t o = scalar(*a[1]), n = scalar(*a[2]);
      out.assign(words(uint32_t(m_.cells)), 0);
      const int64_t x = int64_t(c) % m_.width, y = int64_t(c) / m_.width;
      const int64_t dx = o == 0 ? 1 : 0, dy = o == 0 ? 0 : 1;
      // n is compared with the room left, not added to a coordinate: any n is safe.
      if (n <= 0 || (o == 0 ? n > m_.width - x : n > m_.height - y)) return;
      for (int64_t i = 0; i < n; ++i) {
        if (e.builtin == B::Ends && i != 0 && i != n - 1) continue;
        set_bit(out, (y + dy * i) * m_.width + x + dx * i);
      }
      return;
    }
    case B::Members: {
      int64_t t = scalar(*a[0]);
      if (t < 0 || size_t(t) >= p_.geometry.teams.size()) m_.fail(a[0]->span, run_errors::not_a(none_text(*a[0], t), "team"));
      out.assign(words(uint32_t(p_.players)), 0);
      for (int q : p_.geometry.teams[size_t(t)]) set_bit(out, q);
      return;
    }
    default:
      m_.fail(e.span, "internal error: this built-in is not a set");
  }
}

Value Run::builtin_list(const ir::Expr& e) {
  Value out;
  switch (e.builtin) {
    case B::Rows: out.list = m_.rows; break;
    case B::Columns: out.list = m_.columns; break;
    case B::Lines: out.list = m_.lines; break;
    case B::Components: {
      Bits b;
      set(*e.args[0], b);
      out.list = groups(m_, b);
      break;
    }
    default:
      m_.fail(e.span, "internal error: this built-in is not a list");
  }
  return out;
}

}  // namespace rulebook::compiler::interp
