// Worst-case work of a move, so that a file whose loops multiply out to hours per turn
// (thousands of ships compared pairwise in every rule) is refused before anything runs it.
#include "compiler/lower/lower_cost.h"

#include <algorithm>
#include <optional>

#include <fmt/format.h>

#include "dsl/limits.h"

namespace rulebook::compiler {
namespace {

class Cost {
 public:
  explicit Cost(const ir::Program& p) : p_(p), functions_(p.functions.size()) {}

  double expr(const ir::Expr* e) {
    if (!e) return 0;
    switch (e->op) {
      case ir::Op::All: case ir::Op::Some: case ir::Op::No: case ir::Op::Count:
      case ir::Op::Sum: case ir::Op::Max: case ir::Op::Min: case ir::Op::Filter: {
        double inner = 0;
        for (size_t i = 1; i < e->args.size(); ++i) inner += expr(e->args[i].get());
        return 1 + expr(e->args[0].get()) + size(*e->args[0]) * inner;
      }
      case ir::Op::Call: {
        double c = 1 + function(e->function);
        for (const ir::ExprPtr& a : e->args) c += expr(a.get());
        return c;
      }
      default: {
        // Builtins over a set or the board (groups, neighbours) scan it once.
        double c = e->op == ir::Op::Builtin ? 1 + board_cells() : 1;
        for (const ir::ExprPtr& a : e->args) c += expr(a.get());
        return c;
      }
    }
  }

  double block(const ir::Block& b) {
    double c = 0;
    for (const ir::StmtPtr& s : b) c += stmt(*s);
    return c;
  }

 private:
  double stmt(const ir::Stmt& s) {
    double c = 1;
    for (const ir::ExprPtr& k : s.keys) c += expr(k.get());
    if (s.op == ir::StmtOp::For) {
      return c + expr(s.value.get()) +
             (s.value ? size(*s.value) : 1) * (expr(s.where.get()) + block(s.body));
    }
    return c + expr(s.value.get()) + expr(s.where.get()) + block(s.body) + block(s.otherwise);
  }

  /// The elements a loop over `domain` visits at most.
  double size(const ir::Expr& domain) {
    if (domain.op == ir::Op::ConstList || domain.op == ir::Op::ListLit) return double(domain.args.size());
    const ir::Type* t = domain.type.get();
    while (t && t->kind == ir::Type::Kind::List && t->elem) t = t->elem.get();
    if (t && t->domain >= 0 && size_t(t->domain) < p_.domains.size())
      return std::max<double>(1, p_.domains[size_t(t->domain)].size);
    return 1;
  }

  double board_cells() const { return double(p_.geometry.width) * p_.geometry.height; }

  double function(int index) {
    if (index < 0 || size_t(index) >= functions_.size()) return 0;
    std::optional<double>& known = functions_[size_t(index)];
    if (!known) {
      known = 0;  // defines do not recurse; this only guards against a malformed program
      known = expr(p_.functions[size_t(index)].body.get());
    }
    return *known;
  }

  const ir::Program& p_;
  std::vector<std::optional<double>> functions_;
};

}  // namespace

std::vector<double> move_work(const ir::Program& program) {
  Cost cost(program);
  double board_rules = 0;
  for (const ir::Rule& r : program.rules)
    if (r.board_rule) board_rules += cost.expr(r.condition.get());
  std::vector<double> out;
  for (const ir::Move& m : program.moves) {
    double choices = 1;
    for (const ir::MoveParam& p : m.params)
      if (p.domain >= 0) choices *= std::max<double>(1, program.domains[size_t(p.domain)].size);
    double test = 0;
    for (const ir::ExprPtr& r : m.requires_) test += cost.expr(r.get());
    for (const ir::Check& c : m.checks) test += cost.expr(c.condition.get());
    // A generator plays each candidate to test the board rules after it.
    const double body = cost.block(m.body);
    out.push_back(choices * (1 + test + (board_rules > 0 ? body + board_rules : 0)) + body);
  }
  return out;
}

double play_work(const ir::Program& program) {
  Cost cost(program);
  double setup = cost.block(program.initial) + cost.block(program.init);
  for (const ir::SetupVar& v : program.setups) setup += cost.expr(v.value.get()) + cost.expr(v.from.get());
  double most = std::max({setup, cost.expr(program.end_when.get()), cost.expr(program.score.value.get())});
  for (const ir::Phase& ph : program.phases) {
    double transitions = 0;
    for (const ir::Transition& t : ph.transitions) transitions += cost.expr(t.condition.get());
    most = std::max({most, transitions, cost.block(ph.stuck)});
  }
  return most;
}

void check_move_work(const ir::Program& program, dsl::Diagnostics& diags) {
  const std::vector<double> work = move_work(program);
  for (size_t i = 0; i < work.size(); ++i) {
    if (work[i] <= double(dsl::kMaxMoveWork)) continue;
    const ir::Move& m = program.moves[i];
    diags.error(m.span, fmt::format("move '{}' may take {:.2g} steps to find and play its "
                                    "instances in one state, more than the {:.2g} a turn may take",
                                    m.name, work[i], double(dsl::kMaxMoveWork)))
        .hint = "the loops of its conditions and rules multiply: shrink the domains they run over";
  }
}

}  // namespace rulebook::compiler
