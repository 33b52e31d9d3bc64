#include "connectors/iceberg/iceberg_task_writer.h"

#include <algorithm>
#include <map>
#include <cstring>
#include <numeric>

#include "state/key_encoder.h"

namespace sluice {

IcebergTaskWriter::IcebergTaskWriter(IcebergTaskWriterOptions options, PartitionRouter router)
    : o_(std::move(options)), router_(std::move(router)), namer_(o_.table_location, 0, 0) {}

IcebergTaskWriter::~IcebergTaskWriter() { Abort(); }

void IcebergTaskWriter::Abort() {
  for (auto& p : partitions_) {
    if (p.data) p.data->Abort();
    if (p.eq_deletes) p.eq_deletes->Abort();
  }
  partitions_.clear();
  inserted_.clear();
  paths_.clear();
  path_index_.clear();
  vectors_.clear();
  touched_.clear();
  router_.Clear();
}

IcebergTaskWriter::PartitionState& IcebergTaskWriter::StateOf(uint32_t ordinal) {
  while (partitions_.size() <= ordinal) {
    const auto& part = router_.partition(static_cast<uint32_t>(partitions_.size()));
    PartitionState st;
    st.data = std::make_unique<RollingFileWriter>(o_.io, &namer_, &o_.data, part.path, part.values);
    if (o_.delta) {
      st.eq_deletes = std::make_unique<RollingFileWriter>(o_.io, &namer_, &o_.equality_delete, part.path, part.values);
    }
    partitions_.push_back(std::move(st));
  }
  return partitions_[ordinal];
}

Status IcebergTaskWriter::Write(const Chunk& chunk) {
  if (chunk.size() == 0) return Status::OK();
  RETURN_IF_ERROR(router_.Route(chunk, &partition_of_row_));
  if (!o_.delta) {
    if (!chunk.AllInserts()) {
      return Status::Internal("the Iceberg append writer got an update or delete change");
    }
    return WriteAppend(chunk);
  }
  return WriteDelta(chunk);
}

Status IcebergTaskWriter::WriteAppend(const Chunk& chunk) {
  const size_t n = chunk.size();
  for (size_t i = 0; i < n; ++i) {
    PartitionState& st = StateOf(partition_of_row_[i]);
    if (st.pending_rows.empty() && st.pending_deletes.empty()) touched_.push_back(partition_of_row_[i]);
    st.pending_rows.push_back(static_cast<uint32_t>(i));
  }
  return FlushPending(chunk);
}

uint32_t IcebergTaskWriter::InternPath(const std::string& path) {
  auto [it, inserted] = path_index_.try_emplace(path, static_cast<uint32_t>(paths_.size()));
  if (inserted) paths_.push_back(path);
  return it->second;
}

Status IcebergTaskWriter::InsertRow(PartitionState& st, const std::string& key, uint32_t row) {
  RETURN_IF_ERROR(st.data->EnsureOpen());
  PathOffset at{InternPath(st.data->current_path()),
                st.data->current_rows() + static_cast<int64_t>(st.pending_rows.size())};
  auto [it, fresh] = inserted_.try_emplace(key, at);
  if (!fresh) {
    st.pos_deletes.push_back(it->second);
    it->second = at;
  }
  st.pending_rows.push_back(row);
  return Status::OK();
}

void IcebergTaskWriter::DeleteKey(PartitionState& st, const std::string& key, uint32_t row) {
  auto it = inserted_.find(key);
  if (it != inserted_.end()) {
    st.pos_deletes.push_back(it->second);
    inserted_.erase(it);
    return;
  }
  // In position mode the index holds every live key: one that is not there has no row to delete.
  if (!o_.position_mode) st.pending_deletes.push_back(row);
}

Status IcebergTaskWriter::AddIndexed(const std::string& path, const Chunk& keys) {
  std::vector<int> key_columns(keys.num_columns() - 1);
  for (size_t k = 0; k < key_columns.size(); ++k) key_columns[k] = static_cast<int>(k);
  EncodeKeys(keys, key_columns, &keys_);
  const uint32_t path_index = InternPath(path);
  const auto* pos = keys.column(keys.num_columns() - 1).data<int64_t>();
  for (size_t i = 0; i < keys.size(); ++i) inserted_[keys_[i]] = PathOffset{path_index, pos[i]};
  return Status::OK();
}

Status IcebergTaskWriter::AddDeleted(const std::string& path, const DataFile* dv, DeletionVector positions) {
  FileVector& v = vectors_[path];
  v.positions.Merge(positions);
  if (dv != nullptr) {
    v.dv_path = dv->file_path;
    v.dv_offset = dv->content_offset.value_or(0);
  }
  return Status::OK();
}

Status IcebergTaskWriter::WriteDelta(const Chunk& chunk) {
  const size_t n = chunk.size();
  EncodeKeys(chunk, o_.key_columns, &keys_);
  for (size_t i = 0; i < n; ++i) {
    const uint32_t ordinal = partition_of_row_[i];
    PartitionState& st = StateOf(ordinal);
    if (st.pending_rows.empty() && st.pending_deletes.empty()) touched_.push_back(ordinal);
    // Keys are per partition as Flink's writers keep them; the position-mode index is table-wide
    // (an upsert's partition columns are key columns, so a key has one partition).
    if (o_.position_mode) {
      key_ = keys_[i];
    } else {
      key_.assign(reinterpret_cast<const char*>(&ordinal), sizeof(ordinal));
      key_ += keys_[i];
    }
    const uint32_t row = static_cast<uint32_t>(i);
    switch (chunk.kind(i)) {
      case RowKind::kInsert:
      case RowKind::kUpdateAfter:
        if (o_.upsert) DeleteKey(st, key_, row);
        RETURN_IF_ERROR(InsertRow(st, key_, row));
        break;
      case RowKind::kUpdateBefore:
        if (!o_.upsert) DeleteKey(st, key_, row);
        break;
      case RowKind::kDelete: DeleteKey(st, key_, row); break;
    }
  }
  return FlushPending(chunk);
}

Status IcebergTaskWriter::FlushPending(const Chunk& chunk) {
  // Only the partitions this chunk touched (a table may have many partitions open).
  std::vector<uint32_t> touched;
  touched.swap(touched_);
  for (uint32_t ordinal : touched) {
    PartitionState& st = partitions_[ordinal];
    if (!st.pending_rows.empty()) {
      scratch_ = Chunk(o_.data.schema);
      scratch_.AppendFrom(chunk, st.pending_rows.data(), 0, st.pending_rows.size());
      st.pending_rows.clear();
      RETURN_IF_ERROR(st.data->Write(scratch_));
    }
    if (!st.pending_deletes.empty()) {
      scratch_ = Chunk(o_.equality_delete.schema);
      if (o_.upsert) {
        for (size_t k = 0; k < o_.key_columns.size(); ++k) {
          scratch_.column(k).AppendFrom(chunk.column(static_cast<size_t>(o_.key_columns[k])), st.pending_deletes.data(), 0,
                                        st.pending_deletes.size());
        }
        scratch_.SetSizeFromColumns();
      } else {
        scratch_.AppendFrom(chunk, st.pending_deletes.data(), 0, st.pending_deletes.size());
      }
      st.pending_deletes.clear();
      RETURN_IF_ERROR(st.eq_deletes->Write(scratch_));
    }
  }
  return Status::OK();
}

Status IcebergTaskWriter::WritePositionDeletes(uint32_t ordinal, PartitionState& st, std::vector<DataFile>* out) {
  if (st.pos_deletes.empty()) return Status::OK();
  std::sort(st.pos_deletes.begin(), st.pos_deletes.end(), [&](const PathOffset& a, const PathOffset& b) {
    if (a.path != b.path) return paths_[a.path] < paths_[b.path];
    return a.pos < b.pos;
  });
  const auto& part = router_.partition(ordinal);
  RollingFileWriter writer(o_.io, &namer_, &o_.position_delete, part.path, part.values);
  constexpr size_t kBatch = Chunk::kDefaultCapacity;
  for (size_t begin = 0; begin < st.pos_deletes.size(); begin += kBatch) {
    const size_t m = std::min(kBatch, st.pos_deletes.size() - begin);
    Chunk batch(o_.position_delete.schema, m);
    auto* pos = batch.column(1).data<int64_t>();
    for (size_t i = 0; i < m; ++i) {
      const PathOffset& d = st.pos_deletes[begin + i];
      batch.column(0).SetStringView(i, paths_[d.path]);
      pos[i] = d.pos;
    }
    RETURN_IF_ERROR(writer.Write(batch));
  }
  st.pos_deletes.clear();
  ASSIGN_OR_RETURN(std::vector<DataFile> files, writer.Complete());
  for (auto& f : files) {
    // As Java's writers: a delete file that references one data file names it.
    const auto lo = f.lower_bounds.find(kDeleteFilePathFieldId);
    const auto hi = f.upper_bounds.find(kDeleteFilePathFieldId);
    if (lo != f.lower_bounds.end() && hi != f.upper_bounds.end() && lo->second == hi->second &&
        path_index_.count(lo->second)) {
      f.referenced_data_file = lo->second;
    }
    out->push_back(std::move(f));
  }
  return Status::OK();
}

Status IcebergTaskWriter::WriteDeletionVectors(IcebergWriteResult* out) {
  // Per data file: this Complete's positions and the partition of the rows they delete.
  std::map<std::string, std::pair<DeletionVector, uint32_t>> fresh;
  for (uint32_t i = 0; i < partitions_.size(); ++i) {
    for (const PathOffset& d : partitions_[i].pos_deletes) {
      auto& entry = fresh[paths_[d.path]];
      entry.first.Add(d.pos);
      entry.second = i;
    }
    partitions_[i].pos_deletes.clear();
  }
  if (fresh.empty()) return Status::OK();
  const bool merge = o_.position_mode;
  std::vector<DataFile> targets;  // the data files (path and partition) the vectors delete from
  targets.reserve(fresh.size());
  std::vector<DeletionVectorFor> vectors;
  for (auto& [path, entry] : fresh) {
    if (merge) {
      // The v3 rule: the new vector holds the file's earlier deletes too and replaces its live one.
      if (auto it = vectors_.find(path); it != vectors_.end()) {
        entry.first.Merge(it->second.positions);
        if (!it->second.dv_path.empty()) out->replaced_dvs.push_back({path, it->second.dv_path, it->second.dv_offset});
      }
    }
    entry.first.RunOptimize();
    DataFile target;
    target.file_path = path;
    target.partition = router_.partition(entry.second).values;
    targets.push_back(std::move(target));
    vectors.push_back({&targets.back(), &entry.first});
  }
  const std::string location = namer_.NextLocation("");
  const std::string puffin = location.substr(0, location.size() - std::string(".parquet").size()) + ".puffin";
  ASSIGN_OR_RETURN(std::vector<DataFile> files, WriteDeletionVectorFile(o_.io, puffin, vectors, parquet::kCreatedBy));
  for (auto& f : files) {
    if (merge) {
      FileVector& v = vectors_[*f.referenced_data_file];
      v.positions = std::move(fresh[*f.referenced_data_file].first);
      v.dv_path = f.file_path;
      v.dv_offset = f.content_offset.value_or(0);
    }
    out->delete_files.push_back(std::move(f));
  }
  return Status::OK();
}

Result<IcebergWriteResult> IcebergTaskWriter::Complete() {
  IcebergWriteResult result;
  for (uint32_t i = 0; i < partitions_.size(); ++i) {
    PartitionState& st = partitions_[i];
    ASSIGN_OR_RETURN(std::vector<DataFile> data, st.data->Complete());
    for (auto& f : data) result.data_files.push_back(std::move(f));
    if (st.eq_deletes) {
      ASSIGN_OR_RETURN(std::vector<DataFile> eq, st.eq_deletes->Complete());
      for (auto& f : eq) result.delete_files.push_back(std::move(f));
    }
    if (!o_.deletion_vectors) RETURN_IF_ERROR(WritePositionDeletes(i, st, &result.delete_files));
  }
  if (o_.deletion_vectors) RETURN_IF_ERROR(WriteDeletionVectors(&result));
  partitions_.clear();
  if (!o_.position_mode) {
    inserted_.clear();
    paths_.clear();
    path_index_.clear();
  }
  router_.Clear();
  return result;
}

}  // namespace sluice
