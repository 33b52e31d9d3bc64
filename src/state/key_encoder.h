// Key encoding for keyed state: turns the key columns of each row into a byte string such that two
// rows get equal strings exactly when their keys are equal under SQL GROUP BY semantics (NULLs are
// equal to each other; -0.0 equals 0.0; NaN equals NaN; DECIMALs of one column share one scale).
//
// The encoding is columnar: EncodeKeys appends each column for all rows before the next column, into
// one buffer per row, so hashing and state lookups work on flat strings.
//
// Threading: pure functions.
#pragma once

#include <string>
#include <vector>

#include "types/vector.h"

namespace sluice {

// keys[i] receives the encoded key of row i of `chunk` over `key_columns` (resized to chunk.size()).
void EncodeKeys(const Chunk& chunk, const std::vector<int>& key_columns, std::vector<std::string>* keys);

// Appends the encoding of one value (row `row` of `vec`) to `out`.
void EncodeKeyValue(const Vector& vec, size_t row, std::string* out);

}  // namespace sluice
