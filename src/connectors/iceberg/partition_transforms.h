// Applying Iceberg partition transforms (partition_spec.h) to values, and naming partitions.
//
// The per-row path is columnar: ApplyTransform takes one column of a chunk (a Vector laid out as its
// Sluice type says, see types/logical_type.h) and produces a column of partition values — int32 for
// bucket/year/month/hour, DATE (int32 days) for day, the source's layout for identity and truncate
// (truncated strings are views into the input's heaps) — with nulls where the input is null, and
// for void everywhere. A sink calls it once per chunk and partition field, then groups rows by the
// resulting columns (truncate of a TINYINT/SMALLINT column gives INTEGER, Iceberg's int); only one
// IcebergLiteral is made per distinct partition (LiteralFromVector; PartitionRouter does all this).
//
// Hashing follows the spec's Appendix B (32-bit Murmur3, x86 variant, seed 0): ints and longs hash
// as the 8 little-endian bytes of the long, so promoting int to long keeps buckets; dates as their
// days, times and timestamps as microseconds, decimals as their minimal big-endian two's complement,
// strings as UTF-8, binary as is. Sluice's TIME is milliseconds and is converted to microseconds.
//
// Partition paths are Java's PartitionSpec.partitionToPath: "name=value" joined by '/', with the
// value's human string (year "2026", month "2026-08", day "2026-08-15", hour "2026-08-15-05",
// identity as IcebergLiteral::ToHumanString, null as "null") and both parts URL-encoded like Java's
// URLEncoder (space as '+').
//
// Threading: pure functions.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "connectors/iceberg/iceberg_literal.h"
#include "connectors/iceberg/partition_spec.h"
#include "types/vector.h"

namespace sluice {

// 32-bit Murmur3 (x86) of `data` with seed 0, as a signed int like Guava's.
int32_t Murmur3Hash32(std::string_view data);
int32_t IcebergHashLong(int64_t v);  // also for int, date, time (micros), timestamps (micros)
int32_t IcebergHashDecimal(__int128 unscaled);
inline int32_t IcebergHashBytes(std::string_view v) { return Murmur3Hash32(v); }
inline int32_t BucketOf(int32_t hash, int32_t n) { return (hash & 0x7fffffff) % n; }

// Applies `transform` to `input`, whose Iceberg type is `source` (the partition field's source
// column), writing a new vector of input.size() rows to `out`. Fails for a transform that does not
// apply to the source type.
[[nodiscard]] Status ApplyTransform(const Transform& transform, const IcebergType& source, const Vector& input,
                                    Vector* out);

// The same on one metadata-level value (null in, null out).
[[nodiscard]] Result<std::optional<IcebergLiteral>> ApplyTransform(const Transform& transform,
                                                                   const IcebergType& source,
                                                                   const std::optional<IcebergLiteral>& value);

// Row `row` of a column as an Iceberg value of type `type` (nullopt for NULL). For partition tuples
// and bounds: called once per distinct value, never per row of data.
[[nodiscard]] Result<std::optional<IcebergLiteral>> LiteralFromVector(const Vector& column, size_t row,
                                                                      const IcebergType& type);

// Java's Transform.toHumanString of a partition value (the transform's result type).
std::string PartitionValueHumanString(const Transform& transform, const std::optional<IcebergLiteral>& value);

// "business_date=2026-08-15/ts_day=2026-08-15/id_bucket=3"; `values` in the spec's field order.
std::string PartitionPath(const PartitionSpec& spec, const std::vector<std::optional<IcebergLiteral>>& values);

// Java's URLEncoder.encode(s, UTF-8).
std::string UrlEncode(std::string_view s);

}  // namespace sluice
