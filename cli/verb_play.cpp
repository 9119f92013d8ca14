// `rulebook play` (a seeded random game, move by move) and `rulebook perft` (path counts).
#include <chrono>
#include <cstdio>
#include <string>
#include <thread>
#include <vector>

#include <fmt/core.h>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cli/coverage_out.h"
#include "cli/endless_out.h"
#include "cli/interrupt.h"
#include "cli/json_errors.h"
#include "cli/open_game.h"
#include "cli/play_moves.h"
#include "cli/progress.h"
#include "cli/run_error_out.h"
#include "cli/verbs.h"
#include "compiler/runtime/random.h"
#include "dsl/diagnostics.h"
#include "explorer/coverage_games.h"
#include "explorer/perft.h"

namespace rulebook::cli {
namespace {

/// Names, titles and boards come from the rules file: escaped before they reach a terminal.
std::string shown(std::string_view text) { return dsl::escape_for_terminal(text); }

struct RunOptions {
  std::string file;
  std::string engine = "compiled";
  uint64_t seed = 1;
  std::vector<std::string> setups;
  int max_plies = 10000;
  int depth = 1;
  bool divide = false;
  bool paths_only = false;  ///< perft: no complete games, the engine's fast count
  int threads = 0;  ///< perft workers; 0: one per core
  bool quiet = false;
  bool json = false;
  std::string boards = "all";  ///< all | phases | end
  std::vector<std::string> no_pass;  ///< engine plan passes switched off
  bool coverage = false;  ///< play: count what the rules did over `games` games instead
  int games = 100;
  bool no_blocked = false;
  uint64_t blocked_budget = 0;
  int examine = 3;                  ///< play --coverage: cut-off games examined
  uint64_t search_states = 20000;   ///< play --coverage: the directed search's budget
  int bmc_plies = 0;                ///< play --coverage: plies of the bounded model check
  uint64_t bmc_rlimit = 20000000;   ///< play --coverage: its Z3 units per item
  std::string moves;       ///< play --moves: chosen moves, comma-separated
  std::string moves_file;  ///< play --moves-file: one move per line
  bool then_random = false;  ///< after the chosen moves, random ones as without them
  std::string save_moves;  ///< play --save-moves: the moves played, as --moves-file reads them
  bool seed_given = false;
};

/// Cells of Cell-keyed state that a move changed other than those it names: what a
/// reader calls captures, removals and the like, found without knowing the game.
std::vector<std::string> side_effects(const ir::Program& p, const engine::Move& m,
                                      const uint8_t* before, const uint8_t* after) {
  std::vector<std::string> out;
  const int arity = m.kind >= 0 ? static_cast<int>(p.moves[static_cast<size_t>(m.kind)].params.size()) : 0;
  for (size_t v = ir::kSystemVars; v < p.vars.size(); ++v) {
    const ir::StateVar& var = p.vars[v];
    if (var.origin != ir::StateVar::Origin::State || var.keys.size() != 1 ||
        var.keys[0] != ir::kCellDomain)
      continue;
    for (uint32_t cell = 0; cell < var.count; ++cell) {
      uint32_t a = ir::load_index(before, var, cell);
      uint32_t b = ir::load_index(after, var, cell);
      if (a == b) continue;
      bool named = false;
      for (int i = 0; i < arity; ++i) {
        const ir::MoveParam& param = p.moves[static_cast<size_t>(m.kind)].params[static_cast<size_t>(i)];
        if (param.domain == ir::kCellDomain && m.args[i] == static_cast<int32_t>(cell)) named = true;
      }
      if (named) continue;
      out.push_back(fmt::format("{}[{}] {} -> {}", var.name, ir::value_text(p.domains, ir::kCellDomain, cell),
                                ir::value_text(p.domains, var.domain, ir::domain_value(p.domains, var.domain, a)),
                                ir::value_text(p.domains, var.domain, ir::domain_value(p.domains, var.domain, b))));
    }
  }
  return out;
}

std::string scores_text(const ir::Program& p, const engine::Engine& e,
                        const std::vector<int64_t>& scores) {
  const engine::Info& info = e.info();
  std::string out;
  for (int s = 0; s < info.score_subjects; ++s) {
    std::string who = info.score_per_team
                          ? "team " + p.domains[ir::kTeamDomain].members[static_cast<size_t>(s)]
                          : info.player_names[static_cast<size_t>(s)];
    std::string val;
    for (int k = 0; k < info.score_width; ++k) {
      if (k) val += ", ";
      val += std::to_string(scores[static_cast<size_t>(s * info.score_width + k)]);
    }
    out += fmt::format("  {}: {}\n", who, info.score_width > 1 ? "[" + val + "]" : val);
  }
  return out;
}

/// `play --coverage`: many seeded games run by the interpreter (whatever --engine says:
/// only it can count what the rules did), then the coverage as text or JSON.
int run_coverage(const RunOptions& opt) {
  OpenedGame game;
  if (int code = open_program(opt.file, game); code != kExitOk) return code;
  explorer::CoveragePlan plan;
  if (int code = parse_setup_args(opt.setups, plan.setup); code != kExitOk) return code;
  plan.games = opt.games;
  plan.seed = opt.seed;
  plan.max_plies = opt.max_plies;
  plan.blocked = !opt.no_blocked;
  plan.blocked_budget = opt.blocked_budget;
  StopOnInterrupt interrupt;
  plan.stop = interrupt.flag();
  const compiler::Interpreter interpreter(*game.program, game.sources);
  const explorer::CoverageGames games = explorer::cover_games(interpreter, plan);
  nlohmann::json j = coverage_json(games, game.sources);
  examine_coverage(interpreter, games,
                   {opt.examine, opt.search_states, opt.search_states, &game.sources, opt.bmc_plies, opt.bmc_rlimit}, j);
  if (opt.json) fmt::print("{}\n", j.dump(2));
  else fmt::print("{}", coverage_text(j));
  if (games.errors) {
    fmt::print(stderr, "{}", engine_error_text(game.sources, opt.file, games.first_error));
    return kExitInputError;
  }
  if (games.played < plan.games) {
    fmt::print(stderr, "play: interrupted after {} of {} games\n", games.played, plan.games);
    return kExitInterrupted;
  }
  return kExitOk;
}

/// A run-time error of `play`: located with its source line and the game where it
/// happened on stderr; under --json also as the error object on stdout.
int play_error(const RunOptions& opt, const OpenedGame& game, const std::string& message,
               const ErrorGame& where) {
  fmt::print(stderr, "{}{}", engine_error_text(game.sources, opt.file, message), error_game_text(opt.file, where));
  if (opt.json) {
    nlohmann::json j = error_json(kExitInputError, message, opt.file);
    const engine::Engine& e = *where.engine;
    j["error"]["player"] = e.info().player_names[size_t(where.mover)];
    j["error"]["ply"] = where.ply;
    if (where.move) j["error"]["move"] = e.move_text(*where.move);
    j["error"]["board"] = e.board_text(where.before);
    fmt::print("{}\n", j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace));
  }
  return kExitInputError;
}

/// The states of the turn so far while its moves can run `again`: a move that brings the
/// turn back to one of them can be repeated forever (docs/semantics.md, "Errors").
class AgainTurn {
 public:
  /// With one player every move keeps the turn, so a move counts only when its body runs
  /// `again` whatever happens (a top-level `again`); with more, when it holds one anywhere
  /// and the same player moves next.
  explicit AgainTurn(const ir::Program& p) {
    for (size_t k = 0; k < p.moves.size(); ++k) {
      bool always = false;
      for (const ir::StmtPtr& st : p.moves[k].body) always = always || st->op == ir::StmtOp::Again;
      can_again_.push_back(p.players > 1 ? !again_spans(p, int(k)).empty() : always);
    }
  }
  /// After `m` by `mover` took `before` to `after`: how many moves ago the turn was in
  /// `after` already, or 0.
  int back_to(const engine::Engine& e, const engine::Move& m, int mover, const std::vector<uint8_t>& before,
              const std::vector<uint8_t>& after) {
    const bool again = m.kind >= 0 && can_again_[size_t(m.kind)];
    if (!again || e.terminal(after.data()) || e.to_move(after.data()) != mover) {
      states_.clear();
      return 0;
    }
    if (states_.empty()) states_.push_back({e.hash(before.data()), before});
    const uint64_t h = e.hash(after.data());
    for (size_t i = 0; i < states_.size(); ++i)
      if (states_[i].first == h && states_[i].second == after) return int(states_.size() - i);
    states_.push_back({h, after});
    return 0;
  }

 private:
  std::vector<bool> can_again_;
  std::vector<std::pair<uint64_t, std::vector<uint8_t>>> states_;
};

/// A chosen move that cannot be played: where it was written, why (the rules that forbid
/// it, read by the interpreter whatever the engine), the board and the legal moves.
int refused_move(const RunOptions& opt, const OpenedGame& game, const WrittenMove& written, int ply,
                 const uint8_t* state, const std::vector<engine::Move>& legal, const std::string& why,
                 const Refusal* refusal) {
  const engine::Engine& e = *game.engine;
  const std::string where = written.line > 0 ? fmt::format("{}:{}:1", opt.moves_file, written.line) : opt.file;
  const std::string of = written.line > 0 ? "" : " of --moves";
  const size_t shown_moves = std::min<size_t>(legal.size(), 20);
  std::vector<std::string> texts;
  for (size_t i = 0; i < shown_moves; ++i) texts.push_back(e.move_text(legal[i]));
  const std::string player = e.info().player_names[size_t(e.to_move(state))];
  const std::string phase = e.info().phase_names[size_t(e.phase(state))];
  fmt::print(stderr, "{}: error: move {}{}, '{}': {}\n", shown(where), ply, of, shown(written.text), shown(why));
  if (refusal) fmt::print(stderr, "{}", shown(blockers_text(*refusal)));
  fmt::print(stderr, "{}: note: the board before move {} ({} to move, phase {}):\n{}\n", shown(opt.file), ply,
             shown(player), shown(phase), shown(e.board_text(state)));
  fmt::print(stderr, "{}: note: the legal moves ({}): {}{}\n", shown(opt.file), legal.size(),
             shown(fmt::format("{}", fmt::join(texts, ", "))),
             legal.size() > shown_moves ? fmt::format(" and {} more", legal.size() - shown_moves) : "");
  if (opt.json) {
    nlohmann::json j = error_json(kExitInputError, fmt::format("{}: error: move {}{}, '{}': {}", where, ply, of,
                                                                written.text, why));
    j["error"]["ply"] = ply;
    j["error"]["move"] = written.text;
    j["error"]["player"] = player;
    j["error"]["phase"] = phase;
    j["error"]["board"] = e.board_text(state);
    if (refusal) j["error"]["refusal"] = refusal_json(*refusal);
    nlohmann::json all = nlohmann::json::array();
    for (const engine::Move& m : legal) all.push_back(e.move_text(m));
    j["error"]["legal_moves"] = all;
    fmt::print("{}\n", j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace));
  }
  return kExitInputError;
}

/// The chosen move `written` among `legal`: its index, or -1 after printing why not.
int chosen_index(const RunOptions& opt, const OpenedGame& game, const WrittenMove& written, int ply,
                 const uint8_t* state, const std::vector<engine::Move>& legal, int& code) {
  const engine::Engine& e = *game.engine;
  engine::Move m;
  int player = -1;
  std::string error;
  code = kExitInputError;
  if (!parse_move(*game.program, written.text, m, player, error)) {
    refused_move(opt, game, written, ply, state, legal, error, nullptr);
    return -1;
  }
  if (player >= 0 && player != e.to_move(state)) {
    refused_move(opt, game, written, ply, state, legal,
                 fmt::format("it is {}'s turn, not {}'s", e.info().player_names[size_t(e.to_move(state))],
                             e.info().player_names[size_t(player)]),
                 nullptr);
    return -1;
  }
  for (size_t i = 0; i < legal.size(); ++i)
    if (legal[i] == m) return int(i);
  const compiler::Interpreter interpreter(*game.program, game.sources);
  const Refusal refusal = why_not_legal(interpreter, game.sources, state, m);
  refused_move(opt, game, written, ply, state, legal, refusal.reason, &refusal);
  return -1;
}

/// The moves `--moves` and `--moves-file` chose (with the seed and setups a moves file
/// names, where the command line does not); false after printing why not.
bool chosen_moves(RunOptions& opt, MoveScript& script) {
  if (!opt.moves_file.empty()) {
    std::string error;
    if (!read_moves_file(opt.moves_file, script, error)) {
      fmt::print(stderr, "{}\n", shown(error));
      return false;
    }
    if (script.seed && !opt.seed_given) opt.seed = *script.seed;
    if (opt.setups.empty()) opt.setups = script.setups;
  }
  for (WrittenMove& m : split_moves(opt.moves)) script.moves.push_back(m);
  return true;
}

/// `--save-moves`: the game's moves one per line, with the seed and setups that replay it.
int save_moves(const RunOptions& opt, const engine::Engine& e, const std::vector<std::string>& played) {
  std::string text = fmt::format("# {}\n# moves of `rulebook play`, read back by --moves-file\n# seed {}\n",
                                 e.info().title, opt.seed);
  for (const std::string& s : opt.setups) text += "# setup " + s + "\n";
  for (const std::string& m : played) text += m + "\n";
  return write_output(opt.save_moves, text);
}

int run_play(RunOptions opt) {
  if (opt.coverage) return run_coverage(opt);
  MoveScript script;
  if (!chosen_moves(opt, script)) return kExitInputError;
  const bool chosen = !opt.moves.empty() || !opt.moves_file.empty();
  OpenedGame game;
  compiler::plan::PassSwitches passes;
  if (int code = parse_no_pass(opt.no_pass, passes); code != kExitOk) return code;
  if (int code = open_game(opt.file, opt.engine, game, passes); code != kExitOk) return code;
  std::vector<uint8_t> state;
  if (int code = setup_state(game, opt.seed, opt.setups, state); code != kExitOk) return code;
  const engine::Engine& e = *game.engine;
  const engine::Info& info = e.info();
  fmt::print(stderr, "engine: {}\n", game.engine_note);

  nlohmann::json moves_json = nlohmann::json::array();
  if (!opt.json) {
    fmt::print("{} (seed {})\n\nphase {}\n{}\n", shown(info.title), opt.seed,
               shown(info.phase_names[static_cast<size_t>(e.phase(state.data()))]),
               shown(e.board_text(state.data())));
  }
  SplitMix64 rng(opt.seed);
  std::vector<engine::Move> moves;
  std::vector<uint8_t> before;
  int ply = 0;
  AgainTurn turn(*game.program);
  StopOnInterrupt interrupt;
  std::vector<std::string> played;
  for (; ply < opt.max_plies && !e.terminal(state.data()) && !interrupt.stopped(); ++ply) {
    // Chosen moves run out: the game stops there unless random moves follow.
    if (chosen && size_t(ply) >= script.moves.size() && !opt.then_random) break;
    moves.clear();
    engine::Status st = e.legal_moves(state.data(), moves);
    if (st.ok && moves.empty()) st = engine::Status::Error("a live state has no legal move");
    if (!st.ok) return play_error(opt, game, st.message, {&e, state.data(), e.to_move(state.data()), nullptr, ply + 1});
    size_t pick = 0;
    if (size_t(ply) < script.moves.size()) {
      int code = kExitOk;
      const int i = chosen_index(opt, game, script.moves[size_t(ply)], ply + 1, state.data(), moves, code);
      if (i < 0) return code;
      pick = size_t(i);
    } else {
      pick = rng.below(moves.size());
    }
    const engine::Move m = moves[pick];
    played.push_back(e.move_text(m));
    const int mover = e.to_move(state.data());
    const int phase = e.phase(state.data());
    before = state;
    st = e.apply(state.data(), m);
    if (!st.ok) return play_error(opt, game, st.message, {&e, before.data(), mover, &m, ply + 1});
    if (const int back = turn.back_to(e, m, mover, before, state); back > 0)
      return play_error(opt, game, again_loop_message(*game.program, game.sources, e, m, back),
                        {&e, before.data(), mover, &m, ply + 1});
    std::vector<std::string> effects = side_effects(*game.program, m, before.data(), state.data());
    const int phase_after = e.phase(state.data());
    if (opt.json) {
      moves_json.push_back({{"ply", ply + 1},
                            {"player", info.player_names[static_cast<size_t>(mover)]},
                            {"move", e.move_text(m)},
                            {"effects", effects},
                            {"phase", info.phase_names[static_cast<size_t>(phase_after)]},
                            {"hash", fmt::format("{:016x}", e.hash(state.data()))}});
      continue;
    }
    fmt::print("{:>4}. {} {}", ply + 1, shown(info.player_names[static_cast<size_t>(mover)]),
               shown(e.move_text(m)));
    for (const std::string& fx : effects) fmt::print("  [{}]", shown(fx));
    fmt::print("\n");
    if (phase_after != phase)
      fmt::print("\nphase {}\n", shown(info.phase_names[static_cast<size_t>(phase_after)]));
    if (opt.boards == "all" || (opt.boards == "phases" && phase_after != phase))
      fmt::print("{}\n", shown(e.board_text(state.data())));
  }
  std::vector<int64_t> scores;
  engine::Status st = e.scores(state.data(), scores);
  if (!st.ok) {
    fmt::print(stderr, "{}{}: note: in the score after {} moves\n",
               engine_error_text(game.sources, opt.file, st.message), shown(opt.file), ply);
    if (opt.json) fmt::print("{}\n", error_json(kExitInputError, st.message, opt.file).dump(2));
    return kExitInputError;
  }
  const bool over = e.terminal(state.data());
  // Stopped by Ctrl-C: the moves so far and the score where it stopped, marked as such.
  const bool stopped = !over && interrupt.stopped();
  // A game whose chosen moves ran out before its end (and before --max-plies).
  const bool moves_ran_out = !over && !stopped && chosen && !opt.then_random && ply < opt.max_plies;
  if (chosen && size_t(ply) < script.moves.size() && !stopped) {
    fmt::print(stderr, "{}: error: {} chosen move{} left after {}\n", shown(opt.file),
               script.moves.size() - size_t(ply), script.moves.size() - size_t(ply) == 1 ? "" : "s",
               over ? fmt::format("the game ended at move {}", ply) : fmt::format("--max-plies {}", opt.max_plies));
    if (opt.json)
      fmt::print("{}\n", error_json(kExitInputError, fmt::format("{}: error: chosen moves left after the game's end",
                                                                  opt.file)).dump(2));
    return kExitInputError;
  }
  if (!opt.save_moves.empty())
    if (int code = save_moves(opt, e, played); code != kExitOk) return code;
  if (opt.json) {
    nlohmann::json j{{"title", info.title}, {"seed", opt.seed}, {"engine", opt.engine},
                     {"engine_origin", game.engine_origin}, {"moves", moves_json}, {"finished", over}, {"plies", ply},
                     {"scores", scores}};
    if (stopped) j["interrupted"] = true;
    if (chosen) j["chosen_moves"] = script.moves.size();
    fmt::print("{}\n", j.dump(2));
  } else {
    if (opt.boards == "end") fmt::print("{}\n", shown(e.board_text(state.data())));
    fmt::print("\n{} after {} moves; score ({} wins):\n{}",
               over ? "game over" : stopped ? "interrupted" : moves_ran_out ? "stopped after the chosen moves" : "cut off", ply,
               info.highest_wins ? "highest" : "lowest", shown(scores_text(*game.program, e, scores)));
  }
  if (stopped) {
    fmt::print(stderr, "play: interrupted after {} moves\n", ply);
    return kExitInterrupted;
  }
  return kExitOk;
}

int run_perft(const RunOptions& opt) {
  OpenedGame game;
  compiler::plan::PassSwitches passes;
  if (int code = parse_no_pass(opt.no_pass, passes); code != kExitOk) return code;
  if (int code = open_game(opt.file, opt.engine, game, passes); code != kExitOk) return code;
  std::vector<uint8_t> state;
  if (int code = setup_state(game, opt.seed, opt.setups, state); code != kExitOk) return code;
  const engine::Engine& e = *game.engine;
  if (!opt.quiet) fmt::print(stderr, "engine: {}\n", game.engine_note);
  auto t0 = std::chrono::steady_clock::now();
  nlohmann::json j{{"title", e.info().title}, {"engine", opt.engine},
                   {"engine_origin", game.engine_origin}};
  explorer::PerftOptions po;
  po.threads = opt.threads > 0 ? opt.threads : int(std::max(1u, std::thread::hardware_concurrency()));
  po.count_ends = !opt.paths_only;
  StopOnInterrupt interrupt;
  po.interrupt = interrupt.flag();
  if (!opt.quiet)
    po.progress = [](const explorer::PerftProgress& p) {
      fmt::print(stderr, "perft: {}/{} subtrees below depth {} done, {} paths of the last depth, "
                         "{:.0f} paths/s, {:.1f} MB, {:.0f} s\n",
                 p.subtrees_done, p.subtrees, p.split_depth, p.deepest,
                 p.seconds > 0 ? double(p.deepest) / p.seconds : 0.0,
                 double(resident_bytes()) / (1024.0 * 1024.0), p.seconds);
    };
  if (opt.divide) {
    engine::Status st;
    std::vector<explorer::DivideEntry> entries = explorer::divide(e, state.data(), opt.depth, st, po);
    const bool interrupted = !st.ok && interrupt.stopped();
    if (!st.ok && !interrupted) {
      fmt::print(stderr, "{}", engine_error_text(game.sources, opt.file, st.message));
      return kExitInputError;
    }
    uint64_t total = 0;
    explorer::WideCount ends = 0;
    nlohmann::json d = nlohmann::json::array();
    for (const explorer::DivideEntry& en : entries) {
      total += en.paths;
      ends += en.ends;
      nlohmann::json entry{{"move", e.move_text(en.move)}, {"paths", en.paths}};
      if (po.count_ends) entry["complete_games"] = explorer::wide_json(en.ends);
      if (opt.json) d.push_back(entry);
      else fmt::print("{}: {}\n", shown(e.move_text(en.move)), en.paths);
    }
    if (opt.json) {
      j["divide"] = d;
      j["total"] = total;
      if (po.count_ends) j["complete_games_total"] = explorer::wide_json(ends);
      j["complete"] = !interrupted;
      fmt::print("{}\n", j.dump(2));
    } else {
      // Before the total, which stays the last line.
      if (po.count_ends)
        fmt::print("complete games of 1..{} moves: {}\n", opt.depth, explorer::wide_text(ends));
      fmt::print("total: {}\n", total);
    }
    if (interrupted) {
      fmt::print(stderr, "perft: interrupted after {} first moves; the total is theirs only\n",
                 entries.size());
      return kExitInterrupted;
    }
    return kExitOk;
  }
  explorer::PerftResult r = explorer::perft(e, state.data(), opt.depth, po);
  if (!r.status.ok) {
    fmt::print(stderr, "{}", engine_error_text(game.sources, opt.file, r.status.message));
    return kExitInputError;
  }
  double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  uint64_t nodes = 0;
  for (uint64_t n : r.paths) nodes += n;
  if (opt.json) {
    j["paths"] = r.paths;
    if (po.count_ends) {
      j["complete_games"] = r.ends;
      j["complete_games_total"] = explorer::wide_json(explorer::wide_sum(r.ends));
    }
    j["complete"] = r.complete;
    if (!r.complete) {
      j["split_depth"] = r.split_depth;
      j["subtrees"] = r.subtrees;
      j["subtrees_done"] = r.subtrees_done;
    }
    fmt::print("{}\n", j.dump(2));
  } else {
    // The complete games first: the path counts keep their lines, the last depth's last.
    for (size_t d = 0; d < r.ends.size(); ++d)
      fmt::print("complete games of {} moves: {}{}\n", d + 1, r.ends[d],
                 r.complete || int(d) < r.split_depth ? "" : "  (finished subtrees only)");
    if (po.count_ends)
      fmt::print("complete games in all: {}{}\n", explorer::wide_text(explorer::wide_sum(r.ends)),
                 r.complete ? "" : "  (finished subtrees only)");
    for (size_t d = 0; d < r.paths.size(); ++d)
      fmt::print("depth {}: {}{}\n", d + 1, r.paths[d],
                 r.complete || int(d) < r.split_depth ? "" : "  (finished subtrees only)");
  }
  if (!r.complete) {
    fmt::print(stderr, "perft: interrupted after {} of the {} subtrees below depth {}: the counts of "
                       "depths 1..{} are complete, the deeper ones are those subtrees' only\n",
               r.subtrees_done, r.subtrees, r.split_depth, r.split_depth);
    return kExitInterrupted;
  }
  if (!opt.quiet)
    fmt::print(stderr, "perft: {} nodes in {:.3f} s ({:.0f} nodes/s, {} threads)\n", nodes, secs,
               secs > 0 ? static_cast<double>(nodes) / secs : 0.0, po.threads);
  return kExitOk;
}

void add_run_options(CLI::App* cmd, RunOptions& o) {
  cmd->add_option("file", o.file, "Rules file (- reads standard input)")->required();
  cmd->add_option("--engine", o.engine, "compiled (generated C++) or interp (interpreter)")
      ->check(CLI::IsMember({"compiled", "interp"}));
  cmd->add_option("--seed", o.seed, "Seed of the setup and of the move choices");
  cmd->add_option("--setup", o.setups, "Setup value name=value (repeatable)");
  cmd->add_flag("--json", o.json, "Print the result as JSON");
  add_no_pass_option(cmd, o.no_pass);
}

}  // namespace

void add_play(CLI::App& app, int& result) {
  auto opt = std::make_shared<RunOptions>();
  CLI::App* cmd = app.add_subcommand("play", "Play a seeded random game, move by move");
  add_run_options(cmd, *opt);
  cmd->add_option("--max-plies", opt->max_plies, "Stop a game after this many moves");
  cmd->add_option("--boards", opt->boards, "Print the board after: all moves, phases, end")
      ->check(CLI::IsMember({"all", "phases", "end"}));
  cmd->add_flag("--coverage", opt->coverage,
                "Play --games random games with the interpreter and count what every move, statement, "
                "condition and end condition did");
  cmd->add_option("--games", opt->games, "With --coverage: games (game i uses seed + i)")->check(CLI::Range(1, 100000000));
  cmd->add_flag("--no-blocked", opt->no_blocked, "With --coverage: do not count the instances each condition kept out");
  cmd->add_option("--blocked-budget", opt->blocked_budget,
                  "With --coverage: count what the conditions kept out at each decision until this many conditions "
                  "and move bodies were evaluated (default 0: at every decision)");
  cmd->add_option("--examine", opt->examine, "With --coverage: cut-off games replayed to find why they did not end")
      ->check(CLI::Range(0, 1000));
  cmd->add_option("--search-states", opt->search_states,
                  "With --coverage: positions searched breadth-first for what never happened, and enumerated to "
                  "settle whether every game ends (0: neither)");
  cmd->add_option("--bmc-plies", opt->bmc_plies,
                  "With --coverage: what the directed search did not reach is asked of Z3 over this many plies from "
                  "the setup (bounded model checking; 0: not)")
      ->check(CLI::Range(0, 64));
  cmd->add_option("--bmc-rlimit", opt->bmc_rlimit, "With --bmc-plies: Z3 resource units per item");
  cmd->add_option("--moves", opt->moves,
                  "Play these moves first, comma-separated, as play prints them: \"place(r0c1), jump(r0c1, r2c1)\"");
  cmd->add_option("--moves-file", opt->moves_file,
                  "Play the moves of this file first: one per line, # comments, `# seed N`; a transcript of play "
                  "replays its game")
      ->check(CLI::ExistingFile);
  cmd->add_flag("--then-random", opt->then_random, "After the chosen moves, go on with random moves (default: stop)");
  cmd->add_option("--save-moves", opt->save_moves, "Write the moves played to this file, as --moves-file reads them");
  CLI::Option* seed = cmd->get_option("--seed");
  cmd->callback([opt, seed, &result] {
    opt->seed_given = seed->count() > 0;
    result = run_play(*opt);
  });

  auto perft = std::make_shared<RunOptions>();
  CLI::App* pc = app.add_subcommand("perft", "Count move paths and complete games by depth (like chess perft)");
  add_run_options(pc, *perft);
  pc->add_option("--depth", perft->depth, "Depth")->required()->check(CLI::Range(1, 1000));
  pc->add_flag("--divide", perft->divide, "Count per first move");
  pc->add_flag("--paths-only", perft->paths_only,
               "Count paths only, not complete games: the engine counts the last ply without playing it");
  pc->add_option("--threads", perft->threads, "Worker threads (default: the cores)")->check(CLI::Range(1, 256));
  pc->add_flag("--quiet", perft->quiet, "No progress on stderr");
  pc->callback([perft, &result] { result = run_perft(*perft); });
}

}  // namespace rulebook::cli
