// Differential check of the event-time temporal join against SQLite: generated sales and price versions
// (each source in event-time order, with a watermark), joined FOR SYSTEM_TIME AS OF the sale's time with
// a versioned view (keep the last row per key by event time). SQLite answers the same question with a
// correlated subquery: the newest version at or before the sale (ties: the later row in the file).
// Checked for LEFT and INNER joins, at chunk sizes 1 and 1024.
#include "differential/fixture.h"

namespace sluice {
namespace difftest {
namespace {

class TemporalJoinTest : public DifferentialTest {
 protected:
  void WriteFiles() {
    const std::vector<size_t> order = EventTimeOrder();
    std::ofstream sales(dir_ / "sales.json");
    std::ofstream prices(dir_ / "prices.json");
    prices.precision(17);
    Exec("CREATE TABLE sales (id INTEGER, k INTEGER, ts TEXT)");
    Exec("CREATE TABLE prices (seq INTEGER, k INTEGER, price REAL, ts TEXT)");
    int64_t seq = 0;
    for (size_t i : order) {
      const Row& r = rows_[i];
      const std::string ts = FormatTimestamp(r.ts_micros, 3);
      const int64_t k = r.id % 13;
      if (r.id % 3 == 0) {
        // A price version of key k.
        prices << "{\"k\":" << k << ",\"price\":" << r.b << ",\"ts\":" << JsonEscape(ts) << "}\n";
        Exec("INSERT INTO prices VALUES (" + std::to_string(seq++) + ", " + std::to_string(k) + ", " +
             std::to_string(r.b) + ", '" + ts + "')");
      } else {
        // A sale; a few have no key.
        const bool null_key = r.id % 17 == 0;
        sales << "{\"id\":" << r.id << ",\"k\":" << (null_key ? std::string("null") : std::to_string(k))
              << ",\"ts\":" << JsonEscape(ts) << "}\n";
        Exec("INSERT INTO sales VALUES (" + std::to_string(r.id) + ", " + (null_key ? std::string("NULL") : std::to_string(k)) +
             ", '" + ts + "')");
      }
    }
  }

  std::vector<std::string> RunJoin(const std::string& join, size_t chunk_size) {
    const std::vector<std::string> ddl = {
        "CREATE TABLE sales (id BIGINT, k BIGINT, ts TIMESTAMP(3), WATERMARK FOR ts AS ts - INTERVAL '1' SECOND) "
        "WITH ('connector' = 'filesystem', 'format' = 'json', 'path' = '" + (dir_ / "sales.json").string() + "')",
        "CREATE TABLE prices (k BIGINT, price DOUBLE, ts TIMESTAMP(3), WATERMARK FOR ts AS ts - INTERVAL '1' SECOND) "
        "WITH ('connector' = 'filesystem', 'format' = 'json', 'path' = '" + (dir_ / "prices.json").string() + "')",
        "CREATE VIEW versions AS SELECT k, price, ts FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY k "
        "ORDER BY ts DESC) AS rn FROM prices) WHERE rn = 1"};
    return RunScript(ddl, "SELECT s.id, v.price FROM sales AS s " + join + " versions FOR SYSTEM_TIME AS OF s.ts AS v ON s.k = v.k",
                     chunk_size)
        .lines;
  }
};

TEST_P(TemporalJoinTest, VersionInForceAtEventTime) {
  WriteFiles();
  const std::string version =
      "(SELECT p.price FROM prices p WHERE p.k = s.k AND p.ts <= s.ts ORDER BY p.ts DESC, p.seq DESC LIMIT 1)";
  auto left = RunSqlite("SELECT s.id, " + version + " FROM sales s");
  auto inner = RunSqlite("SELECT id, price FROM (SELECT s.id AS id, " + version + " AS price FROM sales s) WHERE price IS NOT NULL");
  ASSERT_GT(inner.size(), 100u);
  ASSERT_GT(left.size(), inner.size());
  for (size_t chunk : {size_t{1}, size_t{1024}}) {
    EXPECT_EQ(RunJoin("LEFT JOIN", chunk), left) << "chunk size " << chunk;
    EXPECT_EQ(RunJoin("JOIN", chunk), inner) << "chunk size " << chunk;
  }
}

INSTANTIATE_TEST_SUITE_P(Seeds, TemporalJoinTest, ::testing::Values(4u, 19u));

}  // namespace
}  // namespace difftest
}  // namespace sluice
