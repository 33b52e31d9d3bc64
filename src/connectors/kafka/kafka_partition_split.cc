#include "connectors/kafka/kafka_partition_split.h"

#include <algorithm>
#include <charconv>

#include "common/check.h"

namespace sluice {

namespace {

constexpr size_t kMaxPollBatch = 4096;

class KafkaPartitionSplit final : public SourceSplit {
 public:
  // `start_at_ts` / `stop_at_ts` (kNoOffset: none): records are read from the first one with a
  // timestamp at or after `start_at_ts`, and the split ends before the first one at or after
  // `stop_at_ts`. That is what Kafka's offsetsForTimes resolves to; checking the records too keeps
  // it exact where a cluster cannot look offsets up by time (librdkafka's mock cluster).
  KafkaPartitionSplit(std::shared_ptr<KafkaConsumerState> state, int slot, rd_kafka_queue_t* queue, std::string topic,
                      int32_t partition, int64_t start, int64_t stop, int64_t start_at_ts,
                      int64_t stop_at_ts, std::unique_ptr<RowAssembler> assembler)
      : state_(std::move(state)),
        slot_(slot),
        initial_start_at_ts_(start_at_ts),
        start_at_ts_(start_at_ts),
        stop_at_ts_(stop_at_ts),
        queue_(queue),
        topic_(std::move(topic)),
        partition_(partition),
        next_(start),
        stop_(stop),
        assembler_(std::move(assembler)),
        source_("topic '" + topic_ + "' partition " + std::to_string(partition_) + " offset") {}

  std::string id() const override { return "topic '" + topic_ + "' partition " + std::to_string(partition_); }
  int64_t records_skipped() const override { return assembler_->skipped(); }

  // The position is "<next offset> <rows of that record already emitted> <end offset or -1>
  // <start-timestamp filter still on: 0/1> <ended: 0/1>"; the next offset is librdkafka's logical
  // RD_KAFKA_OFFSET_BEGINNING (-2) for a discovered split that has seen neither a record nor the end
  // of its partition yet. A record can give two rows (debezium-json
  // -U/+U), so a checkpoint between them resumes at that record and drops the emitted row. The end
  // offset is kept, as Flink's split state keeps its stopping offset, so a bounded source ends where
  // it would have without the restart.
  std::string CheckpointPosition(size_t rows_of_last_read) const override {
    int64_t next = next_;
    size_t skip = 0;
    bool ts_filter = start_at_ts_ != kNoOffset;
    bool ended = ended_;
    if (rows_of_last_read < row_offsets_.size()) {
      next = row_offsets_[rows_of_last_read];
      for (size_t k = 0; k < rows_of_last_read; ++k) skip += row_offsets_[k] == next ? 1 : 0;
      ts_filter = false;  // the record at `next` passed the filter (or the filter was already off)
      ended = false;
    } else if (rows_of_last_read == 0 && skip_rows_ > 0) {
      // Restored in the middle of a record and nothing read since.
      skip = skip_rows_;
    }
    return std::to_string(next) + " " + std::to_string(skip) + " " + std::to_string(stop_) + " " +
           (ts_filter ? "1" : "0") + " " + (ended ? "1" : "0");
  }

  Status SeekToPosition(const std::string& position) override {
    int64_t v[5];
    RETURN_IF_ERROR(ParsePosition(position, v));
    if (slot_ < state_->assigned) return Status::Internal(id() + ": SeekToPosition after the first Read");
    next_ = v[0];
    restart_offset_ = next_;
    skip_rows_ = static_cast<size_t>(v[1]);
    stop_ = v[2];
    start_at_ts_ = v[3] != 0 ? initial_start_at_ts_ : kNoOffset;
    ended_ = v[4] != 0;
    state_->assignment->elems[slot_].offset = next_;
    return Status::OK();
  }

  // A partition that is new since the checkpoint (or found while running) starts at its earliest
  // offset, as Flink's enumerator starts every partition it has no state for. That is librdkafka's
  // logical RD_KAFKA_OFFSET_BEGINNING, which the fetcher resolves when it starts the partition, never
  // a low offset queried before: a partition just added to a topic may not be served by its leader yet,
  // and a start offset that is not the partition's own makes librdkafka reset it to the end
  // ('auto.offset.reset'), past the records written meanwhile.
  Status StartAsDiscovered() override {
    if (slot_ < state_->assigned) return Status::Internal(id() + ": StartAsDiscovered after the first Read");
    next_ = RD_KAFKA_OFFSET_BEGINNING;
    start_at_ts_ = kNoOffset;
    state_->assignment->elems[slot_].offset = next_;
    return Status::OK();
  }

  // Commits the partition's offset at the checkpoint: the next offset to read, or the end offset once
  // the split ended there (Flink commits a finished split's stopping offset).
  Status NotifyCheckpointComplete(int64_t checkpoint_id, const std::string& position) override {
    if (!state_->commit_offsets || position.empty()) return Status::OK();
    int64_t v[5];
    RETURN_IF_ERROR(ParsePosition(position, v));
    const bool ended = v[4] != 0;
    // (A split still at RD_KAFKA_OFFSET_BEGINNING reports a negative offset: nothing to commit for it.)
    state_->NoteCommit(checkpoint_id, slot_, ended && v[2] >= 0 ? std::max(v[0], v[2]) : v[0]);
    return Status::OK();
  }

  Result<bool> Read(size_t max_rows, Chunk* out) override {
    RETURN_IF_ERROR(state_->Assign());
    row_offsets_.clear();
    if (done_) return false;
    if (ended_ || (stop_ != kNoOffset && next_ >= stop_)) return Finish();
    const size_t want = std::max<size_t>(1, std::min(max_rows, kMaxPollBatch));
    msgs_.resize(want);
    ssize_t n = 0;
    if (state_->ShouldWait()) {
      rd_kafka_message_t* first = rd_kafka_consume_queue(queue_, kKafkaPollMillis);
      if (first != nullptr) {
        msgs_[0] = first;
        ssize_t more = want > 1 ? rd_kafka_consume_batch_queue(queue_, 0, msgs_.data() + 1, want - 1) : 0;
        n = 1 + std::max<ssize_t>(more, 0);
      }
    } else {
      n = rd_kafka_consume_batch_queue(queue_, 0, msgs_.data(), want);
    }
    if (n < 0) return Status::IOError("Cannot read " + id() + ": " + KafkaErrorText(rd_kafka_last_error()));
    msgs_.resize(static_cast<size_t>(n));
    Status status = ServeConsumerQueue();
    batch_.clear();
    for (rd_kafka_message_t* m : msgs_) {
      if (!status.ok() || ended_) continue;
      if (m->err == RD_KAFKA_RESP_ERR__PARTITION_EOF) {
        if (next_ < 0) next_ = m->offset;  // the end of a partition started at its beginning: its position
        if (stop_ != kNoOffset && m->offset >= stop_) ended_ = true;
        continue;
      }
      if (m->err != RD_KAFKA_RESP_ERR_NO_ERROR) {
        status = Status::IOError("Cannot read " + id() + ": " + KafkaErrorText(m->err) + " (" +
                                 rd_kafka_message_errstr(m) + ")");
        continue;
      }
      if (stop_ != kNoOffset && m->offset >= stop_) {
        ended_ = true;
        continue;
      }
      next_ = m->offset + 1;
      if (start_at_ts_ != kNoOffset || stop_at_ts_ != kNoOffset) {
        rd_kafka_timestamp_type_t type;
        int64_t ts = rd_kafka_message_timestamp(m, &type);
        if (stop_at_ts_ != kNoOffset && ts >= stop_at_ts_) {
          ended_ = true;
          continue;
        }
        if (start_at_ts_ != kNoOffset) {
          if (ts < start_at_ts_) continue;
          start_at_ts_ = kNoOffset;  // every later record counts
        }
      }
      batch_.push_back(m);
    }
    const size_t before = out->size();
    if (status.ok() && !batch_.empty()) {
      // After a restore in the middle of a record, its rows emitted before the checkpoint go.
      Chunk first;
      Chunk* target = out;
      if (skip_rows_ > 0) {
        for (const auto& c : out->columns()) first.AddColumn(Vector(c.type()));
        target = &first;
      }
      const size_t base = target->size();
      status = assembler_->Append(batch_, source_, target);
      if (status.ok()) {
        SLUICE_CHECK_EQ(target->size() - base, assembler_->row_messages().size());
        for (const rd_kafka_message_t* m : assembler_->row_messages()) row_offsets_.push_back(m->offset);
        if (target == &first && first.size() > 0) {
          size_t drop = 0;
          while (drop < first.size() && drop < skip_rows_ && row_offsets_[drop] == restart_offset_) ++drop;
          out->AppendFrom(first, nullptr, drop, first.size() - drop, /*copy_strings=*/true);
          row_offsets_.erase(row_offsets_.begin(), row_offsets_.begin() + static_cast<std::ptrdiff_t>(drop));
          skip_rows_ = 0;
        }
      }
    }
    for (rd_kafka_message_t* m : msgs_) rd_kafka_message_destroy(m);
    msgs_.clear();
    batch_.clear();
    RETURN_IF_ERROR(status);
    state_->empty_streak = n > 0 ? 0 : state_->empty_streak + 1;
    if (stop_ != kNoOffset && next_ >= stop_) ended_ = true;
    if (out->size() > before) return true;
    if (ended_) return Finish();
    return true;
  }

 private:
  // CheckpointPosition's five numbers.
  Status ParsePosition(const std::string& position, int64_t v[5]) const {
    const char* p = position.data();
    const char* end = p + position.size();
    for (int i = 0; i < 5; ++i) {
      while (p < end && *p == ' ') ++p;
      auto [next, ec] = std::from_chars(p, end, v[i]);
      if (ec != std::errc()) return Status::InvalidArgument("corrupt checkpoint position '" + position + "' of " + id());
      p = next;
    }
    if (p != end || (v[0] < 0 && v[0] != RD_KAFKA_OFFSET_BEGINNING) || v[1] < 0) {
      return Status::InvalidArgument("corrupt checkpoint position '" + position + "' of " + id());
    }
    return Status::OK();
  }

  bool Finish() {
    if (!done_) {
      done_ = true;
      --state_->active_splits;
    }
    return false;
  }

  Status ServeConsumerQueue() { return ServeKafkaConsumerQueue(state_->handle->get(), 0, "Cannot read " + id()); }

  std::shared_ptr<KafkaConsumerState> state_;
  int slot_;  // this partition's element in state_->assignment
  int64_t initial_start_at_ts_;
  int64_t start_at_ts_;
  int64_t stop_at_ts_;
  rd_kafka_queue_t* queue_;
  std::string topic_;
  int32_t partition_;
  int64_t next_;  // the next offset to read
  int64_t stop_;  // exclusive end, or kNoOffset
  std::unique_ptr<RowAssembler> assembler_;
  std::string source_;
  bool ended_ = false;
  bool done_ = false;
  std::vector<rd_kafka_message_t*> msgs_;
  std::vector<rd_kafka_message_t*> batch_;
  std::vector<int64_t> row_offsets_;  // the record offset of each row the last Read appended
  size_t skip_rows_ = 0;              // rows of the record at restart_offset_ to drop (restore)
  int64_t restart_offset_ = kNoOffset;
};

}  // namespace

Status ServeKafkaConsumerQueue(rd_kafka_t* rk, int wait_ms, const std::string& what) {
  int wait = wait_ms;
  while (rd_kafka_message_t* m = rd_kafka_consumer_poll(rk, wait)) {
    wait = 0;
    const bool fatal = m->err == RD_KAFKA_RESP_ERR__FATAL;
    rd_kafka_message_destroy(m);
    if (fatal) {
      char reason[512];
      rd_kafka_resp_err_t err = rd_kafka_fatal_error(rk, reason, sizeof(reason));
      return Status::IOError(what + ": " + KafkaErrorText(err) + " (" + reason + ")");
    }
  }
  return Status::OK();
}

KafkaConsumerState::~KafkaConsumerState() {
  if (assignment != nullptr) rd_kafka_topic_partition_list_destroy(assignment);
  for (rd_kafka_queue_t* q : queues) rd_kafka_queue_destroy(q);
  handle.reset();
}

Status KafkaConsumerState::Assign() {
  if (assignment == nullptr || assigned >= assignment->cnt) return Status::OK();
  if (assigned == 0) {
    rd_kafka_resp_err_t err = rd_kafka_assign(handle->get(), assignment);
    if (err != RD_KAFKA_RESP_ERR_NO_ERROR) return Status::IOError("Cannot assign partitions: " + KafkaErrorText(err));
  } else {
    // Partitions discovered while running join the assignment without moving the others.
    rd_kafka_topic_partition_list_t* added = rd_kafka_topic_partition_list_new(assignment->cnt - assigned);
    for (int i = assigned; i < assignment->cnt; ++i) {
      rd_kafka_topic_partition_list_add(added, assignment->elems[i].topic, assignment->elems[i].partition)->offset =
          assignment->elems[i].offset;
    }
    rd_kafka_error_t* error = rd_kafka_incremental_assign(handle->get(), added);
    rd_kafka_topic_partition_list_destroy(added);
    if (error != nullptr) {
      std::string text = rd_kafka_error_string(error);
      rd_kafka_error_destroy(error);
      return Status::IOError("Cannot assign the partitions found while running: " + text);
    }
  }
  assigned = assignment->cnt;
  return Status::OK();
}

void KafkaConsumerState::NoteCommit(int64_t id, int slot, int64_t offset) {
  if (!commit_offsets) return;
  if (id != commit_checkpoint) {
    // Partitions discovered after a checkpoint's barrier never report for it: what the others
    // reported is committed now, before the next checkpoint's offsets.
    if (commit_reported > 0) CommitPending();
    commit_checkpoint = id;
    commit_offsets_pending.assign(static_cast<size_t>(assignment->cnt), -1);
  }
  if (static_cast<size_t>(slot) >= commit_offsets_pending.size()) return;
  commit_offsets_pending[static_cast<size_t>(slot)] = offset;
  if (++commit_reported == static_cast<int>(commit_offsets_pending.size())) CommitPending();
}

void KafkaConsumerState::CommitPending() {
  rd_kafka_topic_partition_list_t* list = rd_kafka_topic_partition_list_new(assignment->cnt);
  for (size_t i = 0; i < commit_offsets_pending.size(); ++i) {
    if (commit_offsets_pending[i] < 0) continue;
    const auto& e = assignment->elems[i];
    rd_kafka_topic_partition_list_add(list, e.topic, e.partition)->offset = commit_offsets_pending[i];
  }
  if (list->cnt > 0) rd_kafka_commit(handle->get(), list, /*async=*/1);
  rd_kafka_topic_partition_list_destroy(list);
  commit_offsets_pending.assign(commit_offsets_pending.size(), -1);
  commit_reported = 0;
}

Result<std::unique_ptr<SourceSplit>> MakeKafkaPartitionSplit(const std::shared_ptr<KafkaConsumerState>& state,
                                                             const PartitionRange& p, int64_t start_at_ts,
                                                             int64_t stop_at_ts,
                                                             std::unique_ptr<RowAssembler> assembler) {
  rd_kafka_t* rk = state->handle->get();
  rd_kafka_queue_t* q = rd_kafka_queue_get_partition(rk, p.topic.c_str(), p.partition);
  if (q == nullptr) return Status::Internal("librdkafka has no queue for " + PartitionName(p));
  // Keep the partition's records on its own queue instead of the consumer's.
  rd_kafka_queue_forward(q, nullptr);
  state->queues.push_back(q);
  if (state->assignment == nullptr) state->assignment = rd_kafka_topic_partition_list_new(1);
  const int slot = state->assignment->cnt;
  rd_kafka_topic_partition_list_add(state->assignment, p.topic.c_str(), p.partition)->offset = p.start;
  ++state->active_splits;
  return std::unique_ptr<SourceSplit>(new KafkaPartitionSplit(state, slot, q, p.topic, p.partition, p.start, p.stop,
                                                              start_at_ts, stop_at_ts, std::move(assembler)));
}

}  // namespace sluice
