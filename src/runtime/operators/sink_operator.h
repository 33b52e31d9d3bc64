// SinkOperator: hands chunks to a connector's SinkWriter (or a SELECT's result handler through the
// same interface), enforcing NOT NULL columns as Flink's 'table.exec.sink.not-null-enforcer' and
// counting the changes written per RowKind for the job summary. A writer that is also a
// SinkTimeListener (connectors/sink_time_listener.h) gets the job's clock, every watermark and, through
// OnProcessingTime (called by the job between steps), the chance to fire its processing-time timers.
//
// Checkpoints: at each barrier the writer pre-commits (SinkWriter::PreCommit) and the committables go
// into the snapshot; they are committed when that checkpoint, or a later one (when the job abandoned
// it), is durable (PendingCommits), and on restore the restored checkpoint's committables are
// committed again (idempotent) while later output is discarded.
//
// Threading: the job's task thread.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "connectors/connector.h"
#include "runtime/job_summary.h"
#include "runtime/operator.h"
#include "runtime/pending_commits.h"

namespace sluice {

class SinkTimeListener;

class SinkOperator final : public Operator {
 public:
  SinkOperator(std::string table_name, std::shared_ptr<SinkWriter> writer, Schema schema, bool drop_not_null_violations);
  Status Process(int input, Chunk& chunk) override;
  // The counts, with the writer's own summary columns (SinkWriter::SummaryFields).
  JobSummary::SinkStats stats() const;
  Status Open(JobContext* ctx) override;
  Checkpointing checkpointing() const override { return Checkpointing::kSupported; }
  Status NotifyCheckpointComplete(int64_t id) override;
  // A checkpointing job that restored nothing: the writer discards what a crashed attempt left.
  Status StartAfresh() { return two_phase_ ? writer_->RecoverAndCommit(std::string()) : Status::OK(); }
  // The job calls it before every source step: a time-listening writer fires its due timers.
  Status OnProcessingTime();

 protected:
  Status OnEndOfInput() override;
  Status OnWatermark(int64_t watermark) override;
  Status PrepareSnapshotPreBarrier(int64_t id) override;
  Status SnapshotState(StateWriter* w) override;
  Status RestoreState(StateReader* r) override;

 private:
  std::shared_ptr<SinkWriter> writer_;
  SinkTimeListener* time_listener_ = nullptr;  // the writer, when it listens to time (sink_time_listener.h)
  Schema schema_;
  bool drop_;
  std::vector<size_t> not_null_columns_;
  JobSummary::SinkStats stats_;
  bool two_phase_ = false;
  bool finished_ = false;
  int64_t barrier_id_ = 0;
  PendingCommits pending_;
};

}  // namespace sluice
