#include "connectors/kafka/kafka_connector.h"

#include "connectors/connector_options.h"
#include "connectors/kafka/kafka_client.h"
#include "connectors/kafka/kafka_metadata_writer.h"
#include "connectors/kafka/kafka_options.h"
#include "connectors/kafka/kafka_sink.h"
#include "connectors/kafka/kafka_source.h"

namespace sluice {

namespace {

class KafkaFactory final : public ConnectorFactory {
 public:
  explicit KafkaFactory(bool upsert) : upsert_(upsert) {}
  std::string identifier() const override { return upsert_ ? "upsert-kafka" : "kafka"; }
  std::vector<OptionSpec> options() const override { return KafkaOptionSpecs(upsert_); }
  std::vector<Field> metadata() const override { return KafkaReadableMetadata(); }
  std::vector<Field> writable_metadata() const override { return KafkaWritableMetadata(); }
  bool supports_source() const override { return true; }
  bool supports_sink() const override { return true; }

  Result<std::unique_ptr<TableSource>> CreateSource(const ConnectorContext& ctx) const override {
    ASSIGN_OR_RETURN(KafkaTableOptions options, ParseKafkaTableOptions(ctx, upsert_, ConnectorRole::kSource));
    Status s = ValidateClientProperties(options);
    if (s.ok()) s = ValidateKafkaMetadata(ctx);
    if (!s.ok()) return s.WithContext(options.error_context);
    return MakeKafkaSource(ctx, std::move(options));
  }

  Result<std::unique_ptr<TableSink>> CreateSink(const ConnectorContext& ctx) const override {
    ASSIGN_OR_RETURN(KafkaTableOptions options, ParseKafkaTableOptions(ctx, upsert_, ConnectorRole::kSink));
    Status s = ValidateClientProperties(options);
    if (!s.ok()) return s.WithContext(options.error_context);
    return MakeKafkaSink(ctx, std::move(options));
  }

 private:
  bool upsert_;
};

}  // namespace

std::unique_ptr<ConnectorFactory> MakeKafkaConnectorFactory() { return std::make_unique<KafkaFactory>(false); }
std::unique_ptr<ConnectorFactory> MakeUpsertKafkaConnectorFactory() { return std::make_unique<KafkaFactory>(true); }

}  // namespace sluice
