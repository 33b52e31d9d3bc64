// Differential check of window Top-N, window deduplication and window joins against SQLite: generated
// rows, read in event-time order under a watermark (so no row is late), in 1-hour TUMBLE windows over
// three days. SQLite computes each window by grouping on ts - ts % 1 h (milliseconds): Top-N and
// deduplication with its ROW_NUMBER() window function over those groups (after a GROUP BY for Top-N
// over a window aggregation), joins with the window start as one more join key. Sort orders end in a
// unique column, so ties cannot make the answers differ. Checked at chunk sizes 1, 7 and 1024; the job
// summary must count no late row.
#include "differential/fixture.h"

namespace sluice {
namespace difftest {
namespace {

class WindowOpsTest : public DifferentialTest {
 protected:
  // ev: every row with k = id % 7 (NULL every 13th) and v = a; lt/rt: even and odd ids with a join key
  // k = id % 11 (NULL every 17th).
  void WriteFiles() {
    std::ofstream ev(dir_ / "ev.json");
    std::ofstream lt(dir_ / "lt.json");
    std::ofstream rt(dir_ / "rt.json");
    Exec("CREATE TABLE ev (id INTEGER, k INTEGER, v INTEGER, ts INTEGER, ws INTEGER)");
    Exec("CREATE TABLE lt (id INTEGER, k INTEGER, ts INTEGER, ws INTEGER)");
    Exec("CREATE TABLE rt (id INTEGER, k INTEGER, ts INTEGER, ws INTEGER)");
    for (size_t i : EventTimeOrder()) {
      const Row& r = rows_[i];
      const std::string ts = JsonEscape(FormatTimestamp(r.ts_micros, 3));
      const int64_t ms = r.ts_micros / 1000;
      const std::string ws = std::to_string(ms - ms % 3600000);
      const std::string k = r.id % 13 == 0 ? std::string("null") : std::to_string(r.id % 7);
      const std::string v = r.a ? std::to_string(*r.a) : std::string("null");
      ev << "{\"id\":" << r.id << ",\"k\":" << k << ",\"v\":" << v << ",\"ts\":" << ts << "}\n";
      Exec("INSERT INTO ev VALUES (" + std::to_string(r.id) + ", " + (k == "null" ? "NULL" : k) + ", " +
           (v == "null" ? "NULL" : v) + ", " + std::to_string(ms) + ", " + ws + ")");
      const std::string jk = r.id % 17 == 0 ? std::string("null") : std::to_string(r.id % 11);
      const std::string side = r.id % 2 == 0 ? "lt" : "rt";
      (r.id % 2 == 0 ? lt : rt) << "{\"id\":" << r.id << ",\"k\":" << jk << ",\"ts\":" << ts << "}\n";
      Exec("INSERT INTO " + side + " VALUES (" + std::to_string(r.id) + ", " + (jk == "null" ? "NULL" : jk) + ", " +
           std::to_string(ms) + ", " + ws + ")");
    }
  }

  std::vector<std::string> Run(const std::string& query, size_t chunk_size) {
    std::vector<std::string> ddl;
    for (const char* table : {"ev", "lt", "rt"}) {
      const std::string v = std::string(table) == "ev" ? "v BIGINT, " : "";
      ddl.push_back(std::string("CREATE TABLE ") + table + " (id BIGINT, k BIGINT, " + v +
                    "ts TIMESTAMP(3), WATERMARK FOR ts AS ts - INTERVAL '1' SECOND) WITH ('connector' = 'filesystem', "
                    "'format' = 'json', 'path' = '" + (dir_ / (std::string(table) + ".json")).string() + "')");
    }
    ScriptResult r = RunScript(ddl, query, chunk_size);
    EXPECT_EQ(r.late_rows, 0) << query;
    return r.lines;
  }

  void Compare(const std::string& flink_sql, const std::string& sqlite_sql, size_t min_rows) {
    auto expected = RunSqlite(sqlite_sql);
    ASSERT_GE(expected.size(), min_rows) << sqlite_sql;
    for (size_t chunk : {size_t{1}, size_t{7}, size_t{1024}}) {
      EXPECT_EQ(Run(flink_sql, chunk), expected) << "chunk size " << chunk << "\n" << flink_sql;
    }
  }
};

constexpr char kTumble[] = "TABLE(TUMBLE(TABLE ev, DESCRIPTOR(ts), INTERVAL '1' HOUR))";
// A window start in milliseconds as Sluice prints a TIMESTAMP(3).
constexpr char kStartText[] = "strftime('%Y-%m-%d %H:%M:%S', ws / 1000, 'unixepoch') || '.000'";

TEST_P(WindowOpsTest, TopNOverWindowTvf) {
  WriteFiles();
  Compare(std::string("SELECT id, rownum FROM (SELECT id, ROW_NUMBER() OVER (PARTITION BY window_start, window_end, k "
                      "ORDER BY v DESC, id) AS rownum FROM ") + kTumble + ") WHERE rownum <= 3",
          "SELECT id, rn FROM (SELECT id, ROW_NUMBER() OVER (PARTITION BY ws, k ORDER BY v DESC, id) AS rn FROM ev) "
          "WHERE rn <= 3",
          300);
  // An offset range without the rank number.
  Compare(std::string("SELECT id, window_start FROM (SELECT id, window_start, ROW_NUMBER() OVER (PARTITION BY window_start, "
                      "window_end ORDER BY v, id DESC) AS rownum FROM ") + kTumble + ") WHERE rownum BETWEEN 2 AND 4",
          std::string("SELECT id, ") + kStartText + " FROM (SELECT id, ws, ROW_NUMBER() OVER (PARTITION BY ws ORDER BY v, "
          "id DESC) AS rn FROM ev) WHERE rn BETWEEN 2 AND 4",
          150);
}

TEST_P(WindowOpsTest, TopNOverWindowAggregate) {
  WriteFiles();
  Compare(std::string("SELECT k, total, rownum, window_start FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY window_start, "
                      "window_end ORDER BY total DESC, k) AS rownum FROM (SELECT k, window_start, window_end, SUM(v) AS total "
                      "FROM ") + kTumble + " GROUP BY k, window_start, window_end)) WHERE rownum <= 2",
          std::string("SELECT k, total, rn, ") + kStartText + " FROM (SELECT k, ws, total, ROW_NUMBER() OVER (PARTITION BY "
          "ws ORDER BY total DESC, k) AS rn FROM (SELECT k, ws, SUM(v) AS total FROM ev GROUP BY k, ws)) WHERE rn <= 2",
          100);
}

TEST_P(WindowOpsTest, Deduplication) {
  WriteFiles();
  // Keep-first: the earliest row, the first to arrive (lowest id: rows arrive in (ts, id) order) on ties.
  Compare(std::string("SELECT id, k FROM (SELECT id, k, ROW_NUMBER() OVER (PARTITION BY window_start, window_end, k "
                      "ORDER BY ts) AS rownum FROM ") + kTumble + ") WHERE rownum = 1",
          "SELECT id, k FROM (SELECT id, k, ROW_NUMBER() OVER (PARTITION BY ws, k ORDER BY ts, id) AS rn FROM ev) WHERE rn = 1",
          200);
  // Keep-last: the latest row, the last to arrive on ties.
  Compare(std::string("SELECT id, k FROM (SELECT id, k, ROW_NUMBER() OVER (PARTITION BY window_start, window_end, k "
                      "ORDER BY ts DESC) AS rownum FROM ") + kTumble + ") WHERE rownum <= 1",
          "SELECT id, k FROM (SELECT id, k, ROW_NUMBER() OVER (PARTITION BY ws, k ORDER BY ts DESC, id DESC) AS rn FROM ev) "
          "WHERE rn = 1",
          200);
}

TEST_P(WindowOpsTest, Joins) {
  WriteFiles();
  const std::string sides[2] = {"(SELECT * FROM TABLE(TUMBLE(TABLE lt, DESCRIPTOR(ts), INTERVAL '1' HOUR)))",
                                "(SELECT * FROM TABLE(TUMBLE(TABLE rt, DESCRIPTOR(ts), INTERVAL '1' HOUR)))"};
  auto flink = [&](const std::string& join) {
    return "SELECT l.id, r.id FROM " + sides[0] + " l " + join + " " + sides[1] +
           " r ON l.k = r.k AND l.window_start = r.window_start AND l.window_end = r.window_end";
  };
  const std::string on = "l.k = r.k AND l.ws = r.ws";
  Compare(flink("JOIN"), "SELECT l.id, r.id FROM lt l JOIN rt r ON " + on, 200);
  Compare(flink("LEFT JOIN"), "SELECT l.id, r.id FROM lt l LEFT JOIN rt r ON " + on, 300);
  Compare(flink("RIGHT JOIN"), "SELECT l.id, r.id FROM rt r LEFT JOIN lt l ON " + on, 300);
  Compare(flink("FULL JOIN"),
          "SELECT l.id, r.id FROM lt l LEFT JOIN rt r ON " + on +
              " UNION ALL SELECT NULL, r.id FROM rt r WHERE NOT EXISTS (SELECT 1 FROM lt l WHERE " + on + ")",
          400);
  // A non-equi condition besides the keys.
  Compare("SELECT l.id, r.id FROM " + sides[0] + " l LEFT JOIN " + sides[1] +
              " r ON l.k = r.k AND l.window_start = r.window_start AND l.window_end = r.window_end AND l.ts < r.ts",
          "SELECT l.id, r.id FROM lt l LEFT JOIN rt r ON " + on + " AND l.ts < r.ts", 300);
}

INSTANTIATE_TEST_SUITE_P(Seeds, WindowOpsTest, ::testing::Values(5u, 29u));

}  // namespace
}  // namespace difftest
}  // namespace sluice
