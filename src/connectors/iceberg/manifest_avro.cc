#include "connectors/iceberg/manifest_avro.h"

#include <cmath>
#include <set>

#include "formats/json/json_format.h"

namespace sluice {

namespace {

// {"name":"<name>","type":<type>[,"default":null],"field-id":<id>}
std::string AvroFieldJson(std::string_view name, std::string_view type, int id, bool optional) {
  std::string out = "{\"name\":";
  AppendJsonString(name, &out);
  out += ",\"type\":";
  if (optional) {
    out += "[\"null\",";
    out += type;
    out += "],\"default\":null";
  } else {
    out += type;
  }
  out += ",\"field-id\":" + std::to_string(id) + "}";
  return out;
}

std::string AvroRecordJson(std::string_view name, const std::vector<std::string>& fields) {
  std::string out = "{\"type\":\"record\",\"name\":\"" + std::string(name) + "\",\"fields\":[";
  for (size_t i = 0; i < fields.size(); ++i) {
    if (i > 0) out += ",";
    out += fields[i];
  }
  return out + "]}";
}

// An int-keyed map as Java writes it: an array of key/value records with logicalType "map".
std::string IntMap(int field_id, std::string_view name, int key_id, int value_id, std::string_view value_type) {
  const std::string kv = AvroRecordJson("k" + std::to_string(key_id) + "_v" + std::to_string(value_id),
                                {AvroFieldJson("key", "\"int\"", key_id, false), AvroFieldJson("value", value_type, value_id, false)});
  return AvroFieldJson(name, "{\"type\":\"array\",\"items\":" + kv + ",\"logicalType\":\"map\"}", field_id, true);
}

std::string AvroListJson(int field_id, std::string_view name, int element_id, std::string_view element_type) {
  return AvroFieldJson(name,
               "{\"type\":\"array\",\"items\":" + std::string(element_type) + ",\"element-id\":" +
                   std::to_string(element_id) + "}",
               field_id, true);
}

std::string FixedType(const std::string& name, int size, std::string_view extra, std::set<std::string>* named) {
  if (!named->insert(name).second) return "\"" + name + "\"";
  return "{\"type\":\"fixed\",\"name\":\"" + name + "\",\"size\":" + std::to_string(size) + std::string(extra) + "}";
}

Result<std::string> AvroTypeOf(const IcebergType& t, std::set<std::string>* named) {
  switch (t.id()) {
    case IcebergTypeId::kBoolean: return std::string("\"boolean\"");
    case IcebergTypeId::kInt: return std::string("\"int\"");
    case IcebergTypeId::kLong: return std::string("\"long\"");
    case IcebergTypeId::kFloat: return std::string("\"float\"");
    case IcebergTypeId::kDouble: return std::string("\"double\"");
    case IcebergTypeId::kDate: return std::string(R"({"type":"int","logicalType":"date"})");
    case IcebergTypeId::kTime: return std::string(R"({"type":"long","logicalType":"time-micros"})");
    case IcebergTypeId::kTimestamp:
      return std::string(R"({"type":"long","logicalType":"timestamp-micros","adjust-to-utc":false})");
    case IcebergTypeId::kTimestampTz:
      return std::string(R"({"type":"long","logicalType":"timestamp-micros","adjust-to-utc":true})");
    case IcebergTypeId::kTimestampNs:
      return std::string(R"({"type":"long","logicalType":"timestamp-nanos","adjust-to-utc":false})");
    case IcebergTypeId::kTimestampTzNs:
      return std::string(R"({"type":"long","logicalType":"timestamp-nanos","adjust-to-utc":true})");
    case IcebergTypeId::kString: return std::string("\"string\"");
    case IcebergTypeId::kBinary: return std::string("\"bytes\"");
    case IcebergTypeId::kUuid: return FixedType("uuid_fixed", 16, R"(,"logicalType":"uuid")", named);
    case IcebergTypeId::kFixed: return FixedType("fixed_" + std::to_string(t.length()), t.length(), "", named);
    case IcebergTypeId::kDecimal:
      return FixedType("decimal_" + std::to_string(t.precision()) + "_" + std::to_string(t.scale()),
                       DecimalRequiredBytes(t.precision()),
                       ",\"logicalType\":\"decimal\",\"precision\":" + std::to_string(t.precision()) +
                           ",\"scale\":" + std::to_string(t.scale()),
                       named);
    default: return Status::NotSupported("a partition field of type " + t.ToString() + " cannot be written to a manifest");
  }
}

}  // namespace

int DecimalRequiredBytes(int precision) {
  // The fewest bytes whose signed range holds 10^precision - 1.
  for (int bytes = 1; bytes < 16; ++bytes) {
    const double max = std::ldexp(1.0, 8 * bytes - 1);
    if (std::log10(max) > precision) return bytes;
  }
  return 16;
}

Result<std::string> ManifestEntryAvroSchema(int format_version, const IcebergType& partition_type) {
  std::set<std::string> named;
  std::vector<std::string> partition_fields;
  for (const IcebergField& f : partition_type.fields()) {
    ASSIGN_OR_RETURN(std::string type, AvroTypeOf(f.type, &named));
    partition_fields.push_back(AvroFieldJson(f.name, type, f.id, true));
  }
  std::vector<std::string> file_fields = {
      AvroFieldJson("content", "\"int\"", 134, false),
      AvroFieldJson("file_path", "\"string\"", 100, false),
      AvroFieldJson("file_format", "\"string\"", 101, false),
      AvroFieldJson("partition", AvroRecordJson("r102", partition_fields), 102, false),
      AvroFieldJson("record_count", "\"long\"", 103, false),
      AvroFieldJson("file_size_in_bytes", "\"long\"", 104, false),
      IntMap(108, "column_sizes", 117, 118, "\"long\""),
      IntMap(109, "value_counts", 119, 120, "\"long\""),
      IntMap(110, "null_value_counts", 121, 122, "\"long\""),
      IntMap(137, "nan_value_counts", 138, 139, "\"long\""),
      IntMap(125, "lower_bounds", 126, 127, "\"bytes\""),
      IntMap(128, "upper_bounds", 129, 130, "\"bytes\""),
      AvroFieldJson("key_metadata", "\"bytes\"", 131, true),
      AvroListJson(132, "split_offsets", 133, "\"long\""),
      AvroListJson(135, "equality_ids", 136, "\"int\""),
      AvroFieldJson("sort_order_id", "\"int\"", 140, true),
  };
  if (format_version >= 3) file_fields.push_back(AvroFieldJson("first_row_id", "\"long\"", 142, true));
  file_fields.push_back(AvroFieldJson("referenced_data_file", "\"string\"", 143, true));
  if (format_version >= 3) {
    file_fields.push_back(AvroFieldJson("content_offset", "\"long\"", 144, true));
    file_fields.push_back(AvroFieldJson("content_size_in_bytes", "\"long\"", 145, true));
  }
  return AvroRecordJson("manifest_entry", {
                                      AvroFieldJson("status", "\"int\"", 0, false),
                                      AvroFieldJson("snapshot_id", "\"long\"", 1, true),
                                      AvroFieldJson("sequence_number", "\"long\"", 3, true),
                                      AvroFieldJson("file_sequence_number", "\"long\"", 4, true),
                                      AvroFieldJson("data_file", AvroRecordJson("r2", file_fields), 2, false),
                                  });
}

std::string ManifestFileAvroSchema(int format_version) {
  const std::string summary = AvroRecordJson("r508", {
                                                 AvroFieldJson("contains_null", "\"boolean\"", 509, false),
                                                 AvroFieldJson("contains_nan", "\"boolean\"", 518, true),
                                                 AvroFieldJson("lower_bound", "\"bytes\"", 510, true),
                                                 AvroFieldJson("upper_bound", "\"bytes\"", 511, true),
                                             });
  std::vector<std::string> fields = {
      AvroFieldJson("manifest_path", "\"string\"", 500, false),
      AvroFieldJson("manifest_length", "\"long\"", 501, false),
      AvroFieldJson("partition_spec_id", "\"int\"", 502, false),
      AvroFieldJson("content", "\"int\"", 517, false),
      AvroFieldJson("sequence_number", "\"long\"", 515, false),
      AvroFieldJson("min_sequence_number", "\"long\"", 516, false),
      AvroFieldJson("added_snapshot_id", "\"long\"", 503, false),
      AvroFieldJson("added_files_count", "\"int\"", 504, false),
      AvroFieldJson("existing_files_count", "\"int\"", 505, false),
      AvroFieldJson("deleted_files_count", "\"int\"", 506, false),
      AvroFieldJson("added_rows_count", "\"long\"", 512, false),
      AvroFieldJson("existing_rows_count", "\"long\"", 513, false),
      AvroFieldJson("deleted_rows_count", "\"long\"", 514, false),
      AvroListJson(507, "partitions", 508, summary),
      AvroFieldJson("key_metadata", "\"bytes\"", 519, true),
  };
  if (format_version >= 3) fields.push_back(AvroFieldJson("first_row_id", "\"long\"", 520, true));
  return AvroRecordJson("manifest_file", fields);
}

AvroValue PartitionValueToAvro(const IcebergLiteral& v) {
  const IcebergType& t = v.type();
  switch (t.id()) {
    case IcebergTypeId::kBoolean: return AvroValue::Boolean(v.bool_value());
    case IcebergTypeId::kInt:
    case IcebergTypeId::kDate: return AvroValue::Int(static_cast<int32_t>(v.int_value()));
    case IcebergTypeId::kLong:
    case IcebergTypeId::kTime:
    case IcebergTypeId::kTimestamp:
    case IcebergTypeId::kTimestampTz:
    case IcebergTypeId::kTimestampNs:
    case IcebergTypeId::kTimestampTzNs: return AvroValue::Long(v.int_value());
    case IcebergTypeId::kFloat: return AvroValue::Float(static_cast<float>(v.double_value()));
    case IcebergTypeId::kDouble: return AvroValue::Double(v.double_value());
    case IcebergTypeId::kString: return AvroValue::String(v.bytes());
    case IcebergTypeId::kBinary: return AvroValue::Bytes(v.bytes());
    case IcebergTypeId::kUuid:
    case IcebergTypeId::kFixed: return AvroValue::Fixed(v.bytes());
    case IcebergTypeId::kDecimal: {
      // Sign-extend the minimal two's-complement bytes to the fixed size.
      const std::string minimal = v.ToBytes();
      const size_t size = static_cast<size_t>(DecimalRequiredBytes(t.precision()));
      const char fill = !minimal.empty() && (static_cast<uint8_t>(minimal[0]) & 0x80) ? '\xff' : '\0';
      std::string out(size > minimal.size() ? size - minimal.size() : 0, fill);
      out += minimal.substr(minimal.size() > size ? minimal.size() - size : 0);
      return AvroValue::Fixed(std::move(out));
    }
    default: return AvroValue::Null();
  }
}

Result<IcebergLiteral> PartitionValueFromAvro(const IcebergType& type, const AvroValue& v) {
  using Kind = AvroValue::Kind;
  const auto bad = [&]() {
    return Status::InvalidArgument("partition value " + v.DebugString() + " does not fit type " + type.ToString());
  };
  switch (type.id()) {
    case IcebergTypeId::kBoolean:
      if (v.kind() != Kind::kBoolean) return bad();
      return IcebergLiteral::Boolean(v.boolean());
    case IcebergTypeId::kFloat:
      if (v.kind() == Kind::kFloat) return IcebergLiteral::Float(v.float_value());
      return bad();
    case IcebergTypeId::kDouble:
      if (v.kind() == Kind::kDouble) return IcebergLiteral::Double(v.double_value());
      if (v.kind() == Kind::kFloat) return IcebergLiteral::Double(v.float_value());
      return bad();
    case IcebergTypeId::kString:
      if (v.kind() != Kind::kString && v.kind() != Kind::kBytes) return bad();
      return IcebergLiteral::String(v.bytes());
    case IcebergTypeId::kBinary:
    case IcebergTypeId::kUuid:
    case IcebergTypeId::kFixed:
    case IcebergTypeId::kDecimal:
      if (v.kind() != Kind::kBytes && v.kind() != Kind::kFixed && v.kind() != Kind::kString) return bad();
      return IcebergLiteral::FromBytes(type, v.bytes());
    case IcebergTypeId::kInt:
    case IcebergTypeId::kDate:
    case IcebergTypeId::kLong:
    case IcebergTypeId::kTime:
    case IcebergTypeId::kTimestamp:
    case IcebergTypeId::kTimestampTz:
    case IcebergTypeId::kTimestampNs:
    case IcebergTypeId::kTimestampTzNs:
      if (v.kind() != Kind::kInt && v.kind() != Kind::kLong) return bad();
      return IcebergLiteral::OfInt(type, v.integer());
    default: return bad();
  }
}

Result<IcebergType> IcebergTypeOfAvro(const AvroNode& node) {
  const AvroNode* n = &node;
  if (n->type == AvroType::kUnion) {
    const AvroNode* value = nullptr;
    for (const AvroNode* b : n->branches) {
      if (b->type != AvroType::kNull) value = b;
    }
    if (value == nullptr) return Status::InvalidArgument("a partition field of Avro type null");
    n = value;
  }
  const std::string* adjust = n->Attribute("adjust-to-utc");
  const bool utc = adjust == nullptr || *adjust == "true";
  switch (n->type) {
    case AvroType::kBoolean: return IcebergType::Primitive(IcebergTypeId::kBoolean);
    case AvroType::kInt:
      return IcebergType::Primitive(n->logical_type == AvroLogicalType::kDate ? IcebergTypeId::kDate : IcebergTypeId::kInt);
    case AvroType::kLong:
      switch (n->logical_type) {
        case AvroLogicalType::kTimeMicros: return IcebergType::Primitive(IcebergTypeId::kTime);
        case AvroLogicalType::kTimestampMicros:
          return IcebergType::Primitive(utc ? IcebergTypeId::kTimestampTz : IcebergTypeId::kTimestamp);
        case AvroLogicalType::kLocalTimestampMicros: return IcebergType::Primitive(IcebergTypeId::kTimestamp);
        case AvroLogicalType::kTimestampNanos:
          return IcebergType::Primitive(utc ? IcebergTypeId::kTimestampTzNs : IcebergTypeId::kTimestampNs);
        default: return IcebergType::Primitive(IcebergTypeId::kLong);
      }
    case AvroType::kFloat: return IcebergType::Primitive(IcebergTypeId::kFloat);
    case AvroType::kDouble: return IcebergType::Primitive(IcebergTypeId::kDouble);
    case AvroType::kString:
      return IcebergType::Primitive(n->logical_type == AvroLogicalType::kUuid ? IcebergTypeId::kUuid
                                                                               : IcebergTypeId::kString);
    case AvroType::kBytes:
      if (n->logical_type == AvroLogicalType::kDecimal) return IcebergType::Decimal(n->precision, n->scale);
      return IcebergType::Primitive(IcebergTypeId::kBinary);
    case AvroType::kFixed:
      if (n->logical_type == AvroLogicalType::kDecimal) return IcebergType::Decimal(n->precision, n->scale);
      if (n->logical_type == AvroLogicalType::kUuid) return IcebergType::Primitive(IcebergTypeId::kUuid);
      return IcebergType::Fixed(static_cast<int32_t>(n->fixed_size));
    default:
      return Status::NotSupported("a partition field of Avro type " + std::string(AvroTypeName(n->type)));
  }
}

}  // namespace sluice
