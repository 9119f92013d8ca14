// The emitter's copy of the engine plan (compiler/plan/): the decisions its passes made,
// read into the members the printing code consults.
#include "compiler/codegen/emit_internal.h"

namespace rulebook::compiler::emit {

void Emitter::plan() {
  has_board_rules_ = plan_.board_rules;
  geometry_used_ = plan_.geometry_used;
  plane_of_var_ = plan_.plane_of_var;
  for (const plan::PlannedPlane& p : plan_.planes) planes_.push_back({p.var, p.values, p.key_domain});
  rule_tables_ = std::move(plan_.rule_tables);
  memo_slot_ = plan_.memo_slot;
  memo_defines_ = plan_.memo_defines;
  forget_defines_ = plan_.forget_defines;
  scoped_ = plan_.scoped;
  scoped_count_ = plan_.scoped_count;
  can_memo_base_ = plan_.can_memo_base;
  forget_cans_ = plan_.forget_cans;
  can_by_mask_.assign(program_.moves.size(), 0);
}

int Emitter::list_cap(const std::string& elem_type) const {
  auto it = plan_.list_caps.find(elem_type);
  return it == plan_.list_caps.end() ? 1 : it->second;
}

}  // namespace rulebook::compiler::emit
