// unreachable-witness: the board is the evidence of a verdict, so a board no game reaches
// makes the verdict say nothing of play. empty-depends-core: the property follows without
// any named rule, so the rules the designer wrote are not what makes it true.
#include "verifier/proof_alerts.h"

#include <fmt/format.h>

#include "dsl/alert_codes.h"

namespace rulebook::verifier {
namespace {

/// The verdicts whose board is their evidence (what a designer is shown as a game's board).
bool witnessed(const Result& r) {
  using K = ir::PropertyKind;
  if (r.found || !r.board) return false;
  if (r.kind == K::Invariant || r.kind == K::Consistent || r.kind == K::Redundant) return false;
  return r.verdict == Verdict::Found || r.verdict == Verdict::Refuted || r.verdict == Verdict::Bound ||
         r.verdict == Verdict::NotConstant || r.verdict == Verdict::Error;
}

const ir::Property* property_of(const ir::Program& p, const Result& r) {
  for (const ir::Property& q : p.properties) {
    if (q.kind != r.kind) continue;
    if (q.name == r.name || (q.kind == ir::PropertyKind::Depends && q.name.empty() && q.subject == r.name)) return &q;
  }
  return nullptr;
}

std::string board_lines(const Board& b) {
  return b.move.empty() ? "the board:" : "the board, before " + b.move + ":";
}

}  // namespace

std::vector<explorer::Alert> proof_alerts(const std::vector<Result>& results, const ir::Program& program) {
  std::vector<explorer::Alert> out;
  for (const Result& r : results) {
    if (!witnessed(r)) continue;
    const bool violates = r.violates && !r.violates->empty();
    const bool unshown = r.reach && !r.reach->reached;
    if (!violates && !unshown) continue;
    explorer::Alert a;
    a.code = "unreachable-witness";
    // Proved unreachable (an invariant, or every position from its setup): a warning; only
    // not found within the budget: a note, since a longer search may find it.
    a.severity = violates || r.reach->exhausted ? explorer::Alert::Severity::Warning : explorer::Alert::Severity::Note;
    a.subject = r.name;
    const char* what = r.verdict == Verdict::Found ? "witness" : r.verdict == Verdict::Bound ? "bound's board"
                                                                                          : "counterexample";
    const char* how = violates ? "is not a reachable board" : r.reach->exhausted ? "is reached by no game from its setup"
                                                                               : "was not shown reachable";
    a.message = fmt::format("the {} of {} '{}' {}", what, ir::kind_name(r.kind), r.name, how);
    a.evidence.push_back(fmt::format("{} {}", verdict_name(r.verdict), r.set.empty() ? "" : "over " + r.set));
    a.evidence.push_back(board_reach_text(r));
    a.evidence.push_back(board_lines(*r.board));
    std::string text = r.board->text;
    size_t from = 0;
    for (size_t nl; (nl = text.find('\n', from)) != std::string::npos; from = nl + 1)
      a.evidence.push_back("  " + text.substr(from, nl - from));
    if (const ir::Property* q = property_of(program, r)) a.span = q->span;
    out.push_back(std::move(a));
  }
  for (const Result& r : results) {
    if (r.kind != ir::PropertyKind::Depends || r.verdict != Verdict::Depends || !r.needs.empty()) continue;
    explorer::Alert a;
    a.code = "empty-depends-core";
    a.severity = explorer::Alert::Severity::Warning;
    a.subject = r.name;
    a.message = fmt::format("'{}' holds without any of the named rules", r.name);
    a.evidence.push_back(r.detail);
    a.evidence.push_back("proved with every named rule dropped: it follows from the variables' types and the "
                         "conditions of its set alone, so no rule of the file is what makes it true");
    // A `depends` without a name of its own has no place of its own: its subject's.
    const ir::Property* q = property_of(program, r);
    if (q && q->name.empty())
      for (const ir::Property& s : program.properties)
        if (s.name == r.name && s.kind != ir::PropertyKind::Depends) q = &s;
    if (q) a.span = q->span;
    out.push_back(std::move(a));
  }
  // Acknowledgments, and those of these codes that matched nothing.
  for (const ir::Allow& al : program.allows) {
    const dsl::AlertCode* c = dsl::find_alert_code(al.code);
    if (!c || !c->proof) continue;
    bool used = false;
    for (explorer::Alert& a : out)
      if (a.code == al.code && a.subject == al.subject) {
        a.acknowledged = true;
        a.reason = al.reason;
        used = true;
      }
    if (used) continue;
    explorer::Alert a;
    a.code = "unused-allow";
    a.severity = explorer::Alert::Severity::Note;
    a.subject = al.code + " " + al.subject;
    a.span = al.span;
    a.message = fmt::format("'allow {}' acknowledges an alert the properties did not raise", a.subject);
    a.evidence.push_back(fmt::format("no {} alert from the verdicts of the file's properties: the acknowledgment may "
                                     "be stale",
                                     al.code));
    out.push_back(std::move(a));
  }
  return out;
}

}  // namespace rulebook::verifier
