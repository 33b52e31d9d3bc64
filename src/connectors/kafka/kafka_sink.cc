#include "connectors/kafka/kafka_sink.h"

#include <algorithm>
#include <chrono>
#include <future>
#include <optional>
#include <random>
#include <unordered_map>

#include "common/check.h"
#include "common/failpoint.h"
#include "connectors/kafka/kafka_client.h"
#include "connectors/kafka/kafka_metadata_writer.h"
#include "connectors/kafka/kafka_transactions.h"
#include "formats/format.h"
#include "types/vector.h"

namespace sluice {

namespace {

// One encoded record inside a buffer: [begin, begin + size).
struct Span {
  size_t begin = 0;
  size_t size = 0;
  bool null = false;  // a null message (RecordEncoder::null_as_null_record)
};

// Encodes every row of `chunk` into `buf` and cuts it into one record per row (the format's
// trailing '\n' removed). One Encode call covers the whole chunk; only when a record holds a line
// break of its own (a quoted CSV field) are the rows encoded one by one to find the boundaries.
Status EncodeRecords(RecordEncoder* encoder, const Chunk& chunk, std::string* buf, std::vector<Span>* spans) {
  buf->clear();
  spans->clear();
  if (encoder->binary()) {  // avro, raw: the format gives each record's end
    std::vector<size_t> ends;
    RETURN_IF_ERROR(encoder->EncodeBinary(chunk, buf, &ends));
    size_t begin = 0;
    const Vector* nullable = encoder->null_as_null_record() ? &chunk.column(0) : nullptr;
    for (size_t end : ends) {
      const bool null = nullable != nullptr && nullable->IsNull(spans->size());
      spans->push_back({begin, end - begin, null});
      begin = end;
    }
    return Status::OK();
  }
  RETURN_IF_ERROR(encoder->Encode(chunk, buf));
  if (static_cast<size_t>(std::count(buf->begin(), buf->end(), '\n')) == chunk.size()) {
    size_t begin = 0;
    for (size_t nl = buf->find('\n'); nl != std::string::npos; nl = buf->find('\n', begin)) {
      spans->push_back({begin, nl - begin, false});
      begin = nl + 1;
    }
    return Status::OK();
  }
  buf->clear();
  std::vector<LogicalType> types;
  for (const auto& c : chunk.columns()) types.push_back(c.type());
  for (size_t r = 0; r < chunk.size(); ++r) {
    Chunk one(types);
    one.AppendFrom(chunk, nullptr, r, 1);
    size_t begin = buf->size();
    RETURN_IF_ERROR(encoder->Encode(one, buf));
    size_t end = buf->size();
    if (end > begin && (*buf)[end - 1] == '\n') --end;
    spans->push_back({begin, end - begin, false});
  }
  return Status::OK();
}

// The columns `fields` of `chunk` (rows `sel`, or all when null) as a chunk of their own.
Chunk SelectColumns(const Chunk& chunk, const std::vector<int>& fields, const std::vector<uint32_t>* sel) {
  Chunk out;
  for (int f : fields) {
    const Vector& src = chunk.column(static_cast<size_t>(f));
    if (sel == nullptr) {
      out.AddColumn(src);
    } else {
      Vector v(src.type());
      v.AppendFrom(src, sel->data(), 0, sel->size());
      out.AddColumn(std::move(v));
    }
  }
  out.Resize(sel == nullptr ? chunk.size() : sel->size());
  return out;
}

struct DeliveryState {
  int64_t failed = 0;
  std::string first_error;
};

void OnDelivery(rd_kafka_t*, const rd_kafka_message_t* m, void* opaque) {
  if (m->err == RD_KAFKA_RESP_ERR_NO_ERROR) return;
  auto* d = static_cast<DeliveryState*>(opaque);
  if (d->failed++ == 0) d->first_error = KafkaErrorText(m->err);
}

// A fresh job lineage (kafka_transactions.h): random and never 0.
uint64_t NewLineage() {
  std::random_device rd;
  uint64_t v = (static_cast<uint64_t>(rd()) << 32) ^ rd();
  return v == 0 ? 1 : v;
}

int64_t NowMillis() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}

class KafkaWriter final : public SinkWriter {
 public:
  KafkaWriter(const ConnectorContext& ctx, const KafkaTableOptions& o)
      : ctx_(ctx), options_(o), exactly_once_(o.delivery_guarantee == KafkaDeliveryGuarantee::kExactlyOnce) {}

  // A transaction left open (the job failed) is aborted, so read_committed readers need not wait for
  // its timeout; whatever it held is written again by the recovery of the restored checkpoint.
  ~KafkaWriter() override {
    (void)WaitMarker();
    if (handle_ != nullptr && txn_open_) AbortKafkaTransaction(handle_->get());
    handle_.reset();
    if (holds_index_) ReleaseKafkaWriterIndex(options_.transactional_id_prefix, options_.writer_index);
  }

  // Creates the encoders (checking the formats' options); connects only when `connect`.
  Status Open(bool connect) {
    if (options_.key_format != nullptr) {
      auto key = options_.key_format->CreateEncoder(options_.key_schema,
                                                    OptionReader(options_.table_name, &options_.key_format_options));
      if (!key.ok()) return WithFormatOptionPrefix(key.status(), "key.", *options_.key_format);
      key_encoder_ = std::move(key).value();
    }
    auto value = options_.value_format->CreateEncoder(options_.value_schema,
                                                      OptionReader(options_.table_name, &options_.value_format_options));
    if (!value.ok()) return WithFormatOptionPrefix(value.status(), options_.value_option_prefix, *options_.value_format);
    value_encoder_ = std::move(value).value();
    if (exactly_once_) RETURN_IF_ERROR(CheckTransactionTimeoutFitsInterval(ctx_.config, options_));
    ASSIGN_OR_RETURN(metadata_, KafkaMetadataWriter::Make(ctx_, options_));
    if (!connect) return Status::OK();
    value_is_whole_row_ = options_.value_fields.size() == ctx_.physical_schema.size() && ctx_.metadata.empty();
    KafkaClientSpec spec;
    spec.type = RD_KAFKA_PRODUCER;
    // Kafka's default partitioner: murmur2 of the key (random without one), as Flink's 'default'.
    spec.defaults["partitioner"] = "murmur2_random";
    spec.dr_msg_cb = &OnDelivery;
    spec.opaque = &delivery_;
    if (exactly_once_) {
      options_.writer_index = AcquireKafkaWriterIndex(options_.transactional_id_prefix);
      holds_index_ = true;
      spec.overrides["transactional.id"] = KafkaTransactionalId(options_);
    }
    ASSIGN_OR_RETURN(handle_, CreateKafkaClient(options_, spec));
    RETURN_IF_ERROR(CheckKafkaReachable(handle_->get(), options_));
    topic_ = options_.topics.front();
    if (exactly_once_) {
      // Fences the producers of earlier runs with this transactional.id and aborts their open transaction.
      RETURN_IF_ERROR(InitKafkaTransactions(handle_->get(), options_));
      lineage_ = NewLineage();
    }
    if (options_.partitioner != KafkaPartitioner::kDefault) {
      ASSIGN_OR_RETURN(auto topics, DiscoverTopics(handle_->get(), options_));
      partitions_ = topics.front().partitions;
    }
    buffering_ = options_.buffer_flush_max_rows > 0 && options_.buffer_flush_interval_ms > 0;
    return Status::OK();
  }

  Status Write(const Chunk& chunk) override {
    Status s = WriteChunk(chunk);
    return s.ok() ? s : s.WithContext(options_.error_context);
  }

  Status Finish() override {
    Status s = FinishWrites();
    // Exactly-once without checkpoints: the whole run is one transaction, committed at the end. With
    // them, the final checkpoint's PreCommit and Commit end the last transaction.
    if (s.ok() && exactly_once_ && !two_phase_ && txn_open_) {
      s = CommitKafkaTransaction(handle_->get(), options_, topic_, std::nullopt);
      txn_open_ = false;
      transactions_ += s.ok() ? 1 : 0;
    }
    return s.ok() ? s : s.WithContext(options_.error_context);
  }

  // Exactly-once sinks: the transactions committed and the records a recovery wrote again.
  std::vector<std::pair<std::string, std::string>> SummaryFields() const override {
    if (!exactly_once_) return {};
    return {{"kafka topic", topic_},
            {"transactions", std::to_string(transactions_)},
            {"replayed records", std::to_string(replayed_)}};
  }

  bool EnableTwoPhaseCommit() override {
    two_phase_ = exactly_once_;
    return two_phase_;
  }

  // At-least-once: at a checkpoint, everything written so far is delivered and acknowledged before
  // the checkpoint completes, so a restart from it loses nothing (as Flink's KafkaSink flushes on
  // checkpoints); records after it are written again. Exactly-once: PreCommitEpoch.
  Result<std::string> PreCommit(int64_t checkpoint_id) override {
    if (two_phase_) {
      auto committables = PreCommitEpoch(checkpoint_id);
      if (!committables.ok()) return committables.status().WithContext(options_.error_context);
      return committables;
    }
    Status s = FinishWrites();
    if (!s.ok()) return s.WithContext(options_.error_context);
    return std::string();
  }

  Status Commit(const std::string& committables) override {
    Status s = CommitEpoch(committables);
    return s.ok() ? s : s.WithContext(options_.error_context);
  }

  // The crashed run's open transaction was aborted when this writer opened (init_transactions); what
  // the restored checkpoint pre-committed is committed here unless its marker says it was.
  Status RecoverAndCommit(const std::string& committables) override {
    return committables.empty() ? Status::OK() : Commit(committables);
  }

 private:
  Status WriteChunk(const Chunk& chunk) {
    SLUICE_CHECK_EQ(chunk.num_columns(), ctx_.physical_schema.size() + ctx_.metadata.size());
    if (!options_.upsert && options_.value_format->changelog_mode().IsInsertOnly() && !chunk.AllInserts()) {
      return Status::RuntimeError("The 'kafka' sink is append-only and cannot store update or delete changes; use "
                                  "'upsert-kafka' with a PRIMARY KEY for an updating query");
    }
    const size_t rows = chunk.size();
    if (rows == 0) return Status::OK();
    if (key_encoder_) {
      RETURN_IF_ERROR(EncodeRecords(key_encoder_.get(), SelectColumns(chunk, options_.key_fields, nullptr), &key_buf_,
                                    &key_spans_));
    }
    // Rows with a value: every row of an append-only table; +I and +U of an upsert table.
    sel_.clear();
    bool all_values = true;
    if (options_.upsert) {
      for (size_t r = 0; r < rows; ++r) {
        RowKind k = chunk.kind(r);
        if (k == RowKind::kInsert || k == RowKind::kUpdateAfter) {
          sel_.push_back(static_cast<uint32_t>(r));
        } else {
          all_values = false;
        }
      }
    }
    if (all_values && value_is_whole_row_) {
      RETURN_IF_ERROR(EncodeRecords(value_encoder_.get(), chunk, &value_buf_, &value_spans_));
    } else if (all_values || !sel_.empty()) {
      RETURN_IF_ERROR(EncodeRecords(value_encoder_.get(),
                                    SelectColumns(chunk, options_.value_fields, all_values ? nullptr : &sel_),
                                    &value_buf_, &value_spans_));
    } else {
      value_spans_.clear();
    }
    size_t value_row = 0;
    for (size_t r = 0; r < rows; ++r) {
      std::optional<std::string_view> key;
      if (key_encoder_ && !key_spans_[r].null) {
        key = std::string_view(key_buf_).substr(key_spans_[r].begin, key_spans_[r].size);
      }
      std::optional<std::string_view> value;
      RowKind k = chunk.kind(r);
      if (!options_.upsert || k == RowKind::kInsert || k == RowKind::kUpdateAfter) {
        const Span& s = value_spans_[value_row++];
        if (!s.null) value = std::string_view(value_buf_).substr(s.begin, s.size);
      }
      KafkaHeaders headers = metadata_.Headers(chunk, r);
      const int64_t timestamp_ms = metadata_.TimestampMillis(chunk, r);
      if (buffering_ && key) {  // a key is there: upsert-kafka's PRIMARY KEY columns are NOT NULL
        Buffer(*key, value, timestamp_ms, std::move(headers));
      } else {
        RETURN_IF_ERROR(Produce(key, value, timestamp_ms, std::move(headers)));
      }
    }
    rd_kafka_poll(handle_->get(), 0);
    RETURN_IF_ERROR(DeliveryStatus());
    if (buffering_ && !buffer_.empty()) {
      auto age = std::chrono::steady_clock::now() - first_buffered_;
      if (static_cast<int64_t>(buffer_.size()) >= options_.buffer_flush_max_rows ||
          std::chrono::duration_cast<std::chrono::milliseconds>(age).count() >= options_.buffer_flush_interval_ms) {
        RETURN_IF_ERROR(FlushBuffer());
      }
    }
    return Status::OK();
  }

  Status FinishWrites() {
    RETURN_IF_ERROR(FlushBuffer());
    return FlushProducer();
  }

  // Waits until every produced record is acknowledged.
  Status FlushProducer() {
    // Messages that cannot be delivered fail after 'message.timeout.ms', so this loop ends.
    while (rd_kafka_flush(handle_->get(), 1000) == RD_KAFKA_RESP_ERR__TIMED_OUT) {
    }
    return DeliveryStatus();
  }

  // Exactly-once, at checkpoint `id`: the epoch's records are in the open transaction, which then waits
  // for the checkpoint (records written meanwhile are held back in the next epoch's log); the
  // committables are the epoch's log. When the previous checkpoint never completed, its transaction is
  // still open: this epoch joins it, and it commits with this checkpoint.
  // Nothing here waits for the broker: the records need not be acknowledged before the checkpoint,
  // which holds them (a commit that fails is made again from them after the restart), and the commit
  // flushes them; the progress marker goes into the transaction on a helper thread. Both thus overlap
  // the checkpoint's write and the job's work instead of stopping the task thread at every barrier.
  Result<std::string> PreCommitEpoch(int64_t id) {
    RETURN_IF_ERROR(WaitMarker());
    RETURN_IF_ERROR(FlushBuffer());
    const int64_t records = log_.records();
    std::string log = log_.Release();
    precommitted_ = true;
    // An epoch without records and no transaction to finish needs none (as Flink's writer skips
    // empty transactions): an idle job does not commit a transaction per checkpoint.
    if (records == 0 && !awaiting_commit_ && !txn_open_) return EncodeKafkaCommittable(id, lineage_, 0, log);
    if (awaiting_commit_) {
      awaiting_commit_ = false;
      RETURN_IF_ERROR(ProduceLog(log, "the epoch of checkpoint " + std::to_string(id)));
    }
    RETURN_IF_ERROR(EnsureTransaction());  // an empty epoch joining a waiting transaction moves its marker
    rd_kafka_poll(handle_->get(), 0);
    RETURN_IF_ERROR(DeliveryStatus());
    awaiting_commit_ = true;
    txn_epoch_ = id;
    rd_kafka_t* rk = handle_->get();
    const KafkaTableOptions* options = &options_;
    const KafkaProgress progress{lineage_, id};
    marker_ = std::async(std::launch::async, [rk, options, topic = topic_, progress] {
      return SendKafkaProgressMarker(rk, *options, topic, progress);
    });
    return EncodeKafkaCommittable(id, lineage_, records, log);
  }

  // The progress marker PreCommitEpoch sends, once sent (OK when none is on its way).
  Status WaitMarker() {
    if (!marker_.valid()) return Status::OK();
    return marker_.get();
  }

  // Commits the transaction of a checkpoint that is now durable, or, for committables restored from a
  // checkpoint, produces them again unless the progress marker shows them committed. Idempotent.
  Status CommitEpoch(const std::string& bytes) {
    ASSIGN_OR_RETURN(KafkaCommittable c, DecodeKafkaCommittable(bytes));
    if (!exactly_once_) {
      return Status::InvalidArgument(
          "the checkpoint holds output of checkpoint " + std::to_string(c.checkpoint_id) +
          " that an 'exactly-once' sink had not committed yet; restore it with 'sink.delivery-guarantee' = "
          "'exactly-once' and the same 'sink.transactional-id-prefix', or use a new 'state.checkpoints.dir'");
    }
    if (!precommitted_) lineage_ = c.lineage;  // restored: the job goes on in its checkpoints' lineage
    if (c.lineage == lineage_ && c.checkpoint_id <= committed_id_) return Status::OK();
    // An empty epoch outside a transaction has nothing to commit or to write again.
    if (c.records == 0 && !(awaiting_commit_ && c.checkpoint_id == txn_epoch_)) return Status::OK();
    if (awaiting_commit_ && c.checkpoint_id < txn_epoch_) return Status::OK();  // commits with txn_epoch_
    if (awaiting_commit_ && c.checkpoint_id == txn_epoch_) {
      RETURN_IF_ERROR(WaitMarker());
      RETURN_IF_ERROR(CommitMarkedKafkaTransaction(handle_->get()));
      rd_kafka_poll(handle_->get(), 0);
      RETURN_IF_ERROR(DeliveryStatus());
      txn_open_ = false;
      awaiting_commit_ = false;
      committed_id_ = txn_epoch_;
      ++transactions_;
      // The records held back meanwhile start the next transaction.
      return ProduceLog(log_.data(), "the current epoch");
    }
    if (txn_open_ || awaiting_commit_) {
      return Status::Internal("the Kafka sink got the committables of checkpoint " + std::to_string(c.checkpoint_id) +
                              " while the transaction of checkpoint " + std::to_string(txn_epoch_) + " is open");
    }
    if (!progress_read_) {
      ASSIGN_OR_RETURN(progress_, ReadKafkaProgress(options_, topic_));
      progress_read_ = true;
    }
    if (progress_.lineage == c.lineage && progress_.checkpoint_id >= c.checkpoint_id) {
      committed_id_ = c.checkpoint_id;  // committed before the crash
      return Status::OK();
    }
    // The crash lost this checkpoint's commit: its records go out again, with its marker.
    RETURN_IF_ERROR(ProduceLog(c.log, "checkpoint " + std::to_string(c.checkpoint_id)));
    RETURN_IF_ERROR(EnsureTransaction());
    RETURN_IF_ERROR(FlushProducer());
    Failpoint("kafka.recovery-before-commit");
    RETURN_IF_ERROR(CommitKafkaTransaction(handle_->get(), options_, topic_, KafkaProgress{c.lineage, c.checkpoint_id}));
    txn_open_ = false;
    committed_id_ = c.checkpoint_id;
    ++transactions_;
    replayed_ += c.records;
    return Status::OK();
  }

  // Produces the records of a log into the open transaction (beginning one if needed).
  Status ProduceLog(std::string_view log, const std::string& what) {
    KafkaRecordLog::Reader reader(log, "the Kafka sink's records of " + what);
    KafkaRecordLog::Record r;
    while (reader.Next(&r)) {
      RETURN_IF_ERROR(EnsureTransaction());
      RETURN_IF_ERROR(Send(r));
    }
    RETURN_IF_ERROR(reader.status());
    rd_kafka_poll(handle_->get(), 0);
    return DeliveryStatus();
  }

  Status DeliveryStatus() const {
    if (delivery_.failed == 0) return Status::OK();
    return Status::IOError("Failed to send data to Kafka topic '" + topic_ + "': " + delivery_.first_error + " (" +
                           std::to_string(delivery_.failed) + " record(s) not delivered)");
  }

  void Buffer(std::string_view key, std::optional<std::string_view> value, int64_t timestamp_ms, KafkaHeaders headers) {
    if (buffer_.empty()) first_buffered_ = std::chrono::steady_clock::now();
    Buffered b{std::string(key), std::nullopt, timestamp_ms, std::move(headers)};
    if (value) b.value.emplace(*value);
    auto it = index_.find(b.key);
    if (it != index_.end()) {
      buffer_[it->second] = std::move(b);  // the last change of a key wins
      return;
    }
    index_.emplace(b.key, buffer_.size());
    buffer_.push_back(std::move(b));
  }

  Status FlushBuffer() {
    for (Buffered& b : buffer_) {
      std::optional<std::string_view> v;
      if (b.value) v = *b.value;
      RETURN_IF_ERROR(Produce(std::string_view(b.key), v, b.timestamp_ms, std::move(b.headers)));
    }
    buffer_.clear();
    index_.clear();
    return Status::OK();
  }

  // `timestamp_ms` 0: the producer's clock. `headers` (may be null) go with the record.
  Status Produce(std::optional<std::string_view> key, std::optional<std::string_view> value, int64_t timestamp_ms,
                 KafkaHeaders headers) {
    int32_t partition = RD_KAFKA_PARTITION_UA;
    if (options_.partitioner == KafkaPartitioner::kFixed) {
      partition = 0;  // Flink's fixed partitioner: writer i writes partition i % n; Sluice has one writer
    } else if (options_.partitioner == KafkaPartitioner::kRoundRobin) {
      partition = static_cast<int32_t>(next_partition_++ % static_cast<uint64_t>(partitions_));
    }
    KafkaRecordLog::Record record{key, value, partition, timestamp_ms, std::nullopt};
    if (!exactly_once_ || !two_phase_) {
      if (exactly_once_) RETURN_IF_ERROR(EnsureTransaction());
      return Send(record, std::move(headers));
    }
    // Logged for the committables, with its timestamp and headers, so a replay writes the same record.
    if (record.timestamp_ms == 0) record.timestamp_ms = NowMillis();
    std::optional<std::string> header_bytes = EncodeKafkaHeaders(headers.get());
    if (header_bytes) record.headers = *header_bytes;
    log_.Append(record);
    // Held back while the previous epoch's transaction waits for its checkpoint (CommitEpoch).
    if (awaiting_commit_) return Status::OK();
    RETURN_IF_ERROR(EnsureTransaction());
    return Send(record, std::move(headers));
  }

  Status EnsureTransaction() {
    if (txn_open_) return Status::OK();
    RETURN_IF_ERROR(BeginKafkaTransaction(handle_->get()));
    txn_open_ = true;
    return Status::OK();
  }

  // Produces one record (asynchronously; DeliveryStatus reports failures), with `headers` if any, else
  // with the record's logged ones.
  Status Send(const KafkaRecordLog::Record& r, KafkaHeaders headers = nullptr) {
    if (headers == nullptr && r.headers) headers.reset(DecodeKafkaHeaders(*r.headers));
    const std::optional<std::string_view>& key = r.key;
    const std::optional<std::string_view>& value = r.value;
    const int32_t partition = r.partition;
    void* key_ptr = key ? const_cast<char*>(key->data()) : nullptr;
    void* value_ptr = value ? const_cast<char*>(value->data()) : nullptr;
    // An empty record is not a null one: give librdkafka a non-null pointer for it.
    static char empty = 0;
    if (key && key->empty()) key_ptr = &empty;
    if (value && value->empty()) value_ptr = &empty;
    const size_t key_len = key ? key->size() : 0;
    const size_t value_len = value ? value->size() : 0;
    while (true) {
      rd_kafka_resp_err_t err = rd_kafka_producev(
          handle_->get(), RD_KAFKA_V_TOPIC(topic_.c_str()), RD_KAFKA_V_PARTITION(partition),
          RD_KAFKA_V_MSGFLAGS(RD_KAFKA_MSG_F_COPY), RD_KAFKA_V_KEY(key_ptr, key_len),
          RD_KAFKA_V_VALUE(value_ptr, value_len), RD_KAFKA_V_TIMESTAMP(r.timestamp_ms),
          RD_KAFKA_V_HEADERS(headers.get()), RD_KAFKA_V_END);
      if (err == RD_KAFKA_RESP_ERR_NO_ERROR) {
        (void)headers.release();  // librdkafka owns them now
        return Status::OK();
      }
      if (err != RD_KAFKA_RESP_ERR__QUEUE_FULL) {
        return Status::IOError("Failed to send data to Kafka topic '" + topic_ + "': " + KafkaErrorText(err));
      }
      // The producer queue is full: serve delivery reports until there is room.
      rd_kafka_poll(handle_->get(), kKafkaPollWaitMs);
    }
  }

  static constexpr int kKafkaPollWaitMs = 100;

  ConnectorContext ctx_;
  KafkaTableOptions options_;
  // Exactly-once (kafka_transactions.h). The open transaction holds the records since the last
  // commit; once pre-committed (awaiting_commit_) it waits for checkpoint txn_epoch_, and new
  // records only go to log_ until it commits.
  const bool exactly_once_;
  bool holds_index_ = false;  // options_.writer_index is held (AcquireKafkaWriterIndex)
  bool two_phase_ = false;
  bool txn_open_ = false;
  bool awaiting_commit_ = false;
  bool precommitted_ = false;
  int64_t txn_epoch_ = 0;
  int64_t committed_id_ = 0;  // the last checkpoint of lineage_ known committed
  uint64_t lineage_ = 0;
  KafkaRecordLog log_;  // the current epoch's records
  // The progress marker of the pre-committed transaction on its way (SendKafkaProgressMarker on a
  // helper thread; the task thread makes no other transaction call until it is there).
  std::future<Status> marker_;
  bool progress_read_ = false;
  KafkaProgress progress_;  // the marker as read after the restart
  int64_t transactions_ = 0;
  int64_t replayed_ = 0;
  KafkaMetadataWriter metadata_;
  std::unique_ptr<RecordEncoder> key_encoder_;
  std::unique_ptr<RecordEncoder> value_encoder_;
  bool value_is_whole_row_ = false;
  DeliveryState delivery_;  // outlives handle_ (declared before it): librdkafka reports into it
  std::unique_ptr<KafkaHandle> handle_;
  std::string topic_;
  int32_t partitions_ = 1;
  uint64_t next_partition_ = 0;
  bool buffering_ = false;
  struct Buffered {
    std::string key;
    std::optional<std::string> value;  // nullopt: a tombstone
    int64_t timestamp_ms = 0;
    KafkaHeaders headers;
  };
  std::vector<Buffered> buffer_;  // in first-change order
  std::unordered_map<std::string, size_t> index_;                          // key -> position in buffer_
  std::chrono::steady_clock::time_point first_buffered_;
  std::string key_buf_;
  std::string value_buf_;
  std::vector<Span> key_spans_;
  std::vector<Span> value_spans_;
  std::vector<uint32_t> sel_;
};

class KafkaSink final : public TableSink {
 public:
  KafkaSink(ConnectorContext ctx, KafkaTableOptions options) : ctx_(std::move(ctx)), options_(std::move(options)) {}
  ChangelogMode accepted_changelog_mode() const override {
    // 'kafka' accepts what its value format encodes (debezium-json: every change), as Flink's.
    return options_.upsert ? ChangelogMode::Upsert() : options_.value_format->changelog_mode();
  }
  Result<std::unique_ptr<SinkWriter>> CreateWriter() override {
    auto writer = std::make_unique<KafkaWriter>(ctx_, options_);
    Status s = writer->Open(true);
    if (!s.ok()) return s.WithContext(options_.error_context);
    return std::unique_ptr<SinkWriter>(std::move(writer));
  }

 private:
  ConnectorContext ctx_;
  KafkaTableOptions options_;
};

}  // namespace

Result<std::unique_ptr<TableSink>> MakeKafkaSink(ConnectorContext ctx, KafkaTableOptions options) {
  // Check the formats' options now, so a bad value fails when the INSERT is planned.
  KafkaWriter check(ctx, options);
  Status s = check.Open(false);
  if (!s.ok()) return s.WithContext(options.error_context);
  return std::unique_ptr<TableSink>(new KafkaSink(std::move(ctx), std::move(options)));
}

}  // namespace sluice
