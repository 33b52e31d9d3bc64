#pragma once

// The writable metadata of the Kafka sinks (Flink's KafkaDynamicSink.WritableMetadata): the record's
// 'timestamp' and 'headers', taken from the persisted metadata columns that follow the physical
// columns of each input row (ConnectorContext::metadata).

#include <librdkafka/rdkafka.h>

#include <cstdint>
#include <memory>
#include <vector>

#include "common/status.h"
#include "connectors/connector.h"
#include "connectors/kafka/kafka_options.h"
#include "types/vector.h"

namespace sluice {

// The keys the Kafka sinks write, in Flink's order, with their types.
const std::vector<Field>& KafkaWritableMetadata();

struct KafkaHeadersDeleter {
  void operator()(rd_kafka_headers_t* h) const { rd_kafka_headers_destroy(h); }
};
using KafkaHeaders = std::unique_ptr<rd_kafka_headers_t, KafkaHeadersDeleter>;

class KafkaMetadataWriter {
 public:
  // Checks the columns' types and the sink's options; `ctx.metadata` holds the persisted columns.
  static Result<KafkaMetadataWriter> Make(const ConnectorContext& ctx, const KafkaTableOptions& options);

  bool empty() const { return timestamp_column_ < 0 && headers_column_ < 0; }

  // The record timestamp of row `r` in epoch milliseconds; 0 (the producer's current time) when the
  // table has no 'timestamp' column or the row's is null, as Flink's sink leaves it unset.
  int64_t TimestampMillis(const Chunk& chunk, size_t r) const;

  // The headers of row `r` (null entries skipped: a null map writes none; a null value writes a
  // header without value), or null when the table has no 'headers' column.
  KafkaHeaders Headers(const Chunk& chunk, size_t r) const;

 private:
  int timestamp_column_ = -1;  // index in the input row
  int headers_column_ = -1;
};

}  // namespace sluice
