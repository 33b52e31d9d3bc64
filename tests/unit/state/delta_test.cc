// The shared pieces of keyed state and incremental checkpoints (issue 5): KeyIndex, DeltaTracker and
// column deltas, RowArena tails. A full snapshot plus deltas must restore exactly what a full
// snapshot of the final state restores, and a delta applied to the wrong base must be refused.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "state/delta.h"
#include "state/key_index.h"
#include "state/row_arena.h"
#include "state/state_serde.h"
#include "types/value.h"
#include "types/vector.h"

namespace sluice {
namespace {

TEST(KeyIndexTest, DenseIdsInInsertionOrder) {
  KeyIndex idx;
  bool inserted = false;
  EXPECT_EQ(idx.Insert("b", &inserted), 0u);
  EXPECT_TRUE(inserted);
  EXPECT_EQ(idx.Insert("a", &inserted), 1u);
  EXPECT_EQ(idx.Insert("b", &inserted), 0u);
  EXPECT_FALSE(inserted);
  EXPECT_EQ(idx.Insert(std::string_view(), &inserted), 2u);  // the empty key is a key
  EXPECT_EQ(idx.Find("a"), 1u);
  EXPECT_EQ(idx.Find("zz"), KeyIndex::kNotFound);
  EXPECT_EQ(idx.key(1), "a");
  // Keys larger than a block, and many keys: views stay valid as blocks are added.
  std::string big(3 << 20, 'q');
  uint32_t id = idx.Insert(big);
  for (int i = 0; i < 100000; ++i) idx.Insert("key-" + std::to_string(i));
  EXPECT_EQ(idx.key(id), big);
  EXPECT_EQ(idx.key(1), "a");
  EXPECT_EQ(idx.Find("key-99999"), idx.size() - 1);
}

TEST(KeyIndexTest, FullSnapshotPlusDeltasRestoresTheSameIndex) {
  KeyIndex idx;
  for (int i = 0; i < 1000; ++i) idx.Insert("k" + std::to_string(i));
  StateWriter full;
  idx.Snapshot(&full);
  const size_t base = idx.size();
  for (int i = 500; i < 1500; ++i) idx.Insert("k" + std::to_string(i));
  StateWriter delta;
  idx.SnapshotSince(base, &delta);

  KeyIndex back;
  StateReader r1(full.data(), "full");
  back.Restore(&r1);
  ASSERT_TRUE(r1.Finish().ok());
  StateReader r2(delta.data(), "delta");
  back.RestoreAppend(&r2);
  ASSERT_TRUE(r2.Finish().ok()) << r2.status().ToString();
  ASSERT_EQ(back.size(), idx.size());
  for (uint32_t i = 0; i < idx.size(); ++i) EXPECT_EQ(back.key(i), idx.key(i));
  EXPECT_EQ(back.Find("k1499"), 1499u);

  // Applied twice (wrong base): refused.
  StateReader again(delta.data(), "delta");
  back.RestoreAppend(&again);
  EXPECT_FALSE(again.ok());
  EXPECT_NE(again.status().message().find("starts at key 1000"), std::string::npos) << again.status().message();
}

TEST(DeltaTrackerTest, ColumnDeltaCarriesDirtySlotsAndTheNewTail) {
  std::vector<int64_t> col(100);
  for (size_t i = 0; i < col.size(); ++i) col[i] = static_cast<int64_t>(i);
  DeltaTracker t;
  StateWriter full;
  PutColumn(&full, col);
  t.Reset(col.size());
  // Writes: some old slots (twice, recorded once), and new ids (never marked as dirty).
  for (uint32_t id : {3u, 97u, 3u, 50u}) {
    t.Mark(id);
    col[id] = -col[id] - 1000;
  }
  for (int i = 0; i < 20; ++i) {
    col.push_back(1000 + i);
    t.Mark(static_cast<uint32_t>(col.size() - 1));
  }
  EXPECT_EQ(t.dirty().size(), 3u);
  EXPECT_TRUE(t.IsDirty(97));
  EXPECT_FALSE(t.IsDirty(4));
  StateWriter delta;
  PutColumnDelta(&delta, col, t);
  t.Reset(col.size());
  EXPECT_TRUE(t.dirty().empty());
  EXPECT_FALSE(t.IsDirty(97));

  std::vector<int64_t> back;
  StateReader r1(full.data(), "full");
  GetColumn(&r1, &back);
  StateReader r2(delta.data(), "delta");
  ApplyColumnDelta(&r2, &back);
  ASSERT_TRUE(r2.Finish().ok()) << r2.status().ToString();
  EXPECT_EQ(back, col);
  // Onto the wrong base: refused.
  StateReader r3(delta.data(), "delta");
  ApplyColumnDelta(&r3, &back);
  EXPECT_FALSE(r3.ok());
}

TEST(DeltaTrackerTest, CorruptDeltasFailCleanly) {
  std::vector<uint32_t> col(64, 7);
  DeltaTracker t;
  t.Reset(col.size());
  for (uint32_t id = 0; id < 64; id += 5) t.Mark(id);
  col.resize(80, 9);
  StateWriter delta;
  PutColumnDelta(&delta, col, t);
  std::mt19937_64 rng(7);
  for (int i = 0; i < 500; ++i) {
    std::string bad = delta.data();
    if (i % 2 == 0) {
      bad.resize(rng() % bad.size());
    } else {
      for (int k = 0; k < 3; ++k) bad[rng() % bad.size()] = static_cast<char>(rng());
    }
    std::vector<uint32_t> base(64, 7);
    StateReader r(bad, "fuzz");
    ApplyColumnDelta(&r, &base);
    (void)r.Finish();  // must not crash; a value byte may change undetected (files carry checksums)
    EXPECT_LE(base.size(), 1u << 20);
  }
}

TEST(DeltaQueueTest, DeltasCarryPopsOfTheBaseAndSurvivingPushes) {
  struct Item {
    int64_t time;
    uint32_t id;
  };
  DeltaQueue<Item> q;
  for (uint32_t i = 0; i < 5; ++i) q.push_back({i * 10, i});
  StateWriter full;
  q.Put(&full);
  // Pop 2 of the base, push 4, pop the remaining 3 base items and 1 pushed one.
  q.pop_front();
  q.pop_front();
  for (uint32_t i = 5; i < 9; ++i) q.push_back({i * 10, i});
  for (int k = 0; k < 4; ++k) q.pop_front();
  StateWriter d1;
  q.PutDelta(&d1);
  q.push_back({90, 9});
  StateWriter d2;
  q.PutDelta(&d2);

  DeltaQueue<Item> back;
  StateReader r0(full.data(), "full");
  back.Get(&r0);
  StateReader r1(d1.data(), "d1");
  back.ApplyDelta(&r1);
  StateReader r2(d2.data(), "d2");
  back.ApplyDelta(&r2);
  ASSERT_TRUE(r2.Finish().ok());
  ASSERT_EQ(back.size(), q.size());
  auto a = back.begin();
  for (auto b = q.begin(); b != q.end(); ++a, ++b) EXPECT_EQ(a->id, b->id);
  EXPECT_EQ(back.front().id, 6u);
  // A delta onto the wrong base: refused when it pops more than there are.
  DeltaQueue<Item> empty;
  StateReader bad(d1.data(), "d1");
  empty.ApplyDelta(&bad);
  EXPECT_FALSE(bad.ok());
}

TEST(RowArenaTest, TailDeltaAppendsTheNewRows) {
  std::vector<LogicalType> types = {LogicalType::BigInt(), LogicalType::String()};
  Chunk in(types);
  for (int i = 0; i < 10; ++i) in.AppendValues({Value::BigInt(i), Value::String("s" + std::to_string(i))}, RowKind::kInsert);
  RowArena arena(types);
  arena.Append(in, 0);
  arena.Append(in, 1);
  StateWriter full;
  arena.Snapshot(&full);
  const size_t base = arena.size();
  arena.Release(0);
  for (size_t r = 2; r < 10; ++r) arena.Append(in, r);
  StateWriter delta;
  arena.SnapshotTail(base, &delta);

  RowArena back(types);
  StateReader r1(full.data(), "full");
  back.Restore(&r1);
  StateReader r2(delta.data(), "delta");
  back.RestoreAppend(&r2);
  ASSERT_TRUE(r2.Finish().ok()) << r2.status().ToString();
  ASSERT_EQ(back.size(), 10u);
  EXPECT_EQ(back.live(), 9u);
  for (uint32_t id = 0; id < 10; ++id) EXPECT_TRUE(back.Equals(id, in, id));
  StateReader r3(delta.data(), "delta");
  back.RestoreAppend(&r3);
  EXPECT_FALSE(r3.ok());
}

}  // namespace
}  // namespace sluice
