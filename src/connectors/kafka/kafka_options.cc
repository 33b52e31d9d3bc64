#include "connectors/kafka/kafka_options.h"

#include <algorithm>
#include <charconv>

#include "common/config.h"
#include "formats/avro_confluent/avro_confluent_format.h"

namespace sluice {

namespace {

constexpr char kTopic[] = "topic";
constexpr char kTopicPattern[] = "topic-pattern";
constexpr char kBootstrapServers[] = "properties.bootstrap.servers";
constexpr char kGroupId[] = "properties.group.id";
constexpr char kCommitOffsets[] = "properties.commit.offsets.on.checkpoint";
constexpr char kProperties[] = "properties.#";
constexpr char kPropertiesPrefix[] = "properties.";
constexpr char kFormat[] = "format";
constexpr char kKeyFormat[] = "key.format";
constexpr char kValueFormat[] = "value.format";
constexpr char kKeyFields[] = "key.fields";
constexpr char kKeyFieldsPrefix[] = "key.fields-prefix";
constexpr char kValueFieldsInclude[] = "value.fields-include";
constexpr char kStartupMode[] = "scan.startup.mode";
constexpr char kStartupOffsets[] = "scan.startup.specific-offsets";
constexpr char kStartupTimestamp[] = "scan.startup.timestamp-millis";
constexpr char kBoundedMode[] = "scan.bounded.mode";
constexpr char kBoundedOffsets[] = "scan.bounded.specific-offsets";
constexpr char kBoundedTimestamp[] = "scan.bounded.timestamp-millis";
constexpr char kPartitioner[] = "sink.partitioner";
constexpr char kDeliveryGuarantee[] = "sink.delivery-guarantee";
constexpr char kTransactionalIdPrefix[] = "sink.transactional-id-prefix";
constexpr char kBufferMaxRows[] = "sink.buffer-flush.max-rows";
constexpr char kBufferInterval[] = "sink.buffer-flush.interval";
constexpr char kPartitionDiscovery[] = "scan.topic-partition-discovery.interval";
constexpr char kScanParallelism[] = "scan.parallelism";
constexpr char kSinkParallelism[] = "sink.parallelism";

std::string Trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return std::string(s);
}

// Flink's list options separate their items with ';'.
std::vector<std::string> SplitList(const std::string& text) {
  std::vector<std::string> out;
  size_t begin = 0;
  while (begin <= text.size()) {
    size_t end = text.find(';', begin);
    if (end == std::string::npos) end = text.size();
    std::string item = Trim(std::string_view(text).substr(begin, end - begin));
    if (!item.empty()) out.push_back(std::move(item));
    begin = end + 1;
  }
  return out;
}

std::string JoinNames(const std::vector<std::string>& names) {
  std::string out = "[";
  for (size_t i = 0; i < names.size(); ++i) out += (i ? ", " : "") + names[i];
  return out + "]";
}

// The allowed keys of one table: the connector's declarations plus its key and value formats'
// options under 'key.' / 'value.', so the shared validator checks every key (with did-you-mean).
class TableOptionView final : public ConnectorFactory {
 public:
  TableOptionView(std::string identifier, std::vector<OptionSpec> specs)
      : identifier_(std::move(identifier)), specs_(std::move(specs)) {}
  std::string identifier() const override { return identifier_; }
  std::vector<OptionSpec> options() const override { return specs_; }
  bool supports_source() const override { return true; }
  bool supports_sink() const override { return true; }

 private:
  std::string identifier_;
  std::vector<OptionSpec> specs_;
};

// Format options written with a 'key.' / 'value.' prefix, with the prefix removed.
std::map<std::string, std::string> FormatOptions(const std::map<std::string, std::string>& options,
                                                 const std::string& prefix, const FormatFactory& format) {
  std::map<std::string, std::string> out;
  for (const ConfigOption& o : format.options()) {
    if (std::string_view(o.key).find('#') != std::string_view::npos) {
      // A map option ('avro-confluent.properties.#'): every key it matches.
      for (const auto& [key, value] : options) {
        if (key.rfind(prefix, 0) == 0 && OptionKeyMatches(o.key, key.substr(prefix.size()))) out[key.substr(prefix.size())] = value;
      }
      continue;
    }
    auto it = options.find(prefix + o.key);
    if (it != options.end()) out[o.key] = it->second;
  }
  return out;
}

Result<std::map<int32_t, int64_t>> ParseSpecificOffsets(const std::string& text, const std::string& key) {
  const Status bad = Status::InvalidArgument("Invalid properties '" + key +
                                            "' should follow the format "
                                            "'partition:0,offset:42;partition:1,offset:300', but is '" +
                                            text + "'.");
  std::map<int32_t, int64_t> out;
  size_t begin = 0;
  if (text.empty()) return bad;
  while (begin <= text.size()) {
    size_t end = text.find(';', begin);
    if (end == std::string::npos) end = text.size();
    std::string pair = text.substr(begin, end - begin);
    begin = end + 1;
    if (pair.empty() && begin > text.size()) break;  // a trailing ';'
    size_t comma = pair.find(',');
    if (comma == std::string::npos || pair.find(',', comma + 1) != std::string::npos) return bad;
    std::string p = pair.substr(0, comma);
    std::string o = pair.substr(comma + 1);
    if (p.rfind("partition:", 0) != 0 || o.rfind("offset:", 0) != 0) return bad;
    std::string pv = p.substr(10);
    std::string ov = o.substr(7);
    int32_t partition = 0;
    int64_t offset = 0;
    auto r1 = std::from_chars(pv.data(), pv.data() + pv.size(), partition);
    auto r2 = std::from_chars(ov.data(), ov.data() + ov.size(), offset);
    if (pv.empty() || ov.empty() || r1.ec != std::errc() || r1.ptr != pv.data() + pv.size() || r2.ec != std::errc() ||
        r2.ptr != ov.data() + ov.size()) {
      return bad;
    }
    out[partition] = offset;
  }
  if (out.empty()) return bad;
  return out;
}

Result<KafkaStartupMode> StartupModeOf(const std::string& s) {
  if (s == "earliest-offset") return KafkaStartupMode::kEarliestOffset;
  if (s == "latest-offset") return KafkaStartupMode::kLatestOffset;
  if (s == "group-offsets") return KafkaStartupMode::kGroupOffsets;
  if (s == "timestamp") return KafkaStartupMode::kTimestamp;
  return KafkaStartupMode::kSpecificOffsets;
}

Result<KafkaBoundedMode> BoundedModeOf(const std::string& s) {
  if (s == "unbounded") return KafkaBoundedMode::kUnbounded;
  if (s == "latest-offset") return KafkaBoundedMode::kLatestOffset;
  if (s == "group-offsets") return KafkaBoundedMode::kGroupOffsets;
  if (s == "timestamp") return KafkaBoundedMode::kTimestamp;
  return KafkaBoundedMode::kSpecificOffsets;
}

// 'properties.commit.offsets.on.checkpoint' is Flink's source option, not a Kafka client property:
// it leaves `properties` (librdkafka would reject it). Without a group there is nothing to commit
// to, so it is off then (Flink disables it with a warning).
Status ParseCommitOffsets(const OptionReader& reader, KafkaTableOptions* o) {
  o->properties.erase("commit.offsets.on.checkpoint");
  const bool has_group = o->properties.count("group.id") > 0;
  ASSIGN_OR_RETURN(o->commit_offsets_on_checkpoint, reader.GetBool(kCommitOffsets, has_group));
  if (!has_group) o->commit_offsets_on_checkpoint = false;
  return Status::OK();
}

// 'scan.topic-partition-discovery.interval' (Flink's default: 5 minutes; '0' disables it): a
// bounded source never discovers, as Flink's KafkaSourceBuilder turns discovery off for one.
Status ParsePartitionDiscovery(const OptionReader& reader, KafkaTableOptions* o) {
  ASSIGN_OR_RETURN(int64_t discovery, reader.GetDurationMillis(kPartitionDiscovery, 5 * 60 * 1000));
  if (discovery < 0) {
    return Status::InvalidArgument(std::string("'") + kPartitionDiscovery + "' must not be negative");
  }
  o->partition_discovery_millis = o->bounded_mode == KafkaBoundedMode::kUnbounded ? discovery : 0;
  return Status::OK();
}

Status ParseScanOptions(const OptionReader& reader, bool upsert, KafkaTableOptions* o) {
  RETURN_IF_ERROR(ParseCommitOffsets(reader, o));
  bool single_topic = o->topics.size() == 1;
  if (!upsert) {
    ASSIGN_OR_RETURN(std::string mode,
                     reader.GetEnum(kStartupMode, "group-offsets",
                                    {"earliest-offset", "latest-offset", "group-offsets", "timestamp", "specific-offsets"}));
    ASSIGN_OR_RETURN(o->startup_mode, StartupModeOf(mode));
    if (o->startup_mode == KafkaStartupMode::kTimestamp) {
      if (!reader.Has(kStartupTimestamp)) {
        return Status::InvalidArgument(std::string("'") + kStartupTimestamp +
                                       "' is required in 'timestamp' startup mode but missing.");
      }
      ASSIGN_OR_RETURN(o->startup_timestamp_millis, reader.GetInt(kStartupTimestamp, 0));
    }
    if (o->startup_mode == KafkaStartupMode::kSpecificOffsets) {
      if (!reader.Has(kStartupOffsets)) {
        return Status::InvalidArgument(std::string("'") + kStartupOffsets +
                                       "' is required in 'specific-offsets' startup mode but missing.");
      }
      if (!single_topic) {
        return Status::InvalidArgument("Currently Kafka source only supports specific offset for single topic.");
      }
      ASSIGN_OR_RETURN(o->startup_offsets, ParseSpecificOffsets(reader.GetString(kStartupOffsets, ""), kStartupOffsets));
    }
    if (o->startup_mode == KafkaStartupMode::kGroupOffsets && o->properties.count("group.id") == 0) {
      return Status::InvalidArgument(std::string("'") + kGroupId +
                                     "' is required in 'group-offsets' startup mode (the default) but missing. "
                                     "Set it, or choose another 'scan.startup.mode' such as 'earliest-offset'.");
    }
  } else {
    // upsert-kafka reads the whole compacted topic: the latest value of every key.
    o->startup_mode = KafkaStartupMode::kEarliestOffset;
  }
  ASSIGN_OR_RETURN(std::string bmode,
                   reader.GetEnum(kBoundedMode, "unbounded",
                                  {"unbounded", "latest-offset", "group-offsets", "timestamp", "specific-offsets"}));
  ASSIGN_OR_RETURN(o->bounded_mode, BoundedModeOf(bmode));
  if (o->bounded_mode == KafkaBoundedMode::kTimestamp) {
    if (!reader.Has(kBoundedTimestamp)) {
      return Status::InvalidArgument(std::string("'") + kBoundedTimestamp +
                                     "' is required in 'timestamp' bounded mode but missing.");
    }
    ASSIGN_OR_RETURN(o->bounded_timestamp_millis, reader.GetInt(kBoundedTimestamp, 0));
  }
  if (o->bounded_mode == KafkaBoundedMode::kSpecificOffsets) {
    if (!reader.Has(kBoundedOffsets)) {
      return Status::InvalidArgument(std::string("'") + kBoundedOffsets +
                                     "' is required in 'specific-offsets' bounded mode but missing.");
    }
    if (!single_topic) {
      return Status::InvalidArgument("Currently Kafka source only supports specific offset for single topic.");
    }
    ASSIGN_OR_RETURN(o->bounded_offsets, ParseSpecificOffsets(reader.GetString(kBoundedOffsets, ""), kBoundedOffsets));
  }
  if (o->bounded_mode == KafkaBoundedMode::kGroupOffsets && o->properties.count("group.id") == 0) {
    return Status::InvalidArgument(std::string("'") + kGroupId +
                                   "' is required in 'group-offsets' bounded mode but missing.");
  }
  return ParsePartitionDiscovery(reader, o);
}

// 'sink.delivery-guarantee' and, for 'exactly-once', 'sink.transactional-id-prefix' (Flink's
// validateDeliveryGuarantee). Exactly-once needs a real broker: librdkafka's mock cluster neither
// keeps the offsets a transaction commits (the sink's progress marker) nor enforces read_committed.
Status ParseDeliveryGuarantee(const OptionReader& reader, KafkaTableOptions* o) {
  ASSIGN_OR_RETURN(std::string guarantee,
                   reader.GetEnum(kDeliveryGuarantee, "at-least-once", {"at-least-once", "exactly-once", "none"}));
  if (guarantee == "none") {
    o->delivery_guarantee = KafkaDeliveryGuarantee::kNone;
  } else if (guarantee == "at-least-once") {
    o->delivery_guarantee = KafkaDeliveryGuarantee::kAtLeastOnce;
  } else {
    o->delivery_guarantee = KafkaDeliveryGuarantee::kExactlyOnce;
    o->transactional_id_prefix = reader.GetString(kTransactionalIdPrefix, "");
    if (!reader.Has(kTransactionalIdPrefix)) {
      return Status::InvalidArgument(std::string(kTransactionalIdPrefix) +
                                     " must be specified when using DeliveryGuarantee.EXACTLY_ONCE.");
    }
    if (o->transactional_id_prefix.empty()) {
      return reader.InvalidValue(kTransactionalIdPrefix, "the prefix of the sink's Kafka transactional ids is empty");
    }
    const auto servers = o->properties.find("bootstrap.servers");
    if (servers != o->properties.end() && servers->second.rfind("mock://", 0) == 0) {
      return Status::NotSupported(
          std::string("'") + kDeliveryGuarantee + "' = 'exactly-once' cannot be used with the mock cluster '" +
          servers->second +
          "': librdkafka's mock broker does not keep the offsets a transaction commits (send_offsets_to_transaction, "
          "which Sluice's recovery reads back) and does not enforce read_committed, so exactly-once cannot be "
          "guaranteed there. Use a real Kafka broker, or 'at-least-once'.");
    }
  }
  return Status::OK();
}

Status ParseSinkOptions(const OptionReader& reader, bool upsert, KafkaTableOptions* o) {
  o->properties.erase("commit.offsets.on.checkpoint");  // a source option (ParseCommitOffsets)
  if (o->topics.size() != 1) {
    return Status::NotSupported(
        "a Kafka sink writes to exactly one 'topic'; writing to a topic list or 'topic-pattern' needs the writable "
        "'topic' metadata column, which is not supported by Sluice yet");
  }
  RETURN_IF_ERROR(ParseDeliveryGuarantee(reader, o));
  if (!upsert) {
    std::string partitioner = reader.GetString(kPartitioner, "default");
    if (partitioner.empty()) {
      return Status::InvalidArgument(std::string("Option '") + kPartitioner + "' should be a non-empty string.");
    }
    if (partitioner == "default") {
      o->partitioner = KafkaPartitioner::kDefault;
    } else if (partitioner == "fixed") {
      o->partitioner = KafkaPartitioner::kFixed;
    } else if (partitioner == "round-robin") {
      if (reader.Has(kKeyFields)) {
        return Status::InvalidArgument(
            "Currently 'round-robin' partitioner only works when option 'key.fields' is not specified.");
      }
      o->partitioner = KafkaPartitioner::kRoundRobin;
    } else {
      return Status::NotSupported("Could not find and instantiate partitioner class '" + partitioner +
                                  "': Sluice runs no JVM; 'sink.partitioner' may be 'default', 'fixed' or 'round-robin'");
    }
  } else {
    ASSIGN_OR_RETURN(o->buffer_flush_max_rows, reader.GetInt(kBufferMaxRows, 0));
    ASSIGN_OR_RETURN(o->buffer_flush_interval_ms, reader.GetDurationMillis(kBufferInterval, 0));
    bool rows = o->buffer_flush_max_rows > 0;
    bool interval = o->buffer_flush_interval_ms > 0;
    if (rows != interval) {
      return Status::InvalidArgument(std::string("'") + kBufferMaxRows + "' and '" + kBufferInterval +
                                     "' must be set to be greater than zero together to enable sink buffer flushing.");
    }
  }
  return Status::OK();
}

}  // namespace

std::vector<OptionSpec> KafkaOptionSpecs(bool upsert) {
  std::vector<OptionSpec> specs = {
      {kTopic, false, "",
       upsert ? "The topic to read from and write to. Either 'topic' or 'topic-pattern' must be set."
              : "Topic name(s) to read from ('topic-1;topic-2' for several) or the one topic to write to. Either "
                "'topic' or 'topic-pattern' must be set."},
      {kTopicPattern, false, "",
       "A regular expression (RE2 syntax, matched against the whole name) selecting the topics a source reads."},
      {kBootstrapServers, true, "",
       "The Kafka brokers ('host1:9092,host2:9092'). 'mock://<name>' (for tests and trying Sluice out; never for "
       "production) connects to an in-process librdkafka mock cluster created on first use and shared by every "
       "table of the process that names it; 'mock://<name>?partitions=<n>' gives the topics this table creates "
       "there n partitions (default 1). The mock cluster speaks PLAINTEXT only: a 'properties.security.protocol' "
       "other than PLAINTEXT (SASL, SSL) is refused with it."},
      {kGroupId, false, "",
       "The consumer group. Required by the 'group-offsets' modes; with it a source commits the offsets of each "
       "completed checkpoint to the group ('properties.commit.offsets.on.checkpoint')."},
      {kCommitOffsets, false, "",
       "Sources: whether the partition offsets stored in a checkpoint are committed to 'properties.group.id' once "
       "the checkpoint completes (true by default when a group is set; without one nothing is committed). The "
       "source never uses librdkafka's periodic auto-commit unless 'properties.enable.auto.commit' = 'true' is set."},
      {kProperties, false, "",
       "Any librdkafka configuration property, e.g. 'properties.security.protocol'. A PLAIN or SCRAM "
       "'properties.sasl.jaas.config' is translated to sasl.username and sasl.password. Secret values never "
       "appear in messages."},
  };
  if (!upsert) {
    specs.push_back({kFormat, false, "", "The value format ('json', 'csv' or 'debezium-json'); the same as 'value.format'."});
    specs.push_back({kValueFormat, false, "",
                     "The format of the message value ('json', 'csv' or 'debezium-json': a changelog, read as one and "
                     "written from updating queries)."});
    specs.push_back({kKeyFormat, false, "", "The format of the message key; requires 'key.fields'."});
    specs.push_back({kKeyFields, false, "",
                     "Physical columns (';'-separated) that make up the message key, in key format order."});
  } else {
    specs.push_back({kKeyFormat, true, "", "The format of the message key (the PRIMARY KEY columns): 'json' or 'csv'."});
    specs.push_back({kValueFormat, true, "", "The format of the message value ('json' or 'csv')."});
  }
  specs.push_back({kKeyFieldsPrefix, false, "",
                   "A prefix of the key columns' names that the key format does not see (avoids clashes with "
                   "value fields); requires 'value.fields-include' = 'EXCEPT_KEY'."});
  specs.push_back({kValueFieldsInclude, false, "ALL",
                   "Which physical columns the value holds: 'ALL', or 'EXCEPT_KEY' (key columns only in the key)."});
  if (!upsert) {
    specs.push_back({kStartupMode, false, "group-offsets",
                     "Where a source starts in every partition: 'earliest-offset', 'latest-offset', 'group-offsets' "
                     "(committed offsets of 'properties.group.id'; without one, 'properties.auto.offset.reset' "
                     "decides, else it fails), 'timestamp' or 'specific-offsets'."});
    specs.push_back({kStartupOffsets, false, "",
                     "Start offsets for 'specific-offsets': 'partition:0,offset:42;partition:1,offset:300'. Other "
                     "partitions start at the group's committed offset, else the earliest."});
    specs.push_back({kStartupTimestamp, false, "",
                     "Epoch milliseconds for 'timestamp' startup: each partition starts at its first record at or "
                     "after it."});
  }
  specs.push_back({kBoundedMode, false, "unbounded",
                   "Where a source ends: 'unbounded' (keeps polling), 'latest-offset' (the end offsets when the job "
                   "starts), 'group-offsets' (the committed offsets), 'timestamp' or 'specific-offsets'. A bounded "
                   "source ends when every partition reaches its bound."});
  specs.push_back({kBoundedOffsets, false, "",
                   "End offsets (exclusive) for 'specific-offsets': 'partition:0,offset:42;partition:1,offset:300'. A "
                   "partition without one is not read."});
  specs.push_back({kBoundedTimestamp, false, "",
                   "Epoch milliseconds for 'timestamp' bounded mode: each partition ends before its first record at "
                   "or after it."});
  if (!upsert) {
    specs.push_back({kPartitioner, false, "default",
                     "How the sink picks partitions: 'default' (librdkafka's murmur2 of the key, as Kafka's default "
                     "partitioner; random without a key), 'fixed' (the sink's one writer writes partition 0) or "
                     "'round-robin' (only without 'key.fields')."});
  } else {
    specs.push_back({kBufferMaxRows, false, "0",
                     "With 'sink.buffer-flush.interval', buffers up to this many keys (the last change per key "
                     "wins) before writing them. 0 disables buffering."});
    specs.push_back({kBufferInterval, false, "0 s",
                     "With 'sink.buffer-flush.max-rows', writes the buffer once its oldest change is this old "
                     "(checked when rows arrive) and at the end of input. 0 disables buffering."});
  }
  specs.push_back({kDeliveryGuarantee, false, "at-least-once",
                   "'at-least-once', 'none' or 'exactly-once'. With the first two, the sink waits at the end of input "
                   "(and, when the job checkpoints, at every checkpoint) until every record is acknowledged, and fails "
                   "on a delivery error; after a restart it writes again what followed the last checkpoint. "
                   "'exactly-once' (needs 'sink.transactional-id-prefix' and a real broker, not 'mock://') writes one "
                   "Kafka transaction per checkpoint, committed once the checkpoint is durable, so read_committed "
                   "consumers see every change once, also across crashes; without checkpointing the whole run is one "
                   "transaction committed at the end (docs/kafka.md)."});
  specs.push_back({kPartitionDiscovery, false, "5 min",
                   "How often an unbounded source looks for new partitions of its topics and new topics matching "
                   "'topic-pattern' while it runs; what it finds is read from the earliest offset, as Flink's. "
                   "'0' disables it. A bounded source ('scan.bounded.mode') never discovers, as Flink's."});
  specs.push_back({kTransactionalIdPrefix, false, "",
                   "Required by 'exactly-once': the sink's Kafka transactional.id is '<prefix>-0' ('<prefix>-1', ... "
                   "for further writers of the prefix in one job) and its progress marker is kept in the consumer "
                   "group '<transactional.id>-progress'. Unique per job on a cluster: a new run with the same prefix "
                   "fences and aborts the previous one's open transaction."});
  specs.push_back({kScanParallelism, false, "", "Accepted for Flink compatibility; Sluice reads every partition from one task."});
  specs.push_back({kSinkParallelism, false, "", "Accepted for Flink compatibility; Sluice writes from one task."});
  return specs;
}

namespace {

// The formats named by 'key.format' and 'value.format', and the option keys they allow under their
// prefixes (added to `specs`).
Status FindKafkaFormats(const ConnectorContext& ctx, bool upsert, KafkaTableOptions* o, std::vector<OptionSpec>* specs) {
  const auto& opts = ctx.options;
  if (upsert && opts.count(kFormat)) {
    return Status::InvalidArgument("Unsupported options found for 'upsert-kafka'. Unsupported options: format. "
                                   "Did you mean 'value.format'?");
  }
  if (auto it = opts.find(kKeyFormat); it != opts.end()) {
    auto f = FindFormat(it->second);
    if (!f.ok()) return f.status().WithContext(std::string("Option '") + kKeyFormat + "'");
    o->key_format = *f;
    o->key_format_name = it->second;
    for (const ConfigOption& c : o->key_format->options()) specs->push_back({std::string("key.") + c.key, false, "", ""});
  }
  if (auto it = opts.find(kValueFormat); it != opts.end()) {
    if (opts.count(kFormat)) {
      return Status::InvalidArgument("Options 'format' and 'value.format' name the same thing; set only one.");
    }
    auto f = FindFormat(it->second);
    if (!f.ok()) return f.status().WithContext(std::string("Option '") + kValueFormat + "'");
    o->value_format = *f;
    o->value_format_name = it->second;
    for (const ConfigOption& c : o->value_format->options()) specs->push_back({std::string("value.") + c.key, false, "", ""});
  }
  return Status::OK();
}

// The value format ('format' when `plain_format` is set, else 'value.format'), both formats' options,
// and the changelog modes each may have.
Status ResolveKafkaFormats(const ConnectorContext& ctx, bool upsert, ConnectorRole role,
                           const FormatFactory* plain_format, KafkaTableOptions* o) {
  const auto& opts = ctx.options;
  if (plain_format != nullptr) {
    o->value_format = plain_format;
    o->value_format_name = opts.at(kFormat);
    o->value_format_options = FormatOptions(opts, "", *plain_format);
  } else if (o->value_format != nullptr) {
    o->value_option_prefix = "value.";
    o->value_format_options = FormatOptions(opts, "value.", *o->value_format);
  } else {
    return Status::InvalidArgument(std::string("Could not find required ") +
                                   (role == ConnectorRole::kSource ? "scan" : "sink") +
                                   " format 'value.format'. Set 'value.format' (or 'format') to 'json', 'csv' or 'debezium-json'.");
  }
  if (o->key_format != nullptr) o->key_format_options = FormatOptions(opts, "key.", *o->key_format);
  // Changelog formats (debezium-json) only as the value format of 'kafka', as Flink allows them.
  if (o->key_format != nullptr && !o->key_format->changelog_mode().IsInsertOnly()) {
    return Status::InvalidArgument(
        upsert ? "'upsert-kafka' connector doesn't support '" + o->key_format_name + "' as key format, because '" +
                     o->key_format_name + "' is not in insert-only mode."
               : "A key format should only deal with INSERT-only records. But " + o->key_format_name +
                     " has a changelog mode of [" + o->key_format->changelog_mode().ToString() + "].");
  }
  if (upsert && !o->value_format->changelog_mode().IsInsertOnly()) {
    return Status::InvalidArgument("'upsert-kafka' connector doesn't support '" + o->value_format_name +
                                   "' as value format, because '" + o->value_format_name +
                                   "' is not in insert-only mode.");
  }
  return Status::OK();
}

// 'topic' (a list) or 'topic-pattern', and the schema registry subjects one topic implies.
Status ParseKafkaTopics(const ConnectorContext& ctx, bool upsert, const OptionReader& reader, KafkaTableOptions* o) {
  const auto& opts = ctx.options;
  if (opts.count(kTopic) && opts.count(kTopicPattern)) {
    return Status::InvalidArgument("Option 'topic' and 'topic-pattern' shouldn't be set together.");
  }
  if (!opts.count(kTopic) && !opts.count(kTopicPattern)) {
    return Status::InvalidArgument("Either 'topic' or 'topic-pattern' must be set.");
  }
  if (opts.count(kTopic)) {
    o->topics = SplitList(opts.at(kTopic));
    if (o->topics.empty()) return reader.InvalidValue(kTopic, "no topic name given");
    if (upsert && o->topics.size() > 1) {
      return Status::NotSupported("'upsert-kafka' reads and writes one 'topic'; a topic list is not supported by Sluice yet");
    }
  } else {
    o->topic_pattern = opts.at(kTopicPattern);
    if (o->topic_pattern.empty()) return reader.InvalidValue(kTopicPattern, "the pattern is empty");
  }

  // Flink's autoCompleteSchemaRegistrySubject: '<topic>-value' / '<topic>-key' for one topic.
  if (o->topics.size() == 1) {
    DefaultSchemaRegistrySubject(*o->value_format, o->topics[0], false, &o->value_format_options);
    if (o->key_format != nullptr) DefaultSchemaRegistrySubject(*o->key_format, o->topics[0], true, &o->key_format_options);
  }
  return Status::OK();
}

// Key and value fields (Flink's createKeyFormatProjection / createValueFormatProjection).
Status ParseKafkaFields(const ConnectorContext& ctx, bool upsert, const OptionReader& reader, KafkaTableOptions* o) {
  const auto& opts = ctx.options;
  const Schema& physical = ctx.physical_schema;
  const std::string prefix = reader.GetString(kKeyFieldsPrefix, "");
  ASSIGN_OR_RETURN(std::string include, reader.GetEnum(kValueFieldsInclude, "ALL", {"ALL", "EXCEPT_KEY"}));
  std::vector<std::string> key_names;
  if (upsert) {
    if (ctx.primary_key.empty()) {
      return Status::InvalidArgument(
          "'upsert-kafka' tables require to define a PRIMARY KEY constraint. The PRIMARY KEY specifies which columns "
          "should be read from or write to the Kafka message key. The PRIMARY KEY also defines records in the "
          "'upsert-kafka' table should update or delete on which keys.");
    }
    key_names = ctx.primary_key;
  } else {
    // A changelog value format (debezium-json) may declare the key its changes are about.
    if (!ctx.primary_key.empty() && o->value_format->changelog_mode().IsInsertOnly()) {
      return Status::InvalidArgument("The Kafka table '" + ctx.table_name + "' with '" + o->value_format_name +
                                     "' format doesn't support defining PRIMARY KEY constraint on the table, "
                                     "because it can't guarantee the semantic of primary key. Use the "
                                     "'upsert-kafka' connector for a table keyed by its PRIMARY KEY.");
    }
    if (o->key_format == nullptr && opts.count(kKeyFields)) {
      return Status::InvalidArgument(
          "The option 'key.fields' can only be declared if a key format is defined using 'key.format'.");
    }
    if (o->key_format != nullptr) {
      key_names = SplitList(reader.GetString(kKeyFields, ""));
      if (key_names.empty()) {
        return Status::InvalidArgument(
            "A key format 'key.format' requires the declaration of one or more of key fields using 'key.fields'.");
      }
    }
  }
  for (const std::string& name : key_names) {
    auto pos = physical.IndexOf(name);
    if (!pos) {
      return Status::InvalidArgument("Could not find the field '" + name +
                                     "' in the table schema for usage in the key format. A key field must be a "
                                     "regular, physical column. The following columns can be selected in the "
                                     "'key.fields' option:\n" +
                                     JoinNames(physical.names()));
    }
    if (name.rfind(prefix, 0) != 0) {
      return Status::InvalidArgument("All fields in 'key.fields' must be prefixed with '" + prefix +
                                     "' when option 'key.fields-prefix' is set but field '" + name +
                                     "' is not prefixed.");
    }
    o->key_fields.push_back(static_cast<int>(*pos));
    o->key_schema.Add(name.substr(prefix.size()), physical.field(*pos).type);
  }
  if (include == "ALL" && !prefix.empty()) {
    return Status::InvalidArgument(
        "A key prefix is not allowed when option 'value.fields-include' is set to 'ALL'. Set it to 'EXCEPT_KEY' "
        "instead to avoid field overlaps.");
  }
  for (size_t i = 0; i < physical.size(); ++i) {
    bool is_key = std::find(o->key_fields.begin(), o->key_fields.end(), static_cast<int>(i)) != o->key_fields.end();
    if (include == "EXCEPT_KEY" && is_key) continue;
    o->value_fields.push_back(static_cast<int>(i));
    o->value_schema.Add(physical.field(i).name, physical.field(i).type);
  }

  return Status::OK();
}

}  // namespace

Result<KafkaTableOptions> ParseKafkaTableOptions(const ConnectorContext& ctx, bool upsert, ConnectorRole role) {
  const std::string context = ConnectorErrorContext(ctx, role);
  auto fail = [&](const Status& s) { return s.WithContext(context); };
  KafkaTableOptions o;
  o.upsert = upsert;
  o.table_name = ctx.table_name;
  o.error_context = context;
  // The key and value formats' own options are allowed under their prefixes.
  std::vector<OptionSpec> specs = KafkaOptionSpecs(upsert);
  Status s = FindKafkaFormats(ctx, upsert, &o, &specs);
  if (!s.ok()) return fail(s);
  TableOptionView view(upsert ? "upsert-kafka" : "kafka", std::move(specs));
  ASSIGN_OR_RETURN(const FormatFactory* plain_format, ValidateConnectorOptions(ctx, view, role));  // names the table
  s = ResolveKafkaFormats(ctx, upsert, role, plain_format, &o);
  if (!s.ok()) return fail(s);
  OptionReader reader(ctx.table_name, &ctx.options);
  for (const auto& [key, value] : ctx.options) {
    if (key.rfind(kPropertiesPrefix, 0) == 0) o.properties[key.substr(std::string(kPropertiesPrefix).size())] = value;
  }
  s = ParseKafkaTopics(ctx, upsert, reader, &o);
  if (s.ok()) s = ParseKafkaFields(ctx, upsert, reader, &o);
  if (s.ok()) s = role == ConnectorRole::kSource ? ParseScanOptions(reader, upsert, &o) : ParseSinkOptions(reader, upsert, &o);
  if (!s.ok()) return fail(s);
  return o;
}

Status WithFormatOptionPrefix(const Status& status, const std::string& prefix, const FormatFactory& format) {
  if (status.ok() || prefix.empty()) return status;
  std::string msg = status.message();
  for (const ConfigOption& o : format.options()) {
    const std::string from = std::string("'") + o.key + "'";
    const std::string to = "'" + prefix + o.key + "'";
    for (size_t at = msg.find(from); at != std::string::npos; at = msg.find(from, at + to.size())) {
      msg.replace(at, from.size(), to);
    }
  }
  return Status(status.code(), std::move(msg));
}

namespace {

// Java clients' TLS settings as librdkafka reads them: a PKCS12 keystore is the same setting (the type
// goes), Java's empty endpoint identification is librdkafka's 'none'; a truststore has no librdkafka
// equivalent (it reads CA certificates as PEM), so it gets a message that says what to set instead.
Result<std::map<std::string, std::string>> TranslateJavaTlsProperties(std::map<std::string, std::string> out) {
  for (const char* key : {"ssl.truststore.location", "ssl.truststore.password", "ssl.truststore.type",
                          "ssl.truststore.certificates"}) {
    if (out.count(key) == 0) continue;
    return Status::NotSupported(std::string("'properties.") + key +
                                "' is a Java client setting that librdkafka does not read: give the CA certificates "
                                "as a PEM file with 'properties.ssl.ca.location' (keytool -exportcert -rfc writes "
                                "one from a truststore)");
  }
  auto type = out.find("ssl.keystore.type");
  if (type != out.end()) {
    std::string t = type->second;
    for (char& c : t) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    if (t != "PKCS12") {
      return Status::NotSupported("'properties.ssl.keystore.type' = '" + type->second +
                                  "' cannot be read by librdkafka: use a PKCS12 keystore "
                                  "('properties.ssl.keystore.location' and '.password') or PEM files "
                                  "('properties.ssl.certificate.location' and 'properties.ssl.key.location')");
    }
    out.erase(type);
  }
  auto ident = out.find("ssl.endpoint.identification.algorithm");
  if (ident != out.end() && ident->second.empty()) ident->second = "none";
  return out;
}

}  // namespace

Result<std::map<std::string, std::string>> ClientProperties(const KafkaTableOptions& options) {
  std::map<std::string, std::string> out = options.properties;
  auto jaas = out.find("sasl.jaas.config");
  if (jaas != out.end()) {
    // Java's JAAS line: 'org.apache...PlainLoginModule required username="u" password="p";'.
    const std::string text = jaas->second;
    auto field = [&](const std::string& name) -> std::optional<std::string> {
      size_t at = text.find(name + "=\"");
      if (at == std::string::npos) return std::nullopt;
      size_t begin = at + name.size() + 2;
      size_t end = text.find('"', begin);
      if (end == std::string::npos) return std::nullopt;
      return text.substr(begin, end - begin);
    };
    auto user = field("username");
    auto password = field("password");
    if (!user || !password || (text.find("PlainLoginModule") == std::string::npos &&
                               text.find("ScramLoginModule") == std::string::npos)) {
      return Status::NotSupported(
          "'properties.sasl.jaas.config' is translated for PlainLoginModule and ScramLoginModule with username and "
          "password only (the value is hidden); set 'properties.sasl.username' and 'properties.sasl.password' "
          "instead");
    }
    out.erase(jaas);
    out.emplace("sasl.username", *user);
    out.emplace("sasl.password", *password);
  }
  return TranslateJavaTlsProperties(std::move(out));
}

}  // namespace sluice
