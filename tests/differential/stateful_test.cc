// Differential checks of updating queries: the folded changelog of Sluice's streaming run must equal
// SQLite's batch answer over the same rows, for aggregates, deduplication, Top-N and joins — and must
// not change with the chunk size (1, 5 and 1024) nor with mini-batch on or off.
#include "differential/fixture.h"

namespace sluice {
namespace difftest {
namespace {

class StatefulTest : public DifferentialTest {
 protected:
  void CheckAllModes(const std::string& flink_sql, const std::string& sqlite_sql) {
    for (const char* chunk : {"1024", "1", "5"}) {
      for (bool mini_batch : {false, true}) {
        config_.clear();
        config_["sluice.exec.chunk-size"] = chunk;
        if (mini_batch) {
          config_["table.exec.mini-batch.enabled"] = "true";
          config_["table.exec.mini-batch.size"] = "7";
          config_["table.exec.mini-batch.allow-latency"] = "5 s";
        }
        SCOPED_TRACE(std::string("chunk size ") + chunk + (mini_batch ? ", mini-batch" : ""));
        Check(flink_sql, sqlite_sql);
      }
    }
  }
};

TEST_P(StatefulTest, GroupAggregates) {
  CheckAllModes("SELECT s, COUNT(*), COUNT(a), SUM(a), MIN(a), MAX(a), MIN(n_str), MAX(ts) FROM t GROUP BY s",
                "SELECT s, COUNT(*), COUNT(a), SUM(a), MIN(a), MAX(a), MIN(n_str), MAX(ts) FROM t GROUP BY s");
  CheckAllModes("SELECT a % 5, COUNT(DISTINCT s), SUM(b) FROM t WHERE a IS NOT NULL GROUP BY a % 5",
                "SELECT a % 5, COUNT(DISTINCT s), SUM(b) FROM t WHERE a IS NOT NULL GROUP BY a % 5");
  CheckAllModes("SELECT COUNT(*), SUM(a), COUNT(*) FILTER (WHERE a > 0) FROM t",
                "SELECT COUNT(*), SUM(a), SUM(CASE WHEN a > 0 THEN 1 ELSE 0 END) FROM t");
  CheckAllModes("SELECT s, COUNT(*) AS c FROM t GROUP BY s HAVING COUNT(*) > 150",
                "SELECT s, COUNT(*) AS c FROM t GROUP BY s HAVING COUNT(*) > 150");
  CheckAllModes("SELECT DISTINCT s, a > 0 FROM t", "SELECT DISTINCT s, CASE WHEN a IS NULL THEN NULL WHEN a > 0 THEN 'TRUE' ELSE 'FALSE' END FROM t");
}

TEST_P(StatefulTest, AggregatesOverUpdatingInput) {
  // The inner aggregate updates; the outer one consumes its retractions (MIN/MAX lose extremes).
  CheckAllModes("SELECT c, COUNT(*), MIN(s), MAX(s) FROM (SELECT s, COUNT(*) AS c FROM t GROUP BY s) GROUP BY c",
                "SELECT c, COUNT(*), MIN(s), MAX(s) FROM (SELECT s, COUNT(*) AS c FROM t GROUP BY s) GROUP BY c");
  CheckAllModes("SELECT m % 7, SUM(m), COUNT(*) FROM (SELECT id % 50 AS k, MAX(a) AS m FROM t GROUP BY id % 50) GROUP BY m % 7",
                "SELECT m % 7, SUM(m), COUNT(*) FROM (SELECT id % 50 AS k, MAX(a) AS m FROM t GROUP BY id % 50) GROUP BY m % 7");
}

TEST_P(StatefulTest, TopN) {
  CheckAllModes(
      "SELECT s, id, a FROM (SELECT s, id, a, ROW_NUMBER() OVER (PARTITION BY s ORDER BY a DESC, id ASC) AS rn FROM t "
      "WHERE a IS NOT NULL) WHERE rn <= 3",
      "SELECT s, id, a FROM (SELECT s, id, a, ROW_NUMBER() OVER (PARTITION BY s ORDER BY a DESC, id ASC) AS rn FROM t "
      "WHERE a IS NOT NULL) WHERE rn <= 3");
  CheckAllModes(
      "SELECT k, c, rn FROM (SELECT k, c, ROW_NUMBER() OVER (PARTITION BY k % 3 ORDER BY c DESC, k ASC) AS rn FROM "
      "(SELECT id % 20 AS k, COUNT(*) AS c FROM t WHERE a > 0 GROUP BY id % 20)) WHERE rn <= 2",
      "SELECT k, c, rn FROM (SELECT k, c, ROW_NUMBER() OVER (PARTITION BY k % 3 ORDER BY c DESC, k ASC) AS rn FROM "
      "(SELECT id % 20 AS k, COUNT(*) AS c FROM t WHERE a > 0 GROUP BY id % 20)) WHERE rn <= 2");
}

// ORDER BY ... LIMIT [OFFSET] is a Top-N over the whole input (SortLimit); the keys end with the
// unique id so the answer is one set. SQLite, like Flink, puts NULLs first ascending, last descending.
TEST_P(StatefulTest, OrderByLimit) {
  CheckAllModes("SELECT id, s, a FROM t ORDER BY a DESC, id LIMIT 10", "SELECT id, s, a FROM t ORDER BY a DESC, id LIMIT 10");
  CheckAllModes("SELECT id, a FROM t ORDER BY a, id DESC LIMIT 7 OFFSET 5",
                "SELECT id, a FROM t ORDER BY a, id DESC LIMIT 7 OFFSET 5");
  CheckAllModes("SELECT id AS k, a FROM t WHERE a > 0 ORDER BY a % 10, 1 LIMIT 12",
                "SELECT id AS k, a FROM t WHERE a > 0 ORDER BY a % 10, 1 LIMIT 12");
  // Over updating input (retract strategy): counts move rows in and out of the top.
  CheckAllModes("SELECT s, c FROM (SELECT s, COUNT(*) AS c FROM t GROUP BY s) ORDER BY c DESC, s LIMIT 3",
                "SELECT s, c FROM (SELECT s, COUNT(*) AS c FROM t GROUP BY s) ORDER BY c DESC, s LIMIT 3");
  CheckAllModes("SELECT k, m FROM (SELECT id % 40 AS k, MAX(a) AS m FROM t GROUP BY id % 40) ORDER BY m, k LIMIT 5 OFFSET 2",
                "SELECT k, m FROM (SELECT id % 40 AS k, MAX(a) AS m FROM t GROUP BY id % 40) ORDER BY m, k LIMIT 5 OFFSET 2");
}

// Batch mode sorts any columns; the final result must equal SQLite's.
TEST_P(StatefulTest, BatchOrderByLimit) {
  for (const char* chunk : {"1024", "1", "5"}) {
    config_.clear();
    config_["sluice.exec.chunk-size"] = chunk;
    config_["execution.runtime-mode"] = "batch";
    SCOPED_TRACE(std::string("batch, chunk size ") + chunk);
    Check("SELECT s, COUNT(*) AS c, SUM(a) AS x FROM t GROUP BY s ORDER BY x DESC, s LIMIT 4 OFFSET 1",
          "SELECT s, COUNT(*) AS c, SUM(a) AS x FROM t GROUP BY s ORDER BY x DESC, s LIMIT 4 OFFSET 1");
    Check("SELECT id, a FROM t ORDER BY a DESC, id LIMIT 9", "SELECT id, a FROM t ORDER BY a DESC, id LIMIT 9");
  }
}

TEST_P(StatefulTest, Joins) {
  CheckAllModes("SELECT l.id, r.id FROM t AS l JOIN t AS r ON l.a = r.a WHERE l.id < 200 AND r.id < 300",
                "SELECT l.id, r.id FROM t AS l JOIN t AS r ON l.a = r.a WHERE l.id < 200 AND r.id < 300");
  CheckAllModes("SELECT l.id, r.id FROM (SELECT * FROM t WHERE id < 300) AS l LEFT JOIN (SELECT * FROM t WHERE id < 100) AS r "
                "ON l.a = r.a AND l.id > r.id",
                "SELECT l.id, r.id FROM (SELECT * FROM t WHERE id < 300) AS l LEFT JOIN (SELECT * FROM t WHERE id < 100) AS r "
                "ON l.a = r.a AND l.id > r.id");
  CheckAllModes("SELECT l.s, l.c, r.m FROM (SELECT s, COUNT(*) AS c FROM t GROUP BY s) AS l "
                "FULL JOIN (SELECT s, MAX(a) AS m FROM t WHERE a > 90 GROUP BY s) AS r ON l.s = r.s",
                "SELECT l.s, l.c, r.m FROM (SELECT s, COUNT(*) AS c FROM t GROUP BY s) AS l "
                "FULL JOIN (SELECT s, MAX(a) AS m FROM t WHERE a > 90 GROUP BY s) AS r ON l.s = r.s");
}

INSTANTIATE_TEST_SUITE_P(Seeds, StatefulTest, ::testing::Values(3u, 11u));

}  // namespace
}  // namespace difftest
}  // namespace sluice
