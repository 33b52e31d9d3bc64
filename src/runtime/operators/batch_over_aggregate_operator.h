// BatchOverAggregateOperator: Flink's batch OverAggregate (BatchExecOverAggregate). Its input arrives
// sorted by the partition keys, then the order keys (a Sort below it, plan/plan_node.h
// OverAggregateNode::batch); it holds one partition's rows at a time, and when the next partition
// starts (or the input ends) it evaluates every call over its own frame for each row of the
// partition and emits the rows, as inserts, in sorted order, each followed by its calls' results.
//
// Frames (OverFrame): ROWS or RANGE between UNBOUNDED PRECEDING, n PRECEDING, CURRENT ROW, n
// FOLLOWING and UNBOUNDED FOLLOWING. A row's frame is a range [start, end) of the partition's rows:
// ROWS counts rows; RANGE CURRENT ROW takes the row's peers (equal order keys) and RANGE n
// PRECEDING/FOLLOWING the rows whose order key is within n of the row's (one numeric order key:
// NULL keys are peers of one another and outside every offset of a non-NULL key). A frame whose
// start is after its end is empty.
//
// Cost: both ends of a frame only move forward as the row advances, so each call keeps one
// accumulator (runtime/operators/accumulators.h) that adds the rows entering the frame and retracts
// the rows leaving it (retracting variants of the functions, resolved by the binder for frames whose
// start moves; MIN/MAX keep ordered counts): O(n log n) per partition, never quadratic. Frames from
// UNBOUNDED PRECEDING only add; a frame that moves backwards (never, for sorted input) is rebuilt.
//
// LEAD and LAG take the value of the row n rows after or before, whatever the frame.
//
// Checkpoints (a bounded job may take them): the current partition's rows.
//
// Threading: the job's task thread.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "plan/plan_node.h"
#include "runtime/operator.h"
#include "runtime/operators/accumulators.h"

namespace sluice {

class BatchOverAggregateOperator final : public Operator {
 public:
  struct Options {
    std::vector<int> partition_keys;
    std::vector<SortKey> order;
    std::vector<AccumulatorCall> calls;
    std::vector<OverFrame> frames;  // one per call
    // Per call: 0 for an aggregate; LEAD(x, k) +k, LAG(x, k) -k: x of the row k rows after (before) in
    // the partition, else the call's second column (its default) or NULL. Such calls have no function.
    std::vector<int64_t> shifts;
  };
  BatchOverAggregateOperator(std::string name, std::vector<LogicalType> input_types,
                             std::vector<LogicalType> output_types, Options options);
  Status Process(int input, Chunk& chunk) override;
  Checkpointing checkpointing() const override { return Checkpointing::kSupported; }
  size_t StateBytes() const override { return rows_.MemoryUsage(); }

 protected:
  Status OnEndOfInput() override;
  Status SnapshotState(StateWriter* w) override;
  Status RestoreState(StateReader* r) override;
  void DropState() override;

 private:
  // Evaluates and emits the held partition, then drops it.
  Status FinishPartition();
  // Each row's frame of call `c` as [start, end) row indexes of the held partition.
  void ComputeFrame(const OverFrame& f, std::vector<uint32_t>* start, std::vector<uint32_t>* end) const;
  // LEAD/LAG call `a` into `out` (the partition's rows in order).
  void ShiftColumn(size_t a, Vector* out) const;
  // The partition key encoding of `chunk`'s row `row`.
  std::string PartitionKey(const Chunk& chunk, size_t row) const;

  std::vector<LogicalType> input_types_, output_types_;
  Options o_;
  std::vector<std::unique_ptr<AccumulatorLayout>> layouts_;  // one per call (null for LEAD/LAG)
  Chunk rows_;              // the current partition's rows, in sorted order
  std::string current_key_;  // its partition key encoding (meaningful when rows_ is not empty)
  // Per held partition (rebuilt by FinishPartition): where each row's peers start and end.
  std::vector<uint32_t> peer_start_, peer_end_;
};

}  // namespace sluice
