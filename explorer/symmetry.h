// Symmetries of a game: board transformations found from the IR, checked structurally and
// against the engine, and their action on states, moves and packed keys.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "compiler/engine.h"
#include "compiler/ir.h"
#include "explorer/pack.h"

namespace rulebook::explorer {

/// A map of states onto states: per domain, a permutation of its value indices (empty:
/// the identity). A board transformation permutes Cell and Point (and swaps the two
/// Orientation members when it swaps the axes); records and optionals follow their parts.
/// A state variable's element moves to the element of the mapped keys and holds the mapped
/// value, so a `Cell -> Player?` board is moved and a `Cell` held in a variable too.
struct Transform {
  std::string name;
  std::vector<std::vector<uint32_t>> index_map;  ///< per domain id
  bool is_identity() const;
};

/// The 8 transformations of a square board (4 of a rectangle), identity first.
std::vector<Transform> board_transforms(const ir::Program& program);

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
};

/// The structural test: the transformation maps every constant the rules of play read onto
/// itself: constant cells and cell sets, lists of sets (houses, lines) as a whole, and
/// cell-indexed tables (a region function) equivariantly; rules that read coordinates
/// (x, y, cell_at) admit no transformation but the identity. Returns "" or the reason,
/// naming the expression's location.
std::string check_structure(const ir::Program& program, const dsl::SourceSet& sources,
                            const Transform& t);

/// The behavioural test on `samples` states reached by play: the transformation commutes
/// with legal-move generation and with playing each move, and keeps the phase, the
/// terminal test, the player to move and the scores. Returns "" or the first difference.
std::string check_behaviour(const ir::Program& program, const engine::Engine& engine,
                            const Transform& t, const std::vector<std::vector<uint8_t>>& samples);

/// States visited by `games` seeded random games from `root` (every phase is reached when
/// play reaches it), at most `limit` of them, deterministic for a seed.
std::vector<std::vector<uint8_t>> sample_states(const engine::Engine& engine, const uint8_t* root,
                                                int games, size_t limit, uint64_t seed);

/// The symmetry group used to count: the candidates that passed both tests and fix the
/// initial state, closed under composition. `checks` reports every candidate.
struct SymmetryGroup {
  std::vector<Transform> elements;  ///< identity first
  std::vector<SymmetryCheck> checks;
  std::string note;                 ///< e.g. why the group fell back to the identity
};

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
