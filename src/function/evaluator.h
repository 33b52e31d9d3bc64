// ExprEvaluator: vectorized evaluation of bound expressions (expression.h) over a Chunk.
//
// Evaluation is columnar: every node produces a whole Vector for the batch. Column references are
// passed through as copies that share the input's buffers' strings (no string bytes are copied);
// literals become constant vectors cached per batch size; kCall evaluates its arguments and then the
// function's kernel; kCast uses CastVector. The special forms keep Flink's semantics:
//   AND/OR      three-valued; a later operand is evaluated only on rows the earlier ones left undecided
//               (so `x <> 0 AND 10 / x > 1` never divides by zero).
//   CASE        each WHEN is evaluated only on rows no earlier WHEN matched, each THEN only on the rows
//               that take it, ELSE on the rest.
//   COALESCE    later arguments only on rows still NULL.
// Sub-batches for those rows are gathered into a compact Chunk, evaluated, and scattered back.
//
// EvalContext carries per-session facts (the time zone of 'table.local-time-zone', resolved once
// through date-tz; the injected Clock) and the per-batch current time, taken once at the start of
// every Evaluate/Filter call so CURRENT_TIMESTAMP is the same for all rows of a batch.
//
// Threading: an ExprEvaluator and its EvalContext belong to one task; the Exprs are shared immutably.
#pragma once

#include <cstdint>
#include <map>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "common/status.h"
#include "function/expression.h"
#include "types/vector.h"

namespace date {
class time_zone;
}

namespace sluice {

class Clock;

struct EvalContext {
  // `time_zone_name` is the 'table.local-time-zone' option: an IANA name ("Asia/Singapore"), "UTC",
  // a fixed offset ("GMT+08:00", "+08:00"), or "default"/"" meaning UTC. `clock` may be null (then the
  // current time is 0 unless set by hand).
  static Result<std::unique_ptr<EvalContext>> Make(const std::string& time_zone_name, const Clock* clock);
  // A UTC context on `clock` (tests, constant folding).
  EvalContext() = default;
  explicit EvalContext(const Clock* c) : clock(c) {}

  // The session time zone; null means UTC (or fixed_offset_micros when it is set).
  const date::time_zone* time_zone = nullptr;
  int64_t fixed_offset_micros = 0;  // used when time_zone is null
  std::string time_zone_name = "UTC";
  const Clock* clock = nullptr;
  // The current time for this batch (microseconds since epoch, UTC), refreshed by ExprEvaluator at the
  // start of every Evaluate/Filter call.
  int64_t now_micros = 0;
  void RefreshNow();
  // The watermark of the operator evaluating (CURRENT_WATERMARK); INT64_MIN when it has none yet.
  // Set by the operator before each evaluation.
  int64_t current_watermark = std::numeric_limits<int64_t>::min();
  // A kernel that fails on one row sets its index (in the chunk it was given) before returning the
  // error, so the evaluator can name the row; -1 when unknown. Reset by each evaluation.
  int64_t failed_row = -1;
  // Set once a failure names its expression, so enclosing calls do not name theirs too.
  bool failure_named = false;

  // Offset of the session zone from UTC at the UTC instant `utc_micros`, in microseconds.
  int64_t OffsetAtUtc(int64_t utc_micros) const;
  // Local wall-clock micros of the instant (TIMESTAMP_LTZ -> local TIMESTAMP).
  int64_t UtcToLocal(int64_t utc_micros) const { return utc_micros + OffsetAtUtc(utc_micros); }
  // The instant of a local wall-clock time (earliest on an overlap, shifted forward over a gap).
  int64_t LocalToUtc(int64_t local_micros) const;

  // The last zone transition range looked up, [begin, end) in UTC seconds, and its offset in seconds;
  // nearly every timestamp of a batch falls into the same range.
  mutable int64_t cached_begin_ = 1;
  mutable int64_t cached_end_ = 0;
  mutable int64_t cached_offset_ = 0;
};

// Resolves a zone name for CONVERT_TZ and EvalContext ("UTC", IANA names, "GMT+8", "+08:00").
// On success sets exactly one of *zone (IANA) or *fixed_offset_micros.
[[nodiscard]] Status ResolveTimeZone(const std::string& name, const date::time_zone** zone, int64_t* fixed_offset_micros);

class ExprEvaluator {
 public:
  ExprEvaluator(std::vector<ExprPtr> exprs, EvalContext* ctx);

  // Evaluates every expression over `input`; out->size() becomes exprs.size(), each of input.size()
  // rows and of the expression's type.
  [[nodiscard]] Status Evaluate(const Chunk& input, std::vector<Vector>* out);
  // Evaluates expression `i` only.
  [[nodiscard]] Status EvaluateOne(size_t i, const Chunk& input, Vector* out);

  // Evaluates the BOOLEAN predicate exprs[0] and writes the rows where it is TRUE (not FALSE, not NULL)
  // to *sel in increasing order.
  [[nodiscard]] Status Filter(const Chunk& input, std::vector<uint32_t>* sel);

  const std::vector<ExprPtr>& exprs() const { return exprs_; }

 private:
  std::vector<ExprPtr> exprs_;
  EvalContext* ctx_;
  // Constant vectors of literals, per (literal, row count); cleared when it grows large.
  // Between evaluations only: an evaluation holds pointers into the cache.
  void TrimLiteralCache();
  std::map<std::pair<const Expr*, size_t>, Vector> literal_cache_;
};

// Evaluates one expression over one batch with a given context (the general entry point the evaluator
// uses recursively; operators should prefer ExprEvaluator).
[[nodiscard]] Status EvaluateExpr(const Expr& expr, const Chunk& input, EvalContext& ctx, Vector* out);

// True when evaluating `expr` can never return an error (no division, no CAST that can fail, ...), so
// it may safely run on rows that a filter or a short-circuit would skip.
bool ExprCannotFail(const Expr& expr);

// Evaluates an expression without column references to one Value (constant folding). Runtime errors
// (1 / 0) are returned as Status.
[[nodiscard]] Result<Value> EvaluateConstant(const Expr& expr, EvalContext& ctx);

}  // namespace sluice
