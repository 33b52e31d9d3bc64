// Window Top-N and window deduplication planning (Flink's StreamPhysicalWindowRankRule and
// StreamPhysicalWindowDeduplicateRule), and the window properties of a plan's columns that they and
// the window join rule (plan/window_join_rule.h) ask for.
//
// Window properties (Flink's RelWindowProperties): a node's rows carry their window when they come
// from a window TVF (TUMBLE, HOP, CUMULATE, SESSION) or a window aggregation over one, through Calcs
// that keep window_start and window_end by reference, Exchanges, window Top-N, window deduplication
// and window joins. The legacy GROUP BY TUMBLE(...) windows attach no properties. A SESSION window's
// properties also say which columns are its PARTITION BY keys (a window aggregation over attached
// sessions needs them as its group keys, as Flink's WindowUtil.validGroupKeyPartitionKey).
//
// The rule: a Top-N (a Rank bounded by a filter on its row number) or a deduplication whose PARTITION
// BY holds a window_start and a window_end column of its input becomes a WindowRank or a
// WindowDeduplicate; the window columns leave the partition keys (and the Exchange's hash keys), as
// Flink prints them. The deduplication shape (ROW_NUMBER() = 1, ordered by one time attribute) is the
// one plan/optimizer.cc's rank rules already recognise. Refused with Flink's words: windows on
// processing time ("Processing time Window TopN is not supported yet."), and RANK()/DENSE_RANK()
// ("RANK() function is not supported on Window TopN currently, ..."). A regular streaming Top-N runs
// RANK and DENSE_RANK too, which Flink 2.2 refuses (docs/flink_differences.md).
//
// Threading: pure functions over immutable plans.
#pragma once

#include <map>
#include <optional>
#include <vector>

#include "common/status.h"
#include "plan/plan_node.h"

namespace sluice {

// Which output columns of a node are window_start / window_end columns, and of which window.
struct WindowColumns {
  WindowSpec window;
  bool proctime = false;
  bool local_time = false;  // the time attribute is TIMESTAMP_LTZ
  std::vector<bool> start;  // per output column
  std::vector<bool> end;    // per output column
  // SESSION: per output column, which PARTITION BY key of the window it is (-1: none), the number
  // of those keys, and their names as Flink's summary prints them.
  std::vector<int> partition;
  size_t num_partition_keys = 0;
  std::string session_keys;
  // The emit options of the window TVF (or window aggregation) the windows come from.
  WindowEmitConfig emit;
};

// The window properties of `node`'s output, nullopt when its rows carry no window.
std::optional<WindowColumns> FindWindowColumns(const PlanNode& node);

// The attached window of a node reading columns `start` and `end` of an input with properties `wc`.
AttachedWindow MakeAttachedWindow(const WindowColumns& wc, int start, int end);

class WindowRankRule {
 public:
  // The plan with every matching Rank and Deduplicate rewritten (shared sub-plans stay shared).
  Result<PlanNodePtr> Apply(const PlanNodePtr& node);

 private:
  Result<PlanNodePtr> Rewrite(const PlanNodePtr& node);
  std::map<const PlanNode*, PlanNodePtr> memo_;
};

}  // namespace sluice
