// Partition specs and sort orders of an Iceberg table (the spec's "Partitioning" and "Sorting"), and
// the transforms they apply, as definitions: names, parameters, result types. Applying a transform to
// values lives in partition_transforms.h.
//
// A transform this build does not know (a newer spec's) is kept by its text as kUnknown, so metadata
// that uses it still reads and writes back unchanged; writers refuse to write with such a spec.
//
// Threading: plain values.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "connectors/iceberg/iceberg_types.h"

namespace sluice {

enum class TransformKind : uint8_t { kIdentity, kBucket, kTruncate, kYear, kMonth, kDay, kHour, kVoid, kUnknown };

struct Transform {
  TransformKind kind = TransformKind::kIdentity;
  int32_t param = 0;         // N of bucket[N], W of truncate[W]
  std::string unknown_text;  // the spelling of a kUnknown transform

  static Transform Identity() { return {}; }
  static Transform Bucket(int32_t n) { return {TransformKind::kBucket, n, {}}; }
  static Transform Truncate(int32_t w) { return {TransformKind::kTruncate, w, {}}; }
  static Transform Year() { return {TransformKind::kYear, 0, {}}; }
  static Transform Month() { return {TransformKind::kMonth, 0, {}}; }
  static Transform Day() { return {TransformKind::kDay, 0, {}}; }
  static Transform Hour() { return {TransformKind::kHour, 0, {}}; }
  static Transform Void() { return {TransformKind::kVoid, 0, {}}; }

  // "identity", "bucket[16]", "truncate[10]", "year", ..., "void". Malformed parameters are errors;
  // an unknown name gives kUnknown.
  [[nodiscard]] static Result<Transform> Parse(std::string_view text);
  std::string ToString() const;

  // The partition value's type for a source column of type `source`; an error naming the transform
  // and the type when the transform does not apply (e.g. hour on a date, bucket on a double).
  [[nodiscard]] Result<IcebergType> ResultType(const IcebergType& source) const;
  // Whether values that are ordered stay ordered (all but bucket and void): used for pruning.
  bool PreservesOrder() const;

  bool operator==(const Transform& other) const {
    return kind == other.kind && param == other.param && unknown_text == other.unknown_text;
  }
};

struct PartitionField {
  int32_t source_id = 0;
  int32_t field_id = 0;
  std::string name;
  Transform transform;

  bool operator==(const PartitionField& other) const {
    return source_id == other.source_id && field_id == other.field_id && name == other.name &&
           transform == other.transform;
  }
};

class PartitionSpec {
 public:
  // Partition field ids of a table's first spec start here (Iceberg's PARTITION_DATA_ID_START).
  static constexpr int32_t kFirstFieldId = 1000;

  PartitionSpec() = default;
  PartitionSpec(int32_t spec_id, std::vector<PartitionField> fields) : spec_id_(spec_id), fields_(std::move(fields)) {}
  static PartitionSpec Unpartitioned() { return {}; }

  int32_t spec_id() const { return spec_id_; }
  const std::vector<PartitionField>& fields() const { return fields_; }
  bool IsUnpartitioned() const;  // no fields, or only void transforms
  // The highest partition field id, or kFirstFieldId - 1 when there are none.
  int32_t LastFieldId() const;

  // The partition tuple's struct type (every field optional), for manifests. Fails when a source
  // column is missing or a transform does not apply to it.
  [[nodiscard]] Result<IcebergType> PartitionType(const IcebergSchema& schema) const;

  // Same fields in the same order (ids, names, transforms), ignoring the spec id.
  bool CompatibleWith(const PartitionSpec& other) const { return fields_ == other.fields_; }
  bool operator==(const PartitionSpec& other) const { return spec_id_ == other.spec_id_ && fields_ == other.fields_; }

 private:
  int32_t spec_id_ = 0;
  std::vector<PartitionField> fields_;
};

// One term of a spec being built: a source column (a dotted name for a nested one), a transform and
// an optional partition field name (default: Java's, e.g. "ts_day", "id_bucket", "name_trunc").
struct PartitionTerm {
  std::string column;
  Transform transform;
  std::string name;
};

// A spec over `schema` from terms, with field ids from `first_field_id` on. Refuses a missing or
// non-primitive column, a transform that does not apply, duplicate names and duplicate
// (column, transform) pairs, naming the column.
[[nodiscard]] Result<PartitionSpec> BuildPartitionSpec(const IcebergSchema& schema,
                                                       const std::vector<PartitionTerm>& terms, int32_t spec_id = 0,
                                                       int32_t first_field_id = PartitionSpec::kFirstFieldId);
// Java's default partition field name for a transform of `source_name`.
std::string DefaultPartitionFieldName(std::string_view source_name, const Transform& transform);

enum class SortDirection : uint8_t { kAsc, kDesc };
enum class NullOrder : uint8_t { kNullsFirst, kNullsLast };

struct SortField {
  Transform transform;
  int32_t source_id = 0;
  SortDirection direction = SortDirection::kAsc;
  NullOrder null_order = NullOrder::kNullsFirst;

  bool operator==(const SortField& other) const {
    return transform == other.transform && source_id == other.source_id && direction == other.direction &&
           null_order == other.null_order;
  }
};

struct SortOrder {
  int32_t order_id = 0;  // 0 is reserved for the unsorted order
  std::vector<SortField> fields;

  static SortOrder Unsorted() { return {}; }
  bool IsUnsorted() const { return fields.empty(); }
  bool operator==(const SortOrder& other) const { return order_id == other.order_id && fields == other.fields; }
};

}  // namespace sluice
