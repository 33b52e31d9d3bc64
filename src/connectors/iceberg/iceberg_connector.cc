#include "connectors/iceberg/iceberg_connector.h"

#include "connectors/connector_options.h"
#include "connectors/iceberg/iceberg_filter.h"
#include "connectors/iceberg/iceberg_options.h"

namespace sluice {
namespace {

class IcebergConnectorFactory final : public ConnectorFactory {
 public:
  std::string identifier() const override { return "iceberg"; }
  std::vector<OptionSpec> options() const override {
    std::vector<OptionSpec> all = IcebergConnectionOptionSpecs();
    for (auto specs : {IcebergTablePropertySpecs(), IcebergReadOptionSpecs(), IcebergWriteOptionSpecs()}) {
      all.insert(all.end(), specs.begin(), specs.end());
    }
    return all;
  }
  bool supports_source() const override { return true; }
  bool supports_sink() const override { return true; }

  Result<std::unique_ptr<TableSource>> CreateSource(const ConnectorContext& ctx) const override {
    RETURN_IF_ERROR(ValidateConnectorOptions(ctx, *this, ConnectorRole::kSource).status());
    return CreateIcebergSource(ctx);
  }
  Result<ChangelogMode> SourceChangelogMode(const ConnectorContext& ctx) const override {
    RETURN_IF_ERROR(ValidateConnectorOptions(ctx, *this, ConnectorRole::kSource).status());
    return IcebergSourceChangelogMode(ctx);
  }
  // As Flink's IcebergTableSource.applyFilters: the filters FlinkFilters can convert are accepted
  // (and all remain in the query).
  bool supports_filter_push_down() const override { return true; }
  Result<std::vector<bool>> ApplyFilters(const ConnectorContext& ctx, const std::vector<ExprPtr>& filters) const override {
    std::vector<bool> accepted;
    for (const auto& f : filters) accepted.push_back(ConvertIcebergFilter(*f, ctx.physical_schema, nullptr).has_value());
    return accepted;
  }
  Result<std::unique_ptr<TableSink>> CreateSink(const ConnectorContext& ctx) const override {
    RETURN_IF_ERROR(ValidateConnectorOptions(ctx, *this, ConnectorRole::kSink).status());
    return CreateIcebergSink(ctx);
  }
};

}  // namespace

std::unique_ptr<ConnectorFactory> MakeIcebergConnectorFactory() { return std::make_unique<IcebergConnectorFactory>(); }

}  // namespace sluice
