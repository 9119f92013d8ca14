// Lexer: one pass over the bytes, linear time, at most kMaxErrorsPerFile errors.
#include "dsl/lexer.h"

#include <algorithm>
#include <array>
#include <limits>
#include <unordered_map>

#include <fmt/format.h>

namespace rulebook::dsl {

namespace {

struct KindInfo {
  std::string_view spelling;  // "rule", ";"
  std::string_view name;      // "'rule'", "';'"
  KeywordRole role;
};

// Generated from the token lists in lexer.h: the only place spellings live.
#define RULEBOOK_QUOTE(text) "'" text "'"
constexpr KindInfo kKindInfo[] = {
    {"", "end of file", KeywordRole::NotKeyword},
    {"", "identifier", KeywordRole::NotKeyword},
    {"", "integer", KeywordRole::NotKeyword},
    {"", "string", KeywordRole::NotKeyword},
#define RULEBOOK_X(name, text) {text, RULEBOOK_QUOTE(text), KeywordRole::NotKeyword},
    RULEBOOK_PUNCTUATION(RULEBOOK_X)
#undef RULEBOOK_X
#define RULEBOOK_X(name, text, role) {text, RULEBOOK_QUOTE(text), KeywordRole::role},
    RULEBOOK_KEYWORDS(RULEBOOK_X)
#undef RULEBOOK_X
};
#undef RULEBOOK_QUOTE

constexpr size_t kKindCount = sizeof kKindInfo / sizeof kKindInfo[0];
constexpr size_t kFirstKeyword = static_cast<size_t>(TokenKind::KwGame);
constexpr size_t kFirstPunct = static_cast<size_t>(TokenKind::LParen);

const std::unordered_map<std::string_view, TokenKind>& keyword_table() {
  static const auto table = [] {
    std::unordered_map<std::string_view, TokenKind> t;
    for (size_t i = kFirstKeyword; i < kKindCount; ++i) {
      t.emplace(kKindInfo[i].spelling, static_cast<TokenKind>(i));
    }
    return t;
  }();
  return table;
}

// Punctuation by first byte, longest spelling first, so "<->" wins over "<=" over "<".
const std::array<std::vector<TokenKind>, 256>& punct_table() {
  static const auto table = [] {
    std::array<std::vector<TokenKind>, 256> t;
    for (size_t i = kFirstPunct; i < kFirstKeyword; ++i) {
      auto first = static_cast<unsigned char>(kKindInfo[i].spelling[0]);
      t[first].push_back(static_cast<TokenKind>(i));
    }
    for (auto& list : t) {
      std::stable_sort(list.begin(), list.end(), [](TokenKind a, TokenKind b) {
        return kKindInfo[static_cast<size_t>(a)].spelling.size() >
               kKindInfo[static_cast<size_t>(b)].spelling.size();
      });
    }
    return t;
  }();
  return table;
}

bool is_ident_start(unsigned char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}
bool is_digit(unsigned char c) { return c >= '0' && c <= '9'; }
bool is_ident_char(unsigned char c) { return is_ident_start(c) || is_digit(c); }
bool is_valid_start(unsigned char c) {
  return is_ident_start(c) || is_digit(c) || c == '"' || c == '/' || c == ' ' || c == '\t' ||
         c == '\r' || c == '\n' || !punct_table()[c].empty();
}

}  // namespace

std::string_view token_kind_name(TokenKind kind) {
  return kKindInfo[static_cast<size_t>(kind)].name;
}

std::string_view token_spelling(TokenKind kind) {
  return kKindInfo[static_cast<size_t>(kind)].spelling;
}

KeywordRole keyword_role(TokenKind kind) { return kKindInfo[static_cast<size_t>(kind)].role; }

TokenKind keyword_kind(std::string_view word) {
  const auto& table = keyword_table();
  auto it = table.find(word);
  return it == table.end() ? TokenKind::Ident : it->second;
}

const std::vector<std::string>& declaration_words() {
  static const auto words = [] {
    std::vector<std::string> w;
    for (size_t i = kFirstKeyword; i < kKindCount; ++i) {
      KeywordRole role = kKindInfo[i].role;
      if (role == KeywordRole::Decl || role == KeywordRole::DeclContextual) {
        w.emplace_back(kKindInfo[i].spelling);
      }
    }
    return w;
  }();
  return words;
}

namespace {

/// The offset of the first byte showing that `text` is binary data rather than a rule
/// file, or npos. A NUL byte is proof; otherwise many control bytes near the start are.
size_t binary_evidence(std::string_view text) {
  const size_t nul = text.substr(0, size_t{1} << 16).find('\0');
  if (nul != std::string_view::npos) return nul;
  size_t controls = 0, first = std::string_view::npos;
  const size_t window = std::min<size_t>(text.size(), 4096);
  for (size_t i = 0; i < window; ++i) {
    auto c = static_cast<unsigned char>(text[i]);
    if ((c < 0x20 && c != '\t' && c != '\n' && c != '\r' && c != '\f') || c == 0x7F) {
      if (controls++ == 0) first = i;
    }
  }
  // Text editors never write these; a few may be a stray paste, dozens are not text.
  return controls >= 4 && controls * 100 >= window ? first : std::string_view::npos;
}

}  // namespace

Lexer::Lexer(const SourceSet& sources, uint32_t file, Diagnostics& diags)
    : text_(sources.file(file).text), file_(file), diags_(diags) {
  const size_t at = binary_evidence(text_);
  if (at != std::string_view::npos) {
    const auto offset = static_cast<uint32_t>(at);
    Diagnostic& d = diags_.error(Span{file_, offset, offset + 1},
                                 fmt::format("this is not a rule file: it holds binary data "
                                             "(byte 0x{:02X})",
                                             static_cast<unsigned char>(text_[at])));
    d.hint = "rule files are plain text (UTF-8)";
    ++errors_;
    stopped_ = true;
  }
}

Diagnostic* Lexer::error(Span span, std::string message, std::string hint) {
  if (stopped_) return nullptr;
  if (errors_ >= kMaxErrorsPerFile) {
    stopped_ = true;
    diags_.error(span, "too many errors; stopping");
    return nullptr;
  }
  ++errors_;
  Diagnostic& d = diags_.error(span, std::move(message));
  d.hint = std::move(hint);
  return &d;
}

Token Lexer::make(TokenKind kind, uint32_t start, uint32_t end) {
  Token t;
  t.kind = kind;
  t.span = Span{file_, start, end};
  t.text = text_.substr(start, end - start);
  return t;
}

void Lexer::skip_space_and_comments(bool& line_start) {
  const size_t n = text_.size();
  while (pos_ < n) {
    char c = text_[pos_];
    if (c == '\n') {
      line_start = true;
      code_on_line_ = false;
      ++pos_;
    } else if (c == ' ' || c == '\t' || c == '\r') {
      ++pos_;
    } else if (c == '/' && pos_ + 1 < n && text_[pos_ + 1] == '/') {
      uint32_t start = pos_;
      size_t newline = text_.find('\n', pos_);
      pos_ = static_cast<uint32_t>(newline == std::string_view::npos ? n : newline);
      uint32_t end = pos_;
      if (end > start && text_[end - 1] == '\r') --end;
      comments_.push_back(Comment{Span{file_, start, end},
                                  std::string(text_.substr(start, end - start)),
                                  code_on_line_});
    } else {
      return;
    }
  }
}

Token Lexer::next() {
  while (true) {
    bool line_start = !code_on_line_;
    skip_space_and_comments(line_start);
    if (stopped_ || pos_ >= text_.size()) {
      Token eof = make(TokenKind::Eof, static_cast<uint32_t>(text_.size()),
                       static_cast<uint32_t>(text_.size()));
      eof.line_start = line_start;
      return eof;
    }
    uint32_t start = pos_;
    auto c = static_cast<unsigned char>(text_[pos_]);
    Token t;
    if (is_ident_start(c)) {
      t = lex_word(start);
    } else if (is_digit(c)) {
      t = lex_number(start);
    } else if (c == '"') {
      t = lex_string(start);
    } else if (!punct_table()[c].empty()) {
      TokenKind kind = TokenKind::Eof;
      for (TokenKind k : punct_table()[c]) {
        if (text_.substr(pos_).starts_with(token_spelling(k))) {
          kind = k;
          break;
        }
      }
      if (kind == TokenKind::Eof) {
        // '!' alone: only "!=" starts with it.
        ++pos_;
        Diagnostic* d = error(Span{file_, start, pos_}, fmt::format("unexpected character '{}'",
                                                                    static_cast<char>(c)));
        if (d && c == '!') d->hint = "use 'not' for negation, '!=' for inequality";
        continue;
      }
      pos_ += static_cast<uint32_t>(token_spelling(kind).size());
      t = make(kind, start, pos_);
    } else {
      // One error for a run of bad bytes, so binary junk spends the error budget slowly
      // and stays linear.
      while (pos_ < text_.size() && !is_valid_start(static_cast<unsigned char>(text_[pos_]))) {
        ++pos_;
      }
      std::string message = c >= 0x21 && c < 0x7F
                                ? fmt::format("unexpected character '{}'", static_cast<char>(c))
                                : fmt::format("unexpected byte 0x{:02X}", c);
      Diagnostic* d = error(Span{file_, start, start + 1}, std::move(message));
      if (d && c >= 0x80) d->hint = "names and operators are ASCII; other text belongs in strings or comments";
      continue;
    }
    t.line_start = line_start;
    code_on_line_ = true;
    return t;
  }
}

Token Lexer::lex_word(uint32_t start) {
  while (pos_ < text_.size() && is_ident_char(static_cast<unsigned char>(text_[pos_]))) ++pos_;
  Token t = make(TokenKind::Ident, start, pos_);
  if (t.text.size() <= 16) t.kind = keyword_kind(t.text);
  return t;
}

Token Lexer::lex_number(uint32_t start) {
  constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
  int64_t value = 0;
  bool overflow = false;
  while (pos_ < text_.size() && is_digit(static_cast<unsigned char>(text_[pos_]))) {
    int digit = text_[pos_] - '0';
    if (value > (kMax - digit) / 10) overflow = true;
    if (!overflow) value = value * 10 + digit;
    ++pos_;
  }
  Token t = make(TokenKind::Int, start, pos_);
  if (overflow) {
    error(t.span, "integer too large", fmt::format("integers go up to {}", kMax));
    value = 0;
  }
  t.int_value = value;
  return t;
}

Token Lexer::lex_string(uint32_t start) {
  ++pos_;  // opening quote
  std::string value;
  const size_t n = text_.size();
  while (true) {
    if (pos_ >= n || text_[pos_] == '\n') {
      uint32_t end = static_cast<uint32_t>(pos_);
      if (end > start && text_[end - 1] == '\r') --end;
      error(Span{file_, start, end}, "unterminated string", "close it with '\"' on the same line");
      break;
    }
    char c = text_[pos_];
    if (c == '"') {
      ++pos_;
      break;
    }
    if (c == '\\') {
      char e = pos_ + 1 < n ? text_[pos_ + 1] : '\0';
      if (e == '"' || e == '\\') {
        value += e;
        pos_ += 2;
        continue;
      }
      if (e == 'n') {
        value += '\n';
        pos_ += 2;
        continue;
      }
      if (e == '\n' || pos_ + 1 >= n) {
        ++pos_;  // the unterminated check above reports it
        continue;
      }
      error(Span{file_, pos_, pos_ + 2}, "unknown escape in string",
            "the escapes are \\\", \\\\ and \\n");
      pos_ += 2;
      continue;
    }
    // Copy a run of ordinary bytes at once.
    size_t run = pos_;
    while (run < n && text_[run] != '"' && text_[run] != '\\' && text_[run] != '\n') ++run;
    value.append(text_.substr(pos_, run - pos_));
    pos_ = static_cast<uint32_t>(run);
  }
  Token t = make(TokenKind::String, start, pos_);
  t.string_value = std::move(value);
  return t;
}

std::vector<Token> lex_all(const SourceSet& sources, uint32_t file, Diagnostics& diags,
                           std::vector<Comment>* comments) {
  Lexer lexer(sources, file, diags);
  std::vector<Token> tokens;
  while (true) {
    tokens.push_back(lexer.next());
    if (tokens.back().kind == TokenKind::Eof) break;
  }
  if (comments) *comments = lexer.take_comments();
  return tokens;
}

}  // namespace rulebook::dsl
