#include "state/row_arena.h"

#include "state/state_serde.h"

#include "state/key_encoder.h"

namespace sluice {

RowArena::RowArena(const Schema& schema) : rows_(schema) {}
RowArena::RowArena(const std::vector<LogicalType>& types) : rows_(types) {}

uint32_t RowArena::Append(const Chunk& chunk, size_t row) {
  uint32_t id = static_cast<uint32_t>(rows_.size());
  rows_.AppendFrom(chunk, nullptr, row, 1, /*copy_strings=*/true);
  return id;
}

uint32_t RowArena::AppendMany(const Chunk& chunk, const uint32_t* rows, size_t count) {
  uint32_t id = static_cast<uint32_t>(rows_.size());
  rows_.AppendFrom(chunk, rows, 0, count, /*copy_strings=*/true);
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

void RowArena::Snapshot(StateWriter* w) const {
  w->PutChunk(rows_);
  w->PutVarint(released_);
}

void RowArena::SnapshotRows(const std::vector<uint32_t>& ids, StateWriter* w) const {
  Chunk live;
  for (const auto& c : rows_.columns()) live.AddColumn(Vector(c.type()));
  live.AppendFrom(rows_, ids.data(), 0, ids.size());
  w->PutChunk(live);
  w->PutVarint(0);
}

void RowArena::Restore(StateReader* r) {
  std::vector<LogicalType> types;
  for (const auto& c : rows_.columns()) types.push_back(c.type());
  r->GetChunk(types, &rows_);
  released_ = r->GetCount(0);
  if (r->ok() && released_ > rows_.size()) r->Fail("more released rows than rows");
}

void RowArena::SnapshotTail(size_t first_id, StateWriter* w) const {
  w->PutVarint(first_id);
  w->PutChunkRange(rows_, first_id, rows_.size() > first_id ? rows_.size() - first_id : 0);
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
  if (tail.size() > 0) rows_.AppendFrom(tail, nullptr, 0, tail.size(), /*copy_strings=*/true);
  released_ = r->GetCount(0);
  if (r->ok() && released_ > rows_.size()) r->Fail("more released rows than rows");
}

}  // namespace sluice
