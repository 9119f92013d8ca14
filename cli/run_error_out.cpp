// Run-time errors shown like compile errors: the engines' located message is turned back
// into a span of the loaded sources, so that the source line and caret come from the same
// renderer as `check`'s; then the game where the error happened.
#include "cli/run_error_out.h"

#include <charconv>

#include <fmt/core.h>

#include "dsl/diagnostics.h"

namespace rulebook::cli {
namespace {

/// Parses the decimal number at `s[i..]`, moving `i` past it; false when there is none.
bool number_at(std::string_view s, size_t& i, uint32_t& out) {
  const char* first = s.data() + i;
  auto [end, ec] = std::from_chars(first, s.data() + s.size(), out);
  if (ec != std::errc() || end == first) return false;
  i += size_t(end - first);
  return true;
}

/// The span `message` (`name:line:col: error: text`) points at in `sources`, and its text.
bool located_span(const dsl::SourceSet& sources, const std::string& message, dsl::Span& span,
                  std::string& text) {
  for (uint32_t f = 0; f < sources.size(); ++f) {
    const dsl::SourceFile& file = sources.file(f);
    if (message.size() <= file.name.size() || message.compare(0, file.name.size(), file.name) != 0 ||
        message[file.name.size()] != ':')
      continue;
    size_t i = file.name.size() + 1;
    uint32_t line = 0, column = 0;
    if (!number_at(message, i, line) || i >= message.size() || message[i++] != ':' ||
        !number_at(message, i, column))
      continue;
    const std::string_view tag = ": error: ";
    if (message.compare(i, tag.size(), tag) != 0 || line == 0 || column == 0 ||
        line > file.line_starts.size())
      continue;
    const uint32_t begin = file.line_starts[line - 1] + column - 1;
    if (begin > file.text.size()) continue;
    span = dsl::Span{f, begin, begin + 1 <= file.text.size() ? begin + 1 : begin};
    text = message.substr(i + tag.size());
    return true;
  }
  return false;
}

void collect_again(const ir::Block& block, std::vector<dsl::Span>& out) {
  for (const ir::StmtPtr& s : block) {
    if (s->op == ir::StmtOp::Again) out.push_back(s->span);
    collect_again(s->body, out);
    collect_again(s->otherwise, out);
  }
}

}  // namespace

std::string engine_error_text(const dsl::SourceSet& sources, const std::string& path,
                              const std::string& message) {
  dsl::Span span;
  std::string text;
  if (!located_span(sources, message, span, text)) {
    if (message.find(": error: ") != std::string::npos) return dsl::escape_for_terminal(message) + "\n";
    return dsl::escape_for_terminal(path) + ": error: " + dsl::escape_for_terminal(message) + "\n";
  }
  dsl::Diagnostics d;
  d.error(span, text);
  return d.render(sources);
}

std::string error_game_text(const std::string& path, const ErrorGame& where) {
  const engine::Engine& e = *where.engine;
  const engine::Info& info = e.info();
  const std::string player = info.player_names[size_t(where.mover)];
  std::string out;
  if (where.move)
    out += fmt::format("{}: note: at move {}, {} {}\n", path, where.ply, player, e.move_text(*where.move));
  else
    out += fmt::format("{}: note: while listing the moves for move {}\n", path, where.ply);
  out += fmt::format("  player to move: {}\n  ply: {}\n", player, where.ply);
  if (where.move) out += fmt::format("  move: {}\n", e.move_text(*where.move));
  out += fmt::format("  phase: {}\n  board before the move:\n", info.phase_names[size_t(e.phase(where.before))]);
  std::string board = e.board_text(where.before);
  size_t start = 0;
  while (start < board.size()) {
    size_t nl = board.find('\n', start);
    if (nl == std::string::npos) nl = board.size();
    out += "    " + board.substr(start, nl - start) + "\n";
    start = nl + 1;
  }
  return dsl::escape_for_terminal(out);
}

std::vector<dsl::Span> again_spans(const ir::Program& program, int kind) {
  std::vector<dsl::Span> out;
  if (kind >= 0 && size_t(kind) < program.moves.size()) collect_again(program.moves[size_t(kind)].body, out);
  return out;
}

std::string again_loop_message(const ir::Program& program, const dsl::SourceSet& sources,
                               const engine::Engine& engine, const engine::Move& move, int turn_moves) {
  const std::vector<dsl::Span> spans = again_spans(program, move.kind);
  const dsl::Span at = spans.empty() ? program.moves[size_t(move.kind)].span : spans.front();
  return fmt::format("{}: error: `again` loops: the turn came back to the same state after {} move{} "
                     "(the last: {}), so it can repeat forever",
                     ir::location(sources, at), turn_moves, turn_moves == 1 ? "" : "s", engine.move_text(move));
}

}  // namespace rulebook::cli
