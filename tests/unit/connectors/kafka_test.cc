#include "connectors/kafka/kafka_connector.h"

#include <gtest/gtest.h>
#include <librdkafka/rdkafka.h>

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "connectors/builtin_connectors.h"
#include "connectors/connector.h"
#include "connectors/kafka/kafka_client.h"
#include "connectors/kafka/kafka_transactions.h"
#include "types/value.h"
#include "types/value_format.h"
#include "types/vector.h"

// Every test talks to librdkafka's in-process mock cluster ('mock://<name>'); no broker is needed.
namespace sluice {
namespace {

const ConnectorFactory& Factory(const std::string& name) { return **ConnectorRegistry::Builtin().Find(name); }

Schema OrdersSchema() {
  return Schema({{"id", LogicalType::BigInt()}, {"name", LogicalType::String()}, {"qty", LogicalType::Integer()}});
}

ConnectorContext Context(const std::string& connector, std::map<std::string, std::string> options,
                         Schema schema = OrdersSchema()) {
  ConnectorContext ctx;
  ctx.table_name = "orders";
  ctx.physical_schema = std::move(schema);
  ctx.options = std::move(options);
  ctx.options["connector"] = connector;
  return ctx;
}

Chunk Rows(const Schema& schema, const std::vector<std::pair<RowKind, std::vector<Value>>>& rows) {
  Chunk chunk(schema);
  for (const auto& [kind, values] : rows) chunk.AppendValues(values, kind);
  return chunk;
}

Status WriteAll(const ConnectorContext& ctx, const std::vector<Chunk>& chunks) {
  auto sink = Factory(ctx.options.at("connector")).CreateSink(ctx);
  if (!sink.ok()) return sink.status();
  auto writer = (*sink)->CreateWriter();
  if (!writer.ok()) return writer.status();
  for (const Chunk& c : chunks) {
    Status s = (*writer)->Write(c);
    if (!s.ok()) return s;
  }
  return (*writer)->Finish();
}

struct ReadResult {
  Status status;
  std::vector<std::string> rows;  // "+I[1, a]" per row, partitions in split order
  std::vector<std::string> split_ids;
  int64_t skipped = 0;
};

std::string RowText(const Chunk& chunk, size_t r) {
  std::string row(RowKindShortString(chunk.kind(r)));
  row += "[";
  for (size_t c = 0; c < chunk.num_columns(); ++c) {
    if (c) row += ", ";
    AppendVectorText(chunk.column(c), r, &row);
  }
  return row + "]";
}

// Reads a bounded source to its end.
ReadResult ReadAll(const ConnectorContext& ctx, size_t chunk_rows = 1024) {
  ReadResult res;
  auto source = Factory(ctx.options.at("connector")).CreateSource(ctx);
  if (!source.ok()) {
    res.status = source.status();
    return res;
  }
  EXPECT_TRUE((*source)->bounded());
  auto splits = (*source)->CreateSplits();
  if (!splits.ok()) {
    res.status = splits.status();
    return res;
  }
  Schema scan = ProjectedSchema(ctx);
  for (auto& split : *splits) {
    res.split_ids.push_back(split->id());
    while (true) {
      Chunk chunk(scan);
      auto more = split->Read(chunk_rows, &chunk);
      if (!more.ok()) {
        res.status = more.status();
        return res;
      }
      if (!*more) break;
      EXPECT_LE(chunk.size(), chunk_rows);
      for (size_t r = 0; r < chunk.size(); ++r) res.rows.push_back(RowText(chunk, r));
    }
    res.skipped += split->records_skipped();
  }
  return res;
}

// A record as stored in the topic: key and value bytes (nullopt for null).
struct RawRecord {
  std::optional<std::string> key;
  std::optional<std::string> value;
  bool operator==(const RawRecord&) const = default;
};

std::ostream& operator<<(std::ostream& os, const RawRecord& r) {
  return os << (r.key ? *r.key : "null") << " -> " << (r.value ? *r.value : "null");
}

// Every record of one partition, read with a plain librdkafka consumer.
std::vector<RawRecord> ReadRaw(const std::string& cluster, const std::string& topic, int32_t partition = 0) {
  std::vector<RawRecord> out;
  auto servers = MockClusterBootstraps(cluster);
  EXPECT_TRUE(servers.ok());
  char err[256];
  rd_kafka_conf_t* conf = rd_kafka_conf_new();
  rd_kafka_conf_set(conf, "bootstrap.servers", servers->c_str(), err, sizeof(err));
  rd_kafka_conf_set(conf, "group.id", "raw-reader", err, sizeof(err));
  rd_kafka_conf_set(conf, "enable.partition.eof", "true", err, sizeof(err));
  rd_kafka_conf_set(conf, "enable.auto.commit", "false", err, sizeof(err));
  rd_kafka_conf_set(conf, "log_level", "2", err, sizeof(err));
  rd_kafka_t* rk = rd_kafka_new(RD_KAFKA_CONSUMER, conf, err, sizeof(err));
  rd_kafka_topic_partition_list_t* list = rd_kafka_topic_partition_list_new(1);
  rd_kafka_topic_partition_list_add(list, topic.c_str(), partition)->offset = RD_KAFKA_OFFSET_BEGINNING;
  rd_kafka_assign(rk, list);
  rd_kafka_topic_partition_list_destroy(list);
  for (int tries = 0; tries < 300; ++tries) {
    rd_kafka_message_t* m = rd_kafka_consumer_poll(rk, 100);
    if (m == nullptr) continue;
    bool eof = m->err == RD_KAFKA_RESP_ERR__PARTITION_EOF;
    if (m->err == RD_KAFKA_RESP_ERR_NO_ERROR) {
      RawRecord r;
      if (m->key) r.key.emplace(static_cast<const char*>(m->key), m->key_len);
      if (m->payload) r.value.emplace(static_cast<const char*>(m->payload), m->len);
      out.push_back(r);
    }
    rd_kafka_message_destroy(m);
    if (eof) break;
  }
  rd_kafka_consumer_close(rk);
  rd_kafka_destroy(rk);
  return out;
}

// Produces records with explicit timestamps (the sink stamps the current time).
void ProduceRaw(const std::string& cluster, const std::string& topic, const std::vector<std::pair<std::string, int64_t>>& values,
                int32_t partition = 0) {
  ASSERT_TRUE(EnsureMockTopic(cluster, topic, 1).ok());
  auto servers = MockClusterBootstraps(cluster);
  ASSERT_TRUE(servers.ok());
  char err[256];
  rd_kafka_conf_t* conf = rd_kafka_conf_new();
  rd_kafka_conf_set(conf, "bootstrap.servers", servers->c_str(), err, sizeof(err));
  rd_kafka_conf_set(conf, "log_level", "2", err, sizeof(err));
  rd_kafka_t* rk = rd_kafka_new(RD_KAFKA_PRODUCER, conf, err, sizeof(err));
  for (const auto& [value, ts] : values) {
    ASSERT_EQ(rd_kafka_producev(rk, RD_KAFKA_V_TOPIC(topic.c_str()), RD_KAFKA_V_PARTITION(partition),
                                RD_KAFKA_V_MSGFLAGS(RD_KAFKA_MSG_F_COPY),
                                RD_KAFKA_V_VALUE(const_cast<char*>(value.data()), value.size()),
                                RD_KAFKA_V_TIMESTAMP(ts), RD_KAFKA_V_END),
              RD_KAFKA_RESP_ERR_NO_ERROR);
  }
  ASSERT_EQ(rd_kafka_flush(rk, 10000), RD_KAFKA_RESP_ERR_NO_ERROR);
  rd_kafka_destroy(rk);
}

std::map<std::string, std::string> KafkaOptions(const std::string& cluster, const std::string& topic) {
  return {{"topic", topic},
          {"properties.bootstrap.servers", "mock://" + cluster},
          {"format", "json"},
          {"scan.startup.mode", "earliest-offset"},
          {"scan.bounded.mode", "latest-offset"}};
}

TEST(KafkaTest, SinkThenSourceRoundTripWithKeyAndMetadata) {
  auto opts = KafkaOptions("roundtrip", "orders");
  opts.erase("format");
  opts["value.format"] = "json";
  opts["key.format"] = "json";
  opts["key.fields"] = "id";
  ConnectorContext ctx = Context("kafka", opts);
  Schema s = OrdersSchema();
  ASSERT_TRUE(WriteAll(ctx, {Rows(s, {{RowKind::kInsert, {Value::BigInt(1), Value::String("apple"), Value::Integer(3)}},
                                      {RowKind::kInsert, {Value::BigInt(2), Value::String("pear"), Value::Null(LogicalType::Integer())}}}),
                             Rows(s, {{RowKind::kInsert, {Value::BigInt(3), Value::String("fig"), Value::Integer(7)}}})})
                  .ok());
  std::vector<RawRecord> raw = ReadRaw("roundtrip", "orders");
  std::vector<RawRecord> expected = {{"{\"id\":1}", "{\"id\":1,\"name\":\"apple\",\"qty\":3}"},
                                     {"{\"id\":2}", "{\"id\":2,\"name\":\"pear\",\"qty\":null}"},
                                     {"{\"id\":3}", "{\"id\":3,\"name\":\"fig\",\"qty\":7}"}};
  EXPECT_EQ(raw, expected);

  ConnectorContext read = ctx;
  read.projection = {1, 0};
  read.metadata = {{"topic", LogicalType::String().WithNullable(false)},
                   {"partition", LogicalType::Integer().WithNullable(false)},
                   {"offset", LogicalType::BigInt().WithNullable(false)},
                   {"timestamp-type", LogicalType::String().WithNullable(false)},
                   {"leader-epoch", LogicalType::Integer()}};
  for (size_t chunk_rows : {size_t{1024}, size_t{1}, size_t{2}}) {
    ReadResult r = ReadAll(read, chunk_rows);
    ASSERT_TRUE(r.status.ok()) << r.status.ToString();
    EXPECT_EQ(r.rows, (std::vector<std::string>{"+I[apple, 1, orders, 0, 0, CreateTime, NULL]",
                                                "+I[pear, 2, orders, 0, 1, CreateTime, NULL]",
                                                "+I[fig, 3, orders, 0, 2, CreateTime, NULL]"}));
    EXPECT_EQ(r.split_ids, (std::vector<std::string>{"topic 'orders' partition 0"}));
  }
}

TEST(KafkaTest, KeyPrefixAndExceptKeyWithCsv) {
  Schema schema({{"k_id", LogicalType::BigInt()}, {"name", LogicalType::String()}});
  std::map<std::string, std::string> opts = {{"topic", "csv"},
                                             {"properties.bootstrap.servers", "mock://prefix"},
                                             {"key.format", "csv"},
                                             {"key.fields", "k_id"},
                                             {"key.fields-prefix", "k_"},
                                             {"value.format", "csv"},
                                             {"value.fields-include", "EXCEPT_KEY"},
                                             {"scan.startup.mode", "earliest-offset"},
                                             {"scan.bounded.mode", "latest-offset"}};
  ConnectorContext ctx = Context("kafka", opts, schema);
  ASSERT_TRUE(WriteAll(ctx, {Rows(schema, {{RowKind::kInsert, {Value::BigInt(5), Value::String("a,b")}},
                                           {RowKind::kInsert, {Value::BigInt(6), Value::String("line\nbreak")}}})})
                  .ok());
  // The CSV record with a line break inside a quoted field is still one record.
  EXPECT_EQ(ReadRaw("prefix", "csv"),
            (std::vector<RawRecord>{{"5", "\"a,b\""}, {"6", "\"line\nbreak\""}}));
  ReadResult r = ReadAll(ctx);
  ASSERT_TRUE(r.status.ok()) << r.status.ToString();
  EXPECT_EQ(r.rows, (std::vector<std::string>{"+I[5, a,b]", "+I[6, line\nbreak]"}));
}

std::map<std::string, std::string> UpsertOptions(const std::string& cluster, const std::string& topic) {
  return {{"topic", topic},
          {"properties.bootstrap.servers", "mock://" + cluster},
          {"key.format", "json"},
          {"value.format", "json"},
          {"value.fields-include", "EXCEPT_KEY"},
          {"scan.bounded.mode", "latest-offset"}};
}

TEST(KafkaTest, UpsertSinkWritesKeysAndTombstonesAndSourceReadsAChangelog) {
  ConnectorContext ctx = Context("upsert-kafka", UpsertOptions("upsert", "stock"));
  ctx.primary_key = {"id"};
  Schema s = OrdersSchema();
  auto sink = Factory("upsert-kafka").CreateSink(ctx);
  ASSERT_TRUE(sink.ok()) << sink.status().ToString();
  EXPECT_EQ((*sink)->accepted_changelog_mode(), ChangelogMode::Upsert());
  ASSERT_TRUE(WriteAll(ctx, {Rows(s, {{RowKind::kInsert, {Value::BigInt(1), Value::String("a"), Value::Integer(1)}},
                                      {RowKind::kUpdateAfter, {Value::BigInt(1), Value::String("b"), Value::Integer(2)}},
                                      {RowKind::kDelete, {Value::BigInt(1), Value::String("b"), Value::Integer(2)}},
                                      {RowKind::kInsert, {Value::BigInt(2), Value::String("c"), Value::Integer(3)}}})})
                  .ok());
  EXPECT_EQ(ReadRaw("upsert", "stock"),
            (std::vector<RawRecord>{{"{\"id\":1}", "{\"name\":\"a\",\"qty\":1}"},
                                    {"{\"id\":1}", "{\"name\":\"b\",\"qty\":2}"},
                                    {"{\"id\":1}", std::nullopt},
                                    {"{\"id\":2}", "{\"name\":\"c\",\"qty\":3}"}}));
  auto source = Factory("upsert-kafka").CreateSource(ctx);
  ASSERT_TRUE(source.ok());
  EXPECT_EQ((*source)->changelog_mode(), ChangelogMode::Upsert());
  ReadResult r = ReadAll(ctx);
  ASSERT_TRUE(r.status.ok()) << r.status.ToString();
  EXPECT_EQ(r.rows, (std::vector<std::string>{"+I[1, a, 1]", "+I[1, b, 2]", "-D[1, NULL, NULL]", "+I[2, c, 3]"}));
}

TEST(KafkaTest, UpsertBufferKeepsTheLastChangePerKey) {
  auto opts = UpsertOptions("buffer", "stock");
  opts["sink.buffer-flush.max-rows"] = "100";
  opts["sink.buffer-flush.interval"] = "1 h";
  ConnectorContext ctx = Context("upsert-kafka", opts);
  ctx.primary_key = {"id"};
  Schema s = OrdersSchema();
  ASSERT_TRUE(WriteAll(ctx, {Rows(s, {{RowKind::kInsert, {Value::BigInt(1), Value::String("a"), Value::Integer(1)}},
                                      {RowKind::kInsert, {Value::BigInt(2), Value::String("c"), Value::Integer(3)}},
                                      {RowKind::kUpdateAfter, {Value::BigInt(1), Value::String("b"), Value::Integer(2)}}}),
                             Rows(s, {{RowKind::kDelete, {Value::BigInt(2), Value::String("c"), Value::Integer(3)}}})})
                  .ok());
  EXPECT_EQ(ReadRaw("buffer", "stock"), (std::vector<RawRecord>{{"{\"id\":1}", "{\"name\":\"b\",\"qty\":2}"},
                                                                 {"{\"id\":2}", std::nullopt}}));
}

TEST(KafkaTest, BoundedAndStartupModes) {
  ProduceRaw("modes", "events",
             {{"{\"id\":1}", 1000}, {"{\"id\":2}", 2000}, {"{\"id\":3}", 3000}, {"{\"id\":4}", 4000}, {"{\"id\":5}", 5000}});
  Schema s({{"id", LogicalType::BigInt()}});
  auto read = [&](std::map<std::string, std::string> extra) {
    auto opts = KafkaOptions("modes", "events");
    for (auto& [k, v] : extra) opts[k] = v;
    ReadResult r = ReadAll(Context("kafka", opts, s));
    EXPECT_TRUE(r.status.ok()) << r.status.ToString();
    std::string ids;
    for (const auto& row : r.rows) ids += row;
    return ids;
  };
  EXPECT_EQ(read({}), "+I[1]+I[2]+I[3]+I[4]+I[5]");
  EXPECT_EQ(read({{"scan.bounded.mode", "specific-offsets"}, {"scan.bounded.specific-offsets", "partition:0,offset:3"}}),
            "+I[1]+I[2]+I[3]");
  EXPECT_EQ(read({{"scan.bounded.mode", "timestamp"}, {"scan.bounded.timestamp-millis", "3000"}}), "+I[1]+I[2]");
  EXPECT_EQ(read({{"scan.startup.mode", "timestamp"}, {"scan.startup.timestamp-millis", "3500"}}), "+I[4]+I[5]");
  EXPECT_EQ(read({{"scan.startup.mode", "specific-offsets"}, {"scan.startup.specific-offsets", "partition:0,offset:1"},
                  {"scan.bounded.mode", "specific-offsets"}, {"scan.bounded.specific-offsets", "partition:0,offset:2"}}),
            "+I[2]");
  EXPECT_EQ(read({{"scan.startup.mode", "latest-offset"}}), "");
  // A partition without a bounded specific offset is not read.
  EXPECT_EQ(read({{"scan.bounded.mode", "specific-offsets"}, {"scan.bounded.specific-offsets", "partition:7,offset:3"}}), "");

  // group-offsets: a source whose table asks for librdkafka's auto-commit commits what it read when it
  // closes; the next one starts there. (Without it, offsets are committed only when checkpoints
  // complete: 'properties.commit.offsets.on.checkpoint', tested on the real broker.)
  EXPECT_EQ(read({{"properties.group.id", "g1"}}), "+I[1]+I[2]+I[3]+I[4]+I[5]");
  EXPECT_EQ(read({{"properties.group.id", "g1"}, {"scan.startup.mode", "group-offsets"},
                  {"properties.auto.offset.reset", "earliest"}}),
            "+I[1]+I[2]+I[3]+I[4]+I[5]");
  EXPECT_EQ(read({{"properties.group.id", "g1"}, {"properties.enable.auto.commit", "true"}}), "+I[1]+I[2]+I[3]+I[4]+I[5]");
  ProduceRaw("modes", "events", {{"{\"id\":6}", 6000}});
  const std::map<std::string, std::string> auto_commit = {{"properties.group.id", "g1"},
                                                           {"scan.startup.mode", "group-offsets"},
                                                           {"properties.enable.auto.commit", "true"}};
  EXPECT_EQ(read(auto_commit), "+I[6]");
  EXPECT_EQ(read(auto_commit), "");
  // A group without committed offsets fails unless 'auto.offset.reset' says where to start.
  auto opts = KafkaOptions("modes", "events");
  opts["scan.startup.mode"] = "group-offsets";
  opts["properties.group.id"] = "fresh";
  ReadResult fresh = ReadAll(Context("kafka", opts, s));
  EXPECT_NE(fresh.status.message().find("Undefined offset with no reset policy for partitions: [events-0]"),
            std::string::npos)
      << fresh.status.ToString();
  EXPECT_EQ(read({{"properties.group.id", "fresh2"}, {"scan.startup.mode", "group-offsets"},
                  {"properties.auto.offset.reset", "earliest"}, {"scan.bounded.mode", "specific-offsets"},
                  {"scan.bounded.specific-offsets", "partition:0,offset:1"}}),
            "+I[1]");
}

TEST(KafkaTest, PartitionsAreSplitsAndRoundRobinSpreadsRows) {
  auto opts = KafkaOptions("parts", "spread");
  opts["properties.bootstrap.servers"] = "mock://parts?partitions=3";
  opts["sink.partitioner"] = "round-robin";
  Schema s({{"id", LogicalType::BigInt()}});
  ConnectorContext ctx = Context("kafka", opts, s);
  std::vector<std::pair<RowKind, std::vector<Value>>> rows;
  for (int64_t i = 0; i < 6; ++i) rows.push_back({RowKind::kInsert, {Value::BigInt(i)}});
  ASSERT_TRUE(WriteAll(ctx, {Rows(s, rows)}).ok());
  ReadResult r = ReadAll(ctx);
  ASSERT_TRUE(r.status.ok()) << r.status.ToString();
  EXPECT_EQ(r.split_ids, (std::vector<std::string>{"topic 'spread' partition 0", "topic 'spread' partition 1",
                                                   "topic 'spread' partition 2"}));
  EXPECT_EQ(r.rows, (std::vector<std::string>{"+I[0]", "+I[3]", "+I[1]", "+I[4]", "+I[2]", "+I[5]"}));
  // 'fixed' writes every row to partition 0.
  opts["sink.partitioner"] = "fixed";
  opts["topic"] = "fixed";
  ASSERT_TRUE(WriteAll(Context("kafka", opts, s), {Rows(s, rows)}).ok());
  EXPECT_EQ(ReadRaw("parts", "fixed", 0).size(), 6u);
  EXPECT_EQ(ReadRaw("parts", "fixed", 1).size(), 0u);
  // A topic pattern reads every matching topic.
  opts.erase("topic");
  opts["topic-pattern"] = "spr.*";
  ReadResult p = ReadAll(Context("kafka", opts, s));
  ASSERT_TRUE(p.status.ok()) << p.status.ToString();
  EXPECT_EQ(p.rows.size(), 6u);
}

TEST(KafkaTest, UnboundedSourceReturnsEmptyReadsThenNewRecords) {
  auto opts = KafkaOptions("unbounded", "live");
  opts["scan.bounded.mode"] = "unbounded";
  Schema s({{"id", LogicalType::BigInt()}});
  ConnectorContext ctx = Context("kafka", opts, s);
  ASSERT_TRUE(EnsureMockTopic("unbounded", "live", 1).ok());
  auto source = Factory("kafka").CreateSource(ctx);
  ASSERT_TRUE(source.ok());
  EXPECT_FALSE((*source)->bounded());
  auto splits = (*source)->CreateSplits();
  ASSERT_TRUE(splits.ok()) << splits.status().ToString();
  ASSERT_EQ(splits->size(), 1u);
  Chunk chunk(s);
  auto more = (*splits)[0]->Read(16, &chunk);
  ASSERT_TRUE(more.ok());
  EXPECT_TRUE(*more);  // nothing yet, but the split goes on
  EXPECT_EQ(chunk.size(), 0u);
  ASSERT_TRUE(WriteAll(ctx, {Rows(s, {{RowKind::kInsert, {Value::BigInt(7)}}, {RowKind::kInsert, {Value::BigInt(8)}}})}).ok());
  std::vector<std::string> got;
  for (int tries = 0; tries < 200 && got.size() < 2; ++tries) {
    Chunk c(s);
    auto m = (*splits)[0]->Read(16, &c);
    ASSERT_TRUE(m.ok()) << m.status().ToString();
    ASSERT_TRUE(*m);
    for (size_t r = 0; r < c.size(); ++r) got.push_back(RowText(c, r));
  }
  EXPECT_EQ(got, (std::vector<std::string>{"+I[7]", "+I[8]"}));
}

// 'topic-pattern' with 'scan.topic-partition-discovery.interval': a topic created after the splits
// were made comes from DiscoverSplits, read from its earliest offset although the table starts at
// 'latest-offset' (Flink's discovered partitions); a second call finds nothing new.
TEST(KafkaTest, DiscoveryFindsNewTopicsAndReadsThemFromTheirStart) {
  Schema s({{"id", LogicalType::BigInt()}});
  ASSERT_TRUE(EnsureMockTopic("discovery", "disc_a", 1).ok());
  auto opts = KafkaOptions("discovery", "disc_a");
  opts.erase("topic");
  opts["topic-pattern"] = "disc_[a-z]";
  opts["scan.bounded.mode"] = "unbounded";
  opts["scan.startup.mode"] = "latest-offset";
  opts["scan.topic-partition-discovery.interval"] = "10 ms";
  auto source = Factory("kafka").CreateSource(Context("kafka", opts, s));
  ASSERT_TRUE(source.ok()) << source.status().ToString();
  EXPECT_EQ((*source)->SplitDiscoveryIntervalMicros(), 10000);
  auto splits = (*source)->CreateSplits();
  ASSERT_TRUE(splits.ok()) << splits.status().ToString();
  ASSERT_EQ(splits->size(), 1u);
  auto none = (*source)->DiscoverSplits();
  ASSERT_TRUE(none.ok()) << none.status().ToString();
  EXPECT_EQ(none->size(), 0u);
  // A new topic with records written before the source sees it.
  auto b = KafkaOptions("discovery?partitions=2", "disc_b");
  ASSERT_TRUE(EnsureMockTopic("discovery", "disc_b", 2).ok());
  ASSERT_TRUE(WriteAll(Context("kafka", b, s), {Rows(s, {{RowKind::kInsert, {Value::BigInt(7)}},
                                                         {RowKind::kInsert, {Value::BigInt(8)}}})}).ok());
  auto found = (*source)->DiscoverSplits();
  ASSERT_TRUE(found.ok()) << found.status().ToString();
  ASSERT_EQ(found->size(), 2u);
  EXPECT_EQ((*found)[0]->id(), "topic 'disc_b' partition 0");
  EXPECT_EQ((*found)[1]->id(), "topic 'disc_b' partition 1");
  std::vector<std::string> got;
  // A discovered split starts at librdkafka's logical beginning (-2), not at an offset of its own: the
  // split once started at an uninitialized offset (a record past the first, or past the end).
  for (auto& split : *found) {
    ASSERT_TRUE(split->StartAsDiscovered().ok());
    EXPECT_EQ(split->CheckpointPosition(0), "-2 0 -1 0 0");
  }
  for (int tries = 0; tries < 200 && got.size() < 2; ++tries) {
    for (auto& split : *found) {
      Chunk c(s);
      auto m = split->Read(16, &c);
      ASSERT_TRUE(m.ok()) << m.status().ToString();
      for (size_t r = 0; r < c.size(); ++r) got.push_back(RowText(c, r));
    }
  }
  std::sort(got.begin(), got.end());
  EXPECT_EQ(got, (std::vector<std::string>{"+I[7]", "+I[8]"}));
  // Once a split read its records or reached its partition's end, its position is a real offset: the
  // partitions' next offsets add up to the two records.
  int64_t next_offsets = -1;
  for (int tries = 0; tries < 50 && next_offsets < 0; ++tries) {
    next_offsets = 0;
    for (auto& split : *found) {
      Chunk c(s);
      ASSERT_TRUE(split->Read(16, &c).ok());
      ASSERT_EQ(c.size(), 0u);
      const std::string pos = split->CheckpointPosition(0);
      const int64_t next = std::stoll(pos.substr(0, pos.find(' ')));
      next_offsets = next < 0 || next_offsets < 0 ? -1 : next_offsets + next;
    }
  }
  EXPECT_EQ(next_offsets, 2);
  auto again = (*source)->DiscoverSplits();
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(again->size(), 0u);
}

TEST(KafkaTest, MalformedRecordsFailOrAreSkippedAndCounted) {
  ProduceRaw("malformed", "bad", {{"{\"id\":1}", 1}, {"not json", 2}, {"{\"id\":3}", 3}});
  Schema s({{"id", LogicalType::BigInt()}});
  auto opts = KafkaOptions("malformed", "bad");
  ReadResult failed = ReadAll(Context("kafka", opts, s));
  EXPECT_NE(failed.status.message().find("Failed to deserialize JSON 'not json' at topic 'bad' partition 0 offset:1"),
            std::string::npos)
      << failed.status.ToString();
  opts["json.ignore-parse-errors"] = "true";
  ConnectorContext ctx = Context("kafka", opts, s);
  ctx.metadata = {{"offset", LogicalType::BigInt().WithNullable(false)}};
  ReadResult r = ReadAll(ctx);
  ASSERT_TRUE(r.status.ok()) << r.status.ToString();
  EXPECT_EQ(r.rows, (std::vector<std::string>{"+I[1, 0]", "+I[3, 2]"}));
  EXPECT_EQ(r.skipped, 1);
}

std::string CreateError(const std::string& connector, std::map<std::string, std::string> opts,
                        std::vector<std::string> pk = {}, bool sink = false) {
  ConnectorContext ctx = Context(connector, std::move(opts));
  ctx.primary_key = std::move(pk);
  Status s = sink ? Factory(connector).CreateSink(ctx).status() : Factory(connector).CreateSource(ctx).status();
  return s.ok() ? "OK" : s.message();
}

bool Contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

TEST(KafkaTest, BadOptionsGetFlinksErrors) {
  auto base = UpsertOptions("errors", "t");
  std::string e = CreateError("upsert-kafka", base, {}, true);
  EXPECT_TRUE(Contains(e, "Unable to create a sink for writing table 'orders': 'upsert-kafka' tables require to define a "
                          "PRIMARY KEY constraint. The PRIMARY KEY specifies which columns should be read from or write "
                          "to the Kafka message key."))
      << e;
  EXPECT_TRUE(Contains(CreateError("upsert-kafka", base, {}), "require to define a PRIMARY KEY constraint"));
  auto no_key = base;
  no_key.erase("key.format");
  EXPECT_TRUE(Contains(CreateError("upsert-kafka", no_key, {"id"}), "Missing required options are: key.format"));

  auto k = KafkaOptions("errors", "t");
  EXPECT_EQ(CreateError("kafka", k), "OK");
  auto both = k;
  both["topic-pattern"] = "x.*";
  EXPECT_TRUE(Contains(CreateError("kafka", both), "Option 'topic' and 'topic-pattern' shouldn't be set together."));
  auto none = k;
  none.erase("topic");
  EXPECT_TRUE(Contains(CreateError("kafka", none), "Either 'topic' or 'topic-pattern' must be set."));
  auto fields = k;
  fields["key.fields"] = "id";
  EXPECT_TRUE(Contains(CreateError("kafka", fields),
                       "The option 'key.fields' can only be declared if a key format is defined using 'key.format'."));
  auto nofields = k;
  nofields["key.format"] = "json";
  EXPECT_TRUE(Contains(CreateError("kafka", nofields),
                       "A key format 'key.format' requires the declaration of one or more of key fields using 'key.fields'."));
  auto missing = nofields;
  missing["key.fields"] = "nope";
  EXPECT_TRUE(Contains(CreateError("kafka", missing), "Could not find the field 'nope' in the table schema"));
  auto prefix = nofields;
  prefix["key.fields"] = "id";
  prefix["key.fields-prefix"] = "k_";
  EXPECT_TRUE(Contains(CreateError("kafka", prefix),
                       "All fields in 'key.fields' must be prefixed with 'k_' when option 'key.fields-prefix' is set "
                       "but field 'id' is not prefixed."));
  prefix["key.fields-prefix"] = "i";
  EXPECT_TRUE(Contains(CreateError("kafka", prefix),
                       "A key prefix is not allowed when option 'value.fields-include' is set to 'ALL'. Set it to "
                       "'EXCEPT_KEY' instead to avoid field overlaps."));
  EXPECT_TRUE(Contains(CreateError("kafka", k, {"id"}),
                       "The Kafka table 'orders' with 'json' format doesn't support defining PRIMARY KEY constraint"));
  auto ts = k;
  ts["scan.startup.mode"] = "timestamp";
  EXPECT_TRUE(Contains(CreateError("kafka", ts), "'scan.startup.timestamp-millis' is required in 'timestamp' startup mode but missing."));
  auto offs = k;
  offs["scan.bounded.mode"] = "specific-offsets";
  offs["scan.bounded.specific-offsets"] = "partition:0;offset:1";
  EXPECT_TRUE(Contains(CreateError("kafka", offs),
                       "Invalid properties 'scan.bounded.specific-offsets' should follow the format "
                       "'partition:0,offset:42;partition:1,offset:300', but is 'partition:0;offset:1'."));
  auto group = k;
  group.erase("scan.startup.mode");
  EXPECT_TRUE(Contains(CreateError("kafka", group), "'properties.group.id' is required in 'group-offsets' startup mode"));
  auto typo = k;
  typo["scan.startup.mod"] = "earliest-offset";
  EXPECT_TRUE(Contains(CreateError("kafka", typo), "Did you mean 'scan.startup.mode'?"));
  auto fmt_typo = k;
  fmt_typo.erase("format");
  fmt_typo["value.format"] = "json";
  fmt_typo["value.json.ignore-parse-error"] = "true";
  EXPECT_TRUE(Contains(CreateError("kafka", fmt_typo), "Did you mean 'value.json.ignore-parse-errors'?"));
  fmt_typo.erase("value.json.ignore-parse-error");
  fmt_typo["value.json.ignore-parse-errors"] = "true";
  EXPECT_EQ(CreateError("kafka", fmt_typo), "OK");
  fmt_typo["value.json.ignore-parse-errors"] = "maybe";
  EXPECT_TRUE(Contains(CreateError("kafka", fmt_typo), "Invalid value for option 'value.json.ignore-parse-errors'"))
      << CreateError("kafka", fmt_typo);
  fmt_typo.erase("value.json.ignore-parse-errors");
  fmt_typo["value.json.timestamp-format.standard"] = "RFC";
  EXPECT_TRUE(Contains(CreateError("kafka", fmt_typo, {}, true),
                       "Invalid value for option 'value.json.timestamp-format.standard'"))
      << CreateError("kafka", fmt_typo, {}, true);
  auto exactly = k;
  exactly["sink.delivery-guarantee"] = "exactly-once";
  EXPECT_TRUE(Contains(CreateError("kafka", exactly, {}, true),
                       "sink.transactional-id-prefix must be specified when using DeliveryGuarantee.EXACTLY_ONCE."));
  exactly["sink.transactional-id-prefix"] = "t";
  EXPECT_TRUE(Contains(CreateError("kafka", exactly, {}, true),
                       "'sink.delivery-guarantee' = 'exactly-once' cannot be used with the mock cluster"));
  auto rr = nofields;
  rr["key.fields"] = "id";
  rr["sink.partitioner"] = "round-robin";
  EXPECT_TRUE(Contains(CreateError("kafka", rr, {}, true),
                       "Currently 'round-robin' partitioner only works when option 'key.fields' is not specified."));
  auto flush = base;
  flush["sink.buffer-flush.max-rows"] = "10";
  EXPECT_TRUE(Contains(CreateError("upsert-kafka", flush, {"id"}, true),
                       "'sink.buffer-flush.max-rows' and 'sink.buffer-flush.interval' must be set to be greater than "
                       "zero together to enable sink buffer flushing."));
  auto discovery = k;
  discovery.erase("scan.bounded.mode");
  discovery["scan.topic-partition-discovery.interval"] = "5 min";
  EXPECT_EQ(CreateError("kafka", discovery), "OK");
  discovery["scan.topic-partition-discovery.interval"] = "0";
  EXPECT_EQ(CreateError("kafka", discovery), "OK");
  // A bounded source ignores discovery, as Flink's KafkaSourceBuilder.
  discovery["scan.topic-partition-discovery.interval"] = "5 min";
  discovery["scan.bounded.mode"] = "latest-offset";
  EXPECT_EQ(CreateError("kafka", discovery), "OK");
  auto novalue = k;
  novalue.erase("format");
  EXPECT_TRUE(Contains(CreateError("kafka", novalue), "Could not find required scan format 'value.format'."));
}

TEST(KafkaTest, SecretsNeverAppearInErrors) {
  auto k = KafkaOptions("secrets", "t");
  k["properties.sasl.jaas.config"] = "com.example.Custom required token=\"hunter2\";";
  std::string e = CreateError("kafka", k);
  EXPECT_TRUE(Contains(e, "sasl.jaas.config")) << e;
  EXPECT_FALSE(Contains(e, "hunter2")) << e;
  // librdkafka rejects the value of an unknown secret-looking property: the value stays hidden.
  auto bad = KafkaOptions("secrets", "t");
  bad["properties.ssl.key.password.bogus"] = "hunter2";
  std::string unknown = CreateError("kafka", bad);
  EXPECT_TRUE(Contains(unknown, "Invalid value for option 'properties.ssl.key.password.bogus' of table 'orders' (the "
                                "value is hidden)"))
      << unknown;
  EXPECT_FALSE(Contains(unknown, "hunter2")) << unknown;
  auto visible = KafkaOptions("secrets", "t");
  visible["properties.fetch.max.bytes"] = "lots";
  EXPECT_TRUE(Contains(CreateError("kafka", visible, {}, true), "Invalid value for option 'properties.fetch.max.bytes'"))
      << CreateError("kafka", visible, {}, true);
  // A PLAIN JAAS line is translated for librdkafka.
  auto plain = KafkaOptions("secrets", "t");
  plain["properties.sasl.jaas.config"] =
      "org.apache.kafka.common.security.plain.PlainLoginModule required username=\"u\" password=\"hunter2\";";
  EXPECT_EQ(CreateError("kafka", plain), "OK");
}

}  // namespace
}  // namespace sluice

namespace sluice {
namespace {

// The exactly-once sink's committables: an epoch's records (null keys, tombstones, empty values,
// explicit partitions, timestamps) survive the round trip through the checkpoint bytes, and damaged
// bytes are an error, never a crash.
TEST(KafkaTest, ExactlyOnceCommittablesRoundTripAndRejectDamage) {
  KafkaRecordLog log;
  // Headers: two, one without a value (as a null MAP value writes it), kept in order.
  rd_kafka_headers_t* h = rd_kafka_headers_new(2);
  rd_kafka_header_add(h, "src", -1, "ab", 2);
  rd_kafka_header_add(h, "n", -1, nullptr, 0);
  const std::optional<std::string> header_bytes = EncodeKafkaHeaders(h);
  rd_kafka_headers_destroy(h);
  ASSERT_TRUE(header_bytes.has_value());
  EXPECT_FALSE(EncodeKafkaHeaders(nullptr).has_value());
  log.Append({std::string_view("k1"), std::string_view("{\"v\":1}"), RD_KAFKA_PARTITION_UA, 1700000000000,
              std::string_view(*header_bytes)});
  log.Append({std::nullopt, std::string_view(""), 2, 1, std::nullopt});
  log.Append({std::string_view("k2"), std::nullopt, 0, 1700000000123, std::nullopt});
  EXPECT_EQ(log.records(), 3);
  const int64_t records = log.records();
  const std::string bytes = EncodeKafkaCommittable(7, 0xabcdef0123456789ULL, records, log.Release());
  EXPECT_EQ(log.records(), 0);
  EXPECT_EQ(log.bytes(), 0u);
  auto c = DecodeKafkaCommittable(bytes);
  ASSERT_TRUE(c.ok()) << c.status().ToString();
  EXPECT_EQ(c->checkpoint_id, 7);
  EXPECT_EQ(c->lineage, 0xabcdef0123456789ULL);
  EXPECT_EQ(c->records, 3);
  KafkaRecordLog::Reader reader(c->log, "test");
  std::vector<std::string> got;
  KafkaRecordLog::Record r;
  while (reader.Next(&r)) {
    got.push_back((r.key ? "k=" + std::string(*r.key) : std::string("k=null")) + " " +
                  (r.value ? "v=" + std::string(*r.value) : std::string("v=null")) + " p=" +
                  std::to_string(r.partition) + " t=" + std::to_string(r.timestamp_ms));
    if (r.headers) {
      rd_kafka_headers_t* back = DecodeKafkaHeaders(*r.headers);
      ASSERT_NE(back, nullptr);
      const char* name = nullptr;
      const void* value = nullptr;
      size_t size = 0;
      for (size_t i = 0; rd_kafka_header_get_all(back, i, &name, &value, &size) == RD_KAFKA_RESP_ERR_NO_ERROR; ++i) {
        got.back() += std::string(" h:") + name + "=" +
                      (value ? std::string(static_cast<const char*>(value), size) : std::string("null"));
      }
      rd_kafka_headers_destroy(back);
    }
  }
  EXPECT_TRUE(reader.status().ok()) << reader.status().ToString();
  EXPECT_EQ(got, (std::vector<std::string>{"k=k1 v={\"v\":1} p=-1 t=1700000000000 h:src=ab h:n=null", "k=null v= p=2 t=1",
                                           "k=k2 v=null p=0 t=1700000000123"}));
  for (size_t cut : {size_t{0}, size_t{5}, bytes.size() / 2, bytes.size() - 1}) {
    EXPECT_FALSE(DecodeKafkaCommittable(std::string_view(bytes).substr(0, cut)).ok()) << cut;
  }
  KafkaRecordLog::Reader damaged(std::string_view(c->log).substr(0, c->log.size() - 3), "test");
  while (damaged.Next(&r)) {
  }
  EXPECT_FALSE(damaged.status().ok());
}

}  // namespace
}  // namespace sluice
