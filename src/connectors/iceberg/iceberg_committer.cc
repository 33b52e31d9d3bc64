#include "connectors/iceberg/iceberg_committer.h"

#include <algorithm>
#include <chrono>
#include <set>
#include <sstream>

#include "common/random_id.h"
#include "connectors/iceberg/manifest_reader.h"
#include "connectors/iceberg/manifest_rewrite.h"
#include "connectors/iceberg/manifest_writer.h"

namespace sluice {
namespace {

constexpr const char* kMagic = "sluice-iceberg-committable 1";
constexpr const char* kCommitIdProperty = "sluice.commit-id";

bool HasCommitId(const TableMetadata& md, const std::string& id) {
  return std::any_of(md.snapshots.begin(), md.snapshots.end(),
                     [&](const Snapshot& s) { return s.SummaryValue(kCommitIdProperty) == id; });
}

int64_t NowMs() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}

}  // namespace

struct IcebergCommitter::Parsed {
  int64_t checkpoint_id = 0;
  std::string job_id;
  std::string operator_id;
  int32_t spec_id = 0;
  // content ("data" / "deletes"), path, length
  struct Manifest {
    ManifestContent content = ManifestContent::kData;
    std::string path;
    int64_t length = 0;
  };
  std::vector<Manifest> manifests;
  std::vector<ReplacedDeletionVector> replaced;
  std::string commit_id;  // set by committers that do not commit once by id
};

IcebergCommitter::IcebergCommitter(std::shared_ptr<IcebergCatalog> catalog, std::shared_ptr<FileIO> io,
                                   TableIdentifier ident, std::string operator_id, std::string job_id)
    : catalog_(std::move(catalog)),
      io_(std::move(io)),
      ident_(std::move(ident)),
      operator_id_(std::move(operator_id)),
      job_id_(job_id.empty() ? RandomJobId() : std::move(job_id)) {}

Result<std::string> IcebergCommitter::WriteTempManifest(const std::string& location, ManifestContent content,
                                                        const std::vector<DataFile>& files, const TableMetadata& md) {
  ManifestWriterOptions opts;
  opts.format_version = md.format_version;
  opts.content = content;
  opts.schema = md.CurrentSchema();
  opts.spec = md.DefaultSpec();
  opts.snapshot_id = 0;  // Flink's DUMMY_SNAPSHOT_ID: these manifests are never part of a snapshot
  ASSIGN_OR_RETURN(auto writer, ManifestWriter::Open(io_.get(), location, opts));
  for (const auto& f : files) RETURN_IF_ERROR(writer->Add(f));
  ASSIGN_OR_RETURN(ManifestFile written, writer->Close());
  return location + "\t" + std::to_string(written.manifest_length);
}

Result<std::string> IcebergCommitter::Prepare(int64_t checkpoint_id, const IcebergWriteResult& result) {
  ASSIGN_OR_RETURN(LoadedTable table, catalog_->LoadTable(ident_));
  const TableMetadata& md = table.metadata;
  std::string out = std::string(kMagic) + "\ncheckpoint\t" + std::to_string(checkpoint_id) + "\njob\t" + job_id_ +
                    "\noperator\t" + operator_id_ + "\nspec\t" + std::to_string(md.default_spec_id) + "\n";
  if (!once_by_id_) out += "commit\t" + NewTableUuid() + "\n";
  const std::string base = JoinLocation(md.location, "metadata/" + job_id_ + "-" + operator_id_ + "-0-0-" +
                                                         std::to_string(checkpoint_id) + "-");
  int n = 0;
  if (!result.data_files.empty()) {
    ASSIGN_OR_RETURN(std::string m, WriteTempManifest(base + std::to_string(++n) + ".avro", ManifestContent::kData,
                                                      result.data_files, md));
    out += "data\t" + m + "\n";
  }
  if (!result.delete_files.empty()) {
    ASSIGN_OR_RETURN(std::string m, WriteTempManifest(base + std::to_string(++n) + ".avro", ManifestContent::kDeletes,
                                                      result.delete_files, md));
    out += "deletes\t" + m + "\n";
  }
  for (const auto& r : result.replaced_dvs) {
    out += "replaces\t" + r.data_file + "\t" + r.path + "\t" + std::to_string(r.offset) + "\n";
  }
  return out;
}

namespace {

Status Corrupt(const TableIdentifier& ident) {
  return Status::IOError("Corrupt Iceberg sink state (committables) for table " + ident.ToString());
}

}  // namespace

Result<std::string> IcebergCommitter::JobIdOf(const std::string& committables) {
  std::istringstream in(committables);
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("job\t", 0) == 0) return line.substr(4);
  }
  return Status::IOError("Corrupt Iceberg sink state: no job id in the committables");
}

Status IcebergCommitter::Commit(const std::string& committables) {
  if (committables.empty()) return Status::OK();
  Parsed c;
  {
    std::istringstream in(committables);
    std::string line;
    if (!std::getline(in, line) || line != kMagic) return Corrupt(ident_);
    while (std::getline(in, line)) {
      const size_t tab = line.find('\t');
      if (tab == std::string::npos) return Corrupt(ident_);
      const std::string key = line.substr(0, tab), value = line.substr(tab + 1);
      try {
        if (key == "checkpoint") c.checkpoint_id = std::stoll(value);
        else if (key == "job") c.job_id = value;
        else if (key == "operator") c.operator_id = value;
        else if (key == "spec") c.spec_id = std::stoi(value);
        else if (key == "commit") c.commit_id = value;
        else if (key == "data" || key == "deletes") {
          const size_t t2 = value.rfind('\t');
          if (t2 == std::string::npos) return Corrupt(ident_);
          c.manifests.push_back({key == "data" ? ManifestContent::kData : ManifestContent::kDeletes,
                                 value.substr(0, t2), std::stoll(value.substr(t2 + 1))});
        } else if (key == "replaces") {
          const size_t t2 = value.find('\t'), t3 = value.rfind('\t');
          if (t2 == std::string::npos || t3 == t2) return Corrupt(ident_);
          c.replaced.push_back({value.substr(0, t2), value.substr(t2 + 1, t3 - t2 - 1), std::stoll(value.substr(t3 + 1))});
        } else {
          return Corrupt(ident_);
        }
      } catch (...) {
        return Corrupt(ident_);
      }
    }
  }
  if (c.manifests.empty()) return Status::OK();  // nothing written in that checkpoint
  std::vector<DataFile> data, deletes;
  bool read = false;
  bool applied = false;  // the last attempt built a snapshot (not: found the checkpoint committed)
  auto apply = [&](const LoadedTable& base) -> Result<std::optional<TableMetadata>> {
    applied = false;
    ASSIGN_OR_RETURN(int64_t max_committed, MaxCommittedCheckpointId(base.metadata, c.job_id, c.operator_id));
    // Committed before (by this writer or the attempt that crashed), unless the id is reused (above).
    if (max_committed >= c.checkpoint_id && (c.commit_id.empty() || HasCommitId(base.metadata, c.commit_id))) {
      return std::optional<TableMetadata>();
    }
    if (!read) {
      for (const auto& m : c.manifests) {
        ManifestFile mf;
        mf.manifest_path = m.path;
        mf.manifest_length = m.length;
        mf.content = m.content;
        mf.partition_spec_id = c.spec_id;
        auto contents = ReadManifest(io_.get(), mf);
        if (!contents.ok()) {
          return contents.status().WithContext("Iceberg table " + ident_.ToString() + ": checkpoint " +
                                               std::to_string(c.checkpoint_id) + "'s files");
        }
        for (auto& e : contents->entries) (m.content == ManifestContent::kData ? data : deletes).push_back(e.data_file);
      }
      read = true;
    }
    ASSIGN_OR_RETURN(TableMetadata updated, BuildSnapshot(c, data, deletes, base));
    applied = true;
    return std::optional<TableMetadata>(std::move(updated));
  };
  RETURN_IF_ERROR(CommitWithRetries(catalog_.get(), ident_, apply).status());
  if (!applied) return Status::OK();
  for (const auto& m : c.manifests) (void)io_->Delete(m.path);
  ++stats_.snapshots;
  for (const auto& f : data) {
    stats_.rows_written += f.record_count;
    ++stats_.data_files;
  }
  for (const auto& f : deletes) {
    (f.content == DataFileContent::kEqualityDeletes ? stats_.equality_deletes : stats_.position_deletes) +=
        f.record_count;
  }
  return Status::OK();
}

Result<TableMetadata> IcebergCommitter::BuildSnapshot(const Parsed& c, const std::vector<DataFile>& data,
                                                      const std::vector<DataFile>& deletes, const LoadedTable& base) {
  const TableMetadata& md = base.metadata;
  if (md.format_version < 2 && !deletes.empty()) {
    return Status::InvalidArgument("Iceberg table " + ident_.ToString() +
                                   " has format version 1, which cannot store delete files (use 'format-version' = '2')");
  }
  const PartitionSpec* spec = md.SpecById(c.spec_id);
  if (spec == nullptr) return Status::InvalidArgument("Iceberg table " + ident_.ToString() + ": its partition spec " +
                                                      std::to_string(c.spec_id) + " is gone");
  const int64_t snapshot_id = NewSnapshotId();
  const std::string commit_uuid = NewTableUuid();
  std::vector<ManifestFile> manifests;
  NewSnapshot ns;
  std::set<std::string> partitions;
  auto write = [&](ManifestContent content, const std::vector<DataFile>& files) -> Status {
    if (files.empty()) return Status::OK();
    ManifestWriterOptions opts;
    opts.format_version = md.format_version;
    opts.content = content;
    opts.schema = md.CurrentSchema();
    opts.spec = *spec;
    opts.snapshot_id = snapshot_id;
    const std::string location = JoinLocation(
        md.location, "metadata/" + commit_uuid + "-m" + std::to_string(manifests.size()) + ".avro");
    ASSIGN_OR_RETURN(auto writer, ManifestWriter::Open(io_.get(), location, opts));
    for (const auto& f : files) {
      RETURN_IF_ERROR(writer->Add(f));
      std::string key;
      for (const auto& v : f.partition) key += v ? "1" + v->ToBytes() + "|" : "0|";
      partitions.insert(key);
      CountAddedFile(f, &ns.changes);
    }
    ASSIGN_OR_RETURN(ManifestFile m, writer->Close());
    manifests.push_back(std::move(m));
    return Status::OK();
  };
  RETURN_IF_ERROR(write(ManifestContent::kData, data));
  RETURN_IF_ERROR(write(ManifestContent::kDeletes, deletes));
  const Snapshot* parent = md.CurrentSnapshot();
  if (parent != nullptr && !parent->manifest_list.empty()) {
    ASSIGN_OR_RETURN(ManifestListContents list, ReadManifestList(io_.get(), parent->manifest_list));
    // A manifest left with only DELETED entries (by the parent) has nothing for later snapshots.
    std::erase_if(list.manifests, OnlyDeletedEntries);
    RETURN_IF_ERROR(ReplaceDeletionVectors(c, deletes, md, snapshot_id,
                                           JoinLocation(md.location, "metadata/" + commit_uuid + "-r"), &list.manifests,
                                           &ns.changes));
    for (auto& m : list.manifests) manifests.push_back(std::move(m));
  }
  ManifestListOptions lo;
  lo.format_version = md.format_version;
  lo.snapshot_id = snapshot_id;
  if (parent != nullptr) lo.parent_snapshot_id = parent->snapshot_id;
  lo.sequence_number = md.last_sequence_number + 1;
  lo.first_row_id = md.next_row_id.value_or(0);
  const std::string list_location =
      JoinLocation(md.location, "metadata/snap-" + std::to_string(snapshot_id) + "-1-" + commit_uuid + ".avro");
  ASSIGN_OR_RETURN(WrittenManifestList written, WriteManifestList(io_.get(), list_location, lo, std::move(manifests)));
  ns.snapshot_id = snapshot_id;
  ns.timestamp_ms = std::max(NowMs(), md.last_updated_ms);
  ns.operation = deletes.empty() ? "append" : "overwrite";
  ns.manifest_list = list_location;
  ns.changes.changed_partition_count = static_cast<int64_t>(partitions.size());
  ns.extra_summary = {{kFlinkOperatorId, c.operator_id},
                      {kFlinkJobId, c.job_id},
                      {kFlinkMaxCommittedCheckpointId, std::to_string(c.checkpoint_id)}};
  if (!c.commit_id.empty()) ns.extra_summary.emplace_back(kCommitIdProperty, c.commit_id);
  if (md.format_version >= 3) ns.added_rows = written.next_row_id - lo.first_row_id;
  return AddSnapshot(md, ns);
}

Status IcebergCommitter::ReplaceDeletionVectors(const Parsed& c, const std::vector<DataFile>& deletes,
                                                const TableMetadata& md, int64_t snapshot_id,
                                                const std::string& location_prefix,
                                                std::vector<ManifestFile>* manifests, SnapshotChanges* changes) {
  std::unordered_map<std::string, const ReplacedDeletionVector*> targets;  // data file -> what the writer merged
  for (const DataFile& f : deletes) {
    if (f.file_format == "PUFFIN" && f.referenced_data_file) targets.emplace(*f.referenced_data_file, nullptr);
  }
  if (targets.empty()) return Status::OK();
  for (const auto& r : c.replaced) targets[r.data_file] = &r;
  // The cache moves to `seen` as manifests are found (an error leaves it empty: read again).
  auto cache = std::move(delete_manifests_);
  delete_manifests_.clear();
  std::unordered_map<std::string, std::vector<ManifestEntry>> seen;
  auto conflict = [&](const std::string& data_file, const std::string& what) {
    return Status::RuntimeError("Cannot commit to Iceberg table " + ident_.ToString() + ": " + what + " for data file " +
                           data_file + " (another writer changed its deletes; the job restarts from its checkpoint)");
  };
  std::unordered_map<std::string, bool> matched;
  int n = 0;
  for (ManifestFile& m : *manifests) {
    if (m.content != ManifestContent::kDeletes) continue;
    std::vector<ManifestEntry>& entries = seen[m.manifest_path];
    if (auto cached = cache.find(m.manifest_path); cached != cache.end()) {
      entries = std::move(cached->second);
    } else {
      ASSIGN_OR_RETURN(ManifestContents contents, ReadManifest(io_.get(), m));
      entries = std::move(contents.entries);
    }
    bool rewrite = false;
    for (const ManifestEntry& e : entries) {
      const DataFile& f = e.data_file;
      if (e.status == ManifestEntryStatus::kDeleted || f.file_format != "PUFFIN" || !f.referenced_data_file) continue;
      auto t = targets.find(*f.referenced_data_file);
      if (t == targets.end()) continue;
      if (t->second == nullptr || t->second->path != f.file_path || t->second->offset != f.content_offset.value_or(-1)) {
        return conflict(t->first, "found a concurrently added deletion vector " + f.file_path);
      }
      matched[t->first] = true;
      rewrite = true;
    }
    if (!rewrite) continue;
    ASSIGN_OR_RETURN(m, RewriteManifestRemoving(
                            io_.get(), md, m, entries,
                            [&](const ManifestEntry& e) {
                              const DataFile& f = e.data_file;
                              return f.file_format == "PUFFIN" && f.referenced_data_file &&
                                     targets.count(*f.referenced_data_file) > 0;
                            },
                            snapshot_id, location_prefix + std::to_string(n++) + ".avro", changes));
  }
  for (const auto& r : c.replaced) {
    if (!matched.count(r.data_file)) return conflict(r.data_file, "the deletion vector " + r.path + " is no longer live");
  }
  // Keep only the manifests of this snapshot in the cache.
  delete_manifests_ = std::move(seen);
  return Status::OK();
}

}  // namespace sluice
