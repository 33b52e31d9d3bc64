// Column assembly: turns the definition/repetition levels of Parquet leaf columns into Sluice's
// nested vectors (ROW children, ARRAY/MAP offsets, validity at every level).
//
// A requested column is a tree of ReadNodes mirroring its Sluice type; each node knows the level
// thresholds of the Parquet node it maps to (computed once per file by read_plan.h). For one batch of
// rows, every leaf column has its levels (LeafLevels) and a values vector holding one row per "slot"
// of the leaf: per level entry whose ancestors all exist (def >= the leaf's slot_def), NULL where
// def < the leaf's def_level. Assembly then scans, for each inner node, the levels of one leaf under
// it: an entry starts a slot of the node when rep <= slot_rep and def >= slot_def; the slot is valid
// when def >= def_level; a list/map slot gains one element per entry with rep <= elem_rep and
// def >= elem_def. Every node's slots are the same whichever leaf under it is scanned, which is why
// one leaf per node suffices. The cost is linear in level entries times nesting depth.
//
// Threading: plain functions over caller-owned data.
#pragma once

#include <cstdint>
#include <vector>

#include "common/status.h"
#include "types/logical_type.h"
#include "types/vector.h"

namespace sluice::parquet {

// The levels of one leaf column over one batch of rows. An empty vector means "all zero" (a column
// whose max level is 0 stores none).
struct LeafLevels {
  std::vector<int16_t> def;
  std::vector<int16_t> rep;
  size_t count = 0;  // level entries in the batch

  int16_t def_at(size_t i) const { return def.empty() ? 0 : def[i]; }
  int16_t rep_at(size_t i) const { return rep.empty() ? 0 : rep[i]; }
  void Clear() {
    def.clear();
    rep.clear();
    count = 0;
  }
};

struct ReadNode {
  enum class Kind : uint8_t { kLeaf, kRow, kList, kMap, kMissing };
  Kind kind = Kind::kMissing;
  LogicalType type;  // the requested Sluice type
  // Entries with def >= def_level have this node non-null.
  int16_t def_level = 0;
  // An entry starts a slot of this node when rep <= slot_rep and def >= slot_def.
  int16_t slot_rep = 0;
  int16_t slot_def = 0;
  // kList/kMap: an entry adds an element when rep <= elem_rep and def >= elem_def.
  int16_t elem_rep = 0;
  int16_t elem_def = 0;
  // Index of the leaf (in the reader's leaf list) whose levels this node's slots are counted from;
  // -1 for a missing top-level column (its slots are the batch's rows).
  int leaf = -1;
  // kRow: one per field; kList: the element; kMap: key then value.
  std::vector<ReadNode> children;
};

// Counts the slots of `node` in `levels` (entries starting a slot).
size_t CountSlots(const ReadNode& node, const LeafLevels& levels);

// Builds `out` (of node.type, empty on entry) for one batch. `leaf_values[i]` is leaf i's values
// vector for the batch (moved from, for kLeaf nodes); `leaf_levels[i]` its levels. `num_rows` is the
// batch's row count (the slot count of a missing top-level column). Levels that contradict each
// other (a malformed file) give an error.
[[nodiscard]] Status AssembleColumn(const ReadNode& node, std::vector<Vector>* leaf_values,
                                    const std::vector<LeafLevels>& leaf_levels, size_t num_rows, Vector* out);

}  // namespace sluice::parquet
