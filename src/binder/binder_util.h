// Small helpers the binder's files share (binder*.cc): names, special expressions, projections and
// walks over the syntax tree. Private to src/binder.
#pragma once

#include <string>
#include <vector>

#include "binder/binder.h"

namespace sluice::binder_internal {

std::string Upper(std::string s);
std::string JoinName(const ast::Name& n);
ExprPtr MakeSpecial(ExprKind kind, LogicalType type, std::vector<ExprPtr> args);
bool AnyNullable(const std::vector<ExprPtr>& args);

// The type of an aggregate call's result column with Flink's (Calcite's) nullability: COUNT and $SUM0
// are NOT NULL, LISTAGG is as nullable as its argument, and SUM, AVG, MIN, MAX, FIRST_VALUE,
// LAST_VALUE and the variance family (AGG_SUM, ARG0_NULLABLE_IF_EMPTY) are NOT NULL over a NOT NULL
// argument unless the call has a FILTER or its group may be empty (`may_be_empty`: a global
// aggregation, GROUP BY (), a bounded OVER frame). Checked against Flink 2.2.1's resolved schemas.
LogicalType AggregateOutputType(const AggregateCall& call, bool may_be_empty);

// Whether a GROUP BY leaves a global aggregation as Calcite counts it: no grouping element other than
// `()` (GROUPING SETS, ROLLUP and CUBE count as grouped even when they hold `()`).
bool IsGlobalAggregation(const std::vector<ast::GroupingElement>& group_by);

// Identity projections over a node's output.
std::vector<ExprPtr> IdentityProjections(const Schema& schema);

// A name for a select item written without an alias: the column or field name it reads, else EXPR$i.
std::string ImplicitName(const ast::Expr& e, size_t index);

// Makes output names unique as Flink does (a, a0, a1, ...).
void Uniquify(std::vector<std::string>* names);

// Calls `fn` on every direct sub-expression of `e` (not into subqueries).
template <typename Fn>
void ForEachChild(const ast::Expr& e, Fn&& fn) {
  using K = ast::ExprKind;
  auto one = [&](const ast::ExprPtr& p) {
    if (p) fn(*p);
  };
  switch (e.kind) {
    case K::kUnary: one(e.As<ast::Unary>().operand); break;
    case K::kBinary: one(e.As<ast::Binary>().left); one(e.As<ast::Binary>().right); break;
    case K::kIs: one(e.As<ast::IsExpr>().operand); break;
    case K::kIsDistinctFrom: one(e.As<ast::IsDistinctFrom>().left); one(e.As<ast::IsDistinctFrom>().right); break;
    case K::kBetween: one(e.As<ast::Between>().operand); one(e.As<ast::Between>().low); one(e.As<ast::Between>().high); break;
    case K::kIn: one(e.As<ast::In>().operand); for (const auto& x : e.As<ast::In>().list) one(x); break;
    case K::kLike: one(e.As<ast::Like>().operand); one(e.As<ast::Like>().pattern); one(e.As<ast::Like>().escape); break;
    case K::kCall: for (const auto& x : e.As<ast::Call>().args) one(x); one(e.As<ast::Call>().filter); break;
    case K::kCast: one(e.As<ast::Cast>().operand); break;
    case K::kCase:
      one(e.As<ast::Case>().operand);
      for (const auto& [w, t] : e.As<ast::Case>().when_then) { one(w); one(t); }
      one(e.As<ast::Case>().else_expr);
      break;
    case K::kExtract: one(e.As<ast::Extract>().operand); break;
    case K::kFloorCeil: one(e.As<ast::FloorCeil>().operand); break;
    case K::kTrim: one(e.As<ast::Trim>().chars); one(e.As<ast::Trim>().operand); break;
    case K::kArrayCtor: for (const auto& x : e.As<ast::ArrayCtor>().elements) one(x); break;
    case K::kMapCtor: for (const auto& x : e.As<ast::MapCtor>().elements) one(x); break;
    case K::kRowCtor: for (const auto& x : e.As<ast::RowCtor>().fields) one(x); break;
    case K::kSubscript: one(e.As<ast::Subscript>().base); one(e.As<ast::Subscript>().index); break;
    case K::kFieldAccess: one(e.As<ast::FieldAccess>().base); break;
    default: break;
  }
}

// Splits a join condition over left ++ right (`nl` left columns) into equi-key pairs (left column =
// right column), appended to the node's keys, and a residual, returned as its conjuncts.
std::vector<ExprPtr> SplitEquiKeys(const ExprPtr& cond, size_t nl, JoinNode* node);

// SELECT DISTINCT and UNION: an Exchange and a GroupAggregate over every column of `input`, without
// aggregate calls (binder/set_operations.cc); `state_ttl_ms` -1: 'table.exec.state.ttl'.
PlanNodePtr MakeDistinctAggregate(const PlanNodePtr& input, int64_t state_ttl_ms);

bool IsAggregateCall(const ast::Expr& e);
void CollectAggregates(const ast::Expr& e, std::vector<const ast::Call*>* out);
bool IsRowNumberOver(const ast::Expr& e);

}  // namespace sluice::binder_internal
