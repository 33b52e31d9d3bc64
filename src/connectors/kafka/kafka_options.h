// The WITH options of 'kafka' and 'upsert-kafka' tables, parsed and validated once into a
// KafkaTableOptions that the source and the sink share.
//
// Option keys, defaults and error wording follow Flink's Kafka connectors (KafkaConnectorOptions,
// KafkaConnectorOptionsUtil, UpsertKafkaDynamicTableFactory). Invariants after a successful parse:
// exactly one of `topics` / `topic_pattern` is set; the value format is set; the key format is set
// exactly when `key_fields` is not empty (upsert-kafka: the key fields are the primary key); a key
// prefix implies 'value.fields-include' = 'EXCEPT_KEY'; `key_schema` / `value_schema` are the
// schemas the key and value formats see (key field names without the prefix).
//
// Format options of the key and value formats are written as Flink writes them: 'key.json.x' and
// 'value.json.x' (or 'json.x' with 'format'); `key_format_options` / `value_format_options` hold
// them with the 'key.' / 'value.' prefix removed, ready for the format's OptionReader.
//
// Kafka client properties ('properties.*') go to librdkafka unchanged (minus the prefix). Values of
// secret-looking keys (passwords, sasl.jaas.config) never appear in messages.
//
// Threading: pure functions over immutable data.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "common/status.h"
#include "connectors/connector.h"
#include "connectors/connector_options.h"
#include "formats/format.h"
#include "types/schema.h"

namespace sluice {

enum class KafkaStartupMode { kEarliestOffset, kLatestOffset, kGroupOffsets, kTimestamp, kSpecificOffsets };
enum class KafkaBoundedMode { kUnbounded, kLatestOffset, kGroupOffsets, kTimestamp, kSpecificOffsets };
enum class KafkaPartitioner { kDefault, kFixed, kRoundRobin };
enum class KafkaDeliveryGuarantee { kAtLeastOnce, kNone, kExactlyOnce };

struct KafkaTableOptions {
  bool upsert = false;  // 'upsert-kafka'
  std::string table_name;
  std::vector<std::string> topics;  // 'topic' (a ';'-separated list)
  std::string topic_pattern;        // 'topic-pattern' (a regular expression matched in full)
  // 'properties.*' without the prefix: bootstrap.servers, group.id and any librdkafka property.
  std::map<std::string, std::string> properties;

  const FormatFactory* key_format = nullptr;  // null when the message key is not read or written
  const FormatFactory* value_format = nullptr;
  std::map<std::string, std::string> key_format_options;
  std::map<std::string, std::string> value_format_options;
  std::string key_format_name;    // 'key.format' as written, for messages
  std::string value_format_name;  // 'value.format' or 'format'
  std::string value_option_prefix;  // "value." ('value.format') or "" ('format')
  std::vector<int> key_fields;    // indexes into the physical schema, in key format order
  std::vector<int> value_fields;  // indexes into the physical schema, in value format order
  Schema key_schema;              // the key fields as the key format names them (prefix removed)
  Schema value_schema;

  KafkaStartupMode startup_mode = KafkaStartupMode::kGroupOffsets;
  std::map<int32_t, int64_t> startup_offsets;  // 'scan.startup.specific-offsets'
  int64_t startup_timestamp_millis = 0;
  KafkaBoundedMode bounded_mode = KafkaBoundedMode::kUnbounded;
  std::map<int32_t, int64_t> bounded_offsets;  // 'scan.bounded.specific-offsets'
  int64_t bounded_timestamp_millis = 0;

  KafkaPartitioner partitioner = KafkaPartitioner::kDefault;
  KafkaDeliveryGuarantee delivery_guarantee = KafkaDeliveryGuarantee::kAtLeastOnce;
  std::string transactional_id_prefix;  // 'sink.transactional-id-prefix' (set for exactly-once)
  // The exactly-once writer's index among the open writers of its prefix (AcquireKafkaWriterIndex);
  // set by the writer on its own copy.
  int writer_index = 0;
  // Sources: 'properties.commit.offsets.on.checkpoint' (Flink's; default true with a group.id):
  // commit the checkpointed offsets to the group when a checkpoint completes. Not a librdkafka
  // property, so it is not in `properties`.
  bool commit_offsets_on_checkpoint = false;
  // 'scan.topic-partition-discovery.interval' of an unbounded source (0: off; always 0 when bounded).
  int64_t partition_discovery_millis = 0;
  int64_t buffer_flush_max_rows = 0;     // upsert-kafka: both > 0 enables the reducing buffer
  int64_t buffer_flush_interval_ms = 0;

  // "Unable to create a source for reading table 't'" or the sink's, for errors at run time.
  std::string error_context;
};

// The option declarations of 'kafka' (upsert false) or 'upsert-kafka' (upsert true).
std::vector<OptionSpec> KafkaOptionSpecs(bool upsert);

// Validates ctx.options (unknown keys get a did-you-mean, as for every connector) and the Kafka
// rules between them; errors name the table and the option.
Result<KafkaTableOptions> ParseKafkaTableOptions(const ConnectorContext& ctx, bool upsert, ConnectorRole role);

// A format names its options in errors as it declares them ('json.ignore-parse-errors'); this
// renames them as the table wrote them ('value.json.ignore-parse-errors' for `prefix` "value.").
Status WithFormatOptionPrefix(const Status& status, const std::string& prefix, const FormatFactory& format);

// The properties librdkafka receives for this table: 'properties.*', with Flink-only spellings
// translated (a PLAIN/SCRAM 'sasl.jaas.config' becomes sasl.username / sasl.password).
Result<std::map<std::string, std::string>> ClientProperties(const KafkaTableOptions& options);

}  // namespace sluice
