// The plan's passes, one file each (pass_*.cpp), run by make_plan in the order below.
// Each reads the program and the plan so far and fills its own part of the plan; with
// its switch off it fills in the "no" answer, which the emitter prints as plain code.
#pragma once

#include "compiler/plan/analysis.h"
#include "compiler/plan/engine_plan.h"

namespace rulebook::compiler::plan {

/// Appends `item` to a comma-separated list.
inline void append_item(std::string& list, std::string_view item) {
  if (!list.empty()) list += ", ";
  list += item;
}

/// What every pass gets: the program, the analyses, and its report to fill.
struct PassContext {
  const ir::Program& program;
  const ProgramFacts& facts;
  EnginePlan& plan;
  PassReport& report;
  const ir::Domain& dom(int d) const { return program.domains[size_t(d)]; }
  std::string var_name(int v) const { return program.vars[size_t(v)].name; }
  std::string define_name(int f) const { return program.functions[size_t(f)].name; }
  std::string move_name(int m) const { return program.moves[size_t(m)].name; }
  /// The variables' names, comma-separated ("nothing" for none).
  std::string var_list(const std::set<int>& vars) const {
    std::string s;
    for (int v : vars) append_item(s, var_name(v));
    return s.empty() ? "nothing" : s;
  }
};

void pass_layout(PassContext& c);            // always runs (pass_layout.cpp)
void pass_planes(PassContext& c);            // "planes"
void pass_define_tables(PassContext& c);     // "define-tables"
void pass_remembered_defines(PassContext& c);  // "remembered-defines"
void pass_rule_tables(PassContext& c);       // "rule-tables"
void pass_scoped_defines(PassContext& c);    // "scoped-defines"
void pass_can_direct(PassContext& c);        // "can-direct"
void pass_can_memo(PassContext& c);          // "can-memo"
void pass_shared_known(PassContext& c);      // "shared-known"
void pass_board_maps(PassContext& c);        // "board-maps"
void pass_inline_blocks(PassContext& c);     // "inline-blocks"

}  // namespace rulebook::compiler::plan
