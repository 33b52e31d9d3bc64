// DeduplicateOperator: Flink's Deduplicate, `ROW_NUMBER() OVER (PARTITION BY keys ORDER BY time) = 1`.
//
// Four variants, each with Flink's changelog (flink-table-runtime operators.deduplicate):
// - proctime, keep first (ORDER BY proctime ASC): +I for the first row of each key, then nothing;
//   insert-only (ProcTimeDeduplicateKeepFirstRowFunction).
// - proctime, keep last (DESC): +I for the first row, then for each later row -U old (when the
//   consumer needs update-before) and +U new; a row equal to the kept one changes nothing
//   (ProcTimeDeduplicateKeepLastRowFunction without state TTL).
// - rowtime, keep first: insert-only by watermark. The row with the smallest rowtime per key waits
//   (ties keep the earlier arrival) and is emitted as +I once the watermark reaches its rowtime; later
//   rows of an emitted key are ignored. A row whose rowtime is below the current watermark is late:
//   dropped and reported with Operator::ReportLate (RowTimeDeduplicateKeepFirstRowFunction).
//   Rows due at the same watermark leave in (rowtime, arrival) order.
// - rowtime, keep last: emits at once; a row whose rowtime is >= the kept row's replaces it (-U/+U),
//   an older one is ignored (RowTimeDeduplicateFunction, which does not consult the watermark).
// Flink requires an insert-only input: a -U, +U or -D row is an error naming the operator.
// - ChangelogNormalize (changelog_input): proctime keep-last over an upsert or CDC changelog keyed by
//   the primary key: +I/+U behave as a new row (first -> +I, later -> -U/+U, equal -> nothing); -U/-D
//   emit -D of the kept row and forget the key (an unknown key changes nothing and is counted in
//   metrics().retractions_without_state), as Flink's ChangelogNormalize.
//
// State: one slot per key (an index into flat per-key arrays) and the kept rows in a RowArena, which
// is compacted when released rows outnumber live ones. Processing time needs no clock: arrival order
// is processing-time order.
//
// Threading: the job's task thread.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "runtime/operator.h"

namespace sluice {

class DeduplicateOperator final : public Operator {
 public:
  // Rows are `types` wide; `keys` are the PARTITION BY columns; `time_column` the ORDER BY time
  // attribute column. keep_last: ORDER BY ... DESC (keep the last row) vs ASC (keep the first).
  // rowtime: the order is an event-time attribute (else processing time = arrival order).
  // emit_update_before: downstream needs -U rows.
  DeduplicateOperator(std::string name, std::vector<LogicalType> types, std::vector<int> keys, int time_column,
                      bool keep_last, bool rowtime, bool emit_update_before, bool changelog_input = false,
                      int64_t state_ttl_ms = 0);
  ~DeduplicateOperator() override;

  Status Open(JobContext* ctx) override;
  Status Process(int input, Chunk& chunk) override;
  Checkpointing checkpointing() const override { return Checkpointing::kSupported; }

  // Keys seen so far, and rows held in state (kept rows, or rows waiting for the watermark).
  size_t num_keys() const;
  size_t state_rows() const;

 protected:
  Status OnWatermark(int64_t watermark) override;
  Status SnapshotState(StateWriter* w) override;
  Status RestoreState(StateReader* r) override;

 private:
  struct State;
  Status CheckInput(const Chunk& chunk) const;
  Status ProcessKeepFirstProctime(Chunk& chunk);
  Status ProcessKeepLast(Chunk& chunk);
  Status ProcessKeepFirstRowtime(const Chunk& chunk);
  Status EmitGathered();
  void MaybeCompact();
  // State TTL: records a write of key k now; drops the keys whose TTL passed.
  void Touch(uint32_t k);
  void ExpireKeys();

  std::vector<LogicalType> types_;
  std::vector<int> keys_;
  int time_column_;
  bool keep_last_;
  bool rowtime_;
  bool emit_update_before_;
  bool changelog_input_;
  int64_t ttl_micros_;
  int64_t now_micros_ = 0;
  std::unique_ptr<State> state_;
};

}  // namespace sluice
