// HashJoinOperator: Flink's batch HashJoin — an equi-join (INNER, LEFT/RIGHT/FULL OUTER, SEMI, ANTI)
// of two bounded, insert-only inputs that emits its result once, as inserts, at the end of its
// inputs: no row is ever retracted (a streaming outer join emits a NULL-padded row and retracts it
// when the first match arrives).
//
// Both inputs are held (columnar, one Chunk per side) until both have ended. Then the right side
// (the build side) is hashed on its join keys, and the left side probes it in its arrival order: each
// left row's matches in the right side's arrival order, the optional residual condition evaluated
// over the candidate pairs in batches (of about 4096 pairs). The outer left rows of a batch that
// matched nothing follow its joined rows, padded with NULLs; unmatched right rows (RIGHT/FULL) come
// last. SEMI and ANTI
// joins output the left columns of the left rows with (without) a match, once each. Join keys compare
// with SQL equality: a row with a NULL key matches nothing.
//
// Checkpoints (a bounded job may take them): the rows held so far, per side.
//
// Threading: the job's task thread.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "function/expression.h"
#include "runtime/operator.h"
#include "runtime/operators/join_operator.h"

namespace sluice {

class ExprEvaluator;

class HashJoinOperator final : public Operator {
 public:
  // Input 0 is the left side, 1 the right (build) side. Output: left columns then right columns (SEMI
  // and ANTI: left columns only), of `output_types`. `residual`: an optional BOOLEAN Expr over
  // left ++ right.
  HashJoinOperator(std::string name, JoinKind kind, std::vector<LogicalType> left_types,
                   std::vector<LogicalType> right_types, std::vector<int> left_keys, std::vector<int> right_keys,
                   ExprPtr residual, std::vector<LogicalType> output_types);
  ~HashJoinOperator() override;

  Status Open(JobContext* ctx) override;
  Status Process(int input, Chunk& chunk) override;
  Checkpointing checkpointing() const override { return Checkpointing::kSupported; }
  size_t StateBytes() const override;

 protected:
  Status OnEndOfInput() override;
  Status SnapshotState(StateWriter* w) override;
  Status RestoreState(StateReader* r) override;
  void DropState() override;

 private:
  // Per build row: the next build row with the same key (kNone ends the chain).
  static constexpr uint32_t kNone = 0xFFFFFFFFu;
  // Joins the held sides and emits the result.
  Status Join();
  // Keeps the pairs of `pairs_left_`/`pairs_right_` that satisfy the residual, marks their rows as
  // matched and emits them (inner and outer joins) or records them (semi/anti).
  Status FlushPairs(std::vector<uint8_t>* left_matched, std::vector<uint8_t>* right_matched);
  // Whether row `row` of `chunk` has a NULL in one of `keys`.
  static bool NullKey(const Chunk& chunk, const std::vector<int>& keys, size_t row);

  JoinKind kind_;
  std::vector<LogicalType> left_types_, right_types_, out_types_, pair_types_;  // pair: left ++ right
  std::vector<int> left_keys_, right_keys_;
  ExprPtr residual_;
  std::unique_ptr<ExprEvaluator> residual_eval_;
  Chunk left_, right_;  // the rows held so far
  std::vector<uint32_t> pairs_left_, pairs_right_;
  std::vector<uint32_t> sel_;
};

}  // namespace sluice
