// RowArena::Retain with ascending ids (the deduplication's compaction): fixed-width columns move down
// in their own buffers, NULLs and kinds with them; string columns are copied and re-interned by address;
// appends and a second Retain go on from there. KeyIndex::InsertMany gives the ids Insert would, keys
// repeated within one batch included.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "state/key_index.h"
#include "state/row_arena.h"
#include "types/value.h"
#include "types/vector.h"

namespace sluice {
namespace {

const std::vector<LogicalType>& Types() {
  static const std::vector<LogicalType> types = {LogicalType::BigInt(), LogicalType::Integer(), LogicalType::Boolean(),
                                                 LogicalType::Double(), LogicalType::String(), LogicalType::String(),
                                                 LogicalType::SmallInt()};
  return types;
}

// Row i: BIGINT i (NULL every 7th), INT -i, BOOLEAN i odd, DOUBLE i / 4, a URL among 12 (NULL every
// 11th), a string that never repeats (empty every 13th), SMALLINT i mod 30000 - 15000.
Chunk Rows(size_t first, size_t n) {
  Chunk c(Types());
  for (size_t i = first; i < first + n; ++i) {
    const int64_t v = static_cast<int64_t>(i);
    c.AppendValues({i % 7 == 0 ? Value::Null(LogicalType::BigInt()) : Value::BigInt(v),
                    Value::Int(LogicalType::Integer(), -v), Value::Boolean(i % 2 == 1), Value::Double(static_cast<double>(i) / 4),
                    i % 11 == 0 ? Value::Null(LogicalType::String())
                                : Value::String("https://www.nexmark.com/item.htm?channel_id=" + std::to_string(i % 12)),
                    Value::String(i % 13 == 0 ? std::string() : "extra-" + std::to_string(i)),
                    Value::Int(LogicalType::SmallInt(), static_cast<int64_t>(i % 30000) - 15000)},
                   i % 3 == 0 ? RowKind::kUpdateAfter : RowKind::kInsert);
  }
  return c;
}

void ExpectKept(const RowArena& arena, const Chunk& all, const std::vector<uint32_t>& want) {
  ASSERT_EQ(arena.size(), want.size());
  for (size_t i = 0; i < want.size(); ++i) {
    ASSERT_TRUE(arena.Equals(static_cast<uint32_t>(i), all, want[i])) << "row " << i;
    for (size_t c = 0; c < Types().size(); ++c) {
      EXPECT_EQ(arena.rows().column(c).IsNull(i), all.column(c).IsNull(want[i])) << "row " << i << " column " << c;
    }
    EXPECT_EQ(arena.rows().kind(i), all.kind(want[i])) << "row " << i;
  }
}

TEST(RowArenaRetainInPlaceTest, AscendingIdsKeepValuesNullsKindsAndInterning) {
  const size_t n = 20000;
  Chunk all = Rows(0, n + 100);
  RowArena arena(Types());
  arena.AppendMany(all, nullptr, n);
  std::vector<uint32_t> keep;
  for (uint32_t i = 0; i < n; ++i) {
    if (i % 5 == 0 || i % 7 == 0) keep.push_back(i);  // every NULL BIGINT kept
  }
  arena.Retain(keep.data(), keep.size());
  EXPECT_EQ(arena.live(), keep.size());
  ExpectKept(arena, all, keep);
  // The URLs share 12 copies after the compaction.
  const Vector& urls = arena.rows().column(4);
  std::vector<const char*> distinct;
  for (size_t i = 0; i < arena.size(); ++i) {
    if (urls.IsNull(i)) continue;
    const char* p = urls.GetString(i).data();
    if (std::find(distinct.begin(), distinct.end(), p) == distinct.end()) distinct.push_back(p);
  }
  EXPECT_EQ(distinct.size(), 12u);
  // Appends go on after the kept rows, and a second compaction (ascending again) keeps both.
  const uint32_t first = arena.AppendMany(all, nullptr, 0);
  EXPECT_EQ(first, keep.size());
  std::vector<uint32_t> tail(100);
  for (uint32_t i = 0; i < 100; ++i) tail[i] = static_cast<uint32_t>(n) + i;
  Chunk more(Types());
  more.AppendFrom(all, tail.data(), 0, tail.size());
  arena.AppendMany(more, nullptr, more.size());
  std::vector<uint32_t> again;
  std::vector<uint32_t> want;
  for (uint32_t i = 0; i < arena.size(); i += 2) {
    again.push_back(i);
    want.push_back(i < keep.size() ? keep[i] : tail[i - keep.size()]);
  }
  arena.Retain(again.data(), again.size());
  ExpectKept(arena, all, want);
}

TEST(RowArenaRetainInPlaceTest, KeyIndexInsertManyMatchesInsert) {
  std::vector<std::string> keys;
  for (size_t i = 0; i < 5000; ++i) keys.push_back("k" + std::to_string(i % 1700) + std::string(i % 3, 'x'));
  KeyIndex one;
  KeyIndex many;
  std::vector<uint32_t> ids(keys.size());
  // Uneven batches: repeats within a batch and across batches, the table growing in between.
  for (size_t begin = 0; begin < keys.size();) {
    const size_t m = std::min<size_t>(keys.size() - begin, 1 + begin % 77);
    many.InsertMany(keys.data() + begin, m, ids.data() + begin);
    begin += m;
  }
  for (size_t i = 0; i < keys.size(); ++i) ASSERT_EQ(ids[i], one.Insert(keys[i])) << "key " << i;
  EXPECT_EQ(many.size(), one.size());
  for (uint32_t id = 0; id < many.size(); ++id) EXPECT_EQ(many.key(id), one.key(id));
}

}  // namespace
}  // namespace sluice
