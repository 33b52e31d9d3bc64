// RowArena snapshots that the checkpoint's background thread writes (deferred parts, state_serde.h):
// the bytes must equal an immediate snapshot taken at the same moment, whatever the arena does
// afterwards (grows, gets nulls, is dropped), and restore to the same rows.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "state/row_arena.h"
#include "state/state_serde.h"
#include "types/value.h"
#include "types/vector.h"

namespace sluice {
namespace {

const std::vector<LogicalType>& Types() {
  static const std::vector<LogicalType> types = {LogicalType::BigInt(), LogicalType::String(), LogicalType::Double()};
  return types;
}

// Rows [first, first + n): a BIGINT, a string of varying length (NULL every 7th row when `nulls`), a DOUBLE.
Chunk Rows(size_t first, size_t n, bool nulls) {
  Chunk c(Types());
  for (size_t i = first; i < first + n; ++i) {
    Value s = nulls && i % 7 == 0 ? Value::Null(LogicalType::String())
                                  : Value::String("row-" + std::to_string(i) + std::string(i % 13, 'x'));
    c.AppendValues({Value::BigInt(static_cast<int64_t>(i)), s, Value::Double(static_cast<double>(i) / 4)},
                   i % 5 == 0 ? RowKind::kUpdateAfter : RowKind::kInsert);
  }
  return c;
}

void AppendRows(RowArena* arena, size_t n, bool nulls) {
  Chunk c = Rows(arena->size(), n, nulls);
  std::vector<uint32_t> all(c.size());
  for (size_t i = 0; i < all.size(); ++i) all[i] = static_cast<uint32_t>(i);
  // Half one row at a time, half at once: both append paths make room.
  const size_t half = all.size() / 2;
  for (size_t i = 0; i < half; ++i) arena->Append(c, i);
  arena->AppendMany(c, all.data() + half, all.size() - half);
}

std::string Immediate(const RowArena& arena, const std::vector<uint32_t>* ids, size_t first) {
  StateWriter w;
  if (ids != nullptr) {
    arena.SnapshotRows(*ids, &w);
  } else {
    arena.SnapshotTail(first, &w);
  }
  return w.Release();
}

struct Deferred {
  std::string bytes;
  std::vector<DeferredPart> parts;
};

Deferred Defer(const RowArena& arena, const std::vector<uint32_t>* ids, size_t first) {
  StateWriter w;
  w.AllowDeferred();
  if (ids != nullptr) {
    arena.SnapshotRows(*ids, &w);
  } else {
    arena.SnapshotTail(first, &w);
  }
  Deferred d;
  d.bytes = w.Release(&d.parts);
  return d;
}

TEST(RowArenaDeferredTest, TailEqualsAnImmediateSnapshotAfterTheArenaGrowsAndIsDropped) {
  auto arena = std::make_unique<RowArena>(Types());
  AppendRows(arena.get(), 3000, /*nulls=*/false);
  const size_t first = 1000;
  AppendRows(arena.get(), 20000, /*nulls=*/false);
  const std::string expected = Immediate(*arena, nullptr, first);
  Deferred d = Defer(*arena, nullptr, first);
  ASSERT_EQ(d.parts.size(), 1u);  // 22,000 rows since `first`: deferred
  EXPECT_LT(d.bytes.size(), 32u);
  // The arena goes on: its first NULL string (a validity buffer appears), growth past every
  // buffer's capacity several times, then it is dropped, before the part is written.
  AppendRows(arena.get(), 100000, /*nulls=*/true);
  AppendRows(arena.get(), 100, /*nulls=*/true);
  arena.reset();
  EXPECT_EQ(OutputSize(d.bytes, d.parts), expected.size());
  EXPECT_EQ(Materialize(std::move(d.bytes), std::move(d.parts)), expected);
}

TEST(RowArenaDeferredTest, ColumnsWithNullsAndReplacedArena) {
  RowArena arena(Types());
  AppendRows(&arena, 50000, /*nulls=*/true);
  const std::string expected = Immediate(arena, nullptr, 0);
  Deferred d = Defer(arena, nullptr, 0);
  ASSERT_EQ(d.parts.size(), 1u);
  AppendRows(&arena, 70000, /*nulls=*/true);
  arena = RowArena(Types());  // as an operator's compaction or DropState does
  AppendRows(&arena, 10, /*nulls=*/false);
  EXPECT_EQ(Materialize(std::move(d.bytes), std::move(d.parts)), expected);

  // Restoring the deferred output gives back the rows.
  RowArena restored(Types());
  StateReader r(expected, "test arena");
  restored.RestoreAppend(&r);
  ASSERT_TRUE(r.Finish().ok()) << r.status().ToString();
  ASSERT_EQ(restored.size(), 50000u);
  Chunk want = Rows(0, 50000, true);
  for (size_t i : {0u, 7u, 8u, 49999u}) EXPECT_EQ(restored.rows().GetRow(i), want.GetRow(i)) << i;
  EXPECT_EQ(restored.rows().kind(5), RowKind::kUpdateAfter);
}

TEST(RowArenaDeferredTest, SelectedRowsEqualAnImmediateSnapshot) {
  RowArena arena(Types());
  AppendRows(&arena, 30000, /*nulls=*/true);
  std::vector<uint32_t> ids;
  for (uint32_t i = 3; i < 30000; i += 3) ids.push_back(i);
  ids.push_back(1);  // any order
  const std::string expected = Immediate(arena, &ids, 0);
  Deferred d = Defer(arena, &ids, 0);
  ASSERT_EQ(d.parts.size(), 1u);
  ids.clear();  // the part keeps its own copy
  AppendRows(&arena, 80000, /*nulls=*/false);
  EXPECT_EQ(Materialize(std::move(d.bytes), std::move(d.parts)), expected);
}

TEST(RowArenaDeferredTest, SmallSnapshotsAndWritersWithoutDeferralWriteAtOnce) {
  RowArena arena(Types());
  AppendRows(&arena, RowArena::kDeferMinRows - 1, /*nulls=*/true);
  Deferred d = Defer(arena, nullptr, 0);
  EXPECT_TRUE(d.parts.empty());
  EXPECT_EQ(d.bytes, Immediate(arena, nullptr, 0));
  AppendRows(&arena, 10, /*nulls=*/false);
  StateWriter w;  // deferral not allowed
  arena.Snapshot(&w);
  EXPECT_GT(w.size(), 10000u);
}

TEST(RowArenaDeferredTest, TwoPendingSnapshotsOfOneArena) {
  RowArena arena(Types());
  AppendRows(&arena, 10000, /*nulls=*/false);
  const std::string expected1 = Immediate(arena, nullptr, 0);
  Deferred d1 = Defer(arena, nullptr, 0);
  AppendRows(&arena, 40000, /*nulls=*/true);
  const std::string expected2 = Immediate(arena, nullptr, 10000);
  Deferred d2 = Defer(arena, nullptr, 10000);
  AppendRows(&arena, 200000, /*nulls=*/true);
  EXPECT_EQ(Materialize(std::move(d2.bytes), std::move(d2.parts)), expected2);
  AppendRows(&arena, 200000, /*nulls=*/true);
  EXPECT_EQ(Materialize(std::move(d1.bytes), std::move(d1.parts)), expected1);
}

}  // namespace
}  // namespace sluice
