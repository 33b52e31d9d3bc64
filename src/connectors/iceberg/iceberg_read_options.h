// The read options of the Iceberg source (Flink's FlinkReadOptions names) and the scan they select:
//   'snapshot-id'        read this snapshot;
//   'as-of-timestamp'    read the snapshot current at this time (milliseconds since the epoch): the
//                        last snapshot-log entry at or before it;
//   'branch' / 'tag'     read the snapshot the ref points to;
//   'start-snapshot-id' and 'end-snapshot-id'
//                        incremental read: the data files that the append snapshots after the start
//                        (exclusive) up to the end (inclusive, default the current snapshot) added;
//   none of these        the current snapshot.
// At most one of snapshot-id, as-of-timestamp, branch, tag and start-snapshot-id may be set.
//   'streaming' = 'true' an unbounded read following new append snapshots every 'monitor-interval'
//                        from 'starting-strategy' (iceberg_streaming_split.h); 'start-snapshot-id'
//                        alone selects INCREMENTAL_FROM_SNAPSHOT_ID, 'end-snapshot-id' bounds it.
//   'limit'              a bounded read emits at most this many rows (-1: no limit).
// Other FlinkReadOptions keys (start-snapshot-timestamp, split-size, ...) are not declared,
// so validation refuses them by name.
//
// Threading: pure functions.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common/file_io.h"
#include "connectors/connector.h"
#include "connectors/iceberg/iceberg_streaming_split.h"
#include "connectors/iceberg/scan_planner.h"
#include "connectors/iceberg/table_metadata.h"

namespace sluice {

struct IcebergReadOptions {
  std::optional<int64_t> snapshot_id;
  std::optional<int64_t> as_of_timestamp;
  std::string branch;
  std::string tag;
  std::optional<int64_t> start_snapshot_id;
  std::optional<int64_t> end_snapshot_id;
  int64_t limit = -1;
  bool streaming = false;
  IcebergStreamingOptions stream;  // when streaming
};

std::vector<OptionSpec> IcebergReadOptionSpecList();

// Reads and cross-checks the options (errors name the table and the keys).
[[nodiscard]] Result<IcebergReadOptions> ParseIcebergReadOptions(const ConnectorContext& ctx);

// The snapshot `options` select for a full scan; null when the table has no snapshot yet (an empty
// read). Not for incremental reads.
[[nodiscard]] Result<const Snapshot*> SelectIcebergSnapshot(const TableMetadata& metadata,
                                                            const IcebergReadOptions& options,
                                                            const std::string& table);

// The files to read for `options`, pruned by `pruner` when given (counted in `metrics`).
[[nodiscard]] Result<std::vector<FileScanTask>> PlanIcebergRead(FileIO* io, const TableMetadata& metadata,
                                                                const IcebergReadOptions& options,
                                                                const std::string& table,
                                                                IcebergScanPruner* pruner = nullptr,
                                                                IcebergScanMetrics* metrics = nullptr);

}  // namespace sluice
