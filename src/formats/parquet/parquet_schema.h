// ParquetSchema: a Parquet file's schema tree, tied to Sluice types, with the leaf column
// descriptors the column writers and readers work from.
//
// Two ways in, one representation:
//   - FromSluice: a Sluice Schema (plus optional Iceberg field ids per node) mapped the way the
//     Iceberg spec maps types to Parquet: INTEGER/BIGINT -> INT32/INT64, TINYINT/SMALLINT -> INT32
//     with INTEGER(8/16, signed), FLOAT/DOUBLE, DECIMAL(P,S) -> INT32 (P <= 9), INT64 (P <= 18) or a
//     FIXED_LEN_BYTE_ARRAY of the minimal width, DATE -> INT32 DATE, TIME -> INT64 TIME(MICROS),
//     TIMESTAMP -> INT64 TIMESTAMP(MICROS, isAdjustedToUTC=false), TIMESTAMP_LTZ -> adjusted=true,
//     CHAR/VARCHAR -> BYTE_ARRAY STRING, VARBINARY -> BYTE_ARRAY, BINARY(n) -> FIXED_LEN_BYTE_ARRAY(n)
//     (Iceberg's fixed(n)), ARRAY -> 3-level LIST (`<name> (LIST) { repeated group list { element } }`),
//     MAP -> `(MAP) { repeated group key_value { required key; value } }`, ROW -> a group.
//     Nullable types are OPTIONAL, NOT NULL ones REQUIRED; map keys are always REQUIRED.
//   - FromElements: the flattened SchemaElement list of a file footer, validated, with the LIST and
//     MAP backward-compatibility rules of the Parquet spec (2-level lists, repeated fields without
//     a LIST annotation, legacy MAP_KEY_VALUE) resolved into node roles.
//
// Every node knows its role (primitive, struct, list, map), its maximum definition and repetition
// levels, its Iceberg field id and the Sluice type it reads as; a reader maps a requested Sluice
// schema onto a file by walking the root's children by field id (or by name when the file has no
// ids) and, below lists and maps, through list_element / map_key / map_value.
//
// Threading: immutable after construction.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "formats/parquet/parquet_metadata.h"
#include "types/logical_type.h"
#include "types/schema.h"

namespace sluice::parquet {

// Iceberg field ids for a Sluice type tree, shaped like the type: `children` holds one tree per ROW
// field, the one ARRAY element, or the MAP key and value (in that order); empty children mean "no
// ids below". A missing id writes no field_id.
struct FieldIdTree {
  std::optional<int32_t> id;
  std::vector<FieldIdTree> children;
};

struct SchemaNode {
  enum class Role : uint8_t {
    kPrimitive,  // a leaf column
    kStruct,     // a group read as ROW (the root too)
    kList,       // read as ARRAY: elements are list_element's values
    kMap,        // read as MAP: map_key / map_value
  };

  SchemaElement element;
  int parent = -1;
  std::vector<int> children;  // node indices, in file order
  Role role = Role::kPrimitive;
  // Max definition / repetition level of a value at this node (this node's own OPTIONAL or
  // REPEATED counted).
  int16_t definition_level = 0;
  int16_t repetition_level = 0;
  // kList / kMap: the repeated node whose repetition starts a new element or entry. For a repeated
  // field without a LIST annotation, repeated_node and list_element are the node itself (a list
  // of REQUIRED values of that field's type).
  int repeated_node = -1;
  int list_element = -1;
  int map_key = -1;
  int map_value = -1;
  int leaf_index = -1;       // kPrimitive: index into ParquetSchema::columns()
  LogicalType sluice_type;   // what the node reads as (ROW for the root)
  // Non-empty when no Sluice type represents this node (e.g. an unsigned 64-bit column): reading
  // it must fail with this reason; other columns of the file stay readable.
  std::string unsupported;

  bool optional() const { return element.repetition_type == FieldRepetitionType::OPTIONAL; }
  bool repeated() const { return element.repetition_type == FieldRepetitionType::REPEATED; }
  std::optional<int32_t> field_id() const { return element.field_id; }
};

struct ColumnDescriptor {
  std::vector<std::string> path;  // path_in_schema: names from below the root to the leaf
  Type physical_type = Type::BOOLEAN;
  int32_t type_length = 0;        // FIXED_LEN_BYTE_ARRAY width
  int16_t max_definition_level = 0;
  int16_t max_repetition_level = 0;
  LogicalType sluice_type;        // the leaf's Sluice type (see SchemaNode::sluice_type)
  std::optional<int32_t> field_id;
  int node = -1;                  // index into ParquetSchema::nodes()

  std::string DottedPath() const;
};

class ParquetSchema {
 public:
  // `field_ids` is empty (no ids) or holds one tree per column of `schema`. Types Iceberg cannot
  // store (INTERVAL, MULTISET, NULL) are refused naming the column.
  static Result<ParquetSchema> FromSluice(const Schema& schema, const std::vector<FieldIdTree>& field_ids);
  static Result<ParquetSchema> FromElements(const std::vector<SchemaElement>& elements);

  // nodes()[0] is the root; nodes are in the footer's depth-first order.
  const std::vector<SchemaNode>& nodes() const { return nodes_; }
  const SchemaNode& node(int i) const { return nodes_[i]; }
  const SchemaNode& root() const { return nodes_[0]; }
  const std::vector<ColumnDescriptor>& columns() const { return columns_; }
  // The flattened elements for FileMetaData.schema.
  std::vector<SchemaElement> ToElements() const;
  // The root's fields as a Sluice schema (unsupported nodes keep a NULL type; see `unsupported`).
  Schema ToSluiceSchema() const;
  // A child of a struct node with the given field id (when set and the file has ids) or else name;
  // -1 when none.
  int FindChild(int struct_node, std::optional<int32_t> field_id, std::string_view name) const;
  // Leaf column indices under a node, in column order.
  std::vector<int> LeavesUnder(int node) const;

 private:
  Status Build();
  Status Classify(int node);
  void DeriveType(int node);
  std::vector<SchemaNode> nodes_;
  std::vector<ColumnDescriptor> columns_;
};

// Bytes of the FIXED_LEN_BYTE_ARRAY that stores DECIMAL(precision) two's-complement values (the
// smallest width that holds 10^precision - 1).
int32_t DecimalByteWidth(int precision);

}  // namespace sluice::parquet
