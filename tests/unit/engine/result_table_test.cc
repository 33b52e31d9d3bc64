// The hashed, columnar changelog fold (engine/result_table.h): retractions remove the most recent
// equal row, rows keep their order, unmatched retractions are counted, and the rebuild after many
// removals keeps exactly the live rows.
#include <gtest/gtest.h>

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

}  // namespace
}  // namespace sluice
