// Annotations computed from a rule file's own definitions: the caller names `define`s (on
// the command line or in a report configuration) and how to draw their values; the types
// of the definitions say where the values go. No game is named here.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "compiler/runtime/engine.h"
#include "compiler/interp/interpret.h"
#include "compiler/ir/ir.h"
#include "dsl/source.h"
#include "render/board.h"

namespace rulebook::render {

/// One layer of annotations, written `kind:define[:option[=value]]...`:
///   cells:D              D: set of Cell                    the cells are filled
///   line-cells:D         D(l: set of Cell, c: Cell): bool  along every row and column l,
///                                                          a line over the cells c where D holds
///   points:D             D: set of Point                   a dot on each crossing point
///   cell-labels:D        D(c: Cell): scalar                the value, small, in each cell
///   group-labels:D       D(t: T): scalar with cells=E, E(t: T): set of Cell:
///                                                          the value on the first cell of E(t)
/// Options: colour=C, dashed, digits=N (zero-padded numbers), only=E (cell-labels: only the
/// cells of E: set of Cell), cells=E (group-labels), components (points: one colour and a
/// size label per orthogonally connected group), title=T (legend text).
struct Layer {
  enum class Kind { Cells, LineCells, Points, CellLabels, GroupLabels };
  Kind kind = Kind::Cells;
  std::string define;
  std::string cells;  ///< group-labels: the cells of each group
  std::string only;   ///< cell-labels: restrict to this set of cells
  std::string colour;
  std::string title;
  bool dashed = false;
  bool components = false;
  int digits = 0;
};

/// Parses a layer written as above; on error returns false and says why in `error`.
bool parse_layer(const std::string& text, Layer& out, std::string& error);

/// Evaluates a program's definitions in given states and turns layers into annotations.
/// States of any engine of the same rules can be annotated.
class Annotator {
 public:
  /// `program` and `sources` (the rules as the caller loaded them) must outlive this.
  Annotator(const ir::Program& program, const dsl::SourceSet& sources);
  ~Annotator();
  /// Appends the layers' drawings for `state` to `out`; a definition that is missing or of
  /// the wrong type is an error naming it and the type it needs.
  engine::Status draw(const std::vector<Layer>& layers, const uint8_t* state, Annotations& out);
  const ir::Program& program() const { return program_; }

 private:
  struct Arg {
    bool is_set = false;
    int64_t value = 0;
    std::vector<uint64_t> bits;
  };
  engine::Status find(const std::string& name, int& index) const;
  /// The value of define `f` with `args` in `state`.
  engine::Status eval(int f, const std::vector<Arg>& args, const uint8_t* state, compiler::interp::Value& out);
  /// A scalar define's value.
  engine::Status eval(int f, const std::vector<Arg>& args, const uint8_t* state, int64_t& out);
  engine::Status members(int f, const std::vector<Arg>& args, int domain, const uint8_t* state,
                         std::vector<int64_t>& out);
  engine::Status draw_layer(const Layer& layer, const uint8_t* state, Annotations& out);

  const ir::Program& program_;
  compiler::Interpreter interp_;
  compiler::Evaluator eval_;
  std::vector<uint8_t> state_;  ///< the state evaluated (a define cannot write it)
};

}  // namespace rulebook::render
