// Differential check of OVER aggregates against SQLite: generated rows written in event-time order
// with a watermark (so none is late), and per row the aggregate over its frame: RANGE INTERVAL ...
// PRECEDING with COUNT(DISTINCT), SUM and MIN (SQLite: correlated subqueries over the time range, since
// its window functions take no DISTINCT), ROWS n PRECEDING (SQLite's window functions), and the
// default unbounded RANGE frame. At chunk sizes 1 and 1024.
#include "differential/fixture.h"

namespace sluice {
namespace difftest {
namespace {

class OverAggregateTest : public DifferentialTest {
 protected:
  void WriteFile() {
    const std::vector<size_t> order = EventTimeOrder();
    std::ofstream out(dir_ / "events.json");
    Exec("CREATE TABLE ev (seq INTEGER, id INTEGER, k INTEGER, s TEXT, a INTEGER, ts_ms INTEGER)");
    int64_t seq = 0;
    for (size_t i : order) {
      const Row& r = rows_[i];
      const int64_t k = r.id % 7;
      const std::string s = r.s ? *r.s : std::string("none");
      const int64_t a = r.a ? *r.a : 0;
      out << "{\"id\":" << r.id << ",\"k\":" << k << ",\"s\":" << JsonEscape(s) << ",\"a\":" << a
          << ",\"ts\":" << JsonEscape(FormatTimestamp(r.ts_micros, 3)) << "}\n";
      Exec("INSERT INTO ev VALUES (" + std::to_string(seq++) + ", " + std::to_string(r.id) + ", " + std::to_string(k) +
           ", '" + s + "', " + std::to_string(a) + ", " + std::to_string(r.ts_micros / 1000) + ")");
    }
  }

  std::vector<std::string> RunOver(const std::string& select, size_t chunk_size) {
    ScriptResult r = RunScript(
        {"CREATE TABLE ev (id BIGINT, k BIGINT, s STRING, a BIGINT, ts TIMESTAMP(3), WATERMARK FOR ts AS ts - INTERVAL '1' SECOND) "
         "WITH ('connector' = 'filesystem', 'format' = 'json', 'path' = '" + (dir_ / "events.json").string() + "')"},
        select, chunk_size);
    EXPECT_EQ(r.lines.size(), rows_.size());
    return r.lines;
  }
};

TEST_P(OverAggregateTest, FramesEqualSqlite) {
  WriteFile();
  const std::string range = "(PARTITION BY k ORDER BY ts RANGE BETWEEN INTERVAL '2' HOUR PRECEDING AND CURRENT ROW)";
  const std::string in_range = "FROM ev e2 WHERE e2.k = e.k AND e2.ts_ms BETWEEN e.ts_ms - 7200000 AND e.ts_ms";
  auto expected_range = RunSqlite("SELECT e.id, (SELECT COUNT(DISTINCT e2.s) " + in_range + "), (SELECT SUM(e2.a) " + in_range +
                                  "), (SELECT MIN(e2.a) " + in_range + ") FROM ev e");
  auto expected_rows = RunSqlite(
      "SELECT id, SUM(a) OVER (PARTITION BY k ORDER BY ts_ms, seq ROWS BETWEEN 3 PRECEDING AND CURRENT ROW), "
      "MAX(a) OVER (PARTITION BY k ORDER BY ts_ms, seq ROWS BETWEEN 3 PRECEDING AND CURRENT ROW) FROM ev");
  auto expected_unbounded = RunSqlite("SELECT e.id, (SELECT COUNT(*) FROM ev e2 WHERE e2.k = e.k AND e2.ts_ms <= e.ts_ms) FROM ev e");
  for (size_t chunk : {size_t{1}, size_t{1024}}) {
    EXPECT_EQ(RunOver("SELECT id, COUNT(DISTINCT s) OVER " + range + ", SUM(a) OVER " + range + ", MIN(a) OVER " + range +
                          " FROM ev",
                      chunk),
              expected_range)
        << "chunk size " << chunk;
    const std::string rows = "(PARTITION BY k ORDER BY ts ROWS BETWEEN 3 PRECEDING AND CURRENT ROW)";
    EXPECT_EQ(RunOver("SELECT id, SUM(a) OVER " + rows + ", MAX(a) OVER " + rows + " FROM ev", chunk), expected_rows)
        << "chunk size " << chunk;
    EXPECT_EQ(RunOver("SELECT id, COUNT(*) OVER (PARTITION BY k ORDER BY ts) FROM ev", chunk), expected_unbounded)
        << "chunk size " << chunk;
  }
}

INSTANTIATE_TEST_SUITE_P(Seeds, OverAggregateTest, ::testing::Values(6u, 23u));

}  // namespace
}  // namespace difftest
}  // namespace sluice
