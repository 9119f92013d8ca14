// Runs the plan's passes in their fixed order and prints the plan. A pass switched off
// leaves its part of the plan at the "no" answer set up here, before any pass runs.
#include <fmt/format.h>

#include "compiler/plan/passes.h"

namespace rulebook::compiler::plan {

namespace {

struct PassEntry {
  std::string_view name;
  void (*run)(PassContext&);
};

// The order matters: a pass may read what the ones before it decided (table sizes read
// list capacities; the rule tables' remembered verdict takes the slot after the defines';
// can-memo skips direct moves; shared-known moves the can bits after the define slots).
const std::vector<PassEntry>& passes() {
  static const std::vector<PassEntry> all = {
      {"planes", pass_planes},
      {"define-tables", pass_define_tables},
      {"remembered-defines", pass_remembered_defines},
      {"rule-tables", pass_rule_tables},
      {"scoped-defines", pass_scoped_defines},
      {"can-direct", pass_can_direct},
      {"can-memo", pass_can_memo},
      {"shared-known", pass_shared_known},
      {"board-maps", pass_board_maps},
      {"inline-blocks", pass_inline_blocks},
  };
  return all;
}

}  // namespace

const std::vector<std::string_view>& pass_names() {
  static const std::vector<std::string_view> names = [] {
    std::vector<std::string_view> n;
    for (const PassEntry& p : passes()) n.push_back(p.name);
    return n;
  }();
  return names;
}

std::string PassSwitches::key() const {
  std::string k;
  for (std::string_view name : pass_names())
    if (!on(name)) {
      if (!k.empty()) k += ',';
      k += name;
    }
  return k;
}

std::string switch_off(const std::vector<std::string>& names, PassSwitches& out) {
  for (const std::string& n : names) {
    if (n == "all") {
      for (std::string_view p : pass_names()) out.off.insert(std::string(p));
      continue;
    }
    bool known = false;
    for (std::string_view p : pass_names()) known = known || p == n;
    if (!known) {
      std::string list;
      for (std::string_view p : pass_names()) append_item(list, p);
      return fmt::format("unknown pass '{}' (passes: {}, or all)", n, list);
    }
    out.off.insert(n);
  }
  return "";
}

EnginePlan make_plan(const ir::Program& program, const PassSwitches& switches) {
  EnginePlan plan;
  plan.switches = switches;
  // The "no" answers: nothing kept beside the state, everything computed when asked.
  plan.plane_of_var.assign(program.vars.size(), -1);
  plan.table_entries.assign(program.functions.size(), 0);
  plan.memo_slot.assign(program.functions.size(), -1);
  plan.forget_defines.assign(program.vars.size(), 0);
  plan.scoped.assign(program.functions.size(), 0);
  plan.can_direct.assign(program.moves.size(), 0);
  plan.can_memo_base.assign(program.moves.size(), -1);
  plan.forget_cans.assign(program.vars.size(), 0);
  plan.inline_block.assign(program.moves.size(), 0);
  const ProgramFacts facts(program);
  PassReport layout{"layout", true, {}};
  PassContext lc{program, facts, plan, layout};
  pass_layout(lc);
  plan.reports.push_back(std::move(layout));
  for (const PassEntry& p : passes()) {
    PassReport report{std::string(p.name), switches.on(p.name), {}};
    if (report.on) {
      PassContext c{program, facts, plan, report};
      p.run(c);
    }
    plan.reports.push_back(std::move(report));
  }
  return plan;
}

std::string print_plan(const EnginePlan& plan, const ir::Program& program) {
  std::string out = fmt::format("# engine plan of {} ({} variables, {} defines, {} moves)\n",
                                program.title.empty() ? "rules" : program.title, program.vars.size(),
                                program.functions.size(), program.moves.size());
  out += fmt::format("passes off: {}\n", plan.switches.key().empty() ? "none" : plan.switches.key());
  for (const PassReport& r : plan.reports) {
    out += fmt::format("\n## {}{}\n", r.pass, r.on ? "" : " (off)");
    if (!r.on) {
      out += "  switched off: everything computed when asked\n";
      continue;
    }
    if (r.lines.empty()) out += "  nothing to decide\n";
    for (const std::string& l : r.lines) out += "  " + l + "\n";
  }
  return out;
}

std::string cpp_type_name(const ir::Program& program, const std::map<std::string, int>& list_caps,
                          const ir::Type& t) {
  switch (t.kind) {
    case ir::Type::Kind::Scalar:
      return t.domain == ir::kBoolDomain ? "bool" : "Int";
    case ir::Type::Kind::Set: {
      const int words = t.domain < 0 ? 1
                                     : std::max<int>(1, int((program.domains[size_t(t.domain)].size + 63) / 64));
      return fmt::format("Bits<{}>", words);
    }
    case ir::Type::Kind::List: {
      const std::string elem = t.elem ? cpp_type_name(program, list_caps, *t.elem) : "Int";
      auto it = list_caps.find(elem);
      return fmt::format("List<{}, {}>", elem, it == list_caps.end() ? 1 : it->second);
    }
  }
  return "Int";
}

}  // namespace rulebook::compiler::plan
