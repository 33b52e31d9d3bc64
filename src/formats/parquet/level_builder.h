// LevelBuilder: the definition and repetition levels of one Parquet leaf column, computed from a
// batch of Sluice vectors (Dremel's record shredding).
//
// A top-level column vector and its nested children (vector.h: ROW children share the parent's
// rows, ARRAY/MAP rows are ListEntry{offset, length} into child vectors) are walked along the
// schema path from the top-level field to the leaf. Each step keeps one entry per level-to-be:
// entries that ended above the leaf (a null struct, an empty list) keep the definition level at
// which they ended; the others are expanded (a list entry into its elements) until the leaf,
// where they become values. The result lists, in order, the levels and the leaf vector's rows
// that hold the non-null values, so a column writer encodes values straight from that vector.
//
// A null in a REQUIRED node (a NOT NULL column, a map key) is refused with a Status naming the
// column. Work is linear in the number of levels times the path's depth.
//
// Threading: a LevelBuilder is used by one thread; it reuses its buffers between batches.
#pragma once

#include <cstdint>
#include <vector>

#include "common/status.h"
#include "formats/parquet/parquet_schema.h"
#include "types/vector.h"

namespace sluice::parquet {

struct LeafBatch {
  const Vector* values = nullptr;  // the vector holding the leaf's values
  // Rows of `values` with a non-null leaf value, in level order; when `dense`, they are rows
  // 0..num_values-1 and `positions` is empty.
  bool dense = true;
  std::vector<uint32_t> positions;
  size_t num_values = 0;
  // One entry per level; empty when the column's max definition (repetition) level is 0. Also
  // empty, for a flat column, when every level is the maximum (no NULL in the batch).
  std::vector<int16_t> def_levels;
  std::vector<int16_t> rep_levels;
  size_t num_levels = 0;
};

class LevelBuilder {
 public:
  // Fills `out` for leaf column `leaf` of `schema` from `top`, the vector of the top-level field
  // the leaf belongs to (rows [0, top.size())).
  Status Build(const ParquetSchema& schema, int leaf, const Vector& top, LeafBatch* out);

 private:
  struct Entry {
    uint32_t row;   // row in the current vector (active entries)
    int16_t def;    // -1 while active; the final definition level once ended
    int16_t rep;
  };
  Status BuildFlat(const SchemaNode& node, const ColumnDescriptor& col, const Vector& top, LeafBatch* out);
  std::vector<Entry> cur_;
  std::vector<Entry> next_;
  std::vector<int> path_;
};

}  // namespace sluice::parquet
