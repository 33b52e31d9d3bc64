// Differential check of the processing-time temporal join (LookupJoin against a bounded table) against
// SQLite: generated orders probe a small dimension table that repeats keys and has NULL keys, on a key
// computed from the order (MOD(a, 7)) plus a residual condition; SQLite answers with a plain join over
// the same rows. Checked for LEFT and INNER joins, at chunk sizes 1 and 1024.
#include "differential/fixture.h"

namespace sluice {
namespace difftest {
namespace {

class LookupJoinTest : public DifferentialTest {
 protected:
  void WriteDimension() {
    std::ofstream dim(dir_ / "dim.json");
    Exec("CREATE TABLE dim (k INTEGER, name TEXT, w REAL)");
    std::mt19937_64 rng(GetParam() * 31 + 7);
    for (int i = 0; i < 40; ++i) {
      // Keys -6..6 (MOD keeps the sign of a), some repeated, a few NULL.
      const bool null_key = i % 11 == 5;
      const int64_t k = static_cast<int64_t>(rng() % 13) - 6;
      const double w = static_cast<double>(static_cast<int64_t>(rng() % 2001) - 1000) / 8.0;
      const std::string name = "n" + std::to_string(i);
      dim << "{\"k\":" << (null_key ? std::string("null") : std::to_string(k)) << ",\"name\":" << JsonEscape(name)
          << ",\"w\":" << w << "}\n";
      Exec("INSERT INTO dim VALUES (" + (null_key ? std::string("NULL") : std::to_string(k)) + ", '" + name + "', " +
           std::to_string(w) + ")");
    }
  }

  std::vector<std::string> RunJoin(const std::string& join, size_t chunk_size) {
    const std::vector<std::string> ddl = {
        "CREATE TABLE t (id BIGINT, a INT, b DOUBLE, pt AS PROCTIME()) "
        "WITH ('connector' = 'filesystem', 'format' = 'json', 'path' = '" + (dir_ / "t.json").string() + "')",
        "CREATE TABLE dim (k BIGINT, name STRING, w DOUBLE) "
        "WITH ('connector' = 'filesystem', 'format' = 'json', 'path' = '" + (dir_ / "dim.json").string() + "')"};
    return RunScript(ddl,
                     "SELECT o.id, d.name FROM t AS o " + join +
                         " dim FOR SYSTEM_TIME AS OF o.pt AS d ON MOD(o.a, 7) = d.k AND d.w > o.b / 100",
                     chunk_size)
        .lines;
  }
};

TEST_P(LookupJoinTest, MatchesPlainJoin) {
  WriteDimension();
  auto left = RunSqlite("SELECT o.id, d.name FROM t o LEFT JOIN dim d ON (o.a % 7) = d.k AND d.w > o.b / 100");
  auto inner = RunSqlite("SELECT o.id, d.name FROM t o JOIN dim d ON (o.a % 7) = d.k AND d.w > o.b / 100");
  ASSERT_GT(inner.size(), 500u);
  ASSERT_GT(left.size(), inner.size());
  for (size_t chunk : {size_t{1}, size_t{1024}}) {
    EXPECT_EQ(RunJoin("LEFT JOIN", chunk), left) << "chunk size " << chunk;
    EXPECT_EQ(RunJoin("JOIN", chunk), inner) << "chunk size " << chunk;
  }
}

INSTANTIATE_TEST_SUITE_P(Seeds, LookupJoinTest, ::testing::Values(5u, 23u));

}  // namespace
}  // namespace difftest
}  // namespace sluice
