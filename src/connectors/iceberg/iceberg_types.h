// The Iceberg type model (the spec's "Schemas and Data Types"): primitive types, nested
// struct/list/map types whose fields, elements, keys and values carry ids and required flags, and a
// table schema (schema-id, fields, identifier-field-ids) with lookup by field id and by name.
//
// Also the bridge to Sluice's Flink types, as Iceberg's Flink connector maps them (FlinkTypeToType,
// TypeToFlinkType): TINYINT/SMALLINT/INT -> int, VARCHAR/CHAR -> string, BINARY(n) -> fixed(n),
// VARBINARY -> binary, TIMESTAMP(p) -> timestamp, TIMESTAMP_LTZ(p) -> timestamptz, ARRAY/MAP/ROW ->
// list/map/struct; a NOT NULL type is a required field. New tables get fresh field ids the way
// Iceberg's TypeUtil.assignFreshIds numbers them: the fields of a struct first (1..n at the top
// level), then each field's nested type in order; a list numbers its element, a map its key and value,
// before descending into them.
//
// Types are immutable values; nested children are shared through shared_ptr, so copies are cheap.
// An IcebergSchema indexes its fields once when built. Threading: immutable, safe to share.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "common/status.h"
#include "types/logical_type.h"
#include "types/schema.h"

namespace sluice {

enum class IcebergTypeId : uint8_t {
  kBoolean,
  kInt,
  kLong,
  kFloat,
  kDouble,
  kDecimal,
  kDate,
  kTime,           // microseconds of the day
  kTimestamp,      // microseconds since the epoch, no zone
  kTimestampTz,    // microseconds since the epoch, UTC
  kTimestampNs,    // nanoseconds since the epoch, no zone (v3)
  kTimestampTzNs,  // nanoseconds since the epoch, UTC (v3)
  kString,
  kUuid,
  kFixed,
  kBinary,
  kStruct,
  kList,
  kMap,
};

struct IcebergField;

class IcebergType {
 public:
  IcebergType() = default;  // boolean; use the factories
  static IcebergType Primitive(IcebergTypeId id);  // not for decimal/fixed/nested
  static IcebergType Decimal(int precision, int scale);
  static IcebergType Fixed(int32_t length);
  static IcebergType Struct(std::vector<IcebergField> fields);
  static IcebergType List(int32_t element_id, bool element_required, IcebergType element);
  static IcebergType Map(int32_t key_id, IcebergType key, int32_t value_id, bool value_required, IcebergType value);

  // Parses a primitive type's spelling: "long", "decimal(10, 2)", "fixed[16]", "timestamptz".
  // The spec's newer types unknown, variant, geometry and geography are refused by name.
  static Result<IcebergType> ParsePrimitive(std::string_view text);

  IcebergTypeId id() const { return id_; }
  bool IsPrimitive() const { return id_ < IcebergTypeId::kStruct; }
  bool IsNested() const { return !IsPrimitive(); }
  int precision() const { return precision_; }
  int scale() const { return scale_; }
  int32_t length() const { return precision_; }  // fixed(L)

  // struct
  const std::vector<IcebergField>& fields() const;
  // list
  int32_t element_id() const { return id_a_; }
  bool element_required() const { return required_; }
  const IcebergType& element() const;
  // map
  int32_t key_id() const { return id_a_; }
  int32_t value_id() const { return id_b_; }
  bool value_required() const { return required_; }
  const IcebergType& key() const;
  const IcebergType& value() const;

  // The spec's spelling for primitives ("decimal(10, 2)", "fixed[16]"); nested types print as
  // "struct<1: a: required int, ...>", "list<string>", "map<string, long>" (for messages only).
  std::string ToString() const;

  // Structural equality including ids and required flags.
  bool operator==(const IcebergType& other) const;
  bool operator!=(const IcebergType& other) const { return !(*this == other); }

 private:
  struct Nested;
  IcebergTypeId id_ = IcebergTypeId::kBoolean;
  int precision_ = 0;
  int scale_ = 0;
  int32_t id_a_ = 0;
  int32_t id_b_ = 0;
  bool required_ = false;
  std::shared_ptr<const Nested> nested_;
};

// A struct field (or a schema's column).
struct IcebergField {
  IcebergField() = default;
  IcebergField(int32_t id, std::string name, bool required, IcebergType type, std::string doc = {})
      : id(id), name(std::move(name)), required(required), type(std::move(type)), doc(std::move(doc)) {}

  int32_t id = 0;
  std::string name;
  bool required = false;
  IcebergType type;
  std::string doc;  // empty when absent
  // v3 default values in their JSON single-value form (IcebergLiteral::ToJson), kept as text so a
  // schema read from metadata is written back unchanged; empty when absent.
  std::string initial_default_json;
  std::string write_default_json;

  bool operator==(const IcebergField& other) const {
    return id == other.id && name == other.name && required == other.required && type == other.type &&
           doc == other.doc && initial_default_json == other.initial_default_json &&
           write_default_json == other.write_default_json;
  }
};

// A table schema. Names of nested fields are dotted from the top ("location.lat"); a list's element
// is "<list>.element", a map's key and value "<map>.key" and "<map>.value", as Iceberg's name index.
class IcebergSchema {
 public:
  IcebergSchema();
  IcebergSchema(int32_t schema_id, std::vector<IcebergField> fields, std::vector<int32_t> identifier_field_ids = {});

  int32_t schema_id() const { return schema_id_; }
  const std::vector<IcebergField>& fields() const { return state_->fields; }
  const std::vector<int32_t>& identifier_field_ids() const { return identifier_field_ids_; }
  IcebergType AsStruct() const { return IcebergType::Struct(state_->fields); }

  // The field with this id at any depth (list elements and map keys/values are returned as fields
  // named "element", "key", "value"), or null.
  const IcebergField* FindField(int32_t id) const;
  // The field with this dotted name, or null.
  const IcebergField* FindField(std::string_view name) const;
  // The dotted name of a field id; empty when unknown.
  std::string FindName(int32_t id) const;
  // The highest field id used anywhere in the schema (0 for an empty schema): a table's last-column-id.
  int32_t HighestFieldId() const { return state_->highest_id; }

  // Same fields and identifier ids (the schema id is not compared), as Iceberg's sameSchema.
  bool SameSchema(const IcebergSchema& other) const;
  std::string ToString() const;

 private:
  struct State {
    std::vector<IcebergField> fields;
    // Synthesized fields for list elements and map keys/values, owned here so FindField can return them.
    std::vector<std::unique_ptr<IcebergField>> synthetic;
    std::unordered_map<int32_t, const IcebergField*> by_id;
    std::unordered_map<std::string, int32_t> by_name;
    std::unordered_map<int32_t, std::string> name_of;
    int32_t highest_id = 0;
  };
  void Index(const IcebergType& type, const std::string& prefix, State* state);
  int32_t schema_id_ = 0;
  std::vector<int32_t> identifier_field_ids_;
  std::shared_ptr<const State> state_;
};

// Sluice (Flink) types -> Iceberg with fresh ids (TypeUtil.assignFreshIds order, starting at 1).
// MULTISET, INTERVAL and NULL columns are refused, naming the column. `identifier_columns` (a
// PRIMARY KEY's columns) become identifier-field-ids; they must be top-level and NOT NULL.
[[nodiscard]] Result<IcebergSchema> ToIcebergSchema(const Schema& schema,
                                                    const std::vector<std::string>& identifier_columns = {},
                                                    int32_t schema_id = 0);
// One Flink type with fresh ids taken from `*next_id` (which is advanced).
[[nodiscard]] Result<IcebergType> ToIcebergType(const LogicalType& type, int32_t* next_id);

// The same schema with fresh ids (TypeUtil.assignFreshIds order, from 1) and the given schema id;
// identifier fields follow their columns.
[[nodiscard]] Result<IcebergSchema> AssignFreshIds(const IcebergSchema& schema, int32_t schema_id);

// Iceberg -> Sluice types, as TypeToFlinkType: int -> INT, long -> BIGINT, time -> TIME,
// timestamp -> TIMESTAMP(6), timestamptz -> TIMESTAMP_LTZ(6), the _ns variants -> precision 9,
// uuid -> BINARY(16), fixed(L) -> BINARY(L), binary -> BYTES; required -> NOT NULL.
LogicalType ToLogicalType(const IcebergType& type, bool required);
Schema ToSluiceSchema(const IcebergSchema& schema);

}  // namespace sluice
