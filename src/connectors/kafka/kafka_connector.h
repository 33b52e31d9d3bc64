// The 'kafka' and 'upsert-kafka' connectors (Flink's Apache Kafka and Upsert Kafka SQL connectors),
// built on librdkafka.
//
// 'kafka' reads a topic as an append-only table and writes insert-only changes (with a changelog
// value format, 'debezium-json', it reads and writes every kind of change and may declare a
// PRIMARY KEY); 'upsert-kafka' needs a PRIMARY KEY (the message key), reads a compacted topic as
// an upsert changelog (I, UA, D; the planner normalizes it) and writes upserts and tombstones.
// Options, metadata columns and error wording are Flink's (kafka_options.h); sources are in
// kafka_source.h, sinks in kafka_sink.h.
// 'properties.bootstrap.servers' = 'mock://<name>' uses an in-process mock cluster (kafka_client.h).
//
// Threading: the factories are stateless.
#pragma once

#include <memory>

#include "connectors/connector.h"

namespace sluice {

std::unique_ptr<ConnectorFactory> MakeKafkaConnectorFactory();
std::unique_ptr<ConnectorFactory> MakeUpsertKafkaConnectorFactory();

}  // namespace sluice
