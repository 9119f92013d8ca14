// Symmetries of a game: board transformations found from the IR, checked structurally and
// against the engine, and their action on states, moves and packed keys.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "compiler/runtime/engine.h"
#include "compiler/ir/ir.h"
#include "dsl/diagnostics.h"
#include "explorer/pack.h"

namespace rulebook::explorer {

/// A map of states onto states: per domain, a permutation of its value indices (empty:
/// the identity). A board transformation permutes Cell and Point (and swaps the two
/// Orientation members when it swaps the axes); records and optionals follow their parts.
/// A state variable's element moves to the element of the mapped keys and holds the mapped
/// value, so a `Cell -> Player?` board is moved and a `Cell` held in a variable too.
/// A declared symmetry also exchanges the contents of state variables: var_map.
struct Transform {
  std::string name;
  std::vector<std::vector<uint32_t>> index_map;  ///< per domain id
  std::vector<int> var_map;                      ///< per variable; empty: the identity
  bool is_identity() const;
  int var(int v) const { return var_map.empty() ? v : var_map[size_t(v)]; }
};

/// The 8 transformations of a square board (4 of a rectangle), identity first.
std::vector<Transform> board_transforms(const ir::Program& program);
/// A transformation from the maps of some domains: those of records and optionals are
/// filled in from their parts.
Transform make_transform(const ir::Program& program, std::string name,
                         std::vector<std::vector<uint32_t>> index_map);
/// A `symmetry` declaration of the rules as a transformation (its swaps of values and of
/// variables; swaps of defines follow from those).
Transform declared_transform(const ir::Program& program, const ir::Symmetry& symmetry);
/// a after b.
Transform compose(const ir::Program& program, const Transform& a, const Transform& b);
bool same_transform(const ir::Program& program, const Transform& a, const Transform& b);
/// The transformation that undoes `t` (every map of a transformation is a permutation).
Transform inverse(const ir::Program& program, const Transform& t);

/// Element `i` of `var` after the transformation moves its keys.
uint32_t map_element(const ir::Program& program, const Transform& t, const ir::StateVar& var, uint32_t i);
/// Calls `f` on every expression tree of the rules of play: defines, board rules, moves
/// (conditions and statements), phase changes, the end and the score (null ones too).
void for_each_rule_expr(const ir::Program& program, const std::function<void(const ir::Expr*)>& f);
/// Maps a whole state (every variable, constants included).
void transform_state(const ir::Program& program, const Transform& t, const uint8_t* in,
                     uint8_t* out);
/// Maps a move's arguments through the domains of its parameters.
engine::Move transform_move(const ir::Program& program, const Transform& t, const engine::Move& m);

/// Why a candidate was not kept (empty when it was).
struct SymmetryCheck {
  Transform transform;
  bool kept = false;
  std::string reason;
  /// A transformation from the maps of some domains: those of records and optionals are
/// filled in from their parts.
Transform make_transform(const ir::Program& program, std::string name,
                         std::vector<std::vector<uint32_t>> index_map);
/// A `symmetry` declaration of the rules (at `span`), not a board transformation.
  bool declared = false;
  dsl::Span span;
  /// Declared, and the rules refute it (structure or play): the rule file's claim is false.
  /// A declared symmetry of the rules that merely moves the initial state is not refuted.
  bool refuted = false;
};

/// The structural test: the transformation maps what the rules compute onto itself
/// (RuleImage below; rules too large for it fall back to a test of how they are written:
/// every constant maps onto itself, and reading a coordinate admits no map). Returns ""
/// or the reason, naming the location.
std::string check_structure(const ir::Program& program, const dsl::SourceSet& sources,
                            const Transform& t);

struct RuleSig;
class SigStore;

/// The rules of play (moves, board rules, phase changes, the end and the score) as one
/// comparable value: every part that does not read the state is evaluated by the
/// interpreter; quantifiers and move parameters are unrolled over their finite domains
/// where a computation (a coordinate, a table) does not commute with the maps; and/or,
/// quantifiers over a fixed set and sets of sets compare as sets. A map keeps the rules
/// when it carries this value onto itself. Defines are followed from their calls, so a
/// define that nothing reachable uses does not count.
class RuleImage {
 public:
  /// `candidates` are the maps that check() is asked about (at most 64).
  RuleImage(const ir::Program& program, const dsl::SourceSet& sources,
            const std::vector<Transform>& candidates);
  ~RuleImage();
  RuleImage(const RuleImage&) = delete;
  RuleImage& operator=(const RuleImage&) = delete;

  /// False when the rules were too large to unroll within the budget (or an evaluation
  /// failed outright): then check() knows nothing and the caller decides otherwise.
  bool complete() const { return complete_; }
  /// "" when candidate `k` maps the rules onto themselves, else why not, at a location.
  std::string check(size_t k) const;

 private:
  const ir::Program& program_;
  const dsl::SourceSet& sources_;
  std::vector<Transform> candidates_;
  std::vector<std::shared_ptr<ir::Type>> types_;  ///< of the values the rules do not type
  std::unique_ptr<SigStore> store_;  ///< check() interns the images it builds
  std::shared_ptr<const RuleSig> root_;
  /// A move instance compared by what it does (every parameter unrolled): its parameters,
  /// for a message (the first instance of that sig).
  std::unordered_map<const RuleSig*, std::string> instance_args_;
  bool complete_ = false;
};

/// The behavioural test on `samples` states reached by play: the transformation commutes
/// with legal-move generation and with playing each move, and keeps the phase, the
/// terminal test, the player to move and the scores. Returns "" or the first difference.
/// `legal`, when given, keeps each sample's legal moves and the states after the moves
/// played from one candidate to the next (the same samples are checked for every
/// candidate: half the move generation and half the moves played).
struct SampleMoves {
  std::vector<std::vector<engine::Move>> moves;
  std::vector<std::vector<uint8_t>> after;  ///< per sample: the states after the moves played, one after another
  std::vector<char> known;
};
std::string check_behaviour(const ir::Program& program, const engine::Engine& engine,
                            const Transform& t, const std::vector<std::vector<uint8_t>>& samples,
                            SampleMoves* legal = nullptr);

/// States visited by `games` seeded random games from `root` (every phase is reached when
/// play reaches it), at most `limit` of them, deterministic for a seed.
std::vector<std::vector<uint8_t>> sample_states(const engine::Engine& engine, const uint8_t* root,
                                                int games, size_t limit, uint64_t seed);

/// The symmetry group used to count: the group generated by the candidates (board
/// transformations and declared symmetries) that passed both tests, cut down to the
/// elements that fix the initial state. `checks` reports every candidate.
struct SymmetryGroup {
  std::vector<Transform> elements;  ///< identity first
  /// The candidates that generate it (the identity first); empty when the elements are
  /// only those of a larger group that fix the initial state.
  std::vector<Transform> generators;
  std::vector<SymmetryCheck> checks;
  std::string note;                 ///< e.g. why the group fell back to the identity
  /// Declared symmetries that the rules refute, as errors at their declarations.
  void refutations(dsl::Diagnostics& diags) const;
};

/// Most elements of a group the explorer uses (8! = 40320); a larger one is not used.
inline constexpr size_t kMaxGroup = 40320;
/// Most elements once a symmetry found beyond the maps of the square (a graph automorphism,
/// a relabelling) joins: a canonical form costs one image per element and state, and such
/// a group can be large (the 720 relabellings of six digits) where few states share a class.
inline constexpr size_t kMaxFoundGroup = 64;

/// The group generated by `generators` (the identity first), its elements in the order
/// found; stops past `limit` elements (then it holds more than `limit`).
std::vector<Transform> close_group(const ir::Program& program, const std::vector<Transform>& generators,
                                   size_t limit);

SymmetryGroup find_symmetries(const ir::Program& program, const dsl::SourceSet& sources,
                              const engine::Engine& engine, const uint8_t* root);

/// A group acting on packed keys: per element, where its digit goes and through which map.
class KeyAction {
 public:
  KeyAction(const ir::Program& program, const Packer& packer, const std::vector<Transform>& group);
  KeyAction(const KeyAction&) = delete;
  KeyAction& operator=(const KeyAction&) = delete;
  size_t size() const { return maps_.size(); }
  /// digits of the image of `digits` under group element g (g = 0 is the identity).
  void apply(size_t g, const uint32_t* digits, uint32_t* out) const;
  /// Compares the image of `digits` under g with `best`, digit by digit from the most
  /// significant (see Packer::compare_digits), computing only the digits it needs; `fixed`
  /// tells whether the image is `digits` itself.
  int compare(size_t g, const uint32_t* digits, const uint32_t* best, bool& fixed) const;

  /// Brings the chunk `values` of the image under g up to date for element `e` of the
  /// state changing from digit `was` to `now` (its image element changes accordingly).
  void adjust_image(size_t g, uint32_t e, uint32_t was, uint32_t now, const Packer& packer,
                    uint64_t* values) const {
    const ElementMap& m = maps_[g][e];
    if (m.values) {
      was = m.values[was];
      now = m.values[now];
    }
    packer.adjust(m.target, was, now, values);
  }

  /// A hash shared by all images of a state: the sum over elements of a random number per
  /// (orbit of the element, orbit of its digit), so a move's few changes update it.
  uint64_t class_hash(const uint32_t* digits) const {
    uint64_t h = 0;
    for (size_t i = 0; i < base_.size(); ++i) h += terms_[base_[i] + digits[i]];
    return h;
  }
  uint64_t class_term(uint32_t element, uint32_t digit) const { return terms_[base_[element] + digit]; }

 private:
  struct ElementMap {
    uint32_t target = 0;
    const uint32_t* values = nullptr;  ///< null: unchanged
  };
  std::vector<std::vector<ElementMap>> maps_;
  std::vector<std::vector<ElementMap>> sources_;  ///< per target: `target` is the source
  std::vector<std::vector<uint32_t>> tables_;  ///< owned value maps (index_map copies)
  std::vector<uint64_t> terms_;
  std::vector<size_t> base_;  ///< per element: its first entry in terms_
};

}  // namespace rulebook::explorer
