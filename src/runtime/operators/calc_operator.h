// CalcOperator: Flink's Calc — a filter and a projection over each chunk, evaluated columnar.
//
// The condition yields a selection vector; only the columns the projections read are gathered for
// the selected rows. Projections that are plain column references move (or share) the input vector
// instead of evaluating anything. RowKinds pass through with their rows. A deterministic
// subexpression the condition and projections repeat is evaluated once per chunk and appended to it
// as a column (function/common_subexpr.h).
//
// Threading: the job's task thread.
#pragma once

#include <memory>
#include <vector>

#include "function/evaluator.h"
#include "runtime/operator.h"

namespace sluice {

class CalcOperator final : public Operator {
 public:
  Checkpointing checkpointing() const override { return Checkpointing::kStateless; }
  // `num_inputs`: the input's column count (shared subexpressions become the columns after it).
  CalcOperator(std::string name, std::vector<ExprPtr> projections, ExprPtr condition, size_t num_inputs);
  Status Open(JobContext* ctx) override;
  Status Process(int input, Chunk& chunk) override;

 private:
  std::vector<ExprPtr> projections_;
  ExprPtr condition_;
  std::unique_ptr<ExprEvaluator> projection_eval_;
  std::unique_ptr<ExprEvaluator> filter_eval_;
  size_t num_inputs_;
  std::vector<ExprPtr> common_;  // shared subexpressions, input columns num_inputs + j
  std::unique_ptr<ExprEvaluator> common_eval_;
  std::vector<bool> used_columns_;
  // How many projections reference each input column directly (a column referenced once is moved).
  std::vector<int> direct_refs_;
  std::vector<uint32_t> sel_;
  bool projections_can_fail_ = true;
};

}  // namespace sluice
