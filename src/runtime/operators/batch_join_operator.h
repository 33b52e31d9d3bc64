// BatchJoinOperator: what Flink's batch equi-joins (HashJoin, SortMergeJoin) share: two bounded,
// insert-only inputs held until both have ended, then joined once, the result emitted as inserts (no
// row is ever retracted; a streaming outer join emits a NULL-padded row and retracts it when the
// first match arrives). Join kinds INNER, LEFT/RIGHT/FULL OUTER, SEMI and ANTI.
//
// Both inputs are held columnar (one Chunk per side). A subclass's Join() finds the candidate pairs
// (equal join keys under SQL equality: a row with a NULL key matches nothing) and hands them to
// AddPair(); the optional residual condition is evaluated over the candidate pairs in batches (of
// about 4096 pairs) by FlushPairs(), which marks the rows that matched and emits the joined rows of
// INNER and OUTER joins. The subclass emits the NULL-padded rows of outer joins where its order puts
// them (EmitPadded), and SEMI/ANTI joins output the left columns of the left rows with (without) a
// match, once each, in the left side's arrival order (EmitSemiAnti).
//
// Memory: StateBytes() is the held rows of both sides (the memory budget's measure, like the other
// batch operators); the join's transient indexes live only inside Join().
//
// Checkpoints (a bounded job may take them): the rows held so far, per side, under the subclass's tag.
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

class BatchJoinOperator : public Operator {
 public:
  // Input 0 is the left side, 1 the right. Output: left columns then right columns (SEMI and ANTI:
  // left columns only), of `output_types`. `residual`: an optional BOOLEAN Expr over left ++ right.
  BatchJoinOperator(std::string name, std::string state_tag, JoinKind kind, std::vector<LogicalType> left_types,
                    std::vector<LogicalType> right_types, std::vector<int> left_keys, std::vector<int> right_keys,
                    ExprPtr residual, std::vector<LogicalType> output_types);
  ~BatchJoinOperator() override;

  Status Open(JobContext* ctx) override;
  Status Process(int input, Chunk& chunk) override;
  Checkpointing checkpointing() const override { return Checkpointing::kSupported; }
  size_t StateBytes() const override;

 protected:
  // Joins the held sides (left_, right_) and emits the result (all but the SEMI/ANTI output).
  virtual Status Join() = 0;
  Status OnEndOfInput() override;
  Status SnapshotState(StateWriter* w) override;
  Status RestoreState(StateReader* r) override;
  void DropState() override;

  // Candidate pair bookkeeping for Join().
  void AddPair(uint32_t left, uint32_t right) {
    pairs_left_.push_back(left);
    pairs_right_.push_back(right);
  }
  size_t pending_pairs() const { return pairs_left_.size(); }
  // Keeps the pending pairs that satisfy the residual, marks their rows in left_matched_ /
  // right_matched_ and emits them (inner and outer joins).
  Status FlushPairs();
  // Emits `rows` of one side padded with NULLs for the other side's columns (side 0: left rows).
  Status EmitPadded(int side, const std::vector<uint32_t>& rows);
  // Whether row `row` of `chunk` has a NULL in one of `keys`.
  static bool NullKey(const Chunk& chunk, const std::vector<int>& keys, size_t row);

  bool has_residual() const { return residual_ != nullptr; }
  bool left_outer() const { return kind_ == JoinKind::kLeft || kind_ == JoinKind::kFull; }
  bool right_outer() const { return kind_ == JoinKind::kRight || kind_ == JoinKind::kFull; }

  JoinKind kind_;
  std::vector<LogicalType> left_types_, right_types_, out_types_, pair_types_;  // pair: left ++ right
  std::vector<int> left_keys_, right_keys_;
  Chunk left_, right_;                                  // the rows held so far
  std::vector<uint8_t> left_matched_, right_matched_;  // per held row, set by FlushPairs during Join()

 private:
  // SEMI/ANTI: the left rows with (without) a match, in arrival order.
  Status EmitSemiAnti();

  std::string state_tag_;
  ExprPtr residual_;
  std::unique_ptr<ExprEvaluator> residual_eval_;
  std::vector<uint32_t> pairs_left_, pairs_right_;
  std::vector<uint32_t> sel_;
};

}  // namespace sluice
