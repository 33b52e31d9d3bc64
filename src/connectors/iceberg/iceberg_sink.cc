#include "connectors/iceberg/iceberg_connector.h"

namespace sluice {

std::vector<OptionSpec> IcebergWriteOptionSpecs() { return {}; }

Result<std::unique_ptr<TableSink>> CreateIcebergSink(const ConnectorContext& ctx) {
  return Status::NotSupported("Table '" + ctx.table_name + "': writing Iceberg tables is not supported by Sluice yet");
}

}  // namespace sluice
