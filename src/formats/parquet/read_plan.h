// ReadPlan: a requested Sluice schema mapped onto a Parquet file's schema, once per file.
//
// Requested columns (and ROW fields below them) are found by Iceberg field id when the requested
// side gives one and the file has ids, else by name (ParquetSchema::FindChild); lists and maps
// descend through their element / key / value whatever the file's list layout (3-level, 2-level,
// parquet-mr's `array`/`bag`, bare repeated fields). A requested column or field the file lacks
// reads as NULL (schema evolution). The result is one ReadNode tree per requested column
// (column_assembly.h) and the leaf columns to read, each with its conversion (leaf_conversion.h).
//
// Threading: plain values.
#pragma once

#include <vector>

#include "common/status.h"
#include "formats/parquet/column_assembly.h"
#include "formats/parquet/leaf_conversion.h"
#include "formats/parquet/parquet_schema.h"
#include "types/schema.h"

namespace sluice::parquet {

struct LeafRead {
  int column = -1;  // index into ParquetSchema::columns()
  LeafConversion conv;
  int16_t slot_def = 0;
  // Whether the leaf's levels are needed (it sits under a ROW, ARRAY or MAP).
  bool keep_levels = false;
};

struct ReadPlan {
  std::vector<ReadNode> columns;  // one per requested column
  std::vector<LeafRead> leaves;   // ReadNode::leaf indexes these
};

// `field_ids` is empty (match by name) or has one tree per requested column. Type mismatches are
// errors naming the column path.
Result<ReadPlan> BuildReadPlan(const ParquetSchema& schema, const Schema& requested,
                               const std::vector<FieldIdTree>& field_ids);

}  // namespace sluice::parquet
