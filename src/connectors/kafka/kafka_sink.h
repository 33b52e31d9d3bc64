// The Kafka table sink of 'kafka' (insert-only; every change with the 'debezium-json' value format,
// which encodes the RowKind in the record) and 'upsert-kafka' (upsert by primary key).
//
// Each row becomes one record of the table's topic: the key format encodes the key columns
// ('key.fields', or the primary key for upsert-kafka) into the message key, the value format the
// value columns ('value.fields-include') into the value. 'upsert-kafka' writes +I and +U rows as
// records and -D (and -U, as Flink does) as tombstones: the key with a null value. With
// 'sink.buffer-flush.max-rows' and 'sink.buffer-flush.interval' it keeps the last change per key
// and writes the buffer when it holds max-rows keys, when its oldest change is older than the
// interval (checked as rows arrive) and at the end of input.
//
// Records are produced asynchronously through librdkafka; Finish waits until every record is
// acknowledged and fails with the first delivery error, as does the next Write after one.
//
// 'sink.delivery-guarantee' = 'exactly-once' writes through a transactional producer: one transaction
// per checkpoint (two-phase commit, connectors/connector.h), committed with a progress marker once the
// checkpoint is durable; the checkpoint keeps the epoch's records so a recovery can write a lost commit
// again exactly once (kafka_transactions.h, docs/kafka.md). Without checkpointing the run is one
// transaction committed by Finish.
//
// Threading: a writer is used by the job's task thread.
#pragma once

#include <memory>

#include "connectors/connector.h"
#include "connectors/kafka/kafka_options.h"

namespace sluice {

// Checks the key and value formats' options; connects to nothing until a writer is created.
Result<std::unique_ptr<TableSink>> MakeKafkaSink(ConnectorContext ctx, KafkaTableOptions options);

}  // namespace sluice
