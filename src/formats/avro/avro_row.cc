#include "formats/avro/avro_row.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "formats/avro/avro_binary.h"
#include "formats/json/json_format.h"
#include "types/vector.h"

namespace sluice {

namespace {

std::string Quoted(std::string_view s) {
  std::string out;
  AppendJsonString(s, &out);
  return out;
}

std::string LogicalLong(std::string_view logical) {
  return std::string("{\"type\":\"long\",\"logicalType\":\"") + std::string(logical) + "\"}";
}

Status TypeJson(const LogicalType& t, const std::string& row_name, bool legacy, std::string* out);

Status BaseTypeJson(const LogicalType& t, const std::string& row_name, bool legacy, std::string* out) {
  const int p = t.precision();
  switch (t.id()) {
    case TypeId::kBoolean: *out += "\"boolean\""; return Status::OK();
    case TypeId::kTinyInt:
    case TypeId::kSmallInt:
    case TypeId::kInteger: *out += "\"int\""; return Status::OK();
    case TypeId::kBigInt: *out += "\"long\""; return Status::OK();
    case TypeId::kFloat: *out += "\"float\""; return Status::OK();
    case TypeId::kDouble: *out += "\"double\""; return Status::OK();
    case TypeId::kChar:
    case TypeId::kVarChar: *out += "\"string\""; return Status::OK();
    case TypeId::kBinary:
    case TypeId::kVarBinary: *out += "\"bytes\""; return Status::OK();
    case TypeId::kDate: *out += "{\"type\":\"int\",\"logicalType\":\"date\"}"; return Status::OK();
    case TypeId::kTime:
      if (p > 3) {
        return Status::InvalidArgument("Avro does not support TIME type with precision: " + std::to_string(p) +
                                       ", it only supports precision less than 3.");
      }
      *out += "{\"type\":\"int\",\"logicalType\":\"time-millis\"}";
      return Status::OK();
    case TypeId::kDecimal:
      *out += "{\"type\":\"bytes\",\"logicalType\":\"decimal\",\"precision\":" + std::to_string(p) +
              ",\"scale\":" + std::to_string(t.scale()) + "}";
      return Status::OK();
    case TypeId::kTimestamp:
      if (legacy) {
        if (p > 3) {
          return Status::InvalidArgument("Avro does not support TIMESTAMP type with precision: " + std::to_string(p) +
                                         ", it only supports precision less than 3.");
        }
        *out += LogicalLong("timestamp-millis");
        return Status::OK();
      }
      if (p > 9) {
        return Status::InvalidArgument("Avro does not support LOCAL TIMESTAMP type with precision: " +
                                       std::to_string(p) + ", it only supports precision less than 9.");
      }
      *out += LogicalLong(p <= 3 ? "local-timestamp-millis" : p <= 6 ? "local-timestamp-micros" : "local-timestamp-nanos");
      return Status::OK();
    case TypeId::kTimestampLtz:
      if (legacy) {
        return Status::NotSupported("Unsupported to derive Schema for type: " + t.ToString() +
                                    " (set 'avro.timestamp_mapping.legacy' to false to map it to timestamp-millis/-micros)");
      }
      if (p > 9) {
        return Status::InvalidArgument("Avro does not support TIMESTAMP type with precision: " + std::to_string(p) +
                                       ", it only supports precision less than 9.");
      }
      *out += LogicalLong(p <= 3 ? "timestamp-millis" : p <= 6 ? "timestamp-micros" : "timestamp-nanos");
      return Status::OK();
    case TypeId::kArray:
      *out += "{\"type\":\"array\",\"items\":";
      RETURN_IF_ERROR(TypeJson(t.child(0), row_name, legacy, out));
      *out += "}";
      return Status::OK();
    case TypeId::kMap:
      if (!t.child(0).IsCharacterString()) {
        return Status::NotSupported("Avro format doesn't support non-string as key type of map. The key type is: " +
                                    t.child(0).ToString());
      }
      *out += "{\"type\":\"map\",\"values\":";
      RETURN_IF_ERROR(TypeJson(t.child(1), row_name, legacy, out));
      *out += "}";
      return Status::OK();
    case TypeId::kRow: {
      *out += "{\"type\":\"record\",\"name\":" + Quoted(row_name) + ",\"fields\":[";
      for (size_t i = 0; i < t.num_children(); ++i) {
        if (i) out->push_back(',');
        *out += "{\"name\":" + Quoted(t.field_name(i)) + ",\"type\":";
        RETURN_IF_ERROR(TypeJson(t.child(i), row_name + "_" + t.field_name(i), legacy, out));
        if (t.child(i).nullable()) *out += ",\"default\":null";
        out->push_back('}');
      }
      *out += "]}";
      return Status::OK();
    }
    default: return Status::NotSupported("Unsupported to derive Schema for type: " + t.ToString());
  }
}

Status TypeJson(const LogicalType& t, const std::string& row_name, bool legacy, std::string* out) {
  if (t.id() == TypeId::kNull) {
    *out += "\"null\"";
    return Status::OK();
  }
  if (!t.nullable()) return BaseTypeJson(t, row_name, legacy, out);
  *out += "[\"null\",";
  RETURN_IF_ERROR(BaseTypeJson(t, row_name, legacy, out));
  out->push_back(']');
  return Status::OK();
}

// The branch a non-null value of a union takes (the first non-null branch), or the node itself.
const AvroNode* NonNull(const AvroNode* node) {
  if (node->type != AvroType::kUnion) return node;
  for (const AvroNode* b : node->branches) {
    if (b->type != AvroType::kNull) return b;
  }
  return node->branches.empty() ? node : node->branches[0];
}

// The unit of a long that carries a timestamp: 1 = milliseconds, 2 = microseconds, 3 = nanoseconds.
int TimestampUnit(const AvroNode& n) {
  switch (n.logical_type) {
    case AvroLogicalType::kTimestampMicros:
    case AvroLogicalType::kLocalTimestampMicros:
    case AvroLogicalType::kTimeMicros: return 2;
    case AvroLogicalType::kTimestampNanos: return 3;
    default: break;
  }
  const std::string* lt = n.Attribute("logicalType");
  if (lt != nullptr && *lt == "\"local-timestamp-nanos\"") return 3;
  return 1;
}

int64_t FloorDiv(int64_t a, int64_t b) {
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}

Status Mismatch(const LogicalType& t, const AvroNode& n, const std::string& path) {
  std::string avro(AvroTypeName(n.type));
  if (const std::string* lt = n.Attribute("logicalType")) avro += " (logicalType " + *lt + ")";
  return Status::InvalidArgument("Column '" + path + "' of type " + t.ToString() +
                                 " cannot be carried by the Avro type " + avro);
}

Status CheckNode(const LogicalType& t, const AvroNode& node, const std::string& path) {
  if (node.type == AvroType::kUnion) {
    size_t non_null = 0;
    for (const AvroNode* b : node.branches) non_null += b->type == AvroType::kNull ? 0 : 1;
    if (non_null > 1) {
      return Status::NotSupported("Column '" + path + "': Avro unions other than [\"null\", T] are not supported");
    }
  }
  const AvroNode& n = *NonNull(&node);
  const AvroType a = n.type;
  switch (t.id()) {
    case TypeId::kNull: return a == AvroType::kNull ? Status::OK() : Mismatch(t, n, path);
    case TypeId::kBoolean: return a == AvroType::kBoolean ? Status::OK() : Mismatch(t, n, path);
    case TypeId::kTinyInt:
    case TypeId::kSmallInt:
    case TypeId::kInteger:
    case TypeId::kBigInt: return a == AvroType::kInt || a == AvroType::kLong ? Status::OK() : Mismatch(t, n, path);
    case TypeId::kFloat:
    case TypeId::kDouble: return a == AvroType::kFloat || a == AvroType::kDouble ? Status::OK() : Mismatch(t, n, path);
    case TypeId::kChar:
    case TypeId::kVarChar:
      return a == AvroType::kString || a == AvroType::kEnum || a == AvroType::kBytes ? Status::OK() : Mismatch(t, n, path);
    case TypeId::kBinary:
    case TypeId::kVarBinary:
      return a == AvroType::kBytes || a == AvroType::kFixed || a == AvroType::kString ? Status::OK() : Mismatch(t, n, path);
    case TypeId::kDecimal:
      if (n.logical_type != AvroLogicalType::kDecimal || n.scale != t.scale()) return Mismatch(t, n, path);
      return Status::OK();
    case TypeId::kDate: return a == AvroType::kInt ? Status::OK() : Mismatch(t, n, path);
    case TypeId::kTime: return a == AvroType::kInt || a == AvroType::kLong ? Status::OK() : Mismatch(t, n, path);
    case TypeId::kTimestamp:
    case TypeId::kTimestampLtz: return a == AvroType::kLong ? Status::OK() : Mismatch(t, n, path);
    case TypeId::kArray:
      if (a != AvroType::kArray) return Mismatch(t, n, path);
      return CheckNode(t.child(0), *n.items, path + "[]");
    case TypeId::kMap:
      if (a != AvroType::kMap || !t.child(0).IsCharacterString()) return Mismatch(t, n, path);
      return CheckNode(t.child(1), *n.items, path + "{}");
    case TypeId::kRow:
      if (a != AvroType::kRecord || n.fields.size() != t.num_children()) return Mismatch(t, n, path);
      for (size_t i = 0; i < t.num_children(); ++i) {
        RETURN_IF_ERROR(CheckNode(t.child(i), *n.fields[i].type, path + "." + t.field_name(i)));
      }
      return Status::OK();
    default: return Mismatch(t, n, path);
  }
}

// Big-endian two's complement, as short as the value allows (Java's BigInteger.toByteArray()).
std::string DecimalBytes(__int128 v) {
  std::string out;
  for (int i = 15; i >= 0; --i) out.push_back(static_cast<char>(static_cast<uint8_t>(v >> (8 * i))));
  size_t skip = 0;
  while (skip + 1 < out.size()) {
    const auto b = static_cast<uint8_t>(out[skip]);
    const auto next = static_cast<uint8_t>(out[skip + 1]);
    if ((b == 0x00 && (next & 0x80) == 0) || (b == 0xff && (next & 0x80) != 0)) {
      ++skip;
    } else {
      break;
    }
  }
  return out.substr(skip);
}

Result<__int128> DecimalFromBytes(std::string_view b) {
  if (b.empty()) return __int128{0};
  if (b.size() > 16) {
    // Sign-extension bytes of a wide fixed are allowed.
    for (size_t i = 0; i + 16 < b.size(); ++i) {
      const auto c = static_cast<uint8_t>(b[i]);
      if (c != 0 && c != 0xff) return Status::InvalidArgument("decimal value wider than 128 bits");
    }
  }
  __int128 v = (static_cast<uint8_t>(b[0]) & 0x80) ? -1 : 0;
  for (char c : b) v = (v << 8) | static_cast<uint8_t>(c);
  return v;
}

void SetNullDeep(Vector* v, size_t row) {
  v->SetNull(row, true);
  if (v->type().IsList() || v->type().id() == TypeId::kMap) {
    v->data<ListEntry>()[row] = ListEntry{static_cast<uint32_t>(v->child(0).size()), 0};
  } else if (v->type().id() == TypeId::kRow) {
    for (size_t i = 0; i < v->num_children(); ++i) SetNullDeep(&v->child(i), row);
  }
}

Status Unexpected(const AvroValue& val, const LogicalType& t) {
  return Status::InvalidArgument("Avro datum " + val.DebugString() + " does not fit type " + t.ToString());
}

Status FromAvro(const AvroValue& val, const AvroNode& node, Vector* v, size_t row);

// FromAvro of an ARRAY, MAP or ROW column: the Avro array, map or record `val` of the non-null node `n`
// appended to the children of `v` (a row's fields written at `row`).
Status FromAvroNested(const AvroValue& val, const AvroNode& n, Vector* v, size_t row) {
  const LogicalType& t = v->type();
  using Kind = AvroValue::Kind;
  const Kind k = val.kind();
  switch (t.id()) {
    case TypeId::kArray: {
      if (k != Kind::kArray) return Unexpected(val, t);
      Vector& child = v->child(0);
      const size_t base = child.size();
      child.Resize(base + val.items().size());
      for (size_t i = 0; i < val.items().size(); ++i) RETURN_IF_ERROR(FromAvro(val.items()[i], *n.items, &child, base + i));
      v->data<ListEntry>()[row] = ListEntry{static_cast<uint32_t>(base), static_cast<uint32_t>(val.items().size())};
      return Status::OK();
    }
    case TypeId::kMap: {
      if (k != Kind::kMap) return Unexpected(val, t);
      Vector& keys = v->child(0);
      Vector& values = v->child(1);
      const size_t base = keys.size();
      const size_t len = val.entries().size();
      keys.Resize(base + len);
      values.Resize(base + len);
      for (size_t i = 0; i < len; ++i) {
        keys.SetString(base + i, val.entries()[i].first);
        RETURN_IF_ERROR(FromAvro(val.entries()[i].second, *n.items, &values, base + i));
      }
      v->data<ListEntry>()[row] = ListEntry{static_cast<uint32_t>(base), static_cast<uint32_t>(len)};
      return Status::OK();
    }
    case TypeId::kRow:
      if (k != Kind::kRecord || val.items().size() != v->num_children()) return Unexpected(val, t);
      for (size_t i = 0; i < v->num_children(); ++i) {
        RETURN_IF_ERROR(FromAvro(val.items()[i], *n.fields[i].type, &v->child(i), row));
      }
      return Status::OK();
    default: return Unexpected(val, t);
  }
}

Status FromAvro(const AvroValue& val, const AvroNode& node, Vector* v, size_t row) {
  const LogicalType& t = v->type();
  if (val.is_null() || t.id() == TypeId::kNull) {
    SetNullDeep(v, row);
    return Status::OK();
  }
  const AvroNode& n = *NonNull(&node);
  using Kind = AvroValue::Kind;
  const Kind k = val.kind();
  const bool is_int = k == Kind::kInt || k == Kind::kLong;
  auto store_int = [&](int64_t lo, int64_t hi, auto* slot) -> Status {
    if (!is_int) return Unexpected(val, t);
    const int64_t x = val.integer();
    if (x < lo || x > hi) return Status::InvalidArgument("Avro value " + std::to_string(x) + " is out of range for " + t.ToString());
    *slot = static_cast<std::remove_pointer_t<decltype(slot)>>(x);
    return Status::OK();
  };
  switch (t.id()) {
    case TypeId::kBoolean:
      if (k != Kind::kBoolean) return Unexpected(val, t);
      v->data<uint8_t>()[row] = val.boolean() ? 1 : 0;
      return Status::OK();
    case TypeId::kTinyInt: return store_int(INT8_MIN, INT8_MAX, &v->data<int8_t>()[row]);
    case TypeId::kSmallInt: return store_int(INT16_MIN, INT16_MAX, &v->data<int16_t>()[row]);
    case TypeId::kInteger:
    case TypeId::kDate: return store_int(INT32_MIN, INT32_MAX, &v->data<int32_t>()[row]);
    case TypeId::kBigInt: return store_int(INT64_MIN, INT64_MAX, &v->data<int64_t>()[row]);
    case TypeId::kFloat:
    case TypeId::kDouble: {
      double d;
      if (k == Kind::kFloat) {
        d = val.float_value();
      } else if (k == Kind::kDouble) {
        d = val.double_value();
      } else if (is_int) {
        d = static_cast<double>(val.integer());
      } else {
        return Unexpected(val, t);
      }
      if (t.id() == TypeId::kFloat) {
        v->data<float>()[row] = static_cast<float>(d);
      } else {
        v->data<double>()[row] = d;
      }
      return Status::OK();
    }
    case TypeId::kChar:
    case TypeId::kVarChar:
    case TypeId::kBinary:
    case TypeId::kVarBinary:
      if (k == Kind::kEnum) {
        if (val.integer() < 0 || static_cast<size_t>(val.integer()) >= n.symbols.size()) return Unexpected(val, t);
        v->SetString(row, n.symbols[static_cast<size_t>(val.integer())]);
        return Status::OK();
      }
      if (k != Kind::kString && k != Kind::kBytes && k != Kind::kFixed) return Unexpected(val, t);
      v->SetString(row, val.bytes());
      return Status::OK();
    case TypeId::kDecimal: {
      if (k != Kind::kBytes && k != Kind::kFixed) return Unexpected(val, t);
      ASSIGN_OR_RETURN(v->data<__int128>()[row], DecimalFromBytes(val.bytes()));
      return Status::OK();
    }
    case TypeId::kTime:
      if (!is_int) return Unexpected(val, t);
      v->data<int32_t>()[row] = static_cast<int32_t>(k == Kind::kLong && n.type == AvroType::kLong && TimestampUnit(n) == 2
                                                         ? FloorDiv(val.integer(), 1000)
                                                         : val.integer());
      return Status::OK();
    case TypeId::kTimestamp:
    case TypeId::kTimestampLtz: {
      if (!is_int) return Unexpected(val, t);
      const int unit = TimestampUnit(n);
      const int64_t x = val.integer();
      if (unit == 1 && (x > INT64_MAX / 1000 || x < INT64_MIN / 1000)) return Unexpected(val, t);
      v->data<int64_t>()[row] = unit == 1 ? x * 1000 : unit == 2 ? x : FloorDiv(x, 1000);
      return Status::OK();
    }
    case TypeId::kArray:
    case TypeId::kMap:
    case TypeId::kRow: return FromAvroNested(val, n, v, row);
    default: return Unexpected(val, t);
  }
}

// ---- Direct paths: rows to and from Avro binary without an AvroValue in between (the schema is the
// writer's on encode, and both the writer's and the reader's on decode).

int UnionBranchFor(const AvroNode& node, bool is_null) {
  if (is_null) return node.NullBranch();
  for (size_t i = 0; i < node.branches.size(); ++i) {
    if (node.branches[i]->type != AvroType::kNull) return static_cast<int>(i);
  }
  return -1;
}

// EncodeDirect of a CHAR/VARCHAR/BINARY/VARBINARY value `s` as the non-null writer node `n`: an enum
// symbol's index, fixed bytes of the node's size, or string/bytes.
Status EncodeString(std::string_view s, const AvroNode& n, std::string_view column, AvroEncoder* enc) {
  if (n.type == AvroType::kEnum) {
    for (size_t i = 0; i < n.symbols.size(); ++i) {
      if (n.symbols[i] == s) {
        enc->WriteLong(static_cast<int64_t>(i));
        return Status::OK();
      }
    }
    return Status::InvalidArgument("Column '" + std::string(column) + "' value '" + std::string(s) +
                                   "' is not a symbol of Avro enum " + n.FullName());
  }
  if (n.type == AvroType::kFixed) {
    if (s.size() != static_cast<size_t>(n.fixed_size)) {
      return Status::InvalidArgument("Column '" + std::string(column) + "' value has " + std::to_string(s.size()) +
                                     " bytes; Avro fixed " + n.FullName() + " has " + std::to_string(n.fixed_size));
    }
    enc->WriteFixed(s);
  } else {
    enc->WriteBytes(s);
  }
  return Status::OK();
}

// EncodeDirect of a DECIMAL's unscaled value as the non-null writer node `n`: its two's-complement
// big-endian bytes, sign-extended to the size of a fixed node.
Status EncodeDecimal(__int128 unscaled, const AvroNode& n, std::string_view column, AvroEncoder* enc) {
  const std::string b = DecimalBytes(unscaled);
  if (n.type != AvroType::kFixed) {
    enc->WriteBytes(b);
    return Status::OK();
  }
  const size_t size = static_cast<size_t>(n.fixed_size);
  if (b.size() > size) return Status::InvalidArgument("Column '" + std::string(column) + "' value does not fit Avro fixed " + n.FullName());
  const char pad = (static_cast<uint8_t>(b[0]) & 0x80) ? '\xff' : '\0';
  enc->WriteFixed(std::string(size - b.size(), pad) + b);
  return Status::OK();
}

Status EncodeDirect(const Vector& v, size_t row, const AvroNode& node, std::string_view column, AvroEncoder* enc) {
  const bool is_null = v.IsNull(row) || v.type().id() == TypeId::kNull;
  const AvroNode* n = &node;
  if (node.type == AvroType::kUnion) {
    const int b = UnionBranchFor(node, is_null);
    if (b < 0) return Status::InvalidArgument("Column '" + std::string(column) + "' is NULL but its Avro type is not nullable");
    enc->WriteLong(b);
    n = node.branches[static_cast<size_t>(b)];
  }
  if (is_null) {
    if (n->type != AvroType::kNull) return Status::InvalidArgument("Column '" + std::string(column) + "' is NULL but its Avro type is not nullable");
    return Status::OK();
  }
  const LogicalType& t = v.type();
  auto integral = [&](int64_t x) -> Status {
    if (n->type == AvroType::kInt && (x < INT32_MIN || x > INT32_MAX)) {
      return Status::InvalidArgument("Column '" + std::string(column) + "' value " + std::to_string(x) + " does not fit Avro int");
    }
    enc->WriteLong(x);
    return Status::OK();
  };
  switch (t.id()) {
    case TypeId::kBoolean: enc->WriteBoolean(v.data<uint8_t>()[row] != 0); return Status::OK();
    case TypeId::kTinyInt: return integral(v.data<int8_t>()[row]);
    case TypeId::kSmallInt: return integral(v.data<int16_t>()[row]);
    case TypeId::kInteger:
    case TypeId::kDate: return integral(v.data<int32_t>()[row]);
    case TypeId::kBigInt: return integral(v.data<int64_t>()[row]);
    case TypeId::kFloat:
    case TypeId::kDouble: {
      const double d = t.id() == TypeId::kFloat ? double{v.data<float>()[row]} : v.data<double>()[row];
      if (n->type == AvroType::kFloat) {
        enc->WriteFloat(static_cast<float>(d));
      } else {
        enc->WriteDouble(d);
      }
      return Status::OK();
    }
    case TypeId::kChar:
    case TypeId::kVarChar:
    case TypeId::kBinary:
    case TypeId::kVarBinary: return EncodeString(v.GetString(row), *n, column, enc);
    case TypeId::kDecimal: return EncodeDecimal(v.data<__int128>()[row], *n, column, enc);
    case TypeId::kTime: {
      const int32_t ms = v.data<int32_t>()[row];
      enc->WriteLong(n->type == AvroType::kLong ? int64_t{ms} * 1000 : int64_t{ms});
      return Status::OK();
    }
    case TypeId::kTimestamp:
    case TypeId::kTimestampLtz: {
      const int64_t us = v.data<int64_t>()[row];
      const int unit = TimestampUnit(*n);
      enc->WriteLong(unit == 1 ? FloorDiv(us, 1000) : unit == 2 ? us : us * 1000);
      return Status::OK();
    }
    case TypeId::kArray:
    case TypeId::kMap: {
      const ListEntry& e = v.list_entry(row);
      if (e.length > 0) {
        enc->WriteLong(e.length);
        for (uint32_t i = 0; i < e.length; ++i) {
          if (t.id() == TypeId::kMap) {
            if (v.child(0).IsNull(e.offset + i)) {
              return Status::InvalidArgument("Column '" + std::string(column) + "' has a NULL map key, which Avro cannot carry");
            }
            enc->WriteBytes(v.child(0).GetString(e.offset + i));
          }
          RETURN_IF_ERROR(EncodeDirect(v.child(t.id() == TypeId::kMap ? 1 : 0), e.offset + i, *n->items, column, enc));
        }
      }
      enc->WriteLong(0);
      return Status::OK();
    }
    case TypeId::kRow:
      for (size_t i = 0; i < v.num_children(); ++i) RETURN_IF_ERROR(EncodeDirect(v.child(i), row, *n->fields[i].type, column, enc));
      return Status::OK();
    default: return Mismatch(t, *n, std::string(column));
  }
}

Status DecodeDirect(AvroDecoder* d, const AvroNode& node, Vector* v, size_t row, int depth);

// Reads one datum of the (non-union) writer node `n` into row `row` of `v` by the scalar rules of FromAvro.
Status DecodeScalar(AvroDecoder* d, const AvroNode& n, Vector* v, size_t row) {
  AvroValue val;
  switch (n.type) {
    case AvroType::kBoolean: {
      ASSIGN_OR_RETURN(bool b, d->ReadBoolean());
      val = AvroValue::Boolean(b);
      break;
    }
    case AvroType::kInt:
    case AvroType::kLong: {
      ASSIGN_OR_RETURN(int64_t x, d->ReadLong());
      val = n.type == AvroType::kInt ? AvroValue::Int(static_cast<int32_t>(x)) : AvroValue::Long(x);
      if (n.type == AvroType::kInt && (x < INT32_MIN || x > INT32_MAX)) return d->Error("int out of range");
      break;
    }
    case AvroType::kFloat: {
      ASSIGN_OR_RETURN(float f, d->ReadFloat());
      val = AvroValue::Float(f);
      break;
    }
    case AvroType::kDouble: {
      ASSIGN_OR_RETURN(double x, d->ReadDouble());
      val = AvroValue::Double(x);
      break;
    }
    case AvroType::kString:
    case AvroType::kBytes:
    case AvroType::kFixed: {
      std::string_view s;
      if (n.type == AvroType::kFixed) {
        ASSIGN_OR_RETURN(s, d->ReadFixed(static_cast<size_t>(n.fixed_size)));
      } else {
        ASSIGN_OR_RETURN(s, d->ReadBytes());
      }
      // Strings go straight to the vector; decimals are decoded from the bytes.
      const TypeId id = v->type().id();
      if (id == TypeId::kDecimal) {
        ASSIGN_OR_RETURN(v->data<__int128>()[row], DecimalFromBytes(s));
        return Status::OK();
      }
      if (!v->type().IsStringLike()) return d->Error("a " + std::string(AvroTypeName(n.type)) + " for a " + v->type().ToString() + " column");
      v->SetString(row, s);
      return Status::OK();
    }
    case AvroType::kEnum: {
      ASSIGN_OR_RETURN(int64_t i, d->ReadLong());
      if (i < 0 || static_cast<size_t>(i) >= n.symbols.size()) return d->Error("enum index " + std::to_string(i) + " out of range");
      val = AvroValue::Enum(static_cast<int32_t>(i));
      break;
    }
    default: return d->Error("unexpected " + std::string(AvroTypeName(n.type)));
  }
  return FromAvro(val, n, v, row);  // a scalar: no allocation
}

Status DecodeDirect(AvroDecoder* d, const AvroNode& node, Vector* v, size_t row, int depth) {
  if (depth > kMaxAvroDepth) return d->Error("nesting too deep");
  const AvroNode* n = &node;
  if (node.type == AvroType::kUnion) {
    ASSIGN_OR_RETURN(int64_t b, d->ReadLong());
    if (b < 0 || static_cast<size_t>(b) >= node.branches.size()) return d->Error("union branch " + std::to_string(b) + " out of range");
    n = node.branches[static_cast<size_t>(b)];
  }
  if (n->type == AvroType::kNull) {
    SetNullDeep(v, row);
    return Status::OK();
  }
  switch (n->type) {
    case AvroType::kArray:
    case AvroType::kMap: {
      const bool is_map = n->type == AvroType::kMap;
      if (v->type().id() != (is_map ? TypeId::kMap : TypeId::kArray)) return d->Error("unexpected " + std::string(AvroTypeName(n->type)));
      Vector& items = v->child(is_map ? 1 : 0);
      Vector& keys = v->child(0);
      const size_t base = items.size();
      while (true) {
        ASSIGN_OR_RETURN(int64_t count, d->ReadBlockCount());
        if (count == 0) break;
        const size_t at = items.size();
        if (static_cast<uint64_t>(count) > d->remaining() + (size_t{1} << 20)) return d->Error("block count too large");
        items.Resize(at + static_cast<size_t>(count));
        if (is_map) keys.Resize(at + static_cast<size_t>(count));
        for (size_t i = 0; i < static_cast<size_t>(count); ++i) {
          if (is_map) {
            ASSIGN_OR_RETURN(std::string_view key, d->ReadBytes());
            keys.SetString(at + i, key);
          }
          RETURN_IF_ERROR(DecodeDirect(d, *n->items, &items, at + i, depth + 1));
        }
      }
      v->data<ListEntry>()[row] = ListEntry{static_cast<uint32_t>(base), static_cast<uint32_t>(items.size() - base)};
      return Status::OK();
    }
    case AvroType::kRecord:
      if (v->type().id() != TypeId::kRow || v->num_children() != n->fields.size()) return d->Error("unexpected record");
      for (size_t i = 0; i < n->fields.size(); ++i) RETURN_IF_ERROR(DecodeDirect(d, *n->fields[i].type, &v->child(i), row, depth + 1));
      return Status::OK();
    default: return DecodeScalar(d, *n, v, row);
  }
}

}  // namespace

Result<std::string> AvroSchemaJsonForRow(const Schema& columns, bool legacy_timestamp_mapping) {
  std::vector<std::string> names;
  std::vector<LogicalType> types;
  for (const Field& f : columns.fields()) {
    names.push_back(f.name);
    types.push_back(f.type);
  }
  std::string out;
  RETURN_IF_ERROR(BaseTypeJson(LogicalType::Row(std::move(names), std::move(types)), kFlinkAvroRecordName,
                               legacy_timestamp_mapping, &out));
  return out;
}

Status CheckAvroRecordForColumns(const AvroNode& record, const Schema& columns) {
  if (record.type != AvroType::kRecord) {
    return Status::InvalidArgument("The Avro schema must be a record, not " + std::string(AvroTypeName(record.type)));
  }
  if (record.fields.size() != columns.size()) {
    return Status::InvalidArgument("The Avro record " + record.FullName() + " has " + std::to_string(record.fields.size()) +
                                   " fields but the table has " + std::to_string(columns.size()) + " columns " +
                                   columns.ToString());
  }
  for (size_t i = 0; i < columns.size(); ++i) {
    RETURN_IF_ERROR(CheckNode(columns.field(i).type, *record.fields[i].type, columns.field(i).name));
  }
  return Status::OK();
}

Status EncodeAvroRow(const Chunk& chunk, size_t row, const AvroNode& record, AvroEncoder* encoder) {
  for (size_t i = 0; i < chunk.num_columns(); ++i) {
    RETURN_IF_ERROR(EncodeDirect(chunk.column(i), row, *record.fields[i].type, record.fields[i].name, encoder));
  }
  return Status::OK();
}

Status DecodeAvroRow(AvroDecoder* decoder, const AvroNode& record, const std::vector<int>& fields, Chunk* out) {
  // Every field is decoded into a scratch column set only when a projection drops some: the common
  // case (all fields, in order) writes into `out` directly.
  bool identity = fields.size() == record.fields.size();
  for (size_t j = 0; identity && j < fields.size(); ++j) identity = fields[j] == static_cast<int>(j);
  const size_t row = out->size();
  out->Resize(row + 1);
  for (size_t f = 0; f < record.fields.size(); ++f) {
    Status s;
    if (identity) {
      s = DecodeDirect(decoder, *record.fields[f].type, &out->column(f), row, 1);
    } else {
      auto it = std::find(fields.begin(), fields.end(), static_cast<int>(f));
      s = it == fields.end() ? SkipAvroValue(*record.fields[f].type, decoder)
                             : DecodeDirect(decoder, *record.fields[f].type, &out->column(static_cast<size_t>(it - fields.begin())), row, 1);
    }
    if (!s.ok()) {
      out->Resize(row);
      return Status::InvalidArgument("field '" + record.fields[f].name + "': " + s.message());
    }
  }
  return Status::OK();
}

Status AppendAvroRecord(const AvroValue& value, const AvroNode& record, const std::vector<int>& fields, Chunk* out) {
  if (value.kind() != AvroValue::Kind::kRecord) return Status::InvalidArgument("the Avro datum is not a record");
  const size_t row = out->size();
  out->Resize(row + 1);
  for (size_t j = 0; j < fields.size(); ++j) {
    const size_t f = static_cast<size_t>(fields[j]);
    Status s = FromAvro(value.field(f), *record.fields[f].type, &out->column(j), row);
    if (!s.ok()) {
      out->Resize(row);
      return Status::InvalidArgument("field '" + record.fields[f].name + "': " + s.message());
    }
  }
  return Status::OK();
}

}  // namespace sluice
