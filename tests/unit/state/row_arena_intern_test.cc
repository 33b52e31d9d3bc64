// RowArena's string interning: a string column whose values repeat stores each distinct value once
// (rows share its bytes), a column whose values do not repeat stops looking them up; either way every
// stored row reads back as appended, through copies, moves, compaction-style re-appends and restores.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "state/row_arena.h"
#include "state/state_serde.h"
#include "types/value.h"
#include "types/vector.h"

namespace sluice {
namespace {

const std::vector<LogicalType>& Types() {
  static const std::vector<LogicalType> types = {LogicalType::BigInt(), LogicalType::String(), LogicalType::String()};
  return types;
}

// Column 1 repeats one of 10 long URLs (NULL every 11th row, empty every 13th); column 2 never repeats.
std::string Url(size_t i) { return "https://www.nexmark.com/item.htm?query=1&channel_id=" + std::to_string(i % 10); }
std::string Unique(size_t i) { return "extra-" + std::to_string(i) + std::string(40, 'x'); }

Chunk Rows(size_t first, size_t n) {
  Chunk c(Types());
  for (size_t i = first; i < first + n; ++i) {
    Value url = i % 11 == 0 ? Value::Null(LogicalType::String()) : Value::String(i % 13 == 0 ? "" : Url(i));
    c.AppendValues({Value::BigInt(static_cast<int64_t>(i)), url, Value::String(Unique(i))},
                   i % 3 == 0 ? RowKind::kUpdateAfter : RowKind::kInsert);
  }
  return c;
}

void ExpectRows(const RowArena& arena, size_t n) {
  ASSERT_EQ(arena.size(), n);
  Chunk expected = Rows(0, n);
  for (size_t i = 0; i < n; ++i) {
    ASSERT_TRUE(arena.Equals(static_cast<uint32_t>(i), expected, i)) << "row " << i;
    EXPECT_EQ(arena.rows().column(1).IsNull(i), expected.column(1).IsNull(i)) << "row " << i;
    EXPECT_EQ(arena.rows().kind(i), expected.kind(i)) << "row " << i;
  }
}

RowArena Filled(size_t n) {
  RowArena arena(Types());
  Chunk c = Rows(0, n);
  std::vector<uint32_t> all(n);
  for (size_t i = 0; i < n; ++i) all[i] = static_cast<uint32_t>(i);
  const size_t half = n / 2;
  for (size_t i = 0; i < half; ++i) arena.Append(c, i);
  arena.AppendMany(c, all.data() + half, n - half);
  return arena;
}

TEST(RowArenaInternTest, RepeatedStringsAreStoredOnce) {
  const size_t n = 20000;
  RowArena arena = Filled(n);
  ExpectRows(arena, n);
  // Every stored URL points at one of 10 copies.
  const Vector& urls = arena.rows().column(1);
  std::vector<const char*> distinct;
  for (size_t i = 0; i < n; ++i) {
    if (urls.IsNull(i) || urls.GetString(i).empty()) continue;
    const char* p = urls.GetString(i).data();
    if (std::find(distinct.begin(), distinct.end(), p) == distinct.end()) distinct.push_back(p);
  }
  EXPECT_EQ(distinct.size(), 10u);
  // The unique column is copied row by row: distinct bytes per row.
  const Vector& extra = arena.rows().column(2);
  EXPECT_NE(extra.GetString(n - 1).data(), extra.GetString(n - 2).data());
}

// With interning off (keep-last deduplication's arenas) every row has its own copy; copies and moves
// of the arena keep the setting.
TEST(RowArenaInternTest, InterningOffCopiesEveryString) {
  const size_t n = 5000;
  RowArena arena(Types());
  arena.set_intern_strings(false);
  RowArena moved = std::move(arena);
  RowArena copied(moved);
  Chunk c = Rows(0, n);
  std::vector<uint32_t> all(n);
  for (size_t i = 0; i < n; ++i) all[i] = static_cast<uint32_t>(i);
  moved.AppendMany(c, all.data(), n);
  copied.AppendMany(c, all.data(), n);
  ExpectRows(moved, n);
  ExpectRows(copied, n);
  for (const RowArena* a : {&moved, &copied}) {
    const Vector& urls = a->rows().column(1);
    // Rows 1 and 21 hold the same URL, in two copies.
    ASSERT_EQ(urls.GetString(1), urls.GetString(21));
    EXPECT_NE(urls.GetString(1).data(), urls.GetString(21).data());
  }
  // Interned, the same rows take less memory.
  EXPECT_GT(moved.MemoryUsage(), Filled(n).MemoryUsage());
}

TEST(RowArenaInternTest, CopiesMovesReappendsAndRestoresKeepTheRows) {
  const size_t n = 9000;
  RowArena arena = Filled(n);
  RowArena copy(arena);
  ExpectRows(copy, n);
  RowArena moved(std::move(copy));
  ExpectRows(moved, n);
  // A compaction appends the live rows into a fresh arena; appending to the moved one goes on interning.
  std::vector<uint32_t> every_other;
  for (size_t i = 0; i < n; i += 2) every_other.push_back(static_cast<uint32_t>(i));
  RowArena fresh(Types());
  fresh.AppendMany(moved.rows(), every_other.data(), every_other.size());
  for (size_t k = 0; k < every_other.size(); ++k) {
    ASSERT_TRUE(fresh.Equals(static_cast<uint32_t>(k), moved.rows(), every_other[k]));
  }
  Chunk more = Rows(n, 100);
  for (size_t i = 0; i < more.size(); ++i) moved.Append(more, i);
  ExpectRows(moved, n + 100);
  // A snapshot restores to the same rows; appending after the restore stores new rows correctly.
  StateWriter w;
  moved.Snapshot(&w);
  const std::string bytes = w.Release();
  RowArena restored(Types());
  StateReader r(bytes, "test arena");
  restored.Restore(&r);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  ExpectRows(restored, n + 100);
  Chunk tail = Rows(n + 100, 5000);
  std::vector<uint32_t> all(tail.size());
  for (size_t i = 0; i < all.size(); ++i) all[i] = static_cast<uint32_t>(i);
  restored.AppendMany(tail, all.data(), all.size());
  ExpectRows(restored, n + 5100);
}

}  // namespace
}  // namespace sluice
