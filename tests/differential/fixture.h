// Shared fixture of the differential checks: generated rows written as a JSON file for Sluice and
// inserted into an in-memory SQLite database; Check() runs a Flink SQL query through a Session and the
// equivalent SQLite query and compares the (folded) results as multisets of canonical text rows.
#pragma once

#include <gtest/gtest.h>
#include <sqlite3.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "common/clock.h"
#include "common/time_util.h"
#include "engine/result_table.h"
#include "engine/session.h"
#include "types/value.h"

namespace sluice {
namespace difftest {

namespace fs = std::filesystem;

struct Row {
  int64_t id;
  std::optional<int32_t> a;
  double b;
  std::optional<std::string> s;
  std::string n_str;
  int64_t ts_micros;
  std::vector<std::string> tags;
};

inline std::string JsonEscape(const std::string& s) {
  std::string o = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') o.push_back('\\');
    o.push_back(c);
  }
  return o + "\"";
}

inline std::vector<Row> Generate(uint32_t seed, int n) {
  std::mt19937_64 rng(seed);
  static const char* kWords[] = {"alpha", "Beta", "gamma delta", "  padded  ", "ab", "abab", "x", "", "Zeta", "banana"};
  std::vector<Row> rows;
  int64_t base = *ParseTimestamp("2026-08-15 00:00:00");
  for (int i = 0; i < n; ++i) {
    Row r;
    r.id = i;
    if (rng() % 7 != 0) r.a = static_cast<int32_t>(rng() % 201) - 100;
    r.b = static_cast<double>(static_cast<int64_t>(rng() % 200001) - 100000) / 64.0;  // exact in binary
    if (rng() % 9 != 0) r.s = kWords[rng() % 10];
    r.n_str = std::to_string(static_cast<int64_t>(rng() % 100000) - 50000);
    r.ts_micros = base + static_cast<int64_t>(rng() % (3 * 86400)) * kMicrosPerSecond + static_cast<int64_t>(rng() % 1000) * 1000;
    int k = static_cast<int>(rng() % 4);
    for (int j = 0; j < k; ++j) r.tags.push_back(kWords[rng() % 10]);
    rows.push_back(r);
  }
  return rows;
}

class DifferentialTest : public ::testing::TestWithParam<uint32_t> {
 public:
  // Extra SET options for the Sluice side (verification modes).
  std::map<std::string, std::string> config_;

 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("sluice-diff-" + std::to_string(GetParam()) + "-" + std::to_string(::getpid()));
    fs::create_directories(dir_);
    rows_ = Generate(GetParam(), 1500);
    std::ofstream out(dir_ / "t.json");
    out.precision(17);
    for (const auto& r : rows_) {
      out << "{\"id\":" << r.id << ",\"a\":" << (r.a ? std::to_string(*r.a) : "null") << ",\"b\":" << r.b
          << ",\"s\":" << (r.s ? JsonEscape(*r.s) : "null") << ",\"n_str\":" << JsonEscape(r.n_str)
          << ",\"ts\":" << JsonEscape(FormatTimestamp(r.ts_micros, 3)) << ",\"tags\":[";
      for (size_t j = 0; j < r.tags.size(); ++j) out << (j ? "," : "") << JsonEscape(r.tags[j]);
      out << "]}\n";
    }
    out.close();
    ASSERT_EQ(sqlite3_open(":memory:", &db_), SQLITE_OK);
    Exec("PRAGMA case_sensitive_like = ON");
    Exec("CREATE TABLE t (id INTEGER, a INTEGER, b REAL, s TEXT, n_str TEXT, ts TEXT, tags TEXT)");
    sqlite3_stmt* ins;
    ASSERT_EQ(sqlite3_prepare_v2(db_, "INSERT INTO t VALUES (?, ?, ?, ?, ?, ?, ?)", -1, &ins, nullptr), SQLITE_OK);
    for (const auto& r : rows_) {
      sqlite3_bind_int64(ins, 1, r.id);
      if (r.a) sqlite3_bind_int(ins, 2, *r.a);
      else sqlite3_bind_null(ins, 2);
      sqlite3_bind_double(ins, 3, r.b);
      if (r.s) sqlite3_bind_text(ins, 4, r.s->c_str(), -1, SQLITE_TRANSIENT);
      else sqlite3_bind_null(ins, 4);
      sqlite3_bind_text(ins, 5, r.n_str.c_str(), -1, SQLITE_TRANSIENT);
      std::string ts = FormatTimestamp(r.ts_micros, 3);
      sqlite3_bind_text(ins, 6, ts.c_str(), -1, SQLITE_TRANSIENT);
      std::string tags = "[";
      for (size_t j = 0; j < r.tags.size(); ++j) tags += (j ? "," : "") + JsonEscape(r.tags[j]);
      tags += "]";
      sqlite3_bind_text(ins, 7, tags.c_str(), -1, SQLITE_TRANSIENT);
      ASSERT_EQ(sqlite3_step(ins), SQLITE_DONE);
      sqlite3_reset(ins);
    }
    sqlite3_finalize(ins);
  }

  void TearDown() override {
    sqlite3_close(db_);
    fs::remove_all(dir_);
  }

  void Exec(const std::string& sql) {
    char* err = nullptr;
    ASSERT_EQ(sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &err), SQLITE_OK) << (err ? err : "");
  }

  static std::string Canonical(const std::string& text, bool is_number) {
    if (!is_number) return text;
    char* end = nullptr;
    double d = std::strtod(text.c_str(), &end);
    if (end == text.c_str()) return text;
    if (d == std::floor(d) && std::fabs(d) < 1e15) return std::to_string(static_cast<int64_t>(d));
    char buf[64];
    std::snprintf(buf, sizeof(buf), "%.9g", d);
    return buf;
  }

  std::vector<std::string> RunSqlite(const std::string& sql) {
    std::vector<std::string> out;
    sqlite3_stmt* st;
    EXPECT_EQ(sqlite3_prepare_v2(db_, sql.c_str(), -1, &st, nullptr), SQLITE_OK) << sqlite3_errmsg(db_) << "\n" << sql;
    while (sqlite3_step(st) == SQLITE_ROW) {
      std::string line;
      for (int c = 0; c < sqlite3_column_count(st); ++c) {
        if (c) line += " | ";
        int type = sqlite3_column_type(st, c);
        if (type == SQLITE_NULL) {
          line += "NULL";
        } else {
          std::string v = reinterpret_cast<const char*>(sqlite3_column_text(st, c));
          line += Canonical(v, type == SQLITE_INTEGER || type == SQLITE_FLOAT);
        }
      }
      out.push_back(line);
    }
    sqlite3_finalize(st);
    std::sort(out.begin(), out.end());
    return out;
  }

  class Collect final : public QueryResultHandler {
   public:
    Status Begin(const Schema& s) override {
      schema = s;
      return Status::OK();
    }
    Status Changes(const Chunk& chunk) override {
      table.Apply(chunk);
      return Status::OK();
    }
    Status End() override {
      for (const auto& row : table.rows()) {
        std::string line;
        for (size_t c = 0; c < row.size(); ++c) {
          if (c) line += " | ";
          const Value& v = row[c];
          if (v.is_null()) {
            line += "NULL";
            continue;
          }
          line += DifferentialTest::Canonical(v.ToString(), v.type().IsNumeric());
        }
        lines.push_back(line);
      }
      EXPECT_EQ(table.unmatched_retractions(), 0);
      return Status::OK();
    }
    MaterializedTable table;
    Schema schema;
    std::vector<std::string> lines;
  };

  std::vector<std::string> RunSluice(const std::string& sql) {
    ManualClock clock(0);
    SessionOptions opts;
    opts.clock = &clock;
    opts.config = config_;
    Session session(opts);
    std::string ddl =
        "CREATE TABLE t (id BIGINT, a INT, b DOUBLE, s STRING, n_str STRING, ts TIMESTAMP(3), tags ARRAY<STRING>) "
        "WITH ('connector' = 'filesystem', 'format' = 'json', 'path' = '" + (dir_ / "t.json").string() + "')";
    auto r = session.Execute(ddl, nullptr);
    EXPECT_TRUE(r.ok()) << r.status().ToString();
    Collect c;
    auto q = session.Execute(sql, &c);
    EXPECT_TRUE(q.ok()) << q.status().ToString() << "\n" << sql;
    std::sort(c.lines.begin(), c.lines.end());
    return c.lines;
  }

  // Indexes of rows_ in event-time order (ties keep generation order), for files read in order under a watermark.
  std::vector<size_t> EventTimeOrder() const {
    std::vector<size_t> order(rows_.size());
    for (size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](size_t x, size_t y) { return rows_[x].ts_micros < rows_[y].ts_micros; });
    return order;
  }

  // Runs the `ddl` statements, then `query`, in a fresh session at `chunk_size`: the folded result rows
  // (sorted) and the job summary's late-row count (-1 when the query failed).
  struct ScriptResult {
    std::vector<std::string> lines;
    int64_t late_rows = -1;
  };
  ScriptResult RunScript(const std::vector<std::string>& ddl, const std::string& query, size_t chunk_size) {
    ManualClock clock(0);
    SessionOptions opts;
    opts.clock = &clock;
    opts.config = {{"sluice.exec.chunk-size", std::to_string(chunk_size)}};
    Session session(opts);
    for (const auto& statement : ddl) {
      auto r = session.Execute(statement, nullptr);
      EXPECT_TRUE(r.ok()) << r.status().ToString() << "\n" << statement;
    }
    Collect c;
    auto q = session.Execute(query, &c);
    EXPECT_TRUE(q.ok()) << q.status().ToString() << "\n" << query;
    ScriptResult out;
    if (q.ok() && q->summary) out.late_rows = q->summary->late_rows_dropped;
    std::sort(c.lines.begin(), c.lines.end());
    out.lines = std::move(c.lines);
    return out;
  }

  void Check(const std::string& flink_sql, const std::string& sqlite_sql) {
    auto expected = RunSqlite(sqlite_sql);
    auto actual = RunSluice(flink_sql);
    ASSERT_FALSE(expected.empty()) << "the case selects nothing: " << sqlite_sql;
    ASSERT_EQ(actual.size(), expected.size()) << flink_sql;
    for (size_t i = 0; i < actual.size(); ++i) ASSERT_EQ(actual[i], expected[i]) << flink_sql;
  }

  fs::path dir_;
  std::vector<Row> rows_;
  sqlite3* db_ = nullptr;
};


}  // namespace difftest
}  // namespace sluice
