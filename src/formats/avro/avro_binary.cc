#include "formats/avro/avro_binary.h"

#include <cstring>

namespace sluice {

Status AvroDecoder::Error(const std::string& what) const {
  return Status::InvalidArgument("malformed Avro data: " + what + " at byte " + std::to_string(pos_));
}

Result<int64_t> AvroDecoder::ReadLong() {
  uint64_t v = 0;
  for (int shift = 0; shift < 70; shift += 7) {
    if (pos_ >= data_.size()) return Error("truncated varint");
    const uint8_t b = static_cast<uint8_t>(data_[pos_++]);
    if (shift == 63 && (b & 0x7e) != 0) return Error("varint longer than 64 bits");
    v |= static_cast<uint64_t>(b & 0x7f) << shift;
    if ((b & 0x80) == 0) return static_cast<int64_t>((v >> 1) ^ (~(v & 1) + 1));
  }
  return Error("varint longer than 10 bytes");
}

Result<int32_t> AvroDecoder::ReadInt() {
  ASSIGN_OR_RETURN(int64_t v, ReadLong());
  if (v < INT32_MIN || v > INT32_MAX) return Error("int out of range (" + std::to_string(v) + ")");
  return static_cast<int32_t>(v);
}

Result<bool> AvroDecoder::ReadBoolean() {
  if (pos_ >= data_.size()) return Error("truncated boolean");
  const uint8_t b = static_cast<uint8_t>(data_[pos_]);
  if (b > 1) return Error("boolean byte " + std::to_string(b));
  ++pos_;
  return b == 1;
}

Result<float> AvroDecoder::ReadFloat() {
  if (remaining() < 4) return Error("truncated float");
  uint32_t bits = 0;
  for (int i = 3; i >= 0; --i) bits = (bits << 8) | static_cast<uint8_t>(data_[pos_ + i]);
  pos_ += 4;
  float v;
  std::memcpy(&v, &bits, 4);
  return v;
}

Result<double> AvroDecoder::ReadDouble() {
  if (remaining() < 8) return Error("truncated double");
  uint64_t bits = 0;
  for (int i = 7; i >= 0; --i) bits = (bits << 8) | static_cast<uint8_t>(data_[pos_ + i]);
  pos_ += 8;
  double v;
  std::memcpy(&v, &bits, 8);
  return v;
}

Result<std::string_view> AvroDecoder::ReadBytes() {
  ASSIGN_OR_RETURN(int64_t len, ReadLong());
  if (len < 0) return Error("negative length " + std::to_string(len));
  if (static_cast<uint64_t>(len) > remaining()) {
    return Error("length " + std::to_string(len) + " exceeds the " + std::to_string(remaining()) + " bytes left");
  }
  std::string_view v = data_.substr(pos_, static_cast<size_t>(len));
  pos_ += static_cast<size_t>(len);
  return v;
}

Result<std::string_view> AvroDecoder::ReadFixed(size_t size) {
  if (size > remaining()) return Error("truncated fixed of " + std::to_string(size) + " bytes");
  std::string_view v = data_.substr(pos_, size);
  pos_ += size;
  return v;
}

Result<int64_t> AvroDecoder::ReadBlockCount() {
  ASSIGN_OR_RETURN(int64_t count, ReadLong());
  if (count >= 0) {
    // Items may take no bytes at all (nulls, empty records), so a count cannot be checked against
    // the input here; the decoders bound it (CheckItemCount).
    return count;
  }
  if (count == INT64_MIN) return Error("block count out of range");
  ASSIGN_OR_RETURN(int64_t size, ReadLong());
  if (size < 0 || static_cast<uint64_t>(size) > remaining()) {
    return Error("block size " + std::to_string(size) + " exceeds the " + std::to_string(remaining()) +
                 " bytes left");
  }
  return -count;
}

Status AvroDecoder::Skip(size_t n) {
  if (n > remaining()) return Error("truncated data");
  pos_ += n;
  return Status::OK();
}

void AvroEncoder::WriteLong(int64_t v) {
  uint64_t z = (static_cast<uint64_t>(v) << 1) ^ static_cast<uint64_t>(v >> 63);
  while (z >= 0x80) {
    out_->push_back(static_cast<char>((z & 0x7f) | 0x80));
    z >>= 7;
  }
  out_->push_back(static_cast<char>(z));
}

void AvroEncoder::WriteFloat(float v) {
  uint32_t bits;
  std::memcpy(&bits, &v, 4);
  for (int i = 0; i < 4; ++i) out_->push_back(static_cast<char>((bits >> (8 * i)) & 0xff));
}

void AvroEncoder::WriteDouble(double v) {
  uint64_t bits;
  std::memcpy(&bits, &v, 8);
  for (int i = 0; i < 8; ++i) out_->push_back(static_cast<char>((bits >> (8 * i)) & 0xff));
}

void AvroEncoder::WriteBytes(std::string_view v) {
  WriteLong(static_cast<int64_t>(v.size()));
  out_->append(v);
}

namespace {

// Items of zero encoded bytes (null, empty records) could make a tiny input claim billions of
// items; a block may not hold more items than this when its items take no bytes.
constexpr int64_t kMaxEmptyItems = 1 << 20;

Status CheckItemCount(const AvroNode& items, int64_t count, const AvroDecoder& d, int64_t* total) {
  *total += count;
  if (static_cast<uint64_t>(count) <= d.remaining() || *total <= kMaxEmptyItems) return Status::OK();
  return d.Error("a block of " + std::to_string(count) + " " + std::string(AvroTypeName(items.type)) +
                 " items in " + std::to_string(d.remaining()) + " bytes");
}

}  // namespace

Status DecodeAvroValue(const AvroNode& schema, AvroDecoder* d, AvroValue* out, int depth) {
  if (depth > kMaxAvroDepth) return d->Error("data nested deeper than " + std::to_string(kMaxAvroDepth));
  switch (schema.type) {
    case AvroType::kNull: *out = AvroValue::Null(); return Status::OK();
    case AvroType::kBoolean: {
      ASSIGN_OR_RETURN(bool v, d->ReadBoolean());
      *out = AvroValue::Boolean(v);
      return Status::OK();
    }
    case AvroType::kInt: {
      ASSIGN_OR_RETURN(int32_t v, d->ReadInt());
      *out = AvroValue::Int(v);
      return Status::OK();
    }
    case AvroType::kLong: {
      ASSIGN_OR_RETURN(int64_t v, d->ReadLong());
      *out = AvroValue::Long(v);
      return Status::OK();
    }
    case AvroType::kFloat: {
      ASSIGN_OR_RETURN(float v, d->ReadFloat());
      *out = AvroValue::Float(v);
      return Status::OK();
    }
    case AvroType::kDouble: {
      ASSIGN_OR_RETURN(double v, d->ReadDouble());
      *out = AvroValue::Double(v);
      return Status::OK();
    }
    case AvroType::kBytes:
    case AvroType::kString: {
      ASSIGN_OR_RETURN(std::string_view v, d->ReadBytes());
      *out = schema.type == AvroType::kBytes ? AvroValue::Bytes(std::string(v)) : AvroValue::String(std::string(v));
      return Status::OK();
    }
    case AvroType::kFixed: {
      ASSIGN_OR_RETURN(std::string_view v, d->ReadFixed(static_cast<size_t>(schema.fixed_size)));
      *out = AvroValue::Fixed(std::string(v));
      return Status::OK();
    }
    case AvroType::kEnum: {
      ASSIGN_OR_RETURN(int32_t v, d->ReadInt());
      if (v < 0 || static_cast<size_t>(v) >= schema.symbols.size()) {
        return d->Error("enum index " + std::to_string(v) + " outside " + schema.FullName());
      }
      *out = AvroValue::Enum(v);
      return Status::OK();
    }
    case AvroType::kUnion: {
      ASSIGN_OR_RETURN(int64_t b, d->ReadLong());
      if (b < 0 || static_cast<size_t>(b) >= schema.branches.size()) {
        return d->Error("union branch " + std::to_string(b) + " of " + std::to_string(schema.branches.size()));
      }
      return DecodeAvroValue(*schema.branches[b], d, out, depth + 1);
    }
    case AvroType::kRecord: {
      std::vector<AvroValue> fields(schema.fields.size());
      for (size_t i = 0; i < fields.size(); ++i) {
        RETURN_IF_ERROR(DecodeAvroValue(*schema.fields[i].type, d, &fields[i], depth + 1));
      }
      *out = AvroValue::Record(std::move(fields));
      return Status::OK();
    }
    case AvroType::kArray:
    case AvroType::kMap: {
      std::vector<AvroValue> items;
      AvroValue::Entries entries;
      int64_t total = 0;
      while (true) {
        ASSIGN_OR_RETURN(int64_t count, d->ReadBlockCount());
        if (count == 0) break;
        RETURN_IF_ERROR(CheckItemCount(*schema.items, count, *d, &total));
        for (int64_t i = 0; i < count; ++i) {
          AvroValue v;
          if (schema.type == AvroType::kMap) {
            ASSIGN_OR_RETURN(std::string_view key, d->ReadBytes());
            RETURN_IF_ERROR(DecodeAvroValue(*schema.items, d, &v, depth + 1));
            entries.emplace_back(std::string(key), std::move(v));
          } else {
            RETURN_IF_ERROR(DecodeAvroValue(*schema.items, d, &v, depth + 1));
            items.push_back(std::move(v));
          }
        }
      }
      *out = schema.type == AvroType::kMap ? AvroValue::Map(std::move(entries)) : AvroValue::Array(std::move(items));
      return Status::OK();
    }
  }
  return d->Error("unknown schema type");
}

Status SkipAvroValue(const AvroNode& schema, AvroDecoder* d, int depth) {
  if (depth > kMaxAvroDepth) return d->Error("data nested deeper than " + std::to_string(kMaxAvroDepth));
  switch (schema.type) {
    case AvroType::kNull: return Status::OK();
    case AvroType::kBoolean: return d->ReadBoolean().status();
    case AvroType::kInt:
    case AvroType::kLong:
    case AvroType::kEnum: return d->ReadLong().status();
    case AvroType::kFloat: return d->Skip(4);
    case AvroType::kDouble: return d->Skip(8);
    case AvroType::kBytes:
    case AvroType::kString: return d->ReadBytes().status();
    case AvroType::kFixed: return d->Skip(static_cast<size_t>(schema.fixed_size));
    case AvroType::kUnion: {
      ASSIGN_OR_RETURN(int64_t b, d->ReadLong());
      if (b < 0 || static_cast<size_t>(b) >= schema.branches.size()) {
        return d->Error("union branch " + std::to_string(b) + " of " + std::to_string(schema.branches.size()));
      }
      return SkipAvroValue(*schema.branches[b], d, depth + 1);
    }
    case AvroType::kRecord:
      for (const AvroField& f : schema.fields) RETURN_IF_ERROR(SkipAvroValue(*f.type, d, depth + 1));
      return Status::OK();
    case AvroType::kArray:
    case AvroType::kMap: {
      int64_t total = 0;
      while (true) {
        ASSIGN_OR_RETURN(int64_t raw, d->ReadLong());
        if (raw == 0) return Status::OK();
        if (raw < 0) {
          if (raw == INT64_MIN) return d->Error("block count out of range");
          ASSIGN_OR_RETURN(int64_t size, d->ReadLong());
          if (size < 0) return d->Error("negative block size");
          RETURN_IF_ERROR(d->Skip(static_cast<size_t>(size)));
          continue;
        }
        RETURN_IF_ERROR(CheckItemCount(*schema.items, raw, *d, &total));
        for (int64_t i = 0; i < raw; ++i) {
          if (schema.type == AvroType::kMap) RETURN_IF_ERROR(d->ReadBytes().status());
          RETURN_IF_ERROR(SkipAvroValue(*schema.items, d, depth + 1));
        }
      }
    }
  }
  return d->Error("unknown schema type");
}

namespace {

using Kind = AvroValue::Kind;

// How well a value of `kind` fits `type`: 2 exactly, 1 through a promotion, 0 not at all.
int Fit(const AvroNode& schema, const AvroValue& v) {
  const Kind kind = v.kind();
  switch (schema.type) {
    case AvroType::kNull: return kind == Kind::kNull ? 2 : 0;
    case AvroType::kBoolean: return kind == Kind::kBoolean ? 2 : 0;
    case AvroType::kInt:
      if (kind == Kind::kInt) return 2;
      return kind == Kind::kLong && v.integer() >= INT32_MIN && v.integer() <= INT32_MAX ? 1 : 0;
    case AvroType::kLong: return kind == Kind::kLong ? 2 : kind == Kind::kInt ? 1 : 0;
    case AvroType::kFloat: return kind == Kind::kFloat ? 2 : kind == Kind::kInt || kind == Kind::kLong ? 1 : 0;
    case AvroType::kDouble:
      return kind == Kind::kDouble ? 2 : kind == Kind::kFloat || kind == Kind::kInt || kind == Kind::kLong ? 1 : 0;
    case AvroType::kBytes: return kind == Kind::kBytes ? 2 : kind == Kind::kString || kind == Kind::kFixed ? 1 : 0;
    case AvroType::kString: return kind == Kind::kString ? 2 : kind == Kind::kBytes ? 1 : 0;
    case AvroType::kFixed:
      return (kind == Kind::kFixed || kind == Kind::kBytes) &&
                     v.bytes().size() == static_cast<size_t>(schema.fixed_size)
                 ? (kind == Kind::kFixed ? 2 : 1)
                 : 0;
    case AvroType::kEnum: return kind == Kind::kEnum ? 2 : kind == Kind::kString ? 1 : 0;
    case AvroType::kArray: return kind == Kind::kArray ? 2 : 0;
    case AvroType::kMap: return kind == Kind::kMap ? 2 : 0;
    case AvroType::kRecord:
      return kind == Kind::kRecord && v.items().size() == schema.fields.size() ? 2 : 0;
    case AvroType::kUnion: return 0;
  }
  return 0;
}

Status Mismatch(const AvroNode& schema, const AvroValue& v, const std::string& path) {
  return Status::InvalidArgument("cannot write " + v.DebugString().substr(0, 60) + " as Avro " +
                                 std::string(AvroTypeName(schema.type)) + " at " + (path.empty() ? "<root>" : path));
}

Status Encode(const AvroNode& schema, const AvroValue& v, AvroEncoder* e, const std::string& path, int depth) {
  if (depth > kMaxAvroDepth) return Status::InvalidArgument("Avro value nested too deep at " + path);
  if (schema.type == AvroType::kUnion) {
    int best = -1;
    int best_fit = 0;
    for (size_t i = 0; i < schema.branches.size(); ++i) {
      const int fit = Fit(*schema.branches[i], v);
      if (fit > best_fit) {
        best = static_cast<int>(i);
        best_fit = fit;
      }
    }
    if (best < 0) return Mismatch(schema, v, path);
    e->WriteLong(best);
    return Encode(*schema.branches[best], v, e, path, depth + 1);
  }
  if (Fit(schema, v) == 0) return Mismatch(schema, v, path);
  switch (schema.type) {
    case AvroType::kNull: return Status::OK();
    case AvroType::kBoolean: e->WriteBoolean(v.boolean()); return Status::OK();
    case AvroType::kInt:
    case AvroType::kLong: e->WriteLong(v.integer()); return Status::OK();
    case AvroType::kFloat:
      e->WriteFloat(v.kind() == Kind::kFloat ? v.float_value() : static_cast<float>(v.integer()));
      return Status::OK();
    case AvroType::kDouble:
      e->WriteDouble(v.kind() == Kind::kDouble  ? v.double_value()
                     : v.kind() == Kind::kFloat ? double{v.float_value()}
                                                : static_cast<double>(v.integer()));
      return Status::OK();
    case AvroType::kBytes:
    case AvroType::kString: e->WriteBytes(v.bytes()); return Status::OK();
    case AvroType::kFixed: e->WriteFixed(v.bytes()); return Status::OK();
    case AvroType::kEnum: {
      int64_t index = -1;
      if (v.kind() == Kind::kEnum) {
        index = v.integer();
      } else {
        for (size_t i = 0; i < schema.symbols.size(); ++i) {
          if (schema.symbols[i] == v.bytes()) index = static_cast<int64_t>(i);
        }
      }
      if (index < 0 || static_cast<size_t>(index) >= schema.symbols.size()) return Mismatch(schema, v, path);
      e->WriteLong(index);
      return Status::OK();
    }
    case AvroType::kRecord:
      for (size_t i = 0; i < schema.fields.size(); ++i) {
        RETURN_IF_ERROR(Encode(*schema.fields[i].type, v.items()[i], e, path + "." + schema.fields[i].name, depth + 1));
      }
      return Status::OK();
    case AvroType::kArray:
      if (!v.items().empty()) {
        e->WriteLong(static_cast<int64_t>(v.items().size()));
        for (const AvroValue& item : v.items()) RETURN_IF_ERROR(Encode(*schema.items, item, e, path + "[]", depth + 1));
      }
      e->WriteLong(0);
      return Status::OK();
    case AvroType::kMap:
      if (!v.entries().empty()) {
        e->WriteLong(static_cast<int64_t>(v.entries().size()));
        for (const auto& [key, item] : v.entries()) {
          e->WriteBytes(key);
          RETURN_IF_ERROR(Encode(*schema.items, item, e, path + "[" + key + "]", depth + 1));
        }
      }
      e->WriteLong(0);
      return Status::OK();
    case AvroType::kUnion: break;
  }
  return Mismatch(schema, v, path);
}

}  // namespace

Status EncodeAvroValue(const AvroNode& schema, const AvroValue& value, AvroEncoder* encoder) {
  return Encode(schema, value, encoder, "", 0);
}

}  // namespace sluice
