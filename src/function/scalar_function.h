// ScalarFunction: one resolved overload of a built-in scalar function, with a vectorized kernel.
//
// A ScalarFunction is what the binder stores in a kCall Expr (expression.h). Its `arg_types` are the
// exact types the arguments have after the binder's implicit casts (function_registry.h says which),
// and `return_type` carries the result nullability. The kernel evaluates a whole batch at once:
// `args[i]` are vectors of `rows` rows (of type arg_types[i], possibly of a different nullability) and
// `out` arrives already typed as return_type and sized to `rows`, with no nulls set; the kernel writes
// every row's value and marks null rows with out->SetNull / out->mutable_validity(). Kernels are tight
// loops over the typed data with fast paths when no argument has nulls; they never box into Value.
//
// Constant arguments known at resolution time (a regex pattern, a format string, an EXTRACT unit) are
// captured into the kernel's closure, so they are parsed once per query, not once per row. The kernel
// still receives those arguments as vectors.
//
// A kernel returns a RuntimeError Status for Flink's runtime failures (integer division by zero,
// a CAST of bad text); it never throws.
//
// Threading: immutable after resolution; a kernel may be called from several tasks at once, so any
// state it keeps is read-only (or per-call).
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "common/status.h"
#include "types/logical_type.h"

namespace sluice {

struct EvalContext;  // function/evaluator.h
class Vector;

using ScalarKernel =
    std::function<Status(EvalContext& ctx, const Vector* const* args, size_t num_args, size_t rows, Vector* out)>;

struct ScalarFunction {
  std::string name;  // upper-cased, as resolved ("+", "SUBSTRING", "IS NULL", ...)
  std::vector<LogicalType> arg_types;
  LogicalType return_type;
  // False for RAND, UUID, CURRENT_TIMESTAMP, NOW, PROCTIME, ...: such calls are never constant-folded.
  bool deterministic = true;
  ScalarKernel kernel;
  // False when the kernel never returns an error for any input (comparisons, + - *, logic): the
  // evaluator may then run it on rows a short-circuit would skip, which is faster than gathering them.
  bool can_fail = true;
};

}  // namespace sluice
