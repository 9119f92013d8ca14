// Formatter: the file layout (indentation, blank lines, line breaks) and its comments.
#include "dsl/printer.h"

#include <fmt/format.h>

#include "dsl/printer_internal.h"

namespace rulebook::dsl {

namespace {

using namespace detail;

constexpr size_t kWidth = 96;       // longer lines are broken at top-level and/or
constexpr size_t kIndent = 2;
constexpr size_t kContinuation = 4;  // extra indent of a broken line
constexpr uint32_t kEverything = UINT32_MAX;

// ---------------------------------------------------------------- file layout

/// Writes lines, putting each comment before the first node that starts after it, or at
/// the end of the line it trailed.
class Writer {
 public:
  explicit Writer(const std::vector<Comment>& comments) : comments_(comments) {}

  std::string take() { return std::move(out_); }

  /// Comments that come before source offset `before`, each on its own line.
  void leading(uint32_t before, size_t indent) {
    while (next_ < comments_.size() && comments_[next_].span.begin < before) {
      out_.append(indent * kIndent, ' ');
      out_ += comments_[next_++].text;
      out_ += '\n';
    }
  }
  bool comment_before(uint32_t before) const {
    return next_ < comments_.size() && comments_[next_].span.begin < before;
  }
  void blank_line() {
    if (!out_.empty() && !out_.ends_with("\n\n")) out_ += '\n';
  }
  /// Starts a line at `indent`.
  void start(size_t indent) { out_.append(indent * kIndent, ' '); }
  void text(std::string_view s) { out_ += s; }
  /// Ends the line, appending the trailing comments that come before `trail_before`.
  void end(uint32_t trail_before = 0) {
    while (next_ < comments_.size() && comments_[next_].trailing &&
           comments_[next_].span.begin < trail_before) {
      out_ += "  ";
      out_ += comments_[next_++].text;
    }
    out_ += '\n';
  }
  /// One logical line `prefix expr suffix`. When longer than kWidth: a prefix ending in
  /// ": " or "= " keeps the line if the first operand fits, else it ends the line and the
  /// expression continues below; a top-level `and`/`or` chain (also the body of a
  /// top-level quantifier) is then broken before each operator.
  void line(size_t indent, const std::string& prefix, const Expr& e, const std::string& suffix,
            uint32_t trail_before) {
    line_at(indent * kIndent, prefix, e, suffix, trail_before);
  }
  /// Like line(), but when too long the line first breaks between `head` and `rest`
  /// (`rule r "text"` / `on m(c): ...`), the rest going on with a continuation indent.
  void split_line(size_t indent, const std::string& head, const std::string& rest,
                  const Expr& e, const std::string& suffix, uint32_t trail_before) {
    size_t column = indent * kIndent;
    if (rest.empty() ||
        column + head.size() + rest.size() + expr_text(e).size() + suffix.size() <= kWidth) {
      line_at(column, head + rest, e, suffix, trail_before);
      return;
    }
    start(indent);
    text(head);
    end();
    line_at(column + kContinuation, rest.substr(rest.find_first_not_of(' ')), e, suffix,
            trail_before);
  }
  void line_at(size_t column, const std::string& prefix, const Expr& e, const std::string& suffix,
               uint32_t trail_before) {
    std::string flat = expr_text(e);
    size_t width = column + prefix.size() + flat.size() + suffix.size();
    if (width <= kWidth) {
      out_.append(column, ' ');
      text(prefix + flat + suffix);
      end(trail_before);
      return;
    }
    size_t cont = column + kContinuation;
    std::vector<std::string> parts = chain_parts(e);
    bool can_split = prefix.ends_with(": ") || prefix.ends_with("= ");
    bool first_fits = column + prefix.size() + parts[0].size() <= kWidth;
    std::string head = prefix;
    if (can_split && (parts.size() == 1 || !first_fits)) {
      out_.append(column, ' ');
      text(prefix.substr(0, prefix.size() - 1));
      end();
      out_.append(cont, ' ');
      head.clear();
      if (cont + flat.size() + suffix.size() <= kWidth) {
        text(flat + suffix);
        end(trail_before);
        return;
      }
    } else {
      out_.append(column, ' ');
    }
    text(head + parts[0]);
    for (size_t i = 1; i < parts.size(); ++i) {
      end();
      out_.append(cont, ' ');
      text(parts[i]);
    }
    text(suffix);
    end(trail_before);
  }

 private:
  /// `e` as the pieces of its top-level and/or chain: the first one carries the head of a
  /// quantifier around the chain; the others start with their operator.
  static std::vector<std::string> chain_parts(const Expr& e) {
    const Expr* chain = &e;
    std::string head;
    if (e.kind == ExprKind::Quant) {
      std::string whole = expr_text(e);
      head = whole.substr(0, whole.size() - expr_text(*e.args[0]).size());
      chain = e.args[0].get();
    }
    if (chain->kind != ExprKind::Binary || (chain->op != Op::And && chain->op != Op::Or)) {
      return {expr_text(e)};
    }
    Op op = chain->op;
    std::vector<const Expr*> operands;
    const Expr* x = chain;
    while (x->kind == ExprKind::Binary && x->op == op) {
      operands.push_back(x->args[1].get());
      x = x->args[0].get();
    }
    operands.push_back(x);
    int prec = precedence(*chain);
    std::vector<std::string> parts(1, head);
    print_expr(parts[0], *operands.back(), prec, Follow::Op);
    for (size_t i = operands.size() - 1; i-- > 0;) {
      std::string part = std::string(op_text(op)) + " ";
      print_expr(part, *operands[i], prec + 1, i == 0 ? Follow::None : Follow::Op);
      parts.push_back(std::move(part));
    }
    return parts;
  }

  const std::vector<Comment>& comments_;
  size_t next_ = 0;
  std::string out_;
};

class FilePrinter {
 public:
  explicit FilePrinter(const File& file) : file_(file), w_(file.comments) {}

  std::string run() {
    w_.leading(file_.title_span.begin, 0);
    w_.start(0);
    if (file_.is_variant) {
      w_.text(fmt::format("variant {} extends {};", quote(file_.title), quote(file_.extends)));
    } else {
      w_.text(fmt::format("game {};", quote(file_.title)));
    }
    const auto& decls = file_.decls;
    w_.end(decls.empty() ? kEverything : decls[0].span.begin);
    for (size_t i = 0; i < decls.size(); ++i) {
      bool separate = i == 0 || decls[i].body.index() != decls[i - 1].body.index() ||
                      is_block(decls[i]) || is_block(decls[i - 1]);
      if (separate) w_.blank_line();
      w_.leading(decls[i].span.begin, 0);
      decl(decls[i], i + 1 < decls.size() ? decls[i + 1].span.begin : kEverything);
    }
    w_.leading(kEverything, 0);
    return w_.take();
  }

 private:
  static bool is_block(const Decl& d) {
    return std::holds_alternative<Phase>(d.body) || std::holds_alternative<Init>(d.body) ||
           std::holds_alternative<Move>(d.body);
  }

  // A value that is directly a grid literal gets one row per line.
  void value_line(size_t indent, const std::string& prefix, const Expr& e,
                  const std::string& suffix, uint32_t next) {
    if (e.kind != ExprKind::Grid) {
      w_.line(indent, prefix, e, suffix, next);
      return;
    }
    w_.start(indent);
    w_.text(prefix + "grid {");
    w_.end();
    for (const std::string& row : e.grid.rows) {
      w_.start(indent + 1);
      w_.text(quote(row));
      w_.end();
    }
    w_.start(indent);
    std::string tail = "}";
    print_grid_keys(tail, e.grid);
    w_.text(tail + suffix);
    w_.end(next);
  }

  void simple(size_t indent, const std::string& text, uint32_t next) {
    w_.start(indent);
    w_.text(text);
    w_.end(next);
  }

  static std::string params(const std::vector<ParamDecl>& ps) {
    std::string s;
    for (size_t i = 0; i < ps.size(); ++i) {
      s += i > 0 ? ", " : "";
      s += ps[i].name.name + ": " + type_text(*ps[i].type);
    }
    return s;
  }

  static std::string described(const Ident& name, const std::string& description) {
    return description.empty() ? name.name : name.name + " " + quote(description);
  }

  void decl(const Decl& d, uint32_t next) {
    decl_end_ = d.span.end;
    std::string o = d.is_override ? "override " : "";
    std::visit([&](const auto& body) { print(body, o, next); }, d.body);
  }

  void print(const Param& p, const std::string& o, uint32_t next) {
    std::string head = o + "param " + p.name.name;
    if (p.type) head += ": " + type_text(*p.type);
    value_line(0, head + " = ", *p.value, ";", next);
  }
  void print(const Board& b, const std::string& o, uint32_t next) {
    simple(0, o + "board " + expr_text(*b.rows) + " x " + expr_text(*b.columns) + ";", next);
  }
  void print(const Regions& r, const std::string& o, uint32_t next) {
    std::string head = o + "regions " + r.name.name + " = ";
    if (r.grid) {
      value_line(0, head, *r.grid, ";", next);
    } else {
      simple(0, head + "blocks " + expr_text(*r.block_rows) + " x " +
                    expr_text(*r.block_columns) + ";",
             next);
    }
  }
  void print(const Players& p, const std::string& o, uint32_t next) {
    std::string s = o + "players " + expr_text(*p.count);
    if (!p.names.empty()) s += " named " + names(p.names);
    simple(0, s + ";", next);
  }
  static std::string names(const std::vector<Ident>& list) {
    std::string s = "{";
    for (size_t i = 0; i < list.size(); ++i) s += (i > 0 ? ", " : "") + list[i].name;
    return s + "}";
  }
  void print(const Team& t, const std::string& o, uint32_t next) {
    simple(0, o + "team " + t.name.name + " = " + names(t.members) + ";", next);
  }
  void print(const TypeDecl& t, const std::string& o, uint32_t next) {
    simple(0, o + "type " + t.name.name + " = " + type_text(*t.type) + ";", next);
  }
  void print(const Setup& s, const std::string& o, uint32_t next) {
    std::string head = o + "setup " + s.name.name + ": " + type_text(*s.type) + " = ";
    switch (s.source) {
      case SetupSource::Value: {
        // Keep a value that reads like one of the forms from being taken for it.
        std::string text = expr_text(*s.value);
        for (std::string_view word : {"random", "shuffle", "file"}) {
          if (text.starts_with(word) && (text.size() == word.size() ||
                                         !(std::isalnum(static_cast<unsigned char>(text[word.size()])) ||
                                           text[word.size()] == '_'))) {
            simple(0, head + "(" + text + ");", next);
            return;
          }
        }
        value_line(0, head, *s.value, ";", next);
        break;
      }
      case SetupSource::Random:
        simple(0, head + "random " + expr_text(*s.value) + " of " + expr_text(*s.from) + ";",
               next);
        break;
      case SetupSource::Shuffle:
        simple(0, head + "shuffle " + expr_text(*s.value) + ";", next);
        break;
      case SetupSource::File:
        simple(0, head + "file " + quote(s.path) + (s.entry ? " entry " + expr_text(*s.entry) : "") + ";",
               next);
        break;
    }
  }
  void print(const State& s, const std::string& o, uint32_t next) {
    std::string head = o + "state " + s.name.name + ": " + type_text(*s.type);
    if (s.initial) {
      value_line(0, head + " = ", *s.initial, ";", next);
    } else {
      simple(0, head + ";", next);
    }
  }
  void print(const Init& i, const std::string& o, uint32_t next) {
    block_after(0, o + "init", i.body, decl_end_, next);
  }
  void print(const Define& d, const std::string& o, uint32_t next) {
    std::string head = o + "define " + d.name.name;
    if (d.has_params) head += "(" + params(d.params) + ")";
    if (d.type) head += ": " + type_text(*d.type);
    value_line(0, head + " = ", *d.body, ";", next);
  }
  void print(const Rule& r, const std::string& o, uint32_t next) {
    std::string head = o + "rule " + described(r.name, r.description);
    std::string rest;
    for (size_t i = 0; i < r.on.size(); ++i) {
      rest += i == 0 ? " on " : ", ";
      rest += r.on[i].move.name;
      if (r.on[i].has_args) {
        std::string args = names(r.on[i].args);
        rest += '(';
        rest += args.substr(1, args.size() - 2);
        rest += ')';
      }
    }
    if (rest.empty()) {
      w_.line(0, head + ": ", *r.condition, ";", next);
    } else {
      w_.split_line(0, head, rest + ": ", *r.condition, ";", next);
    }
  }
  void print(const Phase& p, const std::string& o, uint32_t next) {
    // Items in canonical order: moves, the stuck block, then the transitions.
    std::vector<uint32_t> starts;
    for (const Move& m : p.moves) starts.push_back(m.span.begin);
    if (p.has_stuck) starts.push_back(p.stuck_span.begin);
    for (const Transition& t : p.transitions) starts.push_back(t.span.begin);
    starts.push_back(next);
    size_t item = 0;
    w_.start(0);
    w_.text(o + "phase " + p.name.name + " {");
    w_.end(starts[0]);
    for (const Move& m : p.moves) {
      if (item > 0) w_.blank_line();
      w_.leading(m.span.begin, 1);
      move(1, m, "", starts[++item]);
    }
    if (p.has_stuck) {
      if (item > 0) w_.blank_line();
      w_.leading(p.stuck_span.begin, 1);
      block_after(1, "when stuck", p.stuck, p.stuck_span.end, starts[item + 1]);
      ++item;
    }
    for (size_t i = 0; i < p.transitions.size(); ++i) {
      const Transition& t = p.transitions[i];
      if (i == 0 && item > 0) w_.blank_line();
      w_.leading(t.span.begin, 1);
      ++item;
      w_.line(1, "until ", *t.condition, " -> " + (t.is_end ? std::string("end") : t.target.name) + ";",
              starts[item]);
    }
    w_.leading(decl_end_, 1);
    simple(0, "}", next);
  }
  void move(size_t indent, const Move& m, const std::string& o, uint32_t next) {
    std::string head = o + "move " + m.name.name;
    if (!m.params.empty()) head += "(" + params(m.params) + ")";
    if (m.requires_.empty()) {
      block_after(indent, head, m.body, m.span.end, next);
      return;
    }
    simple(indent, head, 0);
    for (size_t i = 0; i < m.requires_.size(); ++i) {
      // A comment trailing a `requires` line stays on it.
      uint32_t until = i + 1 < m.requires_.size() ? m.requires_[i + 1]->span.begin
                       : m.body.empty()         ? m.span.end
                                                : m.body[0]->span.begin;
      w_.leading(m.requires_[i]->span.begin, indent + 1);
      w_.line(indent + 1, "requires ", *m.requires_[i], ";", until);
    }
    block_after(indent, "", m.body, m.span.end, next);
  }
  void print(const Move& m, const std::string& o, uint32_t next) { move(0, m, o, next); }
  void print(const Score& s, const std::string& o, uint32_t next) {
    w_.line(0, o + "score " + (s.per_team ? "team " : "") + s.var.name + " = ", *s.value, ";", next);
  }
  void print(const Winner& wn, const std::string& o, uint32_t next) {
    simple(0, o + "winner " + (wn.highest ? "highest" : "lowest") + (wn.per_team ? " team" : "") + ";",
           next);
  }
  void print(const EndWhen& e, const std::string& o, uint32_t next) {
    w_.line(0, o + "end when ", *e.condition, ";", next);
  }
  void print(const Property& p, const std::string& o, uint32_t next) {
    static constexpr std::string_view kWords[] = {"prove",   "find",       "derive",   "lemma",
                                                  "bound",   "depends",    "consistent", "redundant"};
    std::string head = o + std::string(kWords[static_cast<int>(p.kind)]) + " ";
    switch (p.kind) {
      case PropertyKind::Depends: simple(0, head + p.subject.name + ";", next); return;
      case PropertyKind::Consistent: simple(0, head + p.name.name + ";", next); return;
      case PropertyKind::Redundant:
        simple(0, head + p.name.name + ": " + p.subject.name + ";", next);
        return;
      default: break;
    }
    head += described(p.name, p.description);
    std::string rest = " over ";
    const PropertySet& s = p.over;
    if (s.moves) {
      rest += "moves";
      for (size_t i = 0; i < s.move_names.size(); ++i) rest += (i == 0 ? " " : ", ") + s.move_names[i].name;
    } else {
      rest += "boards";
      if (!s.phase.name.empty()) rest += " of " + s.phase.name;
    }
    if (s.where) rest += " where " + expr_text(*s.where, Follow::Binder);
    rest += ": ";
    if (p.kind == PropertyKind::Bound) rest += p.maximize ? "max " : "min ";
    w_.split_line(0, head, rest, *p.expr, ";", next);
  }
  void print(const Metric& m, const std::string& o, uint32_t next) {
    std::string head = o + "metric " + described(m.name, m.description);
    std::string tail = m.when ? " when " + expr_text(*m.when) + ";" : " at end;";
    w_.split_line(0, head, " = ", *m.value, tail, next);
  }
  void print(const Symmetry& s, const std::string& o, uint32_t next) {
    std::string text = o + "symmetry " + s.name.name + ": swap ";
    for (size_t i = 0; i < s.swaps.size(); ++i) {
      text += (i > 0 ? ", " : "") + s.swaps[i].first.name + " <-> " + s.swaps[i].second.name;
    }
    simple(0, text + ";", next);
  }
  void print(const Remove& r, const std::string& o, uint32_t next) {
    static constexpr std::string_view kWords[] = {"param", "define", "rule",  "phase",
                                                  "move",  "property", "metric", "team",
                                                  "state", "setup",  "symmetry", "regions"};
    simple(0, o + "remove " + std::string(kWords[static_cast<int>(r.what)]) + " " + r.name.name + ";",
           next);
  }

  // `head {` + statements + `}`; `head` empty puts `{` alone on its line. Comments up to
  // `end` that are still pending go inside the block.
  void block_after(size_t indent, const std::string& head, const Block& body, uint32_t end,
                   uint32_t next) {
    std::string open = head.empty() ? "{" : head + " {";
    if (body.empty() && !w_.comment_before(end)) {
      simple(indent, open + "}", next);
      return;
    }
    w_.start(indent);
    w_.text(open);
    w_.end(body.empty() ? end : body[0]->span.begin);
    statements(indent + 1, body, end);
    simple(indent, "}", next);
  }

  void statements(size_t indent, const Block& body, uint32_t end) {
    for (size_t i = 0; i < body.size(); ++i) {
      w_.leading(body[i]->span.begin, indent);
      stmt(indent, *body[i], i + 1 < body.size() ? body[i + 1]->span.begin : end);
    }
    w_.leading(end, indent);
  }

  void stmt(size_t indent, const Stmt& s, uint32_t next) {
    switch (s.kind) {
      case StmtKind::Assign: {
        static constexpr std::string_view kOps[] = {" := ", " += ", " -= "};
        w_.line(indent, expr_text(*s.target) + std::string(kOps[static_cast<int>(s.assign)]),
                *s.value, ";", next);
        break;
      }
      case StmtKind::If: if_stmt(indent, s, "", next); break;
      case StmtKind::For: {
        std::string head = "for ";
        print_binders(head, s.binders, s.where, Follow::None);
        block_after(indent, head, s.body, s.span.end, next);
        break;
      }
      case StmtKind::Let: w_.line(indent, "let " + s.name.name + " = ", *s.value, ";", next); break;
      case StmtKind::Again: simple(indent, "again;", next); break;
      case StmtKind::Eliminate: w_.line(indent, "eliminate ", *s.value, ";", next); break;
      case StmtKind::Goto: simple(indent, "goto " + s.name.name + ";", next); break;
      case StmtKind::End: simple(indent, "end;", next); break;
    }
  }

  // `prefix` is "} else " for an else-if.
  void if_stmt(size_t indent, const Stmt& s, const std::string& prefix, uint32_t next) {
    uint32_t then_end = s.span.end;
    if (s.has_else && !s.otherwise.empty()) then_end = s.otherwise[0]->span.begin;
    w_.line(indent, prefix + "if ", *s.value, " {", s.body.empty() ? then_end : s.body[0]->span.begin);
    statements(indent + 1, s.body, then_end);
    if (!s.has_else) {
      simple(indent, "}", next);
    } else if (s.otherwise.size() == 1 && s.otherwise[0]->kind == StmtKind::If) {
      if_stmt(indent, *s.otherwise[0], "} else ", next);
    } else {
      w_.start(indent);
      w_.text("} else {");
      w_.end(s.otherwise.empty() ? s.span.end : s.otherwise[0]->span.begin);
      statements(indent + 1, s.otherwise, s.span.end);
      simple(indent, "}", next);
    }
  }

  const File& file_;
  Writer w_;
  uint32_t decl_end_ = 0;
};

}  // namespace

std::string format_file(const File& file) { return FilePrinter(file).run(); }


}  // namespace rulebook::dsl
