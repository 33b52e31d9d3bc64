// The Kafka table source of 'kafka' (append-only; a changelog with the 'debezium-json' value
// format) and 'upsert-kafka' (an upsert changelog).
//
// Every partition of every topic the table names is one SourceSplit. All splits of a source share
// one librdkafka consumer that is assigned every partition at explicit start offsets (resolved
// when the splits are created, from 'scan.startup.mode'); each split reads its own partition queue,
// so the runtime interleaves partitions deterministically. A bounded source ('scan.bounded.mode'
// other than 'unbounded') resolves each partition's end offset (exclusive) at the same time and the
// split ends when it gets there; an unbounded split never ends. The consumer is assigned the
// partitions at the first Read of any split, so that a restore can first move a split's start.
//
// Checkpoints (SourceSplit::CheckpointPosition): a split's position is the next offset of its
// partition after a given row of its last Read (plus the rows of that record already emitted, the
// end offset and the start-timestamp filter's state); restore seeks there, as Flink's KafkaSource
// keeps partition offsets in its checkpoints. So a restored job reads exactly the records after the
// checkpoint, whatever 'scan.startup.mode' resolves to at the restart (latest-offset, group-offsets).
// With a group and 'properties.commit.offsets.on.checkpoint' (SourceSplit::NotifyCheckpointComplete),
// the offsets of a completed checkpoint are committed to the group in one asynchronous request once
// every split reported its own; librdkafka's auto-commit is off unless the table turns it on.
//
// Rows: the key format decodes the message key into the key columns, the value format the value
// into the value columns ('value.fields-include'); a column that is in both takes the value's.
// Metadata columns (topic, partition, offset, timestamp, timestamp-type, headers, leader-epoch)
// follow. 'kafka' skips records without a value (tombstones) and, with a key format, records
// without a key; 'upsert-kafka' emits +I for a record with a value and -D (key columns set, the
// rest NULL) for a tombstone, and skips records without a key. Skipped records are counted. A
// changelog value format yields 0-2 rows per record with their RowKinds (debezium-json: -U and +U
// for an update); each row repeats the record's key columns and metadata.
//
// Reading never spins: a split polls its queue without waiting, and once every active split of the
// source came back empty in a row, the next poll waits up to kKafkaPollMillis for a record. Read
// then returns true with no rows (the runtime moves on to other splits).
//
// Threading: splits are read by the job's task thread; the shared consumer is thread-safe.
#pragma once

#include <memory>

#include "connectors/connector.h"
#include "connectors/kafka/kafka_options.h"

namespace sluice {

inline constexpr int kKafkaPollMillis = 100;

// The metadata keys a Kafka source offers, with Flink's types.
const std::vector<Field>& KafkaReadableMetadata();

// Checks the requested metadata columns against the offered ones (key and type).
Status ValidateKafkaMetadata(const ConnectorContext& ctx);

// Checks the key and value formats' options; connects to nothing until splits are created.
Result<std::unique_ptr<TableSource>> MakeKafkaSource(ConnectorContext ctx, KafkaTableOptions options);

}  // namespace sluice
