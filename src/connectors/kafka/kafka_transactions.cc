#include "connectors/kafka/kafka_transactions.h"

#include <charconv>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <set>

#include "common/config.h"
#include "common/failpoint.h"
#include "connectors/kafka/kafka_client.h"

namespace sluice {

namespace {

constexpr char kCommittableTag[] = "kafka-eos.v1";
constexpr char kMarkerPrefix[] = "sluice-progress lineage=";
constexpr char kMarkerCheckpoint[] = " checkpoint=";
// Retriable transaction errors (a coordinator moving, a timeout while the commit goes on in the
// background) are retried this many times before the job fails.
constexpr int kTxnAttempts = 10;
// librdkafka's default 'transaction.timeout.ms'.
constexpr int64_t kDefaultTransactionTimeoutMs = 60000;

// Takes `error` (destroying it): "Kafka transaction <what> failed: <error>".
Status TxnStatus(rd_kafka_error_t* error, const std::string& what) {
  std::string text = std::string("Kafka transaction ") + what + " failed: " + rd_kafka_error_name(error) + ": " +
                     rd_kafka_error_string(error);
  rd_kafka_error_destroy(error);
  return Status::IOError(text);
}

std::string Hex(uint64_t v) {
  char buf[17];
  std::snprintf(buf, sizeof(buf), "%016llx", static_cast<unsigned long long>(v));
  return buf;
}

// The marker's metadata, or nullopt when it is not Sluice's.
std::optional<KafkaProgress> ParseMarker(std::string_view text, int64_t offset) {
  if (text.rfind(kMarkerPrefix, 0) != 0) return std::nullopt;
  text.remove_prefix(std::strlen(kMarkerPrefix));
  KafkaProgress p;
  auto r = std::from_chars(text.data(), text.data() + text.size(), p.lineage, 16);
  if (r.ec != std::errc()) return std::nullopt;
  std::string_view rest(r.ptr, static_cast<size_t>(text.data() + text.size() - r.ptr));
  if (rest.rfind(kMarkerCheckpoint, 0) != 0) return std::nullopt;
  rest.remove_prefix(std::strlen(kMarkerCheckpoint));
  auto r2 = std::from_chars(rest.data(), rest.data() + rest.size(), p.checkpoint_id);
  if (r2.ec != std::errc() || p.checkpoint_id != offset) return std::nullopt;
  return p;
}

// The broker's 'transaction.max.timeout.ms' (DescribeConfigs of a broker), or nullopt when it cannot be read.
std::optional<std::string> BrokerTransactionMaxTimeout(const KafkaTableOptions& options) {
  KafkaClientSpec spec;
  spec.type = RD_KAFKA_PRODUCER;
  auto handle = CreateKafkaClient(options, spec);
  if (!handle.ok()) return std::nullopt;
  rd_kafka_t* rk = (*handle)->get();
  const rd_kafka_metadata_t* md = nullptr;
  if (rd_kafka_metadata(rk, 0, nullptr, &md, kKafkaRequestTimeoutMs) != RD_KAFKA_RESP_ERR_NO_ERROR) return std::nullopt;
  const int32_t broker = md->broker_cnt > 0 ? md->brokers[0].id : -1;
  rd_kafka_metadata_destroy(md);
  if (broker < 0) return std::nullopt;
  rd_kafka_ConfigResource_t* resource =
      rd_kafka_ConfigResource_new(RD_KAFKA_RESOURCE_BROKER, std::to_string(broker).c_str());
  rd_kafka_queue_t* queue = rd_kafka_queue_new(rk);
  rd_kafka_DescribeConfigs(rk, &resource, 1, nullptr, queue);
  rd_kafka_event_t* ev = rd_kafka_queue_poll(queue, kKafkaRequestTimeoutMs);
  std::optional<std::string> limit;
  if (ev != nullptr && rd_kafka_event_error(ev) == RD_KAFKA_RESP_ERR_NO_ERROR) {
    size_t n = 0;
    const rd_kafka_ConfigResource_t** rs =
        rd_kafka_DescribeConfigs_result_resources(rd_kafka_event_DescribeConfigs_result(ev), &n);
    for (size_t i = 0; i < n; ++i) {
      size_t cn = 0;
      const rd_kafka_ConfigEntry_t** entries = rd_kafka_ConfigResource_configs(rs[i], &cn);
      for (size_t j = 0; j < cn; ++j) {
        const char* value = rd_kafka_ConfigEntry_value(entries[j]);
        if (std::strcmp(rd_kafka_ConfigEntry_name(entries[j]), "transaction.max.timeout.ms") == 0 && value) {
          limit = value;
        }
      }
    }
  }
  if (ev != nullptr) rd_kafka_event_destroy(ev);
  rd_kafka_queue_destroy(queue);
  rd_kafka_ConfigResource_destroy(resource);
  return limit;
}

// Runs `call` (a transaction API call) again while it fails with a retriable error, at most kTxnAttempts
// times; an error that needs an abort aborts the transaction.
template <typename Call>
Status RetryTxn(rd_kafka_t* rk, const std::string& what, Call call) {
  for (int attempt = 1;; ++attempt) {
    rd_kafka_error_t* error = call();
    if (error == nullptr) return Status::OK();
    if (rd_kafka_error_is_retriable(error) && attempt < kTxnAttempts) {
      rd_kafka_error_destroy(error);
      continue;
    }
    const bool abort = rd_kafka_error_txn_requires_abort(error);
    Status s = TxnStatus(error, what);
    if (abort) AbortKafkaTransaction(rk);
    return s;
  }
}

}  // namespace

void KafkaRecordLog::Append(const Record& r) {
  out_.PutVarint(static_cast<uint64_t>(r.timestamp_ms));
  out_.PutVarint(static_cast<uint64_t>(static_cast<int64_t>(r.partition) + 1));
  out_.PutU8(static_cast<uint8_t>((r.key ? 1 : 0) | (r.value ? 2 : 0) | (r.headers ? 4 : 0)));
  if (r.key) out_.PutString(*r.key);
  if (r.value) out_.PutString(*r.value);
  if (r.headers) out_.PutString(*r.headers);
  ++records_;
}

std::string KafkaRecordLog::Release() {
  records_ = 0;
  std::string bytes = out_.Release();
  out_ = StateWriter();
  return bytes;
}

bool KafkaRecordLog::Reader::Next(Record* r) {
  if (!in_.ok() || in_.at_end()) return false;
  r->timestamp_ms = static_cast<int64_t>(in_.GetVarint());
  r->partition = static_cast<int32_t>(static_cast<int64_t>(in_.GetVarint()) - 1);
  const uint8_t flags = in_.GetU8();
  r->key.reset();
  r->value.reset();
  r->headers.reset();
  if (flags & 1) r->key = in_.GetStringView();
  if (flags & 2) r->value = in_.GetStringView();
  if (flags & 4) r->headers = in_.GetStringView();
  return in_.ok();
}

std::optional<std::string> EncodeKafkaHeaders(const rd_kafka_headers_t* headers) {
  if (headers == nullptr) return std::nullopt;
  StateWriter w;
  const size_t n = rd_kafka_header_cnt(headers);
  w.PutVarint(n);
  const char* name = nullptr;
  const void* value = nullptr;
  size_t size = 0;
  for (size_t i = 0; i < n && rd_kafka_header_get_all(headers, i, &name, &value, &size) == RD_KAFKA_RESP_ERR_NO_ERROR;
       ++i) {
    w.PutString(name);
    w.PutU8(value != nullptr ? 1 : 0);
    if (value != nullptr) w.PutString(std::string_view(static_cast<const char*>(value), size));
  }
  return w.Release();
}

rd_kafka_headers_t* DecodeKafkaHeaders(std::string_view bytes) {
  StateReader r(bytes, "the Kafka sink's record headers");
  const uint64_t n = r.GetVarint();
  if (!r.ok() || n > bytes.size()) return nullptr;
  rd_kafka_headers_t* headers = rd_kafka_headers_new(static_cast<size_t>(n));
  for (uint64_t i = 0; i < n && r.ok(); ++i) {
    std::string_view name = r.GetStringView();
    const bool has_value = r.GetU8() != 0;
    std::string_view value = has_value ? r.GetStringView() : std::string_view();
    if (!r.ok()) break;
    rd_kafka_header_add(headers, name.data(), static_cast<ssize_t>(name.size()), has_value ? value.data() : nullptr,
                        has_value ? static_cast<ssize_t>(value.size()) : 0);
  }
  return headers;
}

std::string EncodeKafkaCommittable(int64_t checkpoint_id, uint64_t lineage, int64_t records, const std::string& log) {
  StateWriter w;
  w.Reserve(log.size() + 64);
  w.PutTag(kCommittableTag);
  w.PutI64(checkpoint_id);
  w.PutU64(lineage);
  w.PutI64(records);
  w.PutString(log);
  return w.Release();
}

Result<KafkaCommittable> DecodeKafkaCommittable(std::string_view bytes) {
  StateReader r(bytes, "the Kafka sink's committables");
  r.ExpectTag(kCommittableTag);
  KafkaCommittable c;
  c.checkpoint_id = r.GetI64();
  c.lineage = r.GetU64();
  c.records = r.GetI64();
  c.log = r.GetStringView();
  RETURN_IF_ERROR(r.Finish());
  return c;
}

std::string KafkaTransactionalId(const KafkaTableOptions& options) {
  return options.transactional_id_prefix + "-" + std::to_string(options.writer_index);
}

namespace {
struct WriterIndexes {
  std::mutex mu;
  std::map<std::string, std::set<int>> held;  // by prefix
};
WriterIndexes& Indexes() {
  static WriterIndexes* indexes = new WriterIndexes();
  return *indexes;
}
}  // namespace

int AcquireKafkaWriterIndex(const std::string& prefix) {
  std::lock_guard<std::mutex> lock(Indexes().mu);
  std::set<int>& held = Indexes().held[prefix];
  int index = 0;
  while (held.count(index)) ++index;
  held.insert(index);
  return index;
}

void ReleaseKafkaWriterIndex(const std::string& prefix, int index) {
  std::lock_guard<std::mutex> lock(Indexes().mu);
  Indexes().held[prefix].erase(index);
}

std::string KafkaProgressGroup(const KafkaTableOptions& options) { return KafkaTransactionalId(options) + "-progress"; }

Status InitKafkaTransactions(rd_kafka_t* rk, const KafkaTableOptions& options) {
  rd_kafka_error_t* error = nullptr;
  for (int attempt = 1; attempt <= kTxnAttempts; ++attempt) {
    error = rd_kafka_init_transactions(rk, 2 * kKafkaRequestTimeoutMs);
    if (error == nullptr) return Status::OK();
    if (!rd_kafka_error_is_retriable(error) || attempt == kTxnAttempts) break;
    rd_kafka_error_destroy(error);
  }
  if (rd_kafka_error_code(error) == RD_KAFKA_RESP_ERR_INVALID_TRANSACTION_TIMEOUT) {
    rd_kafka_error_destroy(error);
    const auto it = options.properties.find("transaction.timeout.ms");
    const std::string value = it != options.properties.end() ? it->second : "60000 (librdkafka's default)";
    const auto limit = BrokerTransactionMaxTimeout(options);
    return Status::InvalidArgument("Invalid value for option 'properties.transaction.timeout.ms': " + value +
                                   " is larger than the broker's 'transaction.max.timeout.ms' (" +
                                   (limit ? *limit : std::string("its value could not be read")) +
                                   "), so the broker refuses the sink's transactions. Set "
                                   "'properties.transaction.timeout.ms' to at most that, or raise the broker's limit.");
  }
  return TxnStatus(error, "initialization (transactional.id '" + KafkaTransactionalId(options) + "')");
}

Status CheckTransactionTimeoutFitsInterval(const std::map<std::string, std::string>* config,
                                           const KafkaTableOptions& options) {
  if (config == nullptr) return Status::OK();
  const auto interval_it = config->find("execution.checkpointing.interval");
  if (interval_it == config->end()) return Status::OK();
  auto interval = ParseDurationMillis(interval_it->second);
  if (!interval.ok() || *interval <= 0) return Status::OK();  // the session reports a bad value
  int64_t timeout = kDefaultTransactionTimeoutMs;
  const auto it = options.properties.find("transaction.timeout.ms");
  if (it != options.properties.end()) {
    auto r = std::from_chars(it->second.data(), it->second.data() + it->second.size(), timeout);
    if (r.ec != std::errc()) return Status::OK();  // librdkafka rejects it when the producer is created
  }
  if (*interval < timeout) return Status::OK();
  return Status::InvalidArgument("'execution.checkpointing.interval' = '" + interval_it->second +
                                 "' is not below the Kafka transaction timeout of the 'exactly-once' sink (" +
                                 std::to_string(timeout) +
                                 " ms, 'properties.transaction.timeout.ms'): each transaction stays open for a "
                                 "checkpoint interval, so the broker would abort it. Raise "
                                 "'properties.transaction.timeout.ms' (at most the broker's "
                                 "'transaction.max.timeout.ms') or checkpoint more often.");
}

Status BeginKafkaTransaction(rd_kafka_t* rk) {
  rd_kafka_error_t* error = rd_kafka_begin_transaction(rk);
  if (error != nullptr) return TxnStatus(error, "begin");
  return Status::OK();
}

Status SendKafkaProgressMarker(rd_kafka_t* rk, const KafkaTableOptions& options, const std::string& topic,
                               const KafkaProgress& progress) {
  rd_kafka_topic_partition_list_t* offsets = rd_kafka_topic_partition_list_new(1);
  rd_kafka_topic_partition_t* p = rd_kafka_topic_partition_list_add(offsets, topic.c_str(), 0);
  p->offset = progress.checkpoint_id;
  const std::string meta = kMarkerPrefix + Hex(progress.lineage) + kMarkerCheckpoint +
                           std::to_string(progress.checkpoint_id);
  // librdkafka frees the metadata with the list.
  p->metadata = std::malloc(meta.size());
  std::memcpy(p->metadata, meta.data(), meta.size());
  p->metadata_size = meta.size();
  rd_kafka_consumer_group_metadata_t* group = rd_kafka_consumer_group_metadata_new(KafkaProgressGroup(options).c_str());
  Status s = RetryTxn(rk, "progress marker", [&] {
    return rd_kafka_send_offsets_to_transaction(rk, offsets, group, kKafkaRequestTimeoutMs);
  });
  rd_kafka_consumer_group_metadata_destroy(group);
  rd_kafka_topic_partition_list_destroy(offsets);
  return s;
}

Status CommitMarkedKafkaTransaction(rd_kafka_t* rk) {
  Failpoint("kafka.before-commit-transaction");
  RETURN_IF_ERROR(RetryTxn(rk, "commit", [&] { return rd_kafka_commit_transaction(rk, -1); }));
  Failpoint("kafka.after-commit-transaction");
  return Status::OK();
}

Status CommitKafkaTransaction(rd_kafka_t* rk, const KafkaTableOptions& options, const std::string& topic,
                              std::optional<KafkaProgress> progress) {
  if (!progress) return RetryTxn(rk, "commit", [&] { return rd_kafka_commit_transaction(rk, -1); });
  RETURN_IF_ERROR(SendKafkaProgressMarker(rk, options, topic, *progress));
  return CommitMarkedKafkaTransaction(rk);
}

void AbortKafkaTransaction(rd_kafka_t* rk) {
  rd_kafka_error_t* error = rd_kafka_abort_transaction(rk, kKafkaRequestTimeoutMs);
  if (error != nullptr) rd_kafka_error_destroy(error);
}

Result<KafkaProgress> ReadKafkaProgress(const KafkaTableOptions& options, const std::string& topic) {
  KafkaClientSpec spec;
  spec.type = RD_KAFKA_CONSUMER;
  spec.overrides["group.id"] = KafkaProgressGroup(options);
  spec.overrides["enable.auto.commit"] = "false";
  // Stable offsets only: a transaction still completing makes the fetch wait (librdkafka asks for
  // require_stable under read_committed).
  spec.overrides["isolation.level"] = "read_committed";
  ASSIGN_OR_RETURN(auto handle, CreateKafkaClient(options, spec));
  rd_kafka_topic_partition_list_t* list = rd_kafka_topic_partition_list_new(1);
  rd_kafka_topic_partition_list_add(list, topic.c_str(), 0);
  rd_kafka_resp_err_t err = rd_kafka_committed(handle->get(), list, kKafkaRequestTimeoutMs);
  KafkaProgress progress;
  if (err == RD_KAFKA_RESP_ERR_NO_ERROR) err = list->elems[0].err;
  if (err == RD_KAFKA_RESP_ERR_NO_ERROR && list->elems[0].offset >= 0 && list->elems[0].metadata != nullptr) {
    const auto& e = list->elems[0];
    auto marker = ParseMarker(std::string_view(static_cast<const char*>(e.metadata), e.metadata_size), e.offset);
    if (marker) progress = *marker;
  }
  rd_kafka_topic_partition_list_destroy(list);
  if (err != RD_KAFKA_RESP_ERR_NO_ERROR) {
    return Status::IOError("Cannot read the exactly-once progress marker of topic '" + topic + "' (consumer group '" +
                           KafkaProgressGroup(options) + "'): " + KafkaErrorText(err));
  }
  return progress;
}

}  // namespace sluice
