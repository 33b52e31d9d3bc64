#include "connectors/kafka/kafka_start_offsets.h"

#include <algorithm>

#include "connectors/kafka/kafka_client.h"

namespace sluice {

namespace {

// Committed offsets of the consumer group, kNoOffset where there is none.
Status FetchCommitted(rd_kafka_t* rk, std::vector<PartitionRange>* parts, std::vector<int64_t>* committed) {
  rd_kafka_topic_partition_list_t* list = rd_kafka_topic_partition_list_new(static_cast<int>(parts->size()));
  for (const auto& p : *parts) rd_kafka_topic_partition_list_add(list, p.topic.c_str(), p.partition);
  rd_kafka_resp_err_t err = rd_kafka_committed(rk, list, kKafkaRequestTimeoutMs);
  if (err != RD_KAFKA_RESP_ERR_NO_ERROR) {
    rd_kafka_topic_partition_list_destroy(list);
    return Status::IOError("Cannot fetch the committed offsets of the consumer group: " + KafkaErrorText(err));
  }
  committed->assign(parts->size(), kNoOffset);
  for (int i = 0; i < list->cnt; ++i) {
    const auto& e = list->elems[i];
    if (e.err == RD_KAFKA_RESP_ERR_NO_ERROR && e.offset >= 0) (*committed)[static_cast<size_t>(i)] = e.offset;
  }
  rd_kafka_topic_partition_list_destroy(list);
  return Status::OK();
}

// The first offset at or after `timestamp_ms` per partition; `fallback(partition)` where the
// cluster knows none (a real broker: no such record yet; the mock cluster: no lookup by time).
template <typename Fallback>
Status OffsetsForTimes(rd_kafka_t* rk, const std::vector<PartitionRange>& parts, int64_t timestamp_ms,
                       std::vector<int64_t>* offsets, Fallback fallback) {
  rd_kafka_topic_partition_list_t* list = rd_kafka_topic_partition_list_new(static_cast<int>(parts.size()));
  for (const auto& p : parts) rd_kafka_topic_partition_list_add(list, p.topic.c_str(), p.partition)->offset = timestamp_ms;
  rd_kafka_resp_err_t err = rd_kafka_offsets_for_times(rk, list, kKafkaRequestTimeoutMs);
  if (err != RD_KAFKA_RESP_ERR_NO_ERROR) {
    rd_kafka_topic_partition_list_destroy(list);
    return Status::IOError("Cannot look up offsets by timestamp: " + KafkaErrorText(err));
  }
  offsets->assign(parts.size(), kNoOffset);
  for (int i = 0; i < list->cnt; ++i) {
    const auto& e = list->elems[i];
    size_t k = static_cast<size_t>(i);
    (*offsets)[k] = (e.err == RD_KAFKA_RESP_ERR_NO_ERROR && e.offset >= 0) ? e.offset : fallback(parts[k]);
  }
  rd_kafka_topic_partition_list_destroy(list);
  return Status::OK();
}

}  // namespace

std::string PartitionName(const PartitionRange& p) { return p.topic + "-" + std::to_string(p.partition); }

Status QueryPartitionOffsets(rd_kafka_t* rk, std::vector<PartitionRange>* parts) {
  for (auto& p : *parts) {
    rd_kafka_resp_err_t err =
        rd_kafka_query_watermark_offsets(rk, p.topic.c_str(), p.partition, &p.low, &p.high, kKafkaRequestTimeoutMs);
    if (err != RD_KAFKA_RESP_ERR_NO_ERROR) {
      return Status::IOError("Cannot read the offsets of " + PartitionName(p) + ": " + KafkaErrorText(err));
    }
  }
  return Status::OK();
}

Status ResolveStartOffsets(rd_kafka_t* rk, const KafkaTableOptions& options, std::vector<PartitionRange>* parts) {
  std::vector<int64_t> committed;
  const auto mode = options.startup_mode;
  if (mode == KafkaStartupMode::kGroupOffsets ||
      (mode == KafkaStartupMode::kSpecificOffsets && options.properties.count("group.id"))) {
    RETURN_IF_ERROR(FetchCommitted(rk, parts, &committed));
  }
  std::vector<int64_t> by_time;
  if (mode == KafkaStartupMode::kTimestamp) {
    // Without an offset, read from the start and skip records older than the timestamp.
    RETURN_IF_ERROR(OffsetsForTimes(rk, *parts, options.startup_timestamp_millis, &by_time,
                                    [](const PartitionRange& p) { return p.low; }));
  }
  std::string reset = options.properties.count("auto.offset.reset") ? options.properties.at("auto.offset.reset") : "";
  for (char& c : reset) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  std::vector<std::string> missing;
  for (size_t i = 0; i < parts->size(); ++i) {
    PartitionRange& p = (*parts)[i];
    switch (mode) {
      case KafkaStartupMode::kEarliestOffset: p.start = p.low; break;
      case KafkaStartupMode::kLatestOffset: p.start = p.high; break;
      case KafkaStartupMode::kTimestamp: p.start = by_time[i]; break;
      case KafkaStartupMode::kSpecificOffsets: {
        auto it = p.topic == options.topics.front() ? options.startup_offsets.find(p.partition)
                                                     : options.startup_offsets.end();
        if (it != options.startup_offsets.end()) {
          p.start = it->second;
        } else {
          p.start = !committed.empty() && committed[i] != kNoOffset ? committed[i] : p.low;
        }
        break;
      }
      case KafkaStartupMode::kGroupOffsets:
        if (committed[i] != kNoOffset) {
          p.start = committed[i];
        } else if (reset == "earliest" || reset == "smallest" || reset == "beginning") {
          p.start = p.low;
        } else if (reset == "latest" || reset == "largest" || reset == "end") {
          p.start = p.high;
        } else {
          missing.push_back(PartitionName(p));
        }
        break;
    }
    p.start = std::clamp(p.start, p.low, p.high);
  }
  if (!missing.empty()) {
    std::string list;
    for (const auto& m : missing) list += (list.empty() ? "" : ", ") + m;
    return Status::InvalidArgument("Undefined offset with no reset policy for partitions: [" + list +
                                   "]. The consumer group '" + options.properties.at("group.id") +
                                   "' has no committed offset there ('scan.startup.mode' = 'group-offsets'); set "
                                   "'properties.auto.offset.reset' to 'earliest' or 'latest', or choose another "
                                   "'scan.startup.mode'.");
  }
  return Status::OK();
}

Status ResolveStopOffsets(rd_kafka_t* rk, const KafkaTableOptions& options, std::vector<PartitionRange>* parts) {
  const auto mode = options.bounded_mode;
  std::vector<int64_t> values;
  if (mode == KafkaBoundedMode::kGroupOffsets) RETURN_IF_ERROR(FetchCommitted(rk, parts, &values));
  if (mode == KafkaBoundedMode::kTimestamp) {
    // Without an offset, end at the current end or at the first record at or after the timestamp.
    RETURN_IF_ERROR(OffsetsForTimes(rk, *parts, options.bounded_timestamp_millis, &values,
                                    [](const PartitionRange& p) { return p.high; }));
  }
  std::vector<std::string> missing;
  for (size_t i = 0; i < parts->size(); ++i) {
    PartitionRange& p = (*parts)[i];
    switch (mode) {
      case KafkaBoundedMode::kUnbounded: p.stop = kNoOffset; break;
      case KafkaBoundedMode::kLatestOffset: p.stop = p.high; break;
      case KafkaBoundedMode::kTimestamp: p.stop = values[i]; break;
      case KafkaBoundedMode::kGroupOffsets:
        if (values[i] == kNoOffset) missing.push_back(PartitionName(p));
        p.stop = values[i];
        break;
      case KafkaBoundedMode::kSpecificOffsets: {
        auto it = p.topic == options.topics.front() ? options.bounded_offsets.find(p.partition)
                                                     : options.bounded_offsets.end();
        // "If an offset for a partition is not provided it will not consume from that partition."
        p.stop = it != options.bounded_offsets.end() ? it->second : p.start;
        break;
      }
    }
    if (p.stop != kNoOffset) p.stop = std::max(p.stop, p.start);
  }
  if (!missing.empty()) {
    std::string list;
    for (const auto& m : missing) list += (list.empty() ? "" : ", ") + m;
    return Status::InvalidArgument("Undefined offset with no reset policy for partitions: [" + list +
                                   "]. The consumer group '" + options.properties.at("group.id") +
                                   "' has no committed offset there to end at ('scan.bounded.mode' = "
                                   "'group-offsets').");
  }
  return Status::OK();
}

}  // namespace sluice
