// Differential check of the event-time interval join against SQLite: generated orders and shipments
// (each source in event-time order, with a watermark, so no row is late), joined on a key with the
// shipment within [-30 min, +1 h] of the order. SQLite answers the same join over millisecond
// timestamps. Checked for INNER, LEFT and FULL joins, at chunk sizes 1 and 1024; the job summary must
// count no late row. A small hand-made input checks that a late row is dropped and counted.
#include "differential/fixture.h"

namespace sluice {
namespace difftest {
namespace {

class IntervalJoinTest : public DifferentialTest {
 protected:
  void WriteFiles() {
    const std::vector<size_t> order = EventTimeOrder();
    std::ofstream orders(dir_ / "orders.json");
    std::ofstream shipments(dir_ / "shipments.json");
    Exec("CREATE TABLE orders (id INTEGER, k INTEGER, ts INTEGER)");
    Exec("CREATE TABLE shipments (id INTEGER, k INTEGER, ts INTEGER)");
    for (size_t i : order) {
      const Row& r = rows_[i];
      const std::string ts = FormatTimestamp(r.ts_micros, 3);
      const bool null_key = r.id % 17 == 0;
      const std::string k = null_key ? std::string("null") : std::to_string(r.id % 11);
      const std::string table = r.id % 2 == 0 ? "orders" : "shipments";
      (r.id % 2 == 0 ? orders : shipments) << "{\"id\":" << r.id << ",\"k\":" << k << ",\"ts\":" << JsonEscape(ts) << "}\n";
      Exec("INSERT INTO " + table + " VALUES (" + std::to_string(r.id) + ", " + (null_key ? std::string("NULL") : k) + ", " +
           std::to_string(r.ts_micros / 1000) + ")");
    }
  }

  std::vector<std::string> RunJoin(const std::string& join, size_t chunk_size) {
    std::vector<std::string> ddl;
    for (const char* table : {"orders", "shipments"}) {
      ddl.push_back(std::string("CREATE TABLE ") + table +
                    " (id BIGINT, k BIGINT, ts TIMESTAMP(3), WATERMARK FOR ts AS ts - INTERVAL '1' SECOND) "
                    "WITH ('connector' = 'filesystem', 'format' = 'json', 'path' = '" +
                    (dir_ / (std::string(table) + ".json")).string() + "')");
    }
    std::string sql = "SELECT o.id, s.id FROM orders AS o " + join +
                      " shipments AS s ON o.k = s.k AND s.ts BETWEEN o.ts - INTERVAL '30' MINUTE AND o.ts + INTERVAL '1' HOUR";
    ScriptResult r = RunScript(ddl, sql, chunk_size);
    EXPECT_EQ(r.late_rows, 0) << sql;
    return r.lines;
  }
};

TEST_P(IntervalJoinTest, MatchesWithinBounds) {
  WriteFiles();
  const std::string on = "o.k = s.k AND s.ts BETWEEN o.ts - 1800000 AND o.ts + 3600000";
  auto inner = RunSqlite("SELECT o.id, s.id FROM orders o JOIN shipments s ON " + on);
  auto left = RunSqlite("SELECT o.id, s.id FROM orders o LEFT JOIN shipments s ON " + on);
  auto full = RunSqlite("SELECT o.id, s.id FROM orders o LEFT JOIN shipments s ON " + on +
                        " UNION ALL SELECT NULL, s.id FROM shipments s WHERE NOT EXISTS (SELECT 1 FROM orders o WHERE " + on + ")");
  ASSERT_GT(inner.size(), 100u);
  ASSERT_GT(left.size(), inner.size());
  ASSERT_GT(full.size(), left.size());
  for (size_t chunk : {size_t{1}, size_t{1024}}) {
    EXPECT_EQ(RunJoin("JOIN", chunk), inner) << "chunk size " << chunk;
    EXPECT_EQ(RunJoin("LEFT JOIN", chunk), left) << "chunk size " << chunk;
    EXPECT_EQ(RunJoin("FULL JOIN", chunk), full) << "chunk size " << chunk;
  }
}

// o7 arrives after the watermark passed the last shipment it could match: dropped and counted, also
// from the LEFT join (see tests/sql/event_time/interval_join.test).
TEST_P(IntervalJoinTest, LateRowDroppedAndCounted) {
  const fs::path dir = dir_;
  std::ofstream(dir / "o.json") << "{\"id\":\"o6\",\"ts\":\"2026-08-15 10:00:00\"}\n{\"id\":\"o9\",\"ts\":\"2026-08-15 13:00:00\"}\n"
                                   "{\"id\":\"o7\",\"ts\":\"2026-08-15 10:10:00\"}\n{\"id\":\"o8\",\"ts\":\"2026-08-15 12:00:00\"}\n";
  std::ofstream(dir / "s.json") << "{\"id\":\"o6\",\"ts\":\"2026-08-15 10:30:00\"}\n{\"id\":\"o7\",\"ts\":\"2026-08-15 10:40:00\"}\n"
                                   "{\"id\":\"o8\",\"ts\":\"2026-08-15 12:50:00\"}\n{\"id\":\"o9\",\"ts\":\"2026-08-15 15:00:00\"}\n";
  for (size_t chunk : {size_t{1}, size_t{1024}}) {
    std::vector<std::string> ddl;
    for (const char* t : {"o", "s"}) {
      ddl.push_back(std::string("CREATE TABLE ") + t +
                    " (id STRING, ts TIMESTAMP(3), WATERMARK FOR ts AS ts - INTERVAL '30' MINUTE) WITH "
                    "('connector' = 'filesystem', 'format' = 'json', 'path' = '" + (dir / (std::string(t) + ".json")).string() +
                    "')");
    }
    ScriptResult r = RunScript(
        ddl, "SELECT o.id, s.id FROM o LEFT JOIN s ON o.id = s.id AND s.ts BETWEEN o.ts AND o.ts + INTERVAL '1' HOUR", chunk);
    EXPECT_EQ(r.late_rows, 1) << "chunk size " << chunk;
    EXPECT_EQ(r.lines, (std::vector<std::string>{"o6 | o6", "o8 | o8", "o9 | NULL"})) << "chunk size " << chunk;
  }
}

INSTANTIATE_TEST_SUITE_P(Seeds, IntervalJoinTest, ::testing::Values(5u, 23u));

}  // namespace
}  // namespace difftest
}  // namespace sluice
