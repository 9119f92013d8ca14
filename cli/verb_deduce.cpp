// `rulebook deduce LIST.json`: the deduction game over the states `rulebook explore --list
// --observe` wrote. One state is hidden; a player asks probes (an observed define at one of
// its parameter's values, read on the hidden state) until one state is left. Prints each
// game's probes and the candidates left after each, and over the games the probes needed.
#include <algorithm>
#include <cerrno>
#include <cstring>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fmt/core.h>
#include <nlohmann/json.hpp>

#include "cli/explore_list.h"
#include "cli/interrupt.h"
#include "cli/open_game.h"
#include "cli/output_file.h"
#include "cli/progress.h"
#include "cli/verbs.h"
#include "compiler/runtime/random.h"
#include "dsl/diagnostics.h"
#include "explorer/deduce.h"
#include "explorer/enumerate.h"

namespace rulebook::cli {
namespace {

struct DeduceOptions {
  std::string list;               ///< a list (.json), or a rules file to list first
  // A rules file: the states of this depth listed first, as `explore --list` would.
  int depth = -1;
  std::vector<std::string> observe;
  std::vector<std::string> setups;
  std::string engine = "compiled";
  int threads = 0;
  uint64_t list_max = 1000000;
  std::string save_list;
  std::vector<std::string> probe;
  std::vector<std::string> given;
  std::vector<std::string> bags;  ///< NAME=K
  std::vector<std::string> once;
  std::string hidden;             ///< "all" or 1-based indices "3,17"
  size_t games = 20;
  uint64_t seed = 1;
  size_t limit = 0;               ///< probes allowed (0: no limit)
  bool baseline = false;
  bool json = false;
  bool quiet = false;
};

/// What the list file holds, read into a table of answer ids.
struct Loaded {
  explorer::DeductionTable table;
  std::vector<std::string> values;  ///< the text of each answer id
  std::vector<std::string> states;  ///< each candidate's state (hex)
  std::string file;
  int depth = 0;
};

/// The text of the regular file `path` ("" and `error` set otherwise: a FIFO is refused
/// without waiting for a writer, as the rules files are).
std::string read_list_file(const std::string& path, std::string& error) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) {
    error = "cannot read '" + path + "': " + std::strerror(errno);
    return "";
  }
  struct stat st;
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    error = "cannot read '" + path + "': " + (S_ISDIR(st.st_mode) ? "it is a directory" : "not a regular file");
    ::close(fd);
    return "";
  }
  std::string text;
  char buffer[1 << 16];
  for (;;) {
    const ssize_t got = ::read(fd, buffer, sizeof buffer);
    if (got == 0) break;
    if (got < 0) {
      if (errno == EINTR) continue;
      error = "cannot read '" + path + "': " + std::strerror(errno);
      break;
    }
    text.append(buffer, size_t(got));
  }
  ::close(fd);
  return text;
}

std::string load_json(const DeduceOptions& opt, const std::string& text, Loaded& out);

std::string load(const DeduceOptions& opt, const std::string& text, Loaded& out) {
  // A list is input like a rules file: any shape, any type where another is expected, is
  // said, never a crash.
  try {
    return load_json(opt, text, out);
  } catch (const nlohmann::json::exception& e) {
    return opt.list + ": not a list of `rulebook explore --list` (" + std::string(e.what()) + ")";
  }
}

/// Whether the input is a list (a JSON document) rather than a rules file.
bool is_list(const std::string& path) { return path.size() > 5 && path.compare(path.size() - 5, 5, ".json") == 0; }

/// The list of a rules file's states at --depth, with the --observe defines, as `explore
/// --list` makes it; "" with `code` set (and said) when it cannot be made whole.
std::string list_of_rules(const DeduceOptions& opt, const std::atomic<bool>* interrupt, int& code) {
  code = kExitOk;
  if (opt.depth < 0 || opt.observe.empty()) {
    fmt::print(stderr, "rulebook deduce: a rules file needs --depth N and --observe NAME (the states to hide and "
                       "what a probe reads), or give a list made by `explore --list`\n");
    code = kExitUsage;
    return "";
  }
  OpenedGame game;
  if ((code = open_game(opt.list, opt.engine, game)) != kExitOk) return "";
  std::vector<uint8_t> root;
  if ((code = setup_state(game, 1, opt.setups, root)) != kExitOk) return "";
  const ir::Program& p = *game.program;
  std::vector<int> observed;
  if (std::string why = observed_defines(p, opt.observe, observed); !why.empty()) {
    fmt::print(stderr, "rulebook deduce: {}\n", why);
    code = kExitUsage;
    return "";
  }
  StateList listed(p, game.sources, observed);
  listed.limit(opt.list_max);
  explorer::SurveyOptions so;
  so.max_depth = opt.depth;
  so.threads = opt.threads > 0 ? opt.threads : int(std::max(1u, std::thread::hardware_concurrency()));
  so.interrupt = interrupt;
  so.visit_last = [&listed](const uint8_t* state) { listed.add(state); };
  if (!opt.quiet)
    so.progress = [](const explorer::Progress& pr) {
      fmt::print(stderr, "listing depth {}: {} records, {:.0f} states/s, {:.1f} MB, {:.0f} s\n", pr.depth, pr.records,
                 pr.seconds > 0 ? double(pr.records) / pr.seconds : 0.0, double(pr.memory) / (1024.0 * 1024.0),
                 pr.seconds);
    };
  const explorer::Survey s = explorer::survey(p, game.sources, *game.engine, root.data(), so);
  const explorer::ExploreResult& r = s.result;
  if (interrupt->load()) {
    fmt::print(stderr, "rulebook deduce: interrupted while listing the states: no game played\n");
    code = kExitInterrupted;
    return "";
  }
  if (r.stopped == "error") {
    fmt::print(stderr, "rulebook deduce: stopped by an engine error: {}\n", dsl::escape_for_terminal(r.status.message));
    code = kExitInputError;
    return "";
  }
  if (r.depths.empty() || r.depths.back().depth != opt.depth || !(r.stopped.empty() || r.stopped == "depth")) {
    fmt::print(stderr, "rulebook deduce: play never reaches depth {} (its last depth is {}): no state to hide\n",
               opt.depth, r.depths.empty() ? 0 : r.depths.back().depth);
    code = kExitInputError;
    return "";
  }
  if (listed.overflowed()) {
    fmt::print(stderr, "rulebook deduce: depth {} has {} states, more than --list-max {}\n", opt.depth, listed.seen(),
               opt.list_max);
    code = kExitInputError;
    return "";
  }
  std::string text = listed.json(opt.list, opt.depth, interrupt, nullptr);
  if (text.empty()) {
    fmt::print(stderr, "rulebook deduce: interrupted while listing the states: no game played\n");
    code = kExitInterrupted;
    return "";
  }
  if (!opt.save_list.empty())
    if (std::string err = write_file_atomically(opt.save_list, text); !err.empty()) {
      fmt::print(stderr, "rulebook deduce: {}\n", err);
      code = kExitInputError;
      return "";
    }
  return text;
}

std::string load_json(const DeduceOptions& opt, const std::string& text, Loaded& out) {
  nlohmann::json doc;
  try {
    doc = nlohmann::json::parse(text);
  } catch (const nlohmann::json::exception& e) {
    return opt.list + ": not a JSON document (" + std::string(e.what()) + ")";
  }
  if (!doc.is_object() || !doc.contains("observe") || !doc.contains("list") || !doc["observe"].is_array() ||
      !doc["list"].is_array())
    return opt.list + ": not a list of `rulebook explore --list` (no \"observe\" and \"list\")";
  out.file = doc.value("file", "");
  out.depth = doc.value("depth", 0);
  std::map<std::string, int> bag;
  for (const std::string& b : opt.bags) {
    const size_t eq = b.find('=');
    int k = 0;
    try {
      k = eq == std::string::npos ? 0 : std::stoi(b.substr(eq + 1));
    } catch (const std::exception&) {
      k = 0;
    }
    if (k < 1 || k > 8) return "--bag " + b + ": give NAME=K, K from 1 to 8 (probes asked together)";
    bag[b.substr(0, eq)] = k;
  }
  std::vector<std::string> observed;
  auto& t = out.table;
  std::map<std::string, uint32_t> ids;
  struct Column {
    std::string name;
    bool param = false;
    size_t first_probe = 0, count = 0;
  };
  std::vector<Column> cols;
  for (const auto& o : doc["observe"]) {
    const std::string name = o.value("name", "");
    observed.push_back(name);
    const bool param = o.contains("parameter");
    const bool probed = param && (opt.probe.empty() || std::count(opt.probe.begin(), opt.probe.end(), name));
    const bool given = std::count(opt.given.begin(), opt.given.end(), name) > 0;
    Column c{name, param, t.probes.size(), 0};
    if (probed || given) {
      explorer::DeductionTable::Kind k;
      k.name = name;
      k.given = given;
      k.bag = bag.count(name) ? bag[name] : 1;
      k.once = std::count(opt.once.begin(), opt.once.end(), name) > 0;
      t.kinds.push_back(k);
      if (param) {
        for (const auto& v : o.value("values", nlohmann::json::array()))
          t.probes.push_back({t.kinds.size() - 1, v.is_string() ? v.get<std::string>() : v.dump()});
      } else {
        t.probes.push_back({t.kinds.size() - 1, ""});
      }
      c.count = t.probes.size() - c.first_probe;
    }
    cols.push_back(c);
  }
  auto known = [&](const std::string& n) { return std::count(observed.begin(), observed.end(), n) > 0; };
  std::string names;
  for (const std::string& n : observed) names += (names.empty() ? "" : ", ") + n;
  for (const auto* group : {&opt.probe, &opt.given})
    for (const std::string& n : *group)
      if (!known(n)) return fmt::format("{}: '{}' is not observed in the list (observed: {})", opt.list, n,
                                        names.empty() ? "nothing" : names);
  for (const auto& [n, k] : bag)
    if (!known(n)) return fmt::format("--bag {}: '{}' is not observed in the list (observed: {})", n, n, names);
  for (const std::string& n : opt.once)
    if (!known(n)) return fmt::format("--once {}: '{}' is not observed in the list (observed: {})", n, n, names);
  for (const std::string& n : opt.probe)
    for (const Column& c : cols)
      if (c.name == n && !c.param)
        return "--probe " + n + ": a define of no parameter answers once for all (give it with --given)";
  if (std::none_of(t.kinds.begin(), t.kinds.end(), [](const auto& k) { return !k.given; }))
    return opt.list + ": nothing to probe (observe a define of one parameter with `explore --observe`)";
  t.answers.assign(t.probes.size(), {});
  for (const auto& item : doc["list"]) {
    if (!item.is_object() || !item.contains("values")) return opt.list + ": a listed state without values";
    const auto& vals = item["values"];
    for (const Column& c : cols) {
      if (c.count == 0) continue;
      if (!vals.contains(c.name)) return opt.list + ": a listed state without a value of " + c.name;
      const nlohmann::json& v = vals[c.name];
      if (c.param && (!v.is_array() || v.size() != c.count))
        return fmt::format("{}: {} has {} values on a listed state, {} expected", opt.list, c.name,
                           v.is_array() ? v.size() : 1, c.count);
      for (size_t i = 0; i < c.count; ++i) {
        const std::string text = (c.param ? v[i] : v).dump();  // null: the define failed there
        auto it = ids.emplace(text, uint32_t(ids.size())).first;
        t.answers[c.first_probe + i].push_back(it->second);
      }
    }
    out.states.push_back(item.value("state", ""));
  }
  t.candidates = out.states.size();
  if (t.candidates == 0) return opt.list + ": the list holds no state";
  out.values.resize(ids.size());
  for (const auto& [text, id] : ids) out.values[id] = text;
  return "";
}

/// The hidden candidates: every one, the 1-based indices given, or `games` drawn from the
/// seed (distinct while there are enough).
std::string hidden_of(const DeduceOptions& opt, size_t n, std::vector<size_t>& out) {
  if (opt.hidden == "all") {
    for (size_t i = 0; i < n; ++i) out.push_back(i);
    return "";
  }
  if (!opt.hidden.empty()) {
    std::stringstream ss(opt.hidden);
    std::string part;
    while (std::getline(ss, part, ',')) {
      size_t k = 0;
      try {
        k = std::stoul(part);
      } catch (const std::exception&) {
        k = 0;
      }
      if (k < 1 || k > n) return fmt::format("--hidden {}: give 'all' or state numbers from 1 to {}", opt.hidden, n);
      out.push_back(k - 1);
    }
    return "";
  }
  std::vector<size_t> pool(n);
  for (size_t i = 0; i < n; ++i) pool[i] = i;
  SplitMix64 rng(opt.seed);
  for (size_t g = 0; g < opt.games; ++g) {
    if (pool.empty())
      for (size_t i = 0; i < n; ++i) pool.push_back(i);
    const size_t j = rng.below(pool.size());
    out.push_back(pool[j]);
    pool.erase(pool.begin() + long(j));
  }
  return "";
}

std::string median_text(std::vector<size_t> v) {
  if (v.empty()) return "-";
  std::sort(v.begin(), v.end());
  const size_t m = v.size() / 2;
  if (v.size() % 2) return std::to_string(v[m]);
  const size_t s = v[m - 1] + v[m];
  return s % 2 ? fmt::format("{}.5", s / 2) : std::to_string(s / 2);
}

struct Summary {
  size_t games = 0, found = 0, within = 0;
  std::vector<size_t> probes;  ///< of the games found
  std::vector<size_t> turns;   ///< of the games found (a bag is one turn)
  std::map<size_t, size_t> histogram;
  void add(const explorer::DeductionGame& g, size_t limit) {
    ++games;
    if (!g.found) return;
    ++found;
    if (limit == 0 || g.probes_used <= limit) ++within;
    probes.push_back(g.probes_used);
    turns.push_back(g.steps.size());
    ++histogram[g.probes_used];
  }
  std::string text(size_t limit) const {
    std::string h;
    for (const auto& [p, n] : histogram) h += fmt::format("{}{}: {}", h.empty() ? "" : ", ", p, n);
    return fmt::format("{} of {} found{}; probes median {} (range {} to {}), turns median {}; games by probes: {}",
                       found, games, limit ? fmt::format(" ({} within {} probes)", within, limit) : "",
                       median_text(probes), probes.empty() ? 0 : *std::min_element(probes.begin(), probes.end()),
                       probes.empty() ? 0 : *std::max_element(probes.begin(), probes.end()), median_text(turns),
                       h.empty() ? "-" : h);
  }
  nlohmann::ordered_json json(size_t limit) const {
    nlohmann::ordered_json j;
    j["games"] = games;
    j["found"] = found;
    if (limit) j["within_limit"] = within;
    j["median_probes"] = median_text(probes);
    j["min_probes"] = probes.empty() ? 0 : *std::min_element(probes.begin(), probes.end());
    j["max_probes"] = probes.empty() ? 0 : *std::max_element(probes.begin(), probes.end());
    j["median_turns"] = median_text(turns);
    nlohmann::ordered_json h = nlohmann::ordered_json::object();
    for (const auto& [p, n] : histogram) h[std::to_string(p)] = n;
    j["by_probes"] = h;
    return j;
  }
};

/// A turn as text: `answer(r2c3) = 12` or `answer{r2c3, r4c5} = [0, 12]` (a bag's answers
/// sorted by their text: a bag has no order).
std::string step_text(const Loaded& l, const explorer::DeductionStep& st, std::vector<std::string>* answers) {
  const auto& t = l.table;
  std::vector<std::string> labels, vals;
  for (size_t p : st.probes) labels.push_back(t.probes[p].label);
  for (uint32_t a : st.answers) vals.push_back(l.values[a]);
  std::sort(vals.begin(), vals.end());
  if (answers) *answers = vals;
  const std::string& kind = t.kinds[t.probes[st.probes[0]].kind].name;
  std::string ls, vs;
  for (const auto& s : labels) ls += (ls.empty() ? "" : ", ") + s;
  for (const auto& s : vals) vs += (vs.empty() ? "" : ", ") + s;
  if (st.probes.size() == 1) return fmt::format("{}({}) = {}", kind, ls, vs);
  return fmt::format("{}{{{}}} = [{}]", kind, ls, vs);
}

nlohmann::ordered_json game_json(const Loaded& l, const explorer::DeductionGame& g) {
  nlohmann::ordered_json j;
  j["hidden"] = g.hidden + 1;
  j["state"] = l.states[g.hidden];
  j["start"] = g.start;
  nlohmann::ordered_json steps = nlohmann::ordered_json::array();
  for (const auto& st : g.steps) {
    std::vector<std::string> vals;
    step_text(l, st, &vals);
    nlohmann::ordered_json s;
    s["kind"] = l.table.kinds[l.table.probes[st.probes[0]].kind].name;
    nlohmann::ordered_json ps = nlohmann::ordered_json::array();
    for (size_t p : st.probes) ps.push_back(l.table.probes[p].label);
    s["probes"] = ps;
    nlohmann::ordered_json as = nlohmann::ordered_json::array();
    for (const auto& v : vals) as.push_back(nlohmann::ordered_json::parse(v));
    s["answers"] = as;
    s["left"] = st.left;
    steps.push_back(s);
  }
  j["steps"] = steps;
  j["probes"] = g.probes_used;
  j["found"] = g.found;
  j["left"] = g.left;
  j["ended"] = g.ended;
  return j;
}

int run_deduce(const DeduceOptions& opt) {
  StopOnInterrupt interrupt;
  std::string text;
  if (is_list(opt.list)) {
    std::string error;
    text = read_list_file(opt.list, error);
    if (!error.empty()) {
      fmt::print(stderr, "rulebook deduce: {}\n", error);
      return kExitInputError;
    }
  } else {
    int code = kExitOk;
    text = list_of_rules(opt, interrupt.flag(), code);
    if (code != kExitOk) return code;
  }
  Loaded l;
  if (std::string why = load(opt, text, l); !why.empty()) {
    fmt::print(stderr, "rulebook deduce: {}\n", why);
    return kExitInputError;
  }
  if (interrupt.stopped()) {
    fmt::print(stderr, "rulebook deduce: interrupted while reading the list: no game played\n");
    return kExitInterrupted;
  }
  std::vector<size_t> hidden;
  if (std::string why = hidden_of(opt, l.table.candidates, hidden); !why.empty()) {
    fmt::print(stderr, "rulebook deduce: {}\n", why);
    return kExitUsage;
  }
  const auto& t = l.table;
  std::string kinds;
  for (const auto& k : t.kinds) {
    const size_t n = size_t(std::count_if(t.probes.begin(), t.probes.end(), [&](const auto& p) { return &t.kinds[p.kind] == &k; }));
    kinds += fmt::format("{}{}{}", kinds.empty() ? "" : ", ", k.name,
                         k.given    ? " (given)"
                         : k.bag > 1 ? fmt::format(" ({} probes, in bags of up to {}{})", n, k.bag, k.once ? ", once" : "")
                                     : fmt::format(" ({} probes{})", n, k.once ? ", once" : ""));
  }
  Summary greedy_sum, random_sum;
  explorer::DeductionCache cache;
  nlohmann::ordered_json games = nlohmann::ordered_json::array();
  if (!opt.json) {
    fmt::print("deduction over {} states (depth {} of {})\n", t.candidates, l.depth, l.file);
    fmt::print("observed: {}\n", kinds);
  }
  ProgressClock clock;
  // The greedy games, all at once: one walk of the player's decision tree.
  std::vector<bool> done;
  const std::vector<explorer::DeductionGame> played_games =
      explorer::deduce_all(t, hidden, &cache, done, [&](size_t finished) {
        if (!opt.quiet && clock.due()) {
          const double s = clock.seconds();
          fmt::print(stderr, "deduce: game {} of {}, {:.1f} games/s, {} turns remembered, {:.0f} MB, {:.0f} s\n",
                     finished, hidden.size(), double(finished) / s, cache.choices.size(),
                     double(resident_bytes()) / (1024.0 * 1024.0), s);
        }
        return !interrupt.stopped();
      });
  // Checked again in one pass over the list: every candidate walked down the turns by its
  // own answers, each count of each game the number that got there.
  if (std::string why = explorer::check_games(t, played_games, done); !why.empty()) {
    fmt::print(stderr, "rulebook deduce: internal: {}\n", why);
    return kExitInternal;
  }
  size_t played = 0;
  for (size_t i = 0; i < hidden.size(); ++i) {
    if (!done[i] || interrupt.stopped()) break;
    const explorer::DeductionGame& g = played_games[i];
    greedy_sum.add(g, opt.limit);
    std::optional<explorer::DeductionGame> r;
    if (opt.baseline) {
      if (!opt.quiet && clock.due()) {
        const double s = clock.seconds();
        fmt::print(stderr, "deduce: baseline game {} of {}, {:.0f} MB, {:.0f} s\n", i, hidden.size(),
                   double(resident_bytes()) / (1024.0 * 1024.0), s);
      }
      r = explorer::deduce(t, hidden[i], explorer::DeductionStrategy::Random, opt.seed + i);
      random_sum.add(*r, opt.limit);
    }
    ++played;
    if (opt.json) {
      nlohmann::ordered_json j = game_json(l, g);
      if (r) j["baseline"] = game_json(l, *r);
      games.push_back(j);
      continue;
    }
    fmt::print("\ngame {}: state {} hidden; {} states{}\n", i + 1, g.hidden + 1, g.start,
               g.start < t.candidates ? " after the givens" : "");
    for (const auto& st : g.steps) fmt::print("  {}: {} left\n", step_text(l, st, nullptr), st.left);
    fmt::print("  {}\n", g.found ? fmt::format("found in {} probe{}", g.probes_used, g.probes_used == 1 ? "" : "s")
                                 : fmt::format("{} states left: {}", g.left, g.ended));
    if (r) {
      fmt::print("  baseline (random probes): {}\n", r->found ? fmt::format("found in {} probe{}", r->probes_used, r->probes_used == 1 ? "" : "s")
                                                                : fmt::format("{} left", r->left));
    }
  }
  const bool stopped = played < hidden.size();
  if (opt.json) {
    nlohmann::ordered_json doc;
    doc["list"] = opt.list;
    doc["file"] = l.file;
    doc["depth"] = l.depth;
    doc["states"] = t.candidates;
    nlohmann::ordered_json ks = nlohmann::ordered_json::array();
    for (const auto& k : t.kinds)
      ks.push_back({{"name", k.name}, {"bag", k.bag}, {"given", k.given}, {"once", k.once}});
    doc["observed"] = ks;
    doc["seed"] = opt.seed;
    doc["limit"] = opt.limit;
    doc["games"] = games;
    doc["greedy"] = greedy_sum.json(opt.limit);
    if (opt.baseline) doc["baseline"] = random_sum.json(opt.limit);
    doc["stopped"] = stopped ? "interrupted" : "";
    fmt::print("{}\n", doc.dump(1));
  } else {
    fmt::print("\ngreedy: {}\n", greedy_sum.text(opt.limit));
    if (opt.baseline) fmt::print("baseline (random probes): {}\n", random_sum.text(opt.limit));
    if (stopped) fmt::print("stopped: interrupted after {} of {} games\n", played, hidden.size());
  }
  return stopped ? kExitInterrupted : kExitOk;
}

}  // namespace

void add_deduce(CLI::App& app, int& result) {
  auto opt = std::make_shared<DeduceOptions>();
  CLI::App* cmd = app.add_subcommand(
      "deduce", "Play the deduction game over listed states: one hidden, probes (observed defines) asked until one "
                "is left; the probes needed");
  cmd->add_option("list", opt->list,
                  "A list written by `rulebook explore --depth N --list FILE.json --observe NAME`, or a rules file "
                  "(with --depth and --observe: its states listed first)")
      ->required();
  cmd->add_option("--depth", opt->depth, "A rules file: the depth whose states are hidden (as explore --list)");
  cmd->add_option("--observe", opt->observe, "A rules file: a define to list (as explore --observe; repeatable)");
  cmd->add_option("--setup", opt->setups, "A rules file: a setup value name=value (repeatable)");
  cmd->add_option("--engine", opt->engine, "A rules file: compiled (generated C++) or interp (interpreter)")
      ->check(CLI::IsMember({"compiled", "interp"}));
  cmd->add_option("--threads", opt->threads, "A rules file: worker threads of the listing (default: the cores)")
      ->check(CLI::Range(1, 256));
  cmd->add_option("--list-max", opt->list_max, "A rules file: the most states listed (default 1000000)");
  cmd->add_option("--save-list", opt->save_list, "A rules file: also write the list made (as explore --list)");
  cmd->add_option("--probe", opt->probe,
                  "An observed define of one parameter to probe (repeatable; default: every one in the list)");
  cmd->add_option("--given", opt->given,
                  "An observed define answered at the start, all its values (repeatable; not counted as probes)");
  cmd->add_option("--bag", opt->bags,
                  "NAME=K: probes of NAME asked up to K together, answered as an unordered bag (repeatable)");
  cmd->add_option("--once", opt->once, "An observed define probed at most once in a game (repeatable)");
  cmd->add_option("--hidden", opt->hidden, "'all' (every listed state in turn) or state numbers 1..N, comma-separated");
  cmd->add_option("--games", opt->games, "Hidden states drawn from the list (default 20; distinct while enough)")
      ->check(CLI::PositiveNumber);
  cmd->add_option("--seed", opt->seed, "Seed of the draws (splitmix64)");
  cmd->add_option("--limit", opt->limit, "Probes allowed: count the games found within it");
  cmd->add_flag("--baseline", opt->baseline, "Also play each hidden state with random probes");
  cmd->add_flag("--json", opt->json, "Print the games and the summary as JSON");
  cmd->add_flag("--quiet", opt->quiet, "No progress on stderr");
  cmd->callback([opt, &result] { result = run_deduce(*opt); });
}

}  // namespace rulebook::cli
