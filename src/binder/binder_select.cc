// Binding of SELECT (binder.h): projections, WHERE, GROUP BY aggregates, HAVING and ROW_NUMBER.
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

Result<Binder::Relation> Binder::BindSelect(const ast::Select& select) {
  Relation input;
  if (select.from) {
    ASSIGN_OR_RETURN(input, BindTableRef(*select.from));
  } else {
    auto values = std::make_shared<ValuesNode>();
    values->rows.push_back({});
    input.node = values;
  }
  // Named windows are visible in this SELECT's list only (set after FROM, whose subqueries have theirs).
  RETURN_IF_ERROR(SetNamedWindows(select));
  aggregate_ttl_ms_ = -1;
  RETURN_IF_ERROR(ApplyStateTtlHints(select, input));
  if (select.where) {
    std::vector<const ast::Call*> aggs;
    CollectAggregates(*select.where, &aggs);
    if (!aggs.empty()) return Error(aggs[0]->pos, "Aggregate functions are not allowed in WHERE; use HAVING");
    ASSIGN_OR_RETURN(input, BindWhere(*select.where, std::move(input)));
  }
  std::vector<const ast::Call*> aggs;
  for (const auto& item : select.items) CollectAggregates(*item.expr, &aggs);
  if (select.having) CollectAggregates(*select.having, &aggs);
  Relation out;
  if (!select.group_by.empty() || !aggs.empty()) {
    ASSIGN_OR_RETURN(out, BindAggregate(select, std::move(input)));
  } else {
    ASSIGN_OR_RETURN(out, BindProjection(select, std::move(input)));
  }
  if (select.distinct) {
    out.select_calc = nullptr;
    // SELECT DISTINCT is a GROUP BY every column without aggregates.
    auto agg = MakeDistinctAggregate(out.node, aggregate_ttl_ms_);
    out.node = agg;
    out.scope.columns.clear();
    for (const auto& f : agg->schema.fields()) out.scope.columns.push_back({"", f.name, f.type});
  }
  return out;
}

// The SELECT list of a SELECT without aggregates, over `input`: ROW_NUMBER() and OVER aggregates
// first, then a Calc of the items (* expanded) with unique names.
Result<Binder::Relation> Binder::BindProjection(const ast::Select& select, Relation input) {
  // What the list registers (its ROW_NUMBER, OVER and subquery columns) is dropped again at the end;
  // what an enclosing query registered stays.
  const std::map<const ast::Expr*, ExprPtr> replacements = replacements_;
  Relation out;
  if (select.having) return Error(select.having->pos, "HAVING requires GROUP BY or an aggregate function");
  std::vector<int> rn_items;
  bool has_rn = false;
  for (const auto& item : select.items) has_rn |= IsRowNumberOver(*item.expr);
  if (has_rn) {
    ASSIGN_OR_RETURN(input, BindRowNumber(select, std::move(input), &rn_items));
  }
  std::vector<const ast::Expr*> scalars;
  for (const auto& item : select.items) CollectScalarSubqueries(*item.expr, &scalars);
  if (!scalars.empty()) {
    ASSIGN_OR_RETURN(input, JoinScalarSubqueries(scalars, std::move(input), /*left_outer=*/true));
  }
  // IN / EXISTS in the list: three-valued, LEFT joined with marker rows (binder/subquery_mark.cc).
  std::vector<const ast::Expr*> marks;
  std::set<const ast::Expr*> unknown_as_false;
  for (const auto& item : select.items) CollectSubqueryPredicates(*item.expr, &marks, &unknown_as_false, /*positive=*/false);
  if (!marks.empty()) {
    ASSIGN_OR_RETURN(input, JoinSubqueryMarks(marks, unknown_as_false, std::move(input)));
  }
  std::vector<const ast::Call*> over_calls;
  for (const auto& item : select.items) CollectOverAggregates(*item.expr, &over_calls);
  if (!over_calls.empty()) {
    // Batch mode numbers the rows first (a Rank per ranking item), then runs the OVER aggregates.
    if (has_rn && !(config_ && IsBatchRuntimeMode(*config_))) {
      return NotSupported(over_calls[0]->pos, "OVER aggregates next to ROW_NUMBER() in one SELECT");
    }
    ASSIGN_OR_RETURN(input, BindOverAggregates(select, std::move(input)));
  }
  auto calc = std::make_shared<CalcNode>();
  calc->inputs = {input.node};
  std::vector<std::string> names;
  std::vector<ExprPtr> exprs;
  for (size_t i = 0; i < select.items.size(); ++i) {
    const auto& item = select.items[i];
    if (item.expr->kind == ast::ExprKind::kStar) {
      const auto& star = item.expr->As<ast::Star>();
      bool any = false;
      for (size_t c = 0; c < input.scope.columns.size(); ++c) {
        const auto& col = input.scope.columns[c];
        if (col.qualifier == "$rank" || col.qualifier == "$over" || col.qualifier == "$scalar" || col.qualifier == "$subquery") {
          continue;  // helper columns are not part of *
        }
        if (!star.qualifier.empty() && col.qualifier != star.qualifier.back()) continue;
        exprs.push_back(MakeColumnRef(static_cast<int>(c), col.type));
        names.push_back(col.name);
        any = true;
      }
      if (!any && !star.qualifier.empty()) return Error(item.pos, "Unknown table '" + JoinName(star.qualifier) + "'");
      continue;
    }
    ASSIGN_OR_RETURN(ExprPtr e, BindExpr(*item.expr, input.scope));
    // Time attributes survive only plain references (Flink materializes them otherwise), and
    // PROCTIME() in a SELECT list declares a processing-time attribute, as in Flink.
    const bool proctime_call = e->kind == ExprKind::kCall && e->function && e->function->name == "PROCTIME";
    if (e->kind != ExprKind::kColumnRef && !proctime_call && e->type.time_attribute() != TimeAttribute::kNone) {
      auto copy = std::make_shared<Expr>(*e);
      copy->type = e->type.WithTimeAttribute(TimeAttribute::kNone);
      e = copy;
    }
    exprs.push_back(e);
    names.push_back(item.alias.empty() ? ImplicitName(*item.expr, i) : item.alias);
  }
  replacements_ = replacements;
  Uniquify(&names);
  calc->projections = exprs;
  for (size_t i = 0; i < exprs.size(); ++i) calc->schema.Add(names[i], exprs[i]->type);
  out.node = calc;
  for (const auto& f : calc->schema.fields()) out.scope.columns.push_back({"", f.name, f.type});
  out.select_calc = calc;
  out.from_scope = input.scope;
  return out;
}

Result<ExprPtr> Binder::ResolveInAggregate(const ast::Expr& expr) {
  AggContext* ctx = agg_;
  if (IsAggregateCall(expr)) {
    auto it = ctx->agg_index.find(&expr);
    if (it == ctx->agg_index.end()) return Error(expr.pos, "aggregate call was not collected");
    return MakeColumnRef(it->second, ctx->output_types[static_cast<size_t>(it->second)]);
  }
  if (expr.kind == ast::ExprKind::kCall && !expr.As<ast::Call>().over) {
    const std::string name = Upper(expr.As<ast::Call>().name.back());
    if (name == "GROUPING" || name == "GROUPING_ID") {
      agg_ = nullptr;
      Result<ExprPtr> g = BindGroupingCall(expr.As<ast::Call>(), *ctx);
      agg_ = ctx;
      return g;
    }
  }
  if (ctx->group_window_key >= 0) {
    ASSIGN_OR_RETURN(ExprPtr property, ResolveGroupWindowProperty(expr, *ctx));
    if (property) return property;
  }
  std::vector<const ast::Call*> inner;
  CollectAggregates(expr, &inner);
  if (!inner.empty()) return ExprPtr();  // bind structurally; the aggregates inside resolve on their own
  if (expr.kind == ast::ExprKind::kLiteral || expr.kind == ast::ExprKind::kIntervalLiteral ||
      expr.kind == ast::ExprKind::kTimeUnit) {
    return ExprPtr();
  }
  // Does the expression (over the FROM clause) equal a group key?
  agg_ = nullptr;
  Result<ExprPtr> over_input = BindExpr(expr, ctx->input);
  agg_ = ctx;
  if (over_input.ok()) {
    std::string digest = (*over_input)->ToString();
    for (size_t k = 0; k < ctx->key_digests.size(); ++k) {
      if (ctx->key_digests[k] == digest) return MakeColumnRef(static_cast<int>(k), ctx->output_types[k]);
    }
    if ((*over_input)->IsConstant()) return ExprPtr();
  }
  if (expr.kind == ast::ExprKind::kIdentifier || expr.kind == ast::ExprKind::kFieldAccess) {
    if (!over_input.ok()) return over_input.status();
    std::vector<std::string> names;
    for (const auto& c : ctx->input.columns) names.push_back(c.name);
    return Error(expr.pos, "Expression '" + (*over_input)->ToString(&names) + "' is not being grouped");
  }
  return ExprPtr();
}

Result<Binder::Relation> Binder::BindAggregate(const ast::Select& select, Relation input) {
  AggContext ctx;
  ASSIGN_OR_RETURN(const ast::Call* group_window, PrepareGroupWindow(select, &input));
  ctx.input = input.scope;
  // The projection below the aggregate: group keys, then each aggregate's arguments and filter.
  auto pre = std::make_shared<CalcNode>();
  pre->inputs = {input.node};
  std::vector<std::string> key_names;
  RETURN_IF_ERROR(BindGroupKeys(select, input, group_window, &ctx, pre.get(), &key_names));
  KeepWindowTimeAttribute(input.node, pre.get());
  ctx.num_keys = pre->projections.size();
  for (size_t i = 0; i < ctx.num_keys; ++i) ctx.output_types.push_back(pre->schema.field(i).type);
  PrepareGroupingSets(&ctx);
  std::vector<const ast::Call*> calls;
  std::vector<std::string> call_aliases;
  for (const auto& item : select.items) {
    size_t before = calls.size();
    CollectAggregates(*item.expr, &calls);
    for (size_t i = before; i < calls.size(); ++i) {
      call_aliases.push_back(calls.size() == before + 1 && item.expr.get() == calls[i] && !item.alias.empty() ? item.alias : "");
    }
  }
  if (select.having) {
    size_t before = calls.size();
    CollectAggregates(*select.having, &calls);
    for (size_t i = before; i < calls.size(); ++i) call_aliases.push_back("");
  }
  auto agg = std::make_shared<GroupAggregateNode>();
  agg->state_ttl_ms = aggregate_ttl_ms_;
  for (size_t ci = 0; ci < calls.size(); ++ci) {
    const ast::Call& call = *calls[ci];
    ASSIGN_OR_RETURN(AggregateCall ac, BindAggregateCall(call, input, pre.get(), false));
    ac.output_name = call_aliases[ci].empty() ? "EXPR$" + std::to_string(ctx.num_keys + ci) : call_aliases[ci];
    ctx.agg_index[&call] = static_cast<int>(ctx.num_keys + ci);
    ctx.output_types.push_back(AggregateOutputType(ac, IsGlobalAggregation(select.group_by)));
    agg->aggs.push_back(std::move(ac));
  }
  auto ex = std::make_shared<ExchangeNode>();
  ex->inputs = {pre};
  for (size_t i = 0; i < ctx.num_keys; ++i) ex->keys.push_back(static_cast<int>(i));
  if (!ctx.grouping_sets.empty()) {
    ex->inputs = {PlanExpand(pre, ctx, &agg->aggs, &ex->keys)};
    key_names.push_back("$e");
  }
  ex->schema = ex->inputs[0]->schema;
  agg->inputs = {ex};
  agg->group_keys = ex->keys;
  for (size_t i = 0; i < ctx.num_keys; ++i) agg->schema.Add(key_names[i], ctx.output_types[i]);
  std::vector<std::string> names = agg->schema.names();
  for (const auto& a : agg->aggs) names.push_back(a.output_name);
  Uniquify(&names);
  for (size_t i = 0; i < agg->aggs.size(); ++i) {
    agg->aggs[i].output_name = names[ctx.num_keys + i];
    agg->schema.Add(names[ctx.num_keys + i], ctx.output_types[ctx.num_keys + i]);
  }
  // SELECT list and HAVING over the aggregate's output (joined with their subqueries' rows).
  Scope none;
  agg_ = &ctx;
  std::map<const ast::Expr*, ExprPtr> replacements = replacements_;
  Result<PlanNodePtr> rows = JoinAggregateSubqueries(select, input.scope, *pre, agg);
  if (!rows.ok()) {
    agg_ = nullptr;
    replacements_ = std::move(replacements);
    return rows.status();
  }
  auto calc = std::make_shared<CalcNode>();
  calc->inputs = {*rows};
  std::vector<std::string> out_names;
  Status st;
  for (size_t i = 0; i < select.items.size() && st.ok(); ++i) {
    const auto& item = select.items[i];
    if (item.expr->kind == ast::ExprKind::kStar) {
      st = Error(item.pos, "'*' cannot be used with GROUP BY or aggregates");
      break;
    }
    Result<ExprPtr> e = BindExpr(*item.expr, none);
    if (!e.ok()) {
      st = e.status();
      break;
    }
    calc->projections.push_back(*e);
    out_names.push_back(item.alias.empty() ? ImplicitName(*item.expr, i) : item.alias);
  }
  if (st.ok() && select.having) {
    Result<ExprPtr> h = BindExpr(*select.having, none);
    if (!h.ok()) st = h.status();
    else if ((*h)->type.id() != TypeId::kBoolean) st = Error(select.having->pos, "HAVING must be a BOOLEAN expression");
    else calc->condition = *h;
  }
  agg_ = nullptr;
  replacements_ = std::move(replacements);  // the subqueries' values are bound
  RETURN_IF_ERROR(st);
  Uniquify(&out_names);
  for (size_t i = 0; i < out_names.size(); ++i) calc->schema.Add(out_names[i], calc->projections[i]->type);
  Relation out;
  out.node = calc;
  for (const auto& f : calc->schema.fields()) out.scope.columns.push_back({"", f.name, f.type});
  return out;
}

// The subqueries of an aggregation's SELECT list and HAVING, as Flink's subquery removal plans a filter
// and a projection over the aggregate: joins appended to the aggregate's rows `agg` (whose columns keep
// their places), scalar ones inner joined where HAVING compares them (as in WHERE) and LEFT joined
// elsewhere, IN / EXISTS with marker rows. A correlated reference reads a group key by its FROM name (`from`, projected by `pre`).
Result<PlanNodePtr> Binder::JoinAggregateSubqueries(const ast::Select& select, const Scope& from, const CalcNode& pre,
                                                    const PlanNodePtr& agg) {
  std::vector<const ast::Expr*> having_scalars, item_scalars, marks;
  std::set<const ast::Expr*> unknown_as_false;
  if (select.having) {
    SplitScalarSubqueries(*select.having, &having_scalars, &item_scalars);
    CollectSubqueryPredicates(*select.having, &marks, &unknown_as_false, /*positive=*/true);
  }
  for (const auto& item : select.items) {
    CollectScalarSubqueries(*item.expr, &item_scalars);
    CollectSubqueryPredicates(*item.expr, &marks, &unknown_as_false, /*positive=*/false);
  }
  if (having_scalars.empty() && item_scalars.empty() && marks.empty()) return agg;
  Relation rows;
  rows.node = agg;
  for (size_t i = 0; i < agg->schema.size(); ++i) {
    const auto& f = agg->schema.field(i);
    const Expr* key = i < agg_->num_keys ? pre.projections[i].get() : nullptr;
    if (key && key->kind == ExprKind::kColumnRef) {
      const auto& c = from.columns[static_cast<size_t>(key->column_index)];
      rows.scope.columns.push_back({c.qualifier, c.name, f.type});
    } else {
      rows.scope.columns.push_back({"$agg", f.name, f.type});
    }
  }
  if (!having_scalars.empty()) {
    ASSIGN_OR_RETURN(rows, JoinScalarSubqueries(having_scalars, std::move(rows), /*left_outer=*/false));
  }
  if (!item_scalars.empty()) {
    ASSIGN_OR_RETURN(rows, JoinScalarSubqueries(item_scalars, std::move(rows), /*left_outer=*/true));
  }
  if (!marks.empty()) {
    ASSIGN_OR_RETURN(rows, JoinSubqueryMarks(marks, unknown_as_false, std::move(rows)));
  }
  return rows.node;
}

Result<AggregateCall> Binder::BindAggregateCall(const ast::Call& call, const Relation& input, CalcNode* pre,
                                                bool needs_retract) {
  std::string name = Upper(call.name.back());
  AggregateCall ac;
  ac.name = name;
  ac.distinct = call.distinct;
  std::vector<LogicalType> arg_types;
  std::vector<const Value*> constants;
  std::vector<ExprPtr> bound_args;
  for (const auto& a : call.args) {
    ASSIGN_OR_RETURN(ExprPtr b, BindExpr(*a, input.scope));
    bound_args.push_back(b);
  }
  // Literal trailing arguments (LISTAGG's separator) stay constants; others are input columns.
  for (size_t i = 0; i < bound_args.size(); ++i) {
    const ExprPtr& b = bound_args[i];
    arg_types.push_back(b->type.WithTimeAttribute(TimeAttribute::kNone));
    bool constant = i > 0 && b->kind == ExprKind::kLiteral;
    constants.push_back(constant ? &b->literal : nullptr);
    if (constant) {
      ac.constant_args.push_back(b->literal);
    } else {
      // Reuse a column already projected for this argument (a key or an earlier aggregate's).
      int existing = -1;
      for (size_t p = 0; p < pre->projections.size(); ++p) {
        if (pre->projections[p]->ToString() == b->ToString()) existing = static_cast<int>(p);
      }
      if (existing >= 0) {
        ac.args.push_back(existing);
        continue;
      }
      ac.args.push_back(static_cast<int>(pre->projections.size()));
      pre->projections.push_back(b);
      std::string an = b->kind == ExprKind::kColumnRef ? input.scope.columns[static_cast<size_t>(b->column_index)].name
                                                       : "$f" + std::to_string(pre->schema.size());
      if (pre->schema.IndexOf(an)) an = "$f" + std::to_string(pre->schema.size());
      pre->schema.Add(an, arg_types.back());
    }
  }
  if (call.filter) {
    ASSIGN_OR_RETURN(ExprPtr f, BindExpr(*call.filter, input.scope));
    if (f->type.id() != TypeId::kBoolean) return Error(call.filter->pos, "FILTER condition must be BOOLEAN");
    ac.filter = static_cast<int>(pre->projections.size());
    pre->projections.push_back(f);
    pre->schema.Add("$f" + std::to_string(pre->schema.size()), f->type);
  }
  auto fn = ResolveAggregate(name, arg_types, constants, needs_retract);
  if (!fn.ok()) return Error(call.pos, fn.status().message());
  ac.arg_types = arg_types;
  for (const Value* c : constants) ac.arg_constants.push_back(c ? std::optional<Value>(*c) : std::nullopt);
  ac.function = *fn;
  return ac;
}

// Several ranking items become a chain of Ranks, each numbering every row of the one below (only the
// top one can be bounded by a Top-N filter: streaming mode refuses the unbounded ones, batch mode
// numbers every row, plan/optimizer.cc).
Result<Binder::Relation> Binder::BindRowNumber(const ast::Select& select, Relation input, std::vector<int>* rn_items) {
  for (size_t i = 0; i < select.items.size(); ++i) {
    if (!IsRowNumberOver(*select.items[i].expr)) continue;
    rn_items->push_back(static_cast<int>(i));
    ASSIGN_OR_RETURN(input, BindOneRowNumber(&select.items[i].expr->As<ast::Call>(), std::move(input)));
  }
  return input;
}

// One ranking item: a Rank over `input` whose last column is its number.
Result<Binder::Relation> Binder::BindOneRowNumber(const ast::Call* rn_call, Relation input) {
  ASSIGN_OR_RETURN(const ResolvedWindow rw, ResolveWindow(*rn_call));  // OVER (...) or a named window
  const ast::WindowSpec& w = *rw.frame;
  if (w.frame_unit != ast::WindowSpec::FrameUnit::kNone) {
    // Calcite's validator (both modes).
    return Error(w.pos, "ROW/RANGE not allowed with RANK, DENSE_RANK or ROW_NUMBER functions");
  }
  // Partition and order keys must be columns; computed ones are projected first.
  auto pre = std::make_shared<CalcNode>();
  pre->inputs = {input.node};
  pre->projections = IdentityProjections(input.node->schema);
  pre->schema = input.node->schema;
  auto column_of = [&](const ast::Expr& e) -> Result<int> {
    ASSIGN_OR_RETURN(ExprPtr b, BindExpr(e, input.scope));
    if (b->kind == ExprKind::kColumnRef) return b->column_index;
    pre->projections.push_back(b);
    pre->schema.Add("$f" + std::to_string(pre->schema.size()), b->type);
    return static_cast<int>(pre->projections.size() - 1);
  };
  auto rank = std::make_shared<RankNode>();
  for (const auto& p : *rw.partition_by) {
    ASSIGN_OR_RETURN(int c, column_of(*p));
    rank->partition_keys.push_back(c);
  }
  if (rw.order_by->empty()) return Error(rw.pos, "ROW_NUMBER() OVER needs an ORDER BY");
  for (const auto& o : *rw.order_by) {
    ASSIGN_OR_RETURN(int c, column_of(*o.expr));
    SortKey k;
    k.column = c;
    k.ascending = !o.descending;
    // Flink sorts NULLs first in ascending order and last in descending order by default.
    k.nulls_first = o.nulls == ast::OrderItem::Nulls::kDefault ? k.ascending : o.nulls == ast::OrderItem::Nulls::kFirst;
    rank->order.push_back(k);
  }
  rank->rank_function = Upper(rn_call->name.back());
  PlanNodePtr below = input.node;
  if (pre->projections.size() != input.node->schema.size()) below = pre;
  auto ex = std::make_shared<ExchangeNode>();
  ex->inputs = {below};
  ex->schema = below->schema;
  ex->keys = rank->partition_keys;
  rank->inputs = {ex};
  rank->schema = below->schema;
  // One name per Rank of a chain ($rn, $rn0, ...).
  std::string rn_name = "$rn";
  for (int n = 0; rank->schema.IndexOf(rn_name); ++n) rn_name = "$rn" + std::to_string(n);
  rank->schema.Add(rn_name, LogicalType::BigInt().WithNullable(false));
  Relation out;
  out.node = rank;
  out.scope = input.scope;
  for (size_t i = input.scope.columns.size(); i < below->schema.size(); ++i) {
    out.scope.columns.push_back({"$rank", below->schema.field(i).name, below->schema.field(i).type});
  }
  out.scope.columns.push_back({"$rank", rn_name, LogicalType::BigInt().WithNullable(false)});
  replacements_[rn_call] = MakeColumnRef(static_cast<int>(rank->schema.size() - 1), LogicalType::BigInt().WithNullable(false));
  return out;
}

}  // namespace sluice
