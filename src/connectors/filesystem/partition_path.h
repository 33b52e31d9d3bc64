// Partition paths of the filesystem connector's partitioned tables (Flink's PartitionPathUtils and
// RowDataPartitionComputer): a table PARTITIONED BY (dt, hm) keeps its rows under
// <path>/dt=2015-09-15/hm=10-00/, one directory level per partition column, in declared order.
//
// A value is written as its text (Flink's toString of the external value: '2015-09-15' for a DATE,
// 'true' for a BOOLEAN, digits for integers); a NULL or empty value becomes the table's
// 'partition.default-name' (__DEFAULT_PARTITION__ by default), which reads back as NULL. Names and
// values are escaped as Hive escapes path names: control characters and "#%'*/:=?\{}[]^ (and DEL) become
// '%' followed by two upper-case hex digits, so a value can hold '/' or '=' and still be one
// directory. Partition columns are not written into the files (Flink's default); readers restore them
// from the path.
//
// Threading: PartitionComputer is used by one writer thread; the free functions are pure.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "types/schema.h"
#include "types/vector.h"

namespace sluice {

// Hive's escaping of one path component (see above); the empty string stays empty.
std::string EscapePathName(std::string_view name);
// The reverse: '%XY' (two hex digits) becomes that character; anything else is kept.
std::string UnescapePathName(std::string_view name);

// Where a table's partition columns are and how a row's partition directory is named.
class PartitionComputer {
 public:
  // `partition_keys` must name columns of `schema` (checked: an error names the missing column).
  static Result<PartitionComputer> Make(const Schema& schema, const std::vector<std::string>& partition_keys,
                                        std::string default_name);

  bool partitioned() const { return !partition_columns_.empty(); }
  const std::vector<int>& partition_columns() const { return partition_columns_; }
  // The columns written into the files, in declared order.
  const std::vector<int>& data_columns() const { return data_columns_; }
  const std::vector<std::string>& keys() const { return keys_; }
  const std::string& default_name() const { return default_name_; }

  // Replaces *out with row `row`'s partition directory relative to the table path,
  // "dt=2015-09-15/hm=10-00" (no trailing '/'); empty for an unpartitioned table.
  void PartitionPath(const Chunk& chunk, size_t row, std::string* out) const;
  // Whether rows `a` and `b` of `chunk` have equal partition values (so the same directory); false
  // when unsure (nested types), which only costs computing the path.
  bool SamePartition(const Chunk& chunk, size_t a, size_t b) const;

 private:
  std::vector<std::string> keys_;
  std::vector<int> partition_columns_;
  std::vector<int> data_columns_;
  std::string default_name_;
};

// The text of row `row` of `column` as a partition value (before escaping); empty for NULL.
std::string PartitionValueText(const Vector& column, size_t row);

// The partition values of a directory relative to the table path ("dt=2015-09-15/hm=10-00"), unescaped,
// in the order of `keys`. Returns false when the directory is not exactly one 'key=value' level per
// key, in order (Flink reads partitions at that depth only).
bool ParsePartitionDirectory(std::string_view relative_dir, const std::vector<std::string>& keys,
                             std::vector<std::string>* values);

// Appends one value parsed from a partition directory to `out` (Flink's convertStringToInternalValue:
// CHAR/VARCHAR, BOOLEAN, TINYINT..BIGINT, FLOAT, DOUBLE, DATE, TIMESTAMP); `is_default` (the default
// partition name) appends NULL. An unparsable value or another type is an error naming the column.
Status AppendPartitionValue(std::string_view text, bool is_default, const std::string& column, Vector* out);

}  // namespace sluice
