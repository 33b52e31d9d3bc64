// DropUpdateBeforeOperator: Flink's DropUpdateBefore. Passes every row except -U rows, for a source
// that emits before-images no consumer needs (the planner places it; see plan/source_changelog_rule.h).
//
// Threading: the job's task thread.
#pragma once

#include "runtime/operator.h"

namespace sluice {

class DropUpdateBeforeOperator final : public Operator {
 public:
  Checkpointing checkpointing() const override { return Checkpointing::kStateless; }
  explicit DropUpdateBeforeOperator(std::string name) : Operator(std::move(name), 1) {}
  Status Process(int input, Chunk& chunk) override;
};

}  // namespace sluice
