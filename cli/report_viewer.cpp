// The step-through viewer of a report page: games replayed through the engine, each step
// kept as the board's changed cells (indices into a table of cell looks shared by the page),
// the player to move, the move just played and the first legal moves; an inline script
// draws and steps them (cli/report_viewer_script.cpp).
#include "cli/report_viewer.h"

#include <functional>
#include <map>

#include <fmt/format.h>

#include "compiler/runtime/random.h"
#include "render/board.h"
#include "render/viewer.h"

namespace rulebook::cli {
namespace {

/// Picks the index of the move to play among the legal ones at `ply`; -1 ends the game.
using Picker = std::function<int(const std::vector<engine::Move>& legal, int ply)>;

/// Games as steps, with the tables of cell looks, legends and move texts they share.
class StepRecorder {
 public:
  StepRecorder(const ir::Program& program, const engine::Engine& engine) : p_(program), e_(engine) {}

  /// Plays from `start`, each move picked by `pick`, at most `max_plies` moves: every step
  /// (the start, then one per move) as [to move (-1: over), phase, legend, move played (-1
  /// at the start), its player, legal moves counted, the first of them, cells]. The cells
  /// of the start are a look per cell; a later step's are the (cell, look) pairs that
  /// changed. Also `over`, the scores when over, and the engine's `error` if one stopped it.
  nlohmann::json play(std::vector<uint8_t> state, int max_plies, const Picker& pick) {
    nlohmann::json steps = nlohmann::json::array();
    std::vector<int> shown;
    std::vector<uint8_t> before;
    std::vector<engine::Move> legal;
    engine::Move last{};
    int mover = -1;
    std::string error;
    for (int ply = 0;; ++ply) {
      const bool over = e_.terminal(state.data());
      legal.clear();
      if (!over)
        if (const engine::Status st = e_.legal_moves(state.data(), legal); !st.ok) {
          error = st.message;
          legal.clear();
        }
      // The last move outlined and what it emptied crossed, as the page's diagrams do.
      const render::LastMove marked{last, before.data()};
      const render::BoardLooks looks = render::board_looks(p_, state.data(), ply ? &marked : nullptr);
      nlohmann::json cells = nlohmann::json::array();
      shown.resize(looks.cells.size(), -1);
      for (size_t c = 0; c < looks.cells.size(); ++c) {
        const int id = look_id(looks.cells[c]);
        if (ply == 0) cells.push_back(id);
        else if (shown[c] != id) cells.push_back(c), cells.push_back(id);
        shown[c] = id;
      }
      nlohmann::json listed = nlohmann::json::array();
      for (size_t i = 0; i < legal.size() && i < kViewerLegalShown; ++i) listed.push_back(move_id(e_.move_text(legal[i])));
      steps.push_back({over ? -1 : e_.to_move(state.data()), e_.phase(state.data()), legend_id(looks.legend),
                       ply ? move_id(e_.move_text(last)) : -1, mover, legal.size(), listed, cells});
      if (over || !error.empty() || ply >= max_plies || legal.empty()) break;
      const int pick_index = pick(legal, ply);
      if (pick_index < 0 || size_t(pick_index) >= legal.size()) break;
      mover = e_.to_move(state.data());
      last = legal[size_t(pick_index)];
      before = state;
      if (const engine::Status st = e_.apply(state.data(), last); !st.ok) {
        error = st.message;
        break;
      }
    }
    nlohmann::json g{{"steps", steps}, {"over", e_.terminal(state.data())}};
    std::vector<int64_t> scores;
    if (g["over"].get<bool>() && e_.scores(state.data(), scores).ok) g["scores"] = scores;
    if (!error.empty()) g["error"] = error;
    return g;
  }

  nlohmann::json looks() const { return looks_; }
  nlohmann::json legends() const { return legends_; }
  nlohmann::json moves() const { return moves_; }

 private:
  int look_id(const render::CellLook& l) {
    auto [it, added] = look_ids_.emplace(l, int(looks_.size()));
    if (added) looks_.push_back({l.fill, l.disc, l.label, l.ink, l.notes, l.flags});
    return it->second;
  }
  int legend_id(const std::vector<std::string>& lines) {
    auto [it, added] = legend_ids_.emplace(lines, int(legends_.size()));
    if (added) legends_.push_back(lines);
    return it->second;
  }
  int move_id(const std::string& text) {
    auto [it, added] = move_ids_.emplace(text, int(moves_.size()));
    if (added) moves_.push_back(text);
    return it->second;
  }

  const ir::Program& p_;
  const engine::Engine& e_;
  std::map<render::CellLook, int> look_ids_;
  std::map<std::vector<std::string>, int> legend_ids_;
  std::map<std::string, int> move_ids_;
  nlohmann::json looks_ = nlohmann::json::array(), legends_ = nlohmann::json::array(),
                 moves_ = nlohmann::json::array();
};

/// The `--setup` values that, with seed 1, set `start` up (none when the default setup does
/// it): a data file's entry number for each setup variable read from one. False when no
/// such values give `start` (a setup value that no entry number names).
bool setup_values_of(const OpenedGame& game, const std::vector<uint8_t>& start, std::vector<std::string>& out) {
  const ir::Program& p = *game.program;
  engine::Setup setup;
  setup.seed = 1;
  for (const ir::SetupVar& sv : p.setups) {
    if (sv.source != ir::SetupVar::Source::Entries) continue;
    const ir::StateVar& v = p.vars[size_t(sv.var)];
    for (size_t k = 0; k < sv.entries.size(); ++k) {
      bool same = sv.entries[k].size() == v.count;
      for (uint32_t i = 0; same && i < v.count; ++i) same = ir::load_index(start.data(), v, i) == sv.entries[k][i];
      if (!same) continue;
      if (int(k) != sv.default_entry) {
        out.push_back(fmt::format("{}={}", sv.name, k + 1));
        setup.values.emplace_back(sv.name, std::to_string(k + 1));
      }
      break;
    }
  }
  std::vector<uint8_t> state(start.size(), 0);
  return game.engine->setup(state.data(), setup).ok && state == start;
}

/// The comment lines of a saved moves file: what it is, then the seed and the setup values
/// that `play --moves-file` reads back.
std::string moves_file_head(const std::string& title, const std::string& what, uint64_t seed,
                            const std::vector<std::string>& setups) {
  std::string head = fmt::format("# {}: {}\n# saved from the report; `rulebook play FILE --moves-file THIS` replays it\n"
                                 "# seed {}\n",
                                 title, what, seed);
  for (const std::string& s : setups) head += "# setup " + s + "\n";
  return head;
}

/// Follows `moves` (as `play` prints them) from the legal moves; -1 past the last or at one
/// that is not legal (`broken` is then set).
Picker follow(const engine::Engine& e, const std::vector<std::string>& moves, bool& broken) {
  return [&e, &moves, &broken](const std::vector<engine::Move>& legal, int ply) {
    if (size_t(ply) >= moves.size()) return -1;
    for (size_t i = 0; i < legal.size(); ++i)
      if (e.move_text(legal[i]) == moves[size_t(ply)]) return int(i);
    broken = true;
    return -1;
  };
}

std::string plies_text(size_t n) { return fmt::format("{} {}", n, n == 1 ? "ply" : "plies"); }

}  // namespace

std::string script_safe_json(const nlohmann::json& value) {
  const std::string text = value.dump();
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    if (c == '<') out += "\\u003c";
    else if (c == '>') out += "\\u003e";
    else if (c == '&') out += "\\u0026";
    else out += c;
  }
  return out;
}

std::string viewer_html(const OpenedGame& game, const ReportPlan& plan, const std::string& file_stem,
                        const nlohmann::json& coverage, const std::vector<FoundLine>& proof_lines) {
  const engine::Engine& e = *game.engine;
  const ir::Program& p = *game.program;
  const engine::Info& info = e.info();
  StepRecorder rec(p, e);
  nlohmann::json games = nlohmann::json::array();
  auto add = [&](nlohmann::json g, const std::string& title, const std::string& head, const std::string& file) {
    g["title"] = title;
    g["head"] = head.empty() ? nlohmann::json() : nlohmann::json(head);
    g["file"] = file;
    games.push_back(std::move(g));
  };

  // The random game of the Boards section: setup and moves drawn with seed `plan.seed`.
  {
    std::vector<uint8_t> start(info.state_bytes, 0);
    engine::Setup setup;
    setup.seed = plan.seed;
    if (e.setup(start.data(), setup).ok) {
      SplitMix64 rng(plan.seed);
      nlohmann::json g = rec.play(start, plan.max_plies,
                                  [&rng](const std::vector<engine::Move>& legal, int) { return int(rng.below(legal.size())); });
      const std::string what = fmt::format("the random game of seed {}", plan.seed);
      const std::string title = fmt::format("{} ({}, {})", what, plies_text(g["steps"].size() - 1),
                                            g["over"].get<bool>() ? "game over" : "cut off");
      add(std::move(g), title, moves_file_head(info.title, what, plan.seed, {}),
          fmt::format("{}-seed{}.moves", file_stem, plan.seed));
    }
  }

  // Lines of play found: the coverage search's (from the setup of its seed), then the
  // proofs' (from each board's own setup values, seed 1).
  size_t lines = 0;
  auto add_line = [&](const std::vector<uint8_t>& start, const std::vector<std::string>& moves, const std::string& what,
                      uint64_t seed, bool exportable, const std::vector<std::string>& setups) {
    if (lines >= kViewerLines) return;
    bool broken = false;
    nlohmann::json g = rec.play(start, int(moves.size()), follow(e, moves, broken));
    if (broken || g["steps"].size() != moves.size() + 1) return;
    ++lines;
    add(std::move(g), fmt::format("{} ({})", what, plies_text(moves.size())),
        exportable ? moves_file_head(info.title, what, seed, setups) : "",
        fmt::format("{}-line{}.moves", file_stem, lines));
  };
  if (coverage.is_object() && coverage.contains("never") && coverage.contains("search")) {
    const uint64_t seed = coverage["search"].value("seed", uint64_t(1));
    std::vector<uint8_t> start(info.state_bytes, 0);
    engine::Setup setup;
    setup.seed = seed;
    if (e.setup(start.data(), setup).ok)
      for (const nlohmann::json& n : coverage["never"]) {
        if (!n.contains("search") || n["search"].value("result", "") != "reached") continue;
        const std::string what = fmt::format("{} {} in {}, never seen in the random games: reached by search",
                                             n.value("kind", ""), n.value("what", ""), n.value("block", ""));
        add_line(start, n["search"]["line"].get<std::vector<std::string>>(), what, seed, true, {});
      }
  }
  for (const FoundLine& l : proof_lines) {
    std::vector<std::string> setups;
    const bool exportable = setup_values_of(game, l.start, setups);
    add_line(l.start, l.moves, "property " + l.title + ": its board reached", 1, exportable, setups);
  }

  const render::BoardFrame frame = render::board_frame(p);
  std::vector<std::string> subjects = info.player_names;
  if (info.score_per_team) subjects = p.domains[size_t(ir::kTeamDomain)].members;
  const nlohmann::json data{{"w", frame.width},
                            {"h", frame.height},
                            {"cell", 36},
                            {"regions", frame.region_of},
                            {"colours", {{"move", render::kMoveColour}, {"capture", render::kCaptureColour}}},
                            {"players", info.player_names},
                            {"phases", info.phase_names},
                            {"subjects", subjects},
                            {"score_width", info.score_width},
                            {"looks", rec.looks()},
                            {"legends", rec.legends()},
                            {"moves", rec.moves()},
                            {"games", games}};

  std::string options;
  for (size_t i = 0; i < games.size(); ++i)
    options += fmt::format("<option value=\"{}\">{}</option>", i, html_escape(games[i]["title"].get<std::string>()));
  std::string h = "<h2 id=\"viewer\">Games to step through</h2>\n";
  h += fmt::format(
      "<p>The random game of the boards above, as <code>rulebook play --seed {}</code> plays it, and the lines of "
      "play the searches below found (at most {}), each from its setup: step with the buttons, or with the arrow "
      "keys once the viewer has the focus (a click in it). Each step shows the board as the diagrams draw it, the move just played, "
      "the player to move and the legal moves (the first {} named). \"Save the moves\" writes the game as a moves "
      "file: <code>rulebook play FILE --moves-file SAVED</code> replays it.</p>\n",
      plan.seed, kViewerLines, kViewerLegalShown);
  if (games.empty()) return h + "<p class=\"none\">No game to step through: the setup failed.</p>\n";
  h += "<div id=\"viewer-ui\" tabindex=\"0\" style=\"border:1px solid #ddd;padding:.5rem\">\n"
       "<p><select aria-label=\"game to step through\">" + options + "</select></p>\n"
       "<p><button type=\"button\" data-step=\"first\">|&#9664; start</button> "
       "<button type=\"button\" data-step=\"prev\">&#9664; back</button> "
       "<button type=\"button\" data-step=\"next\">forward &#9654;</button> "
       "<button type=\"button\" data-step=\"last\">end &#9654;|</button> "
       "<a class=\"viewer-export\" href=\"#viewer\">save the moves</a></p>\n"
       "<div style=\"display:flex;flex-wrap:wrap;gap:1rem;align-items:flex-start\">"
       "<div class=\"viewer-board\"></div>\n<div style=\"max-width:28rem\">"
       "<p><b class=\"viewer-status\"></b></p><p>Move just played: <span class=\"viewer-last\"></span></p>"
       "<p>Legal moves (<span class=\"viewer-count\"></span>): <span class=\"viewer-legal\"></span></p>"
       "</div></div>\n<noscript><p class=\"none\">The viewer needs JavaScript.</p></noscript>\n</div>\n";
  h += "<script type=\"application/json\" id=\"viewer-data\">" + script_safe_json(data) + "</script>\n";
  h += std::string("<script>") + viewer_script() + "</script>\n";
  return h;
}

}  // namespace rulebook::cli
