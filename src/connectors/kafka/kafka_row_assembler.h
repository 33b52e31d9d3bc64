// RowAssembler: turns the records a Kafka partition returned into rows of the table's projected
// schema. The key format decodes the message key into the key columns, the value format the value
// into the value columns ('value.fields-include'); a column that is in both takes the value's.
// Metadata columns (topic, partition, offset, timestamp, timestamp-type, headers, leader-epoch)
// follow. 'kafka' skips records without a value (tombstones) and, with a key format, records
// without a key; 'upsert-kafka' emits +I for a record with a value and -D (key columns set, the
// rest NULL) for a tombstone, and skips records without a key. Skipped records are counted. A
// changelog value format yields 0-2 rows per record with their RowKinds (debezium-json: -U and +U
// for an update); each row repeats the record's key columns and metadata.
//
// Threading: one per split, used by the thread that reads the split.
#pragma once

#include <librdkafka/rdkafka.h>

#include <memory>
#include <string>
#include <vector>

#include "connectors/connector.h"
#include "connectors/kafka/kafka_options.h"
#include "formats/format.h"

namespace sluice {

class RowAssembler {
 public:
  RowAssembler(const ConnectorContext& ctx, const KafkaTableOptions& o);

  Status Init(const KafkaTableOptions& o);

  int64_t skipped() const { return skipped_; }
  // The message of each row the last Append appended, in order.
  const std::vector<rd_kafka_message_t*>& row_messages() const { return kept_; }

  // Appends one row per usable message; `source` names the partition in decode errors.
  Status Append(const std::vector<rd_kafka_message_t*>& msgs, const std::string& source, Chunk* out);

 private:
  struct Output {
    int key_pos = -1;    // column of the key chunk, or -1
    int value_pos = -1;  // column of the value chunk, or -1
  };

  // A changelog value format (debezium-json) yields 0, 1 or 2 rows per message, with their kinds:
  // messages are decoded one at a time and each is repeated (key columns, metadata) per row.
  Status AppendChangelog(const std::string& source, Chunk* keys, Chunk* values, Chunk* out);

  static TextRecord Record(const void* data, size_t len, int64_t offset);

  void Assemble(const Chunk& keys, const Chunk& values, Chunk* out);

  void AppendMetadata(const std::string& key, Vector* col);

  static void AppendHeaders(const rd_kafka_message_t* m, Vector* col, size_t row);

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

}  // namespace sluice
