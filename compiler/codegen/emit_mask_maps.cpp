// Masks through maps of the board the rules compute: `f(x) in S` for a pure f of the
// binder (a neighbour, a step along a direction) is S pulled back through f, a shift of
// S's bits when f moves every index by the same amount; and a binder over a constant set
// inside a condition (`some d in directions`, `all k in 0..2`) is unrolled, each value
// giving a mask of its own. The maps are evaluated by the interpreter (plan/pure_maps.h).
#include <bit>

#include "compiler/codegen/emit_internal.h"
#include "compiler/plan/pure_maps.h"

namespace rulebook::compiler::emit {

using ir::Op;

namespace {

/// A binder is unrolled when it has at most this many values, fewer than the domain of
/// the mask (a loop over a few directions or steps traded for one over the whole board,
/// done bit-parallel)...
constexpr int kMaxUnrolledValues = 16;
/// ... and one mask holds at most this many unrolled conditions (a binder over k values
/// inside one over n makes n * k of the innermost).
constexpr int kMaxUnrolledMasks = 64;

}  // namespace

plan::PureMaps& MaskBuilder::pure_maps() {
  if (!s_.pure_maps_) s_.pure_maps_ = std::make_unique<plan::PureMaps>(program_, s_.ir_facts_);
  return *s_.pure_maps_;
}

std::optional<std::string> MaskBuilder::mask_through_map(const ir::Expr& e, int slot, int domain) {
  // `f(x) in S`, S a set not reading x.
  if (!s_.plan_.board_maps) return std::nullopt;
  const ir::Expr& x = *e.args[0];
  const ir::Expr& s = *e.args[1];
  if (!names_.identity_domain(domain) || !s.type || s.type->kind != ir::Type::Kind::Set ||
      s.type->domain < 0 || plan::uses_slot(s, slot) || !s_.ir_facts_.total(s) || !plan::uses_slot(x, slot))
    return std::nullopt;
  const int target = s.type->domain;
  if (!names_.identity_domain(target)) return std::nullopt;
  const std::optional<plan::PureMap> m = pure_maps().map(x, slot, domain, target);
  if (!m) return std::nullopt;
  ir::Type want;
  want.kind = ir::Type::Kind::Set;
  want.domain = target;
  return pulled_back(*m, names_.paren(exprs_.expr_as(s, want)), domain, target);
}

std::string MaskBuilder::pulled_back(const plan::PureMap& m, const std::string& set, int domain, int target) {
  const std::vector<uint64_t> defined = m.defined();
  const bool all = m.total();
  const std::optional<int64_t> offset = m.offset();
  if (offset && target == domain) {
    if (*offset == 0 && all) return set;
    const std::string shifted = fmt::format("pulled<{}>({})", *offset, names_.bare(set));
    // Shifting down brings in only bits above the domain, which a set never holds.
    if (all && *offset > 0) return shifted;
    return fmt::format("({} & {})", shifted, names_.bits_literal(domain, defined));
  }
  // Any other map: a table of where each value goes.
  std::string items;
  for (size_t v = 0; v < m.to.size(); ++v) items += fmt::format("{}{}", v ? ", " : "", m.to[v]);
  const std::string key = fmt::format("map|{}|{}|{}", domain, target, items);
  std::string name;
  if (auto it = s_.named_constants_.find(key); it != s_.named_constants_.end()) {
    name = it->second;
  } else {
    name = fmt::format("kMap{}", s_.named_constants_.size());
    s_.named_constants_[key] = name;
    s_.constant_defs_.push_back(fmt::format(
        "/// Where each value of a binder goes through a map the rules compute (-1: nowhere).\n"
        "constexpr int32_t {}[{}] = {{{}}};",
        name, m.to.size(), items));
  }
  return fmt::format("preimage<{}>({}, {})", names_.words(domain), names_.bare(set), name);
}

std::optional<std::string> MaskBuilder::constant_mask(const ir::Expr& e, int slot, int domain) {
  // A condition of the binder alone, pure and loop-free: its mask is a constant, had from
  // the interpreter (which also covers conditions the C++ would have to check for overflow).
  if (!s_.plan_.board_maps || !names_.identity_domain(domain) || !e.type ||
      !names_.is_bool(*e.type))
    return std::nullopt;
  const std::optional<plan::PureMap> m = pure_maps().map(e, slot, domain, ir::kBoolDomain);
  if (!m) return std::nullopt;
  std::vector<uint64_t> bits((m->to.size() + 63) / 64, 0);
  for (size_t v = 0; v < m->to.size(); ++v)
    if (m->to[v] == 1) bits[v / 64] |= uint64_t(1) << (v % 64);
  return names_.bits_literal(domain, bits);
}

std::optional<std::string> MaskBuilder::mask_unrolled(const ir::Expr& e, int slot, int domain) {
  // some / all / no y in {constants} where W: B, y not the binder of the mask.
  const ir::Expr& values = *e.args[0];
  if (!s_.plan_.board_maps || e.slot == slot || values.op != Op::ConstSet || !values.type || values.type->domain < 0)
    return std::nullopt;
  int n = 0;
  for (uint64_t word : values.bits) n += std::popcount(word);
  if (n == 0 || n > kMaxUnrolledValues || uint32_t(n) >= names_.dom(domain).size ||
      s_.unrolled_masks_ * n > kMaxUnrolledMasks)
    return std::nullopt;
  const ir::Expr* where_e = e.args[1].get();
  const ir::Expr* body_e = e.args[2].get();
  const std::string full = full_mask(domain);
  std::string combined;
  const int saved = s_.unrolled_masks_;
  s_.unrolled_masks_ *= n;
  bool ok = true;
  for (size_t i = 0; ok && i < values.bits.size() * 64; ++i) {
    if (!((values.bits[i / 64] >> (i % 64)) & 1)) continue;
    const ir::Value v = ir::domain_value(program_.domains, values.type->domain, int64_t(i));
    s_.inlined_.push_back(plan::substitute(*body_e, e.slot, v));
    std::optional<std::string> term = mask_of(*s_.inlined_.back(), slot, domain);
    if (term && where_e) {
      s_.inlined_.push_back(plan::substitute(*where_e, e.slot, v));
      const std::optional<std::string> w = mask_of(*s_.inlined_.back(), slot, domain);
      if (!w) term.reset();
      else if (e.op == Op::All) term = fmt::format("({} - ({} - {}))", full, *w, *term);
      else term = fmt::format("({} & {})", *w, *term);
    }
    if (!term) {
      ok = false;
      break;
    }
    if (combined.empty()) combined = *term;
    else combined = fmt::format("({} {} {})", combined, e.op == Op::All ? "&" : "|", *term);
  }
  s_.unrolled_masks_ = saved;
  if (!ok) return std::nullopt;
  if (e.op == Op::No) return fmt::format("({} - {})", full, combined);
  return combined;
}

}  // namespace rulebook::compiler::emit
