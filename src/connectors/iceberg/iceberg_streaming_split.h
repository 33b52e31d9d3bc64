// The unbounded Iceberg source ('streaming' = 'true'): one split that follows the table's new
// append snapshots, as Flink's continuous split planner does. Every 'monitor-interval' of
// processing time (the injected clock) it reloads the table and reads the data files that the
// append snapshots since the last one it planned added (an incremental append scan: snapshots of
// other operations are skipped). Where it starts ('starting-strategy'):
//   TABLE_SCAN_THEN_INCREMENTAL        the current snapshot in full (deletes applied), then appends
//                                      after it;
//   INCREMENTAL_FROM_LATEST_SNAPSHOT   appends from the current snapshot, inclusive (default);
//   INCREMENTAL_FROM_EARLIEST_SNAPSHOT appends from the first snapshot, inclusive;
//   INCREMENTAL_FROM_SNAPSHOT_ID       appends from 'start-snapshot-id', inclusive.
// With 'end-snapshot-id' the split ends once it has read that snapshot (a bounded streaming read).
//
// Checkpoints store the position exactly (CheckpointPosition): the batch being read (its start and
// end snapshot), the file within it and the rows of that file already emitted; a restore re-plans
// that batch (snapshots are immutable), skips the emitted rows and polls on from the batch's end.
//
// Threading: used by one reader thread; the loader is called from it.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "connectors/connector.h"
#include "connectors/datagen/generator_timing.h"
#include "connectors/iceberg/iceberg_scan_reader.h"
#include "connectors/iceberg/table_metadata.h"

namespace sluice {

enum class IcebergStartingStrategy : uint8_t {
  kTableScanThenIncremental,
  kIncrementalFromLatestSnapshot,
  kIncrementalFromEarliestSnapshot,
  kIncrementalFromSnapshotId,
};

struct IcebergStreamingOptions {
  IcebergStartingStrategy strategy = IcebergStartingStrategy::kIncrementalFromLatestSnapshot;
  std::optional<int64_t> start_snapshot_id;
  std::optional<int64_t> end_snapshot_id;
  int64_t monitor_interval_micros = 60'000'000;
};

// Loads the table's current metadata (the catalog's LoadTable in the source; a script in tests).
using IcebergMetadataLoader = std::function<Result<TableMetadata>()>;

std::unique_ptr<SourceSplit> NewIcebergStreamingSplit(IcebergMetadataLoader loader,
                                                      std::shared_ptr<IcebergDeleteLoader> deletes,
                                                      std::shared_ptr<const IcebergReadSchema> schema,
                                                      IcebergStreamingOptions options, GeneratorTiming timing,
                                                      std::string table);

}  // namespace sluice
