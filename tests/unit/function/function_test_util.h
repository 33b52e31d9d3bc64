// Helpers for the function/ unit tests: build bound expressions the way the binder does (resolve the
// call, insert implicit casts) and evaluate them over constants or small chunks.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "common/time_util.h"
#include "function/cast.h"
#include "function/evaluator.h"
#include "function/expression.h"
#include "function/function_registry.h"
#include "function/scalar_function.h"
#include "types/value.h"
#include "types/vector.h"

namespace sluice::testing {

inline ExprPtr Lit(Value v) { return MakeLiteral(std::move(v)); }
inline ExprPtr LitInt(int32_t v) { return MakeLiteral(Value::Int(LogicalType::Integer().WithNullable(false), v)); }
inline ExprPtr LitBig(int64_t v) { return MakeLiteral(Value::Int(LogicalType::BigInt().WithNullable(false), v)); }
inline ExprPtr LitDouble(double v) { return MakeLiteral(Value::Double(v).WithType(LogicalType::Double().WithNullable(false))); }
inline ExprPtr LitStr(const std::string& s) {
  return MakeLiteral(Value::Typed(LogicalType::Char(static_cast<int32_t>(s.size())).WithNullable(false), s));
}
inline ExprPtr LitBool(bool b) { return MakeLiteral(Value::Boolean(b).WithType(LogicalType::Boolean().WithNullable(false))); }
inline ExprPtr LitNull(LogicalType t) { return MakeLiteral(Value::Null(t)); }
inline ExprPtr LitDecimal(int p, int s, __int128 unscaled) {
  return MakeLiteral(Value::Decimal(p, s, unscaled).WithType(LogicalType::Decimal(p, s).WithNullable(false)));
}
inline ExprPtr Col(int i, LogicalType t) { return MakeColumnRef(i, std::move(t)); }

// Resolves `name` over `args` and inserts the casts the resolution asks for.
inline Result<ExprPtr> TryCall(const std::string& name, std::vector<ExprPtr> args) {
  std::vector<LogicalType> types;
  std::vector<const Value*> consts;
  for (const auto& a : args) {
    types.push_back(a->type);
    consts.push_back(a->kind == ExprKind::kLiteral ? &a->literal : nullptr);
  }
  ASSIGN_OR_RETURN(ResolvedCall r, ResolveScalar(name, types, consts));
  for (size_t i = 0; i < args.size(); ++i) {
    if (!args[i]->type.EqualsIgnoringNullability(r.arg_types()[i])) args[i] = MakeCast(args[i], r.arg_types()[i], false);
  }
  return MakeCall(r.function, std::move(args));
}

inline ExprPtr Call(const std::string& name, std::vector<ExprPtr> args) {
  auto r = TryCall(name, std::move(args));
  EXPECT_TRUE(r.ok()) << r.status().ToString();
  if (!r.ok()) return LitNull(LogicalType::Null());
  return *r;
}

inline ExprPtr Special(ExprKind kind, LogicalType type, std::vector<ExprPtr> args, bool has_else = false) {
  auto e = std::make_shared<Expr>();
  e->kind = kind;
  e->type = std::move(type);
  e->args = std::move(args);
  e->has_else = has_else;
  return e;
}

// Evaluates a constant expression in a UTC context (or `ctx`).
inline Result<Value> Eval(const ExprPtr& e, EvalContext* ctx = nullptr) {
  EvalContext utc;
  return EvaluateConstant(*e, ctx ? *ctx : utc);
}

// The text of a constant expression's value ("NULL" for null), for compact assertions.
inline std::string EvalText(const ExprPtr& e, EvalContext* ctx = nullptr) {
  auto v = Eval(e, ctx);
  if (!v.ok()) return "ERROR: " + v.status().message();
  if (v->is_null()) return "NULL";
  return v->ToString();
}

inline Chunk MakeChunk(const std::vector<LogicalType>& types, const std::vector<std::vector<Value>>& rows) {
  Chunk c(types, 0);
  for (const auto& r : rows) c.AppendValues(r, RowKind::kInsert);
  return c;
}

}  // namespace sluice::testing
