// RowArena::Retain (compaction in place, column by column) and the slim KeyIndex: the kept rows read
// back as they were stored (values, NULLs, kinds, interned strings), appends go on after a Retain, a
// Retain while a deferred snapshot is pending leaves the snapshot's rows intact, and a column without
// NULLs stays without validity bytes when its rows come from a source that has them.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "state/key_index.h"
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

// Column 1 repeats one of 10 long URLs (NULL every 11th row), column 2 never repeats.
Chunk Rows(size_t first, size_t n) {
  Chunk c(Types());
  for (size_t i = first; i < first + n; ++i) {
    Value url = i % 11 == 0 ? Value::Null(LogicalType::String())
                            : Value::String("https://www.nexmark.com/item.htm?channel_id=" + std::to_string(i % 10));
    c.AppendValues({Value::BigInt(static_cast<int64_t>(i)), url, Value::String("extra-" + std::to_string(i) + std::string(30, 'y'))},
                   i % 3 == 0 ? RowKind::kUpdateAfter : RowKind::kInsert);
  }
  return c;
}

RowArena Filled(size_t n) {
  RowArena arena(Types());
  Chunk c = Rows(0, n);
  std::vector<uint32_t> all(n);
  for (size_t i = 0; i < n; ++i) all[i] = static_cast<uint32_t>(i);
  arena.AppendMany(c, all.data(), n);
  return arena;
}

// Row i of `arena` must be row want[i] of Rows(0, ...).
void ExpectKept(const RowArena& arena, const std::vector<uint32_t>& want) {
  ASSERT_EQ(arena.size(), want.size());
  Chunk all = Rows(0, 20000);
  for (size_t i = 0; i < want.size(); ++i) {
    ASSERT_TRUE(arena.Equals(static_cast<uint32_t>(i), all, want[i])) << "row " << i;
    EXPECT_EQ(arena.rows().column(1).IsNull(i), all.column(1).IsNull(want[i])) << "row " << i;
    EXPECT_EQ(arena.rows().kind(i), all.kind(want[i])) << "row " << i;
  }
}

TEST(RowArenaRetainTest, KeepsTheChosenRowsInTheGivenOrder) {
  RowArena arena = Filled(12000);
  std::vector<uint32_t> keep;
  for (uint32_t i = 11999; i < 12000; i -= 3) keep.push_back(i);  // descending, every third
  for (size_t i = 0; i < keep.size(); i += 2) arena.Release(keep[i]);
  arena.Retain(keep.data(), keep.size());
  EXPECT_EQ(arena.live(), keep.size());
  ExpectKept(arena, keep);
  // The repeated column is still interned: its kept rows share 10 copies.
  std::vector<const char*> distinct;
  const Vector& urls = arena.rows().column(1);
  for (size_t i = 0; i < arena.size(); ++i) {
    if (urls.IsNull(i)) continue;
    const char* p = urls.GetString(i).data();
    if (std::find(distinct.begin(), distinct.end(), p) == distinct.end()) distinct.push_back(p);
  }
  EXPECT_EQ(distinct.size(), 10u);
  // Appends go on after the kept rows.
  Chunk more = Rows(12000, 10);
  const uint32_t id = arena.Append(more, 4);
  EXPECT_EQ(id, keep.size());
  EXPECT_TRUE(arena.Equals(id, more, 4));
  // Keeping nothing empties the arena.
  arena.Retain(nullptr, 0);
  EXPECT_EQ(arena.size(), 0u);
  EXPECT_EQ(arena.live(), 0u);
}

TEST(RowArenaRetainTest, APendingDeferredSnapshotKeepsItsRows) {
  RowArena arena = Filled(9000);
  StateWriter now;
  arena.Snapshot(&now);
  const std::string expected = now.Release();
  StateWriter w;
  w.AllowDeferred();
  arena.Snapshot(&w);
  std::vector<DeferredPart> parts;
  std::string bytes = w.Release(&parts);
  ASSERT_EQ(parts.size(), 1u);
  std::vector<uint32_t> keep = {8999, 5, 4000, 17};
  arena.Retain(keep.data(), keep.size());
  ExpectKept(arena, keep);
  EXPECT_EQ(Materialize(std::move(bytes), std::move(parts)), expected);
}

TEST(RowArenaRetainTest, RowsWithoutNullsFromANullableSourceGetNoValidity) {
  Chunk src = Rows(1, 10);  // rows 1..10: row 11 is the first NULL URL
  src.column(1).mutable_validity();  // a validity buffer, all valid
  Vector dst(LogicalType::String());
  dst.AppendFrom(src.column(1), nullptr, 0, 10);
  EXPECT_FALSE(dst.MayHaveNulls());
  Chunk with_null = Rows(11, 1);
  dst.AppendFrom(with_null.column(1), nullptr, 0, 1);
  ASSERT_TRUE(dst.MayHaveNulls());
  EXPECT_TRUE(dst.IsNull(10));
  EXPECT_FALSE(dst.IsNull(9));
  const uint32_t sel[] = {3, 1};
  dst.AppendFrom(src.column(1), sel, 0, 2);
  EXPECT_FALSE(dst.IsNull(11));
  EXPECT_EQ(dst.GetString(12), src.column(1).GetString(1));
}

TEST(KeyIndexSlimTest, ManyKeysMovesAndSnapshots) {
  KeyIndex idx;
  const size_t n = 50000;
  for (size_t i = 0; i < n; ++i) {
    bool inserted = false;
    EXPECT_EQ(idx.Insert("key-" + std::to_string(i), &inserted), i);
    EXPECT_TRUE(inserted);
  }
  bool inserted = true;
  EXPECT_EQ(idx.Insert("key-123", &inserted), 123u);
  EXPECT_FALSE(inserted);
  KeyIndex moved(std::move(idx));
  EXPECT_EQ(idx.size(), 0u);  // moved-from: empty and usable
  EXPECT_EQ(idx.Find("key-1"), KeyIndex::kNotFound);
  EXPECT_EQ(idx.Insert("other"), 0u);
  EXPECT_EQ(moved.size(), n);
  for (size_t i = 0; i < n; i += 97) EXPECT_EQ(moved.Find("key-" + std::to_string(i)), i);
  EXPECT_EQ(moved.key(49999), "key-49999");
  idx = std::move(moved);
  EXPECT_EQ(idx.Find("key-49999"), 49999u);
  EXPECT_EQ(idx.Insert("key-new"), n);
  StateWriter w;
  idx.Snapshot(&w);
  const std::string bytes = w.Release();
  KeyIndex back;
  StateReader r(bytes, "test index");
  back.Restore(&r);
  ASSERT_TRUE(r.Finish().ok()) << r.status().ToString();
  EXPECT_EQ(back.size(), n + 1);
  EXPECT_EQ(back.Find("key-777"), 777u);
  EXPECT_EQ(back.Find("key-new"), n);
  EXPECT_EQ(back.Find(""), KeyIndex::kNotFound);
  EXPECT_EQ(back.Insert(""), n + 1);  // the empty key is a key like any other
  EXPECT_EQ(back.Find(""), n + 1);
}

}  // namespace
}  // namespace sluice
