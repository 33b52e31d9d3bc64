// EXPLAIN text of the LookupJoin node (plan_node.h), in Flink's format:
// LookupJoin(table=[default_catalog.default_database.t], joinType=[InnerJoin], lookup=[k=a],
//            joinCondition=[...], select=[...]).
#include "plan/plan_node.h"

namespace sluice {

namespace {

void MarkColumns(const Expr& e, std::vector<bool>* used) {
  if (e.kind == ExprKind::kColumnRef) {
    (*used)[static_cast<size_t>(e.column_index)] = true;
    return;
  }
  for (const auto& a : e.args) {
    if (a) MarkColumns(*a, used);
  }
}

}  // namespace

std::string LookupJoinNode::ExplainAttributes() const {
  const std::vector<std::string> left_names = inputs[0]->schema.names();
  std::vector<std::string> names = left_names;
  for (const auto& n : inputs[1]->schema.names()) names.push_back(n);
  std::string lookup;
  for (size_t i = 0; i < right_keys.size(); ++i) {
    if (i) lookup += ", ";
    lookup += inputs[1]->schema.field(static_cast<size_t>(right_keys[i])).name + "=" + left_keys[i]->ToString(&left_names);
  }
  std::string s = "table=[" + table_name + "], joinType=[" + (left_outer ? "LeftOuterJoin" : "InnerJoin") +
                  "], lookup=[" + lookup + "]";
  // As Flink: conditions on the table's columns alone are its where=[...], the rest joinCondition=[...].
  std::vector<ExprPtr> conjuncts;
  if (residual) conjuncts = residual->kind == ExprKind::kAnd ? residual->args : std::vector<ExprPtr>{residual};
  std::vector<std::string> where, join_condition;
  for (const auto& c : conjuncts) {
    std::vector<bool> used(names.size(), false);
    MarkColumns(*c, &used);
    bool right_only = true;
    for (size_t i = 0; i < left_names.size(); ++i) right_only = right_only && !used[i];
    (right_only ? where : join_condition).push_back(c->ToString(&names));
  }
  auto text = [](const std::vector<std::string>& parts) {
    std::string t;
    for (const auto& p : parts) t += (t.empty() ? "" : ", ") + p;
    return parts.size() > 1 ? "AND(" + t + ")" : t;
  };
  if (!where.empty()) s += ", where=[" + text(where) + "]";
  if (!join_condition.empty()) s += ", joinCondition=[" + text(join_condition) + "]";
  std::string select;
  for (const auto& n : schema.names()) select += (select.empty() ? "" : ", ") + n;
  s += ", select=[" + select + "]";
  if (upsert_materialize) s += ", upsertMaterialize=[true]";
  return s;
}

}  // namespace sluice
