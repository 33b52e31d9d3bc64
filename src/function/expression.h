// Expr: the bound (typed, resolved) scalar expression tree shared by the binder, the planner and the
// vectorized evaluator.
//
// The binder produces Exprs from AST expressions: every column reference is an index into the input
// row of the operator that evaluates it, every call is resolved to one ScalarFunction overload whose
// argument types the arguments already have (the binder inserts implicit casts), and every node
// carries its result type (with nullability). Special forms whose arguments must not all be evaluated
// (AND, OR short-circuit; CASE and COALESCE evaluate a branch only for the rows that take it, so
// `CASE WHEN x <> 0 THEN 10 / x END` never divides by zero) are their own kinds.
//
// Exprs are immutable once built and shared through ExprPtr; rewrites build new nodes.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "types/logical_type.h"
#include "types/value.h"

namespace sluice {

struct ScalarFunction;  // function/scalar_function.h
struct Expr;
using ExprPtr = std::shared_ptr<const Expr>;

enum class ExprKind : uint8_t {
  kColumnRef,  // input column `column_index`
  kLiteral,    // constant `literal` (typed; may be NULL)
  kCall,       // function(args...), eager: all args evaluated for all rows
  kCast,       // CAST(args[0] AS type) or TRY_CAST (is_try: NULL on failure instead of an error)
  kAnd,        // args[0] AND args[1] AND ... (three-valued, short-circuit per row)
  kOr,         // args[0] OR args[1] OR ...
  kCase,       // CASE WHEN args[0] THEN args[1] [WHEN args[2] THEN args[3]]... [ELSE args[last]]
               // has_else tells whether the last arg is an ELSE; without one, unmatched rows are NULL
  kCoalesce,   // first non-null of args, evaluating later args only for rows still null
};

struct Expr {
  ExprKind kind = ExprKind::kLiteral;
  LogicalType type;
  int column_index = -1;                        // kColumnRef
  Value literal;                                // kLiteral
  std::shared_ptr<const ScalarFunction> function;  // kCall
  std::vector<ExprPtr> args;
  bool is_try = false;                          // kCast
  bool has_else = false;                        // kCase
  // kCall/kCast that can fail at runtime: the SQL text it was bound from, named by its runtime errors
  // ("Division by zero ... in expression `a` / `b`"); empty when unknown.
  std::string sql_text;

  // Flink-like text for EXPLAIN: column refs by name when names are given ("$0" otherwise),
  // literals as SQL, calls as name(args), casts as CAST(x AS type), AND/OR infix, CASE as CASE(...).
  std::string ToString(const std::vector<std::string>* input_names = nullptr) const;
  // True when the tree has no column reference and every function in it is deterministic.
  bool IsConstant() const;
};

ExprPtr MakeColumnRef(int index, LogicalType type);
ExprPtr MakeLiteral(Value v);
ExprPtr MakeCall(std::shared_ptr<const ScalarFunction> fn, std::vector<ExprPtr> args);
ExprPtr MakeCast(ExprPtr arg, LogicalType type, bool is_try);

}  // namespace sluice
