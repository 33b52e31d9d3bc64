// Binding of temporal joins: `l JOIN v FOR SYSTEM_TIME AS OF l.rowtime [AS a] ON l.k = a.k` and LEFT
// JOIN on event time, and on processing time (`AS OF l.proctime`: a LookupJoin against a bounded
// table, plan_node.h). BindJoin binds both sides and splits the ON condition; this checks what Flink checks
// (the AS OF operand is the left side's event-time attribute, the versioned side has a rowtime
// attribute, the equi-condition covers its primary key) with Flink's messages, and builds the
// TemporalJoinNode. An equality between a versioned column and an expression over the left side
// keys the join on that expression, computed in a Calc below the join as Flink does. A versioned
// view's key (a rowtime keep-last deduplication) is checked after optimization, in trait inference,
// where the Deduplicate is known.
#include "binder/binder.h"

#include <algorithm>

#include "function/scalar_function.h"
#include "plan/optimizer.h"

namespace sluice {

namespace {

// Whether `e` reads only columns below `limit` (the left side of left ++ right) and at least one.
bool ReadsOnlyLeft(const Expr& e, int limit, bool* any) {
  if (e.kind == ExprKind::kColumnRef) {
    *any = true;
    return e.column_index < limit;
  }
  for (const auto& a : e.args) {
    if (a && !ReadsOnlyLeft(*a, limit, any)) return false;
  }
  return true;
}

ExprPtr AndOf(std::vector<ExprPtr> args) {
  auto e = std::make_shared<Expr>();
  e->kind = ExprKind::kAnd;
  e->type = LogicalType::Boolean();
  e->args = std::move(args);
  return e;
}

// An ON conjunct `versioned column = expression over the left side`: a join key on that expression.
struct KeyEquality {
  ExprPtr key;             // the left-side expression (cast to the column's type when needed)
  int right_column;        // the versioned side's column
  const Expr* conjunct;
};

// Splits `residual` (over left ++ right, `nl` left columns) into key equalities and the other
// conjuncts. Integer keys of different widths compare through a TRY_CAST to the versioned column's
// type; other types must match (ignoring nullability), or both be strings when `strings_compare`.
void SplitKeyEqualities(const ExprPtr& residual, int nl, bool strings_compare, std::vector<KeyEquality>* keys,
                        std::vector<ExprPtr>* rest) {
  std::vector<ExprPtr> conjuncts;
  if (residual) {
    if (residual->kind == ExprKind::kAnd) conjuncts = residual->args;
    else conjuncts = {residual};
  }
  for (const auto& c : conjuncts) {
    bool taken = false;
    if (c->kind == ExprKind::kCall && c->function && c->function->name == "=" && c->args.size() == 2) {
      for (int side = 0; side < 2 && !taken; ++side) {
        const ExprPtr& r = c->args[static_cast<size_t>(side)];
        const ExprPtr& l = c->args[static_cast<size_t>(1 - side)];
        bool any = false;
        if (r->kind != ExprKind::kColumnRef || r->column_index < nl || !ReadsOnlyLeft(*l, nl, &any) || !any) continue;
        const LogicalType& rt = r->type;
        ExprPtr key = l;
        if (!l->type.EqualsIgnoringNullability(rt) && !(strings_compare && l->type.IsStringLike() && rt.IsStringLike())) {
          if (!l->type.IsIntegral() || !rt.IsIntegral()) continue;
          key = MakeCast(l, rt.WithNullable(true), /*is_try=*/true);
        }
        keys->push_back({key, r->column_index - nl, c.get()});
        taken = true;
      }
    }
    if (!taken) rest->push_back(c);
  }
}

// The join's output without the computed key columns (`ne` after the `nl` left columns).
PlanNodePtr DropComputedKeys(const PlanNodePtr& join, size_t ncolumns, size_t nl, size_t ne) {
  auto post = std::make_shared<CalcNode>();
  post->inputs = {join};
  for (size_t i = 0; i < ncolumns; ++i) {
    const size_t from = i < nl ? i : i + ne;
    const Field& f = join->schema.field(from);
    post->projections.push_back(MakeColumnRef(static_cast<int>(from), f.type));
    post->schema.Add(f.name, f.type);
  }
  return post;
}

}  // namespace

Result<Binder::Relation> Binder::BindLookupTemporalJoin(const ast::Join& join, const std::string& right_name,
                                                        const Relation& left, const Relation& right, const JoinNode& regular,
                                                        Scope combined) {
  // A processing-time temporal join: Flink's LookupJoin against a bounded table held in memory. The
  // lookup keys are the ON equalities between a column of the table and an expression over the left
  // side (Flink computes such an expression in a Calc below the join; Sluice evaluates it in the
  // join); integer keys of different widths compare through a TRY_CAST to the table column's type.
  // Everything else in ON stays a residual condition.
  const ast::TableRef& right_ref = *join.right;
  const auto& right_table = right_ref.As<ast::TableName>();
  auto path = catalog_->Resolve(right_table.name);
  std::shared_ptr<const CatalogTable> table = path.ok() ? catalog_->FindTable(*path) : nullptr;
  if (table == nullptr) {
    return NotSupported(right_ref.pos, "A processing-time temporal join against the view '" + right_name +
                                           "' (Sluice looks up tables only: join a table declared with CREATE TABLE)");
  }
  const int nl = static_cast<int>(left.node->schema.size());
  auto node = std::make_shared<LookupJoinNode>();
  node->left_outer = regular.join_type == JoinType::kLeft;
  node->table_name = path->FullName();
  for (size_t i = 0; i < regular.left_keys.size(); ++i) {
    const int l = regular.left_keys[i];
    node->left_keys.push_back(MakeColumnRef(l, left.node->schema.field(static_cast<size_t>(l)).type));
    node->right_keys.push_back(regular.right_keys[i]);
  }
  std::vector<KeyEquality> keys;
  std::vector<ExprPtr> residual;
  SplitKeyEqualities(regular.residual, nl, /*strings_compare=*/false, &keys, &residual);
  for (const KeyEquality& k : keys) {
    node->left_keys.push_back(k.key);
    node->right_keys.push_back(k.right_column);
  }
  if (node->left_keys.empty()) {
    return Error(join.pos, "Temporal table join requires an equality condition on fields of table [" + node->table_name + "].");
  }
  if (residual.size() == 1) node->residual = residual[0];
  else if (residual.size() > 1) node->residual = AndOf(std::move(residual));
  node->inputs = {left.node, right.node};
  for (size_t i = 0; i < combined.columns.size(); ++i) node->schema.Add(regular.schema.field(i).name, combined.columns[i].type);
  Relation out;
  out.node = node;
  out.scope = std::move(combined);
  return out;
}

Result<int> Binder::VersionedRowtime(const ast::TableRef& right_ref, const std::string& right_name, const Scope& right) const {
  int right_time = -1;
  for (size_t i = 0; i < right.columns.size(); ++i) {
    if (right.columns[i].type.time_attribute() != TimeAttribute::kRowtime) continue;
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
  return right_time;
}

Status Binder::CheckVersionedKey(const ast::Join& join, const std::string& right_name, const std::vector<int>& right_keys,
                                 const Schema& right) const {
  // A catalog table must declare its primary key, and the join must cover it.
  const ast::TableRef& right_ref = *join.right;
  const auto& right_table = right_ref.As<ast::TableName>();
  auto path = catalog_->Resolve(right_table.name);
  std::shared_ptr<const CatalogTable> table = path.ok() ? catalog_->FindTable(*path) : nullptr;
  if (table == nullptr) return Status::OK();
  if (table->primary_key.empty()) {
    return Error(right_ref.pos, "Temporal Table Join requires primary key in versioned table, but no primary key can "
                                "be found. (declare PRIMARY KEY (...) NOT ENFORCED on '" + right_name + "')");
  }
  for (const auto& pk : table->primary_key) {
    bool covered = false;
    for (int k : right_keys) covered |= right.field(static_cast<size_t>(k)).name == pk;
    if (!covered) {
      std::string keys;
      for (const auto& k : table->primary_key) keys += (keys.empty() ? "" : ", ") + k;
      return Error(join.pos, "Temporal table's primary key [" + keys +
                                 "] must be included in the equivalence condition of temporal join");
    }
  }
  return Status::OK();
}

Result<PlanNodePtr> Binder::KeyOnComputed(const ast::Join& join, const Relation& left, const Relation& right,
                                          const JoinNode& regular, const std::vector<ExprPtr>& computed,
                                          const std::vector<const Expr*>& taken_eqs, std::vector<ExprPtr> residual,
                                          TemporalJoinNode* node) {
  const int nl = static_cast<int>(left.scope.columns.size());
  const int ne = static_cast<int>(computed.size());
  auto pre = std::make_shared<CalcNode>();
  pre->inputs = {left.node};
  for (int i = 0; i < nl; ++i) {
    const Field& f = left.node->schema.field(static_cast<size_t>(i));
    pre->projections.push_back(MakeColumnRef(i, f.type));
    pre->schema.Add(f.name, f.type);
  }
  for (const auto& e : computed) {
    pre->projections.push_back(e);
    pre->schema.Add("$f" + std::to_string(pre->schema.size()), e->type);
  }
  // The conditions now read left ++ computed ++ right: the versioned side's columns move up by `ne`,
  // and each expression equality becomes an equality with its computed column.
  std::vector<int> mapping;
  for (int i = 0; i < nl + static_cast<int>(right.scope.columns.size()); ++i) mapping.push_back(i < nl ? i : i + ne);
  std::vector<ExprPtr> conds;
  std::vector<ExprPtr> all;
  if (regular.condition->kind == ExprKind::kAnd) all = regular.condition->args;
  else all = {regular.condition};
  for (const auto& c : all) {
    auto it = std::find(taken_eqs.begin(), taken_eqs.end(), c.get());
    if (it == taken_eqs.end()) {
      conds.push_back(RemapColumns(c, mapping));
      continue;
    }
    const size_t i = static_cast<size_t>(it - taken_eqs.begin());
    const int lcol = nl + static_cast<int>(i);
    const int rcol = nl + ne + node->right_keys[regular.right_keys.size() + i];
    const LogicalType& rtype = right.node->schema.field(static_cast<size_t>(rcol - nl - ne)).type;
    ASSIGN_OR_RETURN(ExprPtr eq,
                     MakeFunctionCall("=", {MakeColumnRef(lcol, computed[i]->type), MakeColumnRef(rcol, rtype)}, join.pos));
    conds.push_back(eq);
  }
  node->condition = conds.size() == 1 ? conds[0] : AndOf(std::move(conds));
  for (auto& r : residual) r = RemapColumns(r, mapping);
  node->residual = residual.empty() ? nullptr : residual.size() == 1 ? residual[0] : AndOf(std::move(residual));
  return PlanNodePtr(pre);
}

Result<Binder::Relation> Binder::FinishTemporalJoin(const ast::Join& join, const ast::Expr& as_of, Relation left,
                                                    Relation right, const JoinNode& regular, Scope combined) {
  const ast::TableRef& right_ref = *join.right;
  std::string right_name;
  for (const auto& part : right_ref.As<ast::TableName>().name) right_name += (right_name.empty() ? "" : ".") + part;
  if (regular.join_type != JoinType::kInner && regular.join_type != JoinType::kLeft) {
    return Error(join.pos, "Temporal table join currently only supports INNER JOIN and LEFT JOIN");
  }
  ASSIGN_OR_RETURN(ExprPtr time, BindExpr(as_of, left.scope));
  if (time->kind != ExprKind::kColumnRef || !time->type.IsTimestamp()) {
    return Error(as_of.pos, "Temporal table join only supports FOR SYSTEM_TIME AS OF a time attribute column of the left table");
  }
  if (time->type.time_attribute() == TimeAttribute::kProctime) {
    return BindLookupTemporalJoin(join, right_name, left, right, regular, std::move(combined));
  }
  if (time->type.time_attribute() != TimeAttribute::kRowtime) {
    return Error(as_of.pos, "FOR SYSTEM_TIME AS OF must name an event-time attribute of the left table (a column with a "
                            "WATERMARK), but '" + left.scope.columns[static_cast<size_t>(time->column_index)].name +
                                "' is a regular TIMESTAMP");
  }
  ASSIGN_OR_RETURN(int right_time, VersionedRowtime(right_ref, right_name, right.scope));
  // Equalities between a column of the versioned side and an expression over the left side (e.g.
  // `p.k = SUBSTRING(l.k, 1, 2)`) are join keys too: as Flink does, the expression is computed in a
  // Calc below the join (a new left column `$fN`), the join is keyed on that column, and a Calc above
  // the join projects it away again.
  const int nl = static_cast<int>(left.scope.columns.size());
  std::vector<int> left_keys = regular.left_keys;
  std::vector<int> right_keys = regular.right_keys;
  std::vector<KeyEquality> equalities;
  std::vector<ExprPtr> residual;
  SplitKeyEqualities(regular.residual, nl, /*strings_compare=*/true, &equalities, &residual);
  std::vector<ExprPtr> computed;       // the left-side key expressions, appended to the left row
  std::vector<const Expr*> taken_eqs;  // their conjuncts, replaced in the condition
  for (const KeyEquality& k : equalities) {
    left_keys.push_back(nl + static_cast<int>(computed.size()));
    right_keys.push_back(k.right_column);
    computed.push_back(k.key);
    taken_eqs.push_back(k.conjunct);
  }
  if (left_keys.empty()) {
    return Error(join.pos, "Temporal table join requires an equality condition on fields of table [" + right_name + "].");
  }
  RETURN_IF_ERROR(CheckVersionedKey(join, right_name, right_keys, right.node->schema));
  auto node = std::make_shared<TemporalJoinNode>();
  node->left_outer = regular.join_type == JoinType::kLeft;
  node->left_keys = left_keys;
  node->right_keys = right_keys;
  node->left_time = time->column_index;
  node->right_time = right_time;
  node->condition = regular.condition;
  node->residual = regular.residual;
  node->right_name = right_name;
  PlanNodePtr probe = left.node;
  const int ne = static_cast<int>(computed.size());
  if (ne > 0) {
    ASSIGN_OR_RETURN(probe, KeyOnComputed(join, left, right, regular, computed, taken_eqs, std::move(residual), node.get()));
  }
  auto lx = std::make_shared<ExchangeNode>();
  lx->inputs = {probe};
  lx->schema = probe->schema;
  lx->keys = node->left_keys;
  auto rx = std::make_shared<ExchangeNode>();
  rx->inputs = {right.node};
  rx->schema = right.node->schema;
  rx->keys = node->right_keys;
  node->inputs = {lx, rx};
  // The right side's time attribute becomes a plain timestamp; the left side's stays.
  combined.columns[static_cast<size_t>(nl + right_time)].type =
      combined.columns[static_cast<size_t>(nl + right_time)].type.WithTimeAttribute(TimeAttribute::kNone);
  for (size_t i = 0; i < combined.columns.size(); ++i) {
    if (i == static_cast<size_t>(nl)) {
      for (int e = 0; e < ne; ++e) {
        node->schema.Add(probe->schema.field(static_cast<size_t>(nl + e)).name, computed[static_cast<size_t>(e)]->type);
      }
    }
    node->schema.Add(regular.schema.field(i).name, combined.columns[i].type);
  }
  Relation out;
  out.node = node;
  // Project the computed key columns away again.
  if (ne > 0) out.node = DropComputedKeys(node, combined.columns.size(), static_cast<size_t>(nl), static_cast<size_t>(ne));
  out.scope = std::move(combined);
  return out;
}

}  // namespace sluice
