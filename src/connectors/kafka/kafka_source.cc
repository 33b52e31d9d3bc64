#include "connectors/kafka/kafka_source.h"

#include <algorithm>
#include <set>
#include <utility>

#include "connectors/kafka/kafka_client.h"
#include "connectors/kafka/kafka_partition_split.h"
#include "connectors/kafka/kafka_row_assembler.h"
#include "connectors/kafka/kafka_start_offsets.h"

namespace sluice {

namespace {

bool SameTypeFamily(const LogicalType& declared, const LogicalType& offered) {
  if (offered.IsTimestamp()) return declared.IsTimestamp();
  if (offered.id() == TypeId::kVarChar) return declared.id() == TypeId::kVarChar || declared.id() == TypeId::kChar;
  if (offered.id() == TypeId::kMap) {
    return declared.id() == TypeId::kMap && declared.child(0).id() == TypeId::kVarChar &&
           declared.child(1).IsBinaryString();
  }
  return declared.id() == offered.id();
}


class KafkaSource final : public TableSource {
 public:
  KafkaSource(ConnectorContext ctx, KafkaTableOptions options) : ctx_(std::move(ctx)), options_(std::move(options)) {}
  ChangelogMode changelog_mode() const override {
    // 'kafka' emits what its value format carries (debezium-json: a changelog), as Flink's.
    return options_.upsert ? ChangelogMode::Upsert() : options_.value_format->changelog_mode();
  }
  bool bounded() const override { return options_.bounded_mode != KafkaBoundedMode::kUnbounded; }

  Result<std::vector<std::unique_ptr<SourceSplit>>> CreateSplits() override {
    auto splits = Create();
    if (!splits.ok()) return splits.status().WithContext(options_.error_context);
    return splits;
  }

  int64_t SplitDiscoveryIntervalMicros() const override { return options_.partition_discovery_millis * 1000; }

  Result<std::vector<std::unique_ptr<SourceSplit>>> DiscoverSplits() override {
    auto splits = Discover();
    if (!splits.ok()) return splits.status().WithContext(options_.error_context);
    return splits;
  }

  // No partition to read yet: a bounded poll of the consumer (it has no partitions, so this waits up
  // to kKafkaPollMillis, or less before the next discovery) instead of the job spinning.
  Status WaitForSplits(int64_t max_micros) override {
    if (state_ == nullptr) return Status::OK();
    const int ms = static_cast<int>(std::min<int64_t>(kKafkaPollMillis, max_micros / 1000));
    return ServeKafkaConsumerQueue(state_->handle->get(), ms, "Cannot read the topics of '" + options_.table_name + "'");
  }

 private:
  Result<std::vector<std::unique_ptr<SourceSplit>>> Create() {
    KafkaClientSpec spec;
    spec.type = RD_KAFKA_CONSUMER;
    spec.overrides["enable.partition.eof"] = "true";
    // Offsets go to the group when checkpoints complete ('properties.commit.offsets.on.checkpoint'),
    // not by librdkafka's periodic auto-commit, unless the table asks for that.
    spec.defaults["enable.auto.commit"] = "false";
    if (!options_.properties.count("group.id")) {
      // librdkafka assigns partitions only to a consumer with a group; without the user's, use a
      // private one that never commits.
      spec.overrides["group.id"] = "sluice-" + options_.table_name;
      spec.overrides["enable.auto.commit"] = "false";
    }
    state_ = std::make_shared<KafkaConsumerState>();
    state_->commit_offsets = options_.commit_offsets_on_checkpoint;
    ASSIGN_OR_RETURN(state_->handle, CreateKafkaClient(options_, spec));
    known_.clear();
    ASSIGN_OR_RETURN(std::vector<PartitionRange> parts, NewPartitions());
    rd_kafka_t* rk = state_->handle->get();
    RETURN_IF_ERROR(QueryPartitionOffsets(rk, &parts));
    RETURN_IF_ERROR(ResolveStartOffsets(rk, options_, &parts));
    RETURN_IF_ERROR(ResolveStopOffsets(rk, options_, &parts));
    // The consumer is assigned the partitions at the first Read (KafkaConsumerState::Assign).
    return MakeSplits(parts);
  }

  // Partitions of the table's topics (or of the topics 'topic-pattern' matches now) that no split
  // has yet, in topic and partition order.
  Result<std::vector<PartitionRange>> NewPartitions() {
    ASSIGN_OR_RETURN(std::vector<TopicPartitions> topics, DiscoverTopics(state_->handle->get(), options_));
    std::vector<PartitionRange> parts;
    for (const auto& t : topics) {
      for (int32_t p = 0; p < t.partitions; ++p) {
        if (known_.insert({t.topic, p}).second) parts.push_back({t.topic, p});
      }
    }
    return parts;
  }

  // New partitions start at their earliest offset (librdkafka's logical RD_KAFKA_OFFSET_BEGINNING:
  // the split's StartAsDiscovered, which the source operator calls) and never end: discovery is for
  // unbounded sources only. Their offsets are not queried: the fetcher resolves the beginning itself.
  Result<std::vector<std::unique_ptr<SourceSplit>>> Discover() {
    if (state_ == nullptr) return std::vector<std::unique_ptr<SourceSplit>>{};
    ASSIGN_OR_RETURN(std::vector<PartitionRange> parts, NewPartitions());
    for (auto& p : parts) p.start = RD_KAFKA_OFFSET_BEGINNING;
    return MakeSplits(parts);
  }

  Result<std::vector<std::unique_ptr<SourceSplit>>> MakeSplits(const std::vector<PartitionRange>& parts) {
    std::vector<std::unique_ptr<SourceSplit>> splits;
    const int64_t start_ts =
        options_.startup_mode == KafkaStartupMode::kTimestamp ? options_.startup_timestamp_millis : kNoOffset;
    const int64_t stop_ts =
        options_.bounded_mode == KafkaBoundedMode::kTimestamp ? options_.bounded_timestamp_millis : kNoOffset;
    for (const auto& p : parts) {
      auto assembler = std::make_unique<RowAssembler>(ctx_, options_);
      RETURN_IF_ERROR(assembler->Init(options_));
      ASSIGN_OR_RETURN(auto split, MakeKafkaPartitionSplit(state_, p, start_ts, stop_ts, std::move(assembler)));
      splits.push_back(std::move(split));
    }
    return splits;
  }

  ConnectorContext ctx_;
  KafkaTableOptions options_;
  // The consumer of the splits CreateSplits made last, and the partitions they and the discovered
  // splits read.
  std::shared_ptr<KafkaConsumerState> state_;
  std::set<std::pair<std::string, int32_t>> known_;
};

}  // namespace

const std::vector<Field>& KafkaReadableMetadata() {
  static const std::vector<Field> kMetadata = {
      {"topic", LogicalType::String().WithNullable(false)},
      {"partition", LogicalType::Integer().WithNullable(false)},
      {"headers", LogicalType::Map(LogicalType::String(), LogicalType::Bytes()).WithNullable(false)},
      {"leader-epoch", LogicalType::Integer()},
      {"offset", LogicalType::BigInt().WithNullable(false)},
      {"timestamp", LogicalType::TimestampLtz(3).WithNullable(false)},
      {"timestamp-type", LogicalType::String().WithNullable(false)},
  };
  return kMetadata;
}

Status ValidateKafkaMetadata(const ConnectorContext& ctx) {
  for (const Field& m : ctx.metadata) {
    const Field* offered = nullptr;
    for (const Field& o : KafkaReadableMetadata()) {
      if (o.name == m.name) offered = &o;
    }
    if (offered == nullptr) {
      std::string keys;
      for (const Field& o : KafkaReadableMetadata()) keys += (keys.empty() ? "" : ", ") + o.name;
      return Status::InvalidArgument("the Kafka connector offers no metadata key '" + m.name + "' (available: " + keys +
                                     ")");
    }
    bool ok = m.name == "partition" ? (m.type.id() == TypeId::kInteger || m.type.id() == TypeId::kBigInt)
                                    : SameTypeFamily(m.type, offered->type);
    if (!ok) {
      return Status::InvalidArgument("the Kafka metadata key '" + m.name + "' has type " + offered->type.ToString() +
                                     "; a column of type " + m.type.ToString() + " cannot read it");
    }
  }
  return Status::OK();
}

Result<std::unique_ptr<TableSource>> MakeKafkaSource(ConnectorContext ctx, KafkaTableOptions options) {
  // Check the formats' options now, so a bad value fails when the query is planned.
  RowAssembler check(ctx, options);
  Status s = check.Init(options);
  if (!s.ok()) return s.WithContext(options.error_context);
  return std::unique_ptr<TableSource>(new KafkaSource(std::move(ctx), std::move(options)));
}

}  // namespace sluice
