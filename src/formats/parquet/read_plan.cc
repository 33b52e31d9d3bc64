#include "formats/parquet/read_plan.h"

#include <string>

namespace sluice::parquet {

namespace {

using Role = SchemaNode::Role;

const FieldIdTree kNoIds;

const FieldIdTree& ChildIds(const FieldIdTree& ids, size_t i) {
  return i < ids.children.size() ? ids.children[i] : kNoIds;
}

class Planner {
 public:
  Planner(const ParquetSchema& schema, ReadPlan* plan) : schema_(schema), plan_(plan) {}

  // Plans file node `idx` read as `type`, with the slot thresholds its parent gives. `as_element`:
  // the node is the element of a bare repeated field (the list is the same node).
  Result<ReadNode> Plan(int idx, const LogicalType& type, const FieldIdTree& ids, int16_t slot_rep, int16_t slot_def,
                        bool as_element, const std::string& path, bool top = false) {
    const SchemaNode& n = schema_.node(idx);
    ReadNode r;
    r.type = type;
    r.slot_rep = slot_rep;
    r.slot_def = slot_def;
    r.def_level = as_element ? slot_def : n.definition_level;
    Role role = n.role;
    if (as_element) role = n.children.empty() ? Role::kPrimitive : Role::kStruct;
    if (role == Role::kList && n.list_element == idx) {
      // A bare repeated field: a list never null itself, its elements the field's values.
      r.def_level = slot_def;
    }
    switch (role) {
      case Role::kPrimitive: {
        if (type.IsNested()) return Mismatch(path, n, type);
        const ColumnDescriptor& col = schema_.columns()[n.leaf_index];
        auto conv = ChooseConversion(schema_, col, type);
        if (!conv.ok()) return conv.status().WithContext("column '" + path + "'");
        r.kind = ReadNode::Kind::kLeaf;
        r.leaf = AddLeaf(n.leaf_index, std::move(conv).value(), slot_def, !top);
        return r;
      }
      case Role::kStruct: {
        if (type.id() != TypeId::kRow) return Mismatch(path, n, type);
        r.kind = ReadNode::Kind::kRow;
        for (size_t i = 0; i < type.num_children(); ++i) {
          const FieldIdTree& cid = ChildIds(ids, i);
          int c = schema_.FindChild(idx, cid.id, type.field_name(i));
          std::string cpath = path + "." + type.field_name(i);
          ReadNode child;
          if (c < 0) {
            child.kind = ReadNode::Kind::kMissing;
            child.type = type.child(i);
          } else {
            ASSIGN_OR_RETURN(child, Plan(c, type.child(i), cid, slot_rep, slot_def, false, cpath));
          }
          r.children.push_back(std::move(child));
        }
        RETURN_IF_ERROR(ChooseSlotLeaf(idx, &r, path));
        for (ReadNode& child : r.children) {
          if (child.kind == ReadNode::Kind::kMissing) child.leaf = r.leaf;
        }
        return r;
      }
      case Role::kList:
      case Role::kMap: {
        const SchemaNode& rep = schema_.node(n.repeated_node);
        r.elem_rep = rep.repetition_level;
        r.elem_def = rep.definition_level;
        if (role == Role::kList) {
          if (type.id() != TypeId::kArray && type.id() != TypeId::kMultiset) return Mismatch(path, n, type);
          ASSIGN_OR_RETURN(ReadNode element, Plan(n.list_element, type.child(0), ChildIds(ids, 0), r.elem_rep, r.elem_def,
                                                  n.list_element == idx, path + ".element"));
          r.kind = ReadNode::Kind::kList;
          r.leaf = element.leaf;
          r.children.push_back(std::move(element));
        } else {
          if (type.id() != TypeId::kMap) return Mismatch(path, n, type);
          if (n.map_value < 0) return Status::NotSupported("map column '" + path + "' has no value field");
          ASSIGN_OR_RETURN(ReadNode key, Plan(n.map_key, type.child(0), ChildIds(ids, 0), r.elem_rep, r.elem_def, false,
                                              path + ".key"));
          ASSIGN_OR_RETURN(ReadNode value, Plan(n.map_value, type.child(1), ChildIds(ids, 1), r.elem_rep, r.elem_def,
                                                false, path + ".value"));
          r.kind = ReadNode::Kind::kMap;
          r.leaf = key.leaf;
          r.children.push_back(std::move(key));
          r.children.push_back(std::move(value));
        }
        return r;
      }
    }
    return Mismatch(path, n, type);
  }

 private:
  Status Mismatch(const std::string& path, const SchemaNode& n, const LogicalType& type) {
    return Status::InvalidArgument("column '" + path + "': cannot read the file's " + n.sluice_type.ToString() +
                                   " as " + type.ToString());
  }

  int AddLeaf(int column, LeafConversion conv, int16_t slot_def, bool nested) {
    LeafRead leaf;
    leaf.column = column;
    leaf.conv = std::move(conv);
    leaf.slot_def = slot_def;
    leaf.keep_levels = nested;
    plan_->leaves.push_back(std::move(leaf));
    return static_cast<int>(plan_->leaves.size() - 1);
  }

  // A ROW's slots and validity come from a leaf under it: its first present field's, or, when the
  // file has none of the requested fields, a leaf of the file's struct read for its levels only.
  Status ChooseSlotLeaf(int idx, ReadNode* r, const std::string& path) {
    for (const ReadNode& child : r->children) {
      if (child.kind != ReadNode::Kind::kMissing) {
        r->leaf = child.leaf;
        return Status::OK();
      }
    }
    for (int column : schema_.LeavesUnder(idx)) {
      const ColumnDescriptor& col = schema_.columns()[column];
      if (!schema_.node(col.node).unsupported.empty()) continue;
      auto conv = ChooseConversion(schema_, col, col.sluice_type);
      if (!conv.ok()) continue;
      // Only its levels are used (assembly counts the struct's slots from any leaf under it).
      r->leaf = AddLeaf(column, std::move(conv).value(), r->slot_def, true);
      return Status::OK();
    }
    return Status::NotSupported("column '" + path + "': none of the requested fields is in the file");
  }

  const ParquetSchema& schema_;
  ReadPlan* plan_;
};

}  // namespace

Result<ReadPlan> BuildReadPlan(const ParquetSchema& schema, const Schema& requested,
                               const std::vector<FieldIdTree>& field_ids) {
  ReadPlan plan;
  Planner planner(schema, &plan);
  for (size_t i = 0; i < requested.size(); ++i) {
    const Field& f = requested.field(i);
    const FieldIdTree& ids = i < field_ids.size() ? field_ids[i] : kNoIds;
    int c = schema.FindChild(0, ids.id, f.name);
    if (c < 0) {
      ReadNode missing;
      missing.kind = ReadNode::Kind::kMissing;
      missing.type = f.type;
      plan.columns.push_back(std::move(missing));
      continue;
    }
    ASSIGN_OR_RETURN(ReadNode node, planner.Plan(c, f.type, ids, 0, 0, false, f.name, true));
    plan.columns.push_back(std::move(node));
  }
  return plan;
}

}  // namespace sluice::parquet
