// Reading the data files of an Iceberg scan (scan_planner.h) with their deletes applied, columnar:
// each data file is one SourceSplit whose reader reads the projected columns by Iceberg field id
// (parquet_reader.h: columns missing in older files read as NULL, renamed columns by id) and drops
// the deleted rows of each chunk before appending the survivors:
//   - position deletes and deletion vectors become one sorted list of deleted positions, merged
//     with the chunk's row positions (`_pos`);
//   - equality deletes become one hash set of encoded keys (state/key_encoder.h: NULL equals NULL)
//     per equality-id set, probed with each chunk's keys (read even when not projected).
// The planner has already applied the sequence-number rules, so every delete file given to a split
// applies to it in full.
//
// IcebergDeleteLoader caches what it has parsed of each delete file (position delete files hold
// the deletes of many data files; global equality deletes apply to every data file), shared by all
// splits of a source.
//
// Threading: IcebergDeleteLoader is thread-safe; a split is used by one thread.
#pragma once

#include <atomic>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "common/file_io.h"
#include "connectors/connector.h"
#include "connectors/iceberg/iceberg_filter.h"
#include "connectors/iceberg/iceberg_types.h"
#include "connectors/iceberg/scan_planner.h"
#include "formats/parquet/parquet_schema.h"

namespace sluice {

// What the splits produce: the projected columns of the table, with their Iceberg field ids.
struct IcebergReadSchema {
  Schema output;
  std::vector<parquet::FieldIdTree> output_ids;
  std::vector<int32_t> output_field_ids;  // top-level id of each output column
  IcebergSchema table_schema;
  // The pushed-down filter (bound to table_schema), when there is one: row groups it cannot match
  // are not read (iceberg_pruning.h).
  std::shared_ptr<const IcebergFilter> filter;
};

// Matches the table's physical columns (those of `projection`; all when empty) to `schema`'s
// top-level fields by name. `table` names the table in errors.
[[nodiscard]] Result<IcebergReadSchema> MakeIcebergReadSchema(const IcebergSchema& schema, const Schema& physical,
                                                              const std::vector<int>& projection,
                                                              const std::string& table);

// The FieldIdTree of a field (its id and those of its nested fields).
parquet::FieldIdTree FieldIdTreeOf(const IcebergField& field);

class IcebergDeleteLoader {
 public:
  using KeySet = std::unordered_set<std::string>;

  IcebergDeleteLoader(std::shared_ptr<FileIO> io, IcebergSchema table_schema)
      : io_(std::move(io)), table_schema_(std::move(table_schema)) {}

  // The deleted positions of the task's data file (position delete files and deletion vectors),
  // sorted and unique.
  [[nodiscard]] Result<std::vector<int64_t>> DeletedPositions(const FileScanTask& task);
  // The encoded keys of an equality delete file over its equality_ids.
  [[nodiscard]] Result<std::shared_ptr<const KeySet>> EqualityKeys(const ScanDeleteFile& file);
  // The type a key column is read as (the table schema's type, nullable).
  [[nodiscard]] Result<LogicalType> KeyColumnType(int32_t field_id, const std::string& delete_file) const;

  FileIO* io() const { return io_.get(); }

 private:
  using PositionsByPath = std::unordered_map<std::string, std::vector<int64_t>>;
  Result<std::shared_ptr<const PositionsByPath>> PositionDeletes(const std::string& location);

  std::shared_ptr<FileIO> io_;
  IcebergSchema table_schema_;
  std::mutex mu_;
  std::unordered_map<std::string, std::shared_ptr<const PositionsByPath>> positions_;
  std::unordered_map<std::string, std::shared_ptr<const KeySet>> keys_;
};

// Rows the splits of one source may still emit ('limit'), shared by them.
using IcebergRowBudget = std::shared_ptr<std::atomic<int64_t>>;

// A split reading one data file of a scan. `schema` and `deletes` are shared by the source's splits;
// with a `budget`, the split takes its rows from it and ends once it is used up.
std::unique_ptr<SourceSplit> NewIcebergFileSplit(std::shared_ptr<IcebergDeleteLoader> deletes,
                                                 std::shared_ptr<const IcebergReadSchema> schema, FileScanTask task,
                                                 IcebergRowBudget budget = nullptr);

}  // namespace sluice
