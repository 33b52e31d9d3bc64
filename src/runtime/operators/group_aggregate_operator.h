// GroupAggregateOperator: Flink's GroupAggregate — non-windowed GROUP BY with retraction.
//
// Per group key it keeps the aggregate states (fixed-size slots laid out once per group, see
// function/aggregate/aggregate_function.h), the net number of accumulated rows, and for each
// DISTINCT aggregate a count per distinct value. Each input row updates its group and emits at once,
// as Flink's GroupAggFunction without mini-batch: +I for a new group; -U old (when downstream needs
// update-before) and +U new when the result changed; nothing when it did not change; -D when
// retractions empty the group. A retraction for a group with no state is counted (a retraction that
// found its state expired or never seen), never silently dropped from the books.
//
// Threading: the job's task thread.
#pragma once

#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "runtime/operator.h"
#include "runtime/operators/accumulators.h"

namespace sluice {

struct AggregateFunction;

class GroupAggregateOperator final : public Operator {
 public:
  // One aggregate call: function, input columns, DISTINCT, FILTER column (runtime/operators/accumulators.h).
  using Agg = AccumulatorCall;
  // Mini-batch (Flink's 'table.exec.mini-batch.*'): when `mini_batch_size` > 0, input rows are
  // buffered and applied per key at the end of each batch (after that many rows, after
  // `mini_batch_latency_ms` of processing time, or at end of input), so each key emits at most one
  // change per batch. The folded result is the same; there are fewer changes.
  GroupAggregateOperator(std::string name, std::vector<LogicalType> input_types, std::vector<int> keys,
                         std::vector<Agg> aggs, std::vector<LogicalType> output_types, bool emit_update_before,
                         int64_t mini_batch_size = 0, int64_t mini_batch_latency_ms = 0, int64_t state_ttl_ms = 0);
  ~GroupAggregateOperator() override;
  Status Process(int input, Chunk& chunk) override;

  Checkpointing checkpointing() const override { return Checkpointing::kSupported; }
  int64_t retractions_without_state() const { return metrics_.retractions_without_state; }
  size_t num_groups() const { return groups_.size(); }

 protected:
  Status OnEndOfInput() override;
  Status SnapshotState(StateWriter* w) override;
  Status RestoreState(StateReader* r) override;

 private:
  struct Group;
  Group* NewGroup(const Chunk& chunk, size_t row);
  void DestroyGroup(Group* g);
  void Update(Group* g, const Chunk& chunk, size_t row, bool retract);
  Status ProcessRows(Chunk& chunk);
  // Applies the buffered mini-batch, one change per key.
  Status FlushBatch();
  // Appends the group's current result to `out` with `kind`.
  void AppendResult(const Group& g, RowKind kind, Chunk* out);
  // Writes the group's current result over the existing row `row` of `out`.
  void WriteResult(const Group& g, Chunk* out, size_t row);
  bool SameResult(const Chunk& a, size_t ra, const Chunk& b, size_t rb) const;

  std::vector<LogicalType> input_types_;
  std::vector<int> keys_;
  std::vector<Agg> aggs_;
  std::vector<LogicalType> output_types_;
  bool emit_update_before_;
  Chunk key_store_;              // one row per group: its key columns
  std::vector<size_t> out_widths_;  // physical width of each output column
  std::unordered_map<std::string, std::unique_ptr<Group>> groups_;
  std::vector<std::string> encoded_;
  // 'table.exec.state.ttl' on processing time: a group not touched for this long is forgotten (its next
  // row starts it afresh, a retraction for it is counted). 0 disables.
  int64_t state_ttl_micros_;
  int64_t last_sweep_micros_ = 0;
  int64_t now_micros_ = 0;
  // The group of `key` if present and not expired (an expired one is dropped here).
  Group* Lookup(const std::string& key);
  void SweepExpired();
  int64_t mini_batch_size_;
  int64_t mini_batch_latency_micros_;
  Chunk batch_;                    // buffered input rows of the current mini-batch
  int64_t batch_started_micros_ = 0;
  AccumulatorLayout layout_;       // the aggregate calls' states, FILTER and DISTINCT
};

}  // namespace sluice
