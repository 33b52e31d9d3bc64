// SinkOperator: hands chunks to a connector's SinkWriter (or a SELECT's result handler through the
// same interface), enforcing NOT NULL columns as Flink's 'table.exec.sink.not-null-enforcer' and
// counting the changes written per RowKind for the job summary.
//
// Threading: the job's task thread.
#pragma once

#include <memory>
#include <vector>

#include "connectors/connector.h"
#include "runtime/job_summary.h"
#include "runtime/operator.h"

namespace sluice {

class SinkOperator final : public Operator {
 public:
  SinkOperator(std::string table_name, std::shared_ptr<SinkWriter> writer, Schema schema, bool drop_not_null_violations);
  Status Process(int input, Chunk& chunk) override;
  const JobSummary::SinkStats& stats() const { return stats_; }

 protected:
  Status OnEndOfInput() override;

 private:
  std::shared_ptr<SinkWriter> writer_;
  Schema schema_;
  bool drop_;
  std::vector<size_t> not_null_columns_;
  JobSummary::SinkStats stats_;
};

}  // namespace sluice
