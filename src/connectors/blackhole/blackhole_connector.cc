#include "connectors/blackhole/blackhole_connector.h"

#include "connectors/connector_options.h"

namespace sluice {

namespace {

class BlackholeWriter final : public SinkWriter {
 public:
  Status Write(const Chunk&) override { return Status::OK(); }
  Status Finish() override { return Status::OK(); }
};

class BlackholeSink final : public TableSink {
 public:
  // As Flink's blackhole: every kind except update-before, so updating queries are not asked for -U rows.
  ChangelogMode accepted_changelog_mode() const override { return ChangelogMode::Upsert(); }
  Result<std::unique_ptr<SinkWriter>> CreateWriter() override { return std::unique_ptr<SinkWriter>(new BlackholeWriter()); }
};

class BlackholeFactory final : public ConnectorFactory {
 public:
  std::string identifier() const override { return "blackhole"; }
  std::vector<OptionSpec> options() const override { return {}; }
  bool supports_source() const override { return false; }
  bool supports_sink() const override { return true; }
  Result<std::unique_ptr<TableSink>> CreateSink(const ConnectorContext& ctx) const override {
    ASSIGN_OR_RETURN(const FormatFactory* format, ValidateConnectorOptions(ctx, *this, ConnectorRole::kSink));
    if (format != nullptr) {
      return Status::InvalidArgument("the blackhole connector takes no 'format' option")
          .WithContext(ConnectorErrorContext(ctx, ConnectorRole::kSink));
    }
    return std::unique_ptr<TableSink>(new BlackholeSink());
  }
};

}  // namespace

std::unique_ptr<ConnectorFactory> MakeBlackholeConnectorFactory() { return std::make_unique<BlackholeFactory>(); }

}  // namespace sluice
