// The 'iceberg' connector (Flink's Iceberg connector, iceberg-flink 1.12): tables of an Iceberg
// catalog (CREATE CATALOG ... 'type' = 'iceberg'; iceberg_external_catalog.h) and 'connector' =
// 'iceberg' tables (iceberg_options.h) read and write Iceberg tables:
//   - the source (iceberg_source.cc) scans a snapshot with its deletes applied, or follows new
//     snapshots ('streaming' = 'true');
//   - the sink (iceberg_sink.cc) writes Parquet data files and commits one snapshot per completed
//     checkpoint (append, or Flink's equality/position delta for updating queries and upserts),
//     exactly once through 'flink.max-committed-checkpoint-id'.
// Option keys: the connection keys and table properties of iceberg_options.h, and the read and
// write options each side declares.
//
// Threading: the factory is stateless.
#pragma once

#include <memory>
#include <vector>

#include "connectors/connector.h"

namespace sluice {

std::unique_ptr<ConnectorFactory> MakeIcebergConnectorFactory();

// Each side's options (Flink's FlinkReadOptions and FlinkWriteOptions names) and its creation, in
// iceberg_source.cc and iceberg_sink.cc. `ctx.options` has passed the factory's validation.
std::vector<OptionSpec> IcebergReadOptionSpecs();
std::vector<OptionSpec> IcebergWriteOptionSpecs();
Result<std::unique_ptr<TableSource>> CreateIcebergSource(const ConnectorContext& ctx);
Result<ChangelogMode> IcebergSourceChangelogMode(const ConnectorContext& ctx);
Result<std::unique_ptr<TableSink>> CreateIcebergSink(const ConnectorContext& ctx);

}  // namespace sluice
