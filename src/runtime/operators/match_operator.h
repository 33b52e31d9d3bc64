// MatchOperator: MATCH_RECOGNIZE (Flink's Match / CepOperator), ONE ROW PER MATCH.
//
// Rows are partitioned by the PARTITION BY columns and matched in time order per partition, by a
// MatchNfa (runtime/operators/match_nfa.h, Flink's CEP semantics) or, for the patterns Flink refuses,
// a MatchProgram (match_program.h, the SQL standard's semantics; the end of the input decides what
// is still undecided):
// - Event time: rows wait in state until the watermark reaches their rowtime, then are processed in
//   (rowtime, further ORDER BY keys, arrival) order across partitions, so the output does not depend
//   on how often watermarks arrive (Flink processes a key's due rows per timer, so its order across
//   partitions depends on its watermark timing). A row whose rowtime is at or below the current
//   watermark is late (Flink's CepOperator bound) and is dropped and reported (Operator::ReportLate),
//   as is a row without a rowtime.
// - Processing time: rows are processed as they arrive.
// Each released match becomes one +I row: the partition keys (of its first row), then the measures.
// Input and output are insert-only (the planner refuses an updating input).
//
// State (checkpointed by full snapshots): the rows in a RowArena (waiting ones and those partial or
// completed matches hold), each processed row's sequence number, the partitions (a KeyIndex of their
// encoded keys) with their runs, and which rows wait. The arena is compacted once most of its rows
// are no longer held.
//
// Threading: the job's task thread.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "plan/plan_node.h"
#include "runtime/operator.h"

namespace sluice {

class MatchEvaluator;
class PatternMatcher;

class MatchOperator final : public Operator {
 public:
  MatchOperator(std::string name, std::shared_ptr<const MatchNode> node, std::vector<LogicalType> input_types);
  ~MatchOperator() override;

  Status Open(JobContext* ctx) override;
  Status Process(int input, Chunk& chunk) override;
  size_t StateBytes() const override;
  Checkpointing checkpointing() const override { return Checkpointing::kSupported; }

 protected:
  Status OnWatermark(int64_t watermark) override;
  Status OnEndOfInput() override;
  Status SnapshotState(StateWriter* w) override;
  Status RestoreState(StateReader* r) override;
  void DropState() override;

 private:
  struct State;
  // Runs row `id` of partition `part` through its partition's matcher and emits released matches.
  Status ProcessRow(uint32_t part, uint32_t id, int64_t time);
  Status EmitMatches();
  // "(k=v, ...)": the partition of arena row `row`, for messages.
  std::string PartitionText(uint32_t row) const;
  void MaybeCompact();

  std::shared_ptr<const MatchNode> node_;
  std::vector<LogicalType> input_types_;
  std::vector<LogicalType> output_types_;
  std::unique_ptr<State> state_;
  std::unique_ptr<MatchEvaluator> eval_;     // built by Open
  std::unique_ptr<PatternMatcher> matcher_;  // built by Open: Flink's NFA or the standard's program
};

}  // namespace sluice
