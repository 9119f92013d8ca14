// The encoder's shared template: splitting a value into its concrete cases.
#pragma once

#include "verifier/encoder.h"

namespace rulebook::verifier {

/// A concrete set over `domain`.
SymP bits_sym(const ir::Bits& b, int domain);

template <class F>
SymP Encoder::split(const SymP& s0, const ir::TypePtr& type, F&& fn) {
  SymP s = resolve(s0);
  if (concrete(*s)) return fn(s);
  if (s->k == Sym::K::Table) {
    const int sel = s->sel;
    std::vector<SymP> out;
    // The selector is released however `fn` ends: an exception (an Unsupported construct)
    // must not leave it fixed for the properties encoded afterwards.
    struct Release {
      Encoder& enc;
      int sel;
      ~Release() {
        enc.fixed_[size_t(sel)] = -1;
        --enc.expand_depth_;
      }
    } release{*this, sel};
    ++expand_depth_;
    for (size_t k = 0; k < s->items.size(); ++k) {
      fixed_[size_t(sel)] = int(k);
      out.push_back(fn(s->items[k]));
    }
    return from_table(sel, std::move(out), type);
  }
  auto cases = to_cases(s);
  if (!cases) throw Unsupported("a number computed from the state used where a fixed value is needed");
  std::vector<z3::expr> guards;
  std::vector<SymP> out;
  for (auto& [v, g] : *cases) {
    guards.push_back(g);
    out.push_back(fn(val(v)));
  }
  return with_err(merge(guards, out, type), err_of(s));
}

}  // namespace rulebook::verifier
