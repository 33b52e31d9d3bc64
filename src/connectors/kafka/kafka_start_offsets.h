// Where each partition of a Kafka source starts and ends: Flink's 'scan.startup.mode' (earliest,
// latest, group offsets with 'properties.auto.offset.reset', timestamp, specific offsets) and
// 'scan.bounded.mode', resolved against the cluster when the source's splits are created.
//
// Threading: any thread (librdkafka's calls are thread-safe); each call blocks for at most
// kKafkaRequestTimeoutMs per request.
#pragma once

#include <librdkafka/rdkafka.h>

#include <cstdint>
#include <string>
#include <vector>

#include "common/status.h"
#include "connectors/kafka/kafka_options.h"

namespace sluice {

// Offsets that are not resolved yet / "no end".
inline constexpr int64_t kNoOffset = -1;

// One partition with its current low and high offsets and the resolved start and (exclusive) stop.
struct PartitionRange {
  std::string topic;
  int32_t partition;
  int64_t low = 0;
  int64_t high = 0;
  int64_t start = kNoOffset;
  int64_t stop = kNoOffset;
};

// "<topic>-<partition>", as Kafka's TopicPartition prints.
std::string PartitionName(const PartitionRange& p);

// Sets `low` and `high` of every partition from the cluster.
Status QueryPartitionOffsets(rd_kafka_t* rk, std::vector<PartitionRange>* parts);

// Sets `start` by 'scan.startup.mode' (clamped to [low, high]).
Status ResolveStartOffsets(rd_kafka_t* rk, const KafkaTableOptions& options, std::vector<PartitionRange>* parts);

// Sets `stop` by 'scan.bounded.mode' (kNoOffset when unbounded; never before `start`).
Status ResolveStopOffsets(rd_kafka_t* rk, const KafkaTableOptions& options, std::vector<PartitionRange>* parts);

}  // namespace sluice
