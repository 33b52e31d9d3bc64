// Differential checks of window aggregation (TUMBLE, HOP, CUMULATE, with offsets) against SQLite: the
// generated rows are read in a shuffled event-time order with a watermark, and Sluice's windowed
// GROUP BY must equal SQLite's GROUP BY over window bounds computed in SQL, at chunk sizes 1 and 1024.
// With a watermark delay larger than the disorder nothing is late; with a smaller one, the rows (and,
// for HOP/CUMULATE, the row-window pairs) whose windows had fired when they arrived are left out on
// the SQLite side, and the job summary's late-row count must equal the rows left out of every window.
#include "differential/fixture.h"

namespace sluice {
namespace difftest {
namespace {

constexpr int64_t kMs = 1000;  // micros per millisecond

struct WindowCase {
  const char* tvf;  // the TABLE(...) call's arguments after DESCRIPTOR(ts)
  const char* name;  // TUMBLE, HOP, CUMULATE
  int64_t size_ms, step_ms, offset_ms;
};

int64_t FloorOffset(int64_t ts, int64_t offset, int64_t size) {
  int64_t r = (ts - offset) % size;
  return r < 0 ? ts - (r + size) : ts - r;
}

// The windows [start, end) (milliseconds) holding `ts_ms`.
std::vector<std::pair<int64_t, int64_t>> Windows(const WindowCase& w, int64_t ts) {
  std::vector<std::pair<int64_t, int64_t>> out;
  if (std::string(w.name) == "TUMBLE") {
    int64_t s = FloorOffset(ts, w.offset_ms, w.size_ms);
    out.push_back({s, s + w.size_ms});
  } else if (std::string(w.name) == "HOP") {
    for (int64_t s = FloorOffset(ts, w.offset_ms, w.step_ms); s > ts - w.size_ms; s -= w.step_ms) out.push_back({s, s + w.size_ms});
  } else {
    int64_t s = FloorOffset(ts, w.offset_ms, w.size_ms);
    for (int64_t e = FloorOffset(ts, w.offset_ms, w.step_ms) + w.step_ms; e <= s + w.size_ms; e += w.step_ms) out.push_back({s, e});
  }
  return out;
}

class EventTimeTest : public DifferentialTest {
 protected:
  // Writes the rows in an order where each row's timestamp trails the largest seen so far by less
  // than `disorder_ms`, and loads SQLite's table `w` with one row per (row, window) the streaming run
  // must count: those whose window had not fired (watermark = max seen - delay) when the row came.
  // Returns the number of rows every one of whose windows had fired (the expected late drops).
  int64_t Prepare(const WindowCase& w, int64_t disorder_ms, int64_t delay_ms) {
    std::mt19937_64 rng(GetParam() * 7919u + static_cast<uint64_t>(disorder_ms));
    std::vector<std::pair<int64_t, size_t>> order;
    for (size_t i = 0; i < rows_.size(); ++i) {
      int64_t noise = static_cast<int64_t>(rng() % static_cast<uint64_t>(disorder_ms)) * kMs;
      order.push_back({rows_[i].ts_micros + noise, i});
    }
    std::sort(order.begin(), order.end());
    path_ = dir_ / ("e" + std::to_string(disorder_ms) + ".json");
    std::ofstream out(path_);
    Exec("DROP TABLE IF EXISTS w");
    Exec("CREATE TABLE w (id INTEGER, a INTEGER, s TEXT, ws TEXT, we TEXT)");
    sqlite3_stmt* ins;
    EXPECT_EQ(sqlite3_prepare_v2(db_, "INSERT INTO w VALUES (?, ?, ?, ?, ?)", -1, &ins, nullptr), SQLITE_OK);
    auto fmt = [](int64_t ms) { return FormatTimestamp(ms * kMs, 3); };
    // SESSION (checked without late rows): the sessions of the whole input per key, computed in
    // batch as islands of rows at most `gap` apart.
    std::map<size_t, std::pair<int64_t, int64_t>> session_of;
    if (std::string(w.name) == "SESSION") {
      std::vector<size_t> by_key(rows_.size());
      for (size_t i = 0; i < by_key.size(); ++i) by_key[i] = i;
      std::sort(by_key.begin(), by_key.end(), [&](size_t x, size_t y) {
        return std::tie(rows_[x].s, rows_[x].ts_micros) < std::tie(rows_[y].s, rows_[y].ts_micros);
      });
      size_t begin = 0;
      for (size_t j = 1; j <= by_key.size(); ++j) {
        const bool split = j == by_key.size() || rows_[by_key[j]].s != rows_[by_key[j - 1]].s ||
                           rows_[by_key[j]].ts_micros / kMs - rows_[by_key[j - 1]].ts_micros / kMs > w.size_ms;
        if (!split) continue;
        std::pair<int64_t, int64_t> bounds{rows_[by_key[begin]].ts_micros / kMs, rows_[by_key[j - 1]].ts_micros / kMs + w.size_ms};
        for (size_t k = begin; k < j; ++k) session_of[by_key[k]] = bounds;
        begin = j;
      }
    }
    int64_t max_ts = std::numeric_limits<int64_t>::min();
    int64_t late = 0;
    for (const auto& [key, i] : order) {
      const Row& r = rows_[i];
      out << "{\"id\":" << r.id << ",\"a\":" << (r.a ? std::to_string(*r.a) : "null")
          << ",\"s\":" << (r.s ? JsonEscape(*r.s) : "null") << ",\"ts\":" << JsonEscape(FormatTimestamp(r.ts_micros, 3)) << "}\n";
      const int64_t ts = r.ts_micros / kMs;
      bool counted = false;
      std::vector<std::pair<int64_t, int64_t>> windows = session_of.empty() ? Windows(w, ts) : std::vector{session_of[i]};
      for (const auto& [start, end] : windows) {
        // Flink fires a window once the watermark reaches end - 1 ms.
        bool fired = max_ts != std::numeric_limits<int64_t>::min() && end - 1 <= max_ts - delay_ms;
        if (fired) continue;
        counted = true;
        sqlite3_bind_int64(ins, 1, r.id);
        if (r.a) sqlite3_bind_int(ins, 2, *r.a);
        else sqlite3_bind_null(ins, 2);
        if (r.s) sqlite3_bind_text(ins, 3, r.s->c_str(), -1, SQLITE_TRANSIENT);
        else sqlite3_bind_null(ins, 3);
        std::string ws = fmt(start), we = fmt(end);
        sqlite3_bind_text(ins, 4, ws.c_str(), -1, SQLITE_TRANSIENT);
        sqlite3_bind_text(ins, 5, we.c_str(), -1, SQLITE_TRANSIENT);
        EXPECT_EQ(sqlite3_step(ins), SQLITE_DONE);
        sqlite3_reset(ins);
      }
      if (!counted) ++late;
      max_ts = std::max(max_ts, ts);
    }
    sqlite3_finalize(ins);
    return late;
  }

  // Runs `select` over table `e` (the prepared file, watermark ts - delay); returns the sorted result
  // lines and sets *late_dropped from the job summary.
  std::vector<std::string> RunWindows(const std::string& select, int64_t delay_ms, int64_t* late_dropped) {
    ManualClock clock(0);
    SessionOptions opts;
    opts.clock = &clock;
    opts.config = config_;
    Session session(opts);
    std::string ddl = "CREATE TABLE e (id BIGINT, a INT, s STRING, ts TIMESTAMP(3), WATERMARK FOR ts AS ts - INTERVAL '" +
                      std::to_string(delay_ms / 1000) + "' SECOND) WITH ('connector' = 'filesystem', 'format' = 'json', "
                      "'path' = '" + path_.string() + "')";
    auto r = session.Execute(ddl, nullptr);
    EXPECT_TRUE(r.ok()) << r.status().ToString();
    Collect c;
    auto q = session.Execute(select, &c);
    EXPECT_TRUE(q.ok()) << q.status().ToString() << "\n" << select;
    *late_dropped = q.ok() && q->summary ? q->summary->late_rows_dropped : -1;
    std::sort(c.lines.begin(), c.lines.end());
    return c.lines;
  }

  // Returns the number of late rows (dropped on both sides).
  int64_t CheckWindows(const WindowCase& w, int64_t disorder_ms, int64_t delay_ms) {
    const int64_t expected_late = Prepare(w, disorder_ms, delay_ms);
    // Sessions are per key s (the batch counterpart's islands): PARTITION BY s, as Flink needs for them.
    const bool session = std::string(w.name) == "SESSION";
    const std::string tvf = std::string("TABLE(") + w.name + (session ? "(TABLE e PARTITION BY s" : "(TABLE e") +
                            ", DESCRIPTOR(ts), " + w.tvf + "))";
    std::vector<std::pair<std::string, std::string>> queries = {
        {"SELECT s, window_start, window_end, COUNT(*), SUM(a), MIN(a), MAX(a), AVG(a), COUNT(DISTINCT a % 7) FROM " + tvf +
             " GROUP BY window_start, window_end, s",
         "SELECT s, ws, we, COUNT(*), SUM(a), MIN(a), MAX(a), SUM(a) / COUNT(a), COUNT(DISTINCT a % 7) FROM w GROUP BY ws, we, s"},
        {"SELECT window_start, window_end, COUNT(*) FILTER (WHERE a > 0), SUM(a) FILTER (WHERE s IS NULL), COUNT(s) FROM " + tvf +
             " GROUP BY window_start, window_end",
         "SELECT ws, we, SUM(CASE WHEN a > 0 THEN 1 ELSE 0 END), SUM(CASE WHEN s IS NULL THEN a END), COUNT(s) FROM w "
         "GROUP BY ws, we"},
    };
    // Sessions are per key s, so only the keyed query has a batch counterpart here.
    if (session) queries.pop_back();
    for (const char* chunk : {"1024", "1"}) {
      config_.clear();
      config_["sluice.exec.chunk-size"] = chunk;
      for (const auto& [flink_sql, sqlite_sql] : queries) {
        SCOPED_TRACE(std::string(w.name) + " " + w.tvf + ", chunk size " + chunk + ", delay " + std::to_string(delay_ms) + " ms");
        auto expected = RunSqlite(sqlite_sql);
        int64_t late = 0;
        auto actual = RunWindows(flink_sql, delay_ms, &late);
        EXPECT_FALSE(expected.empty());
        EXPECT_EQ(late, expected_late) << flink_sql;
        EXPECT_EQ(actual.size(), expected.size()) << flink_sql;
        if (actual.size() != expected.size()) continue;
        for (size_t i = 0; i < actual.size(); ++i) EXPECT_EQ(actual[i], expected[i]) << flink_sql;
      }
    }
    return expected_late;
  }

  fs::path path_;
};

const WindowCase kCases[] = {
    {"INTERVAL '1' HOUR", "TUMBLE", 3600000, 0, 0},
    {"INTERVAL '45' MINUTE, INTERVAL '7' MINUTE", "TUMBLE", 2700000, 0, 420000},
    {"INTERVAL '30' MINUTE, INTERVAL '2' HOUR", "HOP", 7200000, 1800000, 0},
    {"INTERVAL '20' MINUTE, INTERVAL '1' HOUR, INTERVAL '-5' MINUTE", "HOP", 3600000, 1200000, -300000},
    {"INTERVAL '1' HOUR, INTERVAL '6' HOUR", "CUMULATE", 21600000, 3600000, 0},
    {"INTERVAL '15' MINUTE, INTERVAL '1' HOUR, INTERVAL '10' MINUTE", "CUMULATE", 3600000, 900000, 600000},
};

TEST_P(EventTimeTest, NoLateRows) {
  // Timestamps trail the largest seen by under 10 minutes; a 10-minute delay makes nothing late.
  for (const auto& w : kCases) EXPECT_EQ(CheckWindows(w, 10 * 60 * 1000, 10 * 60 * 1000), 0);
}

TEST_P(EventTimeTest, SessionsMergeAsInBatch) {
  // Sessions that grow from both ends as disordered rows arrive must end up as the batch islands.
  for (const WindowCase& w : {WindowCase{"INTERVAL '30' MINUTE", "SESSION", 1800000, 0, 0},
                              WindowCase{"INTERVAL '3' HOUR", "SESSION", 10800000, 0, 0}}) {
    EXPECT_EQ(CheckWindows(w, 20 * 60 * 1000, 20 * 60 * 1000), 0);
  }
}

TEST_P(EventTimeTest, LateRowsDroppedAndCounted) {
  // Three hours of disorder against a 5-minute delay: windows close under rows still to come (HOP and
  // CUMULATE rows also miss only some of their windows).
  for (const auto& w : kCases) EXPECT_GT(CheckWindows(w, 3 * 60 * 60 * 1000, 5 * 60 * 1000), 0) << w.name << " " << w.tvf;
}

INSTANTIATE_TEST_SUITE_P(Seeds, EventTimeTest, ::testing::Values(5u, 17u));

}  // namespace
}  // namespace difftest
}  // namespace sluice
