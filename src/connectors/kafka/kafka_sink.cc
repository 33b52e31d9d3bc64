#include "connectors/kafka/kafka_sink.h"

#include <algorithm>
#include <chrono>
#include <optional>
#include <unordered_map>

#include "connectors/kafka/kafka_client.h"
#include "formats/format.h"
#include "types/vector.h"

namespace sluice {

namespace {

// One encoded record inside a buffer: [begin, begin + size).
struct Span {
  size_t begin = 0;
  size_t size = 0;
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
    for (size_t end : ends) {
      spans->push_back({begin, end - begin});
      begin = end;
    }
    return Status::OK();
  }
  RETURN_IF_ERROR(encoder->Encode(chunk, buf));
  if (static_cast<size_t>(std::count(buf->begin(), buf->end(), '\n')) == chunk.size()) {
    size_t begin = 0;
    for (size_t nl = buf->find('\n'); nl != std::string::npos; nl = buf->find('\n', begin)) {
      spans->push_back({begin, nl - begin});
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
    spans->push_back({begin, end - begin});
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

class KafkaWriter final : public SinkWriter {
 public:
  KafkaWriter(const ConnectorContext& ctx, const KafkaTableOptions& o) : ctx_(ctx), options_(o) {}

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
    if (!connect) return Status::OK();
    value_is_whole_row_ = options_.value_fields.size() == ctx_.physical_schema.size();
    KafkaClientSpec spec;
    spec.type = RD_KAFKA_PRODUCER;
    // Kafka's default partitioner: murmur2 of the key (random without one), as Flink's 'default'.
    spec.defaults["partitioner"] = "murmur2_random";
    spec.dr_msg_cb = &OnDelivery;
    spec.opaque = &delivery_;
    ASSIGN_OR_RETURN(handle_, CreateKafkaClient(options_, spec));
    RETURN_IF_ERROR(CheckKafkaReachable(handle_->get(), options_));
    topic_ = options_.topics.front();
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
    return s.ok() ? s : s.WithContext(options_.error_context);
  }

  // At a checkpoint, everything written so far is delivered and acknowledged before the checkpoint
  // completes, so a restart from it loses nothing (at-least-once, as Flink's KafkaSink flushes on
  // checkpoints); records after it are written again.
  Result<std::string> PreCommit(int64_t) override {
    Status s = FinishWrites();
    if (!s.ok()) return s.WithContext(options_.error_context);
    return std::string();
  }

 private:
  Status WriteChunk(const Chunk& chunk) {
    if (chunk.num_columns() != ctx_.physical_schema.size()) {
      return Status::NotSupported("writing Kafka metadata columns (timestamp, headers) is not supported by Sluice yet");
    }
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
      if (key_encoder_) key = std::string_view(key_buf_).substr(key_spans_[r].begin, key_spans_[r].size);
      std::optional<std::string_view> value;
      RowKind k = chunk.kind(r);
      if (!options_.upsert || k == RowKind::kInsert || k == RowKind::kUpdateAfter) {
        const Span& s = value_spans_[value_row++];
        value = std::string_view(value_buf_).substr(s.begin, s.size);
      }
      if (buffering_) {
        Buffer(*key, value);
      } else {
        RETURN_IF_ERROR(Produce(key, value));
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
    // Messages that cannot be delivered fail after 'message.timeout.ms', so this loop ends.
    while (rd_kafka_flush(handle_->get(), 1000) == RD_KAFKA_RESP_ERR__TIMED_OUT) {
    }
    return DeliveryStatus();
  }

  Status DeliveryStatus() const {
    if (delivery_.failed == 0) return Status::OK();
    return Status::IOError("Failed to send data to Kafka topic '" + topic_ + "': " + delivery_.first_error + " (" +
                           std::to_string(delivery_.failed) + " record(s) not delivered)");
  }

  void Buffer(std::string_view key, std::optional<std::string_view> value) {
    if (buffer_.empty()) first_buffered_ = std::chrono::steady_clock::now();
    std::optional<std::string> v;
    if (value) v.emplace(*value);
    auto it = index_.find(std::string(key));
    if (it != index_.end()) {
      buffer_[it->second].second = std::move(v);  // the last change of a key wins
      return;
    }
    index_.emplace(std::string(key), buffer_.size());
    buffer_.emplace_back(std::string(key), std::move(v));
  }

  Status FlushBuffer() {
    for (const auto& [key, value] : buffer_) {
      std::optional<std::string_view> v;
      if (value) v = *value;
      RETURN_IF_ERROR(Produce(std::string_view(key), v));
    }
    buffer_.clear();
    index_.clear();
    return Status::OK();
  }

  Status Produce(std::optional<std::string_view> key, std::optional<std::string_view> value) {
    int32_t partition = RD_KAFKA_PARTITION_UA;
    if (options_.partitioner == KafkaPartitioner::kFixed) {
      partition = 0;  // Flink's fixed partitioner: writer i writes partition i % n; Sluice has one writer
    } else if (options_.partitioner == KafkaPartitioner::kRoundRobin) {
      partition = static_cast<int32_t>(next_partition_++ % static_cast<uint64_t>(partitions_));
    }
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
          RD_KAFKA_V_VALUE(value_ptr, value_len), RD_KAFKA_V_END);
      if (err == RD_KAFKA_RESP_ERR_NO_ERROR) return Status::OK();
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
  std::unique_ptr<RecordEncoder> key_encoder_;
  std::unique_ptr<RecordEncoder> value_encoder_;
  bool value_is_whole_row_ = false;
  DeliveryState delivery_;  // outlives handle_ (declared before it): librdkafka reports into it
  std::unique_ptr<KafkaHandle> handle_;
  std::string topic_;
  int32_t partitions_ = 1;
  uint64_t next_partition_ = 0;
  bool buffering_ = false;
  std::vector<std::pair<std::string, std::optional<std::string>>> buffer_;  // in first-change order
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
