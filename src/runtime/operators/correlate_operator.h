// CorrelateOperator: CROSS JOIN UNNEST / LEFT JOIN UNNEST ... ON TRUE (Flink's Correlate with the
// UNNEST table function).
//
// For each input row, the collection expression is evaluated and the row is repeated once per element;
// element columns are gathered with one selection vector per chunk (no per-row calls). ARRAY of ROW
// elements flatten into the row's fields, MAP into key and value. With left_outer, a row whose
// collection is NULL or empty is kept once with NULL element columns. WITH ORDINALITY appends the
// 1-based position. RowKinds are copied from the parent row.
//
// Threading: the job's task thread.
#pragma once

#include <memory>
#include <vector>

#include "function/evaluator.h"
#include "runtime/operator.h"

namespace sluice {

class CorrelateOperator final : public Operator {
 public:
  Checkpointing checkpointing() const override { return Checkpointing::kStateless; }
  CorrelateOperator(std::string name, ExprPtr collection, bool left_outer, bool with_ordinality, Schema output);
  Status Open(JobContext* ctx) override;
  Status Process(int input, Chunk& chunk) override;

 private:
  ExprPtr collection_;
  bool left_outer_;
  bool with_ordinality_;
  Schema output_;
  std::unique_ptr<ExprEvaluator> eval_;
};

class UnionOperator final : public Operator {
 public:
  Checkpointing checkpointing() const override { return Checkpointing::kStateless; }
  UnionOperator(std::string name, int num_inputs) : Operator(std::move(name), num_inputs) {}
  Status Process(int, Chunk& chunk) override {
    metrics_.rows_in += static_cast<int64_t>(chunk.size());
    return Emit(chunk);
  }
};

}  // namespace sluice
