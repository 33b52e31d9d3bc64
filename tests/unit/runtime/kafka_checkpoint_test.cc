// Checkpoints of Kafka sources: a split checkpoints its partition offset after the last row the
// source operator emitted (not after what it read ahead), and a restore seeks there, whatever
// 'scan.startup.mode' resolves to at the restart. Runs against librdkafka's mock cluster.
#include <gtest/gtest.h>
#include <librdkafka/rdkafka.h>

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "common/clock.h"
#include "connectors/connector.h"
#include "connectors/kafka/kafka_client.h"
#include "function/evaluator.h"
#include "function/expression.h"
#include "runtime/operators/source_operator.h"
#include "state/state_serde.h"
#include "unit/runtime/rank_dedup_test_util.h"

namespace sluice {
namespace {

Schema OneColumn() { return Schema({{"v", LogicalType::BigInt()}}); }

ConnectorContext Context(const std::string& cluster, const std::string& topic, const std::string& startup) {
  ConnectorContext ctx;
  ctx.table_name = "events";
  ctx.physical_schema = OneColumn();
  ctx.options = {{"connector", "kafka"},
                 {"topic", topic},
                 {"properties.bootstrap.servers", "mock://" + cluster},
                 {"format", "json"},
                 {"scan.startup.mode", startup},
                 {"scan.bounded.mode", "unbounded"}};
  return ctx;
}

void Produce(const std::string& cluster, const std::string& topic, const std::vector<int64_t>& values) {
  ASSERT_TRUE(EnsureMockTopic(cluster, topic, 1).ok());
  auto servers = MockClusterBootstraps(cluster);
  ASSERT_TRUE(servers.ok());
  char err[256];
  rd_kafka_conf_t* conf = rd_kafka_conf_new();
  rd_kafka_conf_set(conf, "bootstrap.servers", servers->c_str(), err, sizeof(err));
  rd_kafka_conf_set(conf, "log_level", "2", err, sizeof(err));
  rd_kafka_t* rk = rd_kafka_new(RD_KAFKA_PRODUCER, conf, err, sizeof(err));
  for (int64_t v : values) {
    std::string value = "{\"v\":" + std::to_string(v) + "}";
    ASSERT_EQ(rd_kafka_producev(rk, RD_KAFKA_V_TOPIC(topic.c_str()), RD_KAFKA_V_PARTITION(0),
                                RD_KAFKA_V_MSGFLAGS(RD_KAFKA_MSG_F_COPY),
                                RD_KAFKA_V_VALUE(const_cast<char*>(value.data()), value.size()), RD_KAFKA_V_END),
              RD_KAFKA_RESP_ERR_NO_ERROR);
  }
  ASSERT_EQ(rd_kafka_flush(rk, 10000), RD_KAFKA_RESP_ERR_NO_ERROR);
  rd_kafka_destroy(rk);
}

std::vector<std::unique_ptr<SourceSplit>> Splits(const ConnectorContext& ctx) {
  auto source = (*ConnectorRegistry::Builtin().Find("kafka"))->CreateSource(ctx);
  EXPECT_TRUE(source.ok()) << source.status().ToString();
  auto splits = (*source)->CreateSplits();
  EXPECT_TRUE(splits.ok()) << splits.status().ToString();
  return std::move(splits).value();
}

// A source on `v` as its rowtime, with `v` itself as the watermark: Step(bound) stops emitting once
// the split's watermark passes `bound`, keeping the rest of what it read ahead pending.
std::unique_ptr<SourceOperator> MakeSource(std::vector<std::unique_ptr<SourceSplit>> splits) {
  return std::make_unique<SourceOperator>("events", std::move(splits), OneColumn(), std::vector<ExprPtr>{}, 0,
                                          MakeColumnRef(0, LogicalType::BigInt()), 1024);
}

struct Running {
  explicit Running(std::vector<std::unique_ptr<SourceSplit>> splits) : op(MakeSource(std::move(splits))) {
    ctx.eval = &eval;
    op->AddOutput(&sink, 0);
    open = op->Open(&ctx);
    (void)sink.Open(&ctx);
  }
  // Steps until `rows` changes arrived (the mock cluster may deliver a partition in several fetches).
  void StepUntil(size_t rows, int64_t bound) {
    for (int i = 0; i < 2000 && sink.Changes().size() < rows; ++i) ASSERT_TRUE(op->Step(bound, false).ok());
    ASSERT_EQ(sink.Changes().size(), rows);
  }
  ManualClock clock{0};
  EvalContext eval{&clock};
  JobContext ctx;
  testing::CollectSink sink;
  std::unique_ptr<SourceOperator> op;
  Status open;
};

// With 'latest-offset' a restarted job resolves its start to the end of the partition; the
// checkpoint's offset must win, and it must be the offset after the last emitted row: the records
// read ahead but not emitted (40, 50), and those produced while the job was down (60, 70), follow.
// A restore that re-reads from the start and skips the rows counted at the checkpoint finds nothing
// to skip there and fails (or, with enough new records, would drop them).
TEST(KafkaCheckpointTest, RestoreSeeksToTheOffsetAfterTheLastEmittedRow) {
  Produce("ckpt-latest", "events", {1, 2});  // before the job: 'latest-offset' skips them
  auto first_splits = Splits(Context("ckpt-latest", "events", "latest-offset"));
  ASSERT_EQ(first_splits.size(), 1u);
  Produce("ckpt-latest", "events", {10, 20, 30, 40, 50});
  std::string snapshot;
  {
    Running job(std::move(first_splits));
    ASSERT_TRUE(job.open.ok()) << job.open.ToString();
    job.StepUntil(3, 25);  // the watermark passes 25 at 30: 40 and 50 stay read ahead
    EXPECT_EQ(job.sink.Changes(), (std::vector<std::string>{"+I[10]", "+I[20]", "+I[30]"}));
    StateWriter w;
    ASSERT_TRUE(job.op->WriteSnapshot(&w).ok());
    snapshot = w.Release();
  }
  Produce("ckpt-latest", "events", {60, 70});
  Running restored(Splits(Context("ckpt-latest", "events", "latest-offset")));
  ASSERT_TRUE(restored.open.ok()) << restored.open.ToString();
  StateReader r(snapshot, "checkpoint");
  Status s = restored.op->Restore(&r);
  ASSERT_TRUE(s.ok()) << s.ToString();
  restored.StepUntil(4, kMaxWatermark);
  EXPECT_EQ(restored.sink.Changes(), (std::vector<std::string>{"+I[40]", "+I[50]", "+I[60]", "+I[70]"}));
}

// The split's position API on its own: the position after n rows of the last read is the offset of
// row n (or the next offset after the whole read), and a fresh split seeks there before reading.
TEST(KafkaCheckpointTest, PositionAfterRowsOfTheLastReadAndSeek) {
  Produce("ckpt-pos", "events", {1, 2, 3, 4});
  auto splits = Splits(Context("ckpt-pos", "events", "earliest-offset"));
  ASSERT_EQ(splits.size(), 1u);
  EXPECT_EQ(splits[0]->CheckpointPosition(0), "0 0 -1 0 0");  // before any read: the start
  // A read returns what the consumer has fetched so far: the four rows may come in several reads.
  // `before` rows came before the last read, which returned rows [before, 4).
  Chunk chunk(OneColumn());
  size_t before = 0;
  for (int i = 0; i < 2000 && chunk.size() < 4; ++i) {
    const size_t n = chunk.size();
    ASSERT_TRUE(splits[0]->Read(1024, &chunk).ok());
    if (chunk.size() > n) before = n;
  }
  ASSERT_EQ(chunk.size(), 4u);
  // After the first row of the last read: the offset of the row after it.
  const std::string after_one = splits[0]->CheckpointPosition(1);
  EXPECT_EQ(after_one.substr(0, 2), std::to_string(before + 1) + " ");
  auto again = Splits(Context("ckpt-pos", "events", "latest-offset"));
  ASSERT_TRUE(again[0]->SeekToPosition(after_one).ok());
  const size_t left = 4 - (before + 1);
  Chunk rest(OneColumn());
  for (int i = 0; i < 2000 && rest.size() < left; ++i) ASSERT_TRUE(again[0]->Read(1024, &rest).ok());
  ASSERT_EQ(rest.size(), left);
  for (size_t i = 0; i < left; ++i) EXPECT_EQ(rest.column(0).GetValue(i).ToString(), std::to_string(before + 2 + i));
  EXPECT_FALSE(again[0]->SeekToPosition("2 0").ok());  // a malformed position is refused
}

}  // namespace
}  // namespace sluice
