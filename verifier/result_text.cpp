// The words of a result: its verdict, what its board is known to be (reachable or not), and
// the text `rulebook prove` prints.
#include <string>
#include <vector>

#include <fmt/format.h>

#include "verifier/verify.h"

namespace rulebook::verifier {

std::string reachability_text(const std::vector<std::string>& violates) {
  if (violates.empty()) return "satisfies the proved invariants";
  std::string names;
  for (size_t i = 0; i < violates.size(); ++i) names += (i ? ", " : "") + violates[i];
  return fmt::format("violates invariant{} {}: not a reachable board", violates.size() > 1 ? "s" : "", names);
}

std::string board_reach_text(const Result& r) {
  std::vector<std::string> parts;
  if (r.violates) parts.push_back(reachability_text(*r.violates));
  if (r.reach && r.reach->reached)
    parts.push_back(r.reach->line.empty() ? "reached by: the setup itself (no move)"
                                          : fmt::format("reached by: {}", fmt::join(r.reach->line, ", ")));
  else if (r.reach && r.reach->exhausted)
    parts.push_back(fmt::format("not reachable from its setup (every one of the {} positions searched)", r.reach->states));
  else if (r.reach)
    parts.push_back(fmt::format("not shown reachable (searched {} states)", r.reach->states));
  return fmt::format("{}", fmt::join(parts, "; "));
}

const char* verdict_name(Verdict v) {
  // In the order of the enum: the words of text, JSON and report output.
  static constexpr const char* kNames[] = {
      "proved",       "vacuous",      "refuted",   "found",         "none",
      "bound",        "empty",        "derived",   "not-constant",  "consistent",
      "inconsistent", "redundant",    "not-redundant", "depends",   "error",
      "unknown",      "unsupported",  "interrupted",   "not-inductive"};
  return kNames[static_cast<int>(v)];
}

const char* verdict_word(const Result& r) {
  // A criterion says met or not met (its JSON verdict is proved or refuted): not met is a
  // finding about the set, not a failure.
  if (r.kind == ir::PropertyKind::Criterion && r.verdict == Verdict::Proved) return "met";
  if (r.kind == ir::PropertyKind::Criterion && r.verdict == Verdict::Refuted) return "not met";
  return verdict_name(r.verdict);
}

std::string result_text(const Result& r, bool times) {
  std::string out = fmt::format("{} {}: {}", ir::kind_name(r.kind), r.name, verdict_word(r));
  if (r.verdict == Verdict::Vacuous) out += ": the set is empty";
  if (r.value && r.verdict != Verdict::Bound) out += fmt::format(" ({})", *r.value);
  if (r.verdict == Verdict::Bound) out += fmt::format(" = {}", *r.value);
  if (times) out += fmt::format("  [{:.2f} s]", r.seconds);
  out += "\n  over: " + r.set + "\n";
  if (r.found) out += "  " + r.description + "\n";
  if (!r.detail.empty()) out += "  " + r.detail + "\n";
  if (!r.symmetry.empty()) out += "  " + r.symmetry + "\n";
  for (const std::string& n : r.needs) out += "  needs " + n + "\n";
  for (const RuleDrop& d : r.drops) {
    out += fmt::format("  without {} (all other rules kept): {}\n", d.rule, verdict_name(d.verdict));
    if (d.board) out += d.board->text;
  }
  if (r.board) {
    if (!r.board->move.empty()) out += "  move: " + r.board->move + "\n";
    out += r.board->text;
    if (const std::string reach = board_reach_text(r); !reach.empty()) out += "  " + reach + "\n";
  }
  return out;
}

}  // namespace rulebook::verifier
