// Binding of event-time temporal joins: `l JOIN v FOR SYSTEM_TIME AS OF l.rowtime [AS a] ON l.k = a.k`
// and LEFT JOIN. BindJoin binds both sides and splits the ON condition; this checks what Flink checks
// (the AS OF operand is the left side's event-time attribute, the versioned side has a rowtime
// attribute, the equi-condition covers its primary key) with Flink's messages, and builds the
// TemporalJoinNode. A versioned view's key (a rowtime keep-last deduplication) is checked after
// optimization, in trait inference, where the Deduplicate is known.
#include "binder/binder.h"

namespace sluice {

Result<Binder::Relation> Binder::FinishTemporalJoin(const ast::Join& join, const ast::Expr& as_of, Relation left,
                                                    Relation right, const JoinNode& regular, Scope combined) {
  const ast::TableRef& right_ref = *join.right;
  const auto& right_table = right_ref.As<ast::TableName>();
  std::string right_name;
  for (const auto& part : right_table.name) right_name += (right_name.empty() ? "" : ".") + part;
  if (regular.join_type != JoinType::kInner && regular.join_type != JoinType::kLeft) {
    return Error(join.pos, "Temporal table join currently only supports INNER JOIN and LEFT JOIN");
  }
  ASSIGN_OR_RETURN(ExprPtr time, BindExpr(as_of, left.scope));
  if (time->kind != ExprKind::kColumnRef || !time->type.IsTimestamp()) {
    return Error(as_of.pos, "Temporal table join only supports FOR SYSTEM_TIME AS OF a time attribute column of the left table");
  }
  if (time->type.time_attribute() == TimeAttribute::kProctime) {
    return NotSupported(as_of.pos, "A processing-time temporal join (FOR SYSTEM_TIME AS OF a PROCTIME() attribute)");
  }
  if (time->type.time_attribute() != TimeAttribute::kRowtime) {
    return Error(as_of.pos, "FOR SYSTEM_TIME AS OF must name an event-time attribute of the left table (a column with a "
                            "WATERMARK), but '" + left.scope.columns[static_cast<size_t>(time->column_index)].name +
                                "' is a regular TIMESTAMP");
  }
  int right_time = -1;
  for (size_t i = 0; i < right.scope.columns.size(); ++i) {
    if (right.scope.columns[i].type.time_attribute() != TimeAttribute::kRowtime) continue;
    if (right_time >= 0) {
      return Error(right_ref.pos, "The versioned table '" + right_name + "' has several event-time attributes");
    }
    right_time = static_cast<int>(i);
  }
  if (right_time < 0) {
    return Error(right_ref.pos, "Event-Time Temporal Table Join requires both primary key and row time attribute in "
                                "versioned table, but no row time attribute can be found. ('" + right_name +
                                    "' needs a WATERMARK, or must be a view that keeps one)");
  }
  if (regular.left_keys.empty()) {
    return Error(join.pos, "Temporal table join requires an equality condition on fields of table [" + right_name + "].");
  }
  // A catalog table must declare its primary key, and the join must cover it.
  auto path = ResolvePath(right_table.name);
  std::shared_ptr<const CatalogTable> table = path.ok() ? catalog_->FindTable(*path) : nullptr;
  if (table != nullptr) {
    if (table->primary_key.empty()) {
      return Error(right_ref.pos, "Event-Time Temporal Table Join requires both primary key and row time attribute in "
                                  "versioned table, but no primary key can be found. (declare PRIMARY KEY (...) NOT "
                                  "ENFORCED on '" + right_name + "')");
    }
    for (const auto& pk : table->primary_key) {
      bool covered = false;
      for (int k : regular.right_keys) covered |= right.node->schema.field(static_cast<size_t>(k)).name == pk;
      if (!covered) {
        std::string keys;
        for (const auto& k : table->primary_key) keys += (keys.empty() ? "" : ", ") + k;
        return Error(join.pos, "Temporal table's primary key [" + keys +
                                   "] must be included in the equivalence condition of temporal join");
      }
    }
  }
  auto node = std::make_shared<TemporalJoinNode>();
  node->left_outer = regular.join_type == JoinType::kLeft;
  node->left_keys = regular.left_keys;
  node->right_keys = regular.right_keys;
  node->left_time = time->column_index;
  node->right_time = right_time;
  node->condition = regular.condition;
  node->residual = regular.residual;
  node->right_name = right_name;
  auto lx = std::make_shared<ExchangeNode>();
  lx->inputs = {left.node};
  lx->schema = left.node->schema;
  lx->keys = node->left_keys;
  auto rx = std::make_shared<ExchangeNode>();
  rx->inputs = {right.node};
  rx->schema = right.node->schema;
  rx->keys = node->right_keys;
  node->inputs = {lx, rx};
  // The right side's time attribute becomes a plain timestamp; the left side's stays.
  const size_t nl = left.scope.columns.size();
  combined.columns[nl + static_cast<size_t>(right_time)].type =
      combined.columns[nl + static_cast<size_t>(right_time)].type.WithTimeAttribute(TimeAttribute::kNone);
  for (size_t i = 0; i < combined.columns.size(); ++i) {
    node->schema.Add(regular.schema.field(i).name, combined.columns[i].type);
  }
  Relation out;
  out.node = node;
  out.scope = std::move(combined);
  return out;
}

}  // namespace sluice
