// Chosen moves for `play`: reading them, matching them to the game's moves, and explaining
// a refusal with the conditions of the rules that fail (read by the interpreter).
#include "cli/play_moves.h"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <regex>

#include <fmt/core.h>
#include <fmt/format.h>

#include "dsl/diagnostics.h"

namespace rulebook::cli {
namespace {

std::string trimmed(const std::string& s) {
  size_t b = 0, e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
  return s.substr(b, e - b);
}

std::string without_spaces(const std::string& s) {
  std::string out;
  for (char c : s)
    if (!std::isspace(static_cast<unsigned char>(c))) out += c;
  return out;
}

/// Splits `text` at the `sep`s outside (), [] and {}.
std::vector<std::string> split_outside_brackets(const std::string& text, char sep) {
  std::vector<std::string> out(1);
  int depth = 0;
  for (char c : text) {
    if (c == '(' || c == '[' || c == '{') ++depth;
    if (c == ')' || c == ']' || c == '}') --depth;
    if (c == sep && depth == 0) out.emplace_back();
    else out.back() += c;
  }
  return out;
}

/// The line of a `play` transcript without its number, or nullopt when it has none.
std::optional<std::string> transcript_move(const std::string& line) {
  static const std::regex numbered(R"(^\s*[0-9]+\.\s+(.*)$)");
  std::smatch m;
  if (!std::regex_match(line, m, numbered)) return std::nullopt;
  std::string rest = m[1].str();
  // The effects play prints after the move, two spaces then `[...]`.
  if (size_t fx = rest.find("  ["); fx != std::string::npos) rest.resize(fx);
  return trimmed(rest);
}

/// A directive of a moves file's comment: `# seed N`, `# setup name=value`.
void read_directive(const std::string& comment, MoveScript& out) {
  static const std::regex seed(R"(^#\s*seed\s+([0-9]+)\s*$)");
  static const std::regex setup(R"(^#\s*setup\s+(\S+=\S*)\s*$)");
  std::smatch m;
  if (std::regex_match(comment, m, seed)) out.seed = std::stoull(m[1].str());
  else if (std::regex_match(comment, m, setup)) out.setups.push_back(m[1].str());
}

/// A condition's truth on the evaluator's state: 1, 0, or -1 with `error` set.
int truth(compiler::Evaluator& ev, const ir::Expr& condition, std::string& error) {
  int64_t v = 0;
  const engine::Status st = ev.scalar(condition, v);
  if (!st.ok) {
    error = st.message;
    return -1;
  }
  return v != 0 ? 1 : 0;
}

}  // namespace

std::vector<WrittenMove> split_moves(const std::string& text) {
  std::vector<WrittenMove> out;
  for (const std::string& part : split_outside_brackets(text, ','))
    if (std::string t = trimmed(part); !t.empty()) out.push_back({t, 0});
  return out;
}

bool read_moves_file(const std::string& path, MoveScript& out, std::string& error) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    error = fmt::format("{}: error: cannot read the moves file", path);
    return false;
  }
  std::vector<std::pair<std::string, int>> lines;
  bool transcript = false;
  std::string line;
  for (int n = 1; std::getline(in, line); ++n) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    lines.emplace_back(line, n);
    transcript = transcript || transcript_move(line).has_value();
  }
  static const std::regex title_seed(R"(^.*\(seed ([0-9]+)\)\s*$)");
  bool first = true;
  for (const auto& [text, n] : lines) {
    const std::string t = trimmed(text);
    if (t.empty()) continue;
    if (transcript) {
      // The transcript's first line is the title and the seed of the game played.
      std::smatch m;
      if (first && std::regex_match(t, m, title_seed)) out.seed = std::stoull(m[1].str());
      first = false;
      if (t[0] == '#') read_directive(t, out);
      else if (std::optional<std::string> mv = transcript_move(text)) out.moves.push_back({*mv, n});
      continue;
    }
    if (t[0] == '#') {
      read_directive(t, out);
      continue;
    }
    const size_t hash = t.find(" #");
    out.moves.push_back({trimmed(hash == std::string::npos ? t : t.substr(0, hash)), n});
  }
  return true;
}

bool parse_move(const ir::Program& p, const std::string& written, engine::Move& out, int& player,
                std::string& error) {
  std::string text = trimmed(written);
  player = -1;
  // `p1 place(r0c1)`, as play prints a move: the player first.
  const std::vector<std::string>& players = p.domains[ir::kPlayerDomain].members;
  for (size_t i = 0; i < players.size(); ++i) {
    const std::string& name = players[i];
    if (text.size() > name.size() && text.compare(0, name.size(), name) == 0 &&
        std::isspace(static_cast<unsigned char>(text[name.size()]))) {
      player = int(i);
      text = trimmed(text.substr(name.size()));
      break;
    }
  }
  const std::string t = without_spaces(text);
  const size_t open = t.find('(');
  const std::string name = t.substr(0, open);
  std::vector<std::string> args;
  if (open != std::string::npos) {
    if (t.back() != ')') {
      error = fmt::format("'{}' is not a move: a ')' is missing at the end", written);
      return false;
    }
    args = split_outside_brackets(t.substr(open + 1, t.size() - open - 2), ',');
    if (args.size() == 1 && args[0].empty()) args.clear();
  }
  std::vector<std::string> known;
  for (size_t k = 0; k < p.moves.size(); ++k) {
    const ir::Move& mv = p.moves[k];
    if (std::find(known.begin(), known.end(), mv.name) == known.end()) known.push_back(mv.name);
    if (mv.name != name) continue;
    if (args.size() != mv.params.size()) {
      error = fmt::format("no such move: '{}' takes {} argument{}, '{}' has {}", mv.name, mv.params.size(),
                          mv.params.size() == 1 ? "" : "s", written, args.size());
      return false;
    }
    out = engine::Move{};
    out.kind = int32_t(k);
    for (size_t i = 0; i < args.size(); ++i) {
      const int d = mv.params[i].domain;
      const ir::Domain& dom = p.domains[size_t(d)];
      bool found = false;
      for (uint32_t v = 0; v < dom.size && !found; ++v) {
        const ir::Value value = ir::domain_value(p.domains, d, v);
        if (without_spaces(ir::value_text(p.domains, d, value)) == args[i]) {
          out.args[i] = int32_t(value);
          found = true;
        }
      }
      if (!found) {
        error = fmt::format("no such move: '{}' is not a value of {} (argument {} of {}, {})", args[i], dom.name,
                            i + 1, mv.name, mv.params[i].name);
        return false;
      }
    }
    return true;
  }
  error = fmt::format("no such move: the rules have no move named '{}' (their moves: {})", name,
                      fmt::join(known, ", "));
  return false;
}

Refusal why_not_legal(const compiler::Interpreter& interpreter, const dsl::SourceSet& sources,
                      const uint8_t* state, const engine::Move& move, bool board_rules_always) {
  const ir::Program& p = interpreter.program();
  const ir::Move& mv = p.moves[size_t(move.kind)];
  Refusal out;
  if (interpreter.terminal(state)) {
    out.reason = "the game is over: no move can be played";
    return out;
  }
  const ir::Phase& ph = p.phases[size_t(interpreter.phase(state))];
  if (std::find(ph.moves.begin(), ph.moves.end(), move.kind) == ph.moves.end()) {
    out.reason = fmt::format("'{}' is not a move of phase {}", mv.name, ph.name);
    if (mv.phase >= 0) out.reason += fmt::format(" (it is a move of phase {})", p.phases[size_t(mv.phase)].name);
    return out;
  }
  std::vector<uint8_t> copy(state, state + p.state_bytes);
  compiler::Evaluator ev(interpreter);
  ev.start(copy.data(), std::max(64, mv.locals));
  for (size_t i = 0; i < mv.params.size(); ++i) ev.set_local(int(i), move.args[i]);
  // Every condition is read, not only the first that fails: a designer wants them all.
  for (const ir::ExprPtr& c : mv.requires_) {
    Blocker b{"requires", "", "", dsl::one_line(sources.text(c->span)), ir::location(sources, c->span), ""};
    if (truth(ev, *c, b.error) != 1) out.blockers.push_back(b);
  }
  for (const ir::Check& c : mv.checks) {
    const ir::Rule& rule = p.rules[size_t(c.rule)];
    const dsl::Span& span = c.condition->span.end > c.condition->span.begin ? c.condition->span : rule.span;
    Blocker b{"rule", rule.name, rule.description, dsl::one_line(sources.text(span)), ir::location(sources, span), ""};
    if (truth(ev, *c.condition, b.error) != 1) out.blockers.push_back(b);
  }
  if (out.blockers.empty() || board_rules_always) {
    // The move's own conditions hold: the board rules are read on the board after it.
    const engine::Status st = ev.exec(mv.body);
    if (!st.ok) {
      out.reason = "its body is a run-time error: " + st.message;
      return out;
    }
    for (const ir::Rule& rule : p.rules) {
      if (!rule.board_rule) continue;
      compiler::Evaluator after(interpreter);
      after.start(copy.data(), std::max(64, rule.locals));
      const dsl::Span& span = rule.condition->span.end > rule.condition->span.begin ? rule.condition->span : rule.span;
      Blocker b{"board rule", rule.name, rule.description, dsl::one_line(sources.text(span)), ir::location(sources, span), ""};
      if (truth(after, *rule.condition, b.error) != 1) out.blockers.push_back(b);
    }
  }
  std::vector<std::string> names;
  for (const Blocker& b : out.blockers) names.push_back(b.kind + " " + (b.name.empty() ? b.source : b.name));
  if (!names.empty()) out.reason = fmt::format("blocked by {}", fmt::join(names, ", "));
  else out.reason = "not a legal move here (no single condition of the rules explains it)";
  return out;
}

std::string blockers_text(const Refusal& refusal) {
  std::string out;
  for (const Blocker& b : refusal.blockers) {
    out += fmt::format("  {}{}{}: {}\n", b.kind, b.name.empty() ? "" : " ", b.name,
                       b.error.empty() ? "does not hold" : "cannot be read here: " + b.error);
    if (!b.description.empty()) out += fmt::format("    {}\n", b.description);
    out += fmt::format("    {}: {}\n", b.where, b.source);
  }
  return out;
}

nlohmann::json refusal_json(const Refusal& refusal) {
  nlohmann::json j{{"reason", refusal.reason}, {"blocked_by", nlohmann::json::array()}};
  for (const Blocker& b : refusal.blockers) {
    nlohmann::json e{{"kind", b.kind}, {"name", b.name}, {"description", b.description}, {"source", b.source},
                     {"where", b.where}};
    if (!b.error.empty()) e["error"] = b.error;
    j["blocked_by"].push_back(e);
  }
  return j;
}

}  // namespace rulebook::cli
