// Formatter: the file layout (indentation, blank lines, line breaks) and its comments.
#include "dsl/printer.h"

#include <algorithm>

#include <fmt/format.h>

#include "dsl/printer_internal.h"

namespace rulebook::dsl {

namespace {

using namespace detail;

constexpr size_t kContinuation = 4;   // extra indent of a broken statement line
constexpr size_t kCommentWidth = 100;  // trailing comments are aligned only within this
constexpr uint32_t kEverything = UINT32_MAX;

std::string spaces(size_t n) { return std::string(n, ' '); }

std::string trim_right(std::string s) {
  while (!s.empty() && s.back() == ' ') s.pop_back();
  return s;
}

// ---------------------------------------------------------------- line breaking

/// `prefix value suffix` of a declaration: on one line when it fits; else a list literal
/// opens on the first line, its items filled into the lines below, breaking also where
/// `item_breaks` says; else the value goes on the next lines, indented by one step
/// (`define f(c: Cell): bool =` / `  owner[c] != none and ...;`).
Lines declaration(size_t column, const std::string& prefix, const Expr& e,
                  const std::string& suffix, const std::vector<bool>& item_breaks = {}) {
  std::string flat = expr_text(e);
  if (column + width(prefix) + width(flat) + width(suffix) <= kWidth) {
    return {spaces(column) + prefix + flat + suffix};
  }
  Lines lines{spaces(column) + prefix};
  if ((e.kind == ExprKind::SeqLit || e.kind == ExprKind::SetLit) && !e.args.empty()) {
    break_list(lines, e, column, item_breaks);
  } else {
    lines.back() = spaces(column) + trim_right(prefix);
    lines.push_back(spaces(column + kIndentStep));
    break_expr(lines, e, Follow::None, column + kIndentStep, width(suffix), true);
  }
  lines.back() += suffix;
  return lines;
}

/// A rule, property or metric: `head rest lead value suffix`, where `rest` is ` on m(c):`,
/// ` over ...:`, ` =` or `:`. Too long, it first breaks before `rest` (when `rest` is more
/// than `:`), then after it; the value then goes below as in declaration().
Lines headed(size_t column, const std::string& head, const std::string& rest,
             const std::string& lead, const Expr& e, const std::string& suffix,
             Follow follow = Follow::None) {
  std::string value = lead + expr_text(e, follow) + suffix;
  std::string one = spaces(column) + head + rest + " " + value;
  if (width(one) <= kWidth) return {one};
  std::string rest_alone = rest.substr(rest.find_first_not_of(' '));
  std::string second = spaces(column + kIndentStep) + rest_alone + " " + value;
  if (rest != ":" && width(second) <= kWidth) return {spaces(column) + head, second};
  Lines lines{spaces(column) + head + rest};
  if (width(lines[0]) > kWidth && rest != ":") {
    lines = {spaces(column) + head, spaces(column + kIndentStep) + rest_alone};
  }
  lines.push_back(spaces(column + kIndentStep) + lead);
  break_expr(lines, e, follow, column + kIndentStep, width(suffix), true);
  lines.back() += suffix;
  return lines;
}

/// `prefix cond suffix` of a statement, `requires` or `until` line: breaks go inside the
/// expression, continuation lines indented kContinuation more; an assignment whose first
/// line is still too long breaks after its `:=` or `=`.
Lines statement(size_t column, const std::string& prefix, const Expr& e,
                const std::string& suffix) {
  Lines lines{spaces(column) + prefix};
  break_expr(lines, e, Follow::None, column + kContinuation, width(suffix), false);
  lines.back() += suffix;
  if (width(lines[0]) > kWidth && prefix.ends_with("= ")) {
    lines = {spaces(column) + trim_right(prefix), spaces(column + kContinuation)};
    break_expr(lines, e, Follow::None, column + kContinuation, width(suffix), false);
    lines.back() += suffix;
  }
  return lines;
}

// ---------------------------------------------------------------- output lines

/// Collects the output lines, putting each comment before the first node that starts after
/// it, or at the end of the line it trailed, and the source's blank lines back.
class Writer {
 public:
  Writer(const std::vector<Comment>& comments, const SourceLines& source)
      : comments_(comments), source_(source) {}

  /// The text, trailing comments of consecutive lines aligned (see align()).
  std::string take() {
    align();
    std::string text;
    for (const Line& line : out_) {
      text += line.code;
      if (!line.comment.empty()) text += spaces(line.gap) + line.comment;
      text += '\n';
    }
    return text;
  }

  /// Comments that come before source offset `before`, each on its own line.
  void leading(uint32_t before, size_t indent) {
    while (next_ < comments_.size() && comments_[next_].span.begin < before) {
      if (blank_before(comments_[next_].span.begin)) blank_line();
      out_.push_back({spaces(indent * kIndentStep) + comments_[next_++].text, "", 0, false});
    }
  }
  bool comment_before(uint32_t before) const {
    return next_ < comments_.size() && comments_[next_].span.begin < before;
  }

  /// The source had a blank line just before the token or comment at `offset`.
  bool blank_before(uint32_t offset) const {
    return std::binary_search(source_.after_blank.begin(), source_.after_blank.end(), offset);
  }
  /// The source had a blank line just before the line holding `offset`.
  bool blank_before_line(uint32_t offset) const {
    auto it = std::lower_bound(source_.after_blank.begin(), source_.after_blank.end(),
                               line_start(offset));
    return it != source_.after_blank.end() && *it <= offset;
  }
  /// The source span [begin, end) lies on one line.
  bool one_line(uint32_t begin, uint32_t end) const {
    return end <= begin || line_start(begin) == line_start(end - 1);
  }
  /// Where the line after the one holding `offset` starts.
  uint32_t line_end(uint32_t offset) const {
    auto it = std::upper_bound(source_.starts.begin(), source_.starts.end(), offset);
    return it == source_.starts.end() ? kEverything : *it;
  }

  /// One blank line, unless at the start of the file or of a block, or after another.
  void blank_line() {
    if (out_.empty() || out_.back().code.empty() || out_.back().opens) return;
    out_.push_back({});
  }

  /// Appends `lines`; the trailing comments before `trail_before` go at the end of the last.
  void lines(const Lines& lines, uint32_t trail_before) {
    for (const std::string& line : lines) {
      std::string code = trim_right(line);
      bool opens = code.ends_with('{') || code.ends_with('[');
      out_.push_back({std::move(code), "", 0, opens});
    }
    while (next_ < comments_.size() && comments_[next_].trailing &&
           comments_[next_].span.begin < trail_before) {
      std::string& comment = out_.back().comment;
      comment += comment.empty() ? "" : "  ";
      comment += comments_[next_++].text;
    }
  }
  void line(size_t indent, const std::string& text, uint32_t trail_before) {
    lines({spaces(indent * kIndentStep) + text}, trail_before);
  }

 private:
  struct Line {
    std::string code;     ///< with its indentation; empty for a blank line
    std::string comment;  ///< a trailing comment, or empty
    size_t gap = 0;       ///< spaces between code and comment
    bool opens = false;   ///< opens a block or list: no blank line follows
  };

  uint32_t line_start(uint32_t offset) const {
    auto it = std::upper_bound(source_.starts.begin(), source_.starts.end(), offset);
    return it == source_.starts.begin() ? 0 : *(it - 1);
  }

  // Trailing comments of consecutive lines start in one column, two spaces after the
  // longest code of the group (gofmt); a group grows while its widest line stays within
  // kCommentWidth, and a line that alone passes it keeps a gap of two.
  void align() {
    for (size_t i = 0; i < out_.size();) {
      if (out_[i].comment.empty()) {
        ++i;
        continue;
      }
      size_t code = width(out_[i].code);
      size_t comment = width(out_[i].comment);
      size_t j = i + 1;
      for (; j < out_.size() && !out_[j].comment.empty(); ++j) {
        size_t c = std::max(code, width(out_[j].code));
        size_t m = std::max(comment, width(out_[j].comment));
        if (c + 2 + m > kCommentWidth) break;
        code = c;
        comment = m;
      }
      for (size_t k = i; k < j; ++k) out_[k].gap = code + 2 - width(out_[k].code);
      i = j;
    }
  }

  const std::vector<Comment>& comments_;
  const SourceLines& source_;
  size_t next_ = 0;
  std::vector<Line> out_;
};

// ---------------------------------------------------------------- declarations

class FilePrinter {
 public:
  explicit FilePrinter(const File& file) : file_(file), w_(file.comments, file.lines) {}

  std::string run() {
    w_.leading(file_.title_span.begin, 0);
    if (w_.blank_before_line(file_.title_span.begin)) w_.blank_line();
    std::string header =
        file_.is_variant
            ? fmt::format("variant {} extends {};", quote(file_.title), quote(file_.extends))
            : fmt::format("game {};", quote(file_.title));
    const auto& decls = file_.decls;
    w_.line(0, header, decls.empty() ? kEverything : decls[0].span.begin);
    for (size_t i = 0; i < decls.size(); ++i) {
      const Decl& d = decls[i];
      // Kinds apart and blocks apart, and the source's own blank lines kept.
      bool separate = i == 0 || d.body.index() != decls[i - 1].body.index() || is_block(d) ||
                      is_block(decls[i - 1]);
      if (separate) w_.blank_line();
      w_.leading(d.span.begin, 0);
      if (w_.blank_before(d.span.begin)) w_.blank_line();
      decl(d, i + 1 < decls.size() ? decls[i + 1].span.begin : kEverything);
    }
    w_.leading(kEverything, 0);
    return w_.take();
  }

 private:
  static bool is_block(const Decl& d) {
    return std::holds_alternative<Phase>(d.body) || std::holds_alternative<Init>(d.body) ||
           std::holds_alternative<Move>(d.body) || std::holds_alternative<Action>(d.body);
  }

  // A value that is directly a grid literal gets one row per line; the items of a list
  // literal that does not fit on a line keep the source's grouping into lines.
  void value_line(const std::string& prefix, const Expr& e, uint32_t next) {
    if (e.kind != ExprKind::Grid) {
      std::vector<bool> item_breaks(e.args.size(), false);
      if (e.kind == ExprKind::SeqLit || e.kind == ExprKind::SetLit) {
        for (size_t i = 1; i < e.args.size(); ++i) {
          item_breaks[i] = !w_.one_line(e.args[i - 1]->span.end - 1, e.args[i]->span.begin + 1);
        }
      }
      w_.lines(declaration(0, prefix, e, ";", item_breaks), next);
      return;
    }
    w_.line(0, prefix + "grid {", 0);
    for (const std::string& row : e.grid.rows) w_.line(1, quote(row), 0);
    std::string tail = "}";
    print_grid_keys(tail, e.grid);
    w_.line(0, tail + ";", next);
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

  static std::string names(const std::vector<Ident>& list) {
    std::string s = "{";
    for (size_t i = 0; i < list.size(); ++i) s += (i > 0 ? ", " : "") + list[i].name;
    return s + "}";
  }

  void decl(const Decl& d, uint32_t next) {
    decl_begin_ = d.span.begin;
    decl_end_ = d.span.end;
    std::string o = d.is_override ? "override " : "";
    std::visit([&](const auto& body) { print(body, o, next); }, d.body);
  }

  void print(const Param& p, const std::string& o, uint32_t next) {
    std::string head = o + "param " + p.name.name;
    if (p.type) head += ": " + type_text(*p.type);
    value_line(head + " = ", *p.value, next);
  }
  void print(const Board& b, const std::string& o, uint32_t next) {
    w_.line(0, o + "board " + expr_text(*b.rows) + " x " + expr_text(*b.columns) + ";", next);
  }
  void print(const Regions& r, const std::string& o, uint32_t next) {
    std::string head = o + "regions " + r.name.name + " = ";
    if (r.grid) {
      value_line(head, *r.grid, next);
    } else {
      w_.line(0, head + "blocks " + expr_text(*r.block_rows) + " x " +
                     expr_text(*r.block_columns) + ";",
              next);
    }
  }
  void print(const Players& p, const std::string& o, uint32_t next) {
    std::string s = o + "players " + expr_text(*p.count);
    if (!p.names.empty()) s += " named " + names(p.names);
    w_.line(0, s + ";", next);
  }
  void print(const Team& t, const std::string& o, uint32_t next) {
    w_.line(0, o + "team " + t.name.name + " = " + names(t.members) + ";", next);
  }
  void print(const TypeDecl& t, const std::string& o, uint32_t next) {
    w_.line(0, o + "type " + t.name.name + " = " + type_text(*t.type) + ";", next);
  }
  void print(const Setup& s, const std::string& o, uint32_t next) {
    std::string head = o + "setup " + s.name.name + ": " + type_text(*s.type) + " = ";
    switch (s.source) {
      case SetupSource::Value: {
        // Keep a value that reads like one of the forms from being taken for it.
        std::string text = expr_text(*s.value);
        for (std::string_view word : {"random", "shuffle", "file"}) {
          if (text.starts_with(word) &&
              (text.size() == word.size() ||
               !(std::isalnum(static_cast<unsigned char>(text[word.size()])) ||
                 text[word.size()] == '_'))) {
            w_.line(0, head + "(" + text + ");", next);
            return;
          }
        }
        value_line(head, *s.value, next);
        break;
      }
      case SetupSource::Random:
        w_.line(0, head + "random " + expr_text(*s.value) + " of " + expr_text(*s.from) + ";",
                next);
        break;
      case SetupSource::Shuffle: w_.line(0, head + "shuffle " + expr_text(*s.value) + ";", next); break;
      case SetupSource::File:
        w_.line(0,
                head + "file " + quote(s.path) + (s.entry ? " entry " + expr_text(*s.entry) : "") +
                    ";",
                next);
        break;
    }
  }
  void print(const State& s, const std::string& o, uint32_t next) {
    std::string head = o + "state " + s.name.name + ": " + type_text(*s.type);
    if (s.initial) {
      value_line(head + " = ", *s.initial, next);
    } else {
      w_.line(0, head + ";", next);
    }
  }
  void print(const Init& i, const std::string& o, uint32_t next) {
    block_after(0, o + "init", i.body, decl_begin_, decl_end_, next);
  }
  void print(const Action& a, const std::string& o, uint32_t next) {
    block_after(0, o + "action " + a.name.name + "(" + params(a.params) + ")", a.body,
                decl_begin_, decl_end_, next);
  }
  void print(const Define& d, const std::string& o, uint32_t next) {
    std::string head = o + "define " + d.name.name;
    if (d.has_params) head += "(" + params(d.params) + ")";
    if (d.type) head += ": " + type_text(*d.type);
    value_line(head + " = ", *d.body, next);
  }
  void print(const Rule& r, const std::string& o, uint32_t next) {
    std::string rest;
    for (size_t i = 0; i < r.on.size(); ++i) {
      rest += i == 0 ? " on " : ", ";
      rest += r.on[i].move.name;
      if (r.on[i].has_args) {
        std::string args = names(r.on[i].args);
        rest += "(" + args.substr(1, args.size() - 2) + ")";
      }
    }
    w_.lines(headed(0, o + "rule " + described(r.name, r.description), rest + ":", "",
                    *r.condition, ";"),
             next);
  }
  void print(const Phase& p, const std::string& o, uint32_t next) {
    // Items in source order, so that comments stay with them.
    enum class Kind { Move, Stuck, Until };
    struct Item {
      uint32_t begin;
      Kind kind;
      size_t index;
    };
    std::vector<Item> items;
    for (size_t i = 0; i < p.moves.size(); ++i) items.push_back({p.moves[i].span.begin, Kind::Move, i});
    if (p.has_stuck) items.push_back({p.stuck_span.begin, Kind::Stuck, 0});
    for (size_t i = 0; i < p.transitions.size(); ++i) {
      items.push_back({p.transitions[i].span.begin, Kind::Until, i});
    }
    std::sort(items.begin(), items.end(),
              [](const Item& a, const Item& b) { return a.begin < b.begin; });
    w_.line(0, o + "phase " + p.name.name + " {", items.empty() ? decl_end_ : items[0].begin);
    for (size_t i = 0; i < items.size(); ++i) {
      const Item& item = items[i];
      // Moves and `when stuck` stand apart; `until` lines keep the source's grouping.
      if (i > 0 && (item.kind != Kind::Until || items[i - 1].kind != Kind::Until)) w_.blank_line();
      w_.leading(item.begin, 1);
      if (w_.blank_before(item.begin)) w_.blank_line();
      uint32_t after = i + 1 < items.size() ? items[i + 1].begin : decl_end_;
      switch (item.kind) {
        case Kind::Move: move(1, p.moves[item.index], "", after); break;
        case Kind::Stuck:
          block_after(1, "when stuck", p.stuck, p.stuck_span.begin, p.stuck_span.end, after);
          break;
        case Kind::Until: {
          const Transition& t = p.transitions[item.index];
          std::string target = t.is_end ? std::string("end") : t.target.name;
          w_.lines(statement(kIndentStep, "until ", *t.condition, " -> " + target + ";"), after);
          break;
        }
      }
    }
    w_.leading(decl_end_, 1);
    w_.line(0, "}", next);
  }
  void move(size_t indent, const Move& m, const std::string& o, uint32_t next) {
    std::string head = o + "move " + m.name.name;
    if (!m.params.empty()) head += "(" + params(m.params) + ")";
    if (!m.phase.name.empty()) head += " in " + m.phase.name;
    if (m.requires_.empty()) {
      block_after(indent, head, m.body, m.span.begin, m.span.end, next);
      return;
    }
    w_.line(indent, head,
            opening_trail(m.span.begin, m.span.end, m.requires_[0]->span.begin, next));
    for (size_t i = 0; i < m.requires_.size(); ++i) {
      // A comment trailing a `requires` line stays on it.
      uint32_t until = i + 1 < m.requires_.size() ? m.requires_[i + 1]->span.begin
                       : m.body.empty()         ? m.span.end
                                                : m.body[0]->span.begin;
      w_.leading(m.requires_[i]->span.begin, indent + 1);
      w_.lines(statement((indent + 1) * kIndentStep, "requires ", *m.requires_[i], ";"), until);
    }
    block_after(indent, "", m.body, m.span.begin, m.span.end, next);
  }
  void print(const Move& m, const std::string& o, uint32_t next) { move(0, m, o, next); }
  void print(const Score& s, const std::string& o, uint32_t next) {
    value_line(o + "score " + (s.per_team ? "team " : "") + s.var.name + " = ", *s.value, next);
  }
  void print(const Winner& wn, const std::string& o, uint32_t next) {
    w_.line(0, o + "winner " + (wn.highest ? "highest" : "lowest") + (wn.per_team ? " team" : "") + ";",
            next);
  }
  void print(const EndWhen& e, const std::string& o, uint32_t next) {
    w_.lines(declaration(0, o + "end when ", *e.condition, ";"), next);
  }
  void print(const Property& p, const std::string& o, uint32_t next) {
    std::string head = o + std::string(property_keyword(p.kind)) + " ";
    switch (p.kind) {
      case PropertyKind::Depends: w_.line(0, head + p.subject.name + ";", next); return;
      case PropertyKind::Consistent: w_.line(0, head + p.name.name + ";", next); return;
      case PropertyKind::Redundant:
        w_.line(0, head + p.name.name + ": " + p.subject.name + ";", next);
        return;
      default: break;
    }
    head += described(p.name, p.description);
    if (p.kind == PropertyKind::Invariant) {
      w_.lines(headed(0, head, ":", "", *p.expr, ";"), next);
      return;
    }
    if (p.kind == PropertyKind::Puzzle) {
      puzzle(head, p, next);
      return;
    }
    std::string rest = " over ";
    const PropertySet& s = p.over;
    if (s.moves) {
      rest += s.reachable ? "reachable moves" : "moves";
      for (size_t i = 0; i < s.move_names.size(); ++i) {
        rest += (i == 0 ? " " : ", ") + s.move_names[i].name;
      }
    } else {
      rest += s.reachable ? "reachable" : s.play ? "play" : "boards";
      if (!s.phase.name.empty()) rest += " of " + s.phase.name;
    }
    for (size_t i = 0; i < s.setups.size(); ++i)
      rest += (i == 0 ? " with " : ", ") + s.setups[i].first.name + " = " + expr_text(*s.setups[i].second);
    if (s.where) rest += " where " + expr_text(*s.where, Follow::Binder);
    std::string lead = p.kind != PropertyKind::Bound ? "" : p.maximize ? "max " : "min ";
    w_.lines(headed(0, head, rest + ":", lead, *p.expr, ";"), next);
  }
  // `puzzle NAME:` alone on its line, then the solution and one line (or more) per clue.
  void puzzle(const std::string& head, const Property& p, uint32_t next) {
    Lines lines{head + ":"};
    for (std::string& l : statement(kIndentStep, "solution ", *p.expr, ";")) lines.push_back(std::move(l));
    if (!p.up_to.empty()) {
      std::string up(kIndentStep, ' ');
      up += "up to ";
      for (size_t i = 0; i < p.up_to.size(); ++i) up += (i ? ", " : "") + p.up_to[i].name;
      lines.push_back(up + ";");
    }
    for (const Clue& c : p.clues) {
      std::string rest;
      if (!c.binders.empty()) {
        rest = " for ";
        print_binders(rest, c.binders, c.where, Follow::Binder);
      }
      for (std::string& l : headed(kIndentStep, "clue " + c.name.name, rest + ":", "", *c.body, ";"))
        lines.push_back(std::move(l));
    }
    w_.lines(lines, next);
  }
  void print(const Metric& m, const std::string& o, uint32_t next) {
    // The value is closed (`(count ...) at end`) so that `at` or `when` does not read as
    // part of it.
    std::string tail = m.when ? " when " + expr_text(*m.when) + ";" : " at end;";
    w_.lines(headed(0, o + "metric " + described(m.name, m.description), " =", "", *m.value, tail,
                    Follow::Op),
             next);
  }
  void print(const Symmetry& s, const std::string& o, uint32_t next) {
    std::string text = o + "symmetry " + s.name.name + ": swap ";
    for (size_t i = 0; i < s.swaps.size(); ++i) {
      text += (i > 0 ? ", " : "") + s.swaps[i].first.name + " <-> " + s.swaps[i].second.name;
    }
    w_.line(0, text + ";", next);
  }
  void print(const Allow& a, const std::string& o, uint32_t next) {
    std::string subject = a.subject.name.empty() ? "" : " " + a.subject.name;
    w_.line(0, o + "allow " + a.code.name + subject + " " + quote(a.reason) + ";", next);
  }
  void print(const Remove& r, const std::string& o, uint32_t next) {
    static constexpr std::string_view kWords[] = {"param", "define",   "rule",   "phase",
                                                  "move",  "property", "metric", "team",
                                                  "state", "setup",    "symmetry", "regions",
                                                  "action"};
    w_.line(0, o + "remove " + std::string(kWords[static_cast<int>(r.what)]) + " " + r.name.name +
                (r.phase.name.empty() ? "" : " from " + r.phase.name) + ";",
            next);
  }

  // ---------------------------------------------------------------- blocks

  // The line that opens a block takes the trailing comments before the block's first
  // statement; when the whole block stood on one source line, also the comment after it
  // (unless another node followed on that line).
  uint32_t opening_trail(uint32_t begin, uint32_t end, uint32_t first_inside,
                         uint32_t next) const {
    if (!w_.one_line(begin, end)) return first_inside;
    return std::max(first_inside, std::min(w_.line_end(begin), next));
  }

  // `head {` + statements + `}`; `head` empty puts `{` alone on its line. Comments up to
  // `end` that are still pending go inside the block.
  void block_after(size_t indent, const std::string& head, const Block& body, uint32_t begin,
                   uint32_t end, uint32_t next) {
    std::string open = head.empty() ? "{" : head + " {";
    if (body.empty() && !w_.comment_before(end)) {
      w_.line(indent, open + "}", next);
      return;
    }
    w_.line(indent, open, opening_trail(begin, end, body.empty() ? end : body[0]->span.begin, next));
    statements(indent + 1, body, end);
    w_.line(indent, "}", next);
  }

  void statements(size_t indent, const Block& body, uint32_t end) {
    for (size_t i = 0; i < body.size(); ++i) {
      w_.leading(body[i]->span.begin, indent);
      if (w_.blank_before(body[i]->span.begin)) w_.blank_line();
      stmt(indent, *body[i], i + 1 < body.size() ? body[i + 1]->span.begin : end);
    }
    w_.leading(end, indent);
  }

  void stmt(size_t indent, const Stmt& s, uint32_t next) {
    size_t column = indent * kIndentStep;
    switch (s.kind) {
      case StmtKind::Assign: {
        static constexpr std::string_view kOps[] = {" := ", " += ", " -= "};
        std::string target = expr_text(*s.target) + std::string(kOps[static_cast<int>(s.assign)]);
        w_.lines(statement(column, target, *s.value, ";"), next);
        break;
      }
      case StmtKind::If: if_stmt(indent, s, "", next); break;
      case StmtKind::For: {
        std::string head = "for ";
        print_binders(head, s.binders, s.where, Follow::None);
        block_after(indent, head, s.body, s.span.begin, s.span.end, next);
        break;
      }
      case StmtKind::Let:
        w_.lines(statement(column, "let " + s.name.name + " = ", *s.value, ";"), next);
        break;
      case StmtKind::Again: w_.line(indent, "again;", next); break;
      case StmtKind::Eliminate: w_.lines(statement(column, "eliminate ", *s.value, ";"), next); break;
      case StmtKind::Goto: w_.line(indent, "goto " + s.name.name + ";", next); break;
      case StmtKind::End: w_.line(indent, "end;", next); break;
      case StmtKind::Call: w_.lines(statement(column, "", *s.value, ";"), next); break;
    }
  }

  // `prefix` is "} else " for an else-if.
  void if_stmt(size_t indent, const Stmt& s, const std::string& prefix, uint32_t next) {
    uint32_t then_end = s.span.end;
    if (s.has_else && !s.otherwise.empty()) then_end = s.otherwise[0]->span.begin;
    uint32_t inside = s.body.empty() ? then_end : s.body[0]->span.begin;
    w_.lines(statement(indent * kIndentStep, prefix + "if ", *s.value, " {"),
             opening_trail(s.span.begin, s.span.end, inside, next));
    statements(indent + 1, s.body, then_end);
    if (!s.has_else) {
      w_.line(indent, "}", next);
    } else if (s.otherwise.size() == 1 && s.otherwise[0]->kind == StmtKind::If) {
      if_stmt(indent, *s.otherwise[0], "} else ", next);
    } else {
      w_.line(indent, "} else {", s.otherwise.empty() ? s.span.end : s.otherwise[0]->span.begin);
      statements(indent + 1, s.otherwise, s.span.end);
      w_.line(indent, "}", next);
    }
  }

  const File& file_;
  Writer w_;
  uint32_t decl_end_ = 0;
  uint32_t decl_begin_ = 0;
};

}  // namespace

std::string format_file(const File& file) { return FilePrinter(file).run(); }

}  // namespace rulebook::dsl
