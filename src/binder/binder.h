// Binder: turns the parser's syntax tree into typed logical plans and catalog entries.
//
// Name resolution follows Flink: identifiers are case-sensitive; an unqualified column is looked up
// in every relation of the FROM clause (ambiguous names are an error); a.b.c resolves the longest
// prefix that names a column (qualified or not) and reads ROW fields for the rest. Types follow Flink's
// inference (through function/function_registry.h and function/cast.h); implicit casts are inserted
// as kCast nodes. Errors are BindErrors worded as Flink's "SQL validation failed" messages, naming the
// line and column and offering a did-you-mean for unknown names.
//
// Reading a table yields TableSourceScan (physical and metadata columns), a Calc computing the
// computed columns in declared order, and a WatermarkAssigner when the table declares a watermark.
// Views are expanded in place.
//
// Threading: a Binder is used by one thread for one statement; the catalog is read-only meanwhile.
#pragma once

#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "catalog/catalog.h"
#include "common/status.h"
#include "function/expression.h"
#include "plan/plan_node.h"
#include "sql/ast.h"

namespace sluice {

class Configuration;

// The OVER aggregate calls (not ROW_NUMBER) in `e`, outermost first.
void CollectOverAggregates(const ast::Expr& e, std::vector<const ast::Call*>* out);
struct EvalContext;

// One column visible to expressions: its relation's alias (qualifier) and its name.
struct ScopeColumn {
  std::string qualifier;
  std::string name;
  LogicalType type;
};

// A common column of a USING / NATURAL join as one side names it (t.c): the column `index` of the
// scope, a helper column (qualifier "$over", out of *) the join keeps for qualified references.
struct UsingColumn {
  std::string qualifier;
  std::string name;
  size_t index = 0;
};

struct Scope {
  std::vector<ScopeColumn> columns;
  std::vector<UsingColumn> using_columns;
  // A NATURAL join's common columns: ambiguous when not qualified, as in Calcite.
  std::vector<std::string> natural_names;
};

class Binder {
 public:
  // `function_aliases` maps upper-case names declared with CREATE FUNCTION to the built-in they run.
  Binder(const Catalog* catalog, const Configuration* config, EvalContext* eval_context,
         const std::map<std::string, std::string>* function_aliases = nullptr);

  // A query's logical plan; the root's schema names the result columns.
  Result<PlanNodePtr> BindQuery(const ast::Query& query);
  // An INSERT as a SinkNode over the query's plan (with casts to the sink's column types).
  Result<PlanNodePtr> BindInsert(const ast::Insert& insert);

  Result<std::shared_ptr<CatalogTable>> BindCreateTable(std::shared_ptr<const ast::CreateTable> ddl);
  // CREATE TABLE ... AS SELECT (binder/create_table_from.cc): the new table (its schema from the query,
  // merged with the statement's columns as Flink's MergeTableAsUtil merges them) and the INSERT of the
  // query into it, as a SinkNode.
  struct TableAsSelect {
    std::shared_ptr<CatalogTable> table;
    PlanNodePtr sink;
  };
  Result<TableAsSelect> BindCreateTableAs(std::shared_ptr<const ast::CreateTable> ddl);
  Result<std::shared_ptr<CatalogView>> BindCreateView(std::shared_ptr<const ast::CreateView> ddl);

  // Binds a scalar expression over `scope` (no aggregates).
  Result<ExprPtr> BindExpr(const ast::Expr& expr, const Scope& scope);
  Result<ExprPtr> BindExprNode(const ast::Expr& expr, const Scope& scope);  // BindExpr without the SQL text

 private:
  struct Relation {
    PlanNodePtr node;
    Scope scope;
    // Set for a plain SELECT (no aggregation, no DISTINCT) whose node is its projection: the FROM
    // clause's scope, so ORDER BY can sort by columns the SELECT list leaves out (as hidden columns).
    std::shared_ptr<CalcNode> select_calc;
    Scope from_scope;
  };

  // `top`: the statement's own query (not a subquery, CTE, view or set-operation branch).
  Result<Relation> BindQueryBody(const ast::Query& query, bool top = false);
  // ORDER BY / LIMIT / OFFSET over a bound query body: a Sort node chosen as Flink's rules choose.
  // `order_columns`: per ORDER BY item, the column of `body` holding its aggregate (-1: none), the
  // last `hidden` of them extra items of the SELECT list, dropped after the sort.
  Result<Relation> BindOrderLimit(const ast::Query& query, Relation body, bool top,
                                  const std::vector<int>& order_columns = {}, size_t hidden = 0);
  // An aggregating SELECT whose ORDER BY reads aggregates, bound with them as extra SELECT items.
  Result<Relation> BindSelectOrderedByAggregates(const ast::Query& query, bool top);
  Result<PlanNodePtr> MakeSortNode(const ast::Query& query, PlanNodePtr below, const std::vector<SortKey>& keys,
                                   int64_t offset, int64_t fetch);
  Result<Relation> BindSelect(const ast::Select& select);
  // Subqueries (binder/subquery.cc). A SELECT's WHERE (or a JOIN's ON holding subqueries) over
  // `input`: its top-level [NOT] IN (subquery) and [NOT] EXISTS conjuncts become semi/anti joins over
  // the filter of the other conjuncts; in those, scalar subqueries are inner-joined and IN/EXISTS
  // elsewhere (under OR, CASE, ...) become mark joins (binder/subquery_mark.cc), their columns
  // dropped again after the filter.
  Result<Relation> BindWhere(const ast::Expr& where, Relation input);
  Result<Relation> BindSemiAntiJoin(const ast::Query& query, const ast::Expr* operand, bool anti, ast::SourcePos pos,
                                    Relation input);
  // The rows of a subquery whose WHERE may read `outer`'s columns: for a correlated one, its
  // `want_columns` IN columns (one for `x IN`, n for `(x1, ..., xn) IN`, 0 for EXISTS) and the inner
  // columns the correlated conjuncts read; those conjuncts are appended to `correlation` over outer ++
  // the returned relation's columns.
  Result<Relation> BindSubqueryRelation(const ast::Query& query, const Scope& outer, const PlanNodePtr& outer_rows,
                                        size_t want_columns, std::vector<ExprPtr>* correlation);
  // The WHERE of a correlated subquery over its FROM rows `inner`, taken apart as Calcite's
  // decorrelation does (binder/subquery_decorrelate.cc): the conjuncts reading only inner columns filter
  // the rows (those with subqueries of their own through BindWhere). Correlated by equalities
  // `inner_column = outer_column` only, those `inner_keys` (rows with a NULL one filtered) equal
  // `outer`'s `outer_keys`; otherwise the rows are joined with the distinct values of the outer columns
  // the correlation reads (`outer_rows`' columns, Calcite's value generator), appended to `inner` as the
  // `inner_keys`.
  // Outer columns read by the SELECT list, GROUP BY or HAVING (in an aggregate's argument or grouped)
  // take part as Calcite's decorrelation carries them: an equality key's inner column, the others
  // joined from the value generator; outer_in_inner_ then binds them to those inner columns.
  Status DecorrelateWhere(const ast::Select& select, const Scope& outer, const PlanNodePtr& outer_rows, Relation* inner,
                          std::vector<int>* inner_keys, std::vector<int>* outer_keys);
  // The outer columns `select`'s SELECT list, GROUP BY and HAVING read (`inner`: its FROM scope);
  // refused with Calcite's 'is not being grouped' where a grouping SELECT reads one outside an
  // aggregate's argument that its GROUP BY does not.
  Result<std::vector<bool>> OuterColumnsOutsideWhere(const ast::Select& select, const Scope& inner, const Scope& outer);
  // A correlated subquery that groups or is DISTINCT (binder/subquery_decorrelate.cc), its WHERE
  // conjuncts `inner_column = outer_column` taken out and those inner columns added to its GROUP BY (or
  // DISTINCT columns): its `num_items` items, then those columns, equal to `outer`'s `outer_keys`.
  // Another correlation joins its rows with the distinct values of the outer columns it reads
  // (`outer_rows`' columns, JoinCorrelationValues), which then take the inner columns' place.
  Result<Relation> BindGroupedCorrelated(const ast::Query& query, const Scope& outer, const PlanNodePtr& outer_rows,
                                         std::vector<int>* outer_keys, size_t* num_items);
  // BindSubqueryRelation's rows of a correlated subquery that is not a plain SELECT (`refusal`: why
  // binding it uncorrelated failed): BindGroupedCorrelated's, EXISTS reading only the keys.
  Result<Relation> DecorrelateSubqueryRelation(const ast::Query& query, const Scope& outer, const PlanNodePtr& outer_rows,
                                               size_t want_columns, const Status& refusal, std::vector<ExprPtr>* correlation);
  // A correlated reference inside a subquery's set operation, refused with Flink's wording.
  Status CorrelatedSetOperation(const ast::Query& query, ast::SourcePos pos) const;
  // Scalar subqueries (binder/scalar_subquery.cc): the subquery's rows, with the columns it is joined
  // on first (correlated: its inner key columns, equal to `outer_keys` of the outer scope) and its
  // value last.
  struct ScalarSide {
    Relation rel;
    std::vector<int> outer_keys;
    // A correlated aggregate: `rel` is the aggregate (its keys first) and `value` its projection over
    // the aggregate's columns, of which `count_columns` are COUNTs.
    ExprPtr value;
    std::vector<int> count_columns;
    // A correlated SELECT without FROM: its item over the outer row, read while `rel`'s one column (a
    // SINGLE_VALUE(TRUE) of a one-row Values, as Flink plans it) is not NULL.
    ExprPtr outer_value;
  };
  Result<ScalarSide> BindScalarSubquery(const ast::Query& query, const Scope& outer, const PlanNodePtr& outer_rows,
                                        ast::SourcePos pos);
  // A correlated scalar subquery that groups or is DISTINCT: SINGLE_VALUE of BindGroupedCorrelated's
  // item per key (binder/subquery_decorrelate.cc).
  Result<ScalarSide> ValuesItemSide(const ast::Select& select, const Scope& outer, ast::SourcePos pos);
  Result<ScalarSide> GroupedScalarSide(const ast::Query& query, const Scope& outer, const PlanNodePtr& outer_rows,
                                       ast::SourcePos pos);
  Result<PlanNodePtr> CorrelatedSingleValue(const ast::Select& select, const Relation& inner,
                                            const std::vector<int>& inner_keys, ast::SourcePos pos);
  Status CorrelatedAggregate(const ast::Select& select, Relation inner, const std::vector<int>& inner_keys,
                             ast::SourcePos pos, ScalarSide* side);
  // Joins `input` with each scalar subquery (inner join, or LEFT ON TRUE / ON the keys when
  // `left_outer`), appending its columns to the scope (qualifier "$scalar", not part of *) and
  // registering its value column in replacements_.
  Result<Relation> JoinScalarSubqueries(const std::vector<const ast::Expr*>& subqueries, Relation input, bool left_outer);
  Result<PlanNodePtr> NonEmptyMarker(PlanNodePtr rows, ast::SourcePos pos);
  Result<Relation> SortCorrelatedSubquery(const ast::Query& query, Relation inner);
  Status CorrelatedSortError(ast::SourcePos pos) const;
  // IN / EXISTS subqueries under OR, CASE, ... (binder/subquery_mark.cc): `input` LEFT joined with
  // marker rows of each subquery, its predicate registered in replacements_ as a test
  // of the marker columns (qualifier "$subquery", not part of *).
  // `unknown_as_false`: those reached from WHERE's root through AND / OR only.
  Result<Relation> JoinSubqueryMarks(const std::vector<const ast::Expr*>& predicates,
                                     const std::set<const ast::Expr*>& unknown_as_false, Relation input);
  // A marked subquery's rows and the columns its markers are keyed on: `keys` (over `rows`) equal the
  // outer rows' `outer_keys`. Correlated by equalities, the keys are the subquery's columns; otherwise
  // `rows` are joined with the outer columns' distinct values (JoinCorrelationValues), which key them.
  struct MarkSide {
    PlanNodePtr rows;
    std::vector<ExprPtr> keys;
    std::vector<int> outer_keys;
  };
  Result<MarkSide> DecorrelateMarks(const Relation& input, const Relation& right, const std::vector<ExprPtr>& correlation);
  Status MarkKeyEqualities(const MarkSide& side, const PlanNode& left, size_t nl, size_t first, ast::SourcePos pos,
                           std::vector<ExprPtr>* out);
  Status JoinExistsMark(const ast::Expr& p, const MarkSide& side, Relation* input, size_t* counter);
  Status JoinInMark(const ast::Expr& p, const MarkSide& side, bool unknown_as_false, Relation* input, size_t* counter);
  Result<ExprPtr> JoinInCounts(const ast::Expr& p, const MarkSide& side, const ExprPtr& x, const ExprPtr& y,
                               const ExprPtr& found, Relation* input, size_t* counter);
  // Calcite's value generator for a correlation other than `inner = outer` equalities: `inner` (the
  // subquery's rows) INNER joined with the distinct values of the outer rows' columns `outer_cols` on
  // `condition` (over inner's columns, then all of the outer rows' columns). The result has inner's
  // columns, then the values, in `outer_cols` order.
  // Subqueries in an outer join's ON: joined to the right side when they read no left column (as Flink
  // does), else to the left side, their values registered in replacements_ over left ++ right; false
  // when ON has none. Reading both sides is refused.
  Result<bool> JoinOnSubqueriesToSide(const ast::Expr& on, Relation* left, Relation* right);
  // Drops the replacements_ of the subqueries in `e`.
  void ForgetSubqueries(const ast::Expr& e);
  // `rel` without its helper columns (qualifiers "$subquery", "$scalar").
  Result<Relation> DropHelperColumns(Relation rel);
  Result<PlanNodePtr> JoinCorrelationValues(const PlanNodePtr& outer_rows, const std::vector<int>& outer_cols,
                                            const PlanNodePtr& inner, const ExprPtr& condition);
  Result<PlanNodePtr> SubqueryCounts(const PlanNodePtr& rows, size_t num_keys, ast::SourcePos pos);
  // Binds `e` over `inner`; names found only in `outer` read its columns, numbered after inner's.
  Result<ExprPtr> BindCorrelated(const ast::Expr& e, const Scope& inner, const Scope& outer);
  Result<Relation> BindProjection(const ast::Select& select, Relation input);
  Result<PlanNodePtr> JoinAggregateSubqueries(const ast::Select& select, const Scope& from, const CalcNode& pre,
                                              const PlanNodePtr& agg);
  // Set operations (binder/set_operations.cc).
  Result<Relation> BindSetOp(const ast::SetOp& op);
  Result<std::vector<PlanNodePtr>> CastBranchesToCommon(const std::vector<Relation>& inputs, ast::SourcePos pos,
                                                        Schema* out_schema);
  Result<PlanNodePtr> MarkedUnion(const PlanNodePtr& left, const PlanNodePtr& right,
                                  const std::vector<std::vector<ExprPtr>>& markers, const std::vector<std::string>& marker_names);
  Result<PlanNodePtr> PlanIntersectExcept(bool intersect, const PlanNodePtr& left, const PlanNodePtr& right);
  Result<PlanNodePtr> PlanIntersectExceptAll(bool intersect, const PlanNodePtr& left, const PlanNodePtr& right);
  Result<Relation> BindValues(const ast::Values& values);
  Result<Relation> BindTableRef(const ast::TableRef& ref);
  Result<Relation> BindTable(const ast::TableName& ref);
  Result<Relation> BindJoin(const ast::Join& join);
  Result<Relation> BindUnnestJoin(const ast::Join& join);
  Result<ExprPtr> BindJoinCondition(const ast::Join& join, const Relation& left, const Relation& right,
                                    const Scope& combined, JoinType type, const std::vector<std::string>& using_names);
  // A USING / NATURAL join's columns as Calcite shows them: each common column once (COALESCE of
  // both sides) first, then each side's other columns; each side's common column stays readable
  // qualified (binder_from.cc).
  Result<Relation> FinishUsingJoin(const ast::Join& join, Relation joined, size_t nl, const std::vector<std::string>& names);
  // One aggregate call over `input`: its arguments and FILTER become columns of `pre` (a projection of
  // the input, reused when equal); `needs_retract` picks the retracting variant.
  Result<AggregateCall> BindAggregateCall(const ast::Call& call, const Relation& input, CalcNode* pre, bool needs_retract);
  // OVER aggregates of a SELECT (src/binder/over_aggregate.cc): an OverAggregate over `input` whose
  // output columns replace the OVER calls.
  Result<Relation> BindOverAggregates(const ast::Select& select, Relation input);
  // Batch mode (src/binder/batch_over_aggregate.cc): one OverAggregate over a Sort per distinct
  // (PARTITION BY, ORDER BY) of the OVER calls, each call with its own frame.
  Result<Relation> BindBatchOverAggregates(const ast::Select& select, Relation input);
  Result<OverFrame> BindBatchOverFrame(const ast::WindowSpec& w, const std::vector<SortKey>& order, const Schema& schema);
  Result<AggregateCall> BindLeadLag(const ast::Call& call, const std::string& fname, const Relation& input, CalcNode* pre);
  // An OVER window with references to named windows resolved (binder/named_window.cc): each part
  // points into the syntax tree of the window that defines it.
  struct ResolvedWindow {
    ast::SourcePos pos;
    const std::vector<ast::ExprPtr>* partition_by = nullptr;
    const std::vector<ast::OrderItem>* order_by = nullptr;
    const ast::WindowSpec* frame = nullptr;  // frame_unit, frame_start, frame_end
  };
  // The WINDOW clause of the SELECT being bound (checked: unique names, valid references).
  Status SetNamedWindows(const ast::Select& select);
  Result<ResolvedWindow> ResolveWindow(const ast::Call& call) const;
  Result<ResolvedWindow> ResolveWindowSpec(const ast::WindowSpec& spec, int depth) const;
  // The temporal-join part of BindJoin (src/binder/temporal_join.cc): `regular` holds the join keys and
  // residual BindJoin split from the ON condition; `combined` the scope of left ++ right.
  Result<Relation> FinishTemporalJoin(const ast::Join& join, const ast::Expr& as_of, Relation left, Relation right,
                                      const JoinNode& regular, Scope combined);
  // FinishTemporalJoin's steps: a processing-time one (a LookupJoin); the versioned side's event-time
  // attribute and primary key; left-side key expressions computed in a Calc below the join (keys on
  // them, `node`'s condition and residual remapped), returned as the join's probe input.
  Result<Relation> BindLookupTemporalJoin(const ast::Join& join, const std::string& right_name, const Relation& left,
                                          const Relation& right, const JoinNode& regular, Scope combined);
  Result<int> VersionedRowtime(const ast::TableRef& right_ref, const std::string& right_name, const Scope& right) const;
  Status CheckVersionedKey(const ast::Join& join, const std::string& right_name, const std::vector<int>& right_keys,
                           const Schema& right) const;
  Result<PlanNodePtr> KeyOnComputed(const ast::Join& join, const Relation& left, const Relation& right,
                                    const JoinNode& regular, const std::vector<ExprPtr>& computed,
                                    const std::vector<const Expr*>& taken_eqs, std::vector<ExprPtr> residual,
                                    TemporalJoinNode* node);
  Result<Relation> BindUnnest(Relation left, const ast::Unnest& unnest, bool left_outer);
  Status RefuseSeveralUnnested(const ast::Unnest& unnest, const LogicalType& first) const;
  // CREATE TABLE ... LIKE (binder/create_table_from.cc): the statement with the source table's parts
  // merged in by the LIKE options, as Flink's MergeTableLikeUtil merges them.
  Result<std::shared_ptr<ast::CreateTable>> MergeTableLike(const ast::CreateTable& ddl) const;
  // An INSERT's sink over a bound query: `columns` names the target columns (empty: all, in order).
  Result<PlanNodePtr> BindInsertInto(const std::shared_ptr<const CatalogTable>& table, const PlanNodePtr& query,
                                     const std::vector<std::string>& columns, const ast::Insert* insert,
                                     ast::SourcePos pos);
  // MATCH_RECOGNIZE (binder/match_recognize.cc).
  struct MatchBindContext {
    const Scope* input_scope = nullptr;
    std::vector<std::string> variables;
    std::vector<ExprPtr>* derived = nullptr;  // per-row navigation arguments (columns after the input's)
    int define_var = -1;                      // the DEFINE being bound; -1: a MEASURE
    int rowtime_column = -1;
    int time_column = -1;                     // ORDER BY's time attribute
    std::vector<std::string> subsets;         // SUBSET names: variable -2 - i, in MEASURES only
  };
  Result<Relation> BindMatchRecognize(const ast::MatchRecognize& m);
  Result<MatchExpr> BindMatchExpr(const ast::Expr& e, const MatchBindContext& mc);
  Result<int> MatchArgumentColumn(const ast::Expr& inner, int var, const MatchBindContext& mc);
  Status CollectMatchSlots(const ast::Expr& e, const MatchBindContext& mc, MatchExpr* out,
                           std::vector<const ast::Expr*>* replaced);
  // CollectMatchSlots' steps: the slot each kind of expression becomes.
  struct MatchSlotSteps;
  // BindMatchRecognize's steps: the pattern (stages or a program, binder/match_pattern.cc); PARTITION
  // BY and ORDER BY over the input's `scope`; SUBSET, DEFINE and MEASURES (appending the result's
  // columns to `schema`).
  Status BindMatchPattern(const ast::MatchRecognize& m, MatchNode* node) const;
  Status BindMatchOrder(const ast::MatchRecognize& m, const Scope& scope, MatchNode* node);
  Status BindMatchConditions(const ast::MatchRecognize& m, MatchBindContext& mc, MatchNode* node, Schema* schema);
  // FROM TABLE(TUMBLE|HOP|CUMULATE|SESSION(TABLE t, DESCRIPTOR(ts), ...)) (binder/window_tvf.cc).
  Result<Relation> BindWindowTvf(const ast::TableFunctionRef& ref);
  // BindWindowTvf's steps (binder/window_tvf.cc): the call's arguments in their parameter slots, the
  // time attribute column of the table, and the durations into the window's shape.
  struct WindowTvfArgs;
  Result<WindowTvfArgs> WindowTvfArguments(const ast::TableFunctionRef& ref) const;
  Result<int> WindowTimeColumn(const WindowTvfArgs& args, const Schema& input) const;
  Status BindWindowDurations(WindowTvfArgs* args);
  // Legacy GROUP BY TUMBLE/HOP(ts, ...) (binder/window_tvf.cc): when the GROUP BY holds such a call,
  // puts a WindowTableFunction over `input` (its window columns w$start, w$end, w$rowtime/w$proctime
  // appended to the scope) and returns the call; else null.
  Result<const ast::Call*> PrepareGroupWindow(const ast::Select& select, Relation* input);
  // A window aggregation's window_time stays a time attribute (so windows can cascade, as in Flink):
  // when the group keys in `pre` (over `input`) are a window TVF's start, end and time, the time key
  // keeps its *ROWTIME*/*PROCTIME* marker.
  static void KeepWindowTimeAttribute(const PlanNodePtr& input, CalcNode* pre);
  Result<Relation> ScanTable(std::shared_ptr<const CatalogTable> table, const ast::TableName* ref);

  Result<ExprPtr> BindCall(const ast::Call& call, const Scope& scope);
  Result<ExprPtr> BindIdentifier(const ast::Identifier& id, const Scope& scope);
  Result<ExprPtr> BindLiteral(const ast::Literal& lit);
  Result<ExprPtr> BindInterval(const ast::IntervalLiteral& lit);
  Result<ExprPtr> BindCase(const ast::Case& c, const Scope& scope);
  Result<ExprPtr> BindUnary(const ast::Unary& u, const Scope& scope);
  Result<ExprPtr> BindBinary(const ast::Binary& b, const Scope& scope);
  Result<ExprPtr> BindBetween(const ast::Between& b, const Scope& scope);
  Result<ExprPtr> BindIn(const ast::In& in, const Scope& scope);
  Result<ExprPtr> BindLike(const ast::Like& l, const Scope& scope);
  Result<ExprPtr> BindCast(const ast::Cast& c, const Scope& scope);
  Result<ExprPtr> BindTrim(const ast::Trim& t, const Scope& scope);
  Result<ExprPtr> BindConstructor(const ast::Expr& expr, const Scope& scope);
  // Resolves `name` over bound args, inserting implicit casts.
  Result<ExprPtr> MakeFunctionCall(const std::string& name, std::vector<ExprPtr> args, ast::SourcePos pos);
  Result<ExprPtr> CastTo(ExprPtr e, const LogicalType& type, ast::SourcePos pos);
  Result<ExprPtr> CastAllToCommon(std::vector<ExprPtr>* args, ast::SourcePos pos);

  // GROUP BY / aggregate binding: the SELECT list and HAVING are bound over the aggregate's output.
  struct AggContext {
    Scope input;                                    // the FROM clause's columns
    std::vector<std::string> key_digests;           // bound group keys (Expr::ToString over input)
    std::map<const ast::Expr*, int> agg_index;      // aggregate call -> output column
    size_t num_keys = 0;
    std::vector<LogicalType> output_types;          // keys, then aggregates
    // Legacy group window (GROUP BY TUMBLE/HOP(ts, ...)): its name and the output column of its first
    // key (w$start; w$end and w$rowtime/w$proctime follow), -1 when none.
    std::string group_window;
    int group_window_key = -1;
    // GROUPING SETS / ROLLUP / CUBE with more than one set: per set, which keys it keeps (Calcite's
    // order), and its id $e; $e is then the last key (num_keys - 1). Empty for a plain GROUP BY.
    std::vector<std::vector<bool>> grouping_sets;
    std::vector<int64_t> expand_ids;
  };
  Result<Relation> BindAggregate(const ast::Select& select, Relation input);
  // GROUP BY keys and grouping sets (binder/grouping_sets.cc).
  Status BindGroupKeys(const ast::Select& select, const Relation& input, const ast::Call* group_window,
                       AggContext* ctx, CalcNode* pre, std::vector<std::string>* key_names);
  void PrepareGroupingSets(AggContext* ctx);
  PlanNodePtr PlanExpand(const std::shared_ptr<CalcNode>& pre, const AggContext& ctx, std::vector<AggregateCall>* aggs,
                         std::vector<int>* group_keys);
  Result<ExprPtr> BindGroupingCall(const ast::Call& call, const AggContext& ctx);
  // Called first by BindExpr while an AggContext is active: resolves a group key or an aggregate call
  // to an output column; returns null to bind the node structurally.
  Result<ExprPtr> ResolveInAggregate(const ast::Expr& expr);
  // TUMBLE_START(...) and friends over an active legacy group window: the key column they read.
  Result<ExprPtr> ResolveGroupWindowProperty(const ast::Expr& expr, const AggContext& ctx);
  // Plans ROW_NUMBER() OVER (...) select items as Rank nodes under the projection (one per item).
  Result<Relation> BindRowNumber(const ast::Select& select, Relation input, std::vector<int>* rn_items);
  Result<Relation> BindOneRowNumber(const ast::Call* rn_call, Relation input);

  // SINGLE_VALUE($0) over all rows of `input` (binder/scalar_subquery.cc).
  Result<PlanNodePtr> SingleValueAggregate(const PlanNodePtr& input, ast::SourcePos pos, size_t num_keys = 0) const;
  Status Error(ast::SourcePos pos, const std::string& message) const;
  Status NotSupported(ast::SourcePos pos, const std::string& what) const;

  const Catalog* catalog_;
  const std::map<std::string, std::string>* function_aliases_;
  const Configuration* config_;
  EvalContext* eval_context_;
  // Common table expressions in scope, innermost last.
  std::vector<std::map<std::string, const ast::Cte*>> ctes_;
  // Set while binding the right side of a temporal join, which may carry FOR SYSTEM_TIME AS OF.
  bool temporal_right_ = false;
  // The STATE_TTL hint of the SELECT being bound, for its GroupAggregate (-1: none).
  int64_t aggregate_ttl_ms_ = -1;
  // Applies a SELECT's /*+ STATE_TTL('name' = 'duration', ...) */ hints to the joins of its FROM, or to
  // its aggregate when FROM is one table; a name that matches no input is an error, as in Flink.
  Status ApplyStateTtlHints(const ast::Select& select, const Relation& from);
  int view_depth_ = 0;
  // The enclosing query's columns while a subquery is bound: an identifier not found in its scope is
  // looked up here; where the reference is allowed (a correlated WHERE conjunct) it reads column
  // scope.size() + i, elsewhere it is refused as not supported.
  const Scope* outer_scope_ = nullptr;
  bool correlation_allowed_ = false;
  // While a decorrelated subquery's SELECT list, GROUP BY and HAVING are bound (DecorrelateWhere sets
  // it): the inner column each outer column reads (an equality key, or Calcite's value generator
  // column), -1 for none.
  std::vector<int> outer_in_inner_;
  // While a subquery is bound: sets outer_scope_ and correlation_allowed_, and restores them, the
  // enclosing SELECT's aggregate_ttl_ms_ and extra_group_columns_ when it goes out of scope.
  class SubqueryScopeGuard {
   public:
    SubqueryScopeGuard(Binder* binder, const Scope* outer, bool correlation_allowed)
        : binder_(binder),
          outer_(binder->outer_scope_),
          allowed_(binder->correlation_allowed_),
          ttl_ms_(binder->aggregate_ttl_ms_),
          extra_group_columns_(binder->extra_group_columns_),
          outer_in_inner_(std::move(binder->outer_in_inner_)),
          agg_(binder->agg_) {
      binder->outer_in_inner_.clear();
      binder->outer_scope_ = outer;
      binder->correlation_allowed_ = correlation_allowed;
      binder->agg_ = nullptr;  // a subquery of HAVING binds its own query, not the aggregation's
    }
    ~SubqueryScopeGuard() {
      binder_->outer_scope_ = outer_;
      binder_->correlation_allowed_ = allowed_;
      binder_->aggregate_ttl_ms_ = ttl_ms_;
      binder_->extra_group_columns_ = std::move(extra_group_columns_);
      binder_->outer_in_inner_ = std::move(outer_in_inner_);
      binder_->agg_ = agg_;
    }
    SubqueryScopeGuard(const SubqueryScopeGuard&) = delete;
    SubqueryScopeGuard& operator=(const SubqueryScopeGuard&) = delete;

   private:
    Binder* binder_;
    const Scope* outer_;
    bool allowed_;
    int64_t ttl_ms_;
    std::vector<int> extra_group_columns_;
    std::vector<int> outer_in_inner_;
    AggContext* agg_;
  };
  // Input columns BindGroupKeys puts before the GROUP BY keys (a decorrelated scalar subquery's keys).
  std::vector<int> extra_group_columns_;
  AggContext* agg_ = nullptr;
  // The WINDOW clause of the SELECT whose list is being bound, by name.
  std::map<std::string, const ast::NamedWindow*> named_windows_;
  // AST nodes already bound elsewhere (ROW_NUMBER() OVER items -> the rank column).
  std::map<const ast::Expr*, ExprPtr> replacements_;
};

// The scalar subqueries in `e`, outside nested subqueries (binder/scalar_subquery.cc).
void CollectScalarSubqueries(const ast::Expr& e, std::vector<const ast::Expr*>* out);
// The scalar subqueries of a filter `condition`: those a conjunct compares directly (`v > (SELECT ...)`),
// whose NULL rejects the row, to `inner` (an inner join suffices, as Calcite simplifies the LEFT join
// under a strong filter); the others (under OR, IS NULL, ...) to `left`, which need the LEFT join.
void SplitScalarSubqueries(const ast::Expr& condition, std::vector<const ast::Expr*>* inner,
                           std::vector<const ast::Expr*>* left);
// Whether `e` holds an IN/EXISTS subquery anywhere outside nested subqueries (binder/subquery.cc).
bool HasSubqueryPredicate(const ast::Expr& e);
// A plain SELECT ... FROM ... [WHERE] (no GROUP BY, aggregate, DISTINCT, set operation or LIMIT), whose
// WHERE may be correlated (binder/subquery.cc).
bool IsPlainSelect(const ast::Query& q);
// A plain SELECT (as IsPlainSelect) but for ORDER BY (not by ordinal), LIMIT or OFFSET.
bool IsOrderedPlainSelect(const ast::Query& q);
// The IN/EXISTS subquery predicates in `e`, outside nested subqueries (binder/subquery_mark.cc); those
// reached through AND / OR only from `e` (when `positive`) also in `unknown_as_false`.
void CollectSubqueryPredicates(const ast::Expr& e, std::vector<const ast::Expr*>* out,
                               std::set<const ast::Expr*>* unknown_as_false, bool positive);

// A SELECT of aggregates without GROUP BY or HAVING: it returns exactly one row (binder/scalar_subquery.cc).
bool IsSingleRowAggregate(const ast::Query& q);
// Whether `e` holds a scalar, IN or EXISTS subquery outside nested subqueries.
bool HasAnySubquery(const ast::Expr& e);
// Whether binding a subquery failed on a correlated reference (binder_expr.cc's refusal).
bool IsCorrelationRefusal(const Status& status);
// A SELECT ... FROM with GROUP BY, aggregates, HAVING or DISTINCT (and no LIMIT, WITH or WINDOW).
bool IsGroupedSelect(const ast::Query& q);

// Flink's name for an unnamed select item at position i: EXPR$i.
std::string ExprColumnName(size_t index);

}  // namespace sluice
