// SourceOperator: reads a table's splits and emits chunks with per-split watermarks.
//
// It fuses Flink's TableSourceScan, the Calc of computed columns and the WatermarkAssigner. Each
// split keeps its own watermark (the largest watermark-expression value seen, as Flink's bounded
// out-of-orderness generator); the source's watermark is the minimum over splits not yet finished.
// Lateness is decided per row (DESIGN.md §6): a chunk is cut before any row that the watermark
// produced by the rows before it already passes, and that watermark is emitted first.
//
// Splits are merged row by row in watermark order: the split with the lowest watermark (ties: the
// lowest split index) emits rows until its watermark passes another split's, then the next one
// continues. Chunks are read ahead per split, so the order of rows — and so the changelog — does not
// depend on the chunk size. Splits of a table without a watermark are read one after the other.
// A split whose read returns no rows without ending (an unbounded split with nothing new) is passed
// over until another split has read a chunk or every unfinished split came back empty, so one idle
// partition never stalls the others.
//
// Idle splits ('table.exec.source.idle-timeout', or the table's 'scan.watermark.idle-timeout'): a
// split with no rows read ahead whose next row is at least the timeout away in processing time is
// idle. That is a split whose reader knows the wait (SourceSplit::PendingDelayMicros: a scripted
// 'values' split whose next step is an `advance` of at least the timeout), or a split whose last read
// came back empty and that has produced no row for the timeout by the injected clock (a live
// partition). An idle split does not hold back the source's watermark and is read only when no
// active split or source can go; once it has rows again it is active and counts again (its rows may
// then be late). A source whose unfinished splits are all idle is idle itself: it tells its
// consumers (Operator::ReceiveIdle), which then take the minimum over their other inputs, as Flink's
// WatermarkStatus. The job re-evaluates idleness before every step (UpdateIdleness), so the
// decision depends only on the script and the clock, never on the chunk size. In a scripted run the
// clock moves only at `advance` steps, so a split that waits is idle at once: the rows the other
// sources hold at that moment are read, and the watermark passes the idle split, before the clock moves.
//
// ValuesOperator (literal rows) shares the SourceOperatorBase interface the Job drives.
//
// Threading: the job's task thread.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "connectors/connector.h"
#include "function/evaluator.h"
#include "runtime/operator.h"

namespace sluice {

class SourceOperatorBase : public Operator {
 public:
  using Operator::Operator;
  Status Process(int, Chunk&) override;
  virtual bool finished() const = 0;
  // The watermark of the split that would be read next (lowest first), for the job's scheduling.
  virtual int64_t NextWatermark() const = 0;
  // Reads and emits rows (and watermarks); emits end of input after the last. Event-time rows stop
  // once this source's watermark passes `bound` (the lowest watermark of the job's other sources;
  // on equality only when `yield_on_tie`), so sources interleave row by row in watermark order.
  virtual Status Step(int64_t bound = kMaxWatermark, bool yield_on_tie = false) = 0;
  // Another source stepped and the lowest watermark of the others is now `bound`: a source that waits
  // for its turn emits its watermark up to its own (that of the rows it emitted) where `bound` allows,
  // as its Step would have, so that an operator reading it with the others sees the combined
  // watermark follow the source being read. Default: nothing (no event time).
  virtual Status FollowWatermark(int64_t bound) { return Status::OK(); }
  // Called when the source emitted a watermark in the middle of a step (before the rows behind it): the
  // job lets the other sources follow then too (runtime/job.cc FollowWatermarks).
  void SetWatermarkListener(std::function<Status()> listener) { watermark_listener_ = std::move(listener); }
  // Marks splits idle or active by the idle timeout and emits the source's idleness and watermark
  // accordingly; the job calls it before choosing the next step. Default: never idle.
  virtual Status UpdateIdleness() { return Status::OK(); }
  // Adds the splits the table source found since the last call, once its discovery interval passed
  // (TableSource::DiscoverSplits); the job calls it before choosing the next step. Default: none.
  virtual Status DiscoverSplits() { return Status::OK(); }
  virtual int64_t rows_read() const { return metrics_.rows_out; }
  virtual int64_t records_skipped() const { return 0; }
  virtual const std::string& table_name() const { return name(); }
  // The source's own job summary fields (TableSource::SummaryFields), set when the job is built.
  void SetSummaryFields(std::vector<std::pair<std::string, std::string>> fields) { summary_fields_ = std::move(fields); }
  const std::vector<std::pair<std::string, std::string>>& summary_fields() const { return summary_fields_; }

 protected:
  Status WatermarkEmittedInStep() { return watermark_listener_ ? watermark_listener_() : Status::OK(); }

 private:
  std::vector<std::pair<std::string, std::string>> summary_fields_;
  std::function<Status()> watermark_listener_;
};

class SourceOperator final : public SourceOperatorBase {
 public:
  // `scan_schema`: the columns splits produce. `computed`: expressions over them giving the declared
  // columns (empty: pass through). `rowtime_index` (-1: none) and `watermark` over the declared
  // columns.
  SourceOperator(std::string table_name, std::vector<std::unique_ptr<SourceSplit>> splits, Schema scan_schema,
                 std::vector<ExprPtr> computed, int rowtime_index, ExprPtr watermark, size_t chunk_size);
  Status Open(JobContext* ctx) override;
  // A source that discovers splits while running never finishes on its own (it may have none yet).
  bool finished() const override { return active_ == 0 && discovery_ == nullptr; }
  int64_t NextWatermark() const override;
  Status Step(int64_t bound, bool yield_on_tie) override;
  Status FollowWatermark(int64_t bound) override;
  Status UpdateIdleness() override;
  int64_t records_skipped() const override;
  // The idle timeout in microseconds (0: splits never go idle).
  void SetIdleTimeout(int64_t micros) { idle_timeout_micros_ = micros; }
  // Turns on split discovery when `source` asks for it (TableSource::SplitDiscoveryIntervalMicros).
  void SetSplitDiscovery(std::shared_ptr<TableSource> source);
  Status DiscoverSplits() override;
  // Checkpoints save per split (by its id) the rows emitted so far (the offset), its watermark, whether it ended
  // and, for a split that can seek (SourceSplit::CheckpointPosition: a Kafka partition), its position
  // after the last emitted row: the pending rows are always those of the split's last Read, so that
  // is the position after its first `pos` rows. Restore seeks such a split to its position; any other
  // is re-opened and skips the emitted rows (the reader re-reads them). A split without state in the
  // checkpoint appeared since and starts as a discovered one (SourceSplit::StartAsDiscovered); a
  // split of the checkpoint that no longer exists fails the restore.
  Checkpointing checkpointing() const override { return Checkpointing::kSupported; }
  // Hands each split the position the completed checkpoint stored (SourceSplit::NotifyCheckpointComplete).
  Status NotifyCheckpointComplete(int64_t id) override;

 protected:
  // Notes the splits' positions at checkpoint `id` for NotifyCheckpointComplete (also in a final
  // checkpoint, where the finished source writes no state).
  Status PrepareSnapshotPreBarrier(int64_t id) override;
  // Whether the watermark passes the end of a RowTime mini-batch interval (JobContext's
  // watermark_interval_ms) going from `from` to `to`: it is then emitted before the next row.
  bool CrossesIntervalEnd(int64_t from, int64_t to) const;
  Status SnapshotState(StateWriter* w) override;
  Status RestoreState(StateReader* r) override;

 private:
  struct SplitState {
    std::unique_ptr<SourceSplit> split;
    int64_t watermark = kMinWatermark;
    bool finished = false;
    // The rows of the split's last Read (with computed columns), of which the first `pos` were
    // emitted. Once all of them are emitted, `pending` belongs to the consumers: Emit lets a
    // downstream operator steal a chunk's columns and kinds (a Calc moves them), so `pending.size()`
    // may then be 0. The split's bookkeeping therefore reads `pending_rows`, never `pending.size()`;
    // reading the stolen size made a checkpoint record the position before the last read and a
    // restore read its rows twice.
    Chunk pending;
    Vector pending_wm;        // the watermark expression's value per pending row
    size_t pending_rows = 0;  // rows of the last Read
    size_t pos = 0;           // next pending row to emit
    // The last read returned no rows but the split goes on (an unbounded split waiting for records):
    // other splits are read first, until every unfinished split is starved.
    bool starved = false;
    // For the idle timeout: the last read came back empty, the clock when the split last produced
    // rows, and whether UpdateIdleness found it idle.
    bool last_read_empty = false;
    int64_t last_rows_micros = 0;
    bool idle = false;
    int64_t read = 0;  // rows read from the split (emitted ones plus the pending ones)
  };
  int64_t NowMicros() const;
  bool SplitIdle(const SplitState& s) const;
  // Reads the next chunk of split i into its pending rows; marks it finished at its end.
  Status Fill(size_t i);
  size_t PickSplit() const;
  int64_t CombinedWatermark() const;
  Status EmitRange(Chunk& chunk, size_t begin, size_t end);
  void AddSplit(std::unique_ptr<SourceSplit> split);
  Status RestoreSplit(SplitState& st, StateReader* r, const std::string& id);

  std::vector<SplitState> splits_;
  size_t active_;
  Schema scan_schema_;
  std::vector<ExprPtr> computed_;
  int rowtime_index_;
  ExprPtr watermark_;
  size_t chunk_size_;
  std::unique_ptr<ExprEvaluator> computed_eval_;
  std::unique_ptr<ExprEvaluator> watermark_eval_;
  int64_t emitted_watermark_ = kMinWatermark;
  int64_t idle_timeout_micros_ = 0;
  // The splits' positions at the last checkpoint barrier, until that checkpoint completes.
  int64_t positions_checkpoint_ = 0;
  std::vector<std::string> positions_;
  // Split discovery: the table source, its interval and the clock at the last discovery.
  std::shared_ptr<TableSource> discovery_;
  int64_t discovery_interval_micros_ = 0;
  int64_t last_discovery_micros_ = 0;
};

class ValuesOperator final : public SourceOperatorBase {
 public:
  ValuesOperator(std::string name, Schema schema, std::vector<std::vector<Value>> rows);
  bool finished() const override { return done_; }
  int64_t NextWatermark() const override { return kMinWatermark; }
  Status Step(int64_t bound, bool yield_on_tie) override;
  Checkpointing checkpointing() const override { return Checkpointing::kSupported; }

 protected:
  Status SnapshotState(StateWriter* w) override;
  Status RestoreState(StateReader* r) override;

 private:
  Schema schema_;
  std::vector<std::vector<Value>> rows_;
  bool done_ = false;
};

}  // namespace sluice
