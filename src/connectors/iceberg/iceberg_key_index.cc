#include "connectors/iceberg/iceberg_key_index.h"

#include <algorithm>
#include <map>
#include <unordered_map>

#include "connectors/iceberg/iceberg_file_writer.h"
#include "connectors/iceberg/manifest_reader.h"
#include "formats/parquet/parquet_reader.h"

namespace sluice {
namespace {

struct LiveFile {
  std::string path;
  int64_t seq = 0;
};

// Reads `spec`'s columns of a Parquet file, with row positions, chunk by chunk.
Status ReadFile(FileIO* io, const std::string& path, const IcebergFileSpec& spec,
                const std::function<Status(const Chunk&)>& each) {
  ASSIGN_OR_RETURN(auto file, io->OpenRead(path));
  ASSIGN_OR_RETURN(auto reader, parquet::ParquetReader::Open(file.get()));
  parquet::ParquetReadOptions options;
  options.row_positions = true;
  RETURN_IF_ERROR(reader->Select(spec.schema, spec.field_ids, options));
  Chunk chunk;
  while (true) {
    RETURN_IF_ERROR(reader->ReadNext(Chunk::kDefaultCapacity, &chunk));
    if (chunk.size() == 0) return Status::OK();
    RETURN_IF_ERROR(each(chunk));
  }
}

}  // namespace

Status ScanLiveKeys(FileIO* io, const TableMetadata& md, const std::vector<int32_t>& key_ids,
                    const std::vector<LogicalType>& key_types, const std::string& table, const std::string& mode,
                    const std::function<Status(const std::string&, const Chunk&)>& add,
                    const DeletedRowsFn& deleted_rows) {
  const Snapshot* snap = md.CurrentSnapshot();
  if (snap == nullptr) return Status::OK();
  ASSIGN_OR_RETURN(ManifestListContents list, ReadManifestList(io, snap->manifest_list));
  std::vector<LiveFile> data;
  std::vector<LiveFile> pos_deletes;
  std::vector<std::pair<DataFile, int64_t>> dvs;  // entry, sequence number
  for (const auto& m : list.manifests) {
    ASSIGN_OR_RETURN(ManifestContents contents, ReadManifest(io, m));
    for (auto& e : contents.entries) {
      if (e.status == ManifestEntryStatus::kDeleted) continue;
      const DataFile& f = e.data_file;
      const int64_t seq = e.sequence_number.value_or(0);
      if (f.content == DataFileContent::kData) {
        data.push_back({f.file_path, seq});
      } else if (f.content == DataFileContent::kPositionDeletes && f.file_format == "PARQUET") {
        pos_deletes.push_back({f.file_path, seq});
      } else if (f.content == DataFileContent::kPositionDeletes && f.file_format == "PUFFIN") {
        dvs.emplace_back(std::move(e.data_file), seq);
      } else {
        return Status::NotSupported("Table '" + table + "': 'sluice.write.delete-mode' = '" + mode +
                                    "' needs a table whose deletes are position deletes or deletion vectors, but it has " +
                                    (f.content == DataFileContent::kEqualityDeletes ? "equality deletes" : "delete files in " + f.file_format) +
                                    " ('" + f.file_path + "')");
      }
    }
  }
  // Deleted positions per data file (deletes with a sequence number at or above the file's), and
  // the file's live deletion vector.
  std::unordered_map<std::string, int64_t> data_seq;
  for (const auto& f : data) data_seq.emplace(f.path, f.seq);
  struct Deleted {
    DeletionVector positions;
    const DataFile* dv = nullptr;
  };
  std::unordered_map<std::string, Deleted> deleted;
  const IcebergFileSpec pos_spec = PositionDeleteFileSpec();
  for (const auto& d : pos_deletes) {
    RETURN_IF_ERROR(ReadFile(io, d.path, pos_spec, [&](const Chunk& c) {
      const auto* pos = c.column(1).data<int64_t>();
      for (size_t i = 0; i < c.size(); ++i) {
        const std::string path(c.column(0).GetString(i));
        auto it = data_seq.find(path);
        if (it != data_seq.end() && it->second <= d.seq) deleted[path].positions.Add(pos[i]);
      }
      return Status::OK();
    }));
  }
  for (const auto& [f, seq] : dvs) {
    const std::string& path = f.referenced_data_file.value_or("");
    auto it = data_seq.find(path);
    if (it == data_seq.end() || it->second > seq) continue;
    Deleted& d = deleted[path];
    if (d.dv != nullptr) {
      return Status::InvalidArgument("Table '" + table + "': data file " + path + " has two deletion vectors ('" +
                                     d.dv->file_path + "' and '" + f.file_path + "'); the spec allows one");
    }
    ASSIGN_OR_RETURN(DeletionVector v, ReadDeletionVector(io, f));
    d.positions.Merge(v);
    d.dv = &f;
  }
  ASSIGN_OR_RETURN(IcebergFileSpec key_spec, MakeIcebergFileSpec(md.CurrentSchema(), key_ids, key_types));
  std::vector<uint32_t> sel;
  for (const auto& f : data) {
    auto it = deleted.find(f.path);
    const DeletionVector* dead = it == deleted.end() ? nullptr : &it->second.positions;
    RETURN_IF_ERROR(ReadFile(io, f.path, key_spec, [&](const Chunk& c) {
      if (dead == nullptr || dead->empty()) return add(f.path, c);
      const size_t pos_col = c.num_columns() - 1;
      const auto* pos = c.column(pos_col).data<int64_t>();
      sel.clear();
      for (size_t i = 0; i < c.size(); ++i) {
        if (!dead->Contains(pos[i])) sel.push_back(static_cast<uint32_t>(i));
      }
      if (sel.size() == c.size()) return add(f.path, c);
      Chunk live;
      for (const auto& col : c.columns()) live.AddColumn(Vector(col.type()));
      live.AppendFrom(c, sel.data(), 0, sel.size());
      return add(f.path, live);
    }));
  }
  if (deleted_rows) {
    for (auto& [path, d] : deleted) RETURN_IF_ERROR(deleted_rows(path, d.dv, std::move(d.positions)));
  }
  return Status::OK();
}

}  // namespace sluice
