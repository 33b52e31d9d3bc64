// Kafka transactions for the exactly-once sink ('sink.delivery-guarantee' = 'exactly-once'): the
// record log an epoch's committables carry, the progress marker, and librdkafka's transactional
// producer calls with Sluice's error messages.
//
// Recovery (docs/kafka.md): librdkafka cannot resume a transaction another process pre-committed,
// so a checkpoint's committables hold the records of its epoch (KafkaRecordLog, compact bytes: key,
// value, partition, timestamp and headers per record) with the checkpoint id and the job lineage (a random id
// drawn when a job starts without a checkpoint, kept by every checkpoint after). Each transaction
// commits, atomically with its records, a progress marker: an offset of the consumer group
// '<transactional id>-progress' on partition 0 of the sink's topic (send_offsets_to_transaction), whose
// offset is the checkpoint id and whose metadata names the lineage. After a restart,
// init_transactions fences the crashed producer and aborts its open transaction; a restored
// committable whose checkpoint the marker shows committed (same lineage, id at least its own) is
// dropped, any other is produced again in a new transaction that commits it with its marker. So the
// output of every checkpoint becomes visible exactly once.
//
// Threading: used by the sink writer's task thread.
#pragma once

#include <librdkafka/rdkafka.h>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "common/status.h"
#include "connectors/kafka/kafka_options.h"
#include "state/state_serde.h"

namespace sluice {

// The records of one epoch, appended as they are produced, in one byte buffer.
class KafkaRecordLog {
 public:
  struct Record {
    std::optional<std::string_view> key;    // nullopt: a null key
    std::optional<std::string_view> value;  // nullopt: a tombstone
    int32_t partition = RD_KAFKA_PARTITION_UA;
    int64_t timestamp_ms = 0;
    // The record's headers in EncodeKafkaHeaders' bytes; nullopt: none (a log written before headers
    // were kept has none).
    std::optional<std::string_view> headers;
  };
  void Append(const Record& r);
  int64_t records() const { return records_; }
  size_t bytes() const { return out_.size(); }
  std::string_view data() const { return out_.data(); }
  // Takes the log's bytes and starts an empty one.
  std::string Release();

  // Reads the records of Release()'s bytes in order.
  class Reader {
   public:
    Reader(std::string_view bytes, std::string what) : in_(bytes, std::move(what)) {}
    // False at the end (or on damaged bytes: check status()).
    bool Next(Record* r);
    Status status() const { return in_.status(); }

   private:
    StateReader in_;
  };

 private:
  StateWriter out_;
  int64_t records_ = 0;
};

// A record's headers (in order, a header without value kept as such) as bytes for the record log, and
// back. Encoding null headers gives nullopt.
std::optional<std::string> EncodeKafkaHeaders(const rd_kafka_headers_t* headers);
// Null (no headers) on damaged bytes, which the log's checksums make a bug of ours.
rd_kafka_headers_t* DecodeKafkaHeaders(std::string_view bytes);

// One checkpoint's committables: its id, the job lineage and the epoch's records.
struct KafkaCommittable {
  int64_t checkpoint_id = 0;
  uint64_t lineage = 0;
  int64_t records = 0;
  std::string_view log;  // KafkaRecordLog bytes (a view into the decoded string)
};
std::string EncodeKafkaCommittable(int64_t checkpoint_id, uint64_t lineage, int64_t records, const std::string& log);
Result<KafkaCommittable> DecodeKafkaCommittable(std::string_view bytes);

// The last checkpoint a sink committed, as its progress marker says; lineage 0: none.
struct KafkaProgress {
  uint64_t lineage = 0;
  int64_t checkpoint_id = 0;
};

// The writer's transactional.id ('<prefix>-<writer index>') and the consumer group of its progress
// marker ('<transactional.id>-progress').
std::string KafkaTransactionalId(const KafkaTableOptions& options);
std::string KafkaProgressGroup(const KafkaTableOptions& options);

// Writer indexes: the lowest index no open writer of `prefix` in this process holds, held until
// released. Two sinks of one job that write the same table with the same prefix (a statement set
// with two INSERTs) thus get their own transactional ids instead of fencing each other; a restarted
// job creates its writers in the same order and gets the same indexes. The set of held indexes is
// the third process-wide object of this folder, guarded by a mutex.
int AcquireKafkaWriterIndex(const std::string& prefix);
void ReleaseKafkaWriterIndex(const std::string& prefix, int index);

// init_transactions: fences earlier producers with the same transactional.id and aborts their open
// transaction. A 'transaction.timeout.ms' above the broker's 'transaction.max.timeout.ms' is an
// error naming the option and the broker's limit.
Status InitKafkaTransactions(rd_kafka_t* rk, const KafkaTableOptions& options);
// A transaction stays open for about a checkpoint interval: 'execution.checkpointing.interval' (from
// the session's `config`, may be null) must be below 'transaction.timeout.ms', or the broker would
// abort every transaction before its checkpoint completes.
Status CheckTransactionTimeoutFitsInterval(const std::map<std::string, std::string>* config,
                                           const KafkaTableOptions& options);
Status BeginKafkaTransaction(rd_kafka_t* rk);
// Commits the open transaction; with `progress`, its marker is committed in it
// (SendKafkaProgressMarker, then CommitMarkedKafkaTransaction).
Status CommitKafkaTransaction(rd_kafka_t* rk, const KafkaTableOptions& options, const std::string& topic,
                              std::optional<KafkaProgress> progress);
// Puts the progress marker into the open transaction (send_offsets_to_transaction: a round trip to the
// transaction and group coordinators). Sent again in the same transaction, the last marker counts.
Status SendKafkaProgressMarker(rd_kafka_t* rk, const KafkaTableOptions& options, const std::string& topic,
                               const KafkaProgress& progress);
// Commits the open transaction whose marker was sent (with the failpoints kafka.before-commit-transaction
// and kafka.after-commit-transaction around the commit).
Status CommitMarkedKafkaTransaction(rd_kafka_t* rk);
// Aborts the open transaction (bounded wait); errors are ignored (a later init_transactions aborts it).
void AbortKafkaTransaction(rd_kafka_t* rk);
// Reads the progress marker of the sink's topic (stable offsets: read_committed).
Result<KafkaProgress> ReadKafkaProgress(const KafkaTableOptions& options, const std::string& topic);

}  // namespace sluice
