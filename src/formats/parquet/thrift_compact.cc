#include "formats/parquet/thrift_compact.h"

#include <cstring>
#include <string>

namespace sluice::parquet {

void AppendVarint(std::string* out, uint64_t v) {
  char buf[10];
  int n = 0;
  while (v >= 0x80) {
    buf[n++] = static_cast<char>((v & 0x7F) | 0x80);
    v >>= 7;
  }
  buf[n++] = static_cast<char>(v);
  out->append(buf, n);
}

// ---------------------------------------------------------------------------------------------
// Writer

void ThriftWriter::BeginStruct() {
  last_ids_.push_back(last_id_);
  last_id_ = 0;
}

void ThriftWriter::EndStruct() {
  out_->push_back(0);
  last_id_ = last_ids_.back();
  last_ids_.pop_back();
}

void ThriftWriter::FieldHeader(int16_t id, ThriftType type) {
  int delta = id - last_id_;
  if (delta > 0 && delta <= 15) {
    out_->push_back(static_cast<char>((delta << 4) | static_cast<int>(type)));
  } else {
    out_->push_back(static_cast<char>(type));
    AppendVarint(out_, ZigZagEncode(id));
  }
  last_id_ = id;
}

void ThriftWriter::FieldBool(int16_t id, bool v) { FieldHeader(id, v ? ThriftType::kBoolTrue : ThriftType::kBoolFalse); }

void ThriftWriter::FieldI8(int16_t id, int8_t v) {
  FieldHeader(id, ThriftType::kByte);
  out_->push_back(static_cast<char>(v));
}

void ThriftWriter::FieldI16(int16_t id, int16_t v) {
  FieldHeader(id, ThriftType::kI16);
  AppendVarint(out_, ZigZagEncode(v));
}

void ThriftWriter::FieldI32(int16_t id, int32_t v) {
  FieldHeader(id, ThriftType::kI32);
  AppendVarint(out_, ZigZagEncode(v));
}

void ThriftWriter::FieldI64(int16_t id, int64_t v) {
  FieldHeader(id, ThriftType::kI64);
  AppendVarint(out_, ZigZagEncode(v));
}

void ThriftWriter::FieldDouble(int16_t id, double v) {
  FieldHeader(id, ThriftType::kDouble);
  char buf[8];
  std::memcpy(buf, &v, 8);  // little-endian hosts only (as the rest of the Parquet code)
  out_->append(buf, 8);
}

void ThriftWriter::FieldBinary(int16_t id, std::string_view v) {
  FieldHeader(id, ThriftType::kBinary);
  ElementBinary(v);
}

void ThriftWriter::FieldStructBegin(int16_t id) {
  FieldHeader(id, ThriftType::kStruct);
  BeginStruct();
}

void ThriftWriter::FieldListBegin(int16_t id, ThriftType element_type, size_t size) {
  FieldHeader(id, ThriftType::kList);
  if (size < 15) {
    out_->push_back(static_cast<char>((size << 4) | static_cast<int>(element_type)));
  } else {
    out_->push_back(static_cast<char>(0xF0 | static_cast<int>(element_type)));
    AppendVarint(out_, size);
  }
}

void ThriftWriter::ElementI32(int32_t v) { AppendVarint(out_, ZigZagEncode(v)); }
void ThriftWriter::ElementI64(int64_t v) { AppendVarint(out_, ZigZagEncode(v)); }
void ThriftWriter::ElementBinary(std::string_view v) {
  AppendVarint(out_, v.size());
  out_->append(v);
}
void ThriftWriter::ElementBool(bool v) { out_->push_back(static_cast<char>(v ? 1 : 2)); }

// ---------------------------------------------------------------------------------------------
// Reader

Status ThriftReader::Error(std::string_view what) const {
  return Status::InvalidArgument("malformed Thrift compact data at byte " + std::to_string(pos_) + ": " +
                                 std::string(what));
}

Status ThriftReader::ReadByte(uint8_t* b) {
  if (pos_ >= size_) return Error("unexpected end of data");
  *b = data_[pos_++];
  return Status::OK();
}

Status ThriftReader::ReadVarint(uint64_t* v) {
  uint64_t result = 0;
  for (int shift = 0; shift < 64; shift += 7) {
    uint8_t b = 0;
    RETURN_IF_ERROR(ReadByte(&b));
    result |= static_cast<uint64_t>(b & 0x7F) << shift;
    if ((b & 0x80) == 0) {
      *v = result;
      return Status::OK();
    }
  }
  return Error("varint longer than 10 bytes");
}

Status ThriftReader::ReadZigZag(int64_t* v) {
  uint64_t u = 0;
  RETURN_IF_ERROR(ReadVarint(&u));
  *v = ZigZagDecode(u);
  return Status::OK();
}

Status ThriftReader::BeginStruct() {
  if (last_ids_.size() >= kMaxDepth) return Error("structs nested deeper than 64 levels");
  last_ids_.push_back(last_id_);
  last_id_ = 0;
  return Status::OK();
}

Status ThriftReader::EndStruct() {
  if (last_ids_.empty()) return Error("struct end without a begin");
  last_id_ = last_ids_.back();
  last_ids_.pop_back();
  return Status::OK();
}

Status ThriftReader::ReadFieldHeader(int16_t* id, ThriftType* type) {
  uint8_t b = 0;
  RETURN_IF_ERROR(ReadByte(&b));
  uint8_t t = b & 0x0F;
  if (t > static_cast<uint8_t>(ThriftType::kStruct)) return Error("unknown field type " + std::to_string(t));
  *type = static_cast<ThriftType>(t);
  if (*type == ThriftType::kStop) {
    *id = 0;
    return Status::OK();
  }
  int delta = b >> 4;
  if (delta != 0) {
    *id = static_cast<int16_t>(last_id_ + delta);
  } else {
    int64_t v = 0;
    RETURN_IF_ERROR(ReadZigZag(&v));
    if (v < INT16_MIN || v > INT16_MAX) return Error("field id out of range");
    *id = static_cast<int16_t>(v);
  }
  last_id_ = *id;
  return Status::OK();
}

Status ThriftReader::ExpectType(ThriftType got, ThriftType want) {
  if (got == want) return Status::OK();
  return Error("field has type " + std::to_string(static_cast<int>(got)) + ", expected " +
               std::to_string(static_cast<int>(want)));
}

Status ThriftReader::ReadBool(ThriftType type, bool* v) {
  if (type == ThriftType::kBoolTrue || type == ThriftType::kBoolFalse) {
    *v = type == ThriftType::kBoolTrue;
    return Status::OK();
  }
  return Error("field is not a bool");
}

Status ThriftReader::ReadI8(ThriftType type, int8_t* v) {
  RETURN_IF_ERROR(ExpectType(type, ThriftType::kByte));
  uint8_t b = 0;
  RETURN_IF_ERROR(ReadByte(&b));
  *v = static_cast<int8_t>(b);
  return Status::OK();
}

Status ThriftReader::ReadI16(ThriftType type, int16_t* v) {
  RETURN_IF_ERROR(ExpectType(type, ThriftType::kI16));
  int64_t x = 0;
  RETURN_IF_ERROR(ReadZigZag(&x));
  if (x < INT16_MIN || x > INT16_MAX) return Error("i16 out of range");
  *v = static_cast<int16_t>(x);
  return Status::OK();
}

Status ThriftReader::ReadI32(ThriftType type, int32_t* v) {
  RETURN_IF_ERROR(ExpectType(type, ThriftType::kI32));
  return ReadElementI32(v);
}

Status ThriftReader::ReadI64(ThriftType type, int64_t* v) {
  RETURN_IF_ERROR(ExpectType(type, ThriftType::kI64));
  return ReadElementI64(v);
}

Status ThriftReader::ReadDouble(ThriftType type, double* v) {
  RETURN_IF_ERROR(ExpectType(type, ThriftType::kDouble));
  if (size_ - pos_ < 8) return Error("unexpected end of data in a double");
  std::memcpy(v, data_ + pos_, 8);
  pos_ += 8;
  return Status::OK();
}

Status ThriftReader::ReadBinary(ThriftType type, std::string* v) {
  RETURN_IF_ERROR(ExpectType(type, ThriftType::kBinary));
  return ReadElementBinary(v);
}

Status ThriftReader::ReadListBegin(ThriftType type, ThriftType* element_type, size_t* size) {
  if (type != ThriftType::kList && type != ThriftType::kSet) return Error("field is not a list");
  uint8_t b = 0;
  RETURN_IF_ERROR(ReadByte(&b));
  uint8_t t = b & 0x0F;
  if (t == 0 || t > static_cast<uint8_t>(ThriftType::kStruct)) return Error("unknown list element type");
  *element_type = static_cast<ThriftType>(t);
  uint64_t n = b >> 4;
  if (n == 15) RETURN_IF_ERROR(ReadVarint(&n));
  // Every element takes at least one byte, so a longer list cannot be genuine.
  if (n > size_ - pos_) return Error("list of " + std::to_string(n) + " elements is longer than the data");
  *size = static_cast<size_t>(n);
  return Status::OK();
}

Status ThriftReader::ReadElementBool(bool* v) {
  uint8_t b = 0;
  RETURN_IF_ERROR(ReadByte(&b));
  *v = b == 1;
  return Status::OK();
}

Status ThriftReader::ReadElementI32(int32_t* v) {
  int64_t x = 0;
  RETURN_IF_ERROR(ReadZigZag(&x));
  if (x < INT32_MIN || x > INT32_MAX) return Error("i32 out of range");
  *v = static_cast<int32_t>(x);
  return Status::OK();
}

Status ThriftReader::ReadElementI64(int64_t* v) { return ReadZigZag(v); }

Status ThriftReader::ReadElementBinary(std::string* v) {
  uint64_t n;
  RETURN_IF_ERROR(ReadVarint(&n));
  if (n > size_ - pos_) return Error("binary of " + std::to_string(n) + " bytes is longer than the data");
  v->assign(reinterpret_cast<const char*>(data_ + pos_), n);
  pos_ += n;
  return Status::OK();
}

Status ThriftReader::Skip(ThriftType type) { return SkipInternal(type, static_cast<int>(last_ids_.size())); }

Status ThriftReader::SkipInternal(ThriftType type, int depth) {
  if (depth >= kMaxDepth) return Error("values nested deeper than 64 levels");
  uint64_t u = 0;
  switch (type) {
    case ThriftType::kBoolTrue:
    case ThriftType::kBoolFalse:
      return Status::OK();
    case ThriftType::kByte: {
      uint8_t b = 0;
      return ReadByte(&b);
    }
    case ThriftType::kI16:
    case ThriftType::kI32:
    case ThriftType::kI64:
      return ReadVarint(&u);
    case ThriftType::kDouble:
      if (size_ - pos_ < 8) return Error("unexpected end of data in a double");
      pos_ += 8;
      return Status::OK();
    case ThriftType::kBinary:
      RETURN_IF_ERROR(ReadVarint(&u));
      if (u > size_ - pos_) return Error("binary longer than the data");
      pos_ += u;
      return Status::OK();
    case ThriftType::kList:
    case ThriftType::kSet: {
      ThriftType et;
      size_t n;
      RETURN_IF_ERROR(ReadListBegin(type, &et, &n));
      for (size_t i = 0; i < n; ++i) {
        if (et == ThriftType::kBoolTrue || et == ThriftType::kBoolFalse) {
          uint8_t b = 0;
          RETURN_IF_ERROR(ReadByte(&b));
        } else {
          RETURN_IF_ERROR(SkipInternal(et, depth + 1));
        }
      }
      return Status::OK();
    }
    case ThriftType::kMap: {
      RETURN_IF_ERROR(ReadVarint(&u));
      if (u == 0) return Status::OK();
      if (u > size_ - pos_) return Error("map longer than the data");
      uint8_t kv = 0;
      RETURN_IF_ERROR(ReadByte(&kv));
      auto kt = static_cast<ThriftType>(kv >> 4), vt = static_cast<ThriftType>(kv & 0x0F);
      if ((kv >> 4) > 12 || (kv & 0x0F) > 12 || (kv >> 4) == 0 || (kv & 0x0F) == 0) return Error("bad map types");
      for (uint64_t i = 0; i < u; ++i) {
        for (ThriftType t : {kt, vt}) {
          if (t == ThriftType::kBoolTrue || t == ThriftType::kBoolFalse) {
            uint8_t b = 0;
            RETURN_IF_ERROR(ReadByte(&b));
          } else {
            RETURN_IF_ERROR(SkipInternal(t, depth + 1));
          }
        }
      }
      return Status::OK();
    }
    case ThriftType::kStruct: {
      RETURN_IF_ERROR(BeginStruct());
      while (true) {
        int16_t id;
        ThriftType t;
        RETURN_IF_ERROR(ReadFieldHeader(&id, &t));
        if (t == ThriftType::kStop) break;
        RETURN_IF_ERROR(SkipInternal(t, depth + 1));
      }
      return EndStruct();
    }
    case ThriftType::kStop:
      break;
  }
  return Error("cannot skip a value of type stop");
}

}  // namespace sluice::parquet
