#include "state/row_arena.h"

#include <algorithm>
#include <cstring>
#include <mutex>

#include <absl/container/flat_hash_map.h>
#include <absl/container/flat_hash_set.h>
#include <absl/hash/hash.h>

// Header-only: the state library does not link libxxhash.
#define XXH_INLINE_ALL
#include <xxhash.h>

#include "common/check.h"
#include "state/state_serde.h"

#include "state/key_encoder.h"

namespace sluice {

// A deferred view's hold on the arena's buffers: done once the view was written (its destructor);
// until then, buffers the arena replaces are kept here, and the view frees them when it is done (on
// the checkpoint's thread, which so also takes the cost of unmapping them).
struct RowArena::Pin {
  std::mutex mu;
  bool done = false;
  std::vector<std::shared_ptr<const Chunk>> kept;

  bool Done() {
    std::lock_guard<std::mutex> lock(mu);
    return done;
  }
  // Keeps `chunk` unless the view is done already.
  void Keep(const std::shared_ptr<const Chunk>& chunk) {
    std::lock_guard<std::mutex> lock(mu);
    if (!done) kept.push_back(chunk);
  }
  void Finish() {
    std::vector<std::shared_ptr<const Chunk>> release;
    {
      std::lock_guard<std::mutex> lock(mu);
      done = true;
      release.swap(kept);
    }
  }
};

namespace {

std::vector<LogicalType> TypesOf(const Chunk& chunk) {
  std::vector<LogicalType> types;
  for (const auto& c : chunk.columns()) types.push_back(c.type());
  return types;
}

// Rows of an arena written later, on the checkpoint's background thread.
class DeferredRows final : public DeferredBytes {
 public:
  DeferredRows(FlatRows rows, std::vector<uint32_t> ids, std::shared_ptr<RowArena::Pin> pin)
      : rows_(std::move(rows)), ids_(std::move(ids)), pin_(std::move(pin)) {
    if (rows_.sel != nullptr) rows_.sel = ids_.data();
  }
  ~DeferredRows() override { pin_->Finish(); }
  size_t Size() const override { return RowsBytes(rows_); }
  void WriteTo(ByteSink* sink) const override { WriteRows(rows_, sink); }

 private:
  FlatRows rows_;
  std::vector<uint32_t> ids_;
  std::shared_ptr<RowArena::Pin> pin_;
};

}  // namespace

// Per string column, the strings it stored (views into the column's heaps, which live as long as
// rows_ does: a grown chunk shares the old one's heaps). A column whose values do not repeat enough
// to pay for the table is switched off for good. Strings under kMinInterned bytes are copied (the
// header's "repeated strings" note applies from that length on).
struct RowArena::Interner {
  static constexpr size_t kFirstCheck = 4096;
  static constexpr size_t kMinInterned = 16;
  // A string and its hash, computed once per appended value (the table is probed with it).
  struct Hashed {
    std::string_view s;
    size_t hash;
  };
  // XXH3 (libstdc++'s std::hash, which absl uses for string_view here, is several times slower on URLs).
  struct Hash {
    using is_transparent = void;
    size_t operator()(std::string_view s) const { return static_cast<size_t>(XXH3_64bits(s.data(), s.size())); }
    size_t operator()(const Hashed& h) const { return h.hash; }
  };
  struct Eq {
    using is_transparent = void;
    bool operator()(std::string_view a, std::string_view b) const { return a == b; }
    bool operator()(std::string_view a, const Hashed& b) const { return a == b.s; }
    bool operator()(const Hashed& a, std::string_view b) const { return a.s == b; }
  };
  using Table = absl::flat_hash_set<std::string_view, Hash, Eq>;
  struct Column {
    size_t index = 0;
    bool on = true;
    size_t seen = 0;
    size_t next_check = kFirstCheck;
    Table stored;
    std::vector<size_t> hashes;  // scratch: the hashes of one append's values

    // After `seen` grew: more than three quarters distinct at a check, and the table (which costs
    // about what it saves) is dropped for good.
    void Check() {
      if (seen < next_check) return;
      if (stored.size() * 4 > seen * 3) {
        on = false;
        Table().swap(stored);
        std::vector<size_t>().swap(hashes);
      } else {
        next_check *= 2;
      }
    }
  };
  std::vector<Column> columns;
  bool any_on = false;

  explicit Interner(const Chunk& rows) {
    for (size_t c = 0; c < rows.num_columns(); ++c) {
      if (rows.column(c).type().IsStringLike()) {
        columns.emplace_back();
        columns.back().index = c;
      }
    }
    any_on = !columns.empty();
  }

  // Appends src's selected rows to dst, each string sharing the bytes of an equal stored one. The
  // values are hashed first and their slots prefetched, so the lookups of a chunk overlap their cache
  // misses instead of waiting for each in turn; a value is then found or stored with one probe.
  static void Append(Column& col, Vector& dst, const Vector& src, const uint32_t* sel, size_t begin, size_t count) {
    const size_t old = dst.size();
    dst.Resize(old + count);  // zeroed views, valid
    col.hashes.resize(count);
    for (size_t i = 0; i < count; ++i) {
      const size_t r = sel ? sel[i] : begin + i;
      if (src.IsNull(r)) continue;
      const std::string_view s = src.GetString(r);
      if (s.size() < kMinInterned) continue;
      col.hashes[i] = Hash()(s);
      col.stored.prefetch(Hashed{s, col.hashes[i]});
    }
    for (size_t i = 0; i < count; ++i) {
      const size_t r = sel ? sel[i] : begin + i;
      if (src.IsNull(r)) {
        dst.SetNull(old + i, true);
        continue;
      }
      const std::string_view s = src.GetString(r);
      if (s.empty()) continue;
      if (s.size() < kMinInterned) {
        // Short strings are copied: the lookup (a likely cache miss) costs more than the bytes.
        dst.SetStringView(old + i, dst.heap().Add(s));
        continue;
      }
      auto it = col.stored.lazy_emplace(Hashed{s, col.hashes[i]},
                                        [&](const Table::constructor& construct) { construct(dst.heap().Add(s)); });
      dst.SetStringView(old + i, *it);
    }
    col.seen += count;
    col.Check();
  }

  // Old string -> its copy, by address and length (the bytes of equal addresses are the same bytes).
  struct SameBytesHash {
    size_t operator()(std::string_view s) const {
      return absl::HashOf(reinterpret_cast<uintptr_t>(s.data()), s.size());
    }
  };
  struct SameBytesEq {
    bool operator()(std::string_view a, std::string_view b) const {
      return a.data() == b.data() && a.size() == b.size();
    }
  };
  using Moved = absl::flat_hash_map<std::string_view, std::string_view, SameBytesHash, SameBytesEq>;
  // Compaction (Retain): appends src's rows sel[0..count) to dst as Append does, but a string whose
  // bytes were seen before in this compaction (rows sharing an interned value) takes that copy
  // without hashing its bytes.
  static void Rehome(Column& col, Vector& dst, const Vector& src, const uint32_t* sel, size_t count, Moved* moved);
};

RowArena::RowArena(const Schema& schema) : rows_(schema) {}
RowArena::RowArena(const std::vector<LogicalType>& types) : rows_(types) {}

RowArena::~RowArena() { KeepForPins(); }

RowArena::RowArena(const RowArena& other)
    : rows_(other.rows_), released_(other.released_), intern_strings_(other.intern_strings_) {}

RowArena& RowArena::operator=(const RowArena& other) {
  if (this == &other) return *this;
  KeepForPins();
  rows_ = other.rows_;
  released_ = other.released_;
  intern_strings_ = other.intern_strings_;
  pins_.clear();
  interner_.reset();
  return *this;
}

RowArena::RowArena(RowArena&& other) noexcept
    : rows_(std::move(other.rows_)), released_(other.released_), intern_strings_(other.intern_strings_),
      pins_(std::move(other.pins_)), interner_(std::move(other.interner_)) {
  other.pins_.clear();
}

RowArena& RowArena::operator=(RowArena&& other) noexcept {
  if (this == &other) return *this;
  KeepForPins();
  rows_ = std::move(other.rows_);
  released_ = other.released_;
  intern_strings_ = other.intern_strings_;
  pins_ = std::move(other.pins_);
  other.pins_.clear();
  interner_ = std::move(other.interner_);
  return *this;
}

size_t RowArena::MemoryUsage() const {
  size_t bytes = rows_.MemoryUsage();
  for (const auto& c : rows_.columns()) bytes += c.SharedHeapBytes();
  return bytes;
}

bool RowArena::PrunePins() const {
  std::erase_if(pins_, [](const std::shared_ptr<Pin>& p) { return p->Done(); });
  return !pins_.empty();
}

void RowArena::KeepForPins() {
  if (pins_.empty() || !PrunePins()) return;
  auto kept = std::make_shared<const Chunk>(std::move(rows_));
  for (const auto& p : pins_) p->Keep(kept);
  pins_.clear();
}

void RowArena::MakeRoom(size_t count) {
  if (pins_.empty() || rows_.CanAppendInPlace(count) || !PrunePins()) return;
  // As a growing vector would, but into new buffers: the old ones stay with the pending views.
  const size_t n = rows_.size();
  const size_t capacity = std::max(n + count, 2 * n);
  std::vector<LogicalType> types;
  for (const auto& c : rows_.columns()) types.push_back(c.type());
  Chunk grown(types);
  grown.Reserve(capacity);
  grown.AppendFrom(rows_, nullptr, 0, n, /*copy_strings=*/false);  // shares the string heaps
  grown.Reserve(capacity);  // validity the copy created
  KeepForPins();
  rows_ = std::move(grown);
}

void RowArena::AppendRows(const Chunk& chunk, const uint32_t* rows, size_t begin, size_t count) {
  if (interner_ == nullptr && intern_strings_) interner_ = std::make_unique<Interner>(rows_);
  if (interner_ == nullptr || !interner_->any_on) {
    rows_.AppendFrom(chunk, rows, begin, count, /*copy_strings=*/true);
    return;
  }
  SLUICE_CHECK_EQ(rows_.num_columns(), chunk.num_columns());
  size_t next = 0;  // the next interned column
  bool any_on = false;
  for (size_t c = 0; c < rows_.num_columns(); ++c) {
    Interner::Column* col = nullptr;
    if (next < interner_->columns.size() && interner_->columns[next].index == c) col = &interner_->columns[next++];
    if (col != nullptr && col->on) {
      Interner::Append(*col, rows_.column(c), chunk.column(c), rows, begin, count);
      any_on |= col->on;
    } else {
      rows_.column(c).AppendFrom(chunk.column(c), rows, begin, count, /*copy_strings=*/true);
    }
  }
  interner_->any_on = any_on;
  std::vector<RowKind>& kinds = rows_.kind_vector();
  for (size_t i = 0; i < count; ++i) kinds.push_back(chunk.kind(rows ? rows[i] : begin + i));
}

namespace {

// Whether ids[0..count) ascend strictly (each kept row moves to a lower or the same position).
bool Ascending(const uint32_t* ids, size_t count) {
  for (size_t i = 1; i < count; ++i) {
    if (ids[i] <= ids[i - 1]) return false;
  }
  return true;
}

// A flat column without string bytes of its own, whose rows can move within its buffer.
bool FixedWidth(const LogicalType& type) {
  if (type.IsStringLike() || type.IsList() || type.id() == TypeId::kRow) return false;
  const size_t w = type.PhysicalWidth();
  return w == 1 || w == 2 || w == 4 || w == 8 || w == 16;
}

template <typename T>
void MoveDown(T* data, const uint32_t* ids, size_t count) {
  for (size_t i = 0; i < count; ++i) data[i] = data[ids[i]];
}

// Keeps rows ids[0..count) (ascending) of a fixed-width column in its own buffers: row ids[i] moves
// to i, front to back, so no row is overwritten before it moved. The buffer keeps its capacity (the
// state grows back into it) and no second copy of the column exists at any time.
void RetainInPlace(Vector& v, const uint32_t* ids, size_t count) {
  uint8_t* d = v.raw_data();
  switch (v.type().PhysicalWidth()) {
    case 1: MoveDown(d, ids, count); break;
    case 2: MoveDown(reinterpret_cast<uint16_t*>(d), ids, count); break;
    case 4: MoveDown(reinterpret_cast<uint32_t*>(d), ids, count); break;
    case 8: MoveDown(reinterpret_cast<uint64_t*>(d), ids, count); break;
    default: MoveDown(reinterpret_cast<unsigned __int128*>(d), ids, count); break;
  }
  if (v.MayHaveNulls()) MoveDown(v.mutable_validity(), ids, count);
  v.Resize(count);
}

}  // namespace

void RowArena::Interner::Rehome(Column& col, Vector& dst, const Vector& src, const uint32_t* sel, size_t count,
                                Moved* moved) {
  const size_t old = dst.size();
  dst.Resize(old + count);  // zeroed views, valid
  for (size_t i = 0; i < count; ++i) {
    const size_t r = sel[i];
    if (src.IsNull(r)) {
      dst.SetNull(old + i, true);
      continue;
    }
    const std::string_view s = src.GetString(r);
    if (s.empty()) continue;
    if (s.size() < kMinInterned) {
      dst.SetStringView(old + i, dst.heap().Add(s));
      continue;
    }
    // Views of the same bytes (an interned value's rows) are looked up by their address.
    auto [it, fresh] = moved->try_emplace(s, std::string_view());
    if (fresh) {
      it->second = *col.stored.lazy_emplace(Hashed{s, Hash()(s)},
                                            [&](const Table::constructor& construct) { construct(dst.heap().Add(s)); });
    }
    dst.SetStringView(old + i, it->second);
  }
  col.seen += count;
  col.Check();
}

void RowArena::Retain(const uint32_t* ids, size_t count) {
  if (!pins_.empty() && PrunePins()) {
    RowArena fresh(TypesOf(rows_));
    if (count > 0) fresh.AppendMany(rows_, ids, count);
    *this = std::move(fresh);
    return;
  }
  const bool ascending = Ascending(ids, count);
  auto fresh = std::make_unique<Interner>(rows_);
  size_t next = 0;  // the next interned column
  bool any_on = false;
  for (size_t c = 0; c < rows_.num_columns(); ++c) {
    Interner::Column* col = nullptr;
    if (next < fresh->columns.size() && fresh->columns[next].index == c) col = &fresh->columns[next++];
    Vector& old = rows_.column(c);
    if (ascending && FixedWidth(old.type())) {
      RetainInPlace(old, ids, count);
      continue;
    }
    Vector kept(old.type());
    // Room to grow back (the state's rows usually grow again after a compaction); untouched until then.
    kept.Reserve(2 * count);
    size_t done = 0;
    if (col != nullptr) {
      // In steps, so a column whose values do not repeat drops its table after the first check.
      Interner::Moved moved;
      while (done < count && col->on) {
        const size_t step = std::min(count - done, Interner::kFirstCheck);
        Interner::Rehome(*col, kept, old, ids + done, step, &moved);
        done += step;
      }
      any_on |= col->on;
    }
    if (done < count) kept.AppendFrom(old, ids + done, 0, count - done, /*copy_strings=*/true);
    old = std::move(kept);  // frees the old column's buffers and heap
  }
  fresh->any_on = any_on;
  std::vector<RowKind>& kinds = rows_.kind_vector();
  if (ascending) {
    MoveDown(kinds.data(), ids, count);
    kinds.resize(count);
  } else {
    std::vector<RowKind> kept_kinds(count);
    for (size_t i = 0; i < count; ++i) kept_kinds[i] = kinds[ids[i]];
    kinds = std::move(kept_kinds);
  }
  interner_ = std::move(fresh);
  released_ = 0;
}

uint32_t RowArena::Append(const Chunk& chunk, size_t row) {
  MakeRoom(1);
  uint32_t id = static_cast<uint32_t>(rows_.size());
  AppendRows(chunk, nullptr, row, 1);
  return id;
}

uint32_t RowArena::AppendMany(const Chunk& chunk, const uint32_t* rows, size_t count) {
  MakeRoom(count);
  uint32_t id = static_cast<uint32_t>(rows_.size());
  AppendRows(chunk, rows, 0, count);
  return id;
}

void RowArena::Gather(const uint32_t* ids, size_t count, RowKind kind, Chunk* out) const {
  size_t before = out->size();
  for (size_t c = 0; c < rows_.num_columns(); ++c) out->column(c).AppendFrom(rows_.column(c), ids, 0, count);
  out->kind_vector().resize(before + count, kind);
}

void RowArena::GatherColumns(const uint32_t* ids, size_t count, size_t first_column, Chunk* out) const {
  for (size_t c = 0; c < rows_.num_columns(); ++c) out->column(first_column + c).AppendFrom(rows_.column(c), ids, 0, count);
}

bool RowArena::Equals(uint32_t id, const Chunk& chunk, size_t row) const {
  std::string a, b;
  for (size_t c = 0; c < rows_.num_columns(); ++c) {
    a.clear();
    b.clear();
    EncodeKeyValue(rows_.column(c), id, &a);
    EncodeKeyValue(chunk.column(c), row, &b);
    if (a != b) return false;
  }
  return true;
}

void RowArena::PutRows(StateWriter* w, const std::vector<uint32_t>* ids, size_t begin, size_t n) const {
  FlatRows rows;
  for (const auto& c : rows_.columns()) {
    if (c.type().IsList() || c.type().id() == TypeId::kRow) {
      // Nested columns: a chunk of the rows, written now.
      if (ids == nullptr) {
        w->PutChunkRange(rows_, begin, n);
        return;
      }
      Chunk live;
      for (const auto& col : rows_.columns()) live.AddColumn(Vector(col.type()));
      live.AppendFrom(rows_, ids->data(), 0, ids->size());
      w->PutChunk(live);
      return;
    }
    rows.columns.push_back({c.type(), c.raw_data(), c.validity()});
  }
  rows.kinds = rows_.kinds();
  rows.begin = begin;
  rows.n = n;
  if (ids != nullptr) rows.sel = ids->data();
  if (!w->allows_deferred() || n < kDeferMinRows) {
    WriteRows(rows, w);
    return;
  }
  auto pin = std::make_shared<Pin>();
  PrunePins();
  pins_.push_back(pin);
  w->PutDeferred(std::make_shared<DeferredRows>(std::move(rows), ids ? *ids : std::vector<uint32_t>(), std::move(pin)));
}

void RowArena::Snapshot(StateWriter* w) const {
  PutRows(w, nullptr, 0, rows_.size());
  w->PutVarint(released_);
}

void RowArena::SnapshotRows(const std::vector<uint32_t>& ids, StateWriter* w) const {
  PutRows(w, &ids, 0, ids.size());
  w->PutVarint(0);
}

void RowArena::Restore(StateReader* r) {
  std::vector<LogicalType> types;
  for (const auto& c : rows_.columns()) types.push_back(c.type());
  KeepForPins();
  interner_.reset();
  r->GetChunk(types, &rows_);
  released_ = r->GetCount(0);
  if (r->ok() && released_ > rows_.size()) r->Fail("more released rows than rows");
}

void RowArena::SnapshotTail(size_t first_id, StateWriter* w) const {
  w->PutVarint(first_id);
  PutRows(w, nullptr, first_id, rows_.size() > first_id ? rows_.size() - first_id : 0);
  w->PutVarint(released_);
}

void RowArena::RestoreAppend(StateReader* r) {
  const size_t first = r->GetCount(0);
  if (r->ok() && first != rows_.size()) {
    r->Fail("a row delta starts at row " + std::to_string(first) + " but " + std::to_string(rows_.size()) +
            " rows were restored");
  }
  std::vector<LogicalType> types;
  for (const auto& c : rows_.columns()) types.push_back(c.type());
  Chunk tail;
  r->GetChunk(types, &tail);
  if (!r->ok()) return;
  if (tail.size() > 0) AppendMany(tail, nullptr, tail.size());
  released_ = r->GetCount(0);
  if (r->ok() && released_ > rows_.size()) r->Fail("more released rows than rows");
}

}  // namespace sluice
