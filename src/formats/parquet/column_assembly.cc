#include "formats/parquet/column_assembly.h"

#include <cstring>

#include <string>

namespace sluice::parquet {

namespace {

Status AssembleNode(const ReadNode& node, std::vector<Vector>* leaf_values, const std::vector<LeafLevels>& leaf_levels,
                    size_t num_slots, Vector* out);

Status Inconsistent(const char* what) {
  return Status::InvalidArgument(std::string("inconsistent repetition/definition levels: ") + what);
}

// Validity of the node's slots from its leaf's levels; leaves the vector without a validity buffer
// when every slot is valid.
void SetSlotValidity(const ReadNode& node, const LeafLevels& lv, Vector* out) {
  if (node.def_level <= node.slot_def || lv.def.empty()) return;  // required here: never null
  uint8_t* validity = nullptr;
  size_t slot = 0;
  for (size_t i = 0; i < lv.count; ++i) {
    int16_t d = lv.def[i];
    if (lv.rep_at(i) > node.slot_rep || d < node.slot_def) continue;
    if (d < node.def_level) {
      if (validity == nullptr) validity = out->mutable_validity();
      validity[slot] = 0;
    }
    ++slot;
  }
}

Status AssembleList(const ReadNode& node, std::vector<Vector>* leaf_values, const std::vector<LeafLevels>& leaf_levels,
                    size_t num_slots, Vector* out) {
  const LeafLevels& lv = leaf_levels[node.leaf];
  out->Resize(num_slots);
  ListEntry* entries = out->data<ListEntry>();
  size_t slot = 0;
  uint32_t elements = 0;
  for (size_t i = 0; i < lv.count; ++i) {
    int16_t d = lv.def_at(i);
    int16_t r = lv.rep_at(i);
    if (r <= node.slot_rep && d >= node.slot_def) {
      if (slot == num_slots) return Inconsistent("more list slots than the parent has");
      entries[slot++] = ListEntry{elements, 0};
    }
    if (r <= node.elem_rep && d >= node.elem_def && slot > 0) {
      ++entries[slot - 1].length;
      ++elements;
    }
  }
  if (slot != num_slots) return Inconsistent("fewer list slots than the parent has");
  SetSlotValidity(node, lv, out);
  for (size_t c = 0; c < node.children.size(); ++c) {
    RETURN_IF_ERROR(AssembleNode(node.children[c], leaf_values, leaf_levels, elements, &out->child(c)));
  }
  return Status::OK();
}

Status AssembleNode(const ReadNode& node, std::vector<Vector>* leaf_values, const std::vector<LeafLevels>& leaf_levels,
                    size_t num_slots, Vector* out) {
  switch (node.kind) {
    case ReadNode::Kind::kMissing: {
      *out = Vector(node.type, 0);
      out->Resize(num_slots);
      if (num_slots > 0) std::memset(out->mutable_validity(), 0, num_slots);
      return Status::OK();
    }
    case ReadNode::Kind::kLeaf: {
      Vector& v = (*leaf_values)[node.leaf];
      if (v.size() != num_slots) return Inconsistent("a leaf column has more or fewer values than its parent has slots");
      *out = std::move(v);
      return Status::OK();
    }
    case ReadNode::Kind::kRow: {
      for (size_t c = 0; c < node.children.size(); ++c) {
        RETURN_IF_ERROR(AssembleNode(node.children[c], leaf_values, leaf_levels, num_slots, &out->child(c)));
      }
      out->Resize(num_slots);
      if (node.leaf >= 0) SetSlotValidity(node, leaf_levels[node.leaf], out);
      return Status::OK();
    }
    case ReadNode::Kind::kList:
    case ReadNode::Kind::kMap:
      return AssembleList(node, leaf_values, leaf_levels, num_slots, out);
  }
  return Status::OK();
}

}  // namespace

size_t CountSlots(const ReadNode& node, const LeafLevels& lv) {
  if (lv.rep.empty() && lv.def.empty()) return lv.count;
  size_t n = 0;
  for (size_t i = 0; i < lv.count; ++i) {
    if (lv.rep_at(i) <= node.slot_rep && lv.def_at(i) >= node.slot_def) ++n;
  }
  return n;
}

Status AssembleColumn(const ReadNode& node, std::vector<Vector>* leaf_values,
                      const std::vector<LeafLevels>& leaf_levels, size_t num_rows, Vector* out) {
  *out = Vector(node.type, 0);
  return AssembleNode(node, leaf_values, leaf_levels, num_rows, out);
}

}  // namespace sluice::parquet
