// Vector and Chunk: the columnar batch every operator consumes and produces.
//
// A Vector is one column of up to a few thousand rows: a data buffer laid out as logical_type.h says
// (one fixed-width slot per row), a validity byte per row (1 = valid; an empty validity buffer means
// "no nulls"), string heaps that own the bytes string_views point to, and child vectors for nested
// types (ARRAY/MULTISET: child(0) holds all elements, each row a ListEntry{offset, length} into it;
// MAP: child(0) keys and child(1) values; ROW: one child per field, each with this vector's size).
//
// Strings are views: copying string rows between vectors copies the views and shares the source's
// heaps (shared_ptr), so projections and gathers never copy string bytes.
//
// A Chunk is a set of equally long Vectors plus one RowKind per row. A -U/+U pair of one update is
// never split across two chunks (producers guarantee it).
//
// Threading: a Vector or Chunk belongs to one task at a time; heaps are shared immutably once written.
#pragma once

#include <cstdint>
#include <cstring>
#include <memory>
#include <string_view>
#include <vector>

#include "types/logical_type.h"
#include "types/row_kind.h"
#include "types/schema.h"

namespace sluice {

class Value;

// An allocator that default-initializes (leaves uninitialized) bytes on resize, so buffers that are
// about to be overwritten (AppendFrom, kernels) are not zero-filled first. Resize() zeroes new rows
// explicitly where its contract says so.
template <typename T>
struct DefaultInitAllocator : std::allocator<T> {
  template <typename U>
  struct rebind {
    using other = DefaultInitAllocator<U>;
  };
  using std::allocator<T>::allocator;
  template <typename U>
  void construct(U* p) noexcept {
    ::new (static_cast<void*>(p)) U;
  }
  template <typename U, typename... Args>
  void construct(U* p, Args&&... args) {
    ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
  }
};
using ByteBuffer = std::vector<uint8_t, DefaultInitAllocator<uint8_t>>;

// Append-only arena for string bytes. Blocks never move, so views stay valid for the heap's life.
class StringHeap {
 public:
  StringHeap() = default;
  StringHeap(const StringHeap&) = delete;
  StringHeap& operator=(const StringHeap&) = delete;
  char* Allocate(size_t n);
  std::string_view Add(std::string_view s);
  size_t bytes_reserved() const { return reserved_; }

 private:
  std::vector<std::unique_ptr<char[]>> blocks_;
  char* cur_ = nullptr;
  size_t left_ = 0;
  size_t reserved_ = 0;
};

class Vector {
 public:
  Vector() = default;
  explicit Vector(LogicalType type, size_t size = 0);
  Vector(const Vector&);
  Vector& operator=(const Vector&);
  Vector(Vector&&) noexcept = default;
  Vector& operator=(Vector&&) noexcept = default;

  const LogicalType& type() const { return type_; }
  size_t size() const { return size_; }
  // Sets the row count; new rows are zeroed and valid. Children of ROW vectors follow.
  void Resize(size_t n);
  void Reserve(size_t n);
  // Whether appending `count` rows keeps every buffer where it is (no reallocation). Conservative:
  // false for nested types, whose children grow on their own.
  bool CanAppendInPlace(size_t count) const;
  void Clear() { Resize(0); }

  template <typename T>
  T* data() { return reinterpret_cast<T*>(data_.data()); }
  template <typename T>
  const T* data() const { return reinterpret_cast<const T*>(data_.data()); }
  uint8_t* raw_data() { return data_.data(); }
  const uint8_t* raw_data() const { return data_.data(); }

  bool MayHaveNulls() const { return !validity_.empty(); }
  bool IsNull(size_t i) const { return !validity_.empty() && validity_[i] == 0; }
  bool IsValid(size_t i) const { return validity_.empty() || validity_[i] != 0; }
  void SetNull(size_t i, bool is_null);
  // Validity bytes, allocated (all valid) on first request. 1 = valid, 0 = null.
  uint8_t* mutable_validity();
  // Null when no row is null.
  const uint8_t* validity() const { return validity_.empty() ? nullptr : validity_.data(); }
  void ClearNulls() { validity_.clear(); }

  // String-like types.
  std::string_view GetString(size_t i) const { return data<std::string_view>()[i]; }
  // Copies `s` into this vector's own heap.
  void SetString(size_t i, std::string_view s);
  // Stores a view whose bytes already live in one of this vector's heaps (or are static).
  void SetStringView(size_t i, std::string_view s) { data<std::string_view>()[i] = s; }
  StringHeap& heap();
  // Keeps `other`'s heaps alive as long as this vector, so views into them may be stored here.
  void ShareHeapsWith(const Vector& other);
  void AddHeap(std::shared_ptr<StringHeap> heap);

  // Nested types.
  size_t num_children() const { return children_.size(); }
  Vector& child(size_t i) { return children_[i]; }
  const Vector& child(size_t i) const { return children_[i]; }
  const ListEntry& list_entry(size_t i) const { return data<ListEntry>()[i]; }

  // Slow path: one row as a boxed Value, and back.
  Value GetValue(size_t i) const;
  void SetValue(size_t i, const Value& v);
  void AppendValue(const Value& v);

  // Appends rows src[sel[0..count)] (or src[begin..begin+count) when sel is null) to this vector.
  // Types must be equal ignoring nullability. Strings are shared, not copied — unless `copy_strings`,
  // which copies their bytes into this vector's own heap (for state that outlives its input: keeping
  // views would pin every input chunk's heap while one of its rows is stored).
  void AppendFrom(const Vector& src, const uint32_t* sel, size_t begin, size_t count, bool copy_strings = false);
  // Appends one row of src.
  void AppendRow(const Vector& src, size_t row) { AppendFrom(src, nullptr, row, 1); }

  // A vector of `n` rows all equal to `v`.
  static Vector Constant(const Value& v, size_t n);

  // Bytes held by buffers and heaps (for memory accounting).
  size_t MemoryUsage() const;
  // Bytes of the heaps shared from other vectors (not in MemoryUsage: usually another vector's).
  size_t SharedHeapBytes() const;

 private:
  void EnsureCapacity(size_t n);
  LogicalType type_;
  size_t size_ = 0;
  ByteBuffer data_;
  ByteBuffer validity_;
  // Heap this vector writes new strings into; created on first use, never shared for writing.
  std::shared_ptr<StringHeap> own_heap_;
  // Heaps of other vectors whose bytes this vector's views may point into.
  std::vector<std::shared_ptr<StringHeap>> shared_heaps_;
  std::vector<Vector> children_;
};

// Appends src[sel[i]] for i < n to `dst`, or a NULL where sel[i] == kNullRow (outer joins' padding),
// copying runs of selected rows at once.
inline constexpr uint32_t kNullRow = 0xFFFFFFFFu;
void AppendSelectedOrNull(Vector* dst, const Vector& src, const uint32_t* sel, size_t n);

class Chunk {
 public:
  static constexpr size_t kDefaultCapacity = 1024;

  Chunk() = default;
  explicit Chunk(const std::vector<LogicalType>& types, size_t size = 0);
  explicit Chunk(const Schema& schema, size_t size = 0) : Chunk(schema.types(), size) {}

  size_t size() const { return kinds_.size(); }
  size_t num_columns() const { return columns_.size(); }
  Vector& column(size_t i) { return columns_[i]; }
  const Vector& column(size_t i) const { return columns_[i]; }
  std::vector<Vector>& columns() { return columns_; }
  const std::vector<Vector>& columns() const { return columns_; }
  RowKind kind(size_t i) const { return kinds_[i]; }
  RowKind* kinds() { return kinds_.data(); }
  const RowKind* kinds() const { return kinds_.data(); }
  std::vector<RowKind>& kind_vector() { return kinds_; }
  // True when every row is +I (the common, append-only case).
  bool AllInserts() const;

  // Resizes every column and the kinds (new rows are +I).
  void Resize(size_t n);
  // Room for `n` rows in every column and the kinds.
  void Reserve(size_t n);
  // Whether appending `count` rows moves no buffer (Vector::CanAppendInPlace, and the kinds).
  bool CanAppendInPlace(size_t count) const;
  void AddColumn(Vector v) { columns_.push_back(std::move(v)); }
  // Sets the row count from the columns after they were filled directly (kinds become +I).
  void SetSizeFromColumns();

  // Appends rows (all columns and kinds) from `src`, selected or contiguous (see Vector::AppendFrom).
  void AppendFrom(const Chunk& src, const uint32_t* sel, size_t begin, size_t count, bool copy_strings = false);
  void AppendRow(const Chunk& src, size_t row) { AppendFrom(src, nullptr, row, 1); }
  // Appends a row given as boxed values.
  void AppendValues(const std::vector<Value>& row, RowKind kind);
  std::vector<Value> GetRow(size_t i) const;

  size_t MemoryUsage() const;

 private:
  std::vector<Vector> columns_;
  std::vector<RowKind> kinds_;
};

}  // namespace sluice
