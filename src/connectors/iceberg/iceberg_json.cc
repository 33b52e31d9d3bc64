#include "connectors/iceberg/iceberg_json.h"

#include "formats/json/json_format.h"

namespace sluice {

namespace dom = simdjson::dom;

// ---------------------------------------------------------------------------------------------
// JsonWriter

void JsonWriter::Newline() {
  if (!pretty_) return;
  out_.push_back('\n');
  out_.append(2 * has_value_.size(), ' ');
}

void JsonWriter::BeforeValue() {
  if (after_key_) {
    after_key_ = false;
    return;
  }
  if (!has_value_.empty()) {
    if (has_value_.back()) out_.push_back(',');
    has_value_.back() = true;
    Newline();
  }
}

void JsonWriter::BeginObject() {
  BeforeValue();
  out_.push_back('{');
  has_value_.push_back(false);
}

void JsonWriter::EndObject() {
  bool had = has_value_.back();
  has_value_.pop_back();
  if (had) Newline();
  out_.push_back('}');
}

void JsonWriter::BeginArray() {
  BeforeValue();
  out_.push_back('[');
  has_value_.push_back(false);
}

void JsonWriter::EndArray() {
  bool had = has_value_.back();
  has_value_.pop_back();
  if (had) Newline();
  out_.push_back(']');
}

void JsonWriter::Key(std::string_view key) {
  BeforeValue();
  AppendJsonString(key, &out_);
  out_ += pretty_ ? " : " : ":";
  after_key_ = true;
}

void JsonWriter::String(std::string_view v) {
  BeforeValue();
  AppendJsonString(v, &out_);
}

void JsonWriter::Int(int64_t v) {
  BeforeValue();
  out_ += std::to_string(v);
}

void JsonWriter::Bool(bool v) {
  BeforeValue();
  out_ += v ? "true" : "false";
}

void JsonWriter::Null() {
  BeforeValue();
  out_ += "null";
}

void JsonWriter::Raw(std::string_view json) {
  BeforeValue();
  out_ += json;
}

// ---------------------------------------------------------------------------------------------
// Writing

namespace {

void WriteFieldsJson(const std::vector<IcebergField>& fields, JsonWriter* w) {
  w->BeginArray();
  for (const IcebergField& f : fields) {
    w->BeginObject();
    w->Field("id", f.id);
    w->Field("name", f.name);
    w->Field("required", f.required);
    w->Key("type");
    WriteTypeJson(f.type, w);
    if (!f.doc.empty()) w->Field("doc", f.doc);
    if (!f.initial_default_json.empty()) {
      w->Key("initial-default");
      w->Raw(f.initial_default_json);
    }
    if (!f.write_default_json.empty()) {
      w->Key("write-default");
      w->Raw(f.write_default_json);
    }
    w->EndObject();
  }
  w->EndArray();
}

}  // namespace

void WriteTypeJson(const IcebergType& type, JsonWriter* w) {
  switch (type.id()) {
    case IcebergTypeId::kStruct:
      w->BeginObject();
      w->Field("type", "struct");
      w->Key("fields");
      WriteFieldsJson(type.fields(), w);
      w->EndObject();
      break;
    case IcebergTypeId::kList:
      w->BeginObject();
      w->Field("type", "list");
      w->Field("element-id", type.element_id());
      w->Key("element");
      WriteTypeJson(type.element(), w);
      w->Field("element-required", type.element_required());
      w->EndObject();
      break;
    case IcebergTypeId::kMap:
      w->BeginObject();
      w->Field("type", "map");
      w->Field("key-id", type.key_id());
      w->Key("key");
      WriteTypeJson(type.key(), w);
      w->Field("value-id", type.value_id());
      w->Key("value");
      WriteTypeJson(type.value(), w);
      w->Field("value-required", type.value_required());
      w->EndObject();
      break;
    default:  // Java's spellings, "decimal(10, 2)" with the space
      w->String(type.ToString());
      break;
  }
}

void WriteSchemaJson(const IcebergSchema& schema, JsonWriter* w) {
  // The struct's fields with "schema-id" and "identifier-field-ids" added, in Java's order.
  w->BeginObject();
  w->Field("type", "struct");
  w->Field("schema-id", schema.schema_id());
  if (!schema.identifier_field_ids().empty()) {
    w->Key("identifier-field-ids");
    w->BeginArray();
    for (int32_t id : schema.identifier_field_ids()) w->Int(id);
    w->EndArray();
  }
  w->Key("fields");
  WriteFieldsJson(schema.fields(), w);
  w->EndObject();
}

void WritePartitionFieldsJson(const PartitionSpec& spec, JsonWriter* w) {
  w->BeginArray();
  for (const PartitionField& f : spec.fields()) {
    w->BeginObject();
    w->Field("name", f.name);
    w->Field("transform", f.transform.ToString());
    w->Field("source-id", f.source_id);
    w->Field("field-id", f.field_id);
    w->EndObject();
  }
  w->EndArray();
}

void WritePartitionSpecJson(const PartitionSpec& spec, JsonWriter* w) {
  w->BeginObject();
  w->Field("spec-id", spec.spec_id());
  w->Key("fields");
  WritePartitionFieldsJson(spec, w);
  w->EndObject();
}

void WriteSortOrderJson(const SortOrder& order, JsonWriter* w) {
  w->BeginObject();
  w->Field("order-id", order.order_id);
  w->Key("fields");
  w->BeginArray();
  for (const SortField& f : order.fields) {
    w->BeginObject();
    w->Field("transform", f.transform.ToString());
    w->Field("source-id", f.source_id);
    w->Field("direction", f.direction == SortDirection::kAsc ? "asc" : "desc");
    w->Field("null-order", f.null_order == NullOrder::kNullsFirst ? "nulls-first" : "nulls-last");
    w->EndObject();
  }
  w->EndArray();
  w->EndObject();
}

std::string SchemaToJson(const IcebergSchema& schema) {
  JsonWriter w(false);
  WriteSchemaJson(schema, &w);
  return w.Take();
}

std::string PartitionSpecToJson(const PartitionSpec& spec) {
  JsonWriter w(false);
  WritePartitionSpecJson(spec, &w);
  return w.Take();
}

std::string PartitionFieldsToJson(const PartitionSpec& spec) {
  JsonWriter w(false);
  WritePartitionFieldsJson(spec, &w);
  return w.Take();
}

// ---------------------------------------------------------------------------------------------
// Reading

bool JsonHas(dom::object o, std::string_view key) {
  dom::element e;
  return o.at_key(key).get(e) == simdjson::SUCCESS && !e.is_null();
}

Result<int64_t> JsonGetLong(dom::object o, std::string_view key) {
  dom::element e;
  if (o.at_key(key).get(e) != simdjson::SUCCESS || e.is_null()) {
    return Status::InvalidArgument("Cannot parse missing long: " + std::string(key));
  }
  int64_t v;
  if (e.get_int64().get(v) != simdjson::SUCCESS) {
    return Status::InvalidArgument("Cannot parse to a long value: " + std::string(key) + ": " +
                                   simdjson::to_string(e));
  }
  return v;
}

Result<int32_t> JsonGetInt(dom::object o, std::string_view key) {
  dom::element e;
  if (o.at_key(key).get(e) != simdjson::SUCCESS || e.is_null()) {
    return Status::InvalidArgument("Cannot parse missing int: " + std::string(key));
  }
  int64_t v;
  if (e.get_int64().get(v) != simdjson::SUCCESS || v < INT32_MIN || v > INT32_MAX) {
    return Status::InvalidArgument("Cannot parse to an integer value: " + std::string(key) + ": " +
                                   simdjson::to_string(e));
  }
  return static_cast<int32_t>(v);
}

Result<std::string> JsonGetString(dom::object o, std::string_view key) {
  dom::element e;
  if (o.at_key(key).get(e) != simdjson::SUCCESS || e.is_null()) {
    return Status::InvalidArgument("Cannot parse missing string: " + std::string(key));
  }
  std::string_view v;
  if (e.get_string().get(v) != simdjson::SUCCESS) {
    return Status::InvalidArgument("Cannot parse to a string value: " + std::string(key) + ": " +
                                   simdjson::to_string(e));
  }
  return std::string(v);
}

Result<bool> JsonGetBool(dom::object o, std::string_view key) {
  dom::element e;
  if (o.at_key(key).get(e) != simdjson::SUCCESS || e.is_null()) {
    return Status::InvalidArgument("Cannot parse missing boolean: " + std::string(key));
  }
  bool v;
  if (e.get_bool().get(v) != simdjson::SUCCESS) {
    return Status::InvalidArgument("Cannot parse to a boolean value: " + std::string(key) + ": " +
                                   simdjson::to_string(e));
  }
  return v;
}

namespace {

Result<IcebergField> ParseStructField(dom::element e) {
  dom::object o;
  if (e.get_object().get(o) != simdjson::SUCCESS) {
    return Status::InvalidArgument("a struct field must be a JSON object: " + simdjson::to_string(e));
  }
  IcebergField f;
  ASSIGN_OR_RETURN(f.id, JsonGetInt(o, "id"));
  ASSIGN_OR_RETURN(f.name, JsonGetString(o, "name"));
  ASSIGN_OR_RETURN(f.required, JsonGetBool(o, "required"));
  dom::element type;
  if (o.at_key("type").get(type) != simdjson::SUCCESS) {
    return Status::InvalidArgument("field '" + f.name + "': Cannot parse missing field: type");
  }
  auto parsed = ParseTypeJson(type);
  if (!parsed.ok()) return parsed.status().WithContext("field '" + f.name + "'");
  f.type = std::move(parsed).value();
  if (JsonHas(o, "doc")) {
    ASSIGN_OR_RETURN(f.doc, JsonGetString(o, "doc"));
  }
  dom::element d;
  if (o.at_key("initial-default").get(d) == simdjson::SUCCESS && !d.is_null()) {
    f.initial_default_json = simdjson::minify(d);
  }
  if (o.at_key("write-default").get(d) == simdjson::SUCCESS && !d.is_null()) {
    f.write_default_json = simdjson::minify(d);
  }
  return f;
}

Result<std::vector<IcebergField>> ParseStructFields(dom::object o) {
  dom::array arr;
  if (o["fields"].get_array().get(arr) != simdjson::SUCCESS) {
    return Status::InvalidArgument("Cannot parse struct fields from non-array: fields");
  }
  std::vector<IcebergField> fields;
  for (dom::element fe : arr) {
    ASSIGN_OR_RETURN(IcebergField f, ParseStructField(fe));
    fields.push_back(std::move(f));
  }
  return fields;
}

}  // namespace

Result<IcebergType> ParseTypeJson(dom::element e) {
  std::string_view s;
  if (e.get_string().get(s) == simdjson::SUCCESS) return IcebergType::ParsePrimitive(s);
  dom::object o;
  if (e.get_object().get(o) != simdjson::SUCCESS) {
    return Status::InvalidArgument("Cannot parse type from json: " + simdjson::to_string(e));
  }
  ASSIGN_OR_RETURN(std::string kind, JsonGetString(o, "type"));
  if (kind == "struct") {
    ASSIGN_OR_RETURN(std::vector<IcebergField> fields, ParseStructFields(o));
    return IcebergType::Struct(std::move(fields));
  }
  if (kind == "list") {
    ASSIGN_OR_RETURN(int32_t element_id, JsonGetInt(o, "element-id"));
    ASSIGN_OR_RETURN(bool required, JsonGetBool(o, "element-required"));
    dom::element element;
    if (o.at_key("element").get(element) != simdjson::SUCCESS) {
      return Status::InvalidArgument("Cannot parse missing field: element");
    }
    ASSIGN_OR_RETURN(IcebergType element_type, ParseTypeJson(element));
    return IcebergType::List(element_id, required, std::move(element_type));
  }
  if (kind == "map") {
    ASSIGN_OR_RETURN(int32_t key_id, JsonGetInt(o, "key-id"));
    ASSIGN_OR_RETURN(int32_t value_id, JsonGetInt(o, "value-id"));
    ASSIGN_OR_RETURN(bool required, JsonGetBool(o, "value-required"));
    dom::element key, value;
    if (o.at_key("key").get(key) != simdjson::SUCCESS || o.at_key("value").get(value) != simdjson::SUCCESS) {
      return Status::InvalidArgument("Cannot parse missing field: key or value of a map");
    }
    ASSIGN_OR_RETURN(IcebergType key_type, ParseTypeJson(key));
    ASSIGN_OR_RETURN(IcebergType value_type, ParseTypeJson(value));
    return IcebergType::Map(key_id, std::move(key_type), value_id, required, std::move(value_type));
  }
  return Status::InvalidArgument("Cannot parse type from json: unknown nested type '" + kind + "'");
}

Result<IcebergSchema> ParseSchemaJson(dom::element e) {
  dom::object o;
  if (e.get_object().get(o) != simdjson::SUCCESS) {
    return Status::InvalidArgument("Cannot parse schema from non-object: " + simdjson::to_string(e));
  }
  ASSIGN_OR_RETURN(std::string kind, JsonGetString(o, "type"));
  if (kind != "struct") return Status::InvalidArgument("Cannot parse type from json when there is no struct: " + kind);
  int32_t schema_id = 0;
  if (JsonHas(o, "schema-id")) {
    ASSIGN_OR_RETURN(schema_id, JsonGetInt(o, "schema-id"));
  }
  std::vector<int32_t> identifier_ids;
  dom::array ids;
  if (o["identifier-field-ids"].get_array().get(ids) == simdjson::SUCCESS) {
    for (dom::element id : ids) {
      int64_t v;
      if (id.get_int64().get(v) != simdjson::SUCCESS) {
        return Status::InvalidArgument("Cannot parse identifier-field-ids: " + simdjson::to_string(id));
      }
      identifier_ids.push_back(static_cast<int32_t>(v));
    }
  }
  auto fields = ParseStructFields(o);
  if (!fields.ok()) return fields.status().WithContext("schema " + std::to_string(schema_id));
  IcebergSchema schema(schema_id, std::move(fields).value(), std::move(identifier_ids));
  for (int32_t id : schema.identifier_field_ids()) {
    if (schema.FindField(id) == nullptr) {
      return Status::InvalidArgument("schema " + std::to_string(schema_id) + ": identifier field id " +
                                     std::to_string(id) + " is not a field of the schema");
    }
  }
  return schema;
}

Result<PartitionSpec> ParsePartitionSpecJson(dom::element e, int32_t spec_id_if_list) {
  dom::array arr;
  int32_t spec_id = spec_id_if_list;
  dom::object o;
  if (e.get_object().get(o) == simdjson::SUCCESS) {
    ASSIGN_OR_RETURN(spec_id, JsonGetInt(o, "spec-id"));
    if (o["fields"].get_array().get(arr) != simdjson::SUCCESS) {
      return Status::InvalidArgument("Cannot parse partition spec fields, not an array: fields");
    }
  } else if (e.get_array().get(arr) != simdjson::SUCCESS) {
    return Status::InvalidArgument("Cannot parse partition spec: " + simdjson::to_string(e));
  }
  std::vector<PartitionField> fields;
  int32_t position = 0;
  for (dom::element fe : arr) {
    dom::object fo;
    if (fe.get_object().get(fo) != simdjson::SUCCESS) {
      return Status::InvalidArgument("Cannot parse partition field, not an object: " + simdjson::to_string(fe));
    }
    PartitionField f;
    ASSIGN_OR_RETURN(f.name, JsonGetString(fo, "name"));
    ASSIGN_OR_RETURN(std::string transform, JsonGetString(fo, "transform"));
    ASSIGN_OR_RETURN(f.transform, Transform::Parse(transform));
    if (JsonHas(fo, "source-id")) {
      ASSIGN_OR_RETURN(f.source_id, JsonGetInt(fo, "source-id"));
    } else {
      dom::array ids;
      int64_t first;
      if (fo["source-ids"].get_array().get(ids) != simdjson::SUCCESS || ids.size() != 1 ||
          ids.at(0).get_int64().get(first) != simdjson::SUCCESS) {
        return Status::NotSupported("partition field '" + f.name +
                                    "': multi-argument transforms (source-ids) are not supported");
      }
      f.source_id = static_cast<int32_t>(first);
    }
    if (JsonHas(fo, "field-id")) {
      ASSIGN_OR_RETURN(f.field_id, JsonGetInt(fo, "field-id"));
    } else {
      f.field_id = PartitionSpec::kFirstFieldId + position;
    }
    ++position;
    fields.push_back(std::move(f));
  }
  return PartitionSpec(spec_id, std::move(fields));
}

Result<SortOrder> ParseSortOrderJson(dom::element e) {
  dom::object o;
  if (e.get_object().get(o) != simdjson::SUCCESS) {
    return Status::InvalidArgument("Cannot parse sort order from non-object: " + simdjson::to_string(e));
  }
  SortOrder order;
  ASSIGN_OR_RETURN(order.order_id, JsonGetInt(o, "order-id"));
  dom::array arr;
  if (o["fields"].get_array().get(arr) != simdjson::SUCCESS) {
    return Status::InvalidArgument("Cannot parse sort order fields, not an array: fields");
  }
  for (dom::element fe : arr) {
    dom::object fo;
    if (fe.get_object().get(fo) != simdjson::SUCCESS) {
      return Status::InvalidArgument("Cannot parse sort field, not an object: " + simdjson::to_string(fe));
    }
    SortField f;
    ASSIGN_OR_RETURN(std::string transform, JsonGetString(fo, "transform"));
    ASSIGN_OR_RETURN(f.transform, Transform::Parse(transform));
    ASSIGN_OR_RETURN(f.source_id, JsonGetInt(fo, "source-id"));
    ASSIGN_OR_RETURN(std::string direction, JsonGetString(fo, "direction"));
    ASSIGN_OR_RETURN(std::string null_order, JsonGetString(fo, "null-order"));
    if (direction != "asc" && direction != "desc") {
      return Status::InvalidArgument("Invalid sort direction: " + direction);
    }
    if (null_order != "nulls-first" && null_order != "nulls-last") {
      return Status::InvalidArgument("Invalid null order: " + null_order);
    }
    f.direction = direction == "asc" ? SortDirection::kAsc : SortDirection::kDesc;
    f.null_order = null_order == "nulls-first" ? NullOrder::kNullsFirst : NullOrder::kNullsLast;
    order.fields.push_back(std::move(f));
  }
  return order;
}

Result<IcebergSchema> SchemaFromJson(std::string_view json) {
  dom::parser parser;
  dom::element e;
  if (auto err = parser.parse(json.data(), json.size()).get(e)) {
    return Status::InvalidArgument(std::string("malformed Iceberg schema JSON (") + simdjson::error_message(err) + ")");
  }
  return ParseSchemaJson(e);
}

Result<PartitionSpec> PartitionSpecFromJson(std::string_view json, int32_t spec_id_if_list) {
  dom::parser parser;
  dom::element e;
  if (auto err = parser.parse(json.data(), json.size()).get(e)) {
    return Status::InvalidArgument(std::string("malformed Iceberg partition spec JSON (") +
                                   simdjson::error_message(err) + ")");
  }
  return ParsePartitionSpecJson(e, spec_id_if_list);
}

}  // namespace sluice
