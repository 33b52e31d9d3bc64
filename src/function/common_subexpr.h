// Common-subexpression reuse for a set of expressions evaluated over the same chunk (a Calc's
// condition and projections), as Flink's code generator reuses a deterministic call it has already
// generated for the row: `CASE WHEN lower(c) = 'a' THEN .. WHEN lower(c) = 'b' ..` evaluates lower(c)
// once per chunk instead of once per WHEN.
//
// ExtractCommonSubexpressions finds every subexpression that occurs more than once (by structure:
// same kind, type, function, literal and arguments) and is worth sharing: a call, cast or special
// form (not a bare column or literal) whose whole tree is deterministic (RAND, UUID, NOW, PROCTIME,
// CURRENT_TIMESTAMP, ... are never merged). A shared subexpression is evaluated over every row of
// the chunk, where the original might have run on fewer rows only (a later WHEN, AND operand or
// COALESCE argument, or a projection behind a filter); so it is shared only when it cannot fail
// (ExprCannotFail) or when one of its occurrences runs on every row anyway.
//
// The result is a program: `common[j]` becomes input column num_inputs + j (it reads the input
// columns and common[0..j)), and `exprs` are the expressions with each shared subexpression replaced
// by a reference to its column. The caller appends the common columns to the chunk in order, then
// evaluates `exprs` over it.
//
// Threading: a pure function of its arguments.
#pragma once

#include <vector>

#include "function/expression.h"

namespace sluice {

struct CommonSubexpressions {
  std::vector<ExprPtr> common;
  std::vector<ExprPtr> exprs;
};

// `on_all_rows[i]`: whether exprs[i] is evaluated on every row of the chunk (a Calc's condition is;
// its projections are only when it has no condition). Empty: none is.
CommonSubexpressions ExtractCommonSubexpressions(const std::vector<ExprPtr>& exprs, const std::vector<bool>& on_all_rows,
                                                 size_t num_inputs);

}  // namespace sluice
