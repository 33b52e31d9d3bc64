#include "plan/join_filter_rule.h"

#include "function/scalar_function.h"
#include "plan/optimizer.h"
#include "plan/plan_rewrite.h"

namespace sluice {

PlanNodePtr JoinFilterRule::Apply(const PlanNodePtr& node) {
  auto rule = [this](const PlanNode&, const PlanNodePtr& out) -> Result<PlanNodePtr> {
    if (out->kind != PlanKind::kCalc || !out->As<CalcNode>().condition) return out;
    if (out->inputs[0]->kind == PlanKind::kJoin && out->inputs[0]->As<JoinNode>().join_type == JoinType::kInner) {
      return Push(out->As<CalcNode>());
    }
    if (out->inputs[0]->kind == PlanKind::kCorrelate) return PushPastCorrelate(out->As<CalcNode>());
    return out;
  };
  return RewriteBottomUp(node, rule, &memo_).value();  // the rule never fails
}

PlanNodePtr JoinFilterRule::Push(const CalcNode& calc) {
  const auto& join = calc.inputs[0]->As<JoinNode>();
  const PlanNodePtr& lx = join.inputs[0];
  const PlanNodePtr& rx = join.inputs[1];
  const PlanNodePtr left_in = lx->kind == PlanKind::kExchange ? lx->inputs[0] : lx;
  const PlanNodePtr right_in = rx->kind == PlanKind::kExchange ? rx->inputs[0] : rx;
  const int nl = static_cast<int>(left_in->schema.size());
  const size_t n = join.schema.size();
  std::vector<ExprPtr> left_filters, right_filters, residual = Conjuncts(join.residual), keep;
  std::vector<int> lkeys = join.left_keys, rkeys = join.right_keys;
  std::vector<int> right_shift(n, -1);
  for (size_t i = static_cast<size_t>(nl); i < n; ++i) right_shift[i] = static_cast<int>(i) - nl;
  bool changed = false;
  for (const auto& c : Conjuncts(calc.condition)) {
    std::vector<bool> used(n, false);
    CollectColumns(*c, &used);
    bool any_left = false, any_right = false;
    for (size_t i = 0; i < n; ++i) {
      if (!used[i]) continue;
      (static_cast<int>(i) < nl ? any_left : any_right) = true;
    }
    if (any_left && !any_right) {
      left_filters.push_back(c);
      changed = true;
    } else if (any_right && !any_left) {
      right_filters.push_back(RemapColumns(c, right_shift));
      changed = true;
    } else if (any_left && any_right && c->kind == ExprKind::kCall && c->function && c->function->name == "=" &&
               c->args[0]->kind == ExprKind::kColumnRef && c->args[1]->kind == ExprKind::kColumnRef &&
               c->args[0]->type.EqualsIgnoringNullability(c->args[1]->type)) {
      int a = c->args[0]->column_index, b = c->args[1]->column_index;
      if (a >= nl) std::swap(a, b);
      lkeys.push_back(a);
      rkeys.push_back(b - nl);
      changed = true;
    } else if (any_left && any_right) {
      residual.push_back(c);
      changed = true;
    } else {
      keep.push_back(c);
    }
  }
  if (!changed) return std::make_shared<CalcNode>(calc);
  auto filtered = [](const PlanNodePtr& in, const std::vector<ExprPtr>& filters) -> PlanNodePtr {
    if (filters.empty()) return in;
    auto f = std::make_shared<CalcNode>();
    f->inputs = {in};
    f->schema = in->schema;
    for (size_t i = 0; i < in->schema.size(); ++i) f->projections.push_back(MakeColumnRef(static_cast<int>(i), in->schema.field(i).type));
    f->condition = AndAll(filters);
    return f;
  };
  auto exchange = [](const PlanNodePtr& in, const std::vector<int>& keys) {
    auto x = std::make_shared<ExchangeNode>();
    x->inputs = {in};
    x->schema = in->schema;
    x->keys = keys;
    return x;
  };
  auto nj = std::make_shared<JoinNode>(join);
  nj->left_keys = lkeys;
  nj->right_keys = rkeys;
  nj->inputs = {exchange(filtered(left_in, left_filters), lkeys), exchange(filtered(right_in, right_filters), rkeys)};
  nj->residual = AndAll(residual);
  nj->condition = AndAll([&] {
    std::vector<ExprPtr> parts = Conjuncts(join.condition);
    for (const auto& c : Conjuncts(calc.condition)) {
      bool kept = false;
      for (const auto& k : keep) kept |= k == c;
      if (!kept) parts.push_back(c);
    }
    return parts;
  }());
  auto nc = std::make_shared<CalcNode>(calc);
  nc->inputs = {nj};
  nc->condition = AndAll(keep);
  return nc;
}

PlanNodePtr JoinFilterRule::PushPastCorrelate(const CalcNode& calc) {
  const auto& correlate = calc.inputs[0]->As<CorrelateNode>();
  const PlanNodePtr& in = correlate.inputs[0];
  const size_t nl = in->schema.size();
  std::vector<ExprPtr> below, keep;
  for (const auto& c : Conjuncts(calc.condition)) {
    std::vector<bool> used(correlate.schema.size(), false);
    CollectColumns(*c, &used);
    bool reads_elements = false;
    for (size_t i = nl; i < used.size(); ++i) reads_elements = reads_elements || used[i];
    (reads_elements ? keep : below).push_back(c);
  }
  if (below.empty()) return std::make_shared<CalcNode>(calc);
  auto filter = std::make_shared<CalcNode>();
  filter->inputs = {in};
  filter->schema = in->schema;
  for (size_t i = 0; i < nl; ++i) filter->projections.push_back(MakeColumnRef(static_cast<int>(i), in->schema.field(i).type));
  filter->condition = AndAll(below);
  auto nc = std::make_shared<CorrelateNode>(correlate);
  nc->inputs = {filter};
  auto out = std::make_shared<CalcNode>(calc);
  out->inputs = {nc};
  out->condition = AndAll(keep);
  return out;
}

}  // namespace sluice
