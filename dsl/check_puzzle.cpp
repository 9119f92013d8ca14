// `puzzle NAME: solution c; clue k for x in S where w: d;`: the solution reads the state,
// each clue family is instanced by setup data alone and reads some, so that a puzzle is
// the rules' boards narrowed by what one setup (one puzzle of a data file) gives.
#include <algorithm>
#include <string>

#include <fmt/format.h>

#include "dsl/check_internal.h"

namespace rulebook::dsl {

void Checker::check_puzzle(const Property& p) {
  {
    ContextScope scope(*this, play_context(false, "a puzzle's solution"));
    expect_bool(*p.expr);
    // A condition on no state holds of every board or of none: it solves nothing.
    if (time_ != Time::Play)
      error(p.expr->span, "a puzzle's solution must read the state (what a solved board holds)").hint =
          "say what every cell of a solved board holds, e.g. 'all c in cells: digit[c] != 0'";
  }
  std::set<std::string> names;
  std::string declared;  // the declared symmetries, for the hint
  for (const Symmetry* s : game_.symmetries) declared += (declared.empty() ? "" : ", ") + s->name.name;
  for (const Ident& u : p.up_to) {
    if (!names.insert(u.name).second) error(u.span, fmt::format("'up to' names '{}' twice", u.name));
    const bool known = u.name == "board" || std::any_of(game_.symmetries.begin(), game_.symmetries.end(),
                                                        [&](const Symmetry* s) { return s->name.name == u.name; });
    if (!known)
      error(u.span, fmt::format("'{}' is no symmetry: 'up to' takes 'board' (the maps of the board that keep the "
                                "puzzle) and symmetries declared with 'symmetry NAME: swap a <-> b;'",
                                u.name))
              .hint = declared.empty() ? "count up to the board's maps with 'up to board;'"
                                       : "the rules declare: " + declared;
  }
  names.clear();
  for (const Clue& c : p.clues) {
    if (!names.insert(c.name.name).second)
      error(c.name.span, fmt::format("the puzzle '{}' has two clues named '{}'", p.name.name, c.name.name));
    push_scope();
    setup_used_ = false;
    {
      // Which instances a clue has is known once the puzzle is set up, before any play.
      ContextScope scope(*this, setup_context("the binders and 'where' of a clue"));
      bind(c.binders, c.where);
    }
    {
      ContextScope scope(*this, play_context(false, "a clue"));
      expect_bool(*c.body);
    }
    if (!setup_used_)
      error(c.name.span, fmt::format("the clue '{}' reads no setup value: a clue is what a puzzle gives", c.name.name))
              .hint = "read the puzzle's data, e.g. 'clue given for c in cells where puzzle[c] != 0: ...'";
    pop_scope();
  }
}

}  // namespace rulebook::dsl
