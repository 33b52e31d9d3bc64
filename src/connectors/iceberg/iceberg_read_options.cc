#include "connectors/iceberg/iceberg_read_options.h"

#include "connectors/connector_options.h"

namespace sluice {
namespace {

constexpr const char* kSnapshotId = "snapshot-id";
constexpr const char* kAsOfTimestamp = "as-of-timestamp";
constexpr const char* kBranch = "branch";
constexpr const char* kTag = "tag";
constexpr const char* kStartSnapshotId = "start-snapshot-id";
constexpr const char* kEndSnapshotId = "end-snapshot-id";
constexpr const char* kStreaming = "streaming";
constexpr const char* kLimit = "limit";
constexpr const char* kMonitorInterval = "monitor-interval";
constexpr const char* kStartingStrategy = "starting-strategy";

Result<std::optional<int64_t>> OptionalInt(const OptionReader& reader, const char* key) {
  if (!reader.Has(key)) return std::optional<int64_t>();
  ASSIGN_OR_RETURN(int64_t v, reader.GetInt(key, 0));
  return std::optional<int64_t>(v);
}

std::string Place(const std::string& table) { return "Table '" + table + "': "; }

}  // namespace

std::vector<OptionSpec> IcebergReadOptionSpecList() {
  return {
      {kSnapshotId, false, "", "Read the snapshot with this id (time travel)."},
      {kAsOfTimestamp, false, "",
       "Read the snapshot that was current at this time, in milliseconds since the epoch."},
      {kBranch, false, "", "Read the head snapshot of this branch."},
      {kTag, false, "", "Read the snapshot this tag points to."},
      {kStartSnapshotId, false, "",
       "Incremental read: the data files appended after this snapshot (exclusive), up to 'end-snapshot-id'."},
      {kEndSnapshotId, false, "",
       "Incremental read: the last snapshot (inclusive) whose appended data files are read; default the "
       "current snapshot. Requires 'start-snapshot-id'."},
      {kLimit, false, "-1", "Bounded reads: emit at most this many rows (-1: all)."},
      {kStreaming, false, "false",
       "Read unbounded: follow the table's new append snapshots (from 'starting-strategy')."},
      {kMonitorInterval, false, "60s", "Streaming reads: how often to look for new snapshots."},
      {kStartingStrategy, false, "INCREMENTAL_FROM_LATEST_SNAPSHOT",
       "Streaming reads: TABLE_SCAN_THEN_INCREMENTAL, INCREMENTAL_FROM_LATEST_SNAPSHOT, "
       "INCREMENTAL_FROM_EARLIEST_SNAPSHOT or INCREMENTAL_FROM_SNAPSHOT_ID (with 'start-snapshot-id')."},
  };
}

Result<IcebergReadOptions> ParseIcebergReadOptions(const ConnectorContext& ctx) {
  OptionReader reader = ConnectorOptionReader(ctx);
  IcebergReadOptions o;
  ASSIGN_OR_RETURN(o.snapshot_id, OptionalInt(reader, kSnapshotId));
  ASSIGN_OR_RETURN(o.as_of_timestamp, OptionalInt(reader, kAsOfTimestamp));
  o.branch = reader.GetString(kBranch, "");
  o.tag = reader.GetString(kTag, "");
  ASSIGN_OR_RETURN(o.start_snapshot_id, OptionalInt(reader, kStartSnapshotId));
  ASSIGN_OR_RETURN(o.end_snapshot_id, OptionalInt(reader, kEndSnapshotId));
  std::vector<std::string> set;
  for (const char* key : {kSnapshotId, kAsOfTimestamp, kBranch, kTag, kStartSnapshotId}) {
    if (reader.Has(key)) set.push_back(key);
  }
  if (set.size() > 1) {
    return Status::InvalidArgument(Place(ctx.table_name) + "cannot set both '" + set[0] + "' and '" + set[1] +
                                   "': they select different snapshots to read");
  }
  ASSIGN_OR_RETURN(o.streaming, reader.GetBool(kStreaming, false));
  ASSIGN_OR_RETURN(o.limit, reader.GetInt(kLimit, -1));
  if (o.limit < -1) return reader.InvalidValue(kLimit, "must be -1 (no limit) or at least 0");
  if (o.streaming && o.limit != -1) {
    return Status::InvalidArgument(Place(ctx.table_name) + "'limit' is not supported for streaming reads by Sluice yet");
  }
  if (!o.streaming) {
    if (o.end_snapshot_id && !o.start_snapshot_id) {
      return Status::InvalidArgument(Place(ctx.table_name) + "'" + kEndSnapshotId + "' requires '" +
                                     kStartSnapshotId + "' (an incremental read) unless 'streaming' = 'true'");
    }
    return o;
  }
  for (const char* key : {kSnapshotId, kAsOfTimestamp, kBranch, kTag}) {
    if (reader.Has(key)) {
      return Status::InvalidArgument(Place(ctx.table_name) + "'" + key +
                                     "' selects one snapshot and cannot be set for a streaming read ('streaming' = "
                                     "'true')");
    }
  }
  ASSIGN_OR_RETURN(int64_t interval_ms, reader.GetDurationMillis(kMonitorInterval, 60000));
  if (interval_ms <= 0) return reader.InvalidValue(kMonitorInterval, "must be positive");
  o.stream.monitor_interval_micros = interval_ms * 1000;
  o.stream.start_snapshot_id = o.start_snapshot_id;
  o.stream.end_snapshot_id = o.end_snapshot_id;
  const std::string fallback =
      o.start_snapshot_id ? "INCREMENTAL_FROM_SNAPSHOT_ID" : "INCREMENTAL_FROM_LATEST_SNAPSHOT";
  ASSIGN_OR_RETURN(std::string strategy,
                   reader.GetEnum(kStartingStrategy, fallback,
                                  {"TABLE_SCAN_THEN_INCREMENTAL", "INCREMENTAL_FROM_LATEST_SNAPSHOT",
                                   "INCREMENTAL_FROM_EARLIEST_SNAPSHOT", "INCREMENTAL_FROM_SNAPSHOT_ID"}));
  const bool from_id = strategy == "INCREMENTAL_FROM_SNAPSHOT_ID";
  if (from_id != o.start_snapshot_id.has_value()) {
    return Status::InvalidArgument(Place(ctx.table_name) + "'" + kStartSnapshotId + "' " +
                                   (from_id ? "is required" : "is only used") + " with '" + kStartingStrategy +
                                   "' = 'INCREMENTAL_FROM_SNAPSHOT_ID'");
  }
  o.stream.strategy = strategy == "TABLE_SCAN_THEN_INCREMENTAL"          ? IcebergStartingStrategy::kTableScanThenIncremental
                      : strategy == "INCREMENTAL_FROM_EARLIEST_SNAPSHOT" ? IcebergStartingStrategy::kIncrementalFromEarliestSnapshot
                      : from_id                                          ? IcebergStartingStrategy::kIncrementalFromSnapshotId
                                                                         : IcebergStartingStrategy::kIncrementalFromLatestSnapshot;
  return o;
}

Result<const Snapshot*> SelectIcebergSnapshot(const TableMetadata& metadata, const IcebergReadOptions& o,
                                              const std::string& table) {
  if (o.snapshot_id) {
    const Snapshot* s = metadata.SnapshotById(*o.snapshot_id);
    if (s == nullptr) {
      return Status::InvalidArgument(Place(table) + "cannot find snapshot with ID " + std::to_string(*o.snapshot_id) +
                                     " ('snapshot-id')");
    }
    return s;
  }
  if (o.as_of_timestamp) {
    std::optional<int64_t> id;
    for (const SnapshotLogEntry& e : metadata.snapshot_log) {
      if (e.timestamp_ms <= *o.as_of_timestamp) id = e.snapshot_id;
    }
    const Snapshot* s = id ? metadata.SnapshotById(*id) : nullptr;
    if (s == nullptr) {
      return Status::InvalidArgument(Place(table) + "cannot find a snapshot older than " +
                                     std::to_string(*o.as_of_timestamp) + " ('as-of-timestamp')");
    }
    return s;
  }
  for (const auto& [key, name, type] : {std::tuple<const char*, const std::string&, const char*>{kBranch, o.branch, "branch"},
                                        {kTag, o.tag, "tag"}}) {
    if (name.empty()) continue;
    auto it = metadata.refs.find(name);
    if (name == kMainBranch && it == metadata.refs.end() && std::string(type) == "branch") {
      return metadata.CurrentSnapshot();
    }
    if (it == metadata.refs.end() || it->second.type != type) {
      return Status::InvalidArgument(Place(table) + "cannot find " + type + " '" + name + "' ('" + key + "')");
    }
    return metadata.SnapshotById(it->second.snapshot_id);
  }
  return metadata.CurrentSnapshot();
}

Result<std::vector<FileScanTask>> PlanIcebergRead(FileIO* io, const TableMetadata& metadata,
                                                  const IcebergReadOptions& o, const std::string& table,
                                                  IcebergScanPruner* pruner, IcebergScanMetrics* metrics) {
  if (o.start_snapshot_id) {
    std::optional<int64_t> end = o.end_snapshot_id;
    if (!end) {
      if (!metadata.current_snapshot_id) return std::vector<FileScanTask>{};
      end = metadata.current_snapshot_id;
    }
    auto tasks = PlanAppendScan(io, metadata, o.start_snapshot_id, *end, pruner, metrics);
    if (!tasks.ok()) return Status(tasks.status().code(), Place(table) + tasks.status().message());
    return tasks;
  }
  ASSIGN_OR_RETURN(const Snapshot* snapshot, SelectIcebergSnapshot(metadata, o, table));
  if (snapshot == nullptr) return std::vector<FileScanTask>{};
  return PlanSnapshotScan(io, metadata, *snapshot, pruner, metrics);
}

}  // namespace sluice
