// Sort operators for ORDER BY / LIMIT / OFFSET.
//
// TemporalSortOperator: Flink's TemporalSort, the streaming ORDER BY whose first key is a time
// attribute in ascending order.
// - Event time (RowTimeSortOperator): rows wait in state until the watermark reaches their rowtime,
//   then leave in (rowtime, remaining ORDER BY keys, arrival) order. A row whose rowtime is at or
//   below the largest rowtime already emitted is late: it could no longer be emitted in order, so it
//   is dropped and reported with Operator::ReportLate (Flink drops it too, against the same
//   bound). A row with a NULL rowtime has no place in the order and is dropped and counted as well.
//   Rows behind the watermark but after the last emitted rowtime still sort correctly and leave at
//   the next watermark.
// - Processing time (ProcTimeSortOperator): Sluice's processing time advances with every row
//   (arrival order is processing-time order, no clock is read), so every row is alone at its instant
//   and leaves at once; the remaining ORDER BY keys never reorder anything.
// The input must be insert-only (the planner guarantees it); output is insert-only.
//
// SortOperator: a bounded Sort (batch mode): Flink's Sort, SortLimit and Limit of batch execution.
// It folds its input (+I/+U add a row, -U/-D remove the most recent equal row), and when the input
// ends emits the rows in ORDER BY order (ties in arrival order; no ORDER BY keeps arrival order),
// skipping `offset` rows and emitting at most `fetch` (-1: all), as +I. Watermarks are held back
// until the end, since every row leaves then. A Limit (no ORDER BY) over insert-only input keeps
// only its first offset + fetch rows.
//
// Both keep rows in a RowArena and order them by order-preserving encoded keys (state/sort_key.h).
// Both checkpoint their rows (SnapshotState/RestoreState), so a batch job with an ORDER BY can run
// with 'state.checkpoints.dir' and resume from its last checkpoint.
//
// Threading: the job's task thread.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "runtime/operator.h"

namespace sluice {

// One ORDER BY key: an input column, its direction and where its NULLs go.
struct SortSpec {
  int column;
  bool ascending;
  bool nulls_first;
};

class TemporalSortOperator final : public Operator {
 public:
  // order[0] is the time attribute (ascending); `rowtime` says event time (else processing time).
  TemporalSortOperator(std::string name, std::vector<LogicalType> types, std::vector<SortSpec> order, bool rowtime);
  ~TemporalSortOperator() override;

  Status Open(JobContext* ctx) override;
  Status Process(int input, Chunk& chunk) override;

  // Rows waiting for the watermark.
  size_t state_rows() const;
  Checkpointing checkpointing() const override { return Checkpointing::kSupported; }

 protected:
  Status OnWatermark(int64_t watermark) override;
  Status SnapshotState(StateWriter* w) override;
  Status RestoreState(StateReader* r) override;

 private:
  struct State;
  void MaybeCompact();

  std::vector<LogicalType> types_;
  std::vector<SortSpec> order_;
  bool rowtime_;
  std::unique_ptr<State> state_;
};

class SortOperator final : public Operator {
 public:
  // `order` may be empty (LIMIT without ORDER BY); fetch -1 means no limit. input_has_retractions:
  // the input carries -U/-D rows to fold.
  SortOperator(std::string name, std::vector<LogicalType> types, std::vector<SortSpec> order, int64_t offset,
               int64_t fetch, bool input_has_retractions);
  ~SortOperator() override;

  Status Open(JobContext* ctx) override;
  Status Process(int input, Chunk& chunk) override;

  // Rows held (folded input so far).
  size_t state_rows() const;
  Checkpointing checkpointing() const override { return Checkpointing::kSupported; }

 protected:
  Status OnWatermark(int64_t watermark) override;
  Status OnEndOfInput() override;
  // The live rows in arrival order (released slots are not written); a restore numbers them anew
  // and rebuilds the retraction index from the rows themselves.
  Status SnapshotState(StateWriter* w) override;
  Status RestoreState(StateReader* r) override;

 private:
  struct State;

  std::vector<LogicalType> types_;
  std::vector<SortSpec> order_;
  int64_t offset_;
  int64_t fetch_;
  bool input_has_retractions_;
  std::unique_ptr<State> state_;
};

}  // namespace sluice
