// Leaf conversion: how one Parquet leaf column's physical values become the slots of a Sluice
// vector of the requested type, chosen once per column and applied a batch at a time.
//
// ChooseConversion checks that the requested type can be read from the file's column (the same
// type modulo nullability and TIMESTAMP/TIME precision, or an Iceberg promotion: INT -> BIGINT,
// FLOAT -> DOUBLE, DECIMAL(P, S) -> DECIMAL(P', S) with P' >= P; BYTES <-> STRING; a UUID as
// BINARY(16)/BYTES or as its canonical STRING) and returns a LeafConversion. Convert then turns n
// physical values (value_decoders.h's layout) into n target slots, one tight loop per kind:
// integer widening/narrowing, time-unit scaling (TIMESTAMP MILLIS/NANOS and INT96 to microseconds,
// TIME to milliseconds, rounding toward negative infinity), decimals from INT32/INT64 or big-endian
// two's-complement bytes, and string views kept as they are.
//
// Threading: immutable after ChooseConversion; Convert is a pure function.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "common/status.h"
#include "formats/parquet/parquet_schema.h"
#include "types/logical_type.h"

namespace sluice {
class StringHeap;
}

namespace sluice::parquet {

struct LeafConversion {
  enum class Kind : uint8_t {
    kCopy,           // physical layout equals the target's (same width)
    kInt32ToInt8,
    kInt32ToInt16,
    kInt32ToInt64,
    kUInt32ToInt64,
    kInt32ToDecimal,
    kInt64ToDecimal,
    kInt64Scale,     // int64 -> int64, multiplied by `multiplier` or floor-divided by `divisor`
    kInt64ToTime,    // int64 -> int32 milliseconds of the day, floor-divided by `divisor`
    kFloatToDouble,
    kInt96ToMicros,
    kBytesToDecimal,  // BYTE_ARRAY / FIXED_LEN_BYTE_ARRAY big-endian two's complement
    kUuidToString,
  };
  Kind kind = Kind::kCopy;
  Type physical = Type::INT32;
  int64_t multiplier = 1;
  int64_t divisor = 1;
  size_t physical_width = 0;  // bytes per decoded physical value (string_view for byte arrays)
  size_t target_width = 0;    // bytes per target slot
  size_t type_length = 0;     // FIXED_LEN_BYTE_ARRAY width (every value has it)
  LogicalType target;
};

// The conversion reading `column` (a leaf of `schema`) as `requested`, or an error saying why the
// types do not match (the caller adds file and column names).
Result<LeafConversion> ChooseConversion(const ParquetSchema& schema, const ColumnDescriptor& column,
                                        const LogicalType& requested);

// Converts n physical values at `src` into n target slots at `dst` (which may alias `src` only for
// kCopy). Strings produced here (kUuidToString) go into `heap`. Fails only on malformed values
// (a decimal wider than 16 bytes).
[[nodiscard]] Status Convert(const LeafConversion& conv, const void* src, size_t n, void* dst, StringHeap* heap);

// DECIMALs from n big-endian values of `width` bytes laid end to end (PLAIN FIXED_LEN_BYTE_ARRAY),
// without views; false (nothing done) when width is not 1..8.
bool DecimalsFromContiguous(const uint8_t* src, size_t n, size_t width, __int128* dst);

}  // namespace sluice::parquet
