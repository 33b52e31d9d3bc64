// JSON forms of Iceberg schemas, partition specs and sort orders (the spec's Appendix C), shared by
// table metadata files, manifest headers ("schema", "partition-spec") and a REST catalog client.
//
// Writing goes through JsonWriter, a small streaming writer with two-space indentation (the files are
// read by people too). Reading uses simdjson's DOM: metadata files are small and read once.
//
// Threading: pure functions; a JsonWriter belongs to one caller.
#pragma once

#include <simdjson.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "connectors/iceberg/iceberg_types.h"
#include "connectors/iceberg/partition_spec.h"

namespace sluice {

class JsonWriter {
 public:
  explicit JsonWriter(bool pretty = true) : pretty_(pretty) {}
  void BeginObject();
  void EndObject();
  void BeginArray();
  void EndArray();
  // The key of the next value inside an object.
  void Key(std::string_view key);
  void String(std::string_view v);
  void Int(int64_t v);
  void Bool(bool v);
  void Null();
  // Already-serialized JSON text, inserted as one value.
  void Raw(std::string_view json);
  // Shorthands for a key and its value.
  void Field(std::string_view key, std::string_view v) { Key(key); String(v); }
  void Field(std::string_view key, const char* v) { Key(key); String(v); }
  void Field(std::string_view key, int64_t v) { Key(key); Int(v); }
  void Field(std::string_view key, int32_t v) { Key(key); Int(v); }
  void Field(std::string_view key, bool v) { Key(key); Bool(v); }

  const std::string& str() const { return out_; }
  std::string Take() { return std::move(out_); }

 private:
  void BeforeValue();
  void Newline();
  bool pretty_;
  std::string out_;
  // Per open container: whether it has a value yet.
  std::vector<bool> has_value_;
  bool after_key_ = false;
};

void WriteTypeJson(const IcebergType& type, JsonWriter* w);
void WriteSchemaJson(const IcebergSchema& schema, JsonWriter* w);
// The full spec object {"spec-id", "fields"}; WritePartitionFieldsJson writes only the list (the
// v1 "partition-spec" field and manifests' "partition-spec" header).
void WritePartitionSpecJson(const PartitionSpec& spec, JsonWriter* w);
void WritePartitionFieldsJson(const PartitionSpec& spec, JsonWriter* w);
void WriteSortOrderJson(const SortOrder& order, JsonWriter* w);

// Compact JSON text of each, as manifest headers store them.
std::string SchemaToJson(const IcebergSchema& schema);
std::string PartitionSpecToJson(const PartitionSpec& spec);
std::string PartitionFieldsToJson(const PartitionSpec& spec);

// DOM readers. Errors name the part that is malformed ("schema field 3: missing 'name'").
[[nodiscard]] Result<IcebergType> ParseTypeJson(simdjson::dom::element e);
[[nodiscard]] Result<IcebergSchema> ParseSchemaJson(simdjson::dom::element e);
// Reads a full spec object, or (`e` an array) a v1 field list given its spec id; a v1 field without
// "field-id" gets 1000 + its position, as the reference implementation assigned them.
[[nodiscard]] Result<PartitionSpec> ParsePartitionSpecJson(simdjson::dom::element e, int32_t spec_id_if_list = 0);
[[nodiscard]] Result<SortOrder> ParseSortOrderJson(simdjson::dom::element e);

// Text entry points (manifest headers).
[[nodiscard]] Result<IcebergSchema> SchemaFromJson(std::string_view json);
[[nodiscard]] Result<PartitionSpec> PartitionSpecFromJson(std::string_view json, int32_t spec_id_if_list = 0);

// Small DOM accessors with Iceberg-style messages ("Cannot parse missing int: last-column-id").
[[nodiscard]] Result<int64_t> JsonGetLong(simdjson::dom::object o, std::string_view key);
[[nodiscard]] Result<int32_t> JsonGetInt(simdjson::dom::object o, std::string_view key);
[[nodiscard]] Result<std::string> JsonGetString(simdjson::dom::object o, std::string_view key);
[[nodiscard]] Result<bool> JsonGetBool(simdjson::dom::object o, std::string_view key);
// Whether `key` is present and not null.
bool JsonHas(simdjson::dom::object o, std::string_view key);

}  // namespace sluice
