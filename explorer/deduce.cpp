#include "explorer/deduce.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <unordered_map>

#include "compiler/runtime/random.h"

namespace rulebook::explorer {
namespace {

/// A bag's answers as one key: the sorted values (bags hold at most a few probes).
struct BagKey {
  std::vector<uint32_t> v;
  bool operator==(const BagKey& o) const { return v == o.v; }
};
struct BagHash {
  size_t operator()(const BagKey& k) const {
    uint64_t h = 1469598103934665603ull;
    for (uint32_t x : k.v) h = (h ^ x) * 1099511628211ull;
    return size_t(h);
  }
};

/// The sorted answers of candidate c to `probes`.
std::vector<uint32_t> bag_of(const DeductionTable& t, const std::vector<size_t>& probes, size_t c) {
  std::vector<uint32_t> v;
  v.reserve(probes.size());
  for (size_t p : probes) v.push_back(t.answers[p][c]);
  std::sort(v.begin(), v.end());
  return v;
}

/// log2 N - (sum of n log2 n over the class sizes n) / N, the sizes summed in increasing
/// order (the same figure on every run: no hash order in it).
double bits_of(std::vector<uint64_t> sizes, size_t n_total) {
  std::sort(sizes.begin(), sizes.end());
  double sum = 0;
  for (uint64_t k : sizes) sum += double(k) * std::log2(double(k));
  const double n = double(n_total);
  return std::log2(n) - sum / n;
}

/// The candidates left, told apart by the bag of answers asked so far in this turn: a
/// class per candidate and each class's sorted answers.
struct BagClasses {
  std::vector<uint32_t> cls;                 ///< per candidate (its index in cands)
  std::vector<std::vector<uint32_t>> bags;   ///< per class
};

BagClasses no_bag(size_t n) { return BagClasses{std::vector<uint32_t>(n, 0), {{}}}; }

/// The classes after adding probe p to the bag: a class and p's answer make a pair, and
/// pairs whose bags are equal as multisets are one class (the bag has no order).
BagClasses add_probe(const DeductionTable& t, const BagClasses& b, size_t p, const std::vector<size_t>& cands) {
  std::unordered_map<uint64_t, uint32_t> pair_class;
  std::unordered_map<BagKey, uint32_t, BagHash> bag_class;
  BagClasses out;
  out.cls.resize(cands.size());
  for (size_t i = 0; i < cands.size(); ++i) {
    const uint32_t a = t.answers[p][cands[i]];
    const uint64_t key = (uint64_t(b.cls[i]) << 32) | a;
    auto it = pair_class.find(key);
    if (it == pair_class.end()) {
      BagKey bag{b.bags[b.cls[i]]};
      bag.v.insert(std::upper_bound(bag.v.begin(), bag.v.end(), a), a);
      auto [bt, fresh] = bag_class.emplace(bag, uint32_t(out.bags.size()));
      if (fresh) out.bags.push_back(bag.v);
      it = pair_class.emplace(key, bt->second).first;
    }
    out.cls[i] = it->second;
  }
  return out;
}

double information(const BagClasses& b, size_t n) {
  std::vector<uint64_t> sizes(b.bags.size(), 0);
  for (uint32_t c : b.cls) ++sizes[c];
  sizes.erase(std::remove(sizes.begin(), sizes.end(), 0u), sizes.end());
  return bits_of(sizes, n);
}

/// The information, in bits, of telling `cands` apart by their bag of answers to `probes`.
double information(const DeductionTable& t, const std::vector<size_t>& probes, const std::vector<size_t>& cands) {
  BagClasses b = no_bag(cands.size());
  for (size_t p : probes) b = add_probe(t, b, p, cands);
  return information(b, cands.size());
}

/// Keeps the candidates whose bag of answers to `probes` is `answers`.
void filter(const DeductionTable& t, const std::vector<size_t>& probes, const std::vector<uint32_t>& answers,
            std::vector<size_t>& cands) {
  std::vector<size_t> kept;
  for (size_t c : cands)
    if (bag_of(t, probes, c) == answers) kept.push_back(c);
  cands.swap(kept);
}

/// Whether kind k may not be asked again (asked once, and allowed once).
bool used_up(const DeductionTable& t, size_t k, const std::vector<bool>& asked) {
  if (!t.kinds[k].once) return false;
  for (size_t p = 0; p < t.probes.size(); ++p)
    if (asked[p] && t.probes[p].kind == k) return true;
  return false;
}

struct Choice {
  std::vector<size_t> probes;
  double bits = 0;  ///< information of the answers
};

/// The greedy choice of one turn (see DeductionStrategy::Greedy); empty when no probe
/// tells the candidates apart.
Choice greedy(const DeductionTable& t, const std::vector<size_t>& cands, const std::vector<bool>& asked) {
  Choice best;
  double best_rate = 0;
  auto consider = [&](const Choice& c) {
    const double rate = c.bits / double(c.probes.size());
    if (rate > best_rate || (rate == best_rate && !best.probes.empty() && c.probes.size() < best.probes.size())) {
      best = c;
      best_rate = rate;
    }
  };
  for (size_t k = 0; k < t.kinds.size(); ++k) {
    if (t.kinds[k].given || used_up(t, k, asked)) continue;
    // A bag grows a probe at a time, each the one whose answers add most to the bag's;
    // every size reached is a choice (its information per probe), until the bag is full
    // or no probe adds anything.
    Choice bag;
    BagClasses classes = no_bag(cands.size());
    for (int size = 0; size < std::max(1, t.kinds[k].bag); ++size) {
      Choice next;
      next.bits = bag.bits;
      BagClasses next_classes;
      for (size_t p = 0; p < t.probes.size(); ++p) {
        if (t.probes[p].kind != k || asked[p] ||
            std::find(bag.probes.begin(), bag.probes.end(), p) != bag.probes.end())
          continue;
        BagClasses trial = add_probe(t, classes, p, cands);
        const double bits = information(trial, cands.size());
        if (bits > next.bits) {
          next.probes = bag.probes;
          next.probes.push_back(p);
          next.bits = bits;
          next_classes = std::move(trial);
        }
      }
      if (next.probes.empty()) break;
      bag = next;
      classes = std::move(next_classes);
      consider(bag);
    }
  }
  return best;
}

Choice random_choice(const DeductionTable& t, const std::vector<size_t>& cands, const std::vector<bool>& asked,
                     SplitMix64& rng) {
  std::vector<size_t> open;
  for (size_t p = 0; p < t.probes.size(); ++p)
    if (!asked[p] && !t.kinds[t.probes[p].kind].given && !used_up(t, t.probes[p].kind, asked)) open.push_back(p);
  Choice c;
  if (open.empty()) return c;
  const size_t first = open[rng.below(open.size())];
  c.probes.push_back(first);
  const size_t kind = t.probes[first].kind;
  for (int i = 1; i < t.kinds[kind].bag; ++i) {
    std::vector<size_t> more;
    for (size_t p : open)
      if (t.probes[p].kind == kind && std::find(c.probes.begin(), c.probes.end(), p) == c.probes.end())
        more.push_back(p);
    if (more.empty()) break;
    c.probes.push_back(more[rng.below(more.size())]);
  }
  c.bits = information(t, c.probes, cands);
  return c;
}

std::string fmt_count(const std::string& what, size_t said, size_t counted) {
  return what + ": " + std::to_string(said) + " said, " + std::to_string(counted) + " counted again";
}

/// The answers heard, as the key of the turn that follows (DeductionCache's): the givens'
/// answers, then per turn the number of probes asked and the answers.
void hear(std::string& heard, uint32_t a) { heard.append(reinterpret_cast<const char*>(&a), sizeof a); }

std::string givens_heard(const DeductionTable& t, size_t c) {
  std::string heard;
  for (size_t p = 0; p < t.probes.size(); ++p)
    if (t.kinds[t.probes[p].kind].given) hear(heard, t.answers[p][c]);
  return heard;
}

void turn_heard(std::string& heard, size_t probes, const std::vector<uint32_t>& answers) {
  hear(heard, uint32_t(probes));
  for (uint32_t a : answers) hear(heard, a);
}

}  // namespace

DeductionGame deduce(const DeductionTable& t, size_t hidden, DeductionStrategy strategy, uint64_t seed,
                     DeductionCache* cache) {
  DeductionGame g;
  g.hidden = hidden;
  std::vector<size_t> cands(t.candidates);
  for (size_t c = 0; c < t.candidates; ++c) cands[c] = c;
  std::vector<bool> asked(t.probes.size(), false);
  for (size_t p = 0; p < t.probes.size(); ++p)
    if (t.kinds[t.probes[p].kind].given) {
      filter(t, {p}, {t.answers[p][hidden]}, cands);
      asked[p] = true;
    }
  g.start = cands.size();
  SplitMix64 rng(seed);
  // The answers heard so far, as the cache's key: the givens', then each turn's.
  std::string heard = givens_heard(t, hidden);
  while (cands.size() > 1) {
    Choice c;
    if (strategy == DeductionStrategy::Random) {
      c = random_choice(t, cands, asked, rng);
    } else if (cache && cache->choices.count(heard)) {
      const auto& known = cache->choices.at(heard);
      c = Choice{known.probes, known.bits};
    } else {
      c = greedy(t, cands, asked);
      if (cache) cache->choices[heard] = DeductionCache::Choice{c.probes, c.bits};
    }
    if (c.probes.empty()) {
      g.ended = strategy == DeductionStrategy::Greedy ? "no probe tells the candidates left apart" : "no probe left";
      break;
    }
    DeductionStep st;
    st.probes = c.probes;
    st.answers = bag_of(t, c.probes, hidden);
    st.bits = c.bits;
    filter(t, c.probes, st.answers, cands);
    st.left = cands.size();
    turn_heard(heard, c.probes.size(), st.answers);
    for (size_t p : c.probes) asked[p] = true;
    g.probes_used += c.probes.size();
    g.steps.push_back(std::move(st));
  }
  g.left = cands.size();
  g.found = cands.size() == 1;
  if (g.found) g.ended = "found";
  return g;
}

std::vector<size_t> consistent(const DeductionTable& t, const DeductionGame& g) {
  std::vector<size_t> cands;
  for (size_t c = 0; c < t.candidates; ++c) {
    bool ok = true;
    for (size_t p = 0; p < t.probes.size() && ok; ++p)
      if (t.kinds[t.probes[p].kind].given) ok = t.answers[p][c] == t.answers[p][g.hidden];
    for (const DeductionStep& st : g.steps) {
      if (!ok) break;
      ok = bag_of(t, st.probes, c) == st.answers;
    }
    if (ok) cands.push_back(c);
  }
  return cands;
}


namespace {

/// A point of the decision tree still to walk: the candidates that heard the same answers
/// (in increasing order), the probes asked, and the turns so far.
struct TreeNode {
  std::vector<size_t> cands;
  std::vector<bool> asked;
  std::string heard;
  std::vector<DeductionStep> steps;
  size_t probes_used = 0;
  size_t start = 0;
};

}  // namespace

std::vector<DeductionGame> deduce_all(const DeductionTable& t, const std::vector<size_t>& hidden, DeductionCache* cache,
                                      std::vector<bool>& played, const std::function<bool(size_t)>& keep_going) {
  std::vector<DeductionGame> games(hidden.size());
  played.assign(hidden.size(), false);
  // Where each candidate is hidden: the first game, then a chain through the others.
  constexpr size_t none = size_t(-1);
  std::vector<size_t> first(t.candidates, none), next(hidden.size(), none);
  for (size_t i = hidden.size(); i-- > 0;) {
    next[i] = first[hidden[i]];
    first[hidden[i]] = i;
  }
  auto holds_hidden = [&](const std::vector<size_t>& cands) {
    return std::any_of(cands.begin(), cands.end(), [&](size_t c) { return first[c] != none; });
  };
  std::vector<bool> given_asked(t.probes.size(), false);
  for (size_t p = 0; p < t.probes.size(); ++p) given_asked[p] = t.kinds[t.probes[p].kind].given;

  // The roots: the candidates split by their answers to the givens.
  std::vector<TreeNode> stack;
  {
    std::map<std::string, std::vector<size_t>> by_givens;
    for (size_t c = 0; c < t.candidates; ++c) by_givens[givens_heard(t, c)].push_back(c);
    for (auto it = by_givens.rbegin(); it != by_givens.rend(); ++it) {
      if (!holds_hidden(it->second)) continue;
      TreeNode n;
      n.start = it->second.size();
      n.cands = std::move(it->second);
      n.asked = given_asked;
      n.heard = it->first;
      stack.push_back(std::move(n));
    }
  }
  size_t done = 0;
  bool stop = false;
  auto finish = [&](const TreeNode& n, const std::string& ended) {
    for (size_t c : n.cands)
      for (size_t i = first[c]; i != none; i = next[i]) {
        DeductionGame& g = games[i];
        g.hidden = c;
        g.start = n.start;
        g.steps = n.steps;
        g.probes_used = n.probes_used;
        g.left = n.cands.size();
        g.found = n.cands.size() == 1;
        g.ended = g.found ? "found" : ended;
        played[i] = true;
        ++done;
        if (keep_going && !keep_going(done)) stop = true;
      }
  };
  while (!stack.empty() && !stop) {
    TreeNode n = std::move(stack.back());
    stack.pop_back();
    if (n.cands.size() <= 1) {
      finish(n, "found");
      continue;
    }
    Choice c;
    if (cache && cache->choices.count(n.heard)) {
      const auto& known = cache->choices.at(n.heard);
      c = Choice{known.probes, known.bits};
    } else {
      c = greedy(t, n.cands, n.asked);
      if (cache) cache->choices[n.heard] = DeductionCache::Choice{c.probes, c.bits};
    }
    if (c.probes.empty()) {
      finish(n, "no probe tells the candidates left apart");
      continue;
    }
    // The candidates split by their bag of answers; each branch holding a hidden state is
    // a turn of its games (pushed in reverse, so the first branch is walked first).
    std::map<std::vector<uint32_t>, std::vector<size_t>> branches;
    for (size_t cand : n.cands) branches[bag_of(t, c.probes, cand)].push_back(cand);
    std::vector<bool> asked = n.asked;
    for (size_t p : c.probes) asked[p] = true;
    for (auto it = branches.rbegin(); it != branches.rend(); ++it) {
      if (!holds_hidden(it->second)) continue;
      TreeNode child;
      child.asked = asked;
      child.heard = n.heard;
      turn_heard(child.heard, c.probes.size(), it->first);
      child.steps = n.steps;
      DeductionStep st;
      st.probes = c.probes;
      st.answers = it->first;
      st.bits = c.bits;
      st.left = it->second.size();
      child.steps.push_back(std::move(st));
      child.probes_used = n.probes_used + c.probes.size();
      child.start = n.start;
      child.cands = std::move(it->second);
      stack.push_back(std::move(child));
    }
  }
  return games;
}

std::string check_games(const DeductionTable& t, const std::vector<DeductionGame>& games,
                        const std::vector<bool>& played) {
  // The turns the games took, by the answers heard before each: the probes chosen there.
  std::unordered_map<std::string, std::vector<size_t>> turn;
  // Every point a game reached (after the givens, after each turn): candidates reaching it.
  std::unordered_map<std::string, size_t> reached;
  std::vector<std::string> end(games.size());
  for (size_t i = 0; i < games.size(); ++i) {
    if (!played[i]) continue;
    const DeductionGame& g = games[i];
    std::string heard = givens_heard(t, g.hidden);
    reached.emplace(heard, 0);
    for (const DeductionStep& st : g.steps) {
      auto [it, fresh] = turn.emplace(heard, st.probes);
      if (!fresh && it->second != st.probes)
        return "two games heard the same answers and chose different probes (game " + std::to_string(i + 1) + ")";
      turn_heard(heard, st.probes.size(), st.answers);
      reached.emplace(heard, 0);
    }
    if (turn.count(heard)) return "game " + std::to_string(i + 1) + " ended where another game went on";
    end[i] = heard;
  }
  // Each candidate walks down by its own answers, as far as the games went.
  std::vector<std::string> walked(t.candidates);
  for (size_t c = 0; c < t.candidates; ++c) {
    std::string heard = givens_heard(t, c);
    auto at = reached.find(heard);
    while (at != reached.end()) {
      ++at->second;
      auto tt = turn.find(heard);
      if (tt == turn.end()) break;
      turn_heard(heard, tt->second.size(), bag_of(t, tt->second, c));
      at = reached.find(heard);
    }
    walked[c] = std::move(heard);
  }
  for (size_t i = 0; i < games.size(); ++i) {
    if (!played[i]) continue;
    const DeductionGame& g = games[i];
    const std::string where = "game " + std::to_string(i + 1) + ": ";
    if (walked[g.hidden] != end[i]) return where + "the hidden state's answers lead elsewhere";
    std::string heard = givens_heard(t, g.hidden);
    if (reached.at(heard) != g.start)
      return where + fmt_count("states after the givens", g.start, reached.at(heard));
    for (size_t s = 0; s < g.steps.size(); ++s) {
      turn_heard(heard, g.steps[s].probes.size(), g.steps[s].answers);
      if (reached.at(heard) != g.steps[s].left)
        return where + fmt_count("states left after turn " + std::to_string(s + 1), g.steps[s].left, reached.at(heard));
    }
    if (reached.at(heard) != g.left) return where + fmt_count("states left at the end", g.left, reached.at(heard));
    if (g.found != (g.left == 1)) return where + "found, with other than one state left";
  }
  return "";
}

}  // namespace rulebook::explorer
