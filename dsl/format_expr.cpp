// Formatter: expressions and types, with the parentheses that keep the tree (and a few that
// help the reader), on one line or broken to fit.
#include <algorithm>
#include <cctype>

#include "dsl/lexer.h"
#include "dsl/printer.h"
#include "dsl/printer_internal.h"

namespace rulebook::dsl {

namespace detail {

namespace {

bool open_ended(const Expr& e) {
  return e.kind == ExprKind::Quant || e.kind == ExprKind::If || e.kind == ExprKind::Aggregate;
}

bool is_chain(const Expr& e, Op op) { return e.kind == ExprKind::Binary && e.op == op; }

bool needs_parens(const Expr& e, int min_prec, Follow follow) {
  if (precedence(e) < min_prec) return true;
  if (!open_ended(e)) return false;
  switch (follow) {
    case Follow::None: return false;
    case Follow::Comma: return e.kind == ExprKind::Aggregate && e.agg == AggregateKind::Count && !e.where;
    default: return true;
  }
}

// Besides precedence, an `and` inside an `or` keeps its parentheses: `a or (b and c)` is
// how the rules are written by hand, and reads without recalling which binds tighter.
int operand_prec(const Expr& parent, const Expr& operand, int prec) {
  if (is_chain(parent, Op::Or) && is_chain(operand, Op::And)) return 3;
  return prec;
}

bool is_plain_name(const std::string& s) {
  if (s.empty() || !(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_')) return false;
  for (char c : s) {
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_')) return false;
  }
  KeywordRole role = keyword_role(keyword_kind(s));
  return role == KeywordRole::NotKeyword || role == KeywordRole::Contextual ||
         role == KeywordRole::DeclContextual;
}

std::string grid_key(const std::string& key) {
  bool digits = !key.empty() && key.find_first_not_of("0123456789") == std::string::npos;
  return digits || is_plain_name(key) ? key : quote(key);
}

void print_list(std::string& out, const std::vector<ExprPtr>& items, size_t first) {
  for (size_t i = first; i < items.size(); ++i) {
    if (i > first) out += ", ";
    print_expr(out, *items[i], 0, i + 1 < items.size() ? Follow::Comma : Follow::None);
  }
}
}  // namespace

// `x in D, y in E where W`; the last part takes `tail` (what follows the whole binder).
void print_binders(std::string& out, const std::vector<Binding>& binders, const ExprPtr& where,
                   Follow tail) {
  for (size_t i = 0; i < binders.size(); ++i) {
    if (i > 0) out += ", ";
    out += binders[i].var.name;
    out += " in ";
    bool last = i + 1 == binders.size() && !where;
    print_expr(out, *binders[i].domain, 0, last ? tail : Follow::Binder);
  }
  if (where) {
    out += " where ";
    print_expr(out, *where, 0, Follow::Binder);
  }
}

// Binding strength by grammar level: expr 0, or 1, and 2, not 3, cmp 4, range 5, add 6,
// mul 7, unary 8, postfix and primary 9.
int precedence(const Expr& e) {
  switch (e.kind) {
    case ExprKind::Quant:
    case ExprKind::If: return 0;
    case ExprKind::Unary: return e.op == Op::Not ? 3 : 8;
    case ExprKind::Int: return e.value < 0 ? 8 : 9;
    case ExprKind::Binary:
      switch (e.op) {
        case Op::Or: return 1;
        case Op::And: return 2;
        case Op::Range: return 5;
        case Op::Add:
        case Op::Sub: return 6;
        case Op::Mul:
        case Op::Div:
        case Op::Mod:
        case Op::Inter: return 7;
        default: return 4;
      }
    default: return 9;
  }
}

std::string_view op_text(Op op) {
  switch (op) {
    case Op::Or: return "or";
    case Op::And: return "and";
    case Op::Not: return "not";
    case Op::Eq: return "==";
    case Op::Ne: return "!=";
    case Op::Lt: return "<";
    case Op::Le: return "<=";
    case Op::Gt: return ">";
    case Op::Ge: return ">=";
    case Op::In: return "in";
    case Op::NotIn: return "not in";
    case Op::Range: return "..";
    case Op::Add: return "+";
    case Op::Sub: return "-";
    case Op::Mul: return "*";
    case Op::Div: return "/";
    case Op::Mod: return "%";
    case Op::Inter: return "&";
    case Op::Neg: return "-";
  }
  return "?";
}

std::string quote(const std::string& text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (c == '\n') {
      out += "\\n";
    } else {
      out += c;
    }
  }
  return out + "\"";
}

void print_grid_keys(std::string& out, const GridLit& grid) {
  if (grid.keys.empty()) return;
  out += " with {";
  for (size_t i = 0; i < grid.keys.size(); ++i) {
    out += i > 0 ? ", " : "";
    out += grid_key(grid.keys[i].key);
    out += " = ";
    print_expr(out, *grid.keys[i].value, 0, i + 1 < grid.keys.size() ? Follow::Comma : Follow::None);
  }
  out += "}";
}

void print_expr(std::string& out, const Expr& e, int min_prec, Follow follow) {
  if (needs_parens(e, min_prec, follow)) {
    out += '(';
    print_expr(out, e, 0, Follow::None);
    out += ')';
    return;
  }
  switch (e.kind) {
    case ExprKind::Int: out += std::to_string(e.value); break;
    case ExprKind::String: out += quote(e.text); break;
    case ExprKind::Bool: out += e.value ? "true" : "false"; break;
    case ExprKind::None: out += "none"; break;
    case ExprKind::Name:
      // A variable named `grid` before `{` (as in `if x == grid {`) would read as a grid
      // literal; the parentheses keep it a name.
      out += e.ident.name == "grid" ? "(grid)" : e.ident.name;
      break;
    case ExprKind::Call:
      print_expr(out, *e.args[0], 9, Follow::Op);
      out += '(';
      print_list(out, e.args, 1);
      out += ')';
      break;
    case ExprKind::Index:
      print_expr(out, *e.args[0], 9, Follow::Op);
      out += '[';
      print_expr(out, *e.args[1], 0, Follow::None);
      out += ']';
      break;
    case ExprKind::Field:
      print_expr(out, *e.args[0], 9, Follow::Op);
      out += '.';
      out += e.ident.name;
      break;
    case ExprKind::Unary:
      // An operand is closed even where nothing follows: `-(sum ...)`, `a + (max ...)`.
      if (e.op == Op::Not) {
        out += "not ";
        print_expr(out, *e.args[0], 3, Follow::Op);
      } else {
        std::string operand;
        print_expr(operand, *e.args[0], 8, Follow::Op);
        out += operand.starts_with('-') ? "- " : "-";  // `- -a`, not `--a`
        out += operand;
      }
      break;
    case ExprKind::Binary: {
      int prec = precedence(e);
      // Left-associative chains; comparisons and ranges take no chain at all.
      int left = prec == 4 || prec == 5 ? prec + 1 : prec;
      print_expr(out, *e.args[0], operand_prec(e, *e.args[0], left), Follow::Op);
      out += e.op == Op::Range ? "" : " ";
      out += op_text(e.op);
      out += e.op == Op::Range ? "" : " ";
      print_expr(out, *e.args[1], operand_prec(e, *e.args[1], prec + 1), Follow::Op);
      break;
    }
    case ExprKind::If:
      out += "if ";
      print_expr(out, *e.args[0], 0, Follow::None);
      out += " then ";
      print_expr(out, *e.args[1], 0, Follow::None);
      out += " else ";
      print_expr(out, *e.args[2], 0, follow);
      break;
    case ExprKind::Quant:
      out += e.quant == Quantifier::All ? "all " : e.quant == Quantifier::Some ? "some " : "no ";
      print_binders(out, e.binders, e.where, Follow::Binder);
      out += ": ";
      print_expr(out, *e.args[0], 0, follow);
      break;
    case ExprKind::Aggregate: {
      static constexpr std::string_view kWords[] = {"count ", "sum ", "max ", "min "};
      out += kWords[static_cast<int>(e.agg)];
      if (e.agg == AggregateKind::Count || e.args.empty()) {
        print_binders(out, e.binders, e.where, follow);
      } else {
        print_binders(out, e.binders, e.where, Follow::Binder);
        out += ": ";
        print_expr(out, *e.args[0], 0, follow);
      }
      break;
    }
    case ExprKind::SetLit:
      out += '{';
      print_list(out, e.args, 0);
      out += '}';
      break;
    case ExprKind::Comprehension:
      out += e.value ? '{' : '[';
      print_expr(out, *e.args[0], 0, Follow::None);
      out += " for ";
      print_binders(out, e.binders, e.where, Follow::None);
      out += e.value ? '}' : ']';
      break;
    case ExprKind::SetFilter:
      out += '{';
      out += e.binders[0].var.name;
      out += " in ";
      print_expr(out, *e.binders[0].domain, 0, Follow::Binder);
      out += " | ";
      print_expr(out, *e.args[0], 0, Follow::None);
      out += '}';
      break;
    case ExprKind::RecordLit:
      out += '{';
      for (size_t i = 0; i < e.args.size(); ++i) {
        out += i > 0 ? ", " : "";
        out += i < e.fields.size() ? e.fields[i].name : "?";
        out += ": ";
        print_expr(out, *e.args[i], 0, i + 1 < e.args.size() ? Follow::Comma : Follow::None);
      }
      out += '}';
      break;
    case ExprKind::SeqLit:
      out += '[';
      print_list(out, e.args, 0);
      out += ']';
      break;
    case ExprKind::Grid:
      out += "grid {";
      for (const std::string& row : e.grid.rows) {
        out += ' ';
        out += quote(row);
      }
      out += " }";
      print_grid_keys(out, e.grid);
      break;
  }
}

void print_type(std::string& out, const TypeExpr& t) {
  switch (t.kind) {
    case TypeKind::Bool: out += "bool"; break;
    case TypeKind::Int: out += "int"; break;
    case TypeKind::Range:
      print_expr(out, *t.lo, 6, Follow::Op);
      out += "..";
      print_expr(out, *t.hi, 6, Follow::Op);
      break;
    case TypeKind::Enum:
    case TypeKind::Record:
      out += '{';
      for (size_t i = 0; i < t.members.size(); ++i) {
        out += i > 0 ? ", " : "";
        out += t.members[i].name;
        if (t.kind == TypeKind::Record && i < t.elems.size()) {
          out += ": ";
          print_type(out, *t.elems[i]);
        }
      }
      out += '}';
      break;
    case TypeKind::Named: out += t.name.name; break;
    case TypeKind::Optional:
      print_type(out, *t.elems[0]);
      out += '?';
      break;
    case TypeKind::Set:
    case TypeKind::Seq:
      out += t.kind == TypeKind::Set ? "set of " : "seq of ";
      print_type(out, *t.elems[0]);
      break;
    case TypeKind::Map:
      print_type(out, *t.elems[0]);
      out += " -> ";
      print_type(out, *t.elems[1]);
      break;
  }
}

// ---------------------------------------------------------------- breaking long expressions

size_t width(std::string_view text) {
  size_t n = 0;
  for (char c : text) n += (static_cast<unsigned char>(c) & 0xC0) != 0x80;  // UTF-8 lead bytes
  return n;
}

namespace {

// No binder or `if` anywhere inside: such operands may share a line when a chain breaks.
bool is_simple(const Expr& e) {
  switch (e.kind) {
    case ExprKind::Quant:
    case ExprKind::Aggregate:
    case ExprKind::If:
    case ExprKind::SetFilter:
    case ExprKind::Comprehension: return false;
    default: break;
  }
  for (const ExprPtr& arg : e.args) {
    if (arg && !is_simple(*arg)) return false;
  }
  return true;
}

bool is_else_if_chain(const Expr& e) {
  return e.kind == ExprKind::If && e.args[2]->kind == ExprKind::If;
}

class Breaker {
 public:
  explicit Breaker(Lines& lines) : lines_(lines) {}

  // `e` on the open line if it fits with `tail` columns after it; else broken by its kind,
  // continuation lines starting at column `base`.
  void expr(const Expr& e, int min_prec, Follow follow, size_t base, size_t tail, bool body) {
    std::string flat;
    print_expr(flat, e, min_prec, follow);
    if (fits(flat, tail) && !(body && is_else_if_chain(e))) {
      lines_.back() += flat;
      return;
    }
    if (needs_parens(e, min_prec, follow)) {
      // Inside the parentheses, continuation lines line up after the `(`.
      lines_.back() += '(';
      expr(e, 0, Follow::None, width(lines_.back()), tail + 1, false);
      lines_.back() += ')';
      return;
    }
    if (is_chain(e, Op::And) || is_chain(e, Op::Or)) return chain(e, follow, base, tail);
    if (e.kind == ExprKind::If) return branches(e, follow, base, tail);
    if (e.kind == ExprKind::Quant && quantifier(e, follow, base, tail)) return;
    if (is_chain(e, Op::Eq) || is_chain(e, Op::Ne) || is_chain(e, Op::Lt) || is_chain(e, Op::Le) ||
        is_chain(e, Op::Gt) || is_chain(e, Op::Ge))
      return comparison(e, follow, base, tail);
    if (is_chain(e, Op::Add) || is_chain(e, Op::Sub)) return sum(e, follow, base, tail);
    lines_.back() += flat;  // nothing to break at: the line stays long
  }

 private:
  bool fits(std::string_view text, size_t tail) const {
    return width(lines_.back()) + width(text) + tail <= kWidth;
  }
  void new_line(size_t column, std::string_view text = "") {
    lines_.push_back(std::string(column, ' ') + std::string(text));
  }

  // Breaks before `and` / `or`, the operator starting the line; neighbouring operands
  // without binders share a line while they fit.
  void chain(const Expr& e, Follow follow, size_t base, size_t tail) {
    std::vector<const Expr*> operands;
    const Expr* x = &e;
    for (; is_chain(*x, e.op); x = x->args[0].get()) operands.push_back(x->args[1].get());
    operands.push_back(x);
    std::reverse(operands.begin(), operands.end());
    int prec = precedence(e);
    std::string op(op_text(e.op));
    bool whole = false;  // the previous operand stands whole on the open line
    for (size_t i = 0; i < operands.size(); ++i) {
      const Expr& operand = *operands[i];
      bool last = i + 1 == operands.size();
      int p = operand_prec(e, operand, i == 0 ? prec : prec + 1);
      Follow f = last ? follow : Follow::Op;
      size_t t = last ? tail : 0;
      std::string text;
      print_expr(text, operand, p, f);
      size_t before = lines_.size();
      if (i == 0) {
        expr(operand, p, f, base, t, false);
      } else if (whole && is_simple(*operands[i - 1]) && is_simple(operand) &&
                 fits(" " + op + " " + text, t)) {
        lines_.back() += " " + op + " " + text;
      } else {
        new_line(base, op + " ");
        expr(operand, p, f, base, t, false);
      }
      whole = lines_.size() == before || (i > 0 && lines_.size() == before + 1);
    }
  }

  // `a` on the open line, `== b` starting the next (the operator leads, as with `and`).
  void comparison(const Expr& e, Follow follow, size_t base, size_t tail) {
    expr(*e.args[0], 5, Follow::Op, base, 0, false);
    new_line(base, std::string(op_text(e.op)) + " ");
    expr(*e.args[1], 5, follow, base, tail, false);
  }

  // A sum or difference of several terms: as many terms per line as fit, a line starting
  // with its `+` or `-`.
  void sum(const Expr& e, Follow follow, size_t base, size_t tail) {
    std::vector<std::pair<Op, const Expr*>> terms;  // after the first
    const Expr* x = &e;
    for (; is_chain(*x, Op::Add) || is_chain(*x, Op::Sub); x = x->args[0].get())
      terms.push_back({x->op, x->args[1].get()});
    std::reverse(terms.begin(), terms.end());
    expr(*x, 6, Follow::Op, base, 0, false);
    for (size_t i = 0; i < terms.size(); ++i) {
      const bool last = i + 1 == terms.size();
      const Follow f = last ? follow : Follow::Op;
      const size_t t = last ? tail : 0;
      const std::string op(op_text(terms[i].first));
      std::string text;
      print_expr(text, *terms[i].second, 7, f);
      if (fits(" " + op + " " + text, t)) {
        lines_.back() += " " + op + " " + text;
      } else {
        new_line(base, op + " ");
        expr(*terms[i].second, 7, f, base, t, false);
      }
    }
  }

  // `if c then a` / `else if d then b` / `else z`, one branch per line.
  void branches(const Expr& e, Follow follow, size_t base, size_t tail) {
    const Expr* x = &e;
    for (bool first = true; x->kind == ExprKind::If; x = x->args[2].get(), first = false) {
      if (!first) new_line(base, "else ");
      lines_.back() += "if " + expr_text(*x->args[0]) + " then " + expr_text(*x->args[1]);
    }
    new_line(base, "else ");
    expr(*x, 0, follow, base, tail, false);
  }

  // `all x in S:` ends the line, the body goes on indented below.
  bool quantifier(const Expr& e, Follow follow, size_t base, size_t tail) {
    std::string head = e.quant == Quantifier::All ? "all " : e.quant == Quantifier::Some ? "some " : "no ";
    print_binders(head, e.binders, e.where, Follow::Binder);
    head += ':';
    if (!fits(head, 0)) return false;
    lines_.back() += head;
    new_line(base + kIndentStep);
    expr(*e.args[0], 0, follow, base + kIndentStep, tail, false);
    return true;
  }

  Lines& lines_;
};

}  // namespace

void break_expr(Lines& lines, const Expr& e, Follow follow, size_t base, size_t tail, bool body) {
  Breaker(lines).expr(e, 0, follow, base, tail, body);
}

void break_list(Lines& lines, const Expr& e, size_t column, const std::vector<bool>& breaks) {
  lines.back() += e.kind == ExprKind::SeqLit ? '[' : '{';
  size_t inner = column + kIndentStep;
  lines.push_back(std::string(inner, ' '));
  for (size_t i = 0; i < e.args.size(); ++i) {
    bool last = i + 1 == e.args.size();
    std::string item;
    print_expr(item, *e.args[i], 0, last ? Follow::None : Follow::Comma);
    if (!last) item += ',';
    if (width(lines.back()) > inner) {
      bool keep_break = i < breaks.size() && breaks[i];
      if (!keep_break && width(lines.back()) + 1 + width(item) <= kWidth) {
        lines.back() += ' ';
      } else {
        lines.push_back(std::string(inner, ' '));
      }
    }
    lines.back() += item;
  }
  lines.push_back(std::string(column, ' ') + (e.kind == ExprKind::SeqLit ? ']' : '}'));
}

std::string expr_text(const Expr& e, Follow follow) {
  std::string s;
  print_expr(s, e, 0, follow);
  return s;
}

std::string type_text(const TypeExpr& t) {
  std::string s;
  print_type(s, t);
  return s;
}

}  // namespace detail

std::string format_expr(const Expr& expr) { return detail::expr_text(expr); }

std::string format_type(const TypeExpr& type) { return detail::type_text(type); }

}  // namespace rulebook::dsl
