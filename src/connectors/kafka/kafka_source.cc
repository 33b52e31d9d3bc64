#include "connectors/kafka/kafka_source.h"

#include <algorithm>
#include <charconv>

#include "common/check.h"
#include "connectors/kafka/kafka_client.h"
#include "formats/format.h"
#include "types/vector.h"

namespace sluice {

namespace {

// Offsets that are not resolved yet / "no end".
constexpr int64_t kNoOffset = -1;
constexpr size_t kMaxPollBatch = 4096;

// Shared by the splits of one source: the consumer, its partition queues and the empty-poll count.
struct ConsumerState {
  std::unique_ptr<KafkaHandle> handle;
  std::vector<rd_kafka_queue_t*> queues;
  int active_splits = 0;
  int empty_streak = 0;  // consecutive Reads of any split that found nothing
  // Every partition with its start offset (element i: split i). The consumer is assigned them at
  // the first Read of any split, so a restore can move a split's start first (SeekToPosition).
  rd_kafka_topic_partition_list_t* assignment = nullptr;
  bool assigned = false;
  // 'properties.commit.offsets.on.checkpoint': each split reports its offset when a checkpoint
  // completes; once all have, they are committed to the group in one asynchronous request.
  bool commit_offsets = false;
  int64_t commit_checkpoint = 0;
  int commit_reported = 0;
  std::vector<int64_t> commit_offsets_pending;

  ~ConsumerState() {
    if (assignment != nullptr) rd_kafka_topic_partition_list_destroy(assignment);
    for (rd_kafka_queue_t* q : queues) rd_kafka_queue_destroy(q);
    handle.reset();
  }
  Status Assign() {
    if (assigned) return Status::OK();
    assigned = true;
    rd_kafka_resp_err_t err = rd_kafka_assign(handle->get(), assignment);
    if (err != RD_KAFKA_RESP_ERR_NO_ERROR) return Status::IOError("Cannot assign partitions: " + KafkaErrorText(err));
    return Status::OK();
  }
  // Wait for records only once every active split found nothing: then there is nothing else to do.
  bool ShouldWait() const { return empty_streak >= active_splits; }

  // Split `slot`'s offset at completed checkpoint `id`; commits when every split reported (Flink
  // commits asynchronously too and never fails the job for it: the checkpoint has the offsets).
  void NoteCommit(int64_t id, int slot, int64_t offset) {
    if (!commit_offsets) return;
    if (id != commit_checkpoint) {
      commit_checkpoint = id;
      commit_reported = 0;
      commit_offsets_pending.assign(static_cast<size_t>(assignment->cnt), -1);
    }
    commit_offsets_pending[static_cast<size_t>(slot)] = offset;
    if (++commit_reported < assignment->cnt) return;
    rd_kafka_topic_partition_list_t* list = rd_kafka_topic_partition_list_new(assignment->cnt);
    for (int i = 0; i < assignment->cnt; ++i) {
      if (commit_offsets_pending[static_cast<size_t>(i)] < 0) continue;
      rd_kafka_topic_partition_list_add(list, assignment->elems[i].topic, assignment->elems[i].partition)->offset =
          commit_offsets_pending[static_cast<size_t>(i)];
    }
    if (list->cnt > 0) rd_kafka_commit(handle->get(), list, /*async=*/1);
    rd_kafka_topic_partition_list_destroy(list);
  }
};

const char* TimestampTypeName(rd_kafka_timestamp_type_t t) {
  switch (t) {
    case RD_KAFKA_TIMESTAMP_CREATE_TIME: return "CreateTime";
    case RD_KAFKA_TIMESTAMP_LOG_APPEND_TIME: return "LogAppendTime";
    default: return "NoTimestampType";
  }
}

bool SameTypeFamily(const LogicalType& declared, const LogicalType& offered) {
  if (offered.IsTimestamp()) return declared.IsTimestamp();
  if (offered.id() == TypeId::kVarChar) return declared.id() == TypeId::kVarChar || declared.id() == TypeId::kChar;
  if (offered.id() == TypeId::kMap) {
    return declared.id() == TypeId::kMap && declared.child(0).id() == TypeId::kVarChar &&
           declared.child(1).IsBinaryString();
  }
  return declared.id() == offered.id();
}

// Decodes polled messages into rows of the projected schema plus metadata columns.
class RowAssembler {
 public:
  RowAssembler(const ConnectorContext& ctx, const KafkaTableOptions& o)
      : upsert_(o.upsert), changelog_(!o.value_format->changelog_mode().IsInsertOnly()), metadata_(ctx.metadata) {
    const Schema& physical = ctx.physical_schema;
    std::vector<int> projection = ctx.projection;
    if (projection.empty()) {
      for (size_t i = 0; i < physical.size(); ++i) projection.push_back(static_cast<int>(i));
    }
    for (int p : projection) {
      Output out;
      auto k = std::find(o.key_fields.begin(), o.key_fields.end(), p);
      if (k != o.key_fields.end()) out.key_pos = static_cast<int>(k - o.key_fields.begin());
      auto v = std::find(o.value_fields.begin(), o.value_fields.end(), p);
      if (v != o.value_fields.end()) {
        out.value_pos = static_cast<int>(value_projection_.size());
        value_projection_.push_back(static_cast<int>(v - o.value_fields.begin()));
        value_scan_.Add(o.value_schema.field(value_projection_.back()).name,
                        o.value_schema.field(value_projection_.back()).type);
      }
      outputs_.push_back(out);
    }
    if (value_projection_.empty()) value_scan_ = o.value_schema;  // the decoder then produces every field
    key_schema_ = o.key_schema;
  }

  Status Init(const KafkaTableOptions& o) {
    if (o.key_format != nullptr) {
      auto key = o.key_format->CreateDecoder(o.key_schema, {}, OptionReader(o.table_name, &o.key_format_options));
      if (!key.ok()) return WithFormatOptionPrefix(key.status(), "key.", *o.key_format);
      key_decoder_ = std::move(key).value();
    }
    auto value = o.value_format->CreateDecoder(o.value_schema, value_projection_,
                                               OptionReader(o.table_name, &o.value_format_options));
    if (!value.ok()) return WithFormatOptionPrefix(value.status(), o.value_option_prefix, *o.value_format);
    value_decoder_ = std::move(value).value();
    return Status::OK();
  }

  int64_t skipped() const { return skipped_; }
  // The message of each row the last Append appended, in order.
  const std::vector<rd_kafka_message_t*>& row_messages() const { return kept_; }

  // Appends one row per usable message; `source` names the partition in decode errors.
  Status Append(const std::vector<rd_kafka_message_t*>& msgs, const std::string& source, Chunk* out) {
    kept_.clear();
    for (rd_kafka_message_t* m : msgs) {
      bool has_key = m->key != nullptr;
      bool has_value = m->payload != nullptr;
      // Flink emits nothing for a record whose key the key format gets as null, and an append-only
      // table has no row for a tombstone.
      if ((key_decoder_ && !has_key) || (!upsert_ && !has_value)) {
        ++skipped_;
        continue;
      }
      kept_.push_back(m);
    }
    if (kept_.empty()) return Status::OK();
    Chunk keys(key_schema_);
    Chunk values(value_scan_);
    if (changelog_) return AppendChangelog(source, &keys, &values, out);
    records_.clear();
    if (key_decoder_) {
      for (rd_kafka_message_t* m : kept_) records_.push_back(Record(m->key, m->key_len, m->offset));
      RETURN_IF_ERROR(key_decoder_->Decode(RecordBatch{records_.data(), records_.size(), source, false}, &keys));
    }
    bool aligned = !key_decoder_ || keys.size() == kept_.size();
    size_t with_value = 0;
    if (aligned) {
      records_.clear();
      for (rd_kafka_message_t* m : kept_) {
        if (m->payload != nullptr) records_.push_back(Record(m->payload, m->len, m->offset));
      }
      with_value = records_.size();
      RETURN_IF_ERROR(value_decoder_->Decode(RecordBatch{records_.data(), records_.size(), source, false}, &values));
      aligned = values.size() == with_value;
    }
    if (!aligned) {
      // A format skipped malformed records ('ignore-parse-errors'): decode one message at a time so
      // keys, values and metadata stay in step.
      keys = Chunk(key_schema_);
      values = Chunk(value_scan_);
      std::vector<rd_kafka_message_t*> good;
      for (rd_kafka_message_t* m : kept_) {
        size_t v0 = values.size();
        if (m->payload != nullptr) {
          TextRecord r = Record(m->payload, m->len, m->offset);
          RETURN_IF_ERROR(value_decoder_->Decode(RecordBatch{&r, 1, source, false}, &values));
          if (values.size() == v0) {
            ++skipped_;
            continue;
          }
        }
        if (key_decoder_) {
          size_t k0 = keys.size();
          TextRecord r = Record(m->key, m->key_len, m->offset);
          RETURN_IF_ERROR(key_decoder_->Decode(RecordBatch{&r, 1, source, false}, &keys));
          if (keys.size() == k0) {
            values.Resize(v0);
            ++skipped_;
            continue;
          }
        }
        good.push_back(m);
      }
      kept_ = std::move(good);
    }
    Assemble(keys, values, out);
    return Status::OK();
  }

 private:
  struct Output {
    int key_pos = -1;    // column of the key chunk, or -1
    int value_pos = -1;  // column of the value chunk, or -1
  };

  // A changelog value format (debezium-json) yields 0, 1 or 2 rows per message, with their kinds:
  // messages are decoded one at a time and each is repeated (key columns, metadata) per row.
  Status AppendChangelog(const std::string& source, Chunk* keys, Chunk* values, Chunk* out) {
    std::vector<rd_kafka_message_t*> rows;
    for (rd_kafka_message_t* m : kept_) {
      const size_t v0 = values->size();
      TextRecord r = Record(m->payload, m->len, m->offset);
      RETURN_IF_ERROR(value_decoder_->Decode(RecordBatch{&r, 1, source, false}, values));
      const size_t produced = values->size() - v0;
      if (produced == 0) {
        ++skipped_;
        continue;
      }
      if (key_decoder_) {
        Chunk one_key(key_schema_);
        TextRecord k = Record(m->key, m->key_len, m->offset);
        RETURN_IF_ERROR(key_decoder_->Decode(RecordBatch{&k, 1, source, false}, &one_key));
        if (one_key.size() == 0) {
          values->Resize(v0);
          ++skipped_;
          continue;
        }
        for (size_t i = 0; i < produced; ++i) keys->AppendFrom(one_key, nullptr, 0, 1);
      }
      rows.insert(rows.end(), produced, m);
    }
    kept_ = std::move(rows);
    const size_t base = out->size();
    Assemble(*keys, *values, out);
    std::copy(values->kinds(), values->kinds() + values->size(), out->kinds() + base);
    return Status::OK();
  }

  static TextRecord Record(const void* data, size_t len, int64_t offset) {
    return TextRecord{std::string_view(static_cast<const char*>(data), len), offset};
  }

  void Assemble(const Chunk& keys, const Chunk& values, Chunk* out) {
    const size_t rows = kept_.size();
    const size_t base = out->size();
    // An empty projection means every physical column (ConnectorContext), except that the planner
    // also sends one when a query reads only metadata columns: the chunk then has none.
    const size_t physical = out->num_columns() == metadata_.size() ? 0 : outputs_.size();
    SLUICE_CHECK_EQ(physical + metadata_.size(), out->num_columns());
    for (size_t j = 0; j < physical; ++j) {
      const Output& o = outputs_[j];
      Vector& col = out->column(j);
      // Copy runs of rows that take the column from the same place (value, key or NULL).
      size_t r = 0;
      size_t value_row = 0;
      while (r < rows) {
        auto source_of = [&](size_t i) {
          if (kept_[i]->payload != nullptr && o.value_pos >= 0) return 0;
          return o.key_pos >= 0 ? 1 : 2;
        };
        const int src = source_of(r);
        size_t end = r + 1;
        while (end < rows && source_of(end) == src) ++end;
        const size_t len = end - r;
        if (src == 0) {
          col.AppendFrom(values.column(static_cast<size_t>(o.value_pos)), nullptr, value_row, len);
        } else if (src == 1) {
          col.AppendFrom(keys.column(static_cast<size_t>(o.key_pos)), nullptr, r, len);
        } else {
          size_t old = col.size();
          col.Resize(old + len);
          for (size_t i = 0; i < len; ++i) col.SetNull(old + i, true);
        }
        for (size_t i = r; i < end; ++i) value_row += kept_[i]->payload != nullptr ? 1 : 0;
        r = end;
      }
    }
    for (size_t m = 0; m < metadata_.size(); ++m) AppendMetadata(metadata_[m].name, &out->column(physical + m));
    out->kind_vector().resize(base + rows, RowKind::kInsert);
    if (upsert_) {
      for (size_t i = 0; i < rows; ++i) {
        if (kept_[i]->payload == nullptr) out->kinds()[base + i] = RowKind::kDelete;
      }
    }
  }

  void AppendMetadata(const std::string& key, Vector* col) {
    const size_t rows = kept_.size();
    const size_t old = col->size();
    col->Resize(old + rows);
    const bool wide = col->type().id() == TypeId::kBigInt;
    for (size_t i = 0; i < rows; ++i) {
      const rd_kafka_message_t* m = kept_[i];
      const size_t row = old + i;
      if (key == "topic") {
        col->SetString(row, rd_kafka_topic_name(m->rkt));
      } else if (key == "partition") {
        if (wide) {
          col->data<int64_t>()[row] = m->partition;
        } else {
          col->data<int32_t>()[row] = m->partition;
        }
      } else if (key == "offset") {
        col->data<int64_t>()[row] = m->offset;
      } else if (key == "timestamp") {
        rd_kafka_timestamp_type_t type;
        col->data<int64_t>()[row] = rd_kafka_message_timestamp(m, &type) * 1000;
      } else if (key == "timestamp-type") {
        rd_kafka_timestamp_type_t type;
        (void)rd_kafka_message_timestamp(m, &type);
        col->SetString(row, TimestampTypeName(type));
      } else if (key == "leader-epoch") {
        // librdkafka 2.0 does not expose the leader epoch of a fetched record: unknown, as Flink's
        // record.leaderEpoch() when the broker sends none.
        col->SetNull(row, true);
      } else if (key == "headers") {
        AppendHeaders(m, col, row);
      }
    }
  }

  static void AppendHeaders(const rd_kafka_message_t* m, Vector* col, size_t row) {
    Vector& keys = col->child(0);
    Vector& values = col->child(1);
    const uint32_t begin = static_cast<uint32_t>(keys.size());
    rd_kafka_headers_t* hdrs = nullptr;
    uint32_t n = 0;
    if (rd_kafka_message_headers(m, &hdrs) == RD_KAFKA_RESP_ERR_NO_ERROR) {
      const char* name;
      const void* value;
      size_t size;
      for (size_t idx = 0; rd_kafka_header_get_all(hdrs, idx, &name, &value, &size) == RD_KAFKA_RESP_ERR_NO_ERROR; ++idx) {
        size_t at = keys.size();
        keys.Resize(at + 1);
        values.Resize(at + 1);
        keys.SetString(at, name);
        if (value == nullptr) {
          values.SetNull(at, true);
        } else {
          values.SetString(at, std::string_view(static_cast<const char*>(value), size));
        }
        ++n;
      }
    }
    col->data<ListEntry>()[row] = ListEntry{begin, n};
  }

  bool upsert_;
  bool changelog_;  // the value format carries RowKinds (debezium-json)
  std::vector<Field> metadata_;
  std::vector<Output> outputs_;
  std::vector<int> value_projection_;  // value format fields decoded, in output order
  Schema value_scan_;                  // their schema
  Schema key_schema_;
  std::unique_ptr<RecordDecoder> key_decoder_;
  std::unique_ptr<RecordDecoder> value_decoder_;
  std::vector<rd_kafka_message_t*> kept_;
  std::vector<TextRecord> records_;
  int64_t skipped_ = 0;
};

class KafkaPartitionSplit final : public SourceSplit {
 public:
  // `start_at_ts` / `stop_at_ts` (kNoOffset: none): records are read from the first one with a
  // timestamp at or after `start_at_ts`, and the split ends before the first one at or after
  // `stop_at_ts`. That is what Kafka's offsetsForTimes resolves to; checking the records too keeps
  // it exact where a cluster cannot look offsets up by time (librdkafka's mock cluster).
  KafkaPartitionSplit(std::shared_ptr<ConsumerState> state, int slot, rd_kafka_queue_t* queue, std::string topic,
                      int32_t partition, int64_t start, int64_t stop, int64_t start_at_ts, int64_t stop_at_ts,
                      std::unique_ptr<RowAssembler> assembler)
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
  // <start-timestamp filter still on: 0/1> <ended: 0/1>". A record can give two rows (debezium-json
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
    if (state_->assigned) return Status::Internal(id() + ": SeekToPosition after the first Read");
    next_ = v[0];
    restart_offset_ = next_;
    skip_rows_ = static_cast<size_t>(v[1]);
    stop_ = v[2];
    start_at_ts_ = v[3] != 0 ? initial_start_at_ts_ : kNoOffset;
    ended_ = v[4] != 0;
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
    if (p != end || v[0] < 0 || v[1] < 0) {
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

  // Client-level events (errors not tied to a partition) arrive on the consumer queue; librdkafka
  // retries transient ones itself, so only a fatal error ends the read.
  Status ServeConsumerQueue() {
    rd_kafka_t* rk = state_->handle->get();
    while (rd_kafka_message_t* m = rd_kafka_consumer_poll(rk, 0)) {
      const bool fatal = m->err == RD_KAFKA_RESP_ERR__FATAL;
      rd_kafka_message_destroy(m);
      if (fatal) {
        char reason[512];
        rd_kafka_resp_err_t err = rd_kafka_fatal_error(rk, reason, sizeof(reason));
        return Status::IOError("Cannot read " + id() + ": " + KafkaErrorText(err) + " (" + reason + ")");
      }
    }
    return Status::OK();
  }

  std::shared_ptr<ConsumerState> state_;
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

struct PartitionRange {
  std::string topic;
  int32_t partition;
  int64_t low = 0;
  int64_t high = 0;
  int64_t start = kNoOffset;
  int64_t stop = kNoOffset;
};

std::string PartitionName(const PartitionRange& p) { return p.topic + "-" + std::to_string(p.partition); }

// Committed offsets of the consumer group, kNoOffset where there is none.
Status FetchCommitted(rd_kafka_t* rk, std::vector<PartitionRange>* parts, std::vector<int64_t>* committed) {
  rd_kafka_topic_partition_list_t* list = rd_kafka_topic_partition_list_new(static_cast<int>(parts->size()));
  for (const auto& p : *parts) rd_kafka_topic_partition_list_add(list, p.topic.c_str(), p.partition);
  rd_kafka_resp_err_t err = rd_kafka_committed(rk, list, kKafkaRequestTimeoutMs);
  if (err != RD_KAFKA_RESP_ERR_NO_ERROR) {
    rd_kafka_topic_partition_list_destroy(list);
    return Status::IOError("Cannot fetch the committed offsets of the consumer group: " + KafkaErrorText(err));
  }
  committed->assign(parts->size(), kNoOffset);
  for (int i = 0; i < list->cnt; ++i) {
    const auto& e = list->elems[i];
    if (e.err == RD_KAFKA_RESP_ERR_NO_ERROR && e.offset >= 0) (*committed)[static_cast<size_t>(i)] = e.offset;
  }
  rd_kafka_topic_partition_list_destroy(list);
  return Status::OK();
}

// The first offset at or after `timestamp_ms` per partition; `fallback(partition)` where the
// cluster knows none (a real broker: no such record yet; the mock cluster: no lookup by time).
template <typename Fallback>
Status OffsetsForTimes(rd_kafka_t* rk, const std::vector<PartitionRange>& parts, int64_t timestamp_ms,
                       std::vector<int64_t>* offsets, Fallback fallback) {
  rd_kafka_topic_partition_list_t* list = rd_kafka_topic_partition_list_new(static_cast<int>(parts.size()));
  for (const auto& p : parts) rd_kafka_topic_partition_list_add(list, p.topic.c_str(), p.partition)->offset = timestamp_ms;
  rd_kafka_resp_err_t err = rd_kafka_offsets_for_times(rk, list, kKafkaRequestTimeoutMs);
  if (err != RD_KAFKA_RESP_ERR_NO_ERROR) {
    rd_kafka_topic_partition_list_destroy(list);
    return Status::IOError("Cannot look up offsets by timestamp: " + KafkaErrorText(err));
  }
  offsets->assign(parts.size(), kNoOffset);
  for (int i = 0; i < list->cnt; ++i) {
    const auto& e = list->elems[i];
    size_t k = static_cast<size_t>(i);
    (*offsets)[k] = (e.err == RD_KAFKA_RESP_ERR_NO_ERROR && e.offset >= 0) ? e.offset : fallback(parts[k]);
  }
  rd_kafka_topic_partition_list_destroy(list);
  return Status::OK();
}

class KafkaSource final : public TableSource {
 public:
  KafkaSource(ConnectorContext ctx, KafkaTableOptions options) : ctx_(std::move(ctx)), options_(std::move(options)) {}
  ChangelogMode changelog_mode() const override {
    // 'kafka' emits what its value format carries (debezium-json: a changelog), as Flink's.
    return options_.upsert ? ChangelogMode::Upsert() : options_.value_format->changelog_mode();
  }
  bool bounded() const override { return options_.bounded_mode != KafkaBoundedMode::kUnbounded; }

  Result<std::vector<std::unique_ptr<SourceSplit>>> CreateSplits() override {
    auto splits = Create();
    if (!splits.ok()) return splits.status().WithContext(options_.error_context);
    return splits;
  }

 private:
  Result<std::vector<std::unique_ptr<SourceSplit>>> Create() {
    KafkaClientSpec spec;
    spec.type = RD_KAFKA_CONSUMER;
    spec.overrides["enable.partition.eof"] = "true";
    // Offsets go to the group when checkpoints complete ('properties.commit.offsets.on.checkpoint'),
    // not by librdkafka's periodic auto-commit, unless the table asks for that.
    spec.defaults["enable.auto.commit"] = "false";
    if (!options_.properties.count("group.id")) {
      // librdkafka assigns partitions only to a consumer with a group; without the user's, use a
      // private one that never commits.
      spec.overrides["group.id"] = "sluice-" + options_.table_name;
      spec.overrides["enable.auto.commit"] = "false";
    }
    auto state = std::make_shared<ConsumerState>();
    state->commit_offsets = options_.commit_offsets_on_checkpoint;
    ASSIGN_OR_RETURN(state->handle, CreateKafkaClient(options_, spec));
    rd_kafka_t* rk = state->handle->get();
    ASSIGN_OR_RETURN(std::vector<TopicPartitions> topics, DiscoverTopics(rk, options_));
    std::vector<PartitionRange> parts;
    for (const auto& t : topics) {
      for (int32_t p = 0; p < t.partitions; ++p) parts.push_back({t.topic, p});
    }
    for (auto& p : parts) {
      rd_kafka_resp_err_t err =
          rd_kafka_query_watermark_offsets(rk, p.topic.c_str(), p.partition, &p.low, &p.high, kKafkaRequestTimeoutMs);
      if (err != RD_KAFKA_RESP_ERR_NO_ERROR) {
        return Status::IOError("Cannot read the offsets of " + PartitionName(p) + ": " + KafkaErrorText(err));
      }
    }
    RETURN_IF_ERROR(ResolveStart(rk, &parts));
    RETURN_IF_ERROR(ResolveStop(rk, &parts));

    state->assignment = rd_kafka_topic_partition_list_new(static_cast<int>(parts.size()));
    rd_kafka_topic_partition_list_t* assignment = state->assignment;
    std::vector<std::unique_ptr<SourceSplit>> splits;
    for (const auto& p : parts) {
      rd_kafka_queue_t* q = rd_kafka_queue_get_partition(rk, p.topic.c_str(), p.partition);
      if (q == nullptr) return Status::Internal("librdkafka has no queue for " + PartitionName(p));
      // Keep the partition's records on its own queue instead of the consumer's.
      rd_kafka_queue_forward(q, nullptr);
      state->queues.push_back(q);
      rd_kafka_topic_partition_list_add(assignment, p.topic.c_str(), p.partition)->offset = p.start;
      auto assembler = std::make_unique<RowAssembler>(ctx_, options_);
      RETURN_IF_ERROR(assembler->Init(options_));
      int64_t start_ts = options_.startup_mode == KafkaStartupMode::kTimestamp ? options_.startup_timestamp_millis : kNoOffset;
      int64_t stop_ts = options_.bounded_mode == KafkaBoundedMode::kTimestamp ? options_.bounded_timestamp_millis : kNoOffset;
      const int slot = static_cast<int>(splits.size());
      splits.push_back(std::make_unique<KafkaPartitionSplit>(state, slot, q, p.topic, p.partition, p.start, p.stop,
                                                             start_ts, stop_ts, std::move(assembler)));
    }
    state->active_splits = static_cast<int>(splits.size());
    // The consumer is assigned the partitions at the first Read (ConsumerState::Assign).
    return splits;
  }

  Status ResolveStart(rd_kafka_t* rk, std::vector<PartitionRange>* parts) {
    std::vector<int64_t> committed;
    const auto mode = options_.startup_mode;
    if (mode == KafkaStartupMode::kGroupOffsets ||
        (mode == KafkaStartupMode::kSpecificOffsets && options_.properties.count("group.id"))) {
      RETURN_IF_ERROR(FetchCommitted(rk, parts, &committed));
    }
    std::vector<int64_t> by_time;
    if (mode == KafkaStartupMode::kTimestamp) {
      // Without an offset, read from the start and skip records older than the timestamp.
      RETURN_IF_ERROR(OffsetsForTimes(rk, *parts, options_.startup_timestamp_millis, &by_time,
                                      [](const PartitionRange& p) { return p.low; }));
    }
    std::string reset = options_.properties.count("auto.offset.reset") ? options_.properties.at("auto.offset.reset") : "";
    for (char& c : reset) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    std::vector<std::string> missing;
    for (size_t i = 0; i < parts->size(); ++i) {
      PartitionRange& p = (*parts)[i];
      switch (mode) {
        case KafkaStartupMode::kEarliestOffset: p.start = p.low; break;
        case KafkaStartupMode::kLatestOffset: p.start = p.high; break;
        case KafkaStartupMode::kTimestamp: p.start = by_time[i]; break;
        case KafkaStartupMode::kSpecificOffsets: {
          auto it = p.topic == options_.topics.front() ? options_.startup_offsets.find(p.partition)
                                                       : options_.startup_offsets.end();
          if (it != options_.startup_offsets.end()) {
            p.start = it->second;
          } else {
            p.start = !committed.empty() && committed[i] != kNoOffset ? committed[i] : p.low;
          }
          break;
        }
        case KafkaStartupMode::kGroupOffsets:
          if (committed[i] != kNoOffset) {
            p.start = committed[i];
          } else if (reset == "earliest" || reset == "smallest" || reset == "beginning") {
            p.start = p.low;
          } else if (reset == "latest" || reset == "largest" || reset == "end") {
            p.start = p.high;
          } else {
            missing.push_back(PartitionName(p));
          }
          break;
      }
      p.start = std::clamp(p.start, p.low, p.high);
    }
    if (!missing.empty()) {
      std::string list;
      for (const auto& m : missing) list += (list.empty() ? "" : ", ") + m;
      return Status::InvalidArgument("Undefined offset with no reset policy for partitions: [" + list +
                                     "]. The consumer group '" + options_.properties.at("group.id") +
                                     "' has no committed offset there ('scan.startup.mode' = 'group-offsets'); set "
                                     "'properties.auto.offset.reset' to 'earliest' or 'latest', or choose another "
                                     "'scan.startup.mode'.");
    }
    return Status::OK();
  }

  Status ResolveStop(rd_kafka_t* rk, std::vector<PartitionRange>* parts) {
    const auto mode = options_.bounded_mode;
    std::vector<int64_t> values;
    if (mode == KafkaBoundedMode::kGroupOffsets) RETURN_IF_ERROR(FetchCommitted(rk, parts, &values));
    if (mode == KafkaBoundedMode::kTimestamp) {
      // Without an offset, end at the current end or at the first record at or after the timestamp.
      RETURN_IF_ERROR(OffsetsForTimes(rk, *parts, options_.bounded_timestamp_millis, &values,
                                      [](const PartitionRange& p) { return p.high; }));
    }
    std::vector<std::string> missing;
    for (size_t i = 0; i < parts->size(); ++i) {
      PartitionRange& p = (*parts)[i];
      switch (mode) {
        case KafkaBoundedMode::kUnbounded: p.stop = kNoOffset; break;
        case KafkaBoundedMode::kLatestOffset: p.stop = p.high; break;
        case KafkaBoundedMode::kTimestamp: p.stop = values[i]; break;
        case KafkaBoundedMode::kGroupOffsets:
          if (values[i] == kNoOffset) missing.push_back(PartitionName(p));
          p.stop = values[i];
          break;
        case KafkaBoundedMode::kSpecificOffsets: {
          auto it = p.topic == options_.topics.front() ? options_.bounded_offsets.find(p.partition)
                                                       : options_.bounded_offsets.end();
          // "If an offset for a partition is not provided it will not consume from that partition."
          p.stop = it != options_.bounded_offsets.end() ? it->second : p.start;
          break;
        }
      }
      if (p.stop != kNoOffset) p.stop = std::max(p.stop, p.start);
    }
    if (!missing.empty()) {
      std::string list;
      for (const auto& m : missing) list += (list.empty() ? "" : ", ") + m;
      return Status::InvalidArgument("Undefined offset with no reset policy for partitions: [" + list +
                                     "]. The consumer group '" + options_.properties.at("group.id") +
                                     "' has no committed offset there to end at ('scan.bounded.mode' = "
                                     "'group-offsets').");
    }
    return Status::OK();
  }

  ConnectorContext ctx_;
  KafkaTableOptions options_;
};

}  // namespace

const std::vector<Field>& KafkaReadableMetadata() {
  static const std::vector<Field> kMetadata = {
      {"topic", LogicalType::String().WithNullable(false)},
      {"partition", LogicalType::Integer().WithNullable(false)},
      {"headers", LogicalType::Map(LogicalType::String(), LogicalType::Bytes()).WithNullable(false)},
      {"leader-epoch", LogicalType::Integer()},
      {"offset", LogicalType::BigInt().WithNullable(false)},
      {"timestamp", LogicalType::TimestampLtz(3).WithNullable(false)},
      {"timestamp-type", LogicalType::String().WithNullable(false)},
  };
  return kMetadata;
}

Status ValidateKafkaMetadata(const ConnectorContext& ctx) {
  for (const Field& m : ctx.metadata) {
    const Field* offered = nullptr;
    for (const Field& o : KafkaReadableMetadata()) {
      if (o.name == m.name) offered = &o;
    }
    if (offered == nullptr) {
      std::string keys;
      for (const Field& o : KafkaReadableMetadata()) keys += (keys.empty() ? "" : ", ") + o.name;
      return Status::InvalidArgument("the Kafka connector offers no metadata key '" + m.name + "' (available: " + keys +
                                     ")");
    }
    bool ok = m.name == "partition" ? (m.type.id() == TypeId::kInteger || m.type.id() == TypeId::kBigInt)
                                    : SameTypeFamily(m.type, offered->type);
    if (!ok) {
      return Status::InvalidArgument("the Kafka metadata key '" + m.name + "' has type " + offered->type.ToString() +
                                     "; a column of type " + m.type.ToString() + " cannot read it");
    }
  }
  return Status::OK();
}

Result<std::unique_ptr<TableSource>> MakeKafkaSource(ConnectorContext ctx, KafkaTableOptions options) {
  // Check the formats' options now, so a bad value fails when the query is planned.
  RowAssembler check(ctx, options);
  Status s = check.Init(options);
  if (!s.ok()) return s.WithContext(options.error_context);
  return std::unique_ptr<TableSource>(new KafkaSource(std::move(ctx), std::move(options)));
}

}  // namespace sluice
