// The rules as comparable data (RuleSig), interned (SigStore), and mapped by a board map:
// what RuleImage builds and compares.
#pragma once

#include <cstdint>
#include <memory>
#include <unordered_map>
#include <vector>

#include "compiler/interp/interpret.h"
#include "compiler/ir/ir.h"
#include "explorer/symmetry.h"

namespace rulebook::explorer {

using compiler::interp::Value;

/// A part of the rules as data. Leaf: a value the interpreter computed (of `type`). Sym: a
/// parameter or bound name not unrolled (`id`), which every map leaves as it is, because
/// the map renames what it ranges over. Node: an operation over its parts (`tag`, `a`);
/// Set and Bag: parts whose order does not matter (and/or, an unrolled quantifier).
struct RuleSig {
  enum class Kind : uint8_t { Leaf, Sym, Node, Set, Bag };
  Kind kind = Kind::Node;
  bool error = false;           ///< Leaf: the evaluation failed (a run-time error of the rules)
  bool moves = false;           ///< some leaf below has a type a candidate permutes
  bool has_span = false;
  uint64_t hash = 0;            ///< of the structure: equal parts are one object (SigStore)
  int tag = 0;
  int64_t a = 0;
  const ir::Type* type = nullptr;
  Value value;
  std::vector<std::shared_ptr<const RuleSig>> kids;
  std::vector<int> syms;        ///< Sym ids below, sorted
  /// Uses that do not commute with the maps in `mask` (bit per candidate): of a Sym (which
  /// unrolling it removes), as kReadFlag of a value read from the state, as kOrderFlag of a
  /// `for` over a set whose iterations do not commute (they run in the order of the set's
  /// elements, which those maps change).
  static constexpr int kReadFlag = -1;
  static constexpr int kOrderFlag = -2;
  struct Flag {
    int sym;
    uint64_t mask;
    dsl::Span span;
  };
  std::vector<Flag> flags;
  dsl::Span span;
};

using SigPtr = std::shared_ptr<const RuleSig>;

/// Every part built or mapped, interned: a structure is built once and is one object, so
/// equal parts compare by address.
class SigStore {
 public:
  SigPtr intern(RuleSig&& s);

 private:
  std::unordered_map<uint64_t, std::vector<SigPtr>> table_;
};

inline bool maps_domain(const Transform& t, int d) {
  return d >= 0 && size_t(d) < t.index_map.size() && !t.index_map[size_t(d)].empty();
}

int cmp_value(const Value& a, const Value& b);
/// A total order on parts, by hash first; only a hash collision compares deeper.
int cmp(const SigPtr& a, const SigPtr& b);
/// Sorts parts whose order does not matter (a set drops duplicates, a bag keeps them).
void sort_parts(std::vector<SigPtr>& v, bool unique);
/// The image of a value of type `ty` under `t` (null: only made canonical): a list of
/// sets is a set of sets, so it is sorted; a list of scalars keeps its order.
void map_value(const ir::Program& p, const Transform* t, const ir::Type* ty, Value& v);
/// The image of a part under `t`, interned, so a part the map keeps is the part itself.
SigPtr map_sig(const ir::Program& p, const SigPtr& s, const Transform& t, SigStore& store,
               std::unordered_map<const RuleSig*, SigPtr>& memo);

}  // namespace rulebook::explorer
