#include "state/state_serde.h"

#include <cstring>

#include "types/vector.h"

namespace sluice {

void StateWriter::PutU32(uint32_t v) {
  char b[4];
  for (int i = 0; i < 4; ++i) b[i] = static_cast<char>((v >> (8 * i)) & 0xFF);
  buf_.append(b, 4);
}

void StateWriter::PutU64(uint64_t v) {
  char b[8];
  for (int i = 0; i < 8; ++i) b[i] = static_cast<char>((v >> (8 * i)) & 0xFF);
  buf_.append(b, 8);
}

void StateWriter::PutDouble(double v) {
  uint64_t bits;
  std::memcpy(&bits, &v, sizeof bits);
  PutU64(bits);
}

void StateWriter::PutVarint(uint64_t v) {
  while (v >= 0x80) {
    buf_.push_back(static_cast<char>((v & 0x7F) | 0x80));
    v >>= 7;
  }
  buf_.push_back(static_cast<char>(v));
}

void StateWriter::PutString(std::string_view s) {
  PutVarint(s.size());
  buf_.append(s.data(), s.size());
}

void StateWriter::PutVector(const Vector& v) { PutVectorRange(v, 0, v.size()); }

void StateWriter::PutVectorRange(const Vector& v, size_t begin, size_t n) {
  const LogicalType& t = v.type();
  if (t.IsList() && (begin != 0 || n != v.size())) {
    // A collection's entries point into its children: write a compacted copy of the range.
    Vector slice(t);
    slice.AppendFrom(v, nullptr, begin, n);
    PutVector(slice);
    return;
  }
  PutU8(static_cast<uint8_t>(t.id()));
  PutVarint(n);
  const uint8_t* validity = v.validity();
  PutBool(validity != nullptr);
  if (validity != nullptr) PutRaw(validity + begin, n);
  if (t.IsStringLike()) {
    // All lengths, then all bytes: two bulk writes rather than one length-prefixed string per row.
    const std::string_view* strings = v.data<std::string_view>() + begin;
    std::vector<uint32_t> lengths(n);
    size_t total = 0;
    for (size_t i = 0; i < n; ++i) {
      lengths[i] = validity == nullptr || validity[begin + i] ? static_cast<uint32_t>(strings[i].size()) : 0;
      total += lengths[i];
    }
    Reserve(n * sizeof(uint32_t) + total);
    PutRaw(lengths.data(), n * sizeof(uint32_t));
    // State copies its strings into its own heap in row order, so consecutive rows' bytes are mostly
    // adjacent: copy each run of adjacent strings at once.
    const char* run = nullptr;
    size_t run_len = 0;
    for (size_t i = 0; i < n; ++i) {
      if (lengths[i] == 0) continue;
      const char* p = strings[i].data();
      if (run != nullptr && p == run + run_len) {
        run_len += lengths[i];
        continue;
      }
      if (run_len > 0) buf_.append(run, run_len);
      run = p;
      run_len = lengths[i];
    }
    if (run_len > 0) buf_.append(run, run_len);
    return;
  }
  if (t.id() == TypeId::kRow) {
    for (size_t c = 0; c < v.num_children(); ++c) PutVectorRange(v.child(c), begin, n);
    return;
  }
  if (t.IsList()) {
    PutRaw(v.raw_data(), n * sizeof(ListEntry));
    PutVarint(v.num_children());
    for (size_t c = 0; c < v.num_children(); ++c) PutVector(v.child(c));
    return;
  }
  const size_t width = t.PhysicalWidth();
  PutRaw(v.raw_data() + begin * width, n * width);
}

void StateWriter::PutChunk(const Chunk& c) { PutChunkRange(c, 0, c.size()); }

void StateWriter::PutChunkRange(const Chunk& c, size_t begin, size_t n) {
  PutVarint(c.num_columns());
  PutVarint(n);
  static_assert(sizeof(RowKind) == 1);
  PutRaw(c.kinds() + begin, n);
  for (const auto& col : c.columns()) PutVectorRange(col, begin, n);
}

bool StateReader::Need(size_t n) {
  if (!status_.ok()) return false;
  if (data_.size() - pos_ < n) {
    Fail("truncated (needs " + std::to_string(n) + " more bytes at offset " + std::to_string(pos_) + ")");
    return false;
  }
  return true;
}

void StateReader::Fail(const std::string& why) {
  if (status_.ok()) status_ = Status::IOError("Corrupt state of " + what_ + ": " + why);
}

Status StateReader::Finish() {
  if (status_.ok() && pos_ != data_.size()) {
    Fail(std::to_string(data_.size() - pos_) + " unread bytes at the end");
  }
  return status_;
}

uint8_t StateReader::GetU8() {
  if (!Need(1)) return 0;
  return static_cast<uint8_t>(data_[pos_++]);
}

uint32_t StateReader::GetU32() {
  if (!Need(4)) return 0;
  uint32_t v = 0;
  for (int i = 0; i < 4; ++i) v |= static_cast<uint32_t>(static_cast<uint8_t>(data_[pos_ + i])) << (8 * i);
  pos_ += 4;
  return v;
}

uint64_t StateReader::GetU64() {
  if (!Need(8)) return 0;
  uint64_t v = 0;
  for (int i = 0; i < 8; ++i) v |= static_cast<uint64_t>(static_cast<uint8_t>(data_[pos_ + i])) << (8 * i);
  pos_ += 8;
  return v;
}

double StateReader::GetDouble() {
  uint64_t bits = GetU64();
  double v;
  std::memcpy(&v, &bits, sizeof v);
  return v;
}

uint64_t StateReader::GetVarint() {
  uint64_t v = 0;
  for (int shift = 0; shift < 64; shift += 7) {
    if (!Need(1)) return 0;
    uint8_t b = static_cast<uint8_t>(data_[pos_++]);
    v |= static_cast<uint64_t>(b & 0x7F) << shift;
    if ((b & 0x80) == 0) return v;
  }
  Fail("varint longer than 10 bytes");
  return 0;
}

size_t StateReader::GetCount(size_t min_bytes) {
  uint64_t n = GetVarint();
  if (!status_.ok()) return 0;
  if (min_bytes > 0 && n > remaining() / min_bytes) {
    Fail("count " + std::to_string(n) + " exceeds what the remaining " + std::to_string(remaining()) +
         " bytes can hold");
    return 0;
  }
  return static_cast<size_t>(n);
}

std::string_view StateReader::GetStringView() {
  size_t n = GetCount(1);
  if (!Need(n)) return {};
  std::string_view s = data_.substr(pos_, n);
  pos_ += n;
  return s;
}

std::string StateReader::GetString() { return std::string(GetStringView()); }

void StateReader::GetRaw(void* out, size_t n) {
  if (n == 0) return;  // `out` may be null then (an empty vector's data())
  if (!Need(n)) {
    std::memset(out, 0, n);
    return;
  }
  std::memcpy(out, data_.data() + pos_, n);
  pos_ += n;
}

void StateReader::ExpectTag(std::string_view tag) {
  std::string_view got = GetStringView();
  if (status_.ok() && got != tag) Fail("expected section '" + std::string(tag) + "', found '" + std::string(got) + "'");
}

void StateReader::GetVector(const LogicalType& type, Vector* out) {
  *out = Vector(type);
  uint8_t id = GetU8();
  if (!status_.ok()) return;
  if (id != static_cast<uint8_t>(type.id())) {
    Fail("column type " + type.ToString() + " expected, found type id " + std::to_string(id));
    return;
  }
  const size_t n = GetCount(0);
  if (!status_.ok()) return;
  const bool has_validity = GetBool();
  if (has_validity && remaining() < n) {
    Fail("validity of " + std::to_string(n) + " rows is truncated");
    return;
  }
  const size_t width = type.IsStringLike() || type.id() == TypeId::kRow ? 0
                       : type.IsList()                                   ? sizeof(ListEntry)
                                                                         : type.PhysicalWidth();
  if (width > 0 && n > remaining() / width) {
    Fail("column of " + std::to_string(n) + " rows is truncated");
    return;
  }
  if (type.IsStringLike() && n > remaining() / sizeof(uint32_t)) {
    Fail("string column of " + std::to_string(n) + " rows is truncated");
    return;
  }
  out->Resize(n);
  if (has_validity) {
    uint8_t* v = out->mutable_validity();
    GetRaw(v, n);
  }
  if (type.IsStringLike()) {
    std::vector<uint32_t> lengths(n);
    GetRaw(lengths.data(), n * sizeof(uint32_t));
    uint64_t total = 0;
    for (uint32_t len : lengths) total += len;
    if (!status_.ok()) return;
    if (total > remaining()) {
      Fail("string bytes of " + std::to_string(n) + " rows are truncated");
      return;
    }
    for (size_t i = 0; i < n; ++i) {
      std::string_view s = data_.substr(pos_, lengths[i]);
      pos_ += lengths[i];
      if (out->IsValid(i)) {
        out->SetString(i, s);
      } else {
        if (!s.empty()) Fail("a NULL string with bytes");
        out->SetStringView(i, std::string_view());
      }
    }
    return;
  }
  if (type.id() == TypeId::kRow) {
    for (size_t c = 0; c < type.num_children() && status_.ok(); ++c) {
      GetVector(type.child(c), &out->child(c));
      if (status_.ok() && out->child(c).size() != n) Fail("ROW field has a different row count");
    }
    return;
  }
  if (type.IsList()) {
    GetRaw(out->raw_data(), n * sizeof(ListEntry));
    size_t nc = GetCount(1);
    const size_t expected = type.id() == TypeId::kMap ? 2 : 1;
    if (status_.ok() && nc != expected) {
      Fail("collection column with " + std::to_string(nc) + " children");
      return;
    }
    for (size_t c = 0; c < nc && status_.ok(); ++c) {
      const LogicalType& ct = type.id() == TypeId::kMap ? type.child(c) : type.child(0);
      GetVector(ct, &out->child(c));
    }
    if (!status_.ok()) return;
    const size_t elements = out->child(0).size();
    for (size_t i = 0; i < n; ++i) {
      const ListEntry& e = out->list_entry(i);
      if (static_cast<uint64_t>(e.offset) + e.length > elements) {
        Fail("collection entry out of range");
        return;
      }
    }
    return;
  }
  GetRaw(out->raw_data(), n * width);
}

void StateReader::GetChunk(const std::vector<LogicalType>& types, Chunk* out) {
  *out = Chunk(types);
  size_t cols = GetCount(0);
  if (!status_.ok()) return;
  if (cols != types.size()) {
    Fail("a chunk of " + std::to_string(types.size()) + " columns expected, found " + std::to_string(cols));
    return;
  }
  size_t rows = GetCount(1);
  if (!status_.ok()) return;
  auto& kinds = out->kind_vector();
  kinds.resize(rows);
  if (!Need(rows)) return;
  for (size_t i = 0; i < rows; ++i) {
    const uint8_t k = static_cast<uint8_t>(data_[pos_ + i]);
    if (k > static_cast<uint8_t>(RowKind::kDelete)) {
      Fail("bad row kind " + std::to_string(k));
      return;
    }
    kinds[i] = static_cast<RowKind>(k);
  }
  pos_ += rows;
  for (size_t c = 0; c < cols && status_.ok(); ++c) {
    GetVector(types[c], &out->column(c));
    if (status_.ok() && out->column(c).size() != rows) Fail("chunk column with a different row count");
  }
}

}  // namespace sluice
