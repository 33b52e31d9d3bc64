// OverAggregateOperator: Flink's OverAggregate, `agg(...) OVER (PARTITION BY k ORDER BY time
// {ROWS|RANGE} BETWEEN {n|UNBOUNDED} PRECEDING AND CURRENT ROW)`, insert-only in and out: every input
// row is emitted once with the value of each aggregate over its frame.
//
// Event time: rows wait until the watermark passes them and are then processed in (time, arrival)
// order; rows of one partition with the same time are processed together. RANGE gives every row of a
// time T the aggregate over the rows with time in [T - preceding, T]; ROWS gives each row the aggregate
// over itself and the `preceding` rows before it. Rows that leave a bounded frame are retracted from
// the accumulators (so every aggregate, COUNT(DISTINCT) included, stays exact) and freed. A row is
// late, dropped and reported (Operator::ReportLate), when its time is not after its partition's
// last processed time (bounded frames) or not after the watermark (unbounded), as Flink's functions.
// Processing time: rows are processed as they arrive, at the injected clock's time.
//
// Threading: the job's task thread.
#pragma once

#include <memory>
#include <vector>

#include "runtime/operator.h"
#include "runtime/operators/accumulators.h"
#include "types/logical_type.h"

namespace sluice {

class OverAggregateOperator final : public Operator {
 public:
  // `preceding`: -1 for UNBOUNDED; ROWS: a row count; RANGE: milliseconds.
  OverAggregateOperator(std::string name, std::vector<LogicalType> input_types, std::vector<int> partition_keys,
                        int order_column, bool rowtime, bool rows_frame, int64_t preceding,
                        std::vector<AccumulatorCall> calls, std::vector<LogicalType> output_types);
  ~OverAggregateOperator() override;

  Status Process(int input, Chunk& chunk) override;
  // Rows held: waiting for the watermark, or inside a bounded frame.
  size_t state_rows() const;

 protected:
  Status OnWatermark(int64_t watermark) override;

 private:
  struct State;
  // Processes the rows `rows` (arena ids, arrival order) of partition `part` at time `time`.
  void ProcessAt(uint32_t part, int64_t time, const std::vector<uint32_t>& rows);
  Status Flush();

  std::vector<LogicalType> input_types_;
  std::vector<int> partition_keys_;
  int order_column_;
  bool rowtime_;
  bool rows_frame_;
  int64_t preceding_;
  AccumulatorLayout layout_;
  std::vector<LogicalType> output_types_;
  std::unique_ptr<State> state_;
};

}  // namespace sluice
