// The emitter's copy of the engine plan (compiler/plan/): the decisions its passes made,
// read into the members the printing code consults.
#include "compiler/codegen/emit_internal.h"

namespace rulebook::compiler::emit {

void MaskBuilder::plan() {
  s_.has_board_rules_ = s_.plan_.board_rules;
  s_.geometry_used_ = s_.plan_.geometry_used;
  s_.plane_of_var_ = s_.plan_.plane_of_var;
  for (const plan::PlannedPlane& p : s_.plan_.planes) s_.planes_.push_back({p.var, p.values, p.key_domain});
  s_.rule_tables_ = std::move(s_.plan_.rule_tables);
  s_.memo_slot_ = s_.plan_.memo_slot;
  s_.memo_defines_ = s_.plan_.memo_defines;
  s_.forget_defines_ = s_.plan_.forget_defines;
  s_.scoped_ = s_.plan_.scoped;
  s_.scoped_count_ = s_.plan_.scoped_count;
  s_.can_memo_base_ = s_.plan_.can_memo_base;
  s_.forget_cans_ = s_.plan_.forget_cans;
  s_.can_by_mask_.assign(program_.moves.size(), 0);
}

int MaskBuilder::list_cap(const std::string& elem_type) const {
  auto it = s_.plan_.list_caps.find(elem_type);
  return it == s_.plan_.list_caps.end() ? 1 : it->second;
}

}  // namespace rulebook::compiler::emit
