// `allow CODE SUBJECT "reason";`: the code must be one of the alerts' codes and the subject
// a name of the kind that code is about (dsl/alert_codes.h), so an acknowledgment cannot
// silently stop matching after a rename.
#include <fmt/format.h>

#include "dsl/alert_codes.h"
#include "dsl/check_internal.h"

namespace rulebook::dsl {

namespace {

std::vector<std::string> code_names() {
  std::vector<std::string> out;
  for (const AlertCode& c : alert_codes()) out.emplace_back(c.code);
  return out;
}

void add_unique(std::vector<std::string>& out, const std::string& name) {
  if (std::find(out.begin(), out.end(), name) == out.end()) out.push_back(name);
}

}  // namespace

void Checker::check_allow(const Allow& a) {
  const AlertCode* code = find_alert_code(a.code.name);
  if (!code) {
    unknown("alert code", a.code.name, a.code.span, code_names());
    return;
  }
  if (a.reason.empty()) error(a.code.span, "an 'allow' needs a reason").hint = "say why in the string";
  if (code->subject == AlertSubject::Game) {
    if (!a.subject.name.empty())
      error(a.subject.span, fmt::format("'{}' is about the whole game: it names nothing", a.code.name)).hint =
          fmt::format("write 'allow {} \"reason\";'", a.code.name);
    return;
  }
  if (a.subject.name.empty()) {
    error(a.code.span, fmt::format("'allow {}' must name {}", a.code.name, alert_subject_text(code->subject)));
    return;
  }
  std::vector<std::string> names;
  auto moves = [&] {
    for (const PhaseInfo& p : game_.phases)
      for (const Move* m : p.moves) add_unique(names, m->name.name);
  };
  auto phases = [&] {
    for (const PhaseInfo& p : game_.phases) add_unique(names, p.name);
  };
  const char* what = "name";
  switch (code->subject) {
    case AlertSubject::Game: break;
    case AlertSubject::Move: moves(), what = "move"; break;
    case AlertSubject::Phase: phases(), what = "phase"; break;
    case AlertSubject::Block:
      moves(), phases(), add_unique(names, "init");
      what = "move, phase or init";
      break;
    case AlertSubject::Rule:
      for (const Rule* r : game_.rules) add_unique(names, r->name.name);
      moves();
      what = "rule or move";
      break;
    case AlertSubject::Seat:
      for (const std::string& p : game_.player_names) add_unique(names, p);
      for (const TeamInfo& t : game_.teams) add_unique(names, t.name);
      what = "player or team";
      break;
    case AlertSubject::Symmetry:
      for (const Symmetry* s : game_.symmetries) add_unique(names, s->name.name);
      what = "symmetry";
      break;
    case AlertSubject::Property:
      for (const Property* q : game_.properties)
        if (!q->name.name.empty()) add_unique(names, q->name.name);
      what = "property";
      break;
    case AlertSubject::Name:
      return;  // any name; one that matches no warning is itself warned about (stale-allow)
  }
  if (std::find(names.begin(), names.end(), a.subject.name) == names.end())
    unknown(what, a.subject.name, a.subject.span, names);
}

}  // namespace rulebook::dsl
