#include "formats/parquet/parquet_metadata.h"

#include <algorithm>
#include <string>

namespace sluice::parquet {
namespace {

// Reads a struct's fields, handing each (id, type) to `on_field`, which parses the field or calls
// r->Skip(type) for ids it does not know.
template <typename F>
Status ParseStruct(ThriftReader* r, F&& on_field) {
  RETURN_IF_ERROR(r->BeginStruct());
  while (true) {
    int16_t id;
    ThriftType t;
    RETURN_IF_ERROR(r->ReadFieldHeader(&id, &t));
    if (t == ThriftType::kStop) break;
    RETURN_IF_ERROR(on_field(id, t));
  }
  return r->EndStruct();
}

Status Missing(const ThriftReader& r, std::string_view st, std::string_view field) {
  return r.Error(std::string(st) + " lacks its required field '" + std::string(field) + "'");
}

template <typename E>
Status ReadEnum(ThriftReader* r, ThriftType t, E* out, int32_t max_value, std::string_view what) {
  int32_t v;
  RETURN_IF_ERROR(r->ReadI32(t, &v));
  if (v < 0 || v > max_value) return r->Error("unknown " + std::string(what) + " " + std::to_string(v));
  *out = static_cast<E>(v);
  return Status::OK();
}

template <typename T>
Status ReadOptEnum(ThriftReader* r, ThriftType t, std::optional<T>* out, int32_t max_value, std::string_view what) {
  T v{};
  RETURN_IF_ERROR(ReadEnum(r, t, &v, max_value, what));
  *out = v;
  return Status::OK();
}

template <typename T, typename F>
Status ReadList(ThriftReader* r, ThriftType t, std::vector<T>* out, ThriftType want, F&& read_element) {
  ThriftType et;
  size_t n;
  RETURN_IF_ERROR(r->ReadListBegin(t, &et, &n));
  if (n > 0 && et != want) {
    return r->Error("list element has type " + std::to_string(static_cast<int>(et)));
  }
  out->clear();
  out->reserve(std::min<size_t>(n, 4096));
  for (size_t i = 0; i < n; ++i) {
    T v{};
    RETURN_IF_ERROR(read_element(&v));
    out->push_back(std::move(v));
  }
  return Status::OK();
}

template <typename T>
Status ReadStructList(ThriftReader* r, ThriftType t, std::vector<T>* out) {
  return ReadList(r, t, out, ThriftType::kStruct, [r](T* v) { return Parse(r, v); });
}

Status ReadOptString(ThriftReader* r, ThriftType t, std::optional<std::string>* out) {
  std::string s;
  RETURN_IF_ERROR(r->ReadBinary(t, &s));
  *out = std::move(s);
  return Status::OK();
}

Status ReadOptI32(ThriftReader* r, ThriftType t, std::optional<int32_t>* out) {
  int32_t v;
  RETURN_IF_ERROR(r->ReadI32(t, &v));
  *out = v;
  return Status::OK();
}

Status ReadOptI64(ThriftReader* r, ThriftType t, std::optional<int64_t>* out) {
  int64_t v;
  RETURN_IF_ERROR(r->ReadI64(t, &v));
  *out = v;
  return Status::OK();
}

// An empty struct (the members of the LogicalType union that carry no parameters).
Status ParseEmpty(ThriftReader* r) {
  return ParseStruct(r, [r](int16_t, ThriftType t) { return r->Skip(t); });
}

void WriteEmpty(ThriftWriter* w, int16_t id) {
  w->FieldStructBegin(id);
  w->EndStruct();
}

void WriteTimeUnit(ThriftWriter* w, int16_t id, TimeUnit unit) {
  w->FieldStructBegin(id);
  WriteEmpty(w, static_cast<int16_t>(unit));
  w->EndStruct();
}

Status ParseTimeUnit(ThriftReader* r, TimeUnit* unit) {
  bool found = false;
  RETURN_IF_ERROR(ParseStruct(r, [&](int16_t id, ThriftType t) -> Status {
    if (id >= 1 && id <= 3 && t == ThriftType::kStruct) {
      *unit = static_cast<TimeUnit>(id);
      found = true;
      return ParseEmpty(r);
    }
    return r->Skip(t);
  }));
  if (!found) return r->Error("TimeUnit names no unit Sluice knows");
  return Status::OK();
}

void Serialize(const LogicalTypeAnnotation& v, ThriftWriter* w, int16_t field_id) {
  using K = LogicalTypeAnnotation::Kind;
  if (v.kind == K::NONE) return;
  w->FieldStructBegin(field_id);
  int16_t member = static_cast<int16_t>(v.kind);
  w->FieldStructBegin(member);
  switch (v.kind) {
    case K::DECIMAL:
      w->FieldI32(1, v.decimal_scale);
      w->FieldI32(2, v.decimal_precision);
      break;
    case K::TIME:
    case K::TIMESTAMP:
      w->FieldBool(1, v.is_adjusted_to_utc);
      WriteTimeUnit(w, 2, v.unit);
      break;
    case K::INTEGER:
      w->FieldI8(1, v.bit_width);
      w->FieldBool(2, v.is_signed);
      break;
    default:
      break;
  }
  w->EndStruct();
  w->EndStruct();
}

void WriteKeyValues(ThriftWriter* w, int16_t id, const std::vector<KeyValue>& kvs) {
  if (kvs.empty()) return;
  w->FieldListBegin(id, ThriftType::kStruct, kvs.size());
  for (const KeyValue& kv : kvs) Serialize(kv, w);
}

void WriteStringList(ThriftWriter* w, int16_t id, const std::vector<std::string>& v) {
  w->FieldListBegin(id, ThriftType::kBinary, v.size());
  for (const std::string& s : v) w->ElementBinary(s);
}

}  // namespace

LogicalTypeAnnotation LogicalTypeAnnotation::Decimal(int32_t precision, int32_t scale) {
  LogicalTypeAnnotation a{.kind = Kind::DECIMAL};
  a.decimal_precision = precision;
  a.decimal_scale = scale;
  return a;
}

LogicalTypeAnnotation LogicalTypeAnnotation::Time(bool adjusted, TimeUnit unit) {
  LogicalTypeAnnotation a{.kind = Kind::TIME};
  a.is_adjusted_to_utc = adjusted;
  a.unit = unit;
  return a;
}

LogicalTypeAnnotation LogicalTypeAnnotation::Timestamp(bool adjusted, TimeUnit unit) {
  LogicalTypeAnnotation a{.kind = Kind::TIMESTAMP};
  a.is_adjusted_to_utc = adjusted;
  a.unit = unit;
  return a;
}

LogicalTypeAnnotation LogicalTypeAnnotation::Integer(int8_t bit_width, bool is_signed) {
  LogicalTypeAnnotation a{.kind = Kind::INTEGER};
  a.bit_width = bit_width;
  a.is_signed = is_signed;
  return a;
}

// ---------------------------------------------------------------------------------------------
// Serialize

void Serialize(const Statistics& v, ThriftWriter* w) {
  w->BeginStruct();
  if (v.max) w->FieldBinary(1, *v.max);
  if (v.min) w->FieldBinary(2, *v.min);
  if (v.null_count) w->FieldI64(3, *v.null_count);
  if (v.distinct_count) w->FieldI64(4, *v.distinct_count);
  if (v.max_value) w->FieldBinary(5, *v.max_value);
  if (v.min_value) w->FieldBinary(6, *v.min_value);
  w->EndStruct();
}

void Serialize(const KeyValue& v, ThriftWriter* w) {
  w->BeginStruct();
  w->FieldBinary(1, v.key);
  if (v.value) w->FieldBinary(2, *v.value);
  w->EndStruct();
}

void Serialize(const SchemaElement& v, ThriftWriter* w) {
  w->BeginStruct();
  if (v.type) w->FieldI32(1, static_cast<int32_t>(*v.type));
  if (v.type_length) w->FieldI32(2, *v.type_length);
  if (v.repetition_type) w->FieldI32(3, static_cast<int32_t>(*v.repetition_type));
  w->FieldBinary(4, v.name);
  if (v.num_children) w->FieldI32(5, *v.num_children);
  if (v.converted_type) w->FieldI32(6, static_cast<int32_t>(*v.converted_type));
  if (v.scale) w->FieldI32(7, *v.scale);
  if (v.precision) w->FieldI32(8, *v.precision);
  if (v.field_id) w->FieldI32(9, *v.field_id);
  Serialize(v.logical_type, w, 10);
  w->EndStruct();
}

void Serialize(const ColumnMetaData& v, ThriftWriter* w) {
  w->BeginStruct();
  w->FieldI32(1, static_cast<int32_t>(v.type));
  w->FieldListBegin(2, ThriftType::kI32, v.encodings.size());
  for (Encoding e : v.encodings) w->ElementI32(static_cast<int32_t>(e));
  WriteStringList(w, 3, v.path_in_schema);
  w->FieldI32(4, static_cast<int32_t>(v.codec));
  w->FieldI64(5, v.num_values);
  w->FieldI64(6, v.total_uncompressed_size);
  w->FieldI64(7, v.total_compressed_size);
  WriteKeyValues(w, 8, v.key_value_metadata);
  w->FieldI64(9, v.data_page_offset);
  if (v.index_page_offset) w->FieldI64(10, *v.index_page_offset);
  if (v.dictionary_page_offset) w->FieldI64(11, *v.dictionary_page_offset);
  if (v.statistics) {
    w->FieldStructHeader(12);
    Serialize(*v.statistics, w);
  }
  w->EndStruct();
}

void Serialize(const RowGroup& v, ThriftWriter* w) {
  w->BeginStruct();
  w->FieldListBegin(1, ThriftType::kStruct, v.columns.size());
  for (const ColumnChunk& c : v.columns) {
    w->BeginStruct();
    if (c.file_path) w->FieldBinary(1, *c.file_path);
    w->FieldI64(2, c.file_offset);
    if (c.meta_data) {
      w->FieldStructHeader(3);
      Serialize(*c.meta_data, w);
    }
    w->EndStruct();
  }
  w->FieldI64(2, v.total_byte_size);
  w->FieldI64(3, v.num_rows);
  if (v.file_offset) w->FieldI64(5, *v.file_offset);
  if (v.total_compressed_size) w->FieldI64(6, *v.total_compressed_size);
  if (v.ordinal) w->FieldI16(7, *v.ordinal);
  w->EndStruct();
}

void Serialize(const FileMetaData& v, std::string* out) {
  ThriftWriter w(out);
  w.BeginStruct();
  w.FieldI32(1, v.version);
  w.FieldListBegin(2, ThriftType::kStruct, v.schema.size());
  for (const SchemaElement& e : v.schema) Serialize(e, &w);
  w.FieldI64(3, v.num_rows);
  w.FieldListBegin(4, ThriftType::kStruct, v.row_groups.size());
  for (const RowGroup& g : v.row_groups) Serialize(g, &w);
  WriteKeyValues(&w, 5, v.key_value_metadata);
  if (v.created_by) w.FieldBinary(6, *v.created_by);
  if (!v.column_orders.empty()) {
    w.FieldListBegin(7, ThriftType::kStruct, v.column_orders.size());
    for (bool type_order : v.column_orders) {
      w.BeginStruct();
      if (type_order) WriteEmpty(&w, 1);
      w.EndStruct();
    }
  }
  w.EndStruct();
}

void Serialize(const PageHeader& v, std::string* out) {
  ThriftWriter w(out);
  w.BeginStruct();
  w.FieldI32(1, static_cast<int32_t>(v.type));
  w.FieldI32(2, v.uncompressed_page_size);
  w.FieldI32(3, v.compressed_page_size);
  if (v.crc) w.FieldI32(4, *v.crc);
  auto stats = [&](int16_t id, const std::optional<Statistics>& s) {
    if (!s) return;
    w.FieldStructHeader(id);
    Serialize(*s, &w);
  };
  if (v.data_page_header) {
    const DataPageHeader& h = *v.data_page_header;
    w.FieldStructBegin(5);
    w.FieldI32(1, h.num_values);
    w.FieldI32(2, static_cast<int32_t>(h.encoding));
    w.FieldI32(3, static_cast<int32_t>(h.definition_level_encoding));
    w.FieldI32(4, static_cast<int32_t>(h.repetition_level_encoding));
    stats(5, h.statistics);
    w.EndStruct();
  }
  if (v.dictionary_page_header) {
    const DictionaryPageHeader& h = *v.dictionary_page_header;
    w.FieldStructBegin(7);
    w.FieldI32(1, h.num_values);
    w.FieldI32(2, static_cast<int32_t>(h.encoding));
    if (h.is_sorted) w.FieldBool(3, *h.is_sorted);
    w.EndStruct();
  }
  if (v.data_page_header_v2) {
    const DataPageHeaderV2& h = *v.data_page_header_v2;
    w.FieldStructBegin(8);
    w.FieldI32(1, h.num_values);
    w.FieldI32(2, h.num_nulls);
    w.FieldI32(3, h.num_rows);
    w.FieldI32(4, static_cast<int32_t>(h.encoding));
    w.FieldI32(5, h.definition_levels_byte_length);
    w.FieldI32(6, h.repetition_levels_byte_length);
    w.FieldBool(7, h.is_compressed);
    stats(8, h.statistics);
    w.EndStruct();
  }
  w.EndStruct();
}

// ---------------------------------------------------------------------------------------------
// Parse

Status Parse(ThriftReader* r, Statistics* out) {
  *out = Statistics();
  return ParseStruct(r, [&](int16_t id, ThriftType t) -> Status {
    switch (id) {
      case 1: return ReadOptString(r, t, &out->max);
      case 2: return ReadOptString(r, t, &out->min);
      case 3: return ReadOptI64(r, t, &out->null_count);
      case 4: return ReadOptI64(r, t, &out->distinct_count);
      case 5: return ReadOptString(r, t, &out->max_value);
      case 6: return ReadOptString(r, t, &out->min_value);
      default: return r->Skip(t);
    }
  });
}

Status Parse(ThriftReader* r, KeyValue* out) {
  *out = KeyValue();
  bool has_key = false;
  RETURN_IF_ERROR(ParseStruct(r, [&](int16_t id, ThriftType t) -> Status {
    switch (id) {
      case 1: has_key = true; return r->ReadBinary(t, &out->key);
      case 2: return ReadOptString(r, t, &out->value);
      default: return r->Skip(t);
    }
  }));
  return has_key ? Status::OK() : Missing(*r, "KeyValue", "key");
}

Status Parse(ThriftReader* r, LogicalTypeAnnotation* out) {
  using K = LogicalTypeAnnotation::Kind;
  *out = LogicalTypeAnnotation();
  return ParseStruct(r, [&](int16_t id, ThriftType t) -> Status {
    if (t != ThriftType::kStruct) return r->Skip(t);
    switch (id) {
      case 5:
        out->kind = K::DECIMAL;
        return ParseStruct(r, [&](int16_t fid, ThriftType ft) -> Status {
          if (fid == 1) return r->ReadI32(ft, &out->decimal_scale);
          if (fid == 2) return r->ReadI32(ft, &out->decimal_precision);
          return r->Skip(ft);
        });
      case 7:
      case 8:
        out->kind = static_cast<K>(id);
        return ParseStruct(r, [&](int16_t fid, ThriftType ft) -> Status {
          if (fid == 1) return r->ReadBool(ft, &out->is_adjusted_to_utc);
          if (fid == 2 && ft == ThriftType::kStruct) return ParseTimeUnit(r, &out->unit);
          return r->Skip(ft);
        });
      case 10:
        out->kind = K::INTEGER;
        return ParseStruct(r, [&](int16_t fid, ThriftType ft) -> Status {
          if (fid == 1) return r->ReadI8(ft, &out->bit_width);
          if (fid == 2) return r->ReadBool(ft, &out->is_signed);
          return r->Skip(ft);
        });
      case 1: case 2: case 3: case 4: case 6: case 11: case 12: case 13: case 14:
        out->kind = static_cast<K>(id);
        return ParseEmpty(r);
      default:
        // A member Sluice does not know (FLOAT16, VARIANT, ...): the annotation stays NONE.
        return r->Skip(t);
    }
  });
}

Status Parse(ThriftReader* r, SchemaElement* out) {
  *out = SchemaElement();
  bool has_name = false;
  RETURN_IF_ERROR(ParseStruct(r, [&](int16_t id, ThriftType t) -> Status {
    switch (id) {
      case 1: return ReadOptEnum(r, t, &out->type, 7, "physical type");
      case 2: return ReadOptI32(r, t, &out->type_length);
      case 3: return ReadOptEnum(r, t, &out->repetition_type, 2, "repetition type");
      case 4: has_name = true; return r->ReadBinary(t, &out->name);
      case 5: return ReadOptI32(r, t, &out->num_children);
      case 6: {
        int32_t v;
        RETURN_IF_ERROR(r->ReadI32(t, &v));
        // An unknown converted type is ignored, as an unknown logical type is.
        if (v >= 0 && v <= 21) out->converted_type = static_cast<ConvertedType>(v);
        return Status::OK();
      }
      case 7: return ReadOptI32(r, t, &out->scale);
      case 8: return ReadOptI32(r, t, &out->precision);
      case 9: return ReadOptI32(r, t, &out->field_id);
      case 10:
        if (t != ThriftType::kStruct) return r->Skip(t);
        return Parse(r, &out->logical_type);
      default: return r->Skip(t);
    }
  }));
  return has_name ? Status::OK() : Missing(*r, "SchemaElement", "name");
}

Status Parse(ThriftReader* r, ColumnMetaData* out) {
  *out = ColumnMetaData();
  uint32_t seen = 0;
  RETURN_IF_ERROR(ParseStruct(r, [&](int16_t id, ThriftType t) -> Status {
    if (id >= 1 && id <= 31) seen |= 1u << id;
    switch (id) {
      case 1: return ReadEnum(r, t, &out->type, 7, "physical type");
      case 2:
        return ReadList(r, t, &out->encodings, ThriftType::kI32, [r](Encoding* e) -> Status {
          int32_t v;
          RETURN_IF_ERROR(r->ReadElementI32(&v));
          *e = static_cast<Encoding>(v);
          return Status::OK();
        });
      case 3:
        return ReadList(r, t, &out->path_in_schema, ThriftType::kBinary,
                        [r](std::string* s) { return r->ReadElementBinary(s); });
      case 4: return ReadEnum(r, t, &out->codec, 7, "compression codec");
      case 5: return r->ReadI64(t, &out->num_values);
      case 6: return r->ReadI64(t, &out->total_uncompressed_size);
      case 7: return r->ReadI64(t, &out->total_compressed_size);
      case 8: return ReadStructList(r, t, &out->key_value_metadata);
      case 9: return r->ReadI64(t, &out->data_page_offset);
      case 10: return ReadOptI64(r, t, &out->index_page_offset);
      case 11: return ReadOptI64(r, t, &out->dictionary_page_offset);
      case 12:
        if (t != ThriftType::kStruct) return r->Skip(t);
        out->statistics.emplace();
        return Parse(r, &*out->statistics);
      default: return r->Skip(t);
    }
  }));
  static constexpr const char* kNames[] = {"", "type", "encodings", "path_in_schema", "codec", "num_values",
                                           "total_uncompressed_size", "total_compressed_size", "",
                                           "data_page_offset"};
  for (int id : {1, 2, 3, 4, 5, 6, 7, 9}) {
    if (!(seen & (1u << id))) return Missing(*r, "ColumnMetaData", kNames[id]);
  }
  return Status::OK();
}

Status Parse(ThriftReader* r, ColumnChunk* out) {
  *out = ColumnChunk();
  bool has_offset = false;
  RETURN_IF_ERROR(ParseStruct(r, [&](int16_t id, ThriftType t) -> Status {
    switch (id) {
      case 1: return ReadOptString(r, t, &out->file_path);
      case 2: has_offset = true; return r->ReadI64(t, &out->file_offset);
      case 3:
        if (t != ThriftType::kStruct) return r->Skip(t);
        out->meta_data.emplace();
        return Parse(r, &*out->meta_data);
      default: return r->Skip(t);
    }
  }));
  return has_offset ? Status::OK() : Missing(*r, "ColumnChunk", "file_offset");
}

Status Parse(ThriftReader* r, RowGroup* out) {
  *out = RowGroup();
  uint32_t seen = 0;
  RETURN_IF_ERROR(ParseStruct(r, [&](int16_t id, ThriftType t) -> Status {
    if (id >= 1 && id <= 31) seen |= 1u << id;
    switch (id) {
      case 1: return ReadStructList(r, t, &out->columns);
      case 2: return r->ReadI64(t, &out->total_byte_size);
      case 3: return r->ReadI64(t, &out->num_rows);
      case 5: return ReadOptI64(r, t, &out->file_offset);
      case 6: return ReadOptI64(r, t, &out->total_compressed_size);
      case 7: {
        int16_t v;
        RETURN_IF_ERROR(r->ReadI16(t, &v));
        out->ordinal = v;
        return Status::OK();
      }
      default: return r->Skip(t);
    }
  }));
  if (!(seen & 2)) return Missing(*r, "RowGroup", "columns");
  if (!(seen & 8)) return Missing(*r, "RowGroup", "num_rows");
  return Status::OK();
}

Status Parse(ThriftReader* r, FileMetaData* out) {
  *out = FileMetaData();
  uint32_t seen = 0;
  RETURN_IF_ERROR(ParseStruct(r, [&](int16_t id, ThriftType t) -> Status {
    if (id >= 1 && id <= 31) seen |= 1u << id;
    switch (id) {
      case 1: return r->ReadI32(t, &out->version);
      case 2: return ReadStructList(r, t, &out->schema);
      case 3: return r->ReadI64(t, &out->num_rows);
      case 4: return ReadStructList(r, t, &out->row_groups);
      case 5: return ReadStructList(r, t, &out->key_value_metadata);
      case 6: return ReadOptString(r, t, &out->created_by);
      case 7: {
        std::vector<int> orders;
        RETURN_IF_ERROR(ReadList(r, t, &orders, ThriftType::kStruct, [r](int* order) {
          *order = 0;
          return ParseStruct(r, [&](int16_t oid, ThriftType ot) -> Status {
            if (oid == 1 && ot == ThriftType::kStruct) {
              *order = 1;
              return ParseEmpty(r);
            }
            return r->Skip(ot);
          });
        }));
        out->column_orders.assign(orders.begin(), orders.end());
        return Status::OK();
      }
      default: return r->Skip(t);
    }
  }));
  if (!(seen & 2)) return Missing(*r, "FileMetaData", "version");
  if (!(seen & 4)) return Missing(*r, "FileMetaData", "schema");
  if (!(seen & 8)) return Missing(*r, "FileMetaData", "num_rows");
  if (!(seen & 16)) return Missing(*r, "FileMetaData", "row_groups");
  return Status::OK();
}

Status Parse(ThriftReader* r, PageHeader* out) {
  *out = PageHeader();
  uint32_t seen = 0;
  RETURN_IF_ERROR(ParseStruct(r, [&](int16_t id, ThriftType t) -> Status {
    if (id >= 1 && id <= 31) seen |= 1u << id;
    switch (id) {
      case 1: return ReadEnum(r, t, &out->type, 3, "page type");
      case 2: return r->ReadI32(t, &out->uncompressed_page_size);
      case 3: return r->ReadI32(t, &out->compressed_page_size);
      case 4: return ReadOptI32(r, t, &out->crc);
      case 5: {
        if (t != ThriftType::kStruct) return r->Skip(t);
        DataPageHeader& h = out->data_page_header.emplace();
        return ParseStruct(r, [&](int16_t fid, ThriftType ft) -> Status {
          switch (fid) {
            case 1: return r->ReadI32(ft, &h.num_values);
            case 2: return ReadEnum(r, ft, &h.encoding, 9, "encoding");
            case 3: return ReadEnum(r, ft, &h.definition_level_encoding, 9, "encoding");
            case 4: return ReadEnum(r, ft, &h.repetition_level_encoding, 9, "encoding");
            case 5:
              if (ft != ThriftType::kStruct) return r->Skip(ft);
              h.statistics.emplace();
              return Parse(r, &*h.statistics);
            default: return r->Skip(ft);
          }
        });
      }
      case 7: {
        if (t != ThriftType::kStruct) return r->Skip(t);
        DictionaryPageHeader& h = out->dictionary_page_header.emplace();
        return ParseStruct(r, [&](int16_t fid, ThriftType ft) -> Status {
          switch (fid) {
            case 1: return r->ReadI32(ft, &h.num_values);
            case 2: return ReadEnum(r, ft, &h.encoding, 9, "encoding");
            case 3: {
              bool b;
              RETURN_IF_ERROR(r->ReadBool(ft, &b));
              h.is_sorted = b;
              return Status::OK();
            }
            default: return r->Skip(ft);
          }
        });
      }
      case 8: {
        if (t != ThriftType::kStruct) return r->Skip(t);
        DataPageHeaderV2& h = out->data_page_header_v2.emplace();
        return ParseStruct(r, [&](int16_t fid, ThriftType ft) -> Status {
          switch (fid) {
            case 1: return r->ReadI32(ft, &h.num_values);
            case 2: return r->ReadI32(ft, &h.num_nulls);
            case 3: return r->ReadI32(ft, &h.num_rows);
            case 4: return ReadEnum(r, ft, &h.encoding, 9, "encoding");
            case 5: return r->ReadI32(ft, &h.definition_levels_byte_length);
            case 6: return r->ReadI32(ft, &h.repetition_levels_byte_length);
            case 7: return r->ReadBool(ft, &h.is_compressed);
            case 8:
              if (ft != ThriftType::kStruct) return r->Skip(ft);
              h.statistics.emplace();
              return Parse(r, &*h.statistics);
            default: return r->Skip(ft);
          }
        });
      }
      default: return r->Skip(t);
    }
  }));
  if (!(seen & 2)) return Missing(*r, "PageHeader", "type");
  if (!(seen & 4)) return Missing(*r, "PageHeader", "uncompressed_page_size");
  if (!(seen & 8)) return Missing(*r, "PageHeader", "compressed_page_size");
  if (out->uncompressed_page_size < 0 || out->compressed_page_size < 0) {
    return r->Error("PageHeader has a negative page size");
  }
  return Status::OK();
}

Result<FileMetaData> ParseFileMetaData(std::string_view bytes) {
  ThriftReader r(bytes);
  FileMetaData md;
  RETURN_IF_ERROR(Parse(&r, &md));
  return md;
}

std::string_view TypeName(Type t) {
  static constexpr std::string_view kNames[] = {"BOOLEAN", "INT32",  "INT64",      "INT96",
                                                "FLOAT",   "DOUBLE", "BYTE_ARRAY", "FIXED_LEN_BYTE_ARRAY"};
  auto i = static_cast<int32_t>(t);
  return i >= 0 && i < 8 ? kNames[i] : "UNKNOWN";
}

std::string_view CodecName(CompressionCodec c) {
  static constexpr std::string_view kNames[] = {"UNCOMPRESSED", "SNAPPY", "GZIP", "LZO",
                                                "BROTLI",       "LZ4",    "ZSTD", "LZ4_RAW"};
  auto i = static_cast<int32_t>(c);
  return i >= 0 && i < 8 ? kNames[i] : "UNKNOWN";
}

std::string_view EncodingName(Encoding e) {
  static constexpr std::string_view kNames[] = {"PLAIN",
                                                "GROUP_VAR_INT",
                                                "PLAIN_DICTIONARY",
                                                "RLE",
                                                "BIT_PACKED",
                                                "DELTA_BINARY_PACKED",
                                                "DELTA_LENGTH_BYTE_ARRAY",
                                                "DELTA_BYTE_ARRAY",
                                                "RLE_DICTIONARY",
                                                "BYTE_STREAM_SPLIT"};
  auto i = static_cast<int32_t>(e);
  return i >= 0 && i < 10 ? kNames[i] : "UNKNOWN";
}

}  // namespace sluice::parquet
