// The recursive-descent parser's state, shared by parser.cpp (file, declarations,
// statements) and parse_expr.cpp (expressions, types). Not part of the public interface.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "dsl/ast.h"
#include "dsl/diagnostics.h"
#include "dsl/lexer.h"

namespace rulebook::dsl::detail {

/// Thrown after an error has been reported (or suppressed); caught at the declaration
/// loop, which skips to the next declaration. Never leaves `parse()`.
struct ParseError {};

/// Deepest nesting of expressions, types and blocks (and longest operator chain) the
/// parser accepts, so that no later recursive pass can overflow the stack.
inline constexpr int kMaxDepth = 256;

class Parser {
 public:
  Parser(const SourceSet& sources, uint32_t file, Diagnostics& diags);
  std::unique_ptr<File> parse_file();

  // ---- tokens
  const Token& peek(size_t n = 0);
  Token advance();
  bool at(TokenKind kind) { return peek().kind == kind; }
  bool accept(TokenKind kind);
  /// Consumes a token of `kind` or fails with "expected K <context>, found X".
  Token expect(TokenKind kind, std::string_view context);
  /// An identifier, or a contextual keyword used as one.
  bool at_name(size_t n = 0);
  Ident expect_name(std::string_view what);
  /// `;` ending a declaration or statement; a missing one before a new line is reported
  /// at the end of the previous token and parsing goes on.
  void expect_semicolon(std::string_view after);
  std::string describe(const Token& token) const;
  Span here() const { return Span{file_, prev_end_, prev_end_}; }
  Span from(const Span& start) const { return Span{file_, start.begin, prev_end_}; }

  // ---- errors
  /// Reports unless the current declaration already has an error or the same token
  /// already carried one.
  Diagnostic* report(Span span, std::string message, std::string hint = "");
  [[noreturn]] void fail(Span span, std::string message, std::string hint = "");
  [[noreturn]] void fail_expected(std::string_view what);
  void enter(const Span& span);  // one level deeper; fails past kMaxDepth
  bool starts_declaration();
  void sync_declaration(uint32_t decl_start);

  // ---- file, declarations and statements (parser.cpp)
  void parse_header(File& file);
  void parse_declaration(File& file);
  DeclBody parse_declaration_body(bool is_override);
  // one per declaration kind (parse_decl.cpp)
  Param parse_param();
  Board parse_board();
  Regions parse_regions();
  std::vector<Ident> parse_name_list(std::string_view open_where, std::string_view close_where);
  Players parse_players();
  Team parse_team();
  TypeDecl parse_typedecl();
  Setup parse_setup();
  State parse_state();
  Init parse_init();
  Define parse_define();
  Action parse_action();
  void parse_comprehension(Expr& e, std::string_view what);
  std::vector<ParamDecl> parse_params();
  Rule parse_rule();
  MoveRef parse_moveref();
  Phase parse_phase();
  void parse_phase_item(Phase& phase);
  Move parse_move(bool is_override, bool top_level);
  Score parse_score();
  Winner parse_winner();
  EndWhen parse_endwhen();
  Property parse_property();
  void parse_puzzle(Property& p);
  PropertySet parse_property_set();
  Metric parse_metric();
  Symmetry parse_symmetry();
  Allow parse_allow();
  Remove parse_remove();
  Block parse_block(std::string_view what);
  StmtPtr parse_stmt();
  StmtPtr parse_if_stmt();
  ExprPtr parse_lvalue();
  ExprPtr parse_dimension_then_x(std::string_view what);

  // ---- expressions and types (parse_expr.cpp)
  ExprPtr parse_expr();
  ExprPtr parse_quant();
  ExprPtr parse_if_expr();
  void parse_binder(std::vector<Binding>& binders, ExprPtr& where);
  ExprPtr parse_or();
  ExprPtr parse_or_rest(ExprPtr lhs);
  ExprPtr parse_and();
  ExprPtr parse_and_rest(ExprPtr lhs);
  ExprPtr parse_not();
  ExprPtr parse_cmp();
  ExprPtr parse_range();
  ExprPtr parse_add();
  ExprPtr parse_mul();
  ExprPtr parse_unary();
  ExprPtr parse_postfix();
  ExprPtr parse_primary();
  ExprPtr parse_aggregate();
  ExprPtr parse_braces();
  ExprPtr regroup_membership(Binding b);
  ExprPtr parse_grid(const Token& grid_word);
  TypePtr parse_type();
  TypePtr parse_type_operand();

  ExprPtr make(ExprKind kind, Span span);
  ExprPtr binary(Op op, ExprPtr lhs, ExprPtr rhs);

 private:
  Lexer lexer_;
  const SourceSet& sources_;
  uint32_t file_;
  // Lookahead: a ring of tokens, `ahead_count_` of them starting at `ahead_first_`.
  static constexpr size_t kLookahead = 4;
  Token ahead_[kLookahead];
  size_t ahead_first_ = 0;
  size_t ahead_count_ = 0;
  uint32_t prev_end_ = 0;        ///< end of the last consumed token
  int depth_ = 0;
  int open_braces_ = 0;          ///< `{` consumed and not yet closed in this declaration
  int open_blocks_ = 0;          ///< of those, the ones that opened a block or a phase
  size_t decl_error_mark_ = 0;   ///< lexer error count when the declaration began
  uint32_t last_error_at_ = UINT32_MAX;
};

}  // namespace rulebook::dsl::detail
