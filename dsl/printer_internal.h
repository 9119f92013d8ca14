// The formatter's expression printer and line breaker, shared by format_expr.cpp and printer.cpp.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "dsl/ast.h"

namespace rulebook::dsl::detail {

// What may follow an expression where it is printed. An open-ended expression (a
// quantifier, `if`, or an aggregate, whose last part is a greedy expression) would swallow
// a following operator, so it is parenthesized unless nothing that could be swallowed
// follows.
enum class Follow {
  None,    // `;`, `)`, `then`, `->`, ...: nothing an expression could take
  Op,      // an operator or postfix may follow
  Comma,   // `, next` in a list: only `count x in S` would read `, y in T` as its own
  Binder,  // a binder's domain or filter: parenthesized whenever open-ended, for clarity
};

/// Binding strength by grammar level: expr 0, or 1, and 2, not 3, cmp 4, range 5, add 6,
/// mul 7, unary 8, postfix and primary 9.
int precedence(const Expr& e);
std::string_view op_text(Op op);
/// A string literal with `"`, `\\` and line breaks escaped.
std::string quote(const std::string& text);
/// Appends `e`, parenthesized when its precedence is below `min_prec` or `follow` says so.
void print_expr(std::string& out, const Expr& e, int min_prec, Follow follow);
void print_type(std::string& out, const TypeExpr& t);
/// `x in D, y in E where W`; the last part is printed for `tail`, what follows the binder.
void print_binders(std::string& out, const std::vector<Binding>& binders, const ExprPtr& where,
                   Follow tail);
/// ` with {k = v, ...}` of a grid literal, or nothing.
void print_grid_keys(std::string& out, const GridLit& grid);
std::string expr_text(const Expr& e, Follow follow = Follow::None);

constexpr size_t kWidth = 96;      ///< code lines longer than this are broken where they can be
constexpr size_t kIndentStep = 2;  ///< a block, a declaration's continuation, a quantifier's body

/// Columns taken by UTF-8 text (one per code point).
size_t width(std::string_view text);

/// Lines being laid out, each with its indentation; the last one is open.
using Lines = std::vector<std::string>;

/// Appends `e` to the open line when it fits with `tail` more columns after it. Otherwise it
/// is broken: an and/or chain before its operators, a quantifier after its `:` (the body
/// indented by kIndentStep), an `if` before each `else`; continuation lines start at column
/// `base`. `body` (a declaration's value on its own line) breaks an else-if chain even when
/// it fits.
void break_expr(Lines& lines, const Expr& e, Follow follow, size_t base, size_t tail, bool body);
/// Appends a set or sequence literal as `[`, its items filled into lines at `column` +
/// kIndentStep (a new line also before item i when `breaks[i]`), and `]` on a line at
/// `column`.
void break_list(Lines& lines, const Expr& e, size_t column, const std::vector<bool>& breaks);
std::string type_text(const TypeExpr& t);

}  // namespace rulebook::dsl::detail
