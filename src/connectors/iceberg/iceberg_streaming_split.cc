#include "connectors/iceberg/iceberg_streaming_split.h"

#include <algorithm>
#include <sstream>

#include "common/clock.h"
#include "connectors/iceberg/iceberg_pruning.h"
#include "connectors/iceberg/scan_planner.h"

namespace sluice {
namespace {

constexpr const char* kPositionTag = "iceberg-stream-v1";
// How long one Read waits at most for the next poll before returning without rows.
constexpr int64_t kMaxWaitMicros = 100'000;

// A set of files planned together: a full scan of `end`, or the appends in (start, end].
struct Batch {
  bool scan = false;
  std::optional<int64_t> start;
  int64_t end = 0;
};

std::string OptId(const std::optional<int64_t>& id) { return id ? std::to_string(*id) : "-"; }

class IcebergStreamingSplit final : public SourceSplit {
 public:
  IcebergStreamingSplit(IcebergMetadataLoader loader, std::shared_ptr<IcebergDeleteLoader> deletes,
                        std::shared_ptr<const IcebergReadSchema> schema, IcebergStreamingOptions options,
                        GeneratorTiming timing, std::string table)
      : loader_(std::move(loader)),
        deletes_(std::move(deletes)),
        schema_(std::move(schema)),
        options_(options),
        timing_(std::move(timing)),
        table_(std::move(table)) {}

  std::string id() const override { return "iceberg table " + table_ + " (streaming)"; }

  Result<bool> Read(size_t max_rows, Chunk* out) override {
    while (true) {
      if (current_) {
        ASSIGN_OR_RETURN(size_t n, ReadCurrent(max_rows, out));
        if (n > 0) return true;
        continue;
      }
      if (batch_ && file_index_ < tasks_.size()) {
        current_ = NewIcebergFileSplit(deletes_, schema_, tasks_[file_index_]);
        rows_in_file_ = 0;
        continue;
      }
      MarkPosition();
      if (options_.end_snapshot_id && planned_through_ == options_.end_snapshot_id) return false;
      const int64_t now = timing_.clock->NowMicros();
      if (polled_ && now < next_poll_micros_) {
        timing_.sleep_micros(std::min(next_poll_micros_ - now, kMaxWaitMicros));
        return true;
      }
      polled_ = true;
      next_poll_micros_ = now + options_.monitor_interval_micros;
      RETURN_IF_ERROR(Poll());
      if (!batch_ || tasks_.empty()) return true;
    }
  }

  int64_t PendingDelayMicros() const override {
    if (current_ || (batch_ && file_index_ < tasks_.size()) || !polled_) return 0;
    return std::max<int64_t>(0, next_poll_micros_ - timing_.clock->NowMicros());
  }

  std::string CheckpointPosition(size_t rows_of_last_read) const override {
    std::ostringstream s;
    s << kPositionTag << ';' << (resolved_ ? "1" : "0") << ';' << OptId(mark_planned_through_);
    if (mark_batch_) {
      s << ';' << (mark_batch_->scan ? "scan" : "appends") << ';' << OptId(mark_batch_->start) << ';'
        << mark_batch_->end << ';' << mark_file_ << ';' << (mark_rows_ + static_cast<int64_t>(rows_of_last_read));
    }
    return s.str();
  }

  Status SeekToPosition(const std::string& position) override {
    std::vector<std::string> parts;
    std::stringstream in(position);
    for (std::string p; std::getline(in, p, ';');) parts.push_back(p);
    auto id = [](const std::string& s) -> std::optional<int64_t> {
      if (s == "-") return std::nullopt;
      return std::stoll(s);
    };
    if (parts.size() < 3 || parts[0] != kPositionTag || (parts.size() != 3 && parts.size() != 8)) {
      return Status::InvalidArgument("Iceberg source of " + table_ + ": unrecognised checkpoint position '" +
                                     position + "'");
    }
    resolved_ = parts[1] == "1";
    planned_through_ = id(parts[2]);
    if (parts.size() == 8) {
      seek_batch_ = Batch{parts[3] == "scan", id(parts[4]), std::stoll(parts[5])};
      seek_file_ = std::stoull(parts[6]);
      seek_rows_ = std::stoll(parts[7]);
    }
    MarkPosition();
    return Status::OK();
  }

 private:
  // Reads from the current file, skipping rows a restore already emitted; 0 once it is exhausted.
  Result<size_t> ReadCurrent(size_t max_rows, Chunk* out) {
    const size_t before = out->size();
    Chunk* target = out;
    Chunk skipped;
    if (skip_rows_ > 0) {
      skipped = Chunk(schema_->output);
      target = &skipped;
    }
    ASSIGN_OR_RETURN(bool more, current_->Read(max_rows, target));
    if (!more) {
      current_.reset();
      ++file_index_;
      return 0;
    }
    size_t n = target->size() - (target == out ? before : 0);
    if (target != out) {
      const size_t drop = static_cast<size_t>(std::min<int64_t>(skip_rows_, static_cast<int64_t>(n)));
      skip_rows_ -= static_cast<int64_t>(drop);
      rows_in_file_ += static_cast<int64_t>(drop);
      if (drop < n) out->AppendFrom(skipped, nullptr, drop, n - drop);
      n -= drop;
      if (n == 0) return ReadCurrent(max_rows, out);
    }
    MarkPosition();
    rows_in_file_ += static_cast<int64_t>(n);
    return n;
  }

  // Remembers where the rows of the Read in progress start (CheckpointPosition adds to it).
  void MarkPosition() {
    mark_planned_through_ = planned_through_;
    mark_batch_ = batch_;
    mark_file_ = file_index_;
    mark_rows_ = rows_in_file_;
    if (!batch_ && seek_batch_) {  // restored, batch not re-planned yet: keep the restored place
      mark_batch_ = seek_batch_;
      mark_file_ = seek_file_;
      mark_rows_ = seek_rows_;
    }
  }

  Status Poll() {
    ASSIGN_OR_RETURN(TableMetadata md, loader_());
    if (seek_batch_) {
      RETURN_IF_ERROR(Plan(md, *seek_batch_));
      file_index_ = seek_file_;
      skip_rows_ = seek_rows_;
      seek_batch_.reset();
      resolved_ = true;
      return Status::OK();
    }
    const Snapshot* current = md.CurrentSnapshot();
    if (!resolved_) {
      resolved_ = true;
      switch (options_.strategy) {
        case IcebergStartingStrategy::kTableScanThenIncremental:
          if (current == nullptr) return Status::OK();
          return Plan(md, Batch{true, std::nullopt, Target(md, current)});
        case IcebergStartingStrategy::kIncrementalFromLatestSnapshot:
          if (current == nullptr) return Status::OK();
          return Plan(md, Batch{false, current->parent_snapshot_id, current->snapshot_id});  // end <= latest
        case IcebergStartingStrategy::kIncrementalFromEarliestSnapshot:
          if (current == nullptr) return Status::OK();
          return Plan(md, Batch{false, std::nullopt, Target(md, current)});
        case IcebergStartingStrategy::kIncrementalFromSnapshotId: {
          const Snapshot* start = md.SnapshotById(options_.start_snapshot_id.value_or(-1));
          if (start == nullptr) {
            return Status::InvalidArgument("Table '" + table_ + "': cannot find snapshot with ID " +
                                           OptId(options_.start_snapshot_id) + " ('start-snapshot-id')");
          }
          return Plan(md, Batch{false, start->parent_snapshot_id, Target(md, current)});
        }
      }
    }
    if (current == nullptr) return Status::OK();
    const int64_t target = Target(md, current);
    if (planned_through_ && *planned_through_ == target) return Status::OK();
    return Plan(md, Batch{false, planned_through_, target});
  }

  // The last snapshot to read now: the current one, or 'end-snapshot-id' once it exists.
  int64_t Target(const TableMetadata& md, const Snapshot* current) const {
    if (options_.end_snapshot_id && md.SnapshotById(*options_.end_snapshot_id) != nullptr) {
      return *options_.end_snapshot_id;
    }
    return current->snapshot_id;
  }

  Status Plan(const TableMetadata& md, const Batch& batch) {
    Result<std::vector<FileScanTask>> tasks = std::vector<FileScanTask>{};
    // The pushed-down filter skips files of each batch as it does for a bounded scan (the same files
    // on every replay, so checkpointed positions stay valid).
    std::optional<IcebergScanPruner> pruner;
    if (schema_->filter) pruner.emplace(md, *schema_->filter);
    if (batch.scan) {
      const Snapshot* s = md.SnapshotById(batch.end);
      if (s == nullptr) {
        return Status::InvalidArgument("Table '" + table_ + "': cannot find snapshot with ID " +
                                       std::to_string(batch.end));
      }
      tasks = PlanSnapshotScan(deletes_->io(), md, *s, pruner ? &*pruner : nullptr);
    } else {
      tasks = PlanAppendScan(deletes_->io(), md, batch.start, batch.end, pruner ? &*pruner : nullptr);
    }
    if (!tasks.ok()) return Status(tasks.status().code(), "Table '" + table_ + "': " + tasks.status().message());
    tasks_ = std::move(*tasks);
    batch_ = batch;
    file_index_ = 0;
    rows_in_file_ = 0;
    planned_through_ = batch.end;
    return Status::OK();
  }

  IcebergMetadataLoader loader_;
  std::shared_ptr<IcebergDeleteLoader> deletes_;
  std::shared_ptr<const IcebergReadSchema> schema_;
  IcebergStreamingOptions options_;
  GeneratorTiming timing_;
  std::string table_;

  bool resolved_ = false;  // the starting strategy has been applied
  bool polled_ = false;
  int64_t next_poll_micros_ = 0;
  std::optional<int64_t> planned_through_;
  std::optional<Batch> batch_;
  std::vector<FileScanTask> tasks_;
  size_t file_index_ = 0;
  std::unique_ptr<SourceSplit> current_;
  int64_t rows_in_file_ = 0;
  int64_t skip_rows_ = 0;
  // Where the last Read's rows start.
  std::optional<int64_t> mark_planned_through_;
  std::optional<Batch> mark_batch_;
  size_t mark_file_ = 0;
  int64_t mark_rows_ = 0;
  // A restored position not yet re-planned.
  std::optional<Batch> seek_batch_;
  size_t seek_file_ = 0;
  int64_t seek_rows_ = 0;
};

}  // namespace

std::unique_ptr<SourceSplit> NewIcebergStreamingSplit(IcebergMetadataLoader loader,
                                                      std::shared_ptr<IcebergDeleteLoader> deletes,
                                                      std::shared_ptr<const IcebergReadSchema> schema,
                                                      IcebergStreamingOptions options, GeneratorTiming timing,
                                                      std::string table) {
  return std::make_unique<IcebergStreamingSplit>(std::move(loader), std::move(deletes), std::move(schema), options,
                                                 std::move(timing), std::move(table));
}

}  // namespace sluice
