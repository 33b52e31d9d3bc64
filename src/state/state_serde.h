// StateWriter / StateReader: the one binary encoding of operator state in checkpoints (issue 5).
//
// Every stateful operator snapshots through a StateWriter and restores through a StateReader; the
// checkpoint file (runtime/checkpoint.h) frames each operator's bytes with a length and a checksum.
// Integers are little-endian fixed width or LEB128 varints; strings and byte runs are length-prefixed;
// a Vector is written with its type's physical layout (validity, fixed-width slots, string lengths
// then string bytes, list entries and children), so a Chunk or a RowArena round-trips exactly.
//
// The reader never trusts its input: every read is bounds-checked and a short or malformed buffer
// gives a Status (never a crash), so a corrupt checkpoint is refused with a message. Reads after the
// first error return zero values and keep the first error; check status() (or use the Result forms).
//
// Deferred parts (checkpoints, issue 5): a writer that allows them (AllowDeferred) may take, instead of
// bytes, a DeferredBytes that writes them later: the rows a RowArena appended since the last
// checkpoint (RowArena::SnapshotTail) are then read from the arena's buffers on the checkpoint's
// background thread, while the job goes on, rather than copied while it waits. The output is the
// same bytes either way (WriteOutput).
//
// Threading: one writer/reader per thread; no shared state. A DeferredBytes is written on another
// thread than the one that made it; what it reads must stay unchanged until it is destroyed.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "types/logical_type.h"
#include "types/row_kind.h"

namespace sluice {

class Vector;
class Chunk;

// Where serialized bytes go: a string (StateWriter), or a compressing file writer.
class ByteSink {
 public:
  virtual ~ByteSink() = default;
  virtual void Append(const void* data, size_t n) = 0;
  // A hint: about `n` more bytes follow.
  virtual void Reserve(size_t n) { (void)n; }
};

// Bytes that a writer produces later (see above).
class DeferredBytes {
 public:
  virtual ~DeferredBytes() = default;
  // How many bytes WriteTo appends.
  virtual size_t Size() const = 0;
  virtual void WriteTo(ByteSink* sink) const = 0;
};

// Rows of flat columns (no ARRAY, MULTISET, MAP or ROW), read straight from their buffers: the rows
// [begin, begin + n), or sel[0..n) when `sel` is set. WriteRows writes them as PutChunkRange writes a
// chunk of those rows; RowsBytes is the number of bytes it writes.
struct FlatRows {
  struct Column {
    LogicalType type;
    const uint8_t* data = nullptr;      // the fixed-width slots (string_views for strings)
    const uint8_t* validity = nullptr;  // null: no nulls
  };
  std::vector<Column> columns;
  const RowKind* kinds = nullptr;
  const uint32_t* sel = nullptr;
  size_t begin = 0;
  size_t n = 0;
};
void WriteRows(const FlatRows& rows, ByteSink* sink);
size_t RowsBytes(const FlatRows& rows);

// A deferred part of a writer's output, and where in its bytes it goes.
struct DeferredPart {
  size_t offset;
  std::shared_ptr<const DeferredBytes> bytes;
};
// A writer's whole output: `bytes` with the deferred `parts` (by offset) inserted. OutputSize walks
// the parts (Size), WriteOutput writes everything to `sink`, Materialize into one string.
size_t OutputSize(std::string_view bytes, const std::vector<DeferredPart>& parts);
void WriteOutput(std::string_view bytes, const std::vector<DeferredPart>& parts, ByteSink* sink);
std::string Materialize(std::string bytes, std::vector<DeferredPart> parts);

class StateWriter final : public ByteSink {
 public:
  StateWriter() = default;
  // Writes into `buffer`, which is cleared first (a reused buffer keeps its capacity).
  explicit StateWriter(std::string buffer) : buf_(std::move(buffer)) { buf_.clear(); }
  void PutU8(uint8_t v) { buf_.push_back(static_cast<char>(v)); }
  void PutBool(bool v) { PutU8(v ? 1 : 0); }
  void PutU32(uint32_t v);
  void PutU64(uint64_t v);
  void PutI64(int64_t v) { PutU64(static_cast<uint64_t>(v)); }
  void PutDouble(double v);
  void PutVarint(uint64_t v);
  void PutString(std::string_view s);
  void PutRaw(const void* data, size_t n) {
    if (n > 0) buf_.append(static_cast<const char*>(data), n);
  }
  void Append(const void* data, size_t n) override { PutRaw(data, n); }
  // A column (any type, nested included) and a whole chunk (types, rows, RowKinds).
  void PutVector(const Vector& v);
  void PutChunk(const Chunk& c);
  // Rows [begin, begin + n) of a column or chunk, read back by GetVector / GetChunk as a column or
  // chunk of n rows (no copy of the range is made first, except for collection columns).
  void PutVectorRange(const Vector& v, size_t begin, size_t n);
  void PutChunkRange(const Chunk& c, size_t begin, size_t n);
  // A section tag: readers check it (ExpectTag), so a misread layout fails at once with its name.
  void PutTag(std::string_view tag) { PutString(tag); }

  // Room for `n` more bytes (a snapshot that knows its size avoids regrowing a large buffer).
  void Reserve(size_t n) override { buf_.reserve(buf_.size() + n); }

  // Deferred parts (see above): off by default, so every other writer's output is plain bytes.
  void AllowDeferred() { allow_deferred_ = true; }
  bool allows_deferred() const { return allow_deferred_; }
  // Records `part` here when deferred parts are allowed, else writes its bytes now.
  void PutDeferred(std::shared_ptr<const DeferredBytes> part);
  // Appends everything `other` wrote (its deferred parts too): without a copy when this writer allows
  // deferred parts (other's output becomes one), else copied. `other` is left empty.
  void PutWriter(StateWriter&& other);
  // All bytes of the output, the deferred parts' included (walks them: see DeferredBytes::Size).
  size_t OutputSize() const;

  // The bytes written: all of them when nothing was deferred (checked).
  const std::string& data() const;
  std::string Release();
  // The bytes written, and the deferred parts that go between them into `deferred`.
  std::string Release(std::vector<DeferredPart>* deferred);
  // Bytes written so far, deferred parts not included.
  size_t size() const { return buf_.size(); }

 private:
  std::string buf_;
  bool allow_deferred_ = false;
  std::vector<DeferredPart> deferred_;
};

class StateReader {
 public:
  // `what` names the state for error messages ("operator #3 GroupAggregate").
  StateReader(std::string_view data, std::string what) : data_(data), what_(std::move(what)) {}

  uint8_t GetU8();
  bool GetBool() { return GetU8() != 0; }
  uint32_t GetU32();
  uint64_t GetU64();
  int64_t GetI64() { return static_cast<int64_t>(GetU64()); }
  double GetDouble();
  uint64_t GetVarint();
  // A count of items that each take at least `min_bytes` bytes: refused when the rest of the buffer
  // cannot hold that many, so a corrupt count never drives a huge allocation.
  size_t GetCount(size_t min_bytes = 1);
  std::string GetString();
  std::string_view GetStringView();
  void GetRaw(void* out, size_t n);
  // Reads a vector of `type` written by PutVector into `out` (replacing it).
  void GetVector(const LogicalType& type, Vector* out);
  // Reads a chunk written by PutChunk whose columns have `types` (checked: count and type ids).
  void GetChunk(const std::vector<LogicalType>& types, Chunk* out);
  void ExpectTag(std::string_view tag);

  bool ok() const { return status_.ok(); }
  const Status& status() const { return status_; }
  bool at_end() const { return pos_ == data_.size(); }
  size_t remaining() const { return data_.size() - pos_; }
  // Records an error found by the caller (a value out of range); the first error wins.
  void Fail(const std::string& why);
  // OK when everything was read without error and nothing is left over.
  Status Finish();

 private:
  bool Need(size_t n);
  std::string_view data_;
  size_t pos_ = 0;
  std::string what_;
  Status status_;
};

}  // namespace sluice
