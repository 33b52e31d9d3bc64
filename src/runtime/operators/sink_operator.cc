#include "runtime/operators/sink_operator.h"

#include "connectors/sink_time_listener.h"
#include "function/evaluator.h"
#include "runtime/checkpoint.h"
#include "runtime/job.h"
#include "state/state_serde.h"

namespace sluice {

SinkOperator::SinkOperator(std::string table_name, std::shared_ptr<SinkWriter> writer, Schema schema,
                           bool drop_not_null_violations)
    : Operator(table_name, 1), writer_(std::move(writer)), schema_(std::move(schema)), drop_(drop_not_null_violations) {
  stats_.table = std::move(table_name);
  for (size_t i = 0; i < schema_.size(); ++i) {
    if (!schema_.field(i).type.nullable()) not_null_columns_.push_back(i);
  }
}

JobSummary::SinkStats SinkOperator::stats() const {
  JobSummary::SinkStats s = stats_;
  s.fields = writer_->SummaryFields();
  return s;
}

Status SinkOperator::Process(int, Chunk& chunk) {
  const size_t n = chunk.size();
  metrics_.rows_in += static_cast<int64_t>(n);
  Chunk* out = &chunk;
  Chunk kept;
  for (size_t c : not_null_columns_) {
    if (!chunk.column(c).MayHaveNulls()) continue;
    std::vector<uint32_t> sel;
    for (size_t i = 0; i < n; ++i) {
      bool bad = false;
      for (size_t k : not_null_columns_) bad |= chunk.column(k).IsNull(i);
      if (!bad) sel.push_back(static_cast<uint32_t>(i));
    }
    if (sel.size() == n) break;
    if (!drop_) {
      size_t bad_col = c;
      return Status::RuntimeError("Column '" + schema_.field(bad_col).name +
                                  "' is NOT NULL, however, a null value is being written into it. You can set job "
                                  "configuration 'table.exec.sink.not-null-enforcer'='DROP' to suppress this "
                                  "exception and drop such records silently (Sluice counts them in the job summary).");
    }
    stats_.dropped_not_null += static_cast<int64_t>(n - sel.size());
    for (const auto& col : chunk.columns()) kept.AddColumn(Vector(col.type()));
    kept.AppendFrom(chunk, sel.data(), 0, sel.size());
    out = &kept;
    break;
  }
  for (size_t i = 0; i < out->size(); ++i) {
    switch (out->kind(i)) {
      case RowKind::kInsert: ++stats_.inserts; break;
      case RowKind::kUpdateBefore: ++stats_.update_befores; break;
      case RowKind::kUpdateAfter: ++stats_.update_afters; break;
      case RowKind::kDelete: ++stats_.deletes; break;
    }
  }
  if (out->size() == 0) return Status::OK();
  return writer_->Write(*out);
}

Status SinkOperator::OnEndOfInput() {
  finished_ = true;
  return writer_->Finish();
}

Status SinkOperator::Open(JobContext* ctx) {
  RETURN_IF_ERROR(Operator::Open(ctx));
  if (ctx->checkpoints.enabled()) two_phase_ = writer_->EnableTwoPhaseCommit();
  time_listener_ = dynamic_cast<SinkTimeListener*>(writer_.get());
  if (time_listener_ != nullptr && ctx->eval != nullptr && ctx->eval->clock != nullptr) {
    time_listener_->SetProcessingTimeClock(ctx->eval->clock);
  }
  return Status::OK();
}

Status SinkOperator::OnWatermark(int64_t watermark) {
  if (time_listener_ != nullptr) RETURN_IF_ERROR(time_listener_->OnWatermark(watermark));
  return Operator::OnWatermark(watermark);
}

Status SinkOperator::OnProcessingTime() {
  return time_listener_ != nullptr && !finished_ ? time_listener_->OnProcessingTime() : Status::OK();
}

Status SinkOperator::PrepareSnapshotPreBarrier(int64_t id) {
  barrier_id_ = id;
  return Status::OK();
}

Status SinkOperator::SnapshotState(StateWriter* w) {
  RETURN_IF_ERROR(pending_.PreCommit(writer_.get(), barrier_id_));
  Failpoint("sink.after-precommit");
  w->PutTag("sink");
  w->PutBool(finished_);
  pending_.Put(w);
  w->PutI64(stats_.inserts);
  w->PutI64(stats_.update_befores);
  w->PutI64(stats_.update_afters);
  w->PutI64(stats_.deletes);
  w->PutI64(stats_.dropped_not_null);
  return Status::OK();
}

Status SinkOperator::NotifyCheckpointComplete(int64_t id) { return pending_.CommitUpTo(writer_.get(), id); }

Status SinkOperator::RestoreState(StateReader* r) {
  r->ExpectTag("sink");
  finished_ = r->GetBool();
  std::vector<std::string> committables = PendingCommits::Get(r);
  stats_.inserts = r->GetI64();
  stats_.update_befores = r->GetI64();
  stats_.update_afters = r->GetI64();
  stats_.deletes = r->GetI64();
  stats_.dropped_not_null = r->GetI64();
  RETURN_IF_ERROR(r->status());
  return PendingCommits::Recover(writer_.get(), committables);
}

}  // namespace sluice
