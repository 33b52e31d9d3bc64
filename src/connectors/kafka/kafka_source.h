// The Kafka table source of 'kafka' (append-only; a changelog with the 'debezium-json' value
// format) and 'upsert-kafka' (an upsert changelog).
//
// Every partition of every topic the table names (or that 'topic-pattern' matches) is one SourceSplit
// (connectors/kafka/kafka_partition_split.h), read from the offset 'scan.startup.mode' resolves
// (kafka_start_offsets.h) into rows (kafka_row_assembler.h). An unbounded source looks for new
// partitions and topics every 'scan.topic-partition-discovery.interval' (TableSource::DiscoverSplits)
// and reads them from their earliest offset, as Flink's KafkaSourceEnumerator; a restored job reads
// a partition the checkpoint does not know from its earliest offset too.
//
// Threading: splits are read by the job's task thread; DiscoverSplits is called by the same thread.
#pragma once

#include <memory>

#include "connectors/connector.h"
#include "connectors/kafka/kafka_options.h"

namespace sluice {

// The metadata keys a Kafka source offers, with Flink's types.
const std::vector<Field>& KafkaReadableMetadata();

// Checks the requested metadata columns against the offered ones (key and type).
Status ValidateKafkaMetadata(const ConnectorContext& ctx);

// Checks the key and value formats' options; connects to nothing until splits are created.
Result<std::unique_ptr<TableSource>> MakeKafkaSource(ConnectorContext ctx, KafkaTableOptions options);

}  // namespace sluice
