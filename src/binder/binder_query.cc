// Binding of query bodies (binder.h): set operations, VALUES, WITH, ORDER BY, LIMIT and OFFSET.
#include "binder/binder.h"

#include <algorithm>
#include <cmath>
#include <charconv>
#include <cerrno>
#include <cstdlib>
#include <limits>
#include <set>

#include "binder/binder_util.h"
#include "common/config.h"
#include "common/time_util.h"
#include "function/aggregate/aggregate_function.h"
#include "function/cast.h"
#include "function/evaluator.h"
#include "function/function_registry.h"
#include "function/scalar_function.h"
#include "plan/interval_join_rule.h"
#include "types/value_format.h"
#include "sql/unparser.h"

namespace sluice {

using namespace binder_internal;  // NOLINT: the helpers the binder's files share

namespace {

// Literal rows need a plain constant; this evaluates constant expressions for VALUES.
bool IsPlainLiteral(const Expr& e) { return e.kind == ExprKind::kLiteral; }

}  // namespace

Result<Binder::Relation> Binder::BindValues(const ast::Values& values) {
  Scope empty;
  std::vector<std::vector<ExprPtr>> rows;
  size_t width = values.rows.empty() ? 0 : values.rows[0].size();
  for (const auto& row : values.rows) {
    if (row.size() != width) return Error(values.pos, "Values passed to VALUES operator must have compatible types (rows differ in length)");
    std::vector<ExprPtr> bound;
    for (const auto& e : row) {
      ASSIGN_OR_RETURN(ExprPtr b, BindExpr(*e, empty));
      bound.push_back(b);
    }
    rows.push_back(std::move(bound));
  }
  auto node = std::make_shared<ValuesNode>();
  for (size_t c = 0; c < width; ++c) {
    std::vector<ExprPtr> col;
    for (auto& r : rows) col.push_back(r[c]);
    ASSIGN_OR_RETURN(ExprPtr common, CastAllToCommon(&col, values.pos));
    bool nullable = false;
    for (auto& e : col) nullable |= e->type.nullable();
    for (size_t r = 0; r < rows.size(); ++r) rows[r][c] = col[r];
    LogicalType t = common->type.WithNullable(nullable);
    if (t.id() == TypeId::kNull) t = LogicalType::Null();
    node->schema.Add(ExprColumnName(c), t);
  }
  for (auto& r : rows) {
    std::vector<Value> vals;
    for (size_t c = 0; c < r.size(); ++c) {
      ExprPtr e = r[c];
      Value v;
      if (IsPlainLiteral(*e)) {
        v = e->literal;
      } else {
        if (!e->IsConstant()) return Error(values.pos, "VALUES needs constant expressions");
        auto folded = EvaluateConstant(*e, *eval_context_);
        if (!folded.ok()) return Error(values.pos, folded.status().message());
        v = *folded;
      }
      vals.push_back(v.is_null() ? Value::Null(node->schema.field(c).type) : v.WithType(node->schema.field(c).type));
    }
    node->rows.push_back(std::move(vals));
  }
  Relation out;
  out.node = node;
  for (const auto& f : node->schema.fields()) out.scope.columns.push_back({"", f.name, f.type});
  return out;
}

Result<Binder::Relation> Binder::BindQueryBody(const ast::Query& query, bool top) {
  if (!query.with.empty()) {
    std::map<std::string, const ast::Cte*> level;
    ctes_.push_back({});
    for (const auto& cte : query.with) ctes_.back()[cte.name] = &cte;
  }
  struct Pop {
    Binder* b;
    bool active;
    ~Pop() {
      if (active) b->ctes_.pop_back();
    }
  } pop{this, !query.with.empty()};
  Relation body;
  switch (query.kind) {
    case ast::QueryKind::kSelect: {
      bool order_aggregates = false;
      for (const auto& o : query.order_by) {
        std::vector<const ast::Call*> aggs;
        CollectAggregates(*o.expr, &aggs);
        order_aggregates = order_aggregates || !aggs.empty();
      }
      // Below the top query an ORDER BY without LIMIT or OFFSET orders nothing (BindOrderLimit drops it).
      if (order_aggregates && (top || query.limit || query.offset)) return BindSelectOrderedByAggregates(query, top);
      ASSIGN_OR_RETURN(body, BindSelect(query.As<ast::Select>()));
      break;
    }
    case ast::QueryKind::kSetOp: {
      ASSIGN_OR_RETURN(body, BindSetOp(query.As<ast::SetOp>()));
      break;
    }
    case ast::QueryKind::kValues: {
      ASSIGN_OR_RETURN(body, BindValues(query.As<ast::Values>()));
      break;
    }
  }
  if (!body.node) return Error(query.pos, "unknown query");
  if (query.order_by.empty() && !query.limit && !query.offset) {
    body.select_calc = nullptr;
    return body;
  }
  return BindOrderLimit(query, std::move(body), top);
}

namespace {

// The value of a LIMIT / OFFSET / FETCH operand: a non-negative integer literal, as Flink requires.
Result<int64_t> LimitValue(const ast::Expr& e, const char* clause) {
  if (e.kind == ast::ExprKind::kLiteral) {
    const auto& lit = e.As<ast::Literal>();
    if (lit.literal_kind == ast::LiteralKind::kExactNumeric && !lit.text.empty() &&
        lit.text.find_first_not_of("0123456789") == std::string::npos) {
      errno = 0;
      char* end = nullptr;
      unsigned long long v = std::strtoull(lit.text.c_str(), &end, 10);
      if (errno == 0 && *end == '\0' && v <= static_cast<unsigned long long>(std::numeric_limits<int64_t>::max())) {
        return static_cast<int64_t>(v);
      }
    }
  }
  return Status::InvalidArgument(std::string(clause) + " must be a non-negative integer literal (a BIGINT), e.g. " + clause +
                                 " 10");
}

// A hidden key column is named as Calcite names it: the column it reads, else EXPR$i (unique).
std::string HiddenKeyName(const Schema& schema, const ExprPtr& e, const Scope& scope) {
  std::string name = e->kind == ExprKind::kColumnRef ? scope.columns[static_cast<size_t>(e->column_index)].name
                                                     : ExprColumnName(schema.size());
  std::vector<std::string> names = schema.names();
  names.push_back(name);
  Uniquify(&names);
  return names.back();
}

// Sort keys that are expressions over the output, computed as extra columns on top of `below`.
PlanNodePtr ComputeKeysOnTop(PlanNodePtr below, const std::vector<ExprPtr>& over_output,
                             const std::vector<size_t>& over_output_key, std::vector<SortKey>* keys, const Scope& scope) {
  auto calc = std::make_shared<CalcNode>();
  calc->inputs = {below};
  calc->projections = IdentityProjections(below->schema);
  calc->schema = below->schema;
  for (size_t i = 0; i < over_output.size(); ++i) {
    ExprPtr e = over_output[i];
    if (e->type.time_attribute() != TimeAttribute::kNone) {
      auto copy = std::make_shared<Expr>(*e);
      copy->type = e->type.WithTimeAttribute(TimeAttribute::kNone);
      e = copy;
    }
    (*keys)[over_output_key[i]].column = static_cast<int>(calc->projections.size());
    calc->projections.push_back(e);
    calc->schema.Add(HiddenKeyName(calc->schema, e, scope), e->type);
  }
  return calc;
}

// `below`'s columns without a row.
PlanNodePtr NoRows(const PlanNodePtr& below) {
  auto none = std::make_shared<CalcNode>();
  none->inputs = {below};
  none->projections = IdentityProjections(below->schema);
  none->schema = below->schema;
  none->condition = MakeLiteral(Value::Boolean(false));
  return none;
}

// Drops the hidden sort keys: the first `width` columns of `result`.
PlanNodePtr DropHiddenKeys(PlanNodePtr result, size_t width) {
  auto calc = std::make_shared<CalcNode>();
  calc->inputs = {result};
  for (size_t i = 0; i < width; ++i) {
    calc->projections.push_back(MakeColumnRef(static_cast<int>(i), result->schema.field(i).type));
    calc->schema.Add(result->schema.field(i).name, result->schema.field(i).type);
  }
  return calc;
}

}  // namespace

// Calcite's validator lets ORDER BY of an aggregating SELECT compute aggregates (`GROUP BY k ORDER BY
// SUM(v) DESC`): it sorts by the SELECT item that reads the same expression, or else by an extra item
// of the aggregate's projection, dropped after the sort (Flink's plan: the aggregate computes it, a Calc
// drops it above the SortLimit / Rank / Sort).
Result<Binder::Relation> Binder::BindSelectOrderedByAggregates(const ast::Query& query, bool top) {
  const auto& select = query.As<ast::Select>();
  // The extra items borrow the ORDER BY expressions while the SELECT binds and give them back after:
  // the AST reads as parsed again before this returns (the binder is its only reader meanwhile), and
  // errors in them keep their positions.
  auto& items = const_cast<std::vector<ast::SelectItem>&>(select.items);
  auto& order = const_cast<std::vector<ast::OrderItem>&>(query.order_by);
  const size_t width = items.size();
  std::vector<const ast::Call*> select_aggs;
  for (const auto& item : items) CollectAggregates(*item.expr, &select_aggs);
  if (select.having) CollectAggregates(*select.having, &select_aggs);
  std::vector<int> columns(order.size(), -1);
  std::vector<size_t> borrowed;
  Status st;
  for (size_t i = 0; i < order.size() && st.ok(); ++i) {
    std::vector<const ast::Call*> aggs;
    CollectAggregates(*order[i].expr, &aggs);
    if (aggs.empty()) continue;
    if (select.group_by.empty() && select_aggs.empty()) {
      st = Error(order[i].pos, "Aggregate expression is illegal in ORDER BY clause of non-aggregating SELECT");
      break;
    }
    const std::string text = sql::Unparse(*order[i].expr);
    for (size_t j = 0; j < width && columns[i] < 0; ++j) {
      if (items[j].expr->kind != ast::ExprKind::kStar && sql::Unparse(*items[j].expr) == text) columns[i] = static_cast<int>(j);
    }
    if (columns[i] >= 0) continue;
    if (select.distinct) {
      // With DISTINCT an extra column would change the rows; Calcite refuses it.
      st = Error(order[i].pos, "Expression '" + text + "' is not in the select clause");
      break;
    }
    columns[i] = static_cast<int>(items.size());
    ast::SelectItem item;
    item.pos = order[i].expr->pos;
    item.expr = std::move(order[i].expr);
    items.push_back(std::move(item));
    borrowed.push_back(i);
  }
  Result<Relation> body = st.ok() ? BindSelect(select) : Result<Relation>(st);
  for (size_t k = borrowed.size(); k-- > 0;) {
    order[borrowed[k]].expr = std::move(items.back().expr);
    items.pop_back();
  }
  ASSIGN_OR_RETURN(Relation rel, std::move(body));
  return BindOrderLimit(query, std::move(rel), top, columns, borrowed.size());
}

Result<Binder::Relation> Binder::BindOrderLimit(const ast::Query& query, Relation body, bool top,
                                                const std::vector<int>& order_columns, size_t hidden) {
  int64_t offset = 0;
  int64_t fetch = -1;
  if (query.offset) {
    auto v = LimitValue(*query.offset, "OFFSET");
    if (!v.ok()) return Error(query.offset->pos, v.status().message());
    offset = *v;
  }
  if (query.limit) {
    auto v = LimitValue(*query.limit, "LIMIT");
    if (!v.ok()) return Error(query.limit->pos, v.status().message());
    fetch = *v;
  }
  const size_t width = body.node->schema.size() - hidden;
  body.scope.columns.resize(width);  // hidden aggregates are sorted by place, never by name
  std::shared_ptr<CalcNode> select_calc = body.select_calc;
  body.select_calc = nullptr;
  // Calcite (SqlToRelConverter's removeSortInSubQuery, on in Flink) drops an ORDER BY without LIMIT
  // or a non-zero OFFSET below the top query, since it orders nothing there; OFFSET 0 without LIMIT
  // and ORDER BY is no Sort at all.
  const bool no_slice = fetch < 0 && offset == 0;
  if (no_slice && (query.order_by.empty() || !top)) {
    if (hidden > 0) body.node = DropHiddenKeys(body.node, width);
    return body;
  }
  // Sort keys must be columns. A key is an output column (by alias, name or 1-based ordinal, as
  // Flink's conformance allows), an expression over the output (computed on top), or, for a plain
  // SELECT, an expression over its FROM clause (kept as a hidden column of the projection).
  std::vector<SortKey> keys;
  std::vector<ExprPtr> over_output;
  std::vector<size_t> over_output_key;
  for (size_t oi = 0; oi < query.order_by.size(); ++oi) {
    const ast::OrderItem& o = query.order_by[oi];
    SortKey k;
    k.ascending = !o.descending;
    // Flink sorts NULLs first in ascending order and last in descending order by default.
    k.nulls_first = o.nulls == ast::OrderItem::Nulls::kDefault ? k.ascending : o.nulls == ast::OrderItem::Nulls::kFirst;
    if (o.expr->kind == ast::ExprKind::kLiteral && o.expr->As<ast::Literal>().literal_kind == ast::LiteralKind::kExactNumeric) {
      auto ordinal = LimitValue(*o.expr, "ORDER BY ordinal");
      if (!ordinal.ok() || *ordinal < 1 || *ordinal > static_cast<int64_t>(width)) {
        return Error(o.pos, "Ordinal out of range");
      }
      k.column = static_cast<int>(*ordinal - 1);
      keys.push_back(k);
      continue;
    }
    // An aggregate, computed by an aggregating SELECT (BindSelectOrderedByAggregates); other queries
    // (a set operation, VALUES) cannot compute one.
    k.column = oi < order_columns.size() ? order_columns[oi] : -1;
    std::vector<const ast::Call*> aggs;
    if (k.column < 0) CollectAggregates(*o.expr, &aggs);
    if (!aggs.empty()) return Error(o.pos, "Aggregate expression is illegal in ORDER BY clause of non-aggregating SELECT");
    if (k.column >= 0) {
      keys.push_back(k);
      continue;
    }
    Result<ExprPtr> e = BindExpr(*o.expr, body.scope);
    if (e.ok()) {
      if ((*e)->kind == ExprKind::kColumnRef) {
        k.column = (*e)->column_index;
      } else if ((*e)->IsConstant()) {
        continue;  // a constant orders nothing (Calcite drops it too)
      } else {
        over_output_key.push_back(keys.size());
        over_output.push_back(*e);
      }
      keys.push_back(k);
      continue;
    }
    if (!select_calc) return e.status();
    Result<ExprPtr> f = BindExpr(*o.expr, body.from_scope);
    if (!f.ok()) return IsCorrelationRefusal(f.status()) ? f.status() : e.status();
    if ((*f)->IsConstant()) continue;
    // A hidden column of the SELECT's projection, dropped again after the sort.
    ExprPtr hidden = *f;
    if (hidden->kind != ExprKind::kColumnRef && hidden->type.time_attribute() != TimeAttribute::kNone) {
      auto copy = std::make_shared<Expr>(*hidden);
      copy->type = hidden->type.WithTimeAttribute(TimeAttribute::kNone);
      hidden = copy;
    }
    k.column = static_cast<int>(select_calc->projections.size());
    select_calc->projections.push_back(hidden);
    select_calc->schema.Add(HiddenKeyName(select_calc->schema, hidden, body.from_scope), hidden->type);
    keys.push_back(k);
  }
  if (keys.empty() && no_slice) return body;  // only constant keys: nothing to do
  PlanNodePtr below = body.node;
  if (!over_output.empty()) below = ComputeKeysOnTop(below, over_output, over_output_key, &keys, body.scope);
  Relation out;
  out.scope = body.scope;
  PlanNodePtr result;
  if (fetch == 0) {
    result = NoRows(below);  // LIMIT 0: no row at all (Calcite prunes such a Sort to an empty result)
  } else {
    ASSIGN_OR_RETURN(result, MakeSortNode(query, below, keys, offset, fetch));
  }
  if (result->schema.size() != width) result = DropHiddenKeys(result, width);
  out.node = result;
  return out;
}

// The Sort of ORDER BY / LIMIT / OFFSET over `below`, as the variant Flink's rules would plan, behind
// a single-task exchange.
Result<PlanNodePtr> Binder::MakeSortNode(const ast::Query& query, PlanNodePtr below, const std::vector<SortKey>& keys,
                                         int64_t offset, int64_t fetch) {
  auto sort = std::make_shared<SortNode>();
  sort->order = keys;
  sort->offset = offset;
  sort->fetch = fetch;
  if (config_ && IsBatchRuntimeMode(*config_)) {
    sort->variant = SortNode::Variant::kBatchSort;
  } else if (keys.empty()) {
    sort->variant = SortNode::Variant::kLimit;  // Flink's StreamPhysicalLimitRule
  } else if (query.limit || query.offset) {
    sort->variant = SortNode::Variant::kSortLimit;  // StreamPhysicalSortLimitRule
  } else {
    // StreamPhysicalTemporalSortRule: the first key must be a time attribute, ascending.
    const LogicalType& first = below->schema.field(static_cast<size_t>(keys[0].column)).type;
    const bool temporal = first.time_attribute() != TimeAttribute::kNone && keys[0].ascending;
    if (!temporal && config_ && config_->GetBool("__table.exec.sort.non-temporal.enabled__")) {
      // Flink's StreamExecSort: the whole input, sorted, at its end (as a batch sort).
      sort->variant = SortNode::Variant::kBatchSort;
    } else if (!temporal) {
      const ast::SourcePos& pos = query.order_by[0].pos;
      return Status::PlanError(
          "Sort on a non-time-attribute field is not supported.\nSluice: in streaming mode ORDER BY (line " +
          std::to_string(pos.line) + ", column " + std::to_string(pos.column) +
          ") must start with a time attribute in ascending order (rows leave as the watermark passes them), or "
          "come with a LIMIT (a Top-N over the whole input); to sort a bounded result, SET "
          "'execution.runtime-mode' = 'batch'.");
    } else {
      sort->variant = SortNode::Variant::kTemporalSort;
    }
  }
  // Every sort runs on a single task (Flink's SINGLETON distribution).
  auto ex = std::make_shared<ExchangeNode>();
  ex->inputs = {below};
  ex->schema = below->schema;
  sort->inputs = {ex};
  sort->schema = below->schema;
  return PlanNodePtr(sort);
}

}  // namespace sluice
