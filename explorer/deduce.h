// A deduction game over a list of candidate states: one of them is hidden, and a player
// asks probes (a define's value at one of its parameter's values, read on the hidden state)
// until one candidate is left. The list and the answers come from the rules (`rulebook
// explore --list --observe`); nothing here knows a game. A probe kind may be answered in
// bags: up to k probes asked together and answered as an unordered bag of values.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <unordered_map>
#include <vector>

namespace rulebook::explorer {

/// What every candidate answers to every probe, as value ids (equal ids: equal answers).
struct DeductionTable {
  struct Kind {
    std::string name;     ///< the define
    int bag = 1;          ///< probes of this kind asked together, answered as a bag (1: alone)
    bool given = false;   ///< answered at the start, not a probe (a define of no parameter)
    bool once = false;    ///< at most one probe (or bag) of this kind in a game
  };
  std::vector<Kind> kinds;
  struct Probe {
    size_t kind = 0;
    std::string label;    ///< the parameter's value (`r2c3`), "" for a given
  };
  std::vector<Probe> probes;
  /// answers[probe][candidate]
  std::vector<std::vector<uint32_t>> answers;
  size_t candidates = 0;
};

/// One turn: the probes asked (one, or a bag of one kind), the hidden state's answers to
/// them (a bag's sorted), and the candidates left after it.
struct DeductionStep {
  std::vector<size_t> probes;
  std::vector<uint32_t> answers;
  double bits = 0;  ///< the information of the answers over the candidates before (log2 N - sum n log2 n / N)
  size_t left = 0;
};

struct DeductionGame {
  size_t hidden = 0;
  size_t start = 0;            ///< candidates after the givens
  std::vector<DeductionStep> steps;
  size_t probes_used = 0;      ///< a bag of k counts k
  size_t left = 0;             ///< candidates at the end (1: found)
  bool found = false;
  std::string ended;           ///< "found", "no probe tells the candidates left apart", "no probe left"
};

enum class DeductionStrategy {
  /// Each turn the probe, or bag of probes, whose answers carry the most information per
  /// probe (bits: the entropy of the classes the answers make, the hidden state taken
  /// uniform over the candidates left). A bag grows a probe at a time, each adding the
  /// most to the bag's information; each size it reaches is a choice. Ties: fewer probes,
  /// then the earlier kind, then the earlier probe.
  Greedy,
  /// Each turn a probe drawn uniformly from those not asked (a bag kind: as many as its bag
  /// holds, drawn one by one); the draws from `seed` (splitmix64).
  Random,
};

/// The greedy player's choices by the answers heard so far (the same answers leave the
/// same states, so the same choice follows): games against many hidden states share the
/// turns they have in common. One per table.
struct DeductionCache {
  struct Choice {
    std::vector<size_t> probes;
    double bits = 0;
  };
  std::unordered_map<std::string, Choice> choices;
};

/// Plays one game against candidate `hidden`. Never reads anything the hidden state would
/// not answer: the candidates left are those agreeing with it on every answer given.
DeductionGame deduce(const DeductionTable& table, size_t hidden, DeductionStrategy strategy, uint64_t seed = 0,
                     DeductionCache* cache = nullptr);

/// The candidates agreeing with `hidden` on every answer of `game` (the givens included):
/// the check of a game's counts, by filtering the whole list again.
std::vector<size_t> consistent(const DeductionTable& table, const DeductionGame& game);

/// The greedy games against every state of `hidden` (repeats allowed), in that order, the
/// same games `deduce` plays one at a time. The player's choices depend only on the answers
/// heard, so the games form one decision tree: it is walked once, each turn's candidates
/// split by their answers to the probes chosen, and only branches holding a hidden state
/// are followed. Every candidate is read once per level of the tree (linear in the list),
/// where one game at a time filters the whole list per game. `keep_going(done)` is called
/// after each game finished (the number finished so far); when it returns false the walk
/// stops, and `played[i]` says which games were finished (all, when not stopped).
std::vector<DeductionGame> deduce_all(const DeductionTable& table, const std::vector<size_t>& hidden,
                                      DeductionCache* cache, std::vector<bool>& played,
                                      const std::function<bool(size_t done)>& keep_going = {});

/// The check of many games at once, in one pass over the list: each candidate walks down
/// the turns the games took, by its own answers to the probes chosen there (a turn is the
/// answers heard before it: two games that heard the same answers must have chosen the
/// same probes), and every count of the games (after the givens, after each turn, at the
/// end) must be the number of candidates that reached that point; each hidden state must
/// end where its game ended. Returns "" when every figure holds, else what does not.
/// Games with `played[i]` false are skipped.
std::string check_games(const DeductionTable& table, const std::vector<DeductionGame>& games,
                        const std::vector<bool>& played);

}  // namespace rulebook::explorer
