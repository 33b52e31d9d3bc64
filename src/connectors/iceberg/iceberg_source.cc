#include "connectors/iceberg/iceberg_connector.h"

namespace sluice {

std::vector<OptionSpec> IcebergReadOptionSpecs() { return {}; }

Result<ChangelogMode> IcebergSourceChangelogMode(const ConnectorContext& ctx) { return ChangelogMode::InsertOnly(); }

Result<std::unique_ptr<TableSource>> CreateIcebergSource(const ConnectorContext& ctx) {
  return Status::NotSupported("Table '" + ctx.table_name + "': reading Iceberg tables is not supported by Sluice yet");
}

}  // namespace sluice
