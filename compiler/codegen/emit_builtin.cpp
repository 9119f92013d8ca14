// The C++ emitter's built-ins (geometry, players, sets and numbers) and the constants it
// hoists out of the code: sets, tables and lists named once above their uses.
#include <algorithm>

#include "compiler/codegen/emit_internal.h"
#include "compiler/ir/int_range.h"

namespace rulebook::compiler::emit {

using ir::Op;
using B = dsl::BuiltinId;

// ---------------------------------------------------------------- constants

std::string ExprEmitter::constant_set(const ir::Expr& e) {
  const int d = e.type->domain;
  std::string lit = names_.bits_literal(d, e.bits);
  if (names_.words(d) <= 2) return lit;
  // Wide sets get a name, so the same bits are not spelt out at every use.
  auto it = s_.named_constants_.find(lit);
  if (it != s_.named_constants_.end()) return it->second;
  const std::string name = fmt::format("kSet{}", s_.named_constants_.size());
  s_.named_constants_[lit] = name;
  s_.constant_defs_.push_back(fmt::format("constexpr {} {} = {};", names_.cpp_type(*e.type), name, lit));
  return name;
}

std::string ExprEmitter::constant_item(const ir::Expr& x) {
  if (x.op == Op::Const)
    return names_.is_bool(*x.type) ? (x.value ? "true" : "false")
                                   : names_.value_literal(-1, x.value);
  if (x.op == Op::ConstSet) return names_.bits_literal(x.type->domain, x.bits);
  if (x.op == Op::ConstList) {
    std::string s = fmt::format("{}{{{}, {{", names_.cpp_type(*x.type), x.args.size());
    for (size_t i = 0; i < x.args.size(); ++i) s += (i ? ", " : "") + constant_item(*x.args[i]);
    return s + "}}";
  }
  s_.errors_.push_back(fmt::format("{}: a constant list holds a non-constant", names_.where_text(x.span)));
  return "{}";
}

std::string ExprEmitter::constant_table(const ir::Expr& e) {
  const std::string elem = e.type->elem ? names_.cpp_type(*e.type->elem) : "Int";
  std::string body;
  for (size_t i = 0; i < e.args.size(); ++i) {
    body += (i ? ",\n    " : "    ") + constant_item(*e.args[i]);
  }
  const std::string key = elem + "|" + body;
  auto it = s_.named_constants_.find(key);
  if (it != s_.named_constants_.end()) return it->second;
  const std::string name = fmt::format("kTable{}", s_.named_constants_.size());
  s_.named_constants_[key] = name;
  s_.constant_defs_.push_back(fmt::format("/// {}\nconstexpr {} {}[{}] = {{\n{}\n}};",
                                       names_.line_of(e.span), elem, name,
                                       std::max<size_t>(e.args.size(), 1),
                                       e.args.empty() ? "    {}" : body));
  return name;
}

std::string ExprEmitter::constant_list(const ir::Expr& e) {
  const std::string type = names_.cpp_type(*e.type);
  std::string body;
  for (size_t i = 0; i < e.args.size(); ++i) {
    body += (i ? ",\n    " : "    ") + constant_item(*e.args[i]);
  }
  const std::string key = type + "|" + body;
  auto it = s_.named_constants_.find(key);
  if (it != s_.named_constants_.end()) return it->second;
  const std::string name = fmt::format("kList{}", s_.named_constants_.size());
  s_.named_constants_[key] = name;
  s_.constant_defs_.push_back(fmt::format("/// {}\nconstexpr {} {} = {{{}, {{\n{}\n}}}};",
                                       names_.line_of(e.span), type, name, e.args.size(),
                                       body));
  return name;
}

// ---------------------------------------------------------------- built-ins

std::string ExprEmitter::builtin(const ir::Expr& e) {
  const auto& a = e.args;
  auto arg = [&](size_t i) { return expr(*a[i]); };
  auto is_point = [&](size_t i) { return a[i]->type && a[i]->type->domain == ir::kPointDomain; };
  const int W = program_.geometry.width, H = program_.geometry.height;
  switch (e.builtin) {
    case B::Width: return std::to_string(W);
    case B::Height: return std::to_string(H);
    case B::Cells: case B::Points: case B::Players: case B::Teams: {
      const int d = e.builtin == B::Cells ? ir::kCellDomain
                    : e.builtin == B::Points ? ir::kPointDomain
                    : e.builtin == B::Players ? ir::kPlayerDomain
                                              : ir::kTeamDomain;
      return fmt::format("full_d{}()", d);
    }
    case B::Rows: case B::Columns: case B::Lines:
    case B::Edge: case B::CornerCells: case B::InnerPoints: case B::RimPoints:
      return geometry_constant(e);
    case B::Row: return fmt::format("kRow[{}]", cell_arg(*a[0]));
    case B::Column: return fmt::format("kColumn[{}]", cell_arg(*a[0]));
    case B::Orth: return fmt::format("kOrth[{}]", cell_arg(*a[0]));
    case B::Diag: return fmt::format("kDiag[{}]", cell_arg(*a[0]));
    case B::King: return fmt::format("kKing[{}]", cell_arg(*a[0]));
    case B::Corners: return fmt::format("kCorners[{}]", cell_arg(*a[0]));
    case B::Around:
      return fmt::format("kAround[{}]", arg_index(ir::kPointDomain, *a[0], "point"));
    case B::X:
      return is_point(0) ? fmt::format("({} % {})", arg_index(ir::kPointDomain, *a[0], "point"), W + 1)
                         : fmt::format("({} % {})", cell_arg(*a[0]), W);
    case B::Y:
      return is_point(0) ? fmt::format("({} / {})", arg_index(ir::kPointDomain, *a[0], "point"), W + 1)
                         : fmt::format("({} / {})", cell_arg(*a[0]), W);
    case B::CellAt: return fmt::format("cell_at({}, {})", arg(0), arg(1));
    case B::Segment:
      return fmt::format("segment({}, {}, {})", cell_arg(*a[0]), arg(1), arg(2));
    case B::Ends:
      return fmt::format("ends({}, {}, {})", cell_arg(*a[0]), arg(1), arg(2));
    case B::Size:
      if (is_list(*a[0]->type)) return fmt::format("Int({}.n)", names_.paren(arg(0)));
      return fmt::format("{}.count()", names_.paren(arg(0)));
    case B::Components:
      return fmt::format("components_of<{}, {}, {}>({}, kOrth)", names_.words(ir::kCellDomain),
                         std::max(W * H, 1), masks_.list_cap(names_.cpp_type(*e.type->elem)), arg(0));
    case B::LargestGroup: return fmt::format("largest_group_of({}, kOrth)", arg(0));
    case B::Abs:
      if (cannot_overflow(program_, e)) return fmt::format("abs_of({})", arg(0));
      return fmt::format("abs_chk({}, {})", arg(0), names_.where(e.span));
    case B::Min: return fmt::format("min_of({}, {})", arg(0), arg(1));
    case B::Max: return fmt::format("max_of({}, {})", arg(0), arg(1));
    case B::Seat: return fmt::format("({} + 1)", arg_index(ir::kPlayerDomain, *a[0], "player"));
    case B::Next:
      return fmt::format("(({} + 1) % {})", arg_index(ir::kPlayerDomain, *a[0], "player"),
                         program_.players);
    case B::Out:
      return fmt::format("(g.s.{}[{}] != 0)", names_.field_name(ir::kVarOut),
                         arg_index(ir::kPlayerDomain, *a[0], "player"));
    case B::TeamOf:
      return fmt::format("team_of({}, {})", arg_index(ir::kPlayerDomain, *a[0], "player"),
                         names_.where(e.span));
    case B::Members:
      return fmt::format("kMembers[{}]", arg_index(ir::kTeamDomain, *a[0], "team"));
    case B::Mover: return "g.mover_";
    case B::Horizontal: return "0";
    case B::Vertical: return "1";
    case B::Can: break;
  }
  s_.errors_.push_back(fmt::format("{}: built-in not supported by the emitter", names_.where_text(e.span)));
  return "0";
}

std::string ExprEmitter::arg_index(int d, const ir::Expr& x, std::string_view what) {
  return checked_index(d, x, x.span, run_errors::not_a(run_errors::kHole1, what));
}

std::string ExprEmitter::geometry_constant(const ir::Expr& e) {
  const int W = program_.geometry.width, H = program_.geometry.height;
  auto cell_bits = [&](auto pred, int domain, int count, int row_len) {
    std::vector<uint64_t> bits(size_t(names_.words(domain)), 0);
    for (int i = 0; i < count; ++i)
      if (pred(i / row_len, i % row_len)) bits[size_t(i) / 64] |= uint64_t(1) << (i % 64);
    ir::Expr c;
    c.op = Op::ConstSet;
    c.type = e.type;
    c.bits = bits;
    return constant_set(c);
  };
  switch (e.builtin) {
    case B::Edge:
      return cell_bits([&](int y, int x) { return y == 0 || x == 0 || y == H - 1 || x == W - 1; },
                       ir::kCellDomain, W * H, std::max(W, 1));
    case B::CornerCells:
      return cell_bits([&](int y, int x) { return (y == 0 || y == H - 1) && (x == 0 || x == W - 1); },
                       ir::kCellDomain, W * H, std::max(W, 1));
    case B::InnerPoints:
      return cell_bits([&](int y, int x) { return y > 0 && y < H && x > 0 && x < W; },
                       ir::kPointDomain, (W + 1) * (H + 1), W + 1);
    case B::RimPoints:
      return cell_bits([&](int y, int x) { return y == 0 || y == H || x == 0 || x == W; },
                       ir::kPointDomain, (W + 1) * (H + 1), W + 1);
    default: break;
  }
  // rows, columns, lines: constant lists of cell sets.
  ir::Expr list;
  list.op = Op::ConstList;
  list.type = e.type;
  list.span = e.span;
  auto add = [&](auto pred) {
    auto s = std::make_unique<ir::Expr>();
    s->op = Op::ConstSet;
    s->type = e.type->elem;
    s->bits.assign(size_t(names_.words(ir::kCellDomain)), 0);
    for (int c = 0; c < W * H; ++c)
      if (pred(c / W, c % W)) s->bits[size_t(c) / 64] |= uint64_t(1) << (c % 64);
    list.args.push_back(std::move(s));
  };
  if (e.builtin == B::Rows || e.builtin == B::Lines)
    for (int y = 0; y < H; ++y) add([y](int cy, int) { return cy == y; });
  if (e.builtin == B::Columns || e.builtin == B::Lines)
    for (int x = 0; x < W; ++x) add([x](int, int cx) { return cx == x; });
  return constant_list(list);
}

std::string ExprEmitter::call(const ir::Expr& e) {
  const ir::Function& F = program_.functions[size_t(e.function)];
  std::string s = names_.fn_name(e.function) + "(g";
  for (size_t i = 0; i < e.args.size(); ++i) {
    s += ", " + (i < F.params.size() ? expr_as(*e.args[i], *F.params[i]) : expr(*e.args[i]));
  }
  return s + ")";
}
}  // namespace rulebook::compiler::emit
