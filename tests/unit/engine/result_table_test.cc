// The hashed, columnar changelog fold (engine/result_table.h): retractions remove the most recent
// equal row, rows keep their order, unmatched retractions are counted, and the rebuild after many
// removals keeps exactly the live rows. Folding by an upsert key gives the same table, in the same
// order, as folding whole rows for any changelog of that key.
#include <gtest/gtest.h>

#include <random>

#include "engine/result_table.h"

namespace sluice {
namespace {

Chunk Rows(const std::vector<std::pair<RowKind, std::vector<Value>>>& rows) {
  Chunk c({LogicalType::String(), LogicalType::BigInt()});
  for (const auto& [kind, values] : rows) c.AppendValues(values, kind);
  return c;
}

std::vector<Value> Row(const std::string& k, int64_t v) { return {Value::String(k), Value::BigInt(v)}; }

TEST(MaterializedTableTest, FoldsInOrderWithinAndAcrossChunks) {
  MaterializedTable t;
  t.Apply(Rows({{RowKind::kInsert, Row("a", 1)}, {RowKind::kInsert, Row("b", 1)}, {RowKind::kUpdateBefore, Row("a", 1)},
                {RowKind::kUpdateAfter, Row("a", 2)}}));
  t.Apply(Rows({{RowKind::kInsert, Row("c", 1)}, {RowKind::kDelete, Row("b", 1)}, {RowKind::kDelete, Row("zz", 9)}}));
  auto rows = t.rows();
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0], Row("a", 2));
  EXPECT_EQ(rows[1], Row("c", 1));
  EXPECT_EQ(t.unmatched_retractions(), 1);
}

TEST(MaterializedTableTest, DuplicatesAndNullsRetractOneCopy) {
  MaterializedTable t;
  std::vector<Value> null_row = {Value::Null(LogicalType::String()), Value::BigInt(1)};
  t.Apply(Rows({{RowKind::kInsert, Row("a", 1)}, {RowKind::kInsert, null_row}, {RowKind::kInsert, Row("a", 1)},
                {RowKind::kDelete, Row("a", 1)}, {RowKind::kDelete, null_row}}));
  auto rows = t.rows();
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0], Row("a", 1));
  EXPECT_EQ(t.unmatched_retractions(), 0);
}

TEST(MaterializedTableTest, RebuildAfterManyRemovalsKeepsTheLiveRows) {
  MaterializedTable t;
  t.Apply(Rows({{RowKind::kInsert, Row("keep", 0)}}));
  for (int64_t round = 0; round < 40; ++round) {
    std::vector<std::pair<RowKind, std::vector<Value>>> changes;
    for (int64_t i = 0; i < 1000; ++i) changes.push_back({RowKind::kInsert, Row("k", round * 1000 + i)});
    for (int64_t i = 0; i < 1000; ++i) changes.push_back({RowKind::kDelete, Row("k", round * 1000 + i)});
    t.Apply(Rows(changes));
  }
  t.Apply(Rows({{RowKind::kInsert, Row("last", 1)}, {RowKind::kDelete, Row("keep", 0)}, {RowKind::kInsert, Row("keep", 0)}}));
  auto rows = t.rows();
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0], Row("last", 1));
  EXPECT_EQ(rows[1], Row("keep", 0));
  size_t n = 0;
  for (const Chunk& c : t.Chunks(1)) n += c.size();
  EXPECT_EQ(n, 2u);
}

TEST(MaterializedTableTest, UpsertKeyFoldMatchesTheWholeRowFold) {
  // A changelog of key column 0, as an aggregate emits it: +I for a new key, -U/+U of its current row,
  // -D, and re-inserts; random chunk boundaries.
  std::mt19937 rnd(7);
  std::vector<int64_t> current(50, -1);  // per key: its value, -1 when absent
  std::vector<std::pair<RowKind, std::vector<Value>>> log;
  for (int64_t step = 0; step < 40000; ++step) {
    const int k = static_cast<int>(rnd() % current.size());
    const std::string key = "k" + std::to_string(k);
    const int64_t v = static_cast<int64_t>(rnd() % 5);  // repeated values: equal whole rows recur
    if (current[k] < 0) {
      log.push_back({RowKind::kInsert, Row(key, v)});
      current[k] = v;
    } else if (rnd() % 10 == 0) {
      log.push_back({RowKind::kDelete, Row(key, current[k])});
      current[k] = -1;
    } else {
      log.push_back({RowKind::kUpdateBefore, Row(key, current[k])});
      log.push_back({RowKind::kUpdateAfter, Row(key, v)});
      current[k] = v;
    }
  }
  MaterializedTable by_row, by_key;
  by_key.SetUpsertKey({0});
  for (size_t begin = 0; begin < log.size();) {
    const size_t n = std::min<size_t>(log.size() - begin, 1 + rnd() % 3000);
    std::vector<std::pair<RowKind, std::vector<Value>>> part(log.begin() + begin, log.begin() + begin + n);
    by_row.Apply(Rows(part));
    by_key.Apply(Rows(part));
    begin += n;
  }
  EXPECT_EQ(by_key.rows(), by_row.rows());
  EXPECT_EQ(by_key.unmatched_retractions(), 0);
  EXPECT_EQ(by_row.unmatched_retractions(), 0);
  size_t live = 0;
  for (int64_t v : current) live += v >= 0;
  EXPECT_EQ(by_key.size(), live);
}

TEST(MaterializedTableTest, UpsertKeyFoldReplacesAndCountsUnmatched) {
  MaterializedTable t;
  t.SetUpsertKey({0});
  // Insert-only at first (no index yet), then retractions of those rows.
  t.Apply(Rows({{RowKind::kInsert, Row("a", 1)}, {RowKind::kInsert, Row("b", 1)}, {RowKind::kInsert, Row("c", 1)}}));
  t.Apply(Rows({{RowKind::kUpdateAfter, Row("a", 2)},    // a +U without its -U replaces the row
                {RowKind::kUpdateBefore, Row("b", 1)},   // b retracted, its +U never comes
                {RowKind::kUpdateBefore, Row("b", 1)},   // nothing left to retract: counted
                {RowKind::kDelete, Row("zz", 1)},        // unknown key: counted
                {RowKind::kDelete, Row("c", 1)},
                {RowKind::kInsert, Row("c", 3)}}));
  auto rows = t.rows();
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0], Row("a", 2));
  EXPECT_EQ(rows[1], Row("c", 3));
  EXPECT_EQ(t.unmatched_retractions(), 2);
}

TEST(MaterializedTableTest, InsertOnlyThenRetractionOfAnEarlyRow) {
  MaterializedTable t;
  t.Apply(Rows({{RowKind::kInsert, Row("a", 1)}, {RowKind::kInsert, Row("a", 1)}, {RowKind::kInsert, Row("b", 1)}}));
  t.Apply(Rows({{RowKind::kInsert, Row("c", 1)}}));
  t.Apply(Rows({{RowKind::kDelete, Row("a", 1)}, {RowKind::kDelete, Row("c", 1)}}));
  auto rows = t.rows();
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0], Row("a", 1));
  EXPECT_EQ(rows[1], Row("b", 1));
  EXPECT_EQ(t.unmatched_retractions(), 0);
}

TEST(MaterializedTableTest, UpsertKeyFoldSurvivesRebuilds) {
  MaterializedTable t;
  t.SetUpsertKey({0});
  for (int64_t round = 0; round < 100; ++round) {
    std::vector<std::pair<RowKind, std::vector<Value>>> changes;
    for (int64_t k = 0; k < 500; ++k) {
      const std::string key = "k" + std::to_string(k);
      if (round > 0) changes.push_back({RowKind::kUpdateBefore, Row(key, round - 1)});
      changes.push_back({round > 0 ? RowKind::kUpdateAfter : RowKind::kInsert, Row(key, round)});
    }
    t.Apply(Rows(changes));
  }
  auto rows = t.rows();
  ASSERT_EQ(rows.size(), 500u);
  for (int64_t k = 0; k < 500; ++k) EXPECT_EQ(rows[static_cast<size_t>(k)], Row("k" + std::to_string(k), 99));
  EXPECT_EQ(t.unmatched_retractions(), 0);
}

}  // namespace
}  // namespace sluice
