// The formatter's expression printer, shared by format_expr.cpp and printer.cpp.
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
std::string type_text(const TypeExpr& t);

}  // namespace rulebook::dsl::detail
