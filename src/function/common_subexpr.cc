// Common-subexpression reuse (see common_subexpr.h).
#include "function/common_subexpr.h"

#include <string>
#include <unordered_map>

#include "function/evaluator.h"
#include "function/scalar_function.h"

namespace sluice {

namespace {

// What the extraction knows about one distinct subexpression.
struct Candidate {
  int occurrences = 0;
  bool on_all_rows = false;  // some occurrence runs on every row of the chunk
  bool eligible = false;     // a deterministic call, cast or special form
  int column = -1;           // its column once shared
};

class Extractor {
 public:
  explicit Extractor(size_t num_inputs) : num_inputs_(num_inputs) {}

  // Counts the occurrences of every subexpression of `e`; `all_rows`: whether `e` runs on every row.
  // Returns whether `e` is deterministic.
  bool Count(const ExprPtr& e, bool all_rows) {
    const size_t id = static_cast<size_t>(Key(*e));
    bool deterministic = !(e->kind == ExprKind::kCall && (e->function == nullptr || !e->function->deterministic));
    for (size_t i = 0; i < e->args.size(); ++i) deterministic &= Count(e->args[i], all_rows && RunsOnAllRows(*e, i));
    Candidate& c = candidates_[id];
    c.occurrences++;
    c.on_all_rows = c.on_all_rows || all_rows;
    c.eligible = deterministic && e->kind != ExprKind::kColumnRef && e->kind != ExprKind::kLiteral;
    return deterministic;
  }

  // `e` with every shared subexpression replaced by its column (inner ones first, so a shared
  // expression reads the columns of the shared expressions inside it).
  ExprPtr Rewrite(const ExprPtr& e, std::vector<ExprPtr>* common) {
    if (e->kind == ExprKind::kColumnRef || e->kind == ExprKind::kLiteral) return e;
    const size_t id = static_cast<size_t>(Key(*e));
    if (candidates_[id].column >= 0) return MakeColumnRef(candidates_[id].column, e->type);
    ExprPtr out = e;
    std::shared_ptr<Expr> copy;
    for (size_t i = 0; i < e->args.size(); ++i) {
      ExprPtr a = Rewrite(e->args[i], common);
      if (a == e->args[i]) continue;
      if (!copy) copy = std::make_shared<Expr>(*e);
      copy->args[i] = a;
    }
    if (copy) out = copy;
    Candidate& c = candidates_[id];
    if (c.eligible && c.occurrences > 1 && (c.on_all_rows || ExprCannotFail(*e))) {
      c.column = static_cast<int>(num_inputs_ + common->size());
      common->push_back(out);
      return MakeColumnRef(c.column, e->type);
    }
    return out;
  }

 private:
  // Whether argument `i` of `e` runs on every row `e` runs on (not a later operand of a short-circuit).
  static bool RunsOnAllRows(const Expr& e, size_t i) {
    switch (e.kind) {
      case ExprKind::kAnd:
      case ExprKind::kOr:
      case ExprKind::kCase:
      case ExprKind::kCoalesce: return i == 0;
      default: return true;
    }
  }

  // A structural id: equal ids mean the same value on every row. A node's id is interned from its own
  // fields and its arguments' ids, so keys stay short however deep the tree; memoized per node (a plan
  // may share one node among several expressions).
  int Key(const Expr& e) {
    auto it = keys_.find(&e);
    if (it != keys_.end()) return it->second;
    std::string k = std::to_string(static_cast<int>(e.kind)) + ":" + e.type.ToString();
    switch (e.kind) {
      case ExprKind::kColumnRef: k += "#" + std::to_string(e.column_index); break;
      case ExprKind::kLiteral: {
        std::string v = e.literal.is_null() ? "NULL" : e.literal.ToString();
        k += "=" + e.literal.type().ToString() + ":" + std::to_string(v.size()) + ":" + v;
        break;
      }
      case ExprKind::kCall:
        k += "@" + (e.function ? e.function->name : std::string("?"));
        if (e.function) {
          for (const auto& t : e.function->arg_types) k += "," + t.ToString();
          k += "->" + e.function->return_type.ToString();
        }
        break;
      case ExprKind::kCast: k += e.is_try ? "try" : "cast"; break;
      case ExprKind::kCase: k += e.has_else ? "else" : "noelse"; break;
      default: break;
    }
    k += "(";
    for (const auto& a : e.args) k += std::to_string(Key(*a)) + ",";
    k += ")";
    int id = ids_.emplace(std::move(k), static_cast<int>(candidates_.size())).first->second;
    if (static_cast<size_t>(id) == candidates_.size()) candidates_.emplace_back();
    keys_.emplace(&e, id);
    return id;
  }

  size_t num_inputs_;
  std::unordered_map<const Expr*, int> keys_;
  std::unordered_map<std::string, int> ids_;
  std::vector<Candidate> candidates_;  // by id
};

}  // namespace

CommonSubexpressions ExtractCommonSubexpressions(const std::vector<ExprPtr>& exprs, const std::vector<bool>& on_all_rows,
                                                 size_t num_inputs) {
  Extractor x(num_inputs);
  for (size_t i = 0; i < exprs.size(); ++i) x.Count(exprs[i], i < on_all_rows.size() && on_all_rows[i]);
  CommonSubexpressions out;
  for (const auto& e : exprs) out.exprs.push_back(x.Rewrite(e, &out.common));
  return out;
}

}  // namespace sluice
