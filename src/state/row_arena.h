// RowArena: rows kept in operator state, stored column-wise in one growing Chunk and named by a
// 32-bit id. Appending copies a row's values, string bytes included, into the arena's own heap (so a
// stored row never pins its input chunk's memory, and outputs gathered from the arena share one heap); Gather appends stored rows to an output chunk with one selection vector per column, so
// emitting state never boxes values.
//
// Repeated strings are stored once (unless set_intern_strings(false)): a string column's appended values are looked up among the
// column's strings stored so far and share their bytes (a view is 16 bytes, a URL 60), as long as the
// column's values do repeat (more than a quarter of them repeat an earlier one; checked at 4096 rows
// and every doubling after, then the column's table is dropped and its strings copied as they come).
//
// Released rows are counted but their slots stay until the arena is dropped (live() counts the
// rest); operators whose state churns should size their arenas per key or compact them (Retain).
//
// Checkpoints without a copy: stored rows never change, so a snapshot into a StateWriter that allows
// deferred parts (state/state_serde.h) does not copy the rows it writes; it hands the checkpoint's
// background thread a view of them (at least kDeferMinRows rows of flat columns). Until that thread
// has written them (the view's pin is done), no buffer the view reads is freed or moved: an append
// that would grow a buffer moves the rows into bigger buffers and leaves the old ones to the view,
// and so does dropping or replacing the arena. With no view pending, appends grow buffers in place.
//
// Threading: owned by one operator on one task thread; a deferred view is read on the checkpoint's
// background thread, and only reads buffers this thread no longer writes.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "types/schema.h"
#include "types/vector.h"

namespace sluice {

class StateWriter;
class StateReader;

class RowArena {
 public:
  explicit RowArena(const Schema& schema);
  explicit RowArena(const std::vector<LogicalType>& types);
  ~RowArena();
  // Copies hold the rows, not the pending views.
  RowArena(const RowArena& other);
  RowArena& operator=(const RowArena& other);
  RowArena(RowArena&& other) noexcept;
  RowArena& operator=(RowArena&& other) noexcept;

  // Off: every string is copied, none looked up among the stored ones (for states that append nearly
  // every input row, where the lookups cost more CPU than the memory they save is worth: keep-last
  // deduplication). Set before the first append; copies and moves keep it.
  void set_intern_strings(bool on) { intern_strings_ = on; }

  // Snapshots of fewer rows are written at once, not deferred.
  static constexpr size_t kDeferMinRows = 4096;

  uint32_t Append(const Chunk& chunk, size_t row);
  // Appends rows[i] of `chunk` for every i (columnar), returning the first id; ids are consecutive.
  uint32_t AppendMany(const Chunk& chunk, const uint32_t* rows, size_t count);
  void Release(uint32_t id) { ++released_; (void)id; }
  size_t live() const { return rows_.size() - released_; }

  // Appends the stored rows `ids` to `out` (whose columns match the arena's), with RowKind `kind`.
  void Gather(const uint32_t* ids, size_t count, RowKind kind, Chunk* out) const;
  // Appends the stored row's columns to `out` starting at column `first_column` (for joins, which
  // concatenate two sides); no RowKind is written.
  void GatherColumns(const uint32_t* ids, size_t count, size_t first_column, Chunk* out) const;

  // Compaction: keeps only the rows ids[0..count), in that order (ids[i] becomes row i; ids must be
  // distinct), and forgets the released count. It works column by column and frees each old column
  // (buffers and string heap) before the next is copied, so while it runs the arena holds its old rows
  // plus one column's copy, not a whole second arena. When the ids ascend, fixed-width columns keep
  // their buffers (rows move down in place) and string columns are copied once, in address order,
  // rows sharing an interned value sharing one lookup. With a deferred view pending, the old rows
  // stay with the view and the kept ones are copied into a fresh chunk.
  void Retain(const uint32_t* ids, size_t count);

  const Chunk& rows() const { return rows_; }
  bool Equals(uint32_t id, const Chunk& chunk, size_t row) const;

  // The rows' buffers and string heaps (a heap kept from before the arena grew during a checkpoint
  // included: see MakeRoom).
  size_t MemoryUsage() const;
  // Checkpoints: writes every slot (ids stay valid after a restore) and the released count.
  void Snapshot(StateWriter* w) const;
  // Writes only the rows `ids`, in that order, as an arena without released rows: after Restore the
  // row ids[i] has id i. For arenas with many released rows.
  void SnapshotRows(const std::vector<uint32_t>& ids, StateWriter* w) const;
  void Restore(StateReader* r);
  // Incremental checkpoints (state/delta.h): writes the rows with id >= `first_id` (appended since a
  // snapshot taken when the arena had `first_id` rows) and the released count; RestoreAppend adds
  // them after the rows restored so far, refusing a delta that does not start at size().
  void SnapshotTail(size_t first_id, StateWriter* w) const;
  void RestoreAppend(StateReader* r);
  size_t size() const { return rows_.size(); }

  // A pending deferred view's hold on the buffers (row_arena.cc).
  struct Pin;

 private:
  // Writes rows [begin, begin + n), or `ids` when set, as a chunk: deferred when the writer allows it.
  void PutRows(StateWriter* w, const std::vector<uint32_t>* ids, size_t begin, size_t n) const;
  // Before `count` rows are appended: while a view is pending, buffers that would move are left to it.
  void MakeRoom(size_t count);
  // Leaves the current buffers to every pending view (before they are freed or replaced); rows_ is
  // then empty, to be reassigned.
  void KeepForPins();
  // Forgets the views that are done; true while any is pending.
  bool PrunePins() const;

  // Appends rows[i] (or begin + i when rows is null) of `chunk`, strings interned where they repeat.
  void AppendRows(const Chunk& chunk, const uint32_t* rows, size_t begin, size_t count);

  // The string columns' tables of stored strings (row_arena.cc); null until the first append.
  struct Interner;

  Chunk rows_;
  size_t released_ = 0;
  bool intern_strings_ = true;
  mutable std::vector<std::shared_ptr<Pin>> pins_;
  std::unique_ptr<Interner> interner_;
};

}  // namespace sluice
