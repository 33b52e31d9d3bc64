// Binding of expressions (binder.h): calls, identifiers, CASE and every other expression node.
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
#include "plan/optimizer.h"
#include "types/value_format.h"
#include "sql/unparser.h"

namespace sluice {

using namespace binder_internal;  // NOLINT: the helpers the binder's files share

// ---------------------------------------------------------------------------------------------
// Expressions

Result<ExprPtr> Binder::CastTo(ExprPtr e, const LogicalType& type, ast::SourcePos pos) {
  if (e->type.EqualsIgnoringNullability(type) && e->type.time_attribute() == TimeAttribute::kNone) return e;
  if (e->type.EqualsIgnoringNullability(type)) {
    // Same type but a time attribute: keep the reference (time attributes survive plain references).
    return e;
  }
  if (!CanCast(e->type, type, /*implicit=*/true) && !CanCast(e->type, type, false)) {
    return Error(pos, "Cannot cast " + e->type.ToString() + " to " + type.ToString());
  }
  if (e->kind == ExprKind::kLiteral && e->literal.is_null()) {
    return MakeLiteral(Value::Null(type.WithNullable(true)));
  }
  return MakeCast(e, type.WithNullable(e->type.nullable()), false);
}

Result<ExprPtr> Binder::MakeFunctionCall(const std::string& name, std::vector<ExprPtr> args, ast::SourcePos pos) {
  std::vector<LogicalType> types;
  std::vector<const Value*> constants;
  for (const auto& a : args) {
    types.push_back(a->type);
    constants.push_back(a->kind == ExprKind::kLiteral ? &a->literal : nullptr);
  }
  auto resolved = ResolveScalar(name, types, constants);
  if (!resolved.ok()) return Error(pos, resolved.status().message());
  std::shared_ptr<const ScalarFunction> fn = resolved->function;
  for (size_t i = 0; i < args.size() && i < fn->arg_types.size(); ++i) {
    if (!args[i]->type.EqualsIgnoringNullability(fn->arg_types[i])) {
      if (args[i]->kind == ExprKind::kLiteral && args[i]->literal.is_null()) {
        args[i] = MakeLiteral(Value::Null(fn->arg_types[i].WithNullable(true)));
      } else {
        args[i] = MakeCast(args[i], fn->arg_types[i].WithNullable(args[i]->type.nullable()), false);
      }
    }
  }
  return MakeCall(fn, std::move(args));
}

Result<ExprPtr> Binder::CastAllToCommon(std::vector<ExprPtr>* args, ast::SourcePos pos) {
  std::vector<LogicalType> types;
  for (const auto& a : *args) types.push_back(a->type);
  auto common = CommonType(types);
  if (!common.ok()) return Error(pos, common.status().message());
  for (auto& a : *args) {
    ASSIGN_OR_RETURN(a, CastTo(a, *common, pos));
  }
  return MakeLiteral(Value::Null(*common));  // carries the common type back to the caller
}


Result<ExprPtr> Binder::BindIdentifier(const ast::Identifier& id, const Scope& scope) {
  const auto& parts = id.parts;
  // Try qualifier.column first (when there are 2+ parts), then an unqualified column.
  int found = -1;
  size_t consumed = 0;
  if (parts.size() >= 2) {
    for (size_t i = 0; i < scope.columns.size(); ++i) {
      if (scope.columns[i].qualifier == parts[0] && scope.columns[i].name == parts[1]) {
        found = static_cast<int>(i);
        consumed = 2;
        break;
      }
    }
  }
  if (found < 0 && parts.size() >= 2) {
    // A USING / NATURAL join's common column as one side names it.
    for (const auto& u : scope.using_columns) {
      if (u.qualifier == parts[0] && u.name == parts[1]) {
        found = static_cast<int>(u.index);
        consumed = 2;
        break;
      }
    }
  }
  if (found < 0) {
    if (std::find(scope.natural_names.begin(), scope.natural_names.end(), parts[0]) != scope.natural_names.end()) {
      return Error(id.pos, "Column '" + parts[0] + "' is ambiguous");
    }
    int matches = 0;
    for (size_t i = 0; i < scope.columns.size(); ++i) {
      // A value generator's columns (qualifier $cor) are read as the outer columns they carry.
      if (scope.columns[i].name == parts[0] && scope.columns[i].qualifier != "$cor") {
        if (matches == 0) found = static_cast<int>(i);
        ++matches;
      }
    }
    if (matches > 1) return Error(id.pos, "Column '" + parts[0] + "' is ambiguous");
    consumed = 1;
  }
  if (found < 0 && outer_scope_) {
    // A subquery's reference to its enclosing query (a correlation).
    const Scope* outer = outer_scope_;
    const bool allowed = correlation_allowed_;
    outer_scope_ = nullptr;
    auto bound = BindIdentifier(id, *outer);
    outer_scope_ = outer;
    if (bound.ok()) {
      if (!allowed && !outer_in_inner_.empty()) {
        // A decorrelated subquery's SELECT list, GROUP BY or HAVING: the inner column carrying it.
        std::vector<bool> used(outer->columns.size(), false);
        CollectColumns(**bound, &used);
        bool carried = true;
        for (size_t i = 0; i < used.size(); ++i) carried = carried && (!used[i] || outer_in_inner_[i] >= 0);
        if (carried) return RemapColumns(*bound, outer_in_inner_);
      }
      if (!allowed) return NotSupported(id.pos, "A correlated reference outside the WHERE of a plain SELECT subquery");
      std::vector<int> shift(outer->columns.size());
      for (size_t i = 0; i < shift.size(); ++i) shift[i] = static_cast<int>(scope.columns.size() + i);
      return RemapColumns(*bound, shift);
    }
  }
  if (found < 0) {
    std::vector<std::string> names;
    for (const auto& c : scope.columns) names.push_back(c.name);
    std::string msg;
    if (parts.size() >= 2) {
      bool qualifier_known = false;
      for (const auto& c : scope.columns) qualifier_known |= c.qualifier == parts[0];
      if (qualifier_known) {
        msg = "Column '" + parts[1] + "' not found in table '" + parts[0] + "'";
        if (auto d = DidYouMean(parts[1], names)) msg += ". Did you mean '" + *d + "'?";
        return Error(id.pos, msg);
      }
    }
    msg = "Column '" + parts[0] + "' not found in any table";
    if (auto d = DidYouMean(parts[0], names)) msg += ". Did you mean '" + *d + "'?";
    return Error(id.pos, msg);
  }
  ExprPtr e = MakeColumnRef(found, scope.columns[static_cast<size_t>(found)].type);
  for (size_t i = consumed; i < parts.size(); ++i) {
    const LogicalType& t = e->type;
    if (t.id() != TypeId::kRow) {
      return Error(id.pos, "'" + parts[i - 1] + "' is of type " + t.ToString() + " and has no field '" + parts[i] + "'");
    }
    int idx = -1;
    for (size_t f = 0; f < t.num_children(); ++f) {
      if (t.field_name(f) == parts[i]) idx = static_cast<int>(f);
    }
    if (idx < 0) {
      std::string msg = "Unknown field '" + parts[i] + "' in " + t.ToString();
      if (auto d = DidYouMean(parts[i], t.field_names())) msg += ". Did you mean '" + *d + "'?";
      return Error(id.pos, msg);
    }
    ASSIGN_OR_RETURN(e, MakeFunctionCall("$FIELD", {e, MakeLiteral(Value::Int(LogicalType::Integer().WithNullable(false), idx))}, id.pos));
  }
  return e;
}

Result<ExprPtr> Binder::BindCase(const ast::Case& c, const Scope& scope) {
  std::vector<ExprPtr> conds, results;
  ExprPtr operand;
  if (c.operand) {
    ASSIGN_OR_RETURN(operand, BindExpr(*c.operand, scope));
  }
  for (const auto& [w, t] : c.when_then) {
    ASSIGN_OR_RETURN(ExprPtr wb, BindExpr(*w, scope));
    if (operand) {
      ASSIGN_OR_RETURN(wb, MakeFunctionCall("=", {operand, wb}, w->pos));
    } else if (wb->type.id() != TypeId::kBoolean && wb->type.id() != TypeId::kNull) {
      return Error(w->pos, "WHEN condition must be BOOLEAN, but is " + wb->type.ToString());
    }
    conds.push_back(wb);
    ASSIGN_OR_RETURN(ExprPtr tb, BindExpr(*t, scope));
    results.push_back(tb);
  }
  bool has_else = c.else_expr != nullptr;
  if (has_else) {
    ASSIGN_OR_RETURN(ExprPtr eb, BindExpr(*c.else_expr, scope));
    results.push_back(eb);
  }
  ASSIGN_OR_RETURN(ExprPtr common, CastAllToCommon(&results, c.pos));
  LogicalType type = common->type.WithNullable(!has_else || AnyNullable(results));
  std::vector<ExprPtr> args;
  for (size_t i = 0; i < conds.size(); ++i) {
    args.push_back(conds[i]);
    args.push_back(results[i]);
  }
  if (has_else) args.push_back(results.back());
  auto e = std::make_shared<Expr>();
  e->kind = ExprKind::kCase;
  e->type = type;
  e->args = std::move(args);
  e->has_else = has_else;
  return ExprPtr(e);
}

Result<ExprPtr> Binder::BindCall(const ast::Call& call, const Scope& scope) {
  std::string name = Upper(call.name.back());
  if (function_aliases_) {
    auto alias = function_aliases_->find(name);
    if (alias != function_aliases_->end()) name = alias->second;
  }
  if (call.over && name == "ROW_NUMBER") {
    return Error(call.pos, "ROW_NUMBER() OVER (...) must be a SELECT item of a subquery whose outer query filters it (Top-N: WHERE rn <= N)");
  }
  if (call.over || !call.over_window.empty()) {
    return Error(call.pos, "OVER aggregation (" + name + " ... OVER) is allowed only in the SELECT list of a query without GROUP BY");
  }
  if (IsAggregateFunction(name) || call.star || call.distinct || call.filter) {
    return Error(call.pos, "Aggregate function " + name + " is not allowed here (only in a SELECT list or HAVING of a query)");
  }
  std::vector<ExprPtr> args;
  for (const auto& a : call.args) {
    if (a->kind == ast::ExprKind::kTimeUnit) {
      args.push_back(MakeLiteral(Value::Typed(LogicalType::VarChar(16).WithNullable(false), ast::TimeUnitName(a->As<ast::TimeUnitExpr>().unit))));
      continue;
    }
    ASSIGN_OR_RETURN(ExprPtr b, BindExpr(*a, scope));
    args.push_back(b);
  }
  if (name == "COALESCE") {
    if (args.empty()) return Error(call.pos, "COALESCE needs at least one argument");
    ASSIGN_OR_RETURN(ExprPtr common, CastAllToCommon(&args, call.pos));
    bool nullable = true;
    for (const auto& a : args) nullable &= a->type.nullable();
    return MakeSpecial(ExprKind::kCoalesce, common->type.WithNullable(nullable), std::move(args));
  }
  if (name == "IF") {
    if (args.size() != 3) return Error(call.pos, "IF takes 3 arguments: IF(condition, then, else)");
    std::vector<ExprPtr> results = {args[1], args[2]};
    ASSIGN_OR_RETURN(ExprPtr common, CastAllToCommon(&results, call.pos));
    auto e = std::make_shared<Expr>();
    e->kind = ExprKind::kCase;
    e->type = common->type.WithNullable(AnyNullable(results));
    e->args = {args[0], results[0], results[1]};
    e->has_else = true;
    return ExprPtr(e);
  }
  if (name == "NULLIF") {
    if (args.size() != 2) return Error(call.pos, "NULLIF takes 2 arguments");
    ASSIGN_OR_RETURN(ExprPtr eq, MakeFunctionCall("=", {args[0], args[1]}, call.pos));
    auto e = std::make_shared<Expr>();
    e->kind = ExprKind::kCase;
    e->type = args[0]->type.WithNullable(true);
    e->args = {eq, MakeLiteral(Value::Null(args[0]->type.WithNullable(true))), args[0]};
    e->has_else = true;
    return ExprPtr(e);
  }
  return MakeFunctionCall(name, std::move(args), call.pos);
}

Result<ExprPtr> Binder::BindExpr(const ast::Expr& expr, const Scope& scope) {
  ASSIGN_OR_RETURN(ExprPtr e, BindExprNode(expr, scope));
  // A call or cast that can fail at runtime keeps its SQL text, which its errors name.
  const bool can_fail = (e->kind == ExprKind::kCall && e->function && e->function->can_fail) ||
                        (e->kind == ExprKind::kCast && !e->is_try);
  if (!can_fail || !e->sql_text.empty()) return e;
  auto named = std::make_shared<Expr>(*e);
  named->sql_text = sql::Unparse(expr);
  return ExprPtr(std::move(named));
}

Result<ExprPtr> Binder::BindExprNode(const ast::Expr& expr, const Scope& scope) {
  auto rep = replacements_.find(&expr);
  if (rep != replacements_.end()) return rep->second;
  if (agg_) {
    ASSIGN_OR_RETURN(ExprPtr resolved, ResolveInAggregate(expr));
    if (resolved) return resolved;
  }
  switch (expr.kind) {
    case ast::ExprKind::kLiteral: return BindLiteral(expr.As<ast::Literal>());
    case ast::ExprKind::kIntervalLiteral: return BindInterval(expr.As<ast::IntervalLiteral>());
    case ast::ExprKind::kIdentifier: return BindIdentifier(expr.As<ast::Identifier>(), scope);
    case ast::ExprKind::kStar: return Error(expr.pos, "'*' is only allowed in a SELECT list or COUNT(*)");
    case ast::ExprKind::kUnary: return BindUnary(expr.As<ast::Unary>(), scope);
    case ast::ExprKind::kBinary: return BindBinary(expr.As<ast::Binary>(), scope);
    case ast::ExprKind::kIs: {
      const auto& is = expr.As<ast::IsExpr>();
      ASSIGN_OR_RETURN(ExprPtr operand, BindExpr(*is.operand, scope));
      std::string fn;
      switch (is.is_kind) {
        case ast::IsKind::kNull:
        case ast::IsKind::kUnknown: fn = is.negated ? "IS NOT NULL" : "IS NULL"; break;
        case ast::IsKind::kTrue: fn = is.negated ? "IS NOT TRUE" : "IS TRUE"; break;
        case ast::IsKind::kFalse: fn = is.negated ? "IS NOT FALSE" : "IS FALSE"; break;
      }
      return MakeFunctionCall(fn, {operand}, expr.pos);
    }
    case ast::ExprKind::kIsDistinctFrom: {
      const auto& d = expr.As<ast::IsDistinctFrom>();
      ASSIGN_OR_RETURN(ExprPtr l, BindExpr(*d.left, scope));
      ASSIGN_OR_RETURN(ExprPtr r, BindExpr(*d.right, scope));
      return MakeFunctionCall(d.negated ? "IS NOT DISTINCT FROM" : "IS DISTINCT FROM", {l, r}, expr.pos);
    }
    case ast::ExprKind::kBetween: return BindBetween(expr.As<ast::Between>(), scope);
    case ast::ExprKind::kIn: return BindIn(expr.As<ast::In>(), scope);
    case ast::ExprKind::kLike: return BindLike(expr.As<ast::Like>(), scope);
    case ast::ExprKind::kCall: return BindCall(expr.As<ast::Call>(), scope);
    case ast::ExprKind::kCast: return BindCast(expr.As<ast::Cast>(), scope);
    case ast::ExprKind::kCase: return BindCase(expr.As<ast::Case>(), scope);
    case ast::ExprKind::kExtract: {
      const auto& e = expr.As<ast::Extract>();
      ASSIGN_OR_RETURN(ExprPtr operand, BindExpr(*e.operand, scope));
      ExprPtr unit = MakeLiteral(Value::Typed(LogicalType::VarChar(16).WithNullable(false), ast::TimeUnitName(e.unit)));
      return MakeFunctionCall("EXTRACT", {unit, operand}, expr.pos);
    }
    case ast::ExprKind::kFloorCeil: {
      const auto& f = expr.As<ast::FloorCeil>();
      ASSIGN_OR_RETURN(ExprPtr operand, BindExpr(*f.operand, scope));
      ExprPtr unit = MakeLiteral(Value::Typed(LogicalType::VarChar(16).WithNullable(false), ast::TimeUnitName(f.unit)));
      return MakeFunctionCall(f.ceil ? "CEIL_TO" : "FLOOR_TO", {operand, unit}, expr.pos);
    }
    case ast::ExprKind::kTrim: return BindTrim(expr.As<ast::Trim>(), scope);
    case ast::ExprKind::kTimeUnit:
      return MakeLiteral(Value::Typed(LogicalType::VarChar(16).WithNullable(false), ast::TimeUnitName(expr.As<ast::TimeUnitExpr>().unit)));
    case ast::ExprKind::kArrayCtor:
    case ast::ExprKind::kMapCtor:
    case ast::ExprKind::kRowCtor: return BindConstructor(expr, scope);
    case ast::ExprKind::kSubscript: {
      const auto& s = expr.As<ast::Subscript>();
      ASSIGN_OR_RETURN(ExprPtr base, BindExpr(*s.base, scope));
      ASSIGN_OR_RETURN(ExprPtr index, BindExpr(*s.index, scope));
      return MakeFunctionCall("ITEM", {base, index}, expr.pos);
    }
    case ast::ExprKind::kFieldAccess: {
      const auto& f = expr.As<ast::FieldAccess>();
      ASSIGN_OR_RETURN(ExprPtr base, BindExpr(*f.base, scope));
      if (base->type.id() != TypeId::kRow) return Error(expr.pos, "Cannot access field '" + f.field + "' of " + base->type.ToString());
      for (size_t i = 0; i < base->type.num_children(); ++i) {
        if (base->type.field_name(i) == f.field) {
          return MakeFunctionCall("$FIELD", {base, MakeLiteral(Value::Int(LogicalType::Integer().WithNullable(false), static_cast<int64_t>(i)))}, expr.pos);
        }
      }
      return Error(expr.pos, "Unknown field '" + f.field + "' in " + base->type.ToString());
    }
    case ast::ExprKind::kSubquery: return NotSupported(expr.pos, "A scalar subquery");
    case ast::ExprKind::kExists: return NotSupported(expr.pos, "EXISTS (subquery)");
    case ast::ExprKind::kDescriptor: return Error(expr.pos, "DESCRIPTOR is only allowed in a window table function");
    case ast::ExprKind::kTableArg: return Error(expr.pos, "TABLE arguments are only allowed in a table function");
  }
  return Error(expr.pos, "unsupported expression");
}

// -x, +x and NOT x; a negated numeric literal folds into a literal.
Result<ExprPtr> Binder::BindUnary(const ast::Unary& u, const Scope& scope) {
  ASSIGN_OR_RETURN(ExprPtr operand, BindExpr(*u.operand, scope));
  if (u.op == ast::UnaryOp::kPlus) return operand;
  if (u.op == ast::UnaryOp::kNot) return MakeFunctionCall("NOT", {operand}, u.pos);
  // Fold a negated numeric literal so -2147483648 stays an INT.
  if (operand->kind == ExprKind::kLiteral && !operand->literal.is_null()) {
    const Value& v = operand->literal;
    const LogicalType& t = v.type();
    if (t.id() == TypeId::kBigInt && v.int_value() == 2147483648LL) {
      return MakeLiteral(Value::Int(LogicalType::Integer().WithNullable(false), -2147483648LL));
    }
    if (t.IsIntegral() || t.IsInterval()) return MakeLiteral(Value::Int(t, -v.int_value()));
    if (t.id() == TypeId::kDecimal) return MakeLiteral(Value::Decimal(t.precision(), t.scale(), -v.decimal_value()).WithType(t));
    if (t.IsApproximate()) return MakeLiteral(Value::Double(-v.double_value()).WithType(t));
  }
  return MakeFunctionCall("NEGATE", {operand}, u.pos);
}

// AND and OR flatten into one n-ary node; every other binary operator is a function call.
Result<ExprPtr> Binder::BindBinary(const ast::Binary& b, const Scope& scope) {
  ASSIGN_OR_RETURN(ExprPtr l, BindExpr(*b.left, scope));
  ASSIGN_OR_RETURN(ExprPtr r, BindExpr(*b.right, scope));
  if (b.op == ast::BinaryOp::kAnd || b.op == ast::BinaryOp::kOr) {
    ExprKind k = b.op == ast::BinaryOp::kAnd ? ExprKind::kAnd : ExprKind::kOr;
    std::vector<ExprPtr> args;
    for (const ExprPtr& side : {l, r}) {
      if (side->type.id() != TypeId::kBoolean && side->type.id() != TypeId::kNull) {
        return Error(b.pos, std::string(ast::BinaryOpName(b.op)) + " needs BOOLEAN operands, got " + side->type.ToString());
      }
      ExprPtr s = side;
      if (s->type.id() == TypeId::kNull) s = MakeLiteral(Value::Null(LogicalType::Boolean()));
      if (s->kind == k) {
        for (const auto& a : s->args) args.push_back(a);
      } else {
        args.push_back(s);
      }
    }
    // The type first: the arguments of one call are evaluated in no fixed order, and moving `args`
    // first left AnyNullable an empty list (AND/OR typed NOT NULL whatever their operands).
    const bool nullable = AnyNullable(args);
    return MakeSpecial(k, LogicalType::Boolean().WithNullable(nullable), std::move(args));
  }
  return MakeFunctionCall(ast::BinaryOpName(b.op), {l, r}, b.pos);
}

// [NOT] BETWEEN [SYMMETRIC]: BETWEEN calls (two for SYMMETRIC, ORed).
Result<ExprPtr> Binder::BindBetween(const ast::Between& b, const Scope& scope) {
  ASSIGN_OR_RETURN(ExprPtr x, BindExpr(*b.operand, scope));
  ASSIGN_OR_RETURN(ExprPtr lo, BindExpr(*b.low, scope));
  ASSIGN_OR_RETURN(ExprPtr hi, BindExpr(*b.high, scope));
  ASSIGN_OR_RETURN(ExprPtr e, MakeFunctionCall("BETWEEN", {x, lo, hi}, b.pos));
  if (b.symmetric) {
    ASSIGN_OR_RETURN(ExprPtr e2, MakeFunctionCall("BETWEEN", {x, hi, lo}, b.pos));
    e = MakeSpecial(ExprKind::kOr, e->type.WithNullable(e->type.nullable() || e2->type.nullable()), {e, e2});
  }
  if (b.negated) return MakeFunctionCall("NOT", {e}, b.pos);
  return e;
}

// x [NOT] IN (list): the list and x cast to their common type.
Result<ExprPtr> Binder::BindIn(const ast::In& in, const Scope& scope) {
  if (in.subquery) return NotSupported(in.pos, "IN (subquery)");
  ASSIGN_OR_RETURN(ExprPtr x, BindExpr(*in.operand, scope));
  std::vector<ExprPtr> args = {x};
  for (const auto& v : in.list) {
    ASSIGN_OR_RETURN(ExprPtr b, BindExpr(*v, scope));
    args.push_back(b);
  }
  ASSIGN_OR_RETURN(ExprPtr common, CastAllToCommon(&args, in.pos));
  (void)common;
  ASSIGN_OR_RETURN(ExprPtr e, MakeFunctionCall("IN", std::move(args), in.pos));
  if (in.negated) return MakeFunctionCall("NOT", {e}, in.pos);
  return e;
}

// [NOT] LIKE and [NOT] SIMILAR TO, with an optional ESCAPE.
Result<ExprPtr> Binder::BindLike(const ast::Like& l, const Scope& scope) {
  ASSIGN_OR_RETURN(ExprPtr s, BindExpr(*l.operand, scope));
  ASSIGN_OR_RETURN(ExprPtr p, BindExpr(*l.pattern, scope));
  std::vector<ExprPtr> args = {s, p};
  if (l.escape) {
    ASSIGN_OR_RETURN(ExprPtr esc, BindExpr(*l.escape, scope));
    args.push_back(esc);
  }
  ASSIGN_OR_RETURN(ExprPtr e, MakeFunctionCall(l.similar ? "SIMILAR TO" : "LIKE", std::move(args), l.pos));
  if (l.negated) return MakeFunctionCall("NOT", {e}, l.pos);
  return e;
}

// CAST and TRY_CAST (TRY_CAST is nullable; CAST of a NULL literal is a typed NULL literal).
Result<ExprPtr> Binder::BindCast(const ast::Cast& c, const Scope& scope) {
  ASSIGN_OR_RETURN(ExprPtr operand, BindExpr(*c.operand, scope));
  if (!CanCast(operand->type, c.type, false)) {
    return Error(c.pos, "Cast function cannot convert value of type " + operand->type.ToString() + " to type " +
                               c.type.ToString());
  }
  // As Calcite's SqlCastFunction: the operand's nullability (a failing CAST is an error, not NULL);
  // TRY_CAST is always nullable. A numeric CAST to DECIMAL keeps it too although it gives NULL on
  // overflow, as Flink's does (checked against Flink 2.2.1's DESCRIBE).
  LogicalType target = c.type.WithNullable(c.try_cast || operand->type.nullable());
  if (operand->kind == ExprKind::kLiteral && operand->literal.is_null()) return MakeLiteral(Value::Null(target.WithNullable(true)));
  return MakeCast(operand, target, c.try_cast);
}

// TRIM([BOTH | LEADING | TRAILING] [chars] FROM s): TRIM(mode, chars, s), chars defaulting to a space.
Result<ExprPtr> Binder::BindTrim(const ast::Trim& t, const Scope& scope) {
  ASSIGN_OR_RETURN(ExprPtr operand, BindExpr(*t.operand, scope));
  ExprPtr chars;
  if (t.chars) {
    ASSIGN_OR_RETURN(chars, BindExpr(*t.chars, scope));
  } else {
    chars = MakeLiteral(Value::Typed(LogicalType::Char(1).WithNullable(false), " "));
  }
  const char* mode = t.mode == ast::Trim::Mode::kBoth ? "BOTH" : (t.mode == ast::Trim::Mode::kLeading ? "LEADING" : "TRAILING");
  ExprPtr m = MakeLiteral(Value::Typed(LogicalType::VarChar(8).WithNullable(false), mode));
  return MakeFunctionCall("TRIM", {m, chars, operand}, t.pos);
}

// ARRAY[...], MAP[...] and ROW(...): function calls, ARRAY's elements and MAP's keys and values cast
// to their common types.
Result<ExprPtr> Binder::BindConstructor(const ast::Expr& expr, const Scope& scope) {
  const std::vector<ast::ExprPtr>* elems;
  const char* fn;
  if (expr.kind == ast::ExprKind::kArrayCtor) {
    elems = &expr.As<ast::ArrayCtor>().elements;
    fn = "ARRAY";
  } else if (expr.kind == ast::ExprKind::kMapCtor) {
    elems = &expr.As<ast::MapCtor>().elements;
    fn = "MAP";
  } else {
    elems = &expr.As<ast::RowCtor>().fields;
    fn = "ROW";
  }
  std::vector<ExprPtr> args;
  for (const auto& a : *elems) {
    ASSIGN_OR_RETURN(ExprPtr b, BindExpr(*a, scope));
    args.push_back(b);
  }
  if (expr.kind == ast::ExprKind::kArrayCtor && !args.empty()) {
    ASSIGN_OR_RETURN(ExprPtr common, CastAllToCommon(&args, expr.pos));
    (void)common;
  }
  if (expr.kind == ast::ExprKind::kMapCtor && !args.empty()) {
    std::vector<ExprPtr> keys, vals;
    for (size_t i = 0; i < args.size(); ++i) (i % 2 ? vals : keys).push_back(args[i]);
    ASSIGN_OR_RETURN(ExprPtr ck, CastAllToCommon(&keys, expr.pos));
    ASSIGN_OR_RETURN(ExprPtr cv, CastAllToCommon(&vals, expr.pos));
    (void)ck;
    (void)cv;
    for (size_t i = 0; i < args.size(); ++i) args[i] = i % 2 ? vals[i / 2] : keys[i / 2];
  }
  return MakeFunctionCall(fn, std::move(args), expr.pos);
}

}  // namespace sluice
