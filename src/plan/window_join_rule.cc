#include "plan/window_join_rule.h"

#include <set>

#include "function/scalar_function.h"
#include "plan/optimizer.h"
#include "plan/plan_rewrite.h"
#include "plan/window_rank_rule.h"

namespace sluice {

std::string WindowJoinNode::ExplainAttributes() const {
  static const char* kTypes[] = {"InnerJoin",     "LeftOuterJoin", "RightOuterJoin",
                                 "FullOuterJoin", "LeftSemiJoin",  "LeftAntiJoin"};
  // The condition's names: the output's (left ++ right, made unique as Flink's num, num0); a semi or
  // anti join outputs the left columns only, so its condition's are its inputs' names made unique
  // the same way (binder_util's Uniquify; Flink prints =(num, num0) there too).
  std::vector<std::string> names = schema.names();
  if (IsSemiOrAnti(join_type)) {
    names = inputs[0]->schema.names();
    std::set<std::string> used(names.begin(), names.end());
    for (const std::string& base : inputs[1]->schema.names()) {
      std::string n = base;
      for (int i = 0; !used.insert(n).second; ++i) n = base + std::to_string(i);
      names.push_back(n);
    }
  }
  std::string select;
  for (const auto& n : schema.names()) select += (select.empty() ? "" : ", ") + n;
  return "leftWindow=[" + left_window.Explain(*inputs[0]) + "], rightWindow=[" + right_window.Explain(*inputs[1]) +
         "], joinType=[" + kTypes[static_cast<int>(join_type)] + "], where=[" +
         (remaining ? remaining->ToString(&names) : std::string("true")) + "], select=[" + select + "]";
}

Result<PlanNodePtr> WindowJoinRule::Apply(const PlanNodePtr& node) {
  auto rule = [this](const PlanNode&, const PlanNodePtr& out) -> Result<PlanNodePtr> {
    if (out->kind != PlanKind::kJoin) return out;
    ASSIGN_OR_RETURN(PlanNodePtr rewritten, Rewrite(out->As<JoinNode>()));
    return rewritten ? rewritten : out;
  };
  return RewriteBottomUp(node, rule, &memo_);
}

Result<PlanNodePtr> WindowJoinRule::Rewrite(const JoinNode& join) {
  auto below = [](const PlanNodePtr& in) { return in->kind == PlanKind::kExchange ? in->inputs[0] : in; };
  const PlanNodePtr left = below(join.inputs[0]);
  const PlanNodePtr right = below(join.inputs[1]);
  auto lw = FindWindowColumns(*left);
  auto rw = FindWindowColumns(*right);
  // Sluice joins windows of TUMBLE, HOP and CUMULATE only; sessions stay a regular join.
  if (!lw || !rw || lw->window.kind == WindowKind::kSession || rw->window.kind == WindowKind::kSession) return PlanNodePtr();
  const int nl = static_cast<int>(left->schema.size());
  int start_pair[2] = {-1, -1}, end_pair[2] = {-1, -1};
  std::vector<int> left_keys, right_keys;
  for (size_t i = 0; i < join.left_keys.size(); ++i) {
    const size_t l = static_cast<size_t>(join.left_keys[i]), r = static_cast<size_t>(join.right_keys[i]);
    if (lw->start[l] && rw->start[r]) {
      if (start_pair[0] < 0) start_pair[0] = join.left_keys[i], start_pair[1] = join.right_keys[i];
    } else if (lw->end[l] && rw->end[r]) {
      if (end_pair[0] < 0) end_pair[0] = join.left_keys[i], end_pair[1] = join.right_keys[i];
    } else {
      left_keys.push_back(join.left_keys[i]);
      right_keys.push_back(join.right_keys[i]);
    }
  }
  // Flink keeps a regular join unless both window columns are paired and the windows agree.
  if (start_pair[0] < 0 || end_pair[0] < 0) return PlanNodePtr();
  if (lw->proctime != rw->proctime || lw->local_time != rw->local_time) return PlanNodePtr();
  const WindowSpec& a = lw->window;
  const WindowSpec& b = rw->window;
  if (a.kind != b.kind || a.size_ms != b.size_ms || a.step_ms != b.step_ms || a.offset_ms != b.offset_ms) return PlanNodePtr();
  if (lw->proctime) return Status::PlanError("Processing time Window Join is not supported yet.");
  // The remaining condition: the ON condition without the window equalities.
  auto is_window_equality = [&](const Expr& c) {
    if (c.kind != ExprKind::kCall || !c.function || c.function->name != "=" || c.args.size() != 2) return false;
    if (c.args[0]->kind != ExprKind::kColumnRef || c.args[1]->kind != ExprKind::kColumnRef) return false;
    int x = c.args[0]->column_index, y = c.args[1]->column_index;
    if (x >= nl) std::swap(x, y);
    if (x >= nl || y < nl) return false;
    return (x == start_pair[0] && y - nl == start_pair[1]) || (x == end_pair[0] && y - nl == end_pair[1]);
  };
  std::vector<ExprPtr> rest;
  if (join.condition) {
    std::vector<ExprPtr> conjuncts = join.condition->kind == ExprKind::kAnd ? join.condition->args : std::vector<ExprPtr>{join.condition};
    for (const auto& c : conjuncts) {
      if (!is_window_equality(*c)) rest.push_back(c);
    }
  }
  ExprPtr remaining;
  if (rest.size() == 1) {
    remaining = rest[0];
  } else if (rest.size() > 1) {
    auto e = std::make_shared<Expr>();
    e->kind = ExprKind::kAnd;
    bool nullable = false;
    for (const auto& r : rest) nullable = nullable || r->type.nullable();
    e->type = LogicalType::Boolean().WithNullable(nullable);
    e->args = rest;
    remaining = e;
  }
  auto exchange = [](const PlanNodePtr& in, const std::vector<int>& keys) {
    auto x = std::make_shared<ExchangeNode>();
    x->inputs = {in};
    x->schema = in->schema;
    x->keys = keys;
    return x;
  };
  auto w = std::make_shared<WindowJoinNode>();
  w->inputs = {exchange(left, left_keys), exchange(right, right_keys)};
  w->schema = join.schema;
  w->join_type = join.join_type;
  w->left_window = MakeAttachedWindow(*lw, start_pair[0], end_pair[0]);
  w->right_window = MakeAttachedWindow(*rw, start_pair[1], end_pair[1]);
  w->left_keys = left_keys;
  w->right_keys = right_keys;
  w->remaining = remaining;
  w->residual = join.residual;
  return PlanNodePtr(w);
}

}  // namespace sluice
