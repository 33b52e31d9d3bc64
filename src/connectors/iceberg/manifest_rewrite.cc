#include "connectors/iceberg/manifest_rewrite.h"

#include "connectors/iceberg/manifest_writer.h"

namespace sluice {
namespace {

bool IsDeletionVector(const DataFile& f) {
  return f.content == DataFileContent::kPositionDeletes && f.file_format == "PUFFIN";
}

int64_t SizeOf(const DataFile& f) {
  return IsDeletionVector(f) ? f.content_size_in_bytes.value_or(0) : f.file_size_in_bytes;
}

}  // namespace

Result<ManifestFile> RewriteManifestRemoving(FileIO* io, const TableMetadata& md, const ManifestFile& m,
                                             const std::vector<ManifestEntry>& entries,
                                             const std::function<bool(const ManifestEntry&)>& remove,
                                             int64_t snapshot_id, const std::string& location,
                                             SnapshotChanges* changes) {
  const PartitionSpec* spec = md.SpecById(m.partition_spec_id);
  if (spec == nullptr) {
    return Status::InvalidArgument("manifest " + m.manifest_path + ": partition spec " +
                                   std::to_string(m.partition_spec_id) + " is not in the table's metadata");
  }
  ManifestWriterOptions opts;
  opts.format_version = md.format_version;
  opts.content = m.content;
  opts.schema = md.CurrentSchema();
  opts.spec = *spec;
  opts.snapshot_id = snapshot_id;
  ASSIGN_OR_RETURN(auto writer, ManifestWriter::Open(io, location, opts));
  for (const ManifestEntry& e : entries) {
    if (e.status == ManifestEntryStatus::kDeleted) continue;
    if (remove(e)) {
      RETURN_IF_ERROR(writer->Delete(e));
      CountRemovedFile(e.data_file, changes);
    } else {
      RETURN_IF_ERROR(writer->Existing(e));
    }
  }
  ASSIGN_OR_RETURN(ManifestFile written, writer->Close());
  // v3: the kept data files keep their row ids (each entry carries its first_row_id).
  return written;
}

void CountAddedFile(const DataFile& f, SnapshotChanges* ch) {
  switch (f.content) {
    case DataFileContent::kData:
      ++ch->added_data_files;
      ch->added_records += f.record_count;
      break;
    case DataFileContent::kEqualityDeletes:
      ++ch->added_equality_delete_files;
      ch->added_equality_deletes += f.record_count;
      break;
    case DataFileContent::kPositionDeletes:
      ++(IsDeletionVector(f) ? ch->added_dvs : ch->added_position_delete_files);
      ch->added_position_deletes += f.record_count;
      break;
  }
  ch->added_files_size += SizeOf(f);
}

void CountRemovedFile(const DataFile& f, SnapshotChanges* ch) {
  switch (f.content) {
    case DataFileContent::kData:
      ++ch->removed_data_files;
      ch->deleted_records += f.record_count;
      break;
    case DataFileContent::kEqualityDeletes:
      ++ch->removed_delete_files;
      ch->removed_equality_deletes += f.record_count;
      break;
    case DataFileContent::kPositionDeletes:
      ++ch->removed_delete_files;
      if (IsDeletionVector(f)) ++ch->removed_dvs;
      ch->removed_position_deletes += f.record_count;
      break;
  }
  ch->removed_files_size += SizeOf(f);
}

bool OnlyDeletedEntries(const ManifestFile& m) {
  return m.added_files_count == 0 && m.existing_files_count == 0 && m.deleted_files_count > 0;
}

}  // namespace sluice
