// Hand-written counter of SMYOZ fleets: every placement sequence of the fleet that keeps the
// five prohibitions, by depth, as variants/smyoz/smyoz.rules plays it.
//
// An independent baseline for the generated engine of that file: it shares no code with
// rulebook. The rules, as the file reads them (its "[reading]" lines):
// - ships are placed in fleet order (ALPHA, the BETAs, the GAMMAs, the DELTAs); ships of one
//   kind by strictly increasing anchor (top/left cell, row-major index); a one-cell ship lies
//   `horizontal`; a ship lies wholly on the board;
// - corner rule: no cell of one ship equals or touches (8-neighbourhood) a cell of another;
// - tip rule: two ships lying along one row (or one column) have all cells at least 3 apart;
//   a one-cell ship lies along its row and its column;
// - mooring rule: at most one cell of a ship on the rim, none on a board corner, and that
//   cell is a tip (an end of the ship);
// - centre rule: two ships of one kind differ in min x + max x and in min y + max y;
// - side rule: two parallel ships of two or more cells whose along-ranges share more than one
//   position lie at least 3 apart across;
// - a state with no legal placement ends the game (a partial fleet that cannot be completed).
// So the paths of depth d are the legal placements of the first d ships, and those of depth
// fleet size are the legal fleets (one placement order per fleet).
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

namespace hand::smyoz {

/// A board side and the ship lengths in placement order; consecutive equal lengths are
/// ships of one kind.
struct Fleet {
  int side = 9;
  std::vector<int> lengths = {4, 3, 3, 2, 2, 2, 1, 1, 1, 1};
};

class FleetCounter {
 public:
  explicit FleetCounter(const Fleet& fleet);

  /// The 8 symmetries of the square, identity first; each maps the set of legal fleets onto
  /// itself (every prohibition reads only distances, rims and the pair of axes).
  static constexpr int kSymmetries = 8;
  static const char* symmetry_name(int g);

  /// Paths of exactly d placements for d = 0..depth (index d), the last ply counted without
  /// being played. `progress` (may be null) is called with each finished first placement.
  /// With `fixed` and depth = ships(): (*fixed)[g] = the complete fleets that symmetry g maps
  /// onto themselves (as sets of cells per kind), so the fleets up to symmetry are
  /// sum(fixed) / 8 (Burnside).
  std::vector<uint64_t> perft(int depth, void (*progress)(int done, int total) = nullptr,
                              std::vector<uint64_t>* fixed = nullptr) const;

  int ships() const { return int(fleet_.lengths.size()); }

  /// The most water lines (rows and columns holding no ship cell) of a legal fleet, by a
  /// depth-first search that cuts a partial fleet already crossing too many lines (a line
  /// crossed stays crossed); -1 when there is no legal fleet. `lines` gets a fleet reaching
  /// it, as anchors (row-major) and directions.
  int most_water_lines(std::vector<std::pair<int, bool>>* fleet = nullptr) const;

 private:
  /// A ship lying on the board with its facts precomputed.
  struct Placement {
    unsigned __int128 cells = 0;  ///< its cells
    unsigned __int128 halo = 0;   ///< its cells and their 8-neighbours
    int anchor = 0;               ///< row-major index of the top/left cell
    int x0 = 0, y0 = 0, x1 = 0, y1 = 0;  ///< the cells span [x0, x1] x [y0, y1]
    bool horizontal = true;
    int length = 1;
    unsigned __int128 image[kSymmetries] = {};  ///< its cells under each symmetry
  };
  struct Stack;

  bool compatible(const Placement& a, const Placement& b, bool same_kind) const;
  uint64_t count(Stack& st, int ship, int depth) const;
  void images_before(Stack& st, int ship) const;
  void count_fixed(Stack& st, int ship, const Placement& last) const;
  void most_water(std::vector<const Placement*>& placed, std::vector<unsigned __int128>& halo, int ship, uint32_t lines,
                  int& best, std::vector<const Placement*>& best_fleet) const;

  Fleet fleet_;
  std::vector<int> kind_;  ///< per ship: index of its kind
  /// Per ship, its placements that keep the mooring rule, by increasing anchor.
  std::vector<std::vector<Placement>> options_;
};

}  // namespace hand::smyoz
