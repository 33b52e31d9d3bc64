#include "types/vector.h"

#include <algorithm>
#include <cstring>

#include "common/check.h"
#include "common/release_copy.h"
#include "types/value.h"

namespace sluice {

namespace {
// Blocks grow geometrically from kFirstHeapBlock to kMaxHeapBlock (as DuckDB's arena does): state
// stores hold many small vectors (a window slice's keys, a group's DISTINCT values), and a fixed
// 64 KiB first block made each of them cost 64 KiB however few strings it held.
constexpr size_t kFirstHeapBlock = 512;
constexpr size_t kMaxHeapBlock = 64 * 1024;

// Whether a selected (or, without `sel`, contiguous) row of `validity` is null.
bool AnyNull(const uint8_t* validity, const uint32_t* sel, size_t begin, size_t count) {
  if (sel == nullptr) return std::memchr(validity + begin, 0, count) != nullptr;
  for (size_t i = 0; i < count; ++i) {
    if (validity[sel[i]] == 0) return true;
  }
  return false;
}
}  // namespace

char* StringHeap::Allocate(size_t n) {
  if (n > left_) {
    // Each new block is as large as all the earlier ones together: 512, 512, 1 KiB, 2 KiB, ... 64 KiB.
    const size_t grown = std::min(kMaxHeapBlock, std::max(kFirstHeapBlock, reserved_));
    const size_t block = std::max(grown, n);
    blocks_.push_back(std::unique_ptr<char[]>(new char[block]));
    cur_ = blocks_.back().get();
    left_ = block;
    reserved_ += block;
  }
  char* p = cur_;
  cur_ += n;
  left_ -= n;
  return p;
}

std::string_view StringHeap::Add(std::string_view s) {
  if (s.empty()) return std::string_view();
  char* p = Allocate(s.size());
  std::memcpy(p, s.data(), s.size());
  return std::string_view(p, s.size());
}

Vector::Vector(LogicalType type, size_t size) : type_(std::move(type)) {
  switch (type_.id()) {
    case TypeId::kArray:
    case TypeId::kMultiset: children_.emplace_back(type_.child(0), 0); break;
    case TypeId::kMap:
      children_.emplace_back(type_.child(0), 0);
      children_.emplace_back(type_.child(1), 0);
      break;
    case TypeId::kRow:
      for (const auto& c : type_.children()) children_.emplace_back(c, 0);
      break;
    default: break;
  }
  Resize(size);
}

Vector::Vector(const Vector& o)
    : type_(o.type_), size_(o.size_), data_(o.data_), validity_(o.validity_), shared_heaps_(o.shared_heaps_),
      children_(o.children_) {
  // The copy reads the original's bytes but writes new strings into a heap of its own.
  if (o.own_heap_) shared_heaps_.push_back(o.own_heap_);
}

Vector& Vector::operator=(const Vector& o) {
  if (this != &o) {
    Vector tmp(o);
    *this = std::move(tmp);
  }
  return *this;
}

void Vector::EnsureCapacity(size_t n) {
  size_t w = type_.PhysicalWidth();
  if (data_.capacity() >= n * w) return;
  // Moved with one memcpy: reserve() on a vector with DefaultInitAllocator copies byte by byte.
  ByteBuffer grown;
  grown.reserve(std::max(n * w, data_.capacity() * 2));
  grown.resize(data_.size());  // default-initialized: no writes
  // The old buffer's pages are dropped as they are copied (a state's column of millions of rows).
  CopyReleasingSource(grown.data(), data_.data(), data_.size());
  data_.swap(grown);
}

void Vector::Reserve(size_t n) {
  data_.reserve(n * type_.PhysicalWidth());
  if (!validity_.empty()) validity_.reserve(n);
  if (type_.id() == TypeId::kRow) {
    for (auto& c : children_) c.Reserve(n);
  }
}

bool Vector::CanAppendInPlace(size_t count) const {
  if (type_.IsList() || type_.id() == TypeId::kRow) return false;
  const size_t n = size_ + count;
  return data_.capacity() >= n * type_.PhysicalWidth() && (validity_.empty() || validity_.capacity() >= n);
}

void Vector::Resize(size_t n) {
  size_t w = type_.PhysicalWidth();
  if (w) {
    EnsureCapacity(n);
    size_t old_bytes = data_.size();
    data_.resize(n * w);
    if (n * w > old_bytes) std::memset(data_.data() + old_bytes, 0, n * w - old_bytes);
  }
  if (!validity_.empty()) validity_.resize(n, 1);
  if (type_.id() == TypeId::kRow) {
    for (auto& c : children_) c.Resize(n);
  }
  if (n < size_ && type_.IsList() && n == 0) {
    for (auto& c : children_) c.Resize(0);
  }
  size_ = n;
}

void Vector::SetNull(size_t i, bool is_null) {
  if (!is_null && validity_.empty()) return;
  mutable_validity()[i] = is_null ? 0 : 1;
}

uint8_t* Vector::mutable_validity() {
  if (validity_.empty()) validity_.assign(size_, 1);
  return validity_.data();
}

StringHeap& Vector::heap() {
  if (!own_heap_) own_heap_ = std::make_shared<StringHeap>();
  return *own_heap_;
}

void Vector::SetString(size_t i, std::string_view s) { data<std::string_view>()[i] = heap().Add(s); }

void Vector::AddHeap(std::shared_ptr<StringHeap> h) {
  if (!h || h == own_heap_) return;
  // Most appends come from the chunk appended last; check from the back.
  for (auto it = shared_heaps_.rbegin(); it != shared_heaps_.rend(); ++it) {
    if (*it == h) return;
  }
  shared_heaps_.push_back(std::move(h));
}

void Vector::ShareHeapsWith(const Vector& other) {
  if (other.own_heap_) AddHeap(other.own_heap_);
  for (const auto& h : other.shared_heaps_) AddHeap(h);
}

void Vector::AppendFrom(const Vector& src, const uint32_t* sel, size_t begin, size_t count, bool copy_strings) {
  if (count == 0) return;
  const size_t old = size_;
  const size_t w = type_.PhysicalWidth();
  // A vector without nulls keeps no validity bytes: appending only valid rows of a source that has
  // them (a column extracted from a nullable ROW, say) does not create them (state keeps rows long).
  const bool track_nulls = !validity_.empty() || (src.MayHaveNulls() && AnyNull(src.validity_.data(), sel, begin, count));
  if (type_.IsList()) {
    Resize(old + count);
    ListEntry* dst = data<ListEntry>() + old;
    for (size_t i = 0; i < count; ++i) {
      size_t r = sel ? sel[i] : begin + i;
      const ListEntry& e = src.list_entry(r);
      dst[i] = ListEntry{static_cast<uint32_t>(children_[0].size()), e.length};
      for (size_t c = 0; c < children_.size(); ++c) {
        children_[c].AppendFrom(src.children_[c], nullptr, e.offset, e.length, copy_strings);
      }
      dst = data<ListEntry>() + old;  // children appends never move this buffer, but stay safe
    }
  } else {
    if (w) EnsureCapacity(old + count);
    if (type_.id() == TypeId::kRow) {
      for (size_t c = 0; c < children_.size(); ++c) children_[c].AppendFrom(src.children_[c], sel, begin, count, copy_strings);
    }
    if (w) {
      data_.resize((old + count) * w);
      uint8_t* dst = data_.data() + old * w;
      const uint8_t* s = src.data_.data();
      if (sel == nullptr) {
        std::memcpy(dst, s + begin * w, count * w);
      } else {
        switch (w) {
          case 1:
            for (size_t i = 0; i < count; ++i) dst[i] = s[sel[i]];
            break;
          case 4:
            for (size_t i = 0; i < count; ++i) reinterpret_cast<uint32_t*>(dst)[i] = reinterpret_cast<const uint32_t*>(s)[sel[i]];
            break;
          case 8:
            for (size_t i = 0; i < count; ++i) reinterpret_cast<uint64_t*>(dst)[i] = reinterpret_cast<const uint64_t*>(s)[sel[i]];
            break;
          case 16: {
            // string_view, DECIMAL and list entries: two words per row.
            auto* d64 = reinterpret_cast<uint64_t*>(dst);
            const auto* s64 = reinterpret_cast<const uint64_t*>(s);
            for (size_t i = 0; i < count; ++i) {
              d64[2 * i] = s64[2 * sel[i]];
              d64[2 * i + 1] = s64[2 * sel[i] + 1];
            }
            break;
          }
          default:
            for (size_t i = 0; i < count; ++i) std::memcpy(dst + i * w, s + sel[i] * w, w);
        }
      }
    }
    size_ = old + count;
  }
  if (type_.IsStringLike()) {
    if (copy_strings) {
      auto* views = data<std::string_view>() + old;
      for (size_t i = 0; i < count; ++i) views[i] = heap().Add(views[i]);
    } else {
      ShareHeapsWith(src);
    }
  }
  if (track_nulls) {
    validity_.resize(old, 1);
    validity_.resize(old + count, 1);
    uint8_t* v = validity_.data() + old;
    if (src.MayHaveNulls()) {
      const uint8_t* sv = src.validity_.data();
      for (size_t i = 0; i < count; ++i) v[i] = sv[sel ? sel[i] : begin + i];
    } else {
      std::memset(v, 1, count);
    }
  }
}

Value Vector::GetValue(size_t i) const {
  if (IsNull(i) || type_.id() == TypeId::kNull) return Value::Null(type_);
  switch (type_.id()) {
    case TypeId::kNull: return Value::Null(type_);
    case TypeId::kBoolean: return Value::Boolean(data<uint8_t>()[i] != 0).WithType(type_);
    case TypeId::kTinyInt: return Value::Int(type_, data<int8_t>()[i]);
    case TypeId::kSmallInt: return Value::Int(type_, data<int16_t>()[i]);
    case TypeId::kInteger:
    case TypeId::kDate:
    case TypeId::kTime:
    case TypeId::kIntervalYearMonth: return Value::Int(type_, data<int32_t>()[i]);
    case TypeId::kBigInt:
    case TypeId::kTimestamp:
    case TypeId::kTimestampLtz:
    case TypeId::kIntervalDayTime: return Value::Int(type_, data<int64_t>()[i]);
    case TypeId::kFloat: return Value::Float(data<float>()[i]).WithType(type_);
    case TypeId::kDouble: return Value::Double(data<double>()[i]).WithType(type_);
    case TypeId::kDecimal: return Value::Decimal(type_.precision(), type_.scale(), data<__int128>()[i]).WithType(type_);
    case TypeId::kChar:
    case TypeId::kVarChar:
    case TypeId::kBinary:
    case TypeId::kVarBinary: return Value::Typed(type_, std::string(GetString(i)));
    case TypeId::kArray:
    case TypeId::kMultiset:
    case TypeId::kMap: {
      const ListEntry& e = list_entry(i);
      std::vector<Value> items;
      for (uint32_t k = 0; k < e.length; ++k) {
        for (const auto& c : children_) items.push_back(c.GetValue(e.offset + k));
      }
      return Value::List(type_, std::move(items));
    }
    case TypeId::kRow: {
      std::vector<Value> items;
      for (const auto& c : children_) items.push_back(c.GetValue(i));
      return Value::List(type_, std::move(items));
    }
  }
  return Value::Null(type_);
}

void Vector::SetValue(size_t i, const Value& v) {
  if (v.is_null()) {
    SetNull(i, true);
    if (type_.id() == TypeId::kRow) {
      for (auto& c : children_) c.SetNull(i, true);
    }
    if (type_.IsList()) data<ListEntry>()[i] = ListEntry{static_cast<uint32_t>(children_[0].size()), 0};
    return;
  }
  SetNull(i, false);
  switch (type_.id()) {
    case TypeId::kNull: break;
    case TypeId::kBoolean: data<uint8_t>()[i] = v.bool_value() ? 1 : 0; break;
    case TypeId::kTinyInt: data<int8_t>()[i] = static_cast<int8_t>(v.int_value()); break;
    case TypeId::kSmallInt: data<int16_t>()[i] = static_cast<int16_t>(v.int_value()); break;
    case TypeId::kInteger:
    case TypeId::kDate:
    case TypeId::kTime:
    case TypeId::kIntervalYearMonth: data<int32_t>()[i] = static_cast<int32_t>(v.int_value()); break;
    case TypeId::kBigInt:
    case TypeId::kTimestamp:
    case TypeId::kTimestampLtz:
    case TypeId::kIntervalDayTime: data<int64_t>()[i] = v.int_value(); break;
    case TypeId::kFloat: data<float>()[i] = static_cast<float>(v.double_value()); break;
    case TypeId::kDouble: data<double>()[i] = v.double_value(); break;
    case TypeId::kDecimal: data<__int128>()[i] = v.decimal_value(); break;
    case TypeId::kChar:
    case TypeId::kVarChar:
    case TypeId::kBinary:
    case TypeId::kVarBinary: SetString(i, v.string_value()); break;
    case TypeId::kArray:
    case TypeId::kMultiset:
    case TypeId::kMap: {
      const auto& items = v.list_value();
      size_t per = children_.size();
      uint32_t n = static_cast<uint32_t>(items.size() / per);
      data<ListEntry>()[i] = ListEntry{static_cast<uint32_t>(children_[0].size()), n};
      for (size_t k = 0; k < items.size(); ++k) children_[k % per].AppendValue(items[k]);
      break;
    }
    case TypeId::kRow: {
      const auto& items = v.list_value();
      for (size_t c = 0; c < children_.size(); ++c) children_[c].SetValue(i, items[c]);
      break;
    }
  }
}

void Vector::AppendValue(const Value& v) {
  Resize(size_ + 1);
  SetValue(size_ - 1, v);
}

Vector Vector::Constant(const Value& v, size_t n) {
  Vector out(v.type(), 0);
  const size_t w = out.type_.PhysicalWidth();
  if (v.is_null() || w == 0 || n == 0 || out.type_.id() == TypeId::kRow || out.type_.IsList()) {
    out.Reserve(n);
    for (size_t i = 0; i < n; ++i) out.AppendValue(v);
    return out;
  }
  // Flat types: the value converted once (a string's bytes stored once), then its bytes repeated (a
  // string's view shares them).
  out.Resize(n);
  out.SetValue(0, v);
  uint8_t* d = out.data_.data();
  for (size_t i = 1; i < n; ++i) std::memcpy(d + i * w, d, w);
  return out;
}

size_t Vector::MemoryUsage() const {
  size_t bytes = data_.capacity() + validity_.capacity();
  if (own_heap_) bytes += own_heap_->bytes_reserved();
  for (const auto& c : children_) bytes += c.MemoryUsage();
  return bytes;
}

size_t Vector::SharedHeapBytes() const {
  size_t bytes = 0;
  for (const auto& h : shared_heaps_) bytes += h->bytes_reserved();
  return bytes;
}

Chunk::Chunk(const std::vector<LogicalType>& types, size_t size) {
  columns_.reserve(types.size());
  for (const auto& t : types) columns_.emplace_back(t, size);
  kinds_.assign(size, RowKind::kInsert);
}

bool Chunk::AllInserts() const {
  for (RowKind k : kinds_) {
    if (k != RowKind::kInsert) return false;
  }
  return true;
}

void AppendSelectedOrNull(Vector* dst, const Vector& src, const uint32_t* sel, size_t n) {
  dst->Reserve(dst->size() + n);
  size_t i = 0;
  while (i < n) {
    size_t j = i;
    if (sel[i] == kNullRow) {
      while (j < n && sel[j] == kNullRow) ++j;
      size_t old = dst->size();
      dst->Resize(old + (j - i));
      for (size_t r = old; r < dst->size(); ++r) dst->SetNull(r, true);
    } else {
      while (j < n && sel[j] != kNullRow) ++j;
      dst->AppendFrom(src, sel + i, 0, j - i);
    }
    i = j;
  }
}

void Chunk::Resize(size_t n) {
  for (auto& c : columns_) c.Resize(n);
  kinds_.resize(n, RowKind::kInsert);
}

void Chunk::Reserve(size_t n) {
  for (auto& c : columns_) c.Reserve(n);
  kinds_.reserve(n);
}

bool Chunk::CanAppendInPlace(size_t count) const {
  if (kinds_.capacity() < kinds_.size() + count) return false;
  for (const auto& c : columns_) {
    if (!c.CanAppendInPlace(count)) return false;
  }
  return true;
}

void Chunk::SetSizeFromColumns() {
  size_t n = columns_.empty() ? kinds_.size() : columns_[0].size();
  for (const auto& c : columns_) SLUICE_CHECK_EQ(c.size(), n);
  kinds_.resize(n, RowKind::kInsert);
}

void Chunk::AppendFrom(const Chunk& src, const uint32_t* sel, size_t begin, size_t count, bool copy_strings) {
  SLUICE_CHECK_EQ(columns_.size(), src.columns_.size());
  for (size_t c = 0; c < columns_.size(); ++c) columns_[c].AppendFrom(src.columns_[c], sel, begin, count, copy_strings);
  for (size_t i = 0; i < count; ++i) kinds_.push_back(src.kinds_[sel ? sel[i] : begin + i]);
}

void Chunk::AppendValues(const std::vector<Value>& row, RowKind kind) {
  SLUICE_CHECK_EQ(row.size(), columns_.size());
  for (size_t c = 0; c < columns_.size(); ++c) columns_[c].AppendValue(row[c]);
  kinds_.push_back(kind);
}

std::vector<Value> Chunk::GetRow(size_t i) const {
  std::vector<Value> row;
  row.reserve(columns_.size());
  for (const auto& c : columns_) row.push_back(c.GetValue(i));
  return row;
}

size_t Chunk::MemoryUsage() const {
  size_t bytes = kinds_.capacity();
  for (const auto& c : columns_) bytes += c.MemoryUsage();
  return bytes;
}

}  // namespace sluice
