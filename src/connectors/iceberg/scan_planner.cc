#include "connectors/iceberg/scan_planner.h"

#include <algorithm>
#include <map>
#include <set>
#include <unordered_map>
#include <unordered_set>

#include "connectors/iceberg/iceberg_pruning.h"
#include "connectors/iceberg/manifest_reader.h"

namespace sluice {
namespace {

// The manifests a snapshot names: its manifest list, or (v1) the inline list.
Result<std::vector<ManifestFile>> SnapshotManifests(FileIO* io, const Snapshot& snapshot) {
  if (!snapshot.manifest_list.empty()) {
    ASSIGN_OR_RETURN(ManifestListContents list, ReadManifestList(io, snapshot.manifest_list));
    return std::move(list.manifests);
  }
  std::vector<ManifestFile> out;
  for (const std::string& path : snapshot.manifests) {
    ManifestFile m;
    m.manifest_path = path;
    m.added_snapshot_id = snapshot.snapshot_id;
    out.push_back(std::move(m));
  }
  return out;
}

// A spec whose partition tuple is empty (or only void transforms): its equality deletes are global.
bool IsUnpartitioned(const TableMetadata& metadata, int32_t spec_id) {
  const PartitionSpec* spec = metadata.SpecById(spec_id);
  if (spec == nullptr) return true;
  for (const PartitionField& f : spec->fields()) {
    if (f.transform.kind != TransformKind::kVoid) return false;
  }
  return true;
}

// (spec id, encoded partition tuple): the key partition-scoped deletes are grouped by.
std::string PartitionKey(int32_t spec_id, const std::vector<std::optional<IcebergLiteral>>& partition) {
  std::string key = std::to_string(spec_id);
  for (const auto& v : partition) {
    if (!v) {
      key += "|n";
      continue;
    }
    std::string bytes = v->ToBytes();
    key += "|v" + std::to_string(bytes.size()) + ":" + bytes;
  }
  return key;
}

struct DeleteIndex {
  std::unordered_map<std::string, std::vector<const ScanDeleteFile*>> dvs_by_path;
  std::unordered_map<std::string, std::vector<const ScanDeleteFile*>> pos_by_path;  // referenced_data_file
  std::unordered_map<std::string, std::vector<const ScanDeleteFile*>> pos_by_partition;
  std::unordered_map<std::string, std::vector<const ScanDeleteFile*>> eq_by_partition;
  std::vector<const ScanDeleteFile*> global_eq;
};

void AssignDeletes(const DeleteIndex& index, FileScanTask* task) {
  const std::string path = NormalizeIcebergPath(task->data_file.file_path);
  const std::string part = PartitionKey(task->spec_id, task->data_file.partition);
  const int64_t seq = task->data_sequence_number;
  auto add_if = [&](const auto& map, const std::string& key, bool strictly_newer) {
    auto it = map.find(key);
    if (it == map.end()) return;
    for (const ScanDeleteFile* d : it->second) {
      if (strictly_newer ? d->data_sequence_number > seq : d->data_sequence_number >= seq) task->deletes.push_back(*d);
    }
  };
  add_if(index.dvs_by_path, path, false);
  add_if(index.pos_by_path, path, false);
  add_if(index.pos_by_partition, part, false);
  add_if(index.eq_by_partition, part, true);
  for (const ScanDeleteFile* d : index.global_eq) {
    if (d->data_sequence_number > seq) task->deletes.push_back(*d);
  }
}

}  // namespace

std::string NormalizeIcebergPath(const std::string& path) {
  size_t colon = path.find(':');
  if (colon == std::string::npos || path.find('/') < colon) return path;
  std::string rest = path.substr(colon + 1);
  if (rest.rfind("//", 0) == 0) {
    size_t slash = rest.find('/', 2);
    return slash == std::string::npos ? std::string("/") : rest.substr(slash);
  }
  return rest;
}

Result<std::vector<FileScanTask>> PlanSnapshotScan(FileIO* io, const TableMetadata& metadata,
                                                   const Snapshot& snapshot, IcebergScanPruner* pruner,
                                                   IcebergScanMetrics* metrics) {
  ASSIGN_OR_RETURN(std::vector<ManifestFile> manifests, SnapshotManifests(io, snapshot));
  IcebergScanMetrics counts;
  std::vector<FileScanTask> tasks;
  std::vector<ScanDeleteFile> deletes;
  for (const ManifestFile& mf : manifests) {
    // A v1 inline manifest list carries no content or summaries; its manifests are read.
    const bool data_manifest = mf.content == ManifestContent::kData;
    if (pruner != nullptr && data_manifest && !pruner->ManifestMightMatch(mf)) {
      counts.skipped_data_manifests++;
      continue;
    }
    if (data_manifest) counts.scanned_data_manifests++;
    ASSIGN_OR_RETURN(ManifestContents contents, ReadManifest(io, mf));
    const int32_t spec_id = snapshot.manifest_list.empty() ? contents.partition_spec_id.value_or(0)
                                                           : mf.partition_spec_id;
    for (ManifestEntry& e : contents.entries) {
      if (e.status == ManifestEntryStatus::kDeleted) continue;
      const int64_t seq = e.sequence_number.value_or(0);
      if (e.data_file.content == DataFileContent::kData) {
        if (pruner != nullptr && !pruner->FileMightMatch(e.data_file, spec_id)) {
          counts.skipped_data_files++;
          continue;
        }
        tasks.push_back({std::move(e.data_file), seq, spec_id, {}});
      } else {
        deletes.push_back({std::move(e.data_file), seq, spec_id});
      }
    }
  }
  DeleteIndex index;
  for (const ScanDeleteFile& d : deletes) {
    if (d.deletion_vector()) {
      if (!d.file.referenced_data_file) {
        return Status::InvalidArgument("Iceberg deletion vector " + d.file.file_path +
                                       " has no referenced_data_file");
      }
      index.dvs_by_path[NormalizeIcebergPath(*d.file.referenced_data_file)].push_back(&d);
    } else if (d.file.content == DataFileContent::kPositionDeletes) {
      if (d.file.referenced_data_file) {
        index.pos_by_path[NormalizeIcebergPath(*d.file.referenced_data_file)].push_back(&d);
      } else {
        index.pos_by_partition[PartitionKey(d.spec_id, d.file.partition)].push_back(&d);
      }
    } else if (IsUnpartitioned(metadata, d.spec_id)) {
      index.global_eq.push_back(&d);
    } else {
      index.eq_by_partition[PartitionKey(d.spec_id, d.file.partition)].push_back(&d);
    }
  }
  for (FileScanTask& t : tasks) AssignDeletes(index, &t);
  counts.result_data_files = static_cast<int64_t>(tasks.size());
  if (metrics != nullptr) *metrics = counts;
  return tasks;
}

Result<std::vector<int64_t>> SnapshotsBetween(const TableMetadata& metadata, std::optional<int64_t> start_exclusive,
                                              int64_t end_inclusive) {
  std::vector<int64_t> ids;
  const Snapshot* s = metadata.SnapshotById(end_inclusive);
  if (s == nullptr) return Status::InvalidArgument("Cannot find snapshot with ID " + std::to_string(end_inclusive));
  if (start_exclusive && metadata.SnapshotById(*start_exclusive) == nullptr) {
    return Status::InvalidArgument("Cannot find snapshot with ID " + std::to_string(*start_exclusive));
  }
  bool found_start = !start_exclusive;
  while (s != nullptr) {
    if (start_exclusive && s->snapshot_id == *start_exclusive) {
      found_start = true;
      break;
    }
    ids.push_back(s->snapshot_id);
    s = s->parent_snapshot_id ? metadata.SnapshotById(*s->parent_snapshot_id) : nullptr;
  }
  if (!found_start) {
    return Status::InvalidArgument("Starting snapshot (exclusive) " + std::to_string(*start_exclusive) +
                                   " is not a parent ancestor of end snapshot " + std::to_string(end_inclusive));
  }
  std::reverse(ids.begin(), ids.end());
  return ids;
}

Result<std::vector<FileScanTask>> PlanAppendScan(FileIO* io, const TableMetadata& metadata,
                                                 std::optional<int64_t> start_exclusive, int64_t end_inclusive,
                                                 IcebergScanPruner* pruner, IcebergScanMetrics* metrics) {
  ASSIGN_OR_RETURN(std::vector<int64_t> ids, SnapshotsBetween(metadata, start_exclusive, end_inclusive));
  IcebergScanMetrics counts;
  std::vector<FileScanTask> tasks;
  for (int64_t id : ids) {
    const Snapshot* snap = metadata.SnapshotById(id);
    if (snap->operation() != "append") continue;  // Flink's incremental scan reads appends only
    ASSIGN_OR_RETURN(std::vector<ManifestFile> manifests, SnapshotManifests(io, *snap));
    for (const ManifestFile& mf : manifests) {
      if (mf.content != ManifestContent::kData || mf.added_snapshot_id != id) continue;
      if (pruner != nullptr && !pruner->ManifestMightMatch(mf)) {
        counts.skipped_data_manifests++;
        continue;
      }
      counts.scanned_data_manifests++;
      ASSIGN_OR_RETURN(ManifestContents contents, ReadManifest(io, mf));
      for (ManifestEntry& e : contents.entries) {
        if (e.status != ManifestEntryStatus::kAdded || e.snapshot_id.value_or(id) != id) continue;
        if (pruner != nullptr && !pruner->FileMightMatch(e.data_file, mf.partition_spec_id)) {
          counts.skipped_data_files++;
          continue;
        }
        tasks.push_back({std::move(e.data_file), e.sequence_number.value_or(0), mf.partition_spec_id, {}});
      }
    }
  }
  counts.result_data_files = static_cast<int64_t>(tasks.size());
  if (metrics != nullptr) *metrics = counts;
  return tasks;
}

}  // namespace sluice
