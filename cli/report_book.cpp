// The illustrated rulebook page of a variant (docs/report.md, "The rulebook page"): what the
// file says in its own words beside a generated plain line, and boards found in play.
#include "cli/report_book.h"

#include <algorithm>
#include <sstream>

#include <fmt/core.h>
#include <fmt/format.h>

#include "cli/open_game.h"
#include "cli/verbs.h"
#include "dsl/diagnostics.h"
#include "explorer/metrics.h"
#include "render/annotate.h"
#include "render/board.h"

namespace rulebook::cli {
namespace {

const char* kBookStyle =
    "body{font-family:Georgia,serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#222;line-height:1.4}"
    "pre,code{font-family:ui-monospace,monospace}pre{background:#f6f6f2;padding:.6rem;white-space:pre-wrap;"
    "border-radius:4px}.plain{font-style:italic}.where{color:#757575;font-size:.85em}"
    ".examples{display:flex;flex-wrap:wrap;gap:1.5rem;align-items:flex-start}"
    "figure{margin:0;max-width:28rem}figcaption{font-size:.9em}.ok{color:#1b5e20}.bad{color:#b00020}"
    ".none{color:#757575}.finding{color:#8a4b00}section.rule{border-top:1px solid #ddd;padding-top:.5rem}"
    "@media print{nav{display:none}body{max-width:none;margin:0}h2{break-before:page}"
    "section.rule,figure,svg,pre{break-inside:avoid}a{color:inherit;text-decoration:none}}";

std::string esc(const std::string& s) { return html_escape(s); }

std::string src(const dsl::SourceSet& sources, const dsl::Span& span) { return std::string(sources.text(span)); }

/// The comment block opening a rules file (the lines starting with `//` before anything
/// else), without the slashes.
std::vector<std::string> head_comment(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    const size_t b = line.find_first_not_of(" \t");
    if (b == std::string::npos) {
      if (!out.empty()) break;
      continue;
    }
    if (line.compare(b, 2, "//") != 0) break;
    std::string t = line.substr(b + 2);
    if (!t.empty() && t[0] == '/') t.erase(0, 1);
    if (!t.empty() && t[0] == ' ') t.erase(0, 1);
    out.push_back(t);
  }
  return out;
}

/// The items of a "Readings" list in a head comment: `- ...` lines and their indented
/// continuations, after a line that names readings.
std::vector<std::string> readings(const std::vector<std::string>& comment) {
  std::vector<std::string> out;
  bool in_list = false;
  for (const std::string& l : comment) {
    if (l.find("eading") != std::string::npos && l.rfind("- ", 0) != 0) in_list = true;
    if (!in_list) continue;
    if (l.rfind("- ", 0) == 0) out.push_back(l.substr(2));
    else if (!out.empty() && l.rfind("  ", 0) == 0) out.back() += " " + l.substr(2);
    else if (!out.empty() && l.empty()) in_list = false;
  }
  return out;
}

std::string move_names(const ir::Program& p, const std::vector<int>& moves) {
  std::vector<std::string> names;
  for (int m : moves) names.push_back(p.moves[size_t(m)].name);
  return fmt::format("{}", fmt::join(names, ", "));
}

/// A move's header: its parameters and each `requires` as written.
std::string move_header(const ir::Program& p, const dsl::SourceSet& sources, const ir::Move& mv) {
  std::vector<std::string> params;
  for (const ir::MoveParam& a : mv.params) params.push_back(a.name + ": " + p.domains[size_t(a.domain)].name);
  std::string t = "move " + mv.name + (params.empty() ? "" : fmt::format("({})", fmt::join(params, ", ")));
  for (const ir::ExprPtr& r : mv.requires_) t += "\n  requires " + dsl::one_line(src(sources, r->span)) + ";";
  return t;
}

/// A rule as written: from its name to the end of its condition (a move rule's condition
/// is read from the first move it governs).
std::string rule_text(const ir::Program& p, const dsl::SourceSet& sources, const ir::Rule& rule, int index) {
  const ir::Expr* cond = rule.condition.get();
  for (size_t m = 0; m < p.moves.size() && !cond; ++m)
    for (const ir::Check& c : p.moves[m].checks)
      if (c.rule == index && !cond) cond = c.condition.get();
  dsl::Span span = rule.span;
  if (cond && cond->span.file == span.file && cond->span.end > span.end) span.end = cond->span.end;
  std::string t = src(sources, span);
  // The rule's own line starts at its name: put the keyword back.
  return "rule " + t;
}

class Book {
 public:
  Book(const OpenedGame& game, const ReportPlan& plan, const ExamplePlan& examples)
      : game_(game), p_(*game.program), plan_(plan), examples_(examples), interp_(p_, game.sources),
        annotator_(p_, game.sources) {}

  std::string intro(BookPage& page) {
    std::string h;
    nlohmann::json files = nlohmann::json::array();
    for (uint32_t id = 0; id < game_.sources.size(); ++id) {
      const dsl::SourceFile& f = game_.sources.file(id);
      const std::vector<std::string> comment = head_comment(f.text);
      if (comment.empty() || f.name.size() < 6 || f.name.compare(f.name.size() - 6, 6, ".rules") != 0) continue;
      const std::vector<std::string> read = readings(comment);
      files.push_back({{"file", f.name}, {"comment_lines", comment.size()}, {"readings", read}});
      h += fmt::format("<h3>{}</h3>\n<p class=\"where\">From the comment at the top of <code>{}</code> "
                       "(lines 1–{}), as the designer wrote it.</p>\n",
                       id == 0 ? "The source and the readings" : "Carried over from " + esc(f.name), esc(f.name),
                       comment.size());
      if (!read.empty()) {
        h += "<p>Readings taken where the text leaves a choice:</p>\n<ul>\n";
        for (const std::string& r : read) h += "<li>" + esc(r) + "</li>\n";
        h += "</ul>\n";
      }
      h += "<details><summary>the whole comment</summary><pre>" +
           esc(fmt::format("{}", fmt::join(comment, "\n"))) + "</pre></details>\n";
    }
    page.json["sources"] = files;
    return h;
  }

  std::string start_board(BookPage& page) {
    const explorer::GameEnd start = explorer::seeded_game(*game_.engine, plan_.seed, 0);
    if (!start.status.ok) {
      page.ok = false;
      page.error = "setup: " + start.status.message;
      return "";
    }
    page.json["start_board"] = render::board_text(p_, start.after.data(), {});
    return fmt::format("<h2 id=\"start\">The board at the start</h2>\n<p>{} {}, a {} x {} board; set up "
                       "with seed {} (random parts of the setup differ from game to game).</p>\n{}\n",
                       p_.players, p_.players == 1 ? "player" : "players", p_.geometry.height, p_.geometry.width, plan_.seed,
                       board(start.after.data(), "start", nullptr));
  }

  std::string phases() {
    std::string h = "<h2 id=\"phases\">Phases and moves</h2>\n";
    for (size_t i = 0; i < p_.phases.size(); ++i) {
      const ir::Phase& ph = p_.phases[i];
      std::vector<std::string> ends;
      for (const ir::Transition& t : ph.transitions)
        ends.push_back(fmt::format("When <code>{}</code> holds, {}", esc(dsl::one_line(src(game_.sources, t.condition->span))),
                                   t.target < 0 ? "the game ends" : "play goes on in phase " + esc(p_.phases[size_t(t.target)].name)));
      h += fmt::format("<h3>Phase {}{}</h3>\n<p class=\"plain\">{}he player to move plays one of: {}.{}{}</p>\n",
                       esc(ph.name), i == 0 ? " (play starts here)" : "", i == 0 ? "Play starts here: t" : "T",
                       esc(move_names(p_, ph.moves)),
                       ends.empty() ? "" : " " + fmt::format("{}", fmt::join(ends, "; ")) + ".",
                       ph.has_stuck ? " A player with no legal move does what <code>when stuck</code> says." : "");
      for (int m : ph.moves) {
        const ir::Move& mv = p_.moves[size_t(m)];
        std::vector<std::string> rules;
        for (const ir::Check& c : mv.checks) rules.push_back(p_.rules[size_t(c.rule)].name);
        h += fmt::format("<p class=\"plain\">Move <b>{}</b>: legal when its {} <code>requires</code> hold{}.</p>\n"
                         "<pre>{}</pre><p class=\"where\">{}</p>\n",
                         esc(mv.name), mv.requires_.size(),
                         rules.empty() ? "" : " and the rules " + esc(fmt::format("{}", fmt::join(rules, ", "))) + " allow it",
                         esc(move_header(p_, game_.sources, mv)), esc(ir::location(game_.sources, mv.span)));
      }
    }
    return h;
  }

  std::string rules(BookPage& page) {
    const ExamplePlan& ep = examples_;
    const ExampleSearch found = find_rule_examples(interp_, game_.sources, ep, game_.engine.get());
    std::string h = "<h2 id=\"rules\">The rules, with examples</h2>\n";
    h += fmt::format("<p>Each example is a board reached in play: seeded random games (game <i>k</i> set up and "
                     "played as <code>rulebook play --seed {}+k</code> plays it; {} games of at most {} plies), "
                     "every instance of the moves a rule governs tried at each position; then the explorer's "
                     "directed search for the allowed examples still missing. This time: {} positions of the "
                     "games, {} conditions evaluated (budget {}{}), {} positions of the search. Each board is "
                     "checked by the interpreter: the move is legal, or it is rejected by that rule alone (every "
                     "<code>requires</code> and every other rule, board rules after its body, allows it). The "
                     "move's cells are outlined.</p>\n",
                     plan_.seed, ep.games, ep.max_plies, found.positions, found.evaluated, ep.budget,
                     found.budget_spent ? ", spent" : "", found.searched);
    if (found.verifier_questions > 0)
      h += fmt::format("<p>Where play gave no example, the verifier (Z3) was asked for one among {}{}, on {} resource "
                       "units per move tried ({} question{}, {} units in all): one where the move is legal, or where "
                       "every <code>requires</code> and every other rule holds and the rule does not. Each board it "
                       "gives is read again by the interpreter as above, then searched for in play ({} positions at "
                       "most); a board no line of play was found to reach is marked <i>not shown reachable</i>.</p>\n",
                       esc(found.verifier_set), found.invariants.empty() ? " (no invariant of these rules is proved)" : "",
                       ep.verifier_rlimit, found.verifier_questions, found.verifier_questions == 1 ? "" : "s",
                       found.verifier_rlimit, ep.reach_states);
    page.json["search"] = {{"games", ep.games},       {"max_plies", ep.max_plies},     {"budget", ep.budget},
                           {"positions", found.positions}, {"evaluated", found.evaluated},
                           {"budget_spent", found.budget_spent}, {"search_states", ep.search_states},
                           {"searched", found.searched}};
    if (found.verifier_questions > 0)
      page.json["search"]["verifier"] = {{"rlimit_per_move", ep.verifier_rlimit}, {"questions", found.verifier_questions},
                                         {"rlimit_spent", found.verifier_rlimit}, {"over", found.verifier_set},
                                         {"invariants", found.invariants}, {"reach_states", ep.reach_states}};
    if (!found.error.empty()) page.json["search"]["error"] = found.error;
    nlohmann::json rows = nlohmann::json::array();
    for (const RuleExamples& re : found.rules) {
      const ir::Rule& rule = p_.rules[size_t(re.rule)];
      nlohmann::json j{{"name", rule.name}, {"description", rule.description},
                       {"kind", rule.board_rule ? "board rule" : "move rule"},
                       {"source", rule_text(p_, game_.sources, rule, re.rule)}, {"where", ir::location(game_.sources, rule.span)},
                       {"moves", move_names(p_, re.moves)}};
      h += fmt::format("<section class=\"rule\" id=\"rule-{}\">\n<h3>{}</h3>\n", esc(rule.name), esc(rule.name));
      if (!rule.description.empty()) h += "<p>“" + esc(rule.description) + "”</p>\n";
      h += fmt::format("<p class=\"plain\">{}</p>\n<pre>{}</pre><p class=\"where\">{}</p>\n",
                       rule.board_rule ? "A board rule: a move is legal only if this holds on the board after it."
                                       : "A move rule on " + esc(move_names(p_, re.moves)) +
                                             ": such a move is legal only if this holds on the board before it.",
                       esc(rule_text(p_, game_.sources, rule, re.rule)), esc(ir::location(game_.sources, rule.span)));
      h += "<div class=\"examples\">\n";
      h += example(re.allowed, true, rule, found, page, j["allowed"]);
      h += example(re.forbidden, false, rule, found, page, j["not_allowed"]);
      h += "</div>\n</section>\n";
      rows.push_back(j);
    }
    page.json["rules"] = rows;
    if (found.rules.empty()) h += "<p class=\"none\">The file names no rule.</p>\n";
    return h;
  }

  std::string ending(BookPage& page) {
    std::string h = "<h2 id=\"end\">The end and the scoring</h2>\n<ul>\n";
    if (p_.end_when)
      h += "<li>The game ends when <code>" + esc(dsl::one_line(src(game_.sources, p_.end_when->span))) + "</code> holds.</li>\n";
    for (const ir::Phase& ph : p_.phases)
      for (const ir::Transition& t : ph.transitions)
        if (t.target < 0)
          h += fmt::format("<li>In phase {}, the game ends when <code>{}</code> holds.</li>\n", esc(ph.name),
                           esc(dsl::one_line(src(game_.sources, t.condition->span))));
    h += "<li>A player with no legal move and nothing to do when stuck ends the game for everybody stuck.</li>\n";
    if (p_.score.value)
      h += fmt::format("<li>Score of each {}: <code>{}</code>; the {} score wins.</li>\n",
                       p_.score.per_team ? "team" : "player", esc(dsl::one_line(src(game_.sources, p_.score.value->span))),
                       p_.score.highest ? "highest" : "lowest");
    h += "</ul>\n";
    // The first of the example games that is over (a finished game's board), else the first.
    uint64_t seed = plan_.seed;
    explorer::GameEnd end = explorer::seeded_game(*game_.engine, seed, plan_.max_plies);
    for (int k = 1; k < examples_.games && end.status.ok && !end.over; ++k) {
      explorer::GameEnd next = explorer::seeded_game(*game_.engine, plan_.seed + uint64_t(k), plan_.max_plies);
      if (next.status.ok && next.over) {
        seed = plan_.seed + uint64_t(k);
        end = std::move(next);
      }
    }
    if (!end.status.ok) return h + "<p class=\"bad\">" + esc(end.status.message) + "</p>\n";
    std::vector<int64_t> scores;
    (void)game_.engine->scores(end.after.data(), scores);
    render::LastMove last{end.last, end.before.data()};
    h += fmt::format("<p>An example end: the random game of seed {} (<code>rulebook play --seed {}</code>), {} "
                     "after {} moves{}.</p>\n{}\n",
                     seed, seed, end.over ? "over" : "cut off", end.plies,
                     p_.score.value ? fmt::format(", scores {}", fmt::join(scores, ", ")) : std::string(),
                     board(end.after.data(), fmt::format("after {} moves", end.plies), end.plies ? &last : nullptr));
    page.json["end_example"] = {{"seed", seed}, {"plies", end.plies}, {"over", end.over}, {"scores", scores}};
    h += legend(end.after.data(), page);
    return h;
  }

 private:
  /// The legend of the configured layers in words, for the board `state`: each layer's
  /// legend line, then the definition it draws as the file writes it, with the comment
  /// above it ("" when no layer is configured).
  std::string legend(const uint8_t* state, BookPage& page) {
    if (plan_.layers.empty()) return "";
    render::Annotations notes;
    if (!annotator_.draw(plan_.layers, state, notes).ok || notes.legend.size() != plan_.layers.size()) return "";
    std::string h = "<h3 id=\"legend\">Reading the coloured board</h3>\n<p>The board above is drawn with the layers "
                    "configured for this game, each computed by the interpreter from a definition of the rules:</p>\n<dl>\n";
    nlohmann::json rows = nlohmann::json::array();
    for (size_t i = 0; i < plan_.layers.size(); ++i) {
      const render::Layer& layer = plan_.layers[i];
      const ir::Function* f = nullptr;
      for (const ir::Function& fn : p_.functions)
        if (fn.name == layer.define) f = &fn;
      std::string text, comment;
      if (f) {
        text = dsl::one_line(definition_text(*f));
        comment = comment_above(f->span);
      }
      h += fmt::format("<dt>{}</dt>\n<dd>{}{}</dd>\n", esc(notes.legend[i]),
                       comment.empty() ? "" : "<span class=\"plain\">" + esc(comment) + "</span> ",
                       text.empty() ? "" : "<code>" + esc(text) + "</code>");
      rows.push_back({{"legend", notes.legend[i]}, {"define", layer.define}, {"source", text}, {"comment", comment}});
    }
    page.json["end_legend"] = rows;
    return h + "</dl>\n";
  }

  /// A definition as written, from `define` to the end of its body.
  std::string definition_text(const ir::Function& f) const {
    dsl::Span span = f.span;
    if (f.body && f.body->span.file == span.file && f.body->span.end > span.end) span.end = f.body->span.end;
    std::string t = src(game_.sources, span);
    return t.rfind("define", 0) == 0 ? t : "define " + t;
  }

  /// The `//` comment lines just above `span`'s line (without the slashes), joined.
  std::string comment_above(const dsl::Span& span) const {
    const std::string& text = game_.sources.file(span.file).text;
    size_t line_start = text.rfind('\n', span.begin == 0 ? 0 : span.begin - 1);
    std::vector<std::string> lines;
    while (line_start != std::string::npos && line_start > 0) {
      const size_t prev = text.rfind('\n', line_start - 1);
      const size_t b = prev == std::string::npos ? 0 : prev + 1;
      std::string l = text.substr(b, line_start - b);
      const size_t first = l.find_first_not_of(" \t");
      if (first == std::string::npos || l.compare(first, 2, "//") != 0) break;
      l = l.substr(first + 2);
      if (!l.empty() && l[0] == '/') l.erase(0, 1);
      if (!l.empty() && l[0] == ' ') l.erase(0, 1);
      lines.insert(lines.begin(), l);
      if (prev == std::string::npos) break;
      line_start = prev;
    }
    return fmt::format("{}", fmt::join(lines, " "));
  }

  std::string board(const uint8_t* state, const std::string& title, const render::LastMove* last) {
    render::DrawOptions o;
    o.title = title;
    if (last) o.last = *last;
    render::Annotations notes;
    if (!plan_.layers.empty() && annotator_.draw(plan_.layers, state, notes).ok) o.annotations = &notes;
    return render::board_svg(p_, state, o);
  }

  std::string example(const Example& ex, bool allowed, const ir::Rule& rule, const ExampleSearch& found,
                      BookPage& page, nlohmann::json& j) {
    const char* what = allowed ? "allowed" : "not allowed";
    if (!ex.found) {
      std::string why = fmt::format("no example found in {} positions of {} seeded games{}{}", found.positions,
                                    examples_.games, allowed ? fmt::format(" and {} of the directed search", found.searched) : "",
                                    found.budget_spent ? " (the budget of conditions was spent)" : "");
      std::string finding;
      if (ex.verifier == "none")
        finding = allowed ? fmt::format("no move this rule governs is ever legal: proved over {}", found.verifier_set)
                          : fmt::format("this rule never forbids a move the other rules allow: proved over {}",
                                        found.verifier_set);
      else if (ex.verifier == "unknown")
        why += fmt::format("; the verifier found none within {} units per move ({})", examples_.verifier_rlimit,
                           ex.verifier_detail);
      else if (!ex.verifier.empty())
        why += fmt::format("; the verifier: {}{}", ex.verifier, ex.verifier_detail.empty() ? "" : " (" + ex.verifier_detail + ")");
      j = {{"found", false}, {"why", why}};
      if (!ex.verifier.empty()) j["verifier"] = {{"verdict", ex.verifier}, {"detail", ex.verifier_detail}, {"rlimit", ex.verifier_rlimit}};
      if (!finding.empty()) {
        j["proved_impossible"] = finding;
        return fmt::format("<figure class=\"rule-finding\"><figcaption><b>{}</b>: <b class=\"finding\">{}.</b> "
                           "<span class=\"where\">({}; Z3, {} units.)</span></figcaption></figure>\n",
                           what, esc(finding), esc(why), ex.verifier_rlimit);
      }
      return fmt::format("<figure><figcaption><b>{}</b>: <span class=\"none\">{}.</span></figcaption></figure>\n", what, esc(why));
    }
    // The interpreter's own reading, again: legal, or rejected by this rule alone.
    std::vector<uint8_t> copy = ex.state;
    compiler::Evaluator ev(interp_);
    ev.start(copy.data());
    bool listed = false;
    if (!ev.legal(ex.move.kind, ex.move.args, listed).ok) listed = !allowed;  // unreadable: not confirmed
    const bool checked = allowed ? listed && ex.refusal.blockers.empty() : !listed && forbidden_only_by(ex.refusal, rule);
    j = {{"found", true}, {"move", ex.move_text}, {"how", ex.how}, {"checked", checked}, {"reachable", ex.reachable},
         {"board", render::board_text(p_, ex.state.data(), {})}};
    if (ex.reachable) {
      j["seed"] = ex.seed;
      j["line"] = ex.line;
    }
    if (!ex.verifier.empty()) j["verifier"] = {{"verdict", ex.verifier}, {"rlimit", ex.verifier_rlimit}, {"reach_searched", ex.reach_searched}};
    // An allowed move has no refusal to show: the interpreter's reading is its legality.
    if (allowed) j["legal"] = listed && ex.refusal.blockers.empty();
    else j["refusal"] = refusal_json(ex.refusal);
    render::LastMove mark{ex.move, nullptr};
    ++page.rule_diagrams;
    const std::string verdict = !checked ? "the interpreter does not confirm it"
                                : allowed ? "a legal move here"
                                          : "rejected by " + esc(rule.name) + " alone, every other condition allows it";
    if (!ex.reachable) {
      const std::string note = fmt::format(
          "not shown reachable: found by the verifier over {} (Z3, {} units), not reached by the explorer's search "
          "from its setup ({} positions)", found.verifier_set, ex.verifier_rlimit, ex.reach_searched);
      j["not_shown_reachable"] = note;
      return fmt::format("<figure class=\"rule-example {} unreached\">{}<figcaption><b class=\"{}\">{}</b>: "
                         "<code>{}</code> — {}.<br><i>{}</i>.</figcaption></figure>\n",
                         allowed ? "allowed" : "forbidden",
                         board(ex.state.data(), fmt::format("{}: {}", what, ex.move_text), &mark), checked ? "ok" : "bad",
                         what, esc(ex.move_text), verdict, esc(note));
    }
    // The line and the move itself, as `play` replays them: a not-allowed move stops it
    // with the rule's name.
    std::vector<std::string> moves = ex.line;
    moves.push_back(ex.move_text);
    j["replay"] = fmt::format("rulebook play {} --seed {} --moves \"{}\"", p_.source_path, ex.seed, fmt::join(moves, ", "));
    std::string line = fmt::format("{}", fmt::join(ex.line, ", "));
    if (ex.line.size() > 12)
      line = fmt::format("<details><summary>{} moves</summary>{}</details>", ex.line.size(), esc(line));
    else line = ex.line.empty() ? "the setup itself" : esc(line);
    return fmt::format(
        "<figure class=\"rule-example {}\">{}<figcaption><b class=\"{}\">{}</b>: <code>{}</code> — {}.<br>Reached by "
        "(setup seed {}, {}): {}</figcaption></figure>\n",
        allowed ? "allowed" : "forbidden", board(ex.state.data(), fmt::format("{}: {}", what, ex.move_text), &mark),
        checked ? "ok" : "bad", what, esc(ex.move_text), verdict, ex.seed, esc(ex.how), line);
  }

  const OpenedGame& game_;
  const ir::Program& p_;
  const ReportPlan& plan_;
  const ExamplePlan& examples_;
  compiler::Interpreter interp_;
  render::Annotator annotator_;
};

}  // namespace

BookPage rulebook_page(const std::string& path, const std::string& title, const std::string& stem,
                       const ReportPlan& plan, const std::atomic<bool>* stop) {
  BookPage page;
  OpenedGame game;
  if (open_game(path, "compiled", game) != kExitOk) {
    page.ok = false;
    page.error = "the rules could not be loaded";
    return page;
  }
  ExamplePlan examples;
  examples.seed = plan.seed;
  examples.games = plan.book_games;
  examples.max_plies = std::min(plan.max_plies, plan.book_plies);
  examples.budget = plan.book_budget;
  examples.search_states = plan.book_search_states;
  examples.verifier_rlimit = plan.book_rlimit;
  examples.reach_states = plan.book_reach_states;
  examples.invariant_games = plan.invariant_games;
  examples.invariant_rlimit = plan.invariant_rlimit;
  examples.progress = [&plan](const std::string& line) { fmt::print(stderr, "report: {} {}\n", plan.label, line); };
  examples.stop = stop;
  Book b(game, plan, examples);
  std::string body = fmt::format(
      "<nav><a href=\"../index.html\">all variants</a> · <a href=\"{0}.html\">the analysis of this variant</a> · "
      "<a href=\"{0}-rulebook.json\">the data of this page (JSON)</a></nav>\n<h1>{1}</h1>\n"
      "<p>The rulebook of <code>{2}</code>: the rules in the file's own words, a plain line for each, and "
      "boards found in play.</p>\n",
      esc(stem), esc(title), esc(path));
  body += b.intro(page);
  body += b.start_board(page);
  if (!page.ok) return page;
  body += b.phases();
  body += b.rules(page);
  body += b.ending(page);
  page.json["title"] = title;
  page.json["file"] = path;
  page.json["rule_diagrams"] = page.rule_diagrams;
  page.html = fmt::format("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>{} — "
                          "rulebook</title>\n<style>{}</style>\n</head>\n<body>\n{}</body>\n</html>\n",
                          esc(title), kBookStyle, body);
  return page;
}

}  // namespace rulebook::cli
