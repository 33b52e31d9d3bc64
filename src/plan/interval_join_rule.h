// Interval join planning: Flink's StreamPhysicalIntervalJoinRule with IntervalJoinUtil's extraction
// of window bounds. A join whose condition bounds the time attribute of one input by the time
// attribute of the other on both sides — `l.ts BETWEEN r.ts - INTERVAL '4' HOUR AND r.ts + INTERVAL
// '1' HOUR`, a pair of range comparisons (<, <=, >, >=) or one equality `l.ts = r.ts` — with both time
// attributes rowtime or both proctime, becomes an IntervalJoin: state per side that expires as time
// passes, insert-only output.
//
// A time predicate is a comparison whose two operands each read exactly one time attribute, one of
// each input, through nothing but CASTs between timestamps of the same kind and +/- a constant
// DAY-TO-SECOND interval. The bounds are those of Flink's WindowBounds: leftLowerBound <= l.ts - r.ts
// <= leftUpperBound, in milliseconds, a strict comparison moving its bound by 1 ms. Exactly one
// equality or exactly two range predicates (one lower, one upper bound) over the same two columns
// make an interval join; anything else stays a regular join, as in Flink. The time equality is no
// join key; the other predicates of the condition stay its residual.
//
// Threading: pure functions over immutable plans.
#pragma once

#include <map>
#include <optional>

#include "common/status.h"
#include "plan/plan_node.h"

namespace sluice {

struct IntervalBounds {
  bool rowtime = true;
  int64_t lower_ms = 0;  // leftLowerBound
  int64_t upper_ms = 0;  // leftUpperBound
  int left_time = -1;    // time attribute column of the left input
  int right_time = -1;   // time attribute column of the right input
  // The conjuncts of the condition that are the time predicates (consumed by the bounds).
  std::vector<const Expr*> time_predicates;
};

// The window bounds of `condition` (over left ++ right columns) when it is an interval join
// condition over the time attributes of `left` and `right`; nullopt otherwise.
std::optional<IntervalBounds> ExtractIntervalBounds(const ExprPtr& condition, const Schema& left, const Schema& right);

// One time predicate of a regular join's condition over any two TIMESTAMP columns, one of each input
// (a time attribute or not; the same operand forms as above): l - r >= micros (lower) or l - r <=
// micros (upper), exact in microseconds (a strict comparison moved by 1 us). A BETWEEN gives two, an
// equality both. For the regular join's event-time state retention (runtime/translators/join_translator.cc).
struct TimeDifferenceBound {
  int left_column = -1;   // column of the left input
  int right_column = -1;  // column of the right input
  bool lower = true;
  int64_t micros = 0;
};
std::vector<TimeDifferenceBound> ExtractTimeDifferenceBounds(const ExprPtr& condition, const Schema& left,
                                                             const Schema& right);

// Rewrites JoinNodes with interval join conditions into IntervalJoinNodes (shared sub-plans stay shared).
class IntervalJoinRule {
 public:
  PlanNodePtr Apply(const PlanNodePtr& node);

 private:
  PlanNodePtr Rewrite(const JoinNode& join);
  std::map<const PlanNode*, PlanNodePtr> memo_;
};

}  // namespace sluice
