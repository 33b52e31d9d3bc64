// Avro schemas: the parsed form of an Avro schema JSON document (records, enums, arrays, maps,
// unions, fixed, primitives, logical types) and its JSON writer.
//
// An AvroSchema owns every node of one schema document; nodes refer to each other by plain pointers
// into that ownership, so a named type used twice (or a record that refers to itself) is one node
// (the JSON writer prints its definition once and its name afterwards).
// Attributes Avro does not define ("field-id", "element-id", "key-id", "value-id", Iceberg's
// logicalType "map", anything else) are kept as raw JSON text in document order and written back
// unchanged, so a schema survives a parse/write round trip with what Iceberg readers look for.
//
// Invariants: a parsed schema is valid (names resolve, unions hold no nested union, fixed sizes and
// decimal precision are in range). Nodes never move while their AvroSchema lives (moving the
// AvroSchema keeps them where they are).
//
// Threading: an AvroSchema is immutable after parsing and may be shared between threads.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/status.h"

namespace sluice {

enum class AvroType : uint8_t {
  kNull, kBoolean, kInt, kLong, kFloat, kDouble, kBytes, kString,
  kRecord, kEnum, kArray, kMap, kUnion, kFixed,
};

// Avro's logical types that Sluice interprets; any other logicalType stays an attribute.
enum class AvroLogicalType : uint8_t {
  kNone, kDecimal, kDate, kTimeMillis, kTimeMicros, kTimestampMillis, kTimestampMicros,
  kTimestampNanos, kLocalTimestampMillis, kLocalTimestampMicros, kUuid,
};

std::string_view AvroTypeName(AvroType type);

// Attribute name -> raw JSON text of its value ("12", "\"map\"", ...).
using AvroAttributes = std::vector<std::pair<std::string, std::string>>;

struct AvroNode;

struct AvroField {
  std::string name;
  const AvroNode* type = nullptr;
  std::string doc;
  // The raw JSON of "default", when the field has one.
  std::optional<std::string> default_json;
  std::vector<std::string> aliases;
  AvroAttributes attributes;

  // Iceberg's "field-id" attribute, when present and an integer.
  std::optional<int32_t> field_id() const;
};

struct AvroNode {
  AvroType type = AvroType::kNull;
  // Named types (record, enum, fixed): the name and namespace as written.
  std::string name;
  std::string name_space;
  std::string doc;
  std::vector<std::string> aliases;
  std::vector<AvroField> fields;            // record
  std::vector<std::string> symbols;         // enum
  std::optional<std::string> enum_default;  // enum
  const AvroNode* items = nullptr;          // array items, map values
  std::vector<const AvroNode*> branches;    // union
  int64_t fixed_size = 0;                   // fixed
  AvroLogicalType logical_type = AvroLogicalType::kNone;
  int32_t precision = 0;  // decimal
  int32_t scale = 0;      // decimal
  // Every attribute of the JSON object besides the structural ones, logicalType, precision and
  // scale included, so the writer reproduces them.
  AvroAttributes attributes;

  // The full name ("ns.name", or "name" without a namespace).
  std::string FullName() const;
  // The raw JSON of an attribute, or nullptr.
  const std::string* Attribute(std::string_view key) const;
  std::optional<int64_t> IntAttribute(std::string_view key) const;
  // Index of the record field named `field_name`, or -1.
  int FieldIndex(std::string_view field_name) const;
  // Index of the null branch of a union, or -1.
  int NullBranch() const;
  bool is_named() const { return type == AvroType::kRecord || type == AvroType::kEnum || type == AvroType::kFixed; }
};

class AvroSchema {
 public:
  AvroSchema() = default;
  AvroSchema(AvroSchema&&) = default;
  AvroSchema& operator=(AvroSchema&&) = default;

  // Parses a schema JSON document; errors name the JSON path of the offending part.
  static Result<AvroSchema> Parse(std::string_view json);

  const AvroNode& root() const { return *root_; }
  // The schema as JSON, compact, attributes in their original order.
  std::string ToJson() const;

 private:
  friend class AvroSchemaParser;
  const AvroNode* root_ = nullptr;
  std::vector<std::unique_ptr<AvroNode>> nodes_;
};


}  // namespace sluice
