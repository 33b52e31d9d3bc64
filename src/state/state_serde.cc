#include "state/state_serde.h"

#include <algorithm>
#include <cstring>

#include "common/check.h"
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

namespace {

size_t VarintSize(uint64_t v) {
  size_t n = 1;
  while (v >= 0x80) {
    v >>= 7;
    ++n;
  }
  return n;
}

size_t EncodeVarint(uint64_t v, char* out) {
  size_t n = 0;
  while (v >= 0x80) {
    out[n++] = static_cast<char>((v & 0x7F) | 0x80);
    v >>= 7;
  }
  out[n++] = static_cast<char>(v);
  return n;
}

bool IsFlat(const LogicalType& t) { return !t.IsList() && t.id() != TypeId::kRow; }

// Rows are gathered (or their lengths taken) a block at a time, through a small buffer.
constexpr size_t kBlockRows = 1024;

// One flat column's rows as PutVectorRange writes them: the type, the count, the validity (when the
// column has any), then the fixed-width slots; for strings, all lengths and then all bytes.
void WriteColumn(const FlatRows::Column& col, const uint32_t* sel, size_t begin, size_t n, ByteSink* sink) {
  char head[12];
  size_t h = 0;
  head[h++] = static_cast<char>(col.type.id());
  h += EncodeVarint(n, head + h);
  head[h++] = col.validity != nullptr ? 1 : 0;
  sink->Append(head, h);
  auto row = [&](size_t i) { return sel != nullptr ? sel[i] : begin + i; };
  const uint8_t* validity = col.validity;
  if (validity != nullptr) {
    if (sel == nullptr) {
      sink->Append(validity + begin, n);
    } else {
      uint8_t block[kBlockRows];
      for (size_t b = 0; b < n; b += kBlockRows) {
        const size_t m = std::min(kBlockRows, n - b);
        for (size_t i = 0; i < m; ++i) block[i] = validity[sel[b + i]];
        sink->Append(block, m);
      }
    }
  }
  if (col.type.IsStringLike()) {
    const auto* strings = reinterpret_cast<const std::string_view*>(col.data);
    uint32_t lengths[kBlockRows];
    size_t total = 0;
    for (size_t b = 0; b < n; b += kBlockRows) {
      const size_t m = std::min(kBlockRows, n - b);
      for (size_t i = 0; i < m; ++i) {
        const size_t r = row(b + i);
        lengths[i] = validity == nullptr || validity[r] ? static_cast<uint32_t>(strings[r].size()) : 0;
        total += lengths[i];
      }
      sink->Append(lengths, m * sizeof(uint32_t));
    }
    sink->Reserve(total);
    // State copies its strings into its own heap in row order, so consecutive rows' bytes are mostly
    // adjacent: each run of adjacent strings is appended at once.
    const char* run = nullptr;
    size_t run_len = 0;
    for (size_t i = 0; i < n; ++i) {
      const size_t r = row(i);
      if (validity != nullptr && !validity[r]) continue;
      const std::string_view s = strings[r];
      if (s.empty()) continue;
      if (run != nullptr && s.data() == run + run_len) {
        run_len += s.size();
        continue;
      }
      if (run_len > 0) sink->Append(run, run_len);
      run = s.data();
      run_len = s.size();
    }
    if (run_len > 0) sink->Append(run, run_len);
    return;
  }
  const size_t width = col.type.PhysicalWidth();
  if (width == 0 || n == 0) return;
  if (sel == nullptr) {
    sink->Append(col.data + begin * width, n * width);
    return;
  }
  alignas(16) uint8_t block[kBlockRows * 16];
  const size_t rows_per_block = sizeof(block) / width;
  for (size_t b = 0; b < n; b += rows_per_block) {
    const size_t m = std::min(rows_per_block, n - b);
    for (size_t i = 0; i < m; ++i) std::memcpy(block + i * width, col.data + static_cast<size_t>(sel[b + i]) * width, width);
    sink->Append(block, m * width);
  }
}

FlatRows::Column ColumnOf(const Vector& v) { return {v.type(), v.raw_data(), v.validity()}; }

}  // namespace

void WriteRows(const FlatRows& rows, ByteSink* sink) {
  char head[20];
  size_t h = EncodeVarint(rows.columns.size(), head);
  h += EncodeVarint(rows.n, head + h);
  sink->Append(head, h);
  static_assert(sizeof(RowKind) == 1);
  if (rows.sel == nullptr) {
    sink->Append(rows.kinds + rows.begin, rows.n);
  } else {
    RowKind block[kBlockRows];
    for (size_t b = 0; b < rows.n; b += kBlockRows) {
      const size_t m = std::min(kBlockRows, rows.n - b);
      for (size_t i = 0; i < m; ++i) block[i] = rows.kinds[rows.sel[b + i]];
      sink->Append(block, m);
    }
  }
  for (const auto& col : rows.columns) WriteColumn(col, rows.sel, rows.begin, rows.n, sink);
}

size_t RowsBytes(const FlatRows& rows) {
  const size_t n = rows.n;
  size_t bytes = VarintSize(rows.columns.size()) + VarintSize(n) + n;
  for (const auto& col : rows.columns) {
    bytes += 2 + VarintSize(n) + (col.validity != nullptr ? n : 0);
    if (!col.type.IsStringLike()) {
      bytes += n * col.type.PhysicalWidth();
      continue;
    }
    const auto* strings = reinterpret_cast<const std::string_view*>(col.data);
    bytes += n * sizeof(uint32_t);
    for (size_t i = 0; i < n; ++i) {
      const size_t r = rows.sel != nullptr ? rows.sel[i] : rows.begin + i;
      if (col.validity == nullptr || col.validity[r]) bytes += strings[r].size();
    }
  }
  return bytes;
}

void StateWriter::PutVector(const Vector& v) { PutVectorRange(v, 0, v.size()); }

void StateWriter::PutVectorRange(const Vector& v, size_t begin, size_t n) {
  const LogicalType& t = v.type();
  if (IsFlat(t)) {
    WriteColumn(ColumnOf(v), nullptr, begin, n, this);
    return;
  }
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
  if (t.id() == TypeId::kRow) {
    for (size_t c = 0; c < v.num_children(); ++c) PutVectorRange(v.child(c), begin, n);
    return;
  }
  PutRaw(v.raw_data(), n * sizeof(ListEntry));
  PutVarint(v.num_children());
  for (size_t c = 0; c < v.num_children(); ++c) PutVector(v.child(c));
}

void StateWriter::PutChunk(const Chunk& c) { PutChunkRange(c, 0, c.size()); }

void StateWriter::PutChunkRange(const Chunk& c, size_t begin, size_t n) {
  PutVarint(c.num_columns());
  PutVarint(n);
  static_assert(sizeof(RowKind) == 1);
  PutRaw(c.kinds() + begin, n);
  for (const auto& col : c.columns()) PutVectorRange(col, begin, n);
}

void StateWriter::PutDeferred(std::shared_ptr<const DeferredBytes> part) {
  if (!allow_deferred_) {
    part->WriteTo(this);
    return;
  }
  deferred_.push_back({buf_.size(), std::move(part)});
}

namespace {

// Another writer's output, written later as one deferred part.
class WriterOutput final : public DeferredBytes {
 public:
  WriterOutput(std::string bytes, std::vector<DeferredPart> parts) : bytes_(std::move(bytes)), parts_(std::move(parts)) {}
  size_t Size() const override { return sluice::OutputSize(bytes_, parts_); }
  void WriteTo(ByteSink* sink) const override { WriteOutput(bytes_, parts_, sink); }

 private:
  std::string bytes_;
  std::vector<DeferredPart> parts_;
};

}  // namespace

void StateWriter::PutWriter(StateWriter&& other) {
  std::vector<DeferredPart> parts;
  std::string bytes = other.Release(&parts);
  other.buf_.clear();
  if (allow_deferred_) {
    if (!bytes.empty() || !parts.empty()) PutDeferred(std::make_shared<WriterOutput>(std::move(bytes), std::move(parts)));
    return;
  }
  Reserve(sluice::OutputSize(bytes, parts));
  WriteOutput(bytes, parts, this);
}

size_t StateWriter::OutputSize() const { return sluice::OutputSize(buf_, deferred_); }

const std::string& StateWriter::data() const {
  SLUICE_CHECK(deferred_.empty());  // such a writer's bytes are only complete through TakeOutput
  return buf_;
}

std::string StateWriter::Release() {
  SLUICE_CHECK(deferred_.empty());
  return std::move(buf_);
}

std::string StateWriter::Release(std::vector<DeferredPart>* deferred) {
  *deferred = std::move(deferred_);
  deferred_.clear();
  return std::move(buf_);
}

size_t OutputSize(std::string_view bytes, const std::vector<DeferredPart>& parts) {
  size_t n = bytes.size();
  for (const auto& p : parts) n += p.bytes->Size();
  return n;
}

void WriteOutput(std::string_view bytes, const std::vector<DeferredPart>& parts, ByteSink* sink) {
  size_t at = 0;
  for (const auto& p : parts) {
    SLUICE_CHECK(p.offset >= at && p.offset <= bytes.size());
    sink->Append(bytes.data() + at, p.offset - at);
    p.bytes->WriteTo(sink);
    at = p.offset;
  }
  sink->Append(bytes.data() + at, bytes.size() - at);
}

std::string Materialize(std::string bytes, std::vector<DeferredPart> parts) {
  if (parts.empty()) return bytes;
  StateWriter w;
  w.Reserve(OutputSize(bytes, parts));
  WriteOutput(bytes, parts, &w);
  return w.Release();
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
