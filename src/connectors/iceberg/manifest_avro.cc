#include "connectors/iceberg/manifest_avro.h"

#include <cmath>
#include <set>

#include "formats/json/json_format.h"

namespace sluice {

namespace {

// The Avro JSON of Iceberg types, as Java's AvroSchemaUtil converts them: a nested struct is a
// record named "r<field id>" (its parent field's, or the list element's id), an optional field a
// union with null first and a null default, a list an array with "element-id", a map with string
// keys an Avro map with "key-id"/"value-id", any other map an array of "k<key id>_v<value id>"
// records with logicalType "map". Named fixed types repeat by name after their first definition.
class AvroJsonBuilder {
 public:
  Status Type(const IcebergType& t, int32_t owner_id, std::string* out) {
    switch (t.id()) {
      case IcebergTypeId::kStruct: return Struct(t, "r" + std::to_string(owner_id), out);
      case IcebergTypeId::kList: {
        out->append("{\"type\":\"array\",\"items\":");
        RETURN_IF_ERROR(Optional(t.element(), t.element_id(), !t.element_required(), out));
        out->append(",\"element-id\":" + std::to_string(t.element_id()) + "}");
        return Status::OK();
      }
      case IcebergTypeId::kMap: return Map(t, out);
      default: return Primitive(t, out);
    }
  }

  Status Struct(const IcebergType& t, const std::string& name, std::string* out) {
    out->append("{\"type\":\"record\",\"name\":");
    AppendJsonString(name, out);
    out->append(",\"fields\":[");
    for (size_t i = 0; i < t.fields().size(); ++i) {
      const IcebergField& f = t.fields()[i];
      if (i > 0) out->push_back(',');
      out->append("{\"name\":");
      AppendJsonString(f.name, out);
      out->append(",\"type\":");
      RETURN_IF_ERROR(Optional(f.type, f.id, !f.required, out));
      if (!f.doc.empty()) {
        out->append(",\"doc\":");
        AppendJsonString(f.doc, out);
      }
      if (!f.required) out->append(",\"default\":null");
      out->append(",\"field-id\":" + std::to_string(f.id) + "}");
    }
    out->append("]}");
    return Status::OK();
  }

 private:
  Status Optional(const IcebergType& t, int32_t owner_id, bool optional, std::string* out) {
    if (optional) out->append("[\"null\",");
    RETURN_IF_ERROR(Type(t, owner_id, out));
    if (optional) out->push_back(']');
    return Status::OK();
  }

  Status Map(const IcebergType& t, std::string* out) {
    if (t.key().id() == IcebergTypeId::kString) {
      out->append("{\"type\":\"map\",\"values\":");
      RETURN_IF_ERROR(Optional(t.value(), t.value_id(), !t.value_required(), out));
      out->append(",\"key-id\":" + std::to_string(t.key_id()) + ",\"value-id\":" + std::to_string(t.value_id()) + "}");
      return Status::OK();
    }
    const IcebergType entry = IcebergType::Struct(
        {IcebergField(t.key_id(), "key", true, t.key()), IcebergField(t.value_id(), "value", t.value_required(), t.value())});
    out->append("{\"type\":\"array\",\"items\":");
    RETURN_IF_ERROR(Struct(entry, "k" + std::to_string(t.key_id()) + "_v" + std::to_string(t.value_id()), out));
    out->append(",\"logicalType\":\"map\"}");
    return Status::OK();
  }

  void Fixed(const std::string& name, int size, std::string_view extra, std::string* out) {
    if (!named_.insert(name).second) {
      AppendJsonString(name, out);
      return;
    }
    out->append("{\"type\":\"fixed\",\"name\":\"" + name + "\",\"size\":" + std::to_string(size));
    out->append(extra);
    out->push_back('}');
  }

  Status Primitive(const IcebergType& t, std::string* out) {
    switch (t.id()) {
      case IcebergTypeId::kBoolean: out->append("\"boolean\""); break;
      case IcebergTypeId::kInt: out->append("\"int\""); break;
      case IcebergTypeId::kLong: out->append("\"long\""); break;
      case IcebergTypeId::kFloat: out->append("\"float\""); break;
      case IcebergTypeId::kDouble: out->append("\"double\""); break;
      case IcebergTypeId::kDate: out->append(R"({"type":"int","logicalType":"date"})"); break;
      case IcebergTypeId::kTime: out->append(R"({"type":"long","logicalType":"time-micros"})"); break;
      case IcebergTypeId::kTimestamp:
        out->append(R"({"type":"long","logicalType":"timestamp-micros","adjust-to-utc":false})");
        break;
      case IcebergTypeId::kTimestampTz:
        out->append(R"({"type":"long","logicalType":"timestamp-micros","adjust-to-utc":true})");
        break;
      case IcebergTypeId::kTimestampNs:
        out->append(R"({"type":"long","logicalType":"timestamp-nanos","adjust-to-utc":false})");
        break;
      case IcebergTypeId::kTimestampTzNs:
        out->append(R"({"type":"long","logicalType":"timestamp-nanos","adjust-to-utc":true})");
        break;
      case IcebergTypeId::kString: out->append("\"string\""); break;
      case IcebergTypeId::kBinary: out->append("\"bytes\""); break;
      case IcebergTypeId::kUuid: Fixed("uuid_fixed", 16, R"(,"logicalType":"uuid")", out); break;
      case IcebergTypeId::kFixed: Fixed("fixed_" + std::to_string(t.length()), t.length(), "", out); break;
      case IcebergTypeId::kDecimal:
        Fixed("decimal_" + std::to_string(t.precision()) + "_" + std::to_string(t.scale()),
              DecimalRequiredBytes(t.precision()),
              ",\"logicalType\":\"decimal\",\"precision\":" + std::to_string(t.precision()) +
                  ",\"scale\":" + std::to_string(t.scale()),
              out);
        break;
      default: return Status::NotSupported("Iceberg type " + t.ToString() + " has no Avro form here");
    }
    return Status::OK();
  }

  std::set<std::string> named_;
};

IcebergField Req(int32_t id, const char* name, IcebergTypeId type) {
  return IcebergField(id, name, true, IcebergType::Primitive(type));
}
IcebergField Opt(int32_t id, const char* name, IcebergTypeId type) {
  return IcebergField(id, name, false, IcebergType::Primitive(type));
}
// An int-keyed map field (column id -> count or bound).
IcebergField IdMap(int32_t id, const char* name, int32_t key_id, int32_t value_id, IcebergTypeId value) {
  return IcebergField(id, name, false,
                      IcebergType::Map(key_id, IcebergType::Primitive(IcebergTypeId::kInt), value_id, true,
                                       IcebergType::Primitive(value)));
}
IcebergField NumberList(int32_t id, const char* name, int32_t element_id, IcebergTypeId element) {
  return IcebergField(id, name, false, IcebergType::List(element_id, true, IcebergType::Primitive(element)));
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

IcebergSchema ManifestEntrySchema(int format_version, const IcebergType& partition_type) {
  using T = IcebergTypeId;
  std::vector<IcebergField> file = {
      Req(134, "content", T::kInt),
      Req(100, "file_path", T::kString),
      Req(101, "file_format", T::kString),
      IcebergField(102, "partition", true, partition_type),
      Req(103, "record_count", T::kLong),
      Req(104, "file_size_in_bytes", T::kLong),
      IdMap(108, "column_sizes", 117, 118, T::kLong),
      IdMap(109, "value_counts", 119, 120, T::kLong),
      IdMap(110, "null_value_counts", 121, 122, T::kLong),
      IdMap(137, "nan_value_counts", 138, 139, T::kLong),
      IdMap(125, "lower_bounds", 126, 127, T::kBinary),
      IdMap(128, "upper_bounds", 129, 130, T::kBinary),
      Opt(131, "key_metadata", T::kBinary),
      NumberList(132, "split_offsets", 133, T::kLong),
      NumberList(135, "equality_ids", 136, T::kInt),
      Opt(140, "sort_order_id", T::kInt),
  };
  if (format_version >= 3) file.push_back(Opt(142, "first_row_id", T::kLong));
  file.push_back(Opt(143, "referenced_data_file", T::kString));
  if (format_version >= 3) {
    file.push_back(Opt(144, "content_offset", T::kLong));
    file.push_back(Opt(145, "content_size_in_bytes", T::kLong));
  }
  return IcebergSchema(0, {Req(0, "status", T::kInt), Opt(1, "snapshot_id", T::kLong),
                           Opt(3, "sequence_number", T::kLong), Opt(4, "file_sequence_number", T::kLong),
                           IcebergField(2, "data_file", true, IcebergType::Struct(std::move(file)))});
}

IcebergSchema ManifestFileSchema(int format_version) {
  using T = IcebergTypeId;
  const IcebergType summary = IcebergType::Struct({Req(509, "contains_null", T::kBoolean),
                                                   Opt(518, "contains_nan", T::kBoolean),
                                                   Opt(510, "lower_bound", T::kBinary),
                                                   Opt(511, "upper_bound", T::kBinary)});
  std::vector<IcebergField> fields = {
      Req(500, "manifest_path", T::kString),
      Req(501, "manifest_length", T::kLong),
      Req(502, "partition_spec_id", T::kInt),
      Req(517, "content", T::kInt),
      Req(515, "sequence_number", T::kLong),
      Req(516, "min_sequence_number", T::kLong),
      Req(503, "added_snapshot_id", T::kLong),
      Req(504, "added_files_count", T::kInt),
      Req(505, "existing_files_count", T::kInt),
      Req(506, "deleted_files_count", T::kInt),
      Req(512, "added_rows_count", T::kLong),
      Req(513, "existing_rows_count", T::kLong),
      Req(514, "deleted_rows_count", T::kLong),
      IcebergField(507, "partitions", false, IcebergType::List(508, true, summary)),
      Opt(519, "key_metadata", T::kBinary),
  };
  if (format_version >= 3) fields.push_back(Opt(520, "first_row_id", T::kLong));
  return IcebergSchema(0, std::move(fields));
}

Result<std::string> IcebergToAvroSchemaJson(const IcebergSchema& schema, std::string_view record_name) {
  std::string out;
  AvroJsonBuilder builder;
  RETURN_IF_ERROR(builder.Struct(schema.AsStruct(), std::string(record_name), &out));
  return out;
}

Result<std::string> ManifestEntryAvroSchema(int format_version, const IcebergType& partition_type) {
  return IcebergToAvroSchemaJson(ManifestEntrySchema(format_version, partition_type), "manifest_entry");
}

std::string ManifestFileAvroSchema(int format_version) {
  // Only primitive, list and struct types: the conversion cannot fail.
  return std::move(IcebergToAvroSchemaJson(ManifestFileSchema(format_version), "manifest_file")).value();
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
