#include "formats/parquet/level_builder.h"

#include <algorithm>

#include "common/check.h"

namespace sluice::parquet {
namespace {

Status NullInRequired(const ColumnDescriptor& col, const SchemaNode& node) {
  return Status::InvalidArgument("Parquet column '" + col.DottedPath() + "': NULL in '" + node.element.name +
                                 "', which is " + (node.repeated() ? "a map key" : "NOT NULL"));
}

}  // namespace

Status LevelBuilder::BuildFlat(const SchemaNode& node, const ColumnDescriptor& col, const Vector& top,
                               LeafBatch* out) {
  const size_t n = top.size();
  out->values = &top;
  out->num_levels = n;
  out->rep_levels.clear();
  out->positions.clear();
  const uint8_t* validity = top.validity();
  if (col.max_definition_level == 0) {
    out->def_levels.clear();
    if (validity != nullptr && std::find(validity, validity + n, 0) != validity + n) {
      return NullInRequired(col, node);
    }
    out->dense = true;
    out->num_values = n;
    return Status::OK();
  }
  if (validity == nullptr) {
    out->def_levels.clear();  // every level is 1
    out->dense = true;
    out->num_values = n;
    return Status::OK();
  }
  out->def_levels.resize(n);
  int16_t* def = out->def_levels.data();
  size_t valid = 0;
  for (size_t i = 0; i < n; ++i) {
    def[i] = validity[i] != 0;
    valid += validity[i] != 0;
  }
  out->num_values = valid;
  out->dense = valid == n;
  if (!out->dense) {
    // One spare slot: the branch-free loop stores every row and advances past valid ones only.
    out->positions.resize(valid + 1);
    uint32_t* pos = out->positions.data();
    size_t k = 0;
    for (size_t i = 0; i < n; ++i) {
      pos[k] = static_cast<uint32_t>(i);
      k += validity[i] != 0;
    }
    out->positions.resize(valid);
  }
  return Status::OK();
}

Status LevelBuilder::Build(const ParquetSchema& schema, int leaf, const Vector& top, LeafBatch* out) {
  const ColumnDescriptor& col = schema.columns()[leaf];
  path_.clear();
  for (int k = col.node; k > 0; k = schema.node(k).parent) path_.push_back(k);
  std::reverse(path_.begin(), path_.end());
  if (path_.size() == 1) return BuildFlat(schema.node(path_[0]), col, top, out);

  cur_.resize(top.size());
  for (size_t i = 0; i < top.size(); ++i) cur_[i] = Entry{static_cast<uint32_t>(i), -1, 0};
  const Vector* v = &top;
  size_t step = 0;
  while (true) {
    const SchemaNode& node = schema.node(path_[step]);
    // Nulls end entries at this node's level minus one (or are refused when it is REQUIRED).
    if (v->MayHaveNulls()) {
      const bool optional = node.optional();
      for (Entry& e : cur_) {
        if (e.def < 0 && v->IsNull(e.row)) {
          if (!optional) return NullInRequired(col, node);
          e.def = static_cast<int16_t>(node.definition_level - 1);
        }
      }
    }
    if (node.role == SchemaNode::Role::kPrimitive) break;
    if (node.role == SchemaNode::Role::kStruct) {
      int child = path_[step + 1];
      size_t k = std::find(node.children.begin(), node.children.end(), child) - node.children.begin();
      v = &v->child(k);
      ++step;
      continue;
    }
    // A list or map: expand each active entry into its elements.
    const SchemaNode& rep = schema.node(node.repeated_node);
    SLUICE_CHECK(path_[step + 1] == node.repeated_node);
    next_.clear();
    const auto empty_def = static_cast<int16_t>(rep.definition_level - 1);
    for (const Entry& e : cur_) {
      if (e.def >= 0) {
        next_.push_back(e);
        continue;
      }
      const ListEntry& le = v->list_entry(e.row);
      if (le.length == 0) {
        next_.push_back(Entry{0, empty_def, e.rep});
        continue;
      }
      next_.push_back(Entry{le.offset, -1, e.rep});
      for (uint32_t j = 1; j < le.length; ++j) next_.push_back(Entry{le.offset + j, -1, rep.repetition_level});
    }
    cur_.swap(next_);
    // Below the repeated group: the list element, or the map key (child 0) or value (child 1).
    int below = path_[step + 2];
    size_t k = node.role == SchemaNode::Role::kMap && below == node.map_value ? 1 : 0;
    v = &v->child(k);
    step += 2;
  }

  out->values = v;
  out->num_levels = cur_.size();
  out->dense = false;
  out->positions.clear();
  out->def_levels.resize(col.max_definition_level > 0 ? cur_.size() : 0);
  out->rep_levels.resize(col.max_repetition_level > 0 ? cur_.size() : 0);
  const int16_t max_def = col.max_definition_level;
  for (size_t i = 0; i < cur_.size(); ++i) {
    const Entry& e = cur_[i];
    int16_t d = e.def < 0 ? max_def : e.def;
    if (max_def > 0) out->def_levels[i] = d;
    if (col.max_repetition_level > 0) out->rep_levels[i] = e.rep;
    if (e.def < 0) out->positions.push_back(e.row);
  }
  out->num_values = out->positions.size();
  return Status::OK();
}

}  // namespace sluice::parquet
