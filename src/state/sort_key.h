// Sort keys and row equality for operator state that orders or matches stored rows (Top-N, dedup).
//
// EncodeSortKeyValue appends an order-preserving byte encoding of one value: for two rows, comparing
// the concatenated encodings of their ORDER BY columns with memcmp (std::string's operator<) gives
// the SQL order, direction and NULL placement included. Equal encodings mean a tie. Numbers compare
// as Java's comparators do (Double.compare: -0.0 < 0.0, NaN greatest and equal to itself); strings
// and binaries by their bytes (UTF-8 code point order, as Flink's BinaryStringData). Nested types
// (ARRAY, MAP, MULTISET, ROW) have no order and are rejected by IsSortKeyEncodable.
//
// RowsEqual compares two rows field by field (both NULL is equal; numbers bit for bit), the way
// Flink's generated RecordEqualiser finds the stored copy of a retracted row.
//
// Threading: pure functions.
#pragma once

#include <string>

#include "types/vector.h"

namespace sluice {

bool IsSortKeyEncodable(const LogicalType& type);

// Appends the encoding of row `row` of `vec`. The type must be IsSortKeyEncodable.
void EncodeSortKeyValue(const Vector& vec, size_t row, bool ascending, bool nulls_first, std::string* out);

// Value a[row_a] equals b[row_b]; both vectors have the same type (ignoring nullability).
bool ValuesEqual(const Vector& a, size_t row_a, const Vector& b, size_t row_b);

// Every column of a[row_a] equals the same column of b[row_b]; RowKinds are ignored.
bool RowsEqual(const Chunk& a, size_t row_a, const Chunk& b, size_t row_b);

}  // namespace sluice
