#include "connectors/iceberg/iceberg_maintenance.h"

#include <algorithm>
#include <chrono>
#include <map>
#include <set>
#include <unordered_map>
#include <unordered_set>

#include <simdjson.h>

#include "connectors/iceberg/iceberg_file_writer.h"
#include "connectors/iceberg/iceberg_scan_reader.h"
#include "connectors/iceberg/manifest_reader.h"
#include "connectors/iceberg/manifest_rewrite.h"
#include "connectors/iceberg/manifest_writer.h"
#include "connectors/iceberg/partition_transforms.h"
#include "connectors/iceberg/scan_planner.h"
#include "formats/parquet/parquet_writer.h"

namespace sluice {
namespace {

int64_t NowMs() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}

// A delete file's identity: deletion vectors share their Puffin file, so its offset is part of it.
std::string DeleteKey(const DataFile& f) {
  return f.file_path + "#" + (f.content_offset ? std::to_string(*f.content_offset) : "");
}

std::string PartitionKey(int32_t spec_id, const std::vector<std::optional<IcebergLiteral>>& values) {
  std::string key = std::to_string(spec_id) + "|";
  for (const auto& v : values) key += v ? "1" + v->ToBytes() + "|" : "0|";
  return key;
}

// Which tasks of the scan are rewritten: those with deletes, and the files below the target size of
// a partition of the default spec that has at least two of them (with deletes or not), so they are
// written together.
std::vector<const FileScanTask*> SelectTasks(const std::vector<FileScanTask>& tasks, const TableMetadata& md,
                                             int64_t target_size) {
  std::map<std::string, std::vector<const FileScanTask*>> small;
  std::vector<const FileScanTask*> out;
  for (const FileScanTask& t : tasks) {
    if (t.spec_id != md.default_spec_id) continue;  // files of older specs stay as they are
    if (t.data_file.file_size_in_bytes < target_size) {
      small[PartitionKey(t.spec_id, t.data_file.partition)].push_back(&t);
    } else if (!t.deletes.empty()) {
      out.push_back(&t);
    }
  }
  for (auto& [key, group] : small) {
    for (const FileScanTask* t : group) {
      if (group.size() >= 2 || !t->deletes.empty()) out.push_back(t);
    }
  }
  return out;
}

struct Rewrite {
  std::vector<DataFile> added;
  std::unordered_set<std::string> removed_data;     // paths
  std::unordered_set<std::string> kept_deletes;  // DeleteKey
  int64_t rewritten_bytes = 0;
};

// Reads the selected files with their deletes applied and writes their rows again, per partition.
Status WriteRewritten(std::shared_ptr<FileIO> io, const TableMetadata& md, const std::string& table,
                      const std::vector<const FileScanTask*>& selected, int64_t target_size, Rewrite* out) {
  const IcebergSchema& schema = md.CurrentSchema();
  const Schema columns = ToSluiceSchema(schema);
  ASSIGN_OR_RETURN(IcebergReadSchema read, MakeIcebergReadSchema(schema, columns, {}, table));
  auto read_schema = std::make_shared<const IcebergReadSchema>(std::move(read));
  auto loader = std::make_shared<IcebergDeleteLoader>(io, schema);
  std::vector<int32_t> ids;
  for (const auto& f : schema.fields()) ids.push_back(f.id);
  ASSIGN_OR_RETURN(IcebergFileSpec spec, MakeIcebergFileSpec(schema, ids, columns.types()));
  std::map<std::string, std::string> parquet_properties;
  for (const auto& [k, v] : md.properties) {
    if (k.rfind("write.parquet.", 0) == 0) parquet_properties[k] = v;
  }
  ASSIGN_OR_RETURN(spec.parquet, parquet::ParquetWriterOptions::FromTableProperties(parquet_properties));
  spec.target_file_size = target_size;
  spec.spec_id = md.default_spec_id;
  IcebergFileNamer namer(md.location, 0, 0);
  std::map<std::string, std::vector<const FileScanTask*>> by_partition;
  for (const FileScanTask* t : selected) by_partition[PartitionKey(t->spec_id, t->data_file.partition)].push_back(t);
  for (const auto& [key, group] : by_partition) {
    const auto& values = group.front()->data_file.partition;
    RollingFileWriter writer(io.get(), &namer, &spec, PartitionPath(md.DefaultSpec(), values), values);
    for (const FileScanTask* t : group) {
      auto split = NewIcebergFileSplit(loader, read_schema, *t);
      while (true) {
        Chunk chunk(read_schema->output);
        ASSIGN_OR_RETURN(bool more, split->Read(Chunk::kDefaultCapacity, &chunk));
        if (chunk.size() > 0) RETURN_IF_ERROR(writer.Write(chunk));
        if (!more && chunk.size() == 0) break;
      }
      out->removed_data.insert(t->data_file.file_path);
      out->rewritten_bytes += t->data_file.file_size_in_bytes;
    }
    ASSIGN_OR_RETURN(std::vector<DataFile> files, writer.Complete());
    for (auto& f : files) out->added.push_back(std::move(f));
  }
  return Status::OK();
}

// The delete files that apply to a data file the rewrite keeps; every other one goes (it applies to
// no live row: the new files' sequence number is the starting snapshot's, which only later deletes
// exceed, and their paths are new).
void SelectKeptDeletes(const std::vector<FileScanTask>& tasks, Rewrite* rw) {
  for (const FileScanTask& t : tasks) {
    if (rw->removed_data.count(t.data_file.file_path)) continue;
    for (const ScanDeleteFile& d : t.deletes) rw->kept_deletes.insert(DeleteKey(d.file));
  }
}

// The replace snapshot on `base` (which must still be at `start`).
Result<TableMetadata> BuildReplace(FileIO* io, const LoadedTable& base, const Snapshot& start, const Rewrite& rw,
                                   int64_t* removed_delete_files) {
  const TableMetadata& md = base.metadata;
  const Snapshot* current = md.CurrentSnapshot();
  if (current == nullptr || current->snapshot_id != start.snapshot_id) {
    return Status::RuntimeError("Iceberg table " + base.ident.ToString() + " changed while it was compacted (snapshot " +
                                std::to_string(start.snapshot_id) + " is no longer current); run the compaction again");
  }
  const int64_t snapshot_id = NewSnapshotId();
  const std::string uuid = NewTableUuid();
  NewSnapshot ns;
  std::vector<ManifestFile> manifests;
  if (!rw.added.empty()) {
    ManifestWriterOptions opts;
    opts.format_version = md.format_version;
    opts.content = ManifestContent::kData;
    opts.schema = md.CurrentSchema();
    opts.spec = md.DefaultSpec();
    opts.snapshot_id = snapshot_id;
    ASSIGN_OR_RETURN(auto writer, ManifestWriter::Open(io, JoinLocation(md.location, "metadata/" + uuid + "-m0.avro"), opts));
    for (const DataFile& f : rw.added) {
      ManifestEntry e;
      e.status = ManifestEntryStatus::kAdded;
      e.snapshot_id = snapshot_id;
      e.sequence_number = start.sequence_number;  // deletes committed after `start` still apply
      e.data_file = f;
      RETURN_IF_ERROR(writer->Append(e));
      CountAddedFile(f, &ns.changes);
    }
    ASSIGN_OR_RETURN(ManifestFile m, writer->Close());
    manifests.push_back(std::move(m));
  }
  ASSIGN_OR_RETURN(ManifestListContents list, ReadManifestList(io, start.manifest_list));
  std::erase_if(list.manifests, OnlyDeletedEntries);
  auto remove = [&](const ManifestEntry& e) {
    return e.data_file.content == DataFileContent::kData ? rw.removed_data.count(e.data_file.file_path) > 0
                                                          : rw.kept_deletes.count(DeleteKey(e.data_file)) == 0;
  };
  int n = 0;
  for (ManifestFile& m : list.manifests) {
    ASSIGN_OR_RETURN(ManifestContents contents, ReadManifest(io, m));
    const bool touched = std::any_of(contents.entries.begin(), contents.entries.end(), [&](const ManifestEntry& e) {
      return e.status != ManifestEntryStatus::kDeleted && remove(e);
    });
    if (touched) {
      ASSIGN_OR_RETURN(m, RewriteManifestRemoving(io, md, m, contents.entries, remove, snapshot_id,
                                                  JoinLocation(md.location, "metadata/" + uuid + "-r" +
                                                                                std::to_string(n++) + ".avro"),
                                                  &ns.changes));
    }
    manifests.push_back(std::move(m));
  }
  *removed_delete_files = ns.changes.removed_delete_files;
  ManifestListOptions lo;
  lo.format_version = md.format_version;
  lo.snapshot_id = snapshot_id;
  lo.parent_snapshot_id = start.snapshot_id;
  lo.sequence_number = md.last_sequence_number + 1;
  lo.first_row_id = md.next_row_id.value_or(0);
  const std::string list_location =
      JoinLocation(md.location, "metadata/snap-" + std::to_string(snapshot_id) + "-1-" + uuid + ".avro");
  ASSIGN_OR_RETURN(WrittenManifestList written, WriteManifestList(io, list_location, lo, std::move(manifests)));
  ns.snapshot_id = snapshot_id;
  ns.timestamp_ms = std::max(NowMs(), md.last_updated_ms);
  ns.operation = "replace";
  ns.manifest_list = list_location;
  if (md.format_version >= 3) ns.added_rows = written.next_row_id - lo.first_row_id;
  return AddSnapshot(md, ns);
}

}  // namespace

Result<RewriteDataFilesResult> RewriteDataFiles(IcebergCatalog* catalog, std::shared_ptr<FileIO> io,
                                                const TableIdentifier& ident, const RewriteDataFilesOptions& options) {
  ASSIGN_OR_RETURN(LoadedTable table, catalog->LoadTable(ident));
  const TableMetadata& md = table.metadata;
  RewriteDataFilesResult result;
  const Snapshot* start = md.CurrentSnapshot();
  if (start == nullptr) return result;
  if (md.format_version < 2) {
    return Status::NotSupported("Iceberg table " + ident.ToString() + " has format version 1; Sluice rewrites format "
                                "v2 and v3 tables");
  }
  int64_t target = 0;
  if (options.target_file_size) {
    target = *options.target_file_size;
  } else {
    ASSIGN_OR_RETURN(target, md.IntProperty(kPropTargetFileSize, 512LL << 20));
  }
  if (target <= 0) return Status::InvalidArgument("the target file size must be positive, got " + std::to_string(target));
  ASSIGN_OR_RETURN(std::vector<FileScanTask> tasks, PlanSnapshotScan(io.get(), md, *start));
  const std::vector<const FileScanTask*> selected = SelectTasks(tasks, md, target);
  if (selected.empty()) return result;
  Rewrite rw;
  RETURN_IF_ERROR(WriteRewritten(io, md, ident.ToString(), selected, target, &rw));
  SelectKeptDeletes(tasks, &rw);
  const Snapshot start_copy = *start;
  int64_t removed_deletes = 0;
  auto apply = [&](const LoadedTable& base) -> Result<std::optional<TableMetadata>> {
    ASSIGN_OR_RETURN(TableMetadata updated, BuildReplace(io.get(), base, start_copy, rw, &removed_deletes));
    return std::optional<TableMetadata>(std::move(updated));
  };
  ASSIGN_OR_RETURN(LoadedTable committed, CommitWithRetries(catalog, ident, apply));
  result.rewritten_data_files = static_cast<int64_t>(rw.removed_data.size());
  result.added_data_files = static_cast<int64_t>(rw.added.size());
  result.rewritten_bytes = rw.rewritten_bytes;
  result.removed_delete_files = removed_deletes;
  if (const Snapshot* s = committed.metadata.CurrentSnapshot()) result.snapshot_id = s->snapshot_id;
  return result;
}

namespace {

// Every file a set of snapshots reaches: manifest lists, manifests and content files (the live
// entries' files, or every entry's with `all_entries`), with each content file's kind; `metadata`:
// the table metadata's own files (AddMetadataFiles).
struct Reachable {
  std::set<std::string> lists;
  std::set<std::string> manifests;
  std::map<std::string, DataFileContent> files;
  std::set<std::string> metadata;
};

Status Collect(FileIO* io, const Snapshot& s, bool all_entries, Reachable* out) {
  if (s.manifest_list.empty()) return Status::OK();
  out->lists.insert(s.manifest_list);
  ASSIGN_OR_RETURN(ManifestListContents list, ReadManifestList(io, s.manifest_list));
  for (const ManifestFile& m : list.manifests) {
    if (!out->manifests.insert(m.manifest_path).second && !all_entries) continue;
    ASSIGN_OR_RETURN(ManifestContents contents, ReadManifest(io, m));
    for (const ManifestEntry& e : contents.entries) {
      if (all_entries || e.status != ManifestEntryStatus::kDeleted) out->files.emplace(e.data_file.file_path, e.data_file.content);
    }
  }
  return Status::OK();
}

// The metadata files of a loaded table: the current one, the metadata log's, version-hint.text (the
// hadoop catalog's; Java counts it for every table), statistics and partition-statistics files.
Status AddMetadataFiles(const LoadedTable& table, Reachable* out) {
  const TableMetadata& md = table.metadata;
  out->metadata.insert(table.metadata_location);
  for (const MetadataLogEntry& e : md.metadata_log) out->metadata.insert(e.metadata_file);
  out->metadata.insert(JoinLocation(md.location, "metadata/version-hint.text"));
  simdjson::dom::parser parser;
  for (const auto* entries : {&md.statistics, &md.partition_statistics}) {
    for (const RawJsonEntry& e : *entries) {
      std::string_view path;
      simdjson::dom::element doc;
      if (parser.parse(e.json).get(doc) != simdjson::SUCCESS ||
          doc["statistics-path"].get_string().get(path) != simdjson::SUCCESS) {
        return Status::InvalidArgument("Iceberg table " + table.ident.ToString() +
                                       ": a statistics entry has no statistics-path: " + e.json);
      }
      out->metadata.insert(std::string(path));
    }
  }
  return Status::OK();
}

// A location's identity for comparing listed files with metadata references: local locations are
// written "file:///p", "file:/p" or "/p".
std::string PathKey(const std::string& location) { return LocalPathOf(location); }

}  // namespace

Result<ExpireSnapshotsResult> ExpireSnapshotsAndFiles(IcebergCatalog* catalog, FileIO* io,
                                                      const TableIdentifier& ident,
                                                      const ExpireSnapshotsRequest& request) {
  std::vector<Snapshot> removed;
  auto apply = [&](const LoadedTable& base) -> Result<std::optional<TableMetadata>> {
    ASSIGN_OR_RETURN(ExpireSnapshotsOptions opts, ExpireOptionsFromProperties(base.metadata, request.now_ms));
    if (request.older_than_ms) opts.older_than_ms = *request.older_than_ms;
    if (request.retain_last) opts.min_snapshots_to_keep = *request.retain_last;
    removed.clear();
    ASSIGN_OR_RETURN(TableMetadata updated, ExpireSnapshots(base.metadata, opts, &removed));
    if (removed.empty()) return std::optional<TableMetadata>();
    return std::optional<TableMetadata>(std::move(updated));
  };
  ASSIGN_OR_RETURN(LoadedTable committed, CommitWithRetries(catalog, ident, apply));
  ExpireSnapshotsResult result;
  result.expired_snapshots = static_cast<int64_t>(removed.size());
  if (removed.empty()) return result;
  // What the kept snapshots reach stays; what only the expired ones reached goes.
  Reachable kept, expired;
  for (const Snapshot& s : committed.metadata.snapshots) RETURN_IF_ERROR(Collect(io, s, false, &kept));
  for (const Snapshot& s : removed) RETURN_IF_ERROR(Collect(io, s, true, &expired));
  for (const auto& [path, content] : expired.files) {
    if (kept.files.count(path) || !io->Delete(path).ok()) continue;
    switch (content) {
      case DataFileContent::kData: ++result.deleted_data_files; break;
      case DataFileContent::kPositionDeletes: ++result.deleted_position_delete_files; break;
      case DataFileContent::kEqualityDeletes: ++result.deleted_equality_delete_files; break;
    }
  }
  for (const auto& path : expired.manifests) {
    if (!kept.manifests.count(path) && io->Delete(path).ok()) ++result.deleted_manifest_files;
  }
  for (const auto& path : expired.lists) {
    if (!kept.lists.count(path) && io->Delete(path).ok()) ++result.deleted_manifest_lists;
  }
  return result;
}

Result<RemoveOrphanFilesResult> RemoveOrphanFiles(IcebergCatalog* catalog, FileIO* io, const TableIdentifier& ident,
                                                  const RemoveOrphanFilesRequest& request) {
  ASSIGN_OR_RETURN(LoadedTable listed_for, catalog->LoadTable(ident));
  // List first, then load the metadata again: a commit that completes in between is seen.
  ASSIGN_OR_RETURN(std::vector<FileInfo> files, io->ListFilesRecursively(listed_for.metadata.location));
  ASSIGN_OR_RETURN(LoadedTable table, catalog->LoadTable(ident));
  Reachable reach;
  for (const Snapshot& s : table.metadata.snapshots) RETURN_IF_ERROR(Collect(io, s, false, &reach));
  RETURN_IF_ERROR(AddMetadataFiles(table, &reach));
  std::unordered_set<std::string> reachable;
  for (const auto& set : {reach.lists, reach.manifests, reach.metadata}) {
    for (const std::string& location : set) reachable.insert(PathKey(location));
  }
  for (const auto& [location, content] : reach.files) reachable.insert(PathKey(location));
  RemoveOrphanFilesResult result;
  for (const FileInfo& f : files) {
    if (f.modified_ms >= request.older_than_ms || reachable.count(PathKey(f.location))) continue;
    if (!request.dry_run) RETURN_IF_ERROR(io->Delete(f.location));
    result.orphan_file_locations.push_back(f.location);
  }
  return result;
}

}  // namespace sluice
