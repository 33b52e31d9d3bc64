#include "connectors/iceberg/partition_router.h"

#include <cstring>

namespace sluice {

Result<PartitionRouter> PartitionRouter::Make(const PartitionSpec& spec, const IcebergSchema& schema,
                                              std::vector<size_t> source_columns) {
  if (source_columns.size() != spec.fields().size()) {
    return Status::Internal("partition router: " + std::to_string(source_columns.size()) +
                            " source columns for " + std::to_string(spec.fields().size()) + " partition fields");
  }
  PartitionRouter router;
  router.spec_ = spec;
  router.source_columns_ = std::move(source_columns);
  for (const PartitionField& f : spec.fields()) {
    const IcebergField* source = schema.FindField(f.source_id);
    bool top_level = false;
    for (const IcebergField& top : schema.fields()) top_level |= top.id == f.source_id;
    if (source == nullptr || !top_level) {
      return Status::NotSupported("partition field '" + f.name +
                                  "': Sluice writes partitions only of top-level columns");
    }
    auto result = f.transform.ResultType(source->type);
    if (!result.ok()) return result.status().WithContext("partition field '" + f.name + "'");
    router.source_types_.push_back(source->type);
    router.result_types_.push_back(std::move(result).value());
  }
  router.transformed_.resize(spec.fields().size());
  return router;
}

Result<PartitionRouter> PartitionRouter::ForSchema(const PartitionSpec& spec, const IcebergSchema& schema,
                                                   const Schema& chunk_schema) {
  std::vector<size_t> columns;
  for (const PartitionField& f : spec.fields()) {
    std::string name = schema.FindName(f.source_id);
    auto index = chunk_schema.IndexOf(name);
    if (!index) {
      return Status::InvalidArgument("partition field '" + f.name + "': source column '" + name +
                                     "' is not among the written columns");
    }
    columns.push_back(*index);
  }
  return Make(spec, schema, std::move(columns));
}

void PartitionRouter::AppendKey(const Vector& column, size_t row, std::string* key) const {
  if (column.IsNull(row)) {
    key->push_back('\0');
    return;
  }
  key->push_back('\1');
  const LogicalType& type = column.type();
  if (type.IsStringLike()) {
    std::string_view s = column.GetString(row);
    auto len = static_cast<uint32_t>(s.size());
    key->append(reinterpret_cast<const char*>(&len), sizeof(len));
    key->append(s);
    return;
  }
  size_t width = type.PhysicalWidth();
  key->append(reinterpret_cast<const char*>(column.raw_data()) + row * width, width);
}

Status PartitionRouter::Route(const Chunk& chunk, std::vector<uint32_t>* partition_of_row) {
  size_t rows = chunk.size();
  partition_of_row->assign(rows, 0);
  if (spec_.fields().empty()) {
    if (partitions_.empty()) partitions_.push_back({});
    return Status::OK();
  }
  for (size_t f = 0; f < spec_.fields().size(); ++f) {
    Status st = ApplyTransform(spec_.fields()[f].transform, source_types_[f], chunk.column(source_columns_[f]),
                               &transformed_[f]);
    if (!st.ok()) return st.WithContext("partition field '" + spec_.fields()[f].name + "'");
  }
  for (size_t row = 0; row < rows; ++row) {
    key_.clear();
    for (const Vector& column : transformed_) AppendKey(column, row, &key_);
    auto it = ordinal_of_key_.find(std::string_view(key_));
    if (it != ordinal_of_key_.end()) {
      (*partition_of_row)[row] = it->second;
      continue;
    }
    // A new partition: box its values once.
    Partition p;
    for (size_t f = 0; f < transformed_.size(); ++f) {
      ASSIGN_OR_RETURN(std::optional<IcebergLiteral> value, LiteralFromVector(transformed_[f], row, result_types_[f]));
      p.values.push_back(std::move(value));
    }
    p.path = PartitionPath(spec_, p.values);
    auto ordinal = static_cast<uint32_t>(partitions_.size());
    partitions_.push_back(std::move(p));
    ordinal_of_key_.emplace(key_, ordinal);
    (*partition_of_row)[row] = ordinal;
  }
  return Status::OK();
}

void PartitionRouter::Clear() {
  ordinal_of_key_.clear();
  partitions_.clear();
}

}  // namespace sluice
