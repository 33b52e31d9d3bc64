// librdkafka plumbing shared by the Kafka source and sink: client handles built from a table's
// properties, topic and partition discovery, and the in-process mock clusters behind
// 'properties.bootstrap.servers' = 'mock://<name>'.
//
// Mock clusters are for tests and for trying Sluice out without a broker: 'mock://<name>' names a
// librdkafka mock cluster (rdkafka_mock.h, one broker) that is created on first use and lives until
// the process exits, so a table writing and a table reading the same name in one session (or one
// test binary) see the same topics. Sluice creates a topic on a mock cluster the first time a table
// names it, with the partition count given as 'mock://<name>?partitions=<n>' (default 1); later
// tables find it as it is. The registry of named clusters is the one process-wide mutable object
// of this folder; it exists only for this test aid and is guarded by a mutex.
//
// Threading: KafkaHandle is used from one thread at a time (librdkafka itself is thread-safe). The
// mock registry functions may be called from any thread.
#pragma once

#include <librdkafka/rdkafka.h>

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "common/status.h"
#include "connectors/kafka/kafka_options.h"

namespace sluice {

// 'mock://<name>[?partitions=<n>]' parsed.
struct MockClusterAddress {
  std::string name;
  int partitions = 1;
};

// Nullopt when `servers` does not start with "mock://"; an error when it does but is malformed.
Result<std::optional<MockClusterAddress>> ParseMockAddress(const std::string& servers);

// The bootstrap servers of the named in-process mock cluster, created (with one broker) on first use.
Result<std::string> MockClusterBootstraps(const std::string& name);

// Creates `topic` with `partitions` partitions on the named mock cluster unless Sluice created it
// before (the first partition count wins).
Status EnsureMockTopic(const std::string& name, const std::string& topic, int partitions);

// Owns an rd_kafka_t; consumers are closed (committing offsets) before they are destroyed.
class KafkaHandle {
 public:
  KafkaHandle() = default;
  KafkaHandle(rd_kafka_t* rk, bool consumer) : rk_(rk), consumer_(consumer) {}
  KafkaHandle(const KafkaHandle&) = delete;
  KafkaHandle& operator=(const KafkaHandle&) = delete;
  ~KafkaHandle();
  rd_kafka_t* get() const { return rk_; }

 private:
  rd_kafka_t* rk_ = nullptr;
  bool consumer_ = false;
};

// A client of the table's cluster. For a mock address the bootstrap servers are resolved and every
// topic the table names exactly is created there first. `overrides` are set after the table's
// properties (the connector's own settings). `dr_msg_cb` / `opaque` are set for producers.
struct KafkaClientSpec {
  rd_kafka_type_t type = RD_KAFKA_PRODUCER;
  std::map<std::string, std::string> defaults;   // set before the table's properties
  std::map<std::string, std::string> overrides;  // set after them
  void (*dr_msg_cb)(rd_kafka_t*, const rd_kafka_message_t*, void*) = nullptr;
  void* opaque = nullptr;
};
Result<std::unique_ptr<KafkaHandle>> CreateKafkaClient(const KafkaTableOptions& options, const KafkaClientSpec& spec);

// Checks every client property against librdkafka's configuration (without connecting), so a bad
// 'properties.*' option fails when the statement is planned. Secret values stay hidden.
Status ValidateClientProperties(const KafkaTableOptions& options);

// The topics a table names: its 'topic' list, or the cluster's topics that 'topic-pattern' matches
// in full (sorted). Every listed topic must exist.
struct TopicPartitions {
  std::string topic;
  int32_t partitions = 0;
};
Result<std::vector<TopicPartitions>> DiscoverTopics(rd_kafka_t* rk, const KafkaTableOptions& options);

// Fails (after at most kKafkaRequestTimeoutMs) when no broker of the cluster answers a metadata
// request: a producer would otherwise queue records until 'message.timeout.ms' (5 minutes by default).
Status CheckKafkaReachable(rd_kafka_t* rk, const KafkaTableOptions& options);

// "Kafka: <librdkafka's description>" for a librdkafka error code.
std::string KafkaErrorText(rd_kafka_resp_err_t err);

// A metadata request (all topics, one topic `only`, or just the brokers) that waits at most
// kKafkaRequestTimeoutMs, less once the client logged an authentication or TLS failure.
rd_kafka_resp_err_t KafkaMetadata(rd_kafka_t* rk, bool all_topics, rd_kafka_topic_t* only,
                                  const rd_kafka_metadata_t** md);

// "<action> '<bootstrap servers>' (security.protocol P[, sasl.mechanism M]): <cause>", the cause being
// the last error the client `rk` logged (librdkafka's text, which names the broker: a failed SASL
// authentication, a TLS handshake, a refused connection) and `err`. Never holds a property's value.
Status KafkaClusterError(rd_kafka_t* rk, const KafkaTableOptions& options, const std::string& action,
                         rd_kafka_resp_err_t err);

// The timeout of blocking metadata, offset and flush calls.
inline constexpr int kKafkaRequestTimeoutMs = 30000;

}  // namespace sluice
