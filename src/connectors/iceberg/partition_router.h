// PartitionRouter: which partition each row of a chunk belongs to, for a writer that keeps one open
// data file per partition of a table's partition spec.
//
// Per chunk it runs each partition field's transform over its source column (ApplyTransform, whole
// columns), then assigns every row the ordinal of its partition tuple. Partitions are remembered
// across chunks: the first row of a new tuple creates an entry holding the tuple as IcebergLiterals
// (for the manifest's partition struct) and its path ("ts_day=2026-08-15/id_bucket=3"). Per row only
// the transformed values' bytes are compared (a key built in a reused buffer, looked up without
// allocating); no boxed values.
//
// Threading: one router per writer task.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "common/status.h"
#include "connectors/iceberg/partition_transforms.h"
#include "types/vector.h"

namespace sluice {

class PartitionRouter {
 public:
  struct Partition {
    std::vector<std::optional<IcebergLiteral>> values;  // in the spec's field order
    std::string path;
  };

  // `source_columns[i]` is the chunk column holding partition field i's source column. Sources must
  // be top-level columns; unknown transforms are refused.
  [[nodiscard]] static Result<PartitionRouter> Make(const PartitionSpec& spec, const IcebergSchema& schema,
                                                    std::vector<size_t> source_columns);
  // As Make, finding each source column of `chunk_schema` by its Iceberg name.
  [[nodiscard]] static Result<PartitionRouter> ForSchema(const PartitionSpec& spec, const IcebergSchema& schema,
                                                         const Schema& chunk_schema);

  // Sets (*partition_of_row)[i] to row i's partition ordinal; new partitions are appended.
  [[nodiscard]] Status Route(const Chunk& chunk, std::vector<uint32_t>* partition_of_row);

  size_t num_partitions() const { return partitions_.size(); }
  const Partition& partition(uint32_t ordinal) const { return partitions_[ordinal]; }
  // Forgets the partitions (e.g. after a checkpoint closed every file); ordinals restart at 0.
  void Clear();

 private:
  struct StringHash {
    using is_transparent = void;
    size_t operator()(std::string_view s) const { return std::hash<std::string_view>()(s); }
  };
  PartitionRouter() = default;
  void AppendKey(const Vector& column, size_t row, std::string* key) const;

  PartitionSpec spec_;
  std::vector<IcebergType> source_types_;
  std::vector<IcebergType> result_types_;
  std::vector<size_t> source_columns_;
  std::vector<Vector> transformed_;
  std::string key_;
  std::unordered_map<std::string, uint32_t, StringHash, std::equal_to<>> ordinal_of_key_;
  std::vector<Partition> partitions_;
};

}  // namespace sluice
