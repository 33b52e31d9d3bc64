// sqltest: runs Sluice's .test scripts (tests/sql/**/*.test), a sqllogictest-style format extended
// for streams (DESIGN.md §10). Each file runs in a fresh Session with a ManualClock. Records are
// separated by blank lines:
//
//   # a comment
//   statement ok                  the statement must succeed
//   <sql>
//
//   statement error <substring>   the statement must fail with a message containing <substring>
//   <sql>
//
//   input <table> [split <n>]     rows for a 'values' table (its 'data-id' must be the table name);
//   +I 1, 'SG-0042', TIMESTAMP '2026-08-15 05:00:00'     one row per line: a RowKind and SQL
//   -D 1, 'SG-0042', TIMESTAMP '2026-08-15 05:00:00'     literals, cast to the table's column types
//   advance 10 s                  a processing-time step: when the source reaches it, the test's
//                                 clock moves forward (units ms, s, min, h, d); the rows before
//                                 it are processed at the earlier time
//
//   query changelog               a SELECT; every change, in order, as the print sink writes it
//   <sql>
//   ----
//   +I[1, SG-0042]
//
//   query final                   a SELECT; the folded result table, order-insensitive
//   <sql>
//   ----
//   [1, SG-0042]
//
//   output                        a statement; exactly what it prints to stdout (print sinks, ...)
//   <sql>
//   ----
//   +I[...]
//
//   file <path>                   a statement; then the file's content must be exactly the text
//   <sql>
//   ----
//   {"a":1}
//
//   tree <dir>                    a statement; then every file under <dir> (hidden ones too), one
//   <sql>                         relative path per line, sorted: a filesystem sink's layout
//   ----
//   dt=2026-08-15/part-0-0.csv
//
//   sink <table>                  a statement; then every change the 'values' sink <table> received
//   <sql>                         during it, in order, as the print sink writes them
//   ----
//   +I[SG-0042, 1]
//
//   sources                       a statement (a query or INSERT); then its job's sources as the job
//   <sql>                         summary lists them, one per line: rows read and the source's own
//   ----                          fields (an Iceberg scan's planned and skipped files)
//   t(rows=3, result-data-files=1, skipped-data-files=2)
//
//   explain                       a statement; the text it returns (EXPLAIN ...), exactly
//   <sql>
//   ----
//   == Abstract Syntax Tree ==
//
// In SQL, expected text and input rows, ${TEST_DIR} is the .test file's folder (data files beside it)
// and ${TMP_DIR} a fresh folder for the file's outputs.
//
// Usage: sqltest [--set key=value]... [--update] PATH...   (files or directories, searched for *.test)
// Prints one line per failing record and ends with "N passed, N failed".
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "common/clock.h"
#include "connectors/values/values_connector.h"
#include "engine/result_table.h"
#include "engine/session.h"
#include "types/value_format.h"

namespace fs = std::filesystem;

namespace sluice {
namespace {

std::string Trim(const std::string& s) {
  size_t b = s.find_first_not_of(" \t\r");
  if (b == std::string::npos) return "";
  size_t e = s.find_last_not_of(" \t\r");
  return s.substr(b, e - b + 1);
}

std::string RowText(const Chunk& chunk, size_t row) {
  std::string s = "[";
  for (size_t c = 0; c < chunk.num_columns(); ++c) {
    if (c) s += ", ";
    AppendVectorText(chunk.column(c), row, &s);
  }
  return s + "]";
}

std::string RowText(const std::vector<Value>& row) {
  std::string s = "[";
  for (size_t c = 0; c < row.size(); ++c) {
    if (c) s += ", ";
    s += row[c].ToString();
  }
  return s + "]";
}

// Collects a statement's changes.
class Collector final : public QueryResultHandler {
 public:
  // `final` folds by the query's upsert key when it has one, as the CLI's table mode.
  void SetUpsertKey(const std::vector<int>& key_columns) override { table_.SetUpsertKey(key_columns); }
  // `final` shows only the folded table, so the job may send net changes (as for the CLI's table mode).
  bool FinalTableOnly() const override { return final_only_; }
  Status Begin(const Schema& schema) override {
    schema_ = schema;
    return Status::OK();
  }
  Status Changes(const Chunk& chunk) override {
    for (size_t i = 0; i < chunk.size(); ++i) {
      changes_.push_back(std::string(RowKindShortString(chunk.kind(i))) + RowText(chunk, i));
      rows_.push_back({chunk.kind(i), chunk.GetRow(i)});
    }
    table_.Apply(chunk);
    return Status::OK();
  }
  Status End() override { return Status::OK(); }

  bool final_only_ = false;
  Schema schema_;
  std::vector<std::string> changes_;
  std::vector<ValuesRow> rows_;
  MaterializedTable table_;
};

struct Record {
  std::string kind;  // statement, input, query, output, explain
  std::string arg;   // ok / error substring / changelog / final / table and split
  std::string sql;
  std::vector<std::string> input_lines;
  std::vector<std::string> expected;
  bool has_expected = false;
  int line = 0;
};

bool StartsRecord(const std::string& line) {
  std::string t = Trim(line);
  for (const char* kw : {"statement", "query", "input", "output", "explain", "file", "tree", "sink", "sources", "#"}) {
    if (t.rfind(kw, 0) == 0) return true;
  }
  return false;
}

std::vector<Record> ParseFile(const std::string& text) {
  std::vector<std::string> lines;
  {
    std::istringstream in(text);
    std::string line;
    while (std::getline(in, line)) {
      if (!line.empty() && line.back() == '\r') line.pop_back();
      lines.push_back(line);
    }
  }
  std::vector<Record> out;
  Record cur;
  enum { kNone, kSql, kExpected, kInput } state = kNone;
  auto flush = [&]() {
    if (!cur.kind.empty()) {
      // Expected text may contain blank lines (EXPLAIN); trailing ones are not part of it.
      while (!cur.expected.empty() && Trim(cur.expected.back()).empty()) cur.expected.pop_back();
      out.push_back(cur);
    }
    cur = Record();
    state = kNone;
  };
  for (size_t i = 0; i < lines.size(); ++i) {
    const std::string& line = lines[i];
    if (state == kNone) {
      std::string t = Trim(line);
      if (t.empty() || t[0] == '#') continue;
      size_t sp = t.find(' ');
      cur.kind = t.substr(0, sp);
      cur.arg = sp == std::string::npos ? "" : Trim(t.substr(sp + 1));
      cur.line = static_cast<int>(i + 1);
      state = cur.kind == "input" ? kInput : kSql;
      continue;
    }
    if (Trim(line).empty()) {
      // A blank line ends a record, except inside expected text that goes on after it (the next
      // non-blank line does not start a record).
      if (state == kExpected) {
        size_t j = i + 1;
        while (j < lines.size() && Trim(lines[j]).empty()) ++j;
        if (j < lines.size() && !StartsRecord(lines[j])) {
          cur.expected.push_back("");
          continue;
        }
      }
      flush();
      continue;
    }
    if (state == kInput) {
      cur.input_lines.push_back(Trim(line));
    } else if (state == kSql) {
      if (Trim(line) == "----") {
        state = kExpected;
        cur.has_expected = true;
      } else {
        cur.sql += (cur.sql.empty() ? "" : "\n") + line;
      }
    } else {
      cur.expected.push_back(line);
    }
  }
  flush();
  return out;
}

class FileRunner {
 public:
  FileRunner(const std::string& path, const std::map<std::string, std::string>& config) : path_(path) {
    SessionOptions opts;
    opts.out = &captured_;
    opts.err = &captured_err_;
    opts.clock = &clock_;
    opts.config = config;
    session_ = std::make_unique<Session>(opts);
    session_->values_registry()->set_clock_advancer([this](int64_t micros) { clock_.Advance(micros); });
  }

  // Returns the number of failed records; counts passes in *passed.
  int Run(std::vector<Record> records, int* passed) {
    int failed = 0;
    fs::path tmp = fs::temp_directory_path() / ("sqltest-" + std::to_string(::getpid()) + "-" + fs::path(path_).stem().string());
    fs::remove_all(tmp);
    fs::create_directories(tmp);
    for (auto& r : records) {
      r.sql = Substitute(r.sql, tmp.string());
      r.arg = Substitute(r.arg, tmp.string());
      for (auto& e : r.expected) e = Substitute(e, tmp.string());
      for (auto& e : r.input_lines) e = Substitute(e, tmp.string());
      std::string why = RunRecord(r);
      if (why.empty()) {
        ++*passed;
      } else {
        ++failed;
        std::cout << "FAIL " << path_ << ":" << r.line << ": " << why << "\n";
      }
    }
    fs::remove_all(tmp);
    return failed;
  }

 private:
  // ${TEST_DIR}: the .test file's folder (for data files next to it); ${TMP_DIR}: a fresh folder.
  std::string Substitute(std::string s, const std::string& tmp) {
    const std::string dir = fs::absolute(fs::path(path_)).parent_path().string();
    for (const auto& [key, value] : {std::pair<std::string, std::string>{"${TEST_DIR}", dir}, {"${TMP_DIR}", tmp}}) {
      size_t pos;
      while ((pos = s.find(key)) != std::string::npos) s.replace(pos, key.size(), value);
    }
    return s;
  }

  std::string Diff(const std::vector<std::string>& expected, const std::vector<std::string>& actual) {
    std::string s = "\n  expected:\n";
    for (const auto& e : expected) s += "    " + e + "\n";
    s += "  actual:\n";
    for (const auto& a : actual) s += "    " + a + "\n";
    return s;
  }

  std::string RunRecord(const Record& r) {
    captured_.str("");
    captured_.clear();
    if (r.kind == "statement") {
      Collector c;
      c.final_only_ = r.kind == "query" && r.arg == "final";
      auto res = session_->Execute(r.sql, &c);
      if (r.arg == "ok") return res.ok() ? "" : "unexpected error: " + res.status().ToString();
      if (r.arg.rfind("error", 0) == 0) {
        std::string want = Trim(r.arg.substr(5));
        if (res.ok()) return "expected an error containing '" + want + "', but the statement succeeded";
        if (res.status().message().find(want) == std::string::npos) {
          return "error message does not contain '" + want + "': " + res.status().message();
        }
        return "";
      }
      return "unknown statement mode '" + r.arg + "'";
    }
    if (r.kind == "input") return RunInput(r);
    if (r.kind == "sink") {
      ValuesDataRegistry* reg = session_->values_registry();
      reg->ClearResults();
      Collector c;
      auto res = session_->Execute(r.sql, &c);
      if (!res.ok()) return "unexpected error: " + res.status().ToString();
      std::vector<std::string> actual;
      std::string name = r.arg.find('.') == std::string::npos ? "default_catalog.default_database." + r.arg : r.arg;
      for (const auto& row : reg->Results(name)) actual.push_back(ValuesRowToString(row));
      if (actual != r.expected) return "sink content mismatch" + Diff(r.expected, actual);
      return "";
    }
    if (r.kind == "sources") {
      Collector c;
      auto res = session_->Execute(r.sql, &c);
      if (!res.ok()) return "unexpected error: " + res.status().ToString();
      if (!res->summary) return "the statement ran no job";
      std::vector<std::string> actual;
      for (const auto& src : res->summary->sources) {
        std::string line = src.table + "(rows=" + std::to_string(src.rows);
        for (const auto& kv : src.fields) line += ", " + kv.first + "=" + kv.second;
        actual.push_back(line + ")");
      }
      if (actual != r.expected) return "sources mismatch" + Diff(r.expected, actual);
      return "";
    }
    if (r.kind == "tree") {
      // Every file under the directory (hidden ones too), relative to it, sorted: a sink's layout.
      Collector c;
      auto res = session_->Execute(r.sql, &c);
      if (!res.ok()) return "unexpected error: " + res.status().ToString();
      std::vector<std::string> actual;
      std::error_code ec;
      for (auto it = fs::recursive_directory_iterator(r.arg, ec); !ec && it != fs::recursive_directory_iterator();
           it.increment(ec)) {
        if (it->is_regular_file()) actual.push_back(fs::path(it->path()).lexically_relative(r.arg).generic_string());
      }
      std::sort(actual.begin(), actual.end());
      if (actual != r.expected) return "tree mismatch" + Diff(r.expected, actual);
      return "";
    }
    if (r.kind == "file") {
      Collector c;
      auto res = session_->Execute(r.sql, &c);
      if (!res.ok()) return "unexpected error: " + res.status().ToString();
      std::vector<std::string> actual;
      fs::path p(r.arg);
      if (fs::is_directory(p)) {
        // A sink directory: the concatenation of its files in name order.
        std::vector<fs::path> files;
        for (const auto& e : fs::directory_iterator(p)) files.push_back(e.path());
        std::sort(files.begin(), files.end());
        for (const auto& f : files) {
          std::ifstream in(f);
          std::string l;
          while (std::getline(in, l)) actual.push_back(l);
        }
      } else {
        std::ifstream in(p);
        if (!in) return "file " + r.arg + " was not written";
        std::string l;
        while (std::getline(in, l)) actual.push_back(l);
      }
      if (actual != r.expected) return "file content mismatch" + Diff(r.expected, actual);
      return "";
    }
    if (r.kind == "query" || r.kind == "output" || r.kind == "explain") {
      Collector c;
      auto res = session_->Execute(r.sql, &c);
      if (!res.ok()) return "unexpected error: " + res.status().ToString();
      std::vector<std::string> actual;
      std::vector<std::string> expected = r.expected;
      if (r.kind == "output" || r.kind == "explain") {
        std::string text = r.kind == "output" ? captured_.str() : res->text;
        std::istringstream in(text);
        std::string l;
        while (std::getline(in, l)) actual.push_back(l);
        while (!actual.empty() && Trim(actual.back()).empty()) actual.pop_back();
      } else if (r.arg == "changelog") {
        actual = c.changes_;
      } else if (r.arg == "final") {
        for (const auto& row : c.table_.rows()) actual.push_back(RowText(row));
        std::sort(actual.begin(), actual.end());
        std::sort(expected.begin(), expected.end());
        if (c.table_.unmatched_retractions()) return "the changelog retracts rows it never inserted";
      } else {
        return "unknown query mode '" + r.arg + "' (changelog or final)";
      }
      if (actual != expected) return "result mismatch" + Diff(expected, actual);
      return "";
    }
    return "unknown record '" + r.kind + "'";
  }

  // Turns SQL literal rows into typed Values via the session itself, then registers them.
  std::string RunInput(const Record& r) {
    std::istringstream a(r.arg);
    std::string table, word;
    int split = 0;
    a >> table;
    if (a >> word) {
      if (word != "split" || !(a >> split)) return "input: expected 'input <table> [split <n>]'";
    }
    Collector desc;
    auto d = session_->Execute("DESCRIBE `" + table + "`", &desc);
    if (!d.ok()) return "input: " + d.status().message();
    std::vector<std::string> types;
    for (const auto& row : desc.rows_) {
      const std::string extras = row.values[4].string_value();
      if (!extras.empty()) continue;  // computed and metadata columns are not input
      std::string t = row.values[1].string_value();
      size_t star = t.find(" *");
      if (star != std::string::npos) t = t.substr(0, star);
      if (row.values[2].string_value() == "FALSE") t += " NOT NULL";
      types.push_back(t);
    }
    std::vector<RowKind> kinds;
    std::string values;
    std::vector<std::pair<size_t, int64_t>> steps;  // (rows before it, micros)
    for (const auto& l : r.input_lines) {
      if (l.rfind("advance ", 0) == 0) {
        std::istringstream in(l.substr(8));
        double amount = 0;
        std::string unit;
        if (!(in >> amount >> unit) || amount <= 0) return "input: expected 'advance <positive number> <unit>': " + l;
        static const std::map<std::string, int64_t> kUnits = {
            {"ms", 1000}, {"s", 1000000}, {"min", 60000000}, {"h", 3600000000LL}, {"d", 86400000000LL}};
        auto u = kUnits.find(unit);
        if (u == kUnits.end()) return "input: unknown time unit '" + unit + "' (ms, s, min, h, d): " + l;
        steps.push_back({kinds.size(), static_cast<int64_t>(amount * static_cast<double>(u->second))});
        continue;
      }
      RowKind k;
      if (l.size() < 3 || !ParseRowKind(l.substr(0, 2), &k)) return "input: a row must start with +I, -U, +U or -D: " + l;
      kinds.push_back(k);
      values += (values.empty() ? "" : ", ") + std::string("(") + l.substr(3) + ")";
    }
    ValuesDataRegistry* reg = session_->values_registry();
    auto existing = reg->Find(table);
    ValuesDataRegistry::Splits splits = existing ? *existing : ValuesDataRegistry::Splits{};
    if (static_cast<int>(splits.size()) <= split) splits.resize(static_cast<size_t>(split) + 1);
    if (!kinds.empty()) {
      std::string select = "SELECT ";
      for (size_t i = 0; i < types.size(); ++i) {
        select += (i ? ", " : "") + std::string("CAST(EXPR$") + std::to_string(i) + " AS " + types[i] + ")";
      }
      select += " FROM (VALUES " + values + ")";
      Collector rows;
      auto q = session_->Execute(select, &rows);
      if (!q.ok()) return "input: " + q.status().message();
      size_t next_step = 0;
      for (size_t i = 0; i < rows.rows_.size(); ++i) {
        for (; next_step < steps.size() && steps[next_step].first == i; ++next_step) {
          splits[static_cast<size_t>(split)].push_back(ValuesRow{RowKind::kInsert, {}, steps[next_step].second});
        }
        splits[static_cast<size_t>(split)].push_back(ValuesRow{kinds[i], rows.rows_[i].values});
      }
    }
    for (size_t i = 0; i < steps.size(); ++i) {
      if (steps[i].first >= kinds.size()) {
        splits[static_cast<size_t>(split)].push_back(ValuesRow{RowKind::kInsert, {}, steps[i].second});
      }
    }
    reg->Register(table, std::move(splits));
    return "";
  }

  std::string path_;
  std::ostringstream captured_;
  std::ostringstream captured_err_;
  ManualClock clock_{0};
  std::unique_ptr<Session> session_;
};

}  // namespace
}  // namespace sluice

int main(int argc, char** argv) {
  std::map<std::string, std::string> config;
  std::vector<std::string> paths;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--set" && i + 1 < argc) {
      std::string kv = argv[++i];
      size_t eq = kv.find('=');
      config[kv.substr(0, eq)] = kv.substr(eq + 1);
    } else {
      paths.push_back(a);
    }
  }
  std::vector<std::string> files;
  for (const auto& p : paths) {
    if (fs::is_directory(p)) {
      for (const auto& e : fs::recursive_directory_iterator(p)) {
        if (e.is_regular_file() && e.path().extension() == ".test") files.push_back(e.path().string());
      }
    } else {
      files.push_back(p);
    }
  }
  std::sort(files.begin(), files.end());
  int passed = 0, failed = 0;
  for (const auto& f : files) {
    std::ifstream in(f);
    std::stringstream ss;
    ss << in.rdbuf();
    sluice::FileRunner runner(f, config);
    failed += runner.Run(sluice::ParseFile(ss.str()), &passed);
  }
  std::cout << passed << " passed, " << failed << " failed\n";
  return failed == 0 && passed > 0 ? 0 : 1;
}
