#include "connectors/iceberg/iceberg_scan_reader.h"

#include <algorithm>

#include "connectors/iceberg/deletion_vector.h"
#include "connectors/iceberg/iceberg_pruning.h"
#include "formats/parquet/parquet_reader.h"
#include "state/key_encoder.h"

namespace sluice {
namespace {

// The reserved field ids of a position delete file's columns (the spec's "Position Delete Files").
constexpr int32_t kDeleteFilePathId = 2147483546;
constexpr int32_t kDeletePosId = 2147483545;
constexpr size_t kDeleteReadRows = 8192;

parquet::FieldIdTree FieldIdTreeOfType(int32_t id, const IcebergType& type) {
  parquet::FieldIdTree tree;
  tree.id = id;
  switch (type.id()) {
    case IcebergTypeId::kStruct:
      for (const IcebergField& f : type.fields()) tree.children.push_back(FieldIdTreeOfType(f.id, f.type));
      break;
    case IcebergTypeId::kList:
      tree.children.push_back(FieldIdTreeOfType(type.element_id(), type.element()));
      break;
    case IcebergTypeId::kMap:
      tree.children.push_back(FieldIdTreeOfType(type.key_id(), type.key()));
      tree.children.push_back(FieldIdTreeOfType(type.value_id(), type.value()));
      break;
    default:
      break;
  }
  return tree;
}

// An open Parquet file and its reader.
struct OpenParquet {
  std::unique_ptr<RandomAccessFile> file;
  std::unique_ptr<parquet::ParquetReader> reader;
};

Result<OpenParquet> OpenParquetFile(FileIO* io, const DataFile& df, const Schema& schema,
                                    const std::vector<parquet::FieldIdTree>& ids, bool positions,
                                    const IcebergReadSchema* pruning = nullptr) {
  if (df.file_format != "PARQUET") {
    return Status::NotSupported("Iceberg file " + df.file_path + " is in " + df.file_format +
                                " format; Sluice reads Parquet data and delete files only");
  }
  OpenParquet out;
  ASSIGN_OR_RETURN(out.file, io->OpenRead(df.file_path));
  ASSIGN_OR_RETURN(out.reader, parquet::ParquetReader::Open(out.file.get()));
  parquet::ParquetReadOptions options;
  options.row_positions = positions;
  if (pruning != nullptr && pruning->filter) {
    options.row_groups = IcebergRowGroupsToRead(out.reader->metadata(), *pruning->filter, pruning->table_schema);
  }
  RETURN_IF_ERROR(out.reader->Select(schema, ids, options));
  return out;
}

}  // namespace

parquet::FieldIdTree FieldIdTreeOf(const IcebergField& field) { return FieldIdTreeOfType(field.id, field.type); }

Result<IcebergReadSchema> MakeIcebergReadSchema(const IcebergSchema& schema, const Schema& physical,
                                                const std::vector<int>& projection, const std::string& table) {
  IcebergReadSchema out;
  out.table_schema = schema;
  std::vector<int> columns = projection;
  if (columns.empty()) {
    for (size_t i = 0; i < physical.size(); ++i) columns.push_back(static_cast<int>(i));
  }
  for (int c : columns) {
    const Field& f = physical.field(c);
    const IcebergField* field = nullptr;
    for (const IcebergField& top : schema.fields()) {
      if (top.name == f.name) field = &top;
    }
    if (field == nullptr) {
      return Status::InvalidArgument("Table '" + table + "': column '" + f.name +
                                     "' is not a column of the Iceberg table's schema " + schema.ToString());
    }
    // A required column may still be missing in files written before it was added: read nullable.
    out.output.Add(f.name, f.type);
    out.output_ids.push_back(FieldIdTreeOf(*field));
    out.output_field_ids.push_back(field->id);
  }
  return out;
}

Result<LogicalType> IcebergDeleteLoader::KeyColumnType(int32_t field_id, const std::string& delete_file) const {
  for (const IcebergField& top : table_schema_.fields()) {
    if (top.id == field_id) return ToLogicalType(top.type, false);
  }
  return Status::NotSupported("Iceberg equality delete file " + delete_file + " deletes by field id " +
                              std::to_string(field_id) +
                              ", which is not a top-level column of the table's schema");
}

Result<std::shared_ptr<const IcebergDeleteLoader::PositionsByPath>> IcebergDeleteLoader::PositionDeletes(
    const std::string& location) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = positions_.find(location);
    if (it != positions_.end()) return it->second;
  }
  DataFile df;
  df.file_path = location;
  Schema schema({{"file_path", LogicalType::String()}, {"pos", LogicalType::BigInt()}});
  std::vector<parquet::FieldIdTree> ids = {{kDeleteFilePathId, {}}, {kDeletePosId, {}}};
  ASSIGN_OR_RETURN(OpenParquet pq, OpenParquetFile(io_.get(), df, schema, ids, false));
  auto result = std::make_shared<PositionsByPath>();
  Chunk chunk;
  std::string last_path;
  std::vector<int64_t>* last = nullptr;
  while (true) {
    RETURN_IF_ERROR(pq.reader->ReadNext(kDeleteReadRows, &chunk));
    if (chunk.size() == 0) break;
    const Vector& paths = chunk.column(0);
    const Vector& pos = chunk.column(1);
    for (size_t i = 0; i < chunk.size(); ++i) {
      if (paths.IsNull(i) || pos.IsNull(i)) {
        return Status::InvalidArgument("Iceberg position delete file " + location + " has a null file_path or pos");
      }
      std::string_view p = paths.GetString(i);
      if (last == nullptr || p != last_path) {
        last_path = std::string(p);
        last = &(*result)[NormalizeIcebergPath(last_path)];
      }
      last->push_back(pos.data<int64_t>()[i]);
    }
  }
  std::lock_guard<std::mutex> lock(mu_);
  positions_.emplace(location, result);
  return std::shared_ptr<const PositionsByPath>(result);
}

Result<std::vector<int64_t>> IcebergDeleteLoader::DeletedPositions(const FileScanTask& task) {
  std::vector<int64_t> out;
  const std::string path = NormalizeIcebergPath(task.data_file.file_path);
  for (const ScanDeleteFile& d : task.deletes) {
    if (d.deletion_vector()) {
      ASSIGN_OR_RETURN(DeletionVector dv, ReadDeletionVector(io_.get(), d.file));
      std::vector<int64_t> v = dv.ToVector();
      out.insert(out.end(), v.begin(), v.end());
    } else if (d.file.content == DataFileContent::kPositionDeletes) {
      ASSIGN_OR_RETURN(auto by_path, PositionDeletes(d.file.file_path));
      auto it = by_path->find(path);
      if (it != by_path->end()) out.insert(out.end(), it->second.begin(), it->second.end());
    }
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

Result<std::shared_ptr<const IcebergDeleteLoader::KeySet>> IcebergDeleteLoader::EqualityKeys(
    const ScanDeleteFile& file) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = keys_.find(file.file.file_path);
    if (it != keys_.end()) return it->second;
  }
  Schema schema;
  std::vector<parquet::FieldIdTree> ids;
  std::vector<int> key_columns;
  for (int32_t id : file.file.equality_ids) {
    ASSIGN_OR_RETURN(LogicalType type, KeyColumnType(id, file.file.file_path));
    key_columns.push_back(static_cast<int>(schema.size()));
    schema.Add("k" + std::to_string(id), type);
    ids.push_back({id, {}});
  }
  if (key_columns.empty()) {
    return Status::InvalidArgument("Iceberg equality delete file " + file.file.file_path + " has no equality_ids");
  }
  ASSIGN_OR_RETURN(OpenParquet pq, OpenParquetFile(io_.get(), file.file, schema, ids, false));
  auto set = std::make_shared<KeySet>();
  Chunk chunk;
  std::vector<std::string> keys;
  while (true) {
    RETURN_IF_ERROR(pq.reader->ReadNext(kDeleteReadRows, &chunk));
    if (chunk.size() == 0) break;
    EncodeKeys(chunk, key_columns, &keys);
    for (std::string& k : keys) set->insert(std::move(k));
  }
  std::lock_guard<std::mutex> lock(mu_);
  keys_.emplace(file.file.file_path, set);
  return std::shared_ptr<const KeySet>(set);
}

namespace {

// The equality deletes of one equality-id set: the key columns in the read chunk and the key sets.
struct EqualityGroup {
  std::vector<int32_t> ids;
  std::vector<int> columns;
  std::vector<std::shared_ptr<const IcebergDeleteLoader::KeySet>> sets;
};

class IcebergFileSplit final : public SourceSplit {
 public:
  IcebergFileSplit(std::shared_ptr<IcebergDeleteLoader> deletes, std::shared_ptr<const IcebergReadSchema> schema,
                   FileScanTask task, IcebergRowBudget budget)
      : deletes_(std::move(deletes)), schema_(std::move(schema)), task_(std::move(task)), budget_(std::move(budget)) {}

  std::string id() const override { return task_.data_file.file_path; }

  Result<bool> Read(size_t max_rows, Chunk* out) override {
    if (budget_ && budget_->load() <= 0) return false;
    if (!opened_) RETURN_IF_ERROR(Open());
    while (!done_) {
      RETURN_IF_ERROR(pq_.reader->ReadNext(std::max<size_t>(max_rows, 1), &buf_));
      if (buf_.size() == 0) {
        done_ = true;
        pq_ = {};
        break;
      }
      Filter();
      if (keep_.empty()) continue;
      if (budget_) {
        const int64_t taken = Take(static_cast<int64_t>(keep_.size()));
        if (taken == 0) {
          done_ = true;
          pq_ = {};
          break;
        }
        keep_.resize(static_cast<size_t>(taken));
      }
      Chunk view;
      for (size_t c = 0; c < schema_->output.size(); ++c) view.AddColumn(std::move(buf_.column(c)));
      view.SetSizeFromColumns();
      out->AppendFrom(view, keep_.data(), 0, keep_.size());
      return true;
    }
    return false;
  }

 private:
  Status Open() {
    opened_ = true;
    Schema read = schema_->output;
    std::vector<parquet::FieldIdTree> ids = schema_->output_ids;
    std::vector<ScanDeleteFile> equality;
    bool positions = false;
    for (const ScanDeleteFile& d : task_.deletes) {
      if (d.file.content == DataFileContent::kEqualityDeletes) {
        equality.push_back(d);
      } else {
        positions = true;
      }
    }
    for (const ScanDeleteFile& d : equality) {
      EqualityGroup* group = nullptr;
      for (EqualityGroup& g : groups_) {
        if (g.ids == d.file.equality_ids) group = &g;
      }
      if (group == nullptr) {
        groups_.push_back({d.file.equality_ids, {}, {}});
        group = &groups_.back();
        for (int32_t id : d.file.equality_ids) {
          ASSIGN_OR_RETURN(int column, KeyColumn(id, d, &read, &ids));
          group->columns.push_back(column);
        }
      }
      ASSIGN_OR_RETURN(auto set, deletes_->EqualityKeys(d));
      group->sets.push_back(std::move(set));
    }
    if (positions) {
      ASSIGN_OR_RETURN(deleted_, deletes_->DeletedPositions(task_));
    }
    with_positions_ = !deleted_.empty();
    ASSIGN_OR_RETURN(pq_, OpenParquetFile(deletes_->io(), task_.data_file, read, ids, with_positions_, schema_.get()));
    pos_column_ = read.size();
    return Status::OK();
  }

  // Takes up to `n` rows from the budget; returns how many.
  int64_t Take(int64_t n) {
    int64_t left = budget_->load();
    while (left > 0 && !budget_->compare_exchange_weak(left, left - std::min(left, n))) {
    }
    return std::max<int64_t>(0, std::min(left, n));
  }

  // The read column holding field `id` (adding it after the output columns when not projected).
  Result<int> KeyColumn(int32_t id, const ScanDeleteFile& d, Schema* read, std::vector<parquet::FieldIdTree>* ids) {
    for (size_t c = 0; c < schema_->output_field_ids.size(); ++c) {
      if (schema_->output_field_ids[c] == id) return static_cast<int>(c);
    }
    for (size_t c = schema_->output.size(); c < ids->size(); ++c) {
      if ((*ids)[c].id == id) return static_cast<int>(c);
    }
    ASSIGN_OR_RETURN(LogicalType type, deletes_->KeyColumnType(id, d.file.file_path));
    read->Add("__eq_" + std::to_string(id), type);
    ids->push_back({id, {}});
    return static_cast<int>(read->size()) - 1;
  }

  // Fills keep_ with the rows of buf_ that no delete removes.
  void Filter() {
    const size_t n = buf_.size();
    alive_.assign(n, 1);
    if (with_positions_) {
      const int64_t* pos = buf_.column(pos_column_).data<int64_t>();
      for (size_t i = 0; i < n; ++i) {
        while (next_deleted_ < deleted_.size() && deleted_[next_deleted_] < pos[i]) ++next_deleted_;
        if (next_deleted_ < deleted_.size() && deleted_[next_deleted_] == pos[i]) alive_[i] = 0;
      }
    }
    for (const EqualityGroup& g : groups_) {
      EncodeKeys(buf_, g.columns, &keys_);
      for (size_t i = 0; i < n; ++i) {
        if (!alive_[i]) continue;
        for (const auto& set : g.sets) {
          if (set->count(keys_[i])) {
            alive_[i] = 0;
            break;
          }
        }
      }
    }
    keep_.clear();
    for (size_t i = 0; i < n; ++i) {
      if (alive_[i]) keep_.push_back(static_cast<uint32_t>(i));
    }
  }

  std::shared_ptr<IcebergDeleteLoader> deletes_;
  std::shared_ptr<const IcebergReadSchema> schema_;
  FileScanTask task_;
  bool opened_ = false;
  bool done_ = false;
  OpenParquet pq_;
  std::vector<EqualityGroup> groups_;
  std::vector<int64_t> deleted_;
  size_t next_deleted_ = 0;
  bool with_positions_ = false;
  size_t pos_column_ = 0;
  Chunk buf_;
  std::vector<uint8_t> alive_;
  std::vector<uint32_t> keep_;
  std::vector<std::string> keys_;
  IcebergRowBudget budget_;
};

}  // namespace

std::unique_ptr<SourceSplit> NewIcebergFileSplit(std::shared_ptr<IcebergDeleteLoader> deletes,
                                                 std::shared_ptr<const IcebergReadSchema> schema, FileScanTask task,
                                                 IcebergRowBudget budget) {
  return std::make_unique<IcebergFileSplit>(std::move(deletes), std::move(schema), std::move(task),
                                            std::move(budget));
}

}  // namespace sluice
