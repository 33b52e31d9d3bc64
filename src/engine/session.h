// Session: the embedding API. A session holds a catalog and a configuration (SET keys) and executes
// Flink SQL statements one at a time; SELECT and INSERT statements run as jobs to completion (bounded
// sources) or until the caller's handler stops them.
//
// Rows a statement returns (SELECT changes, SHOW TABLES, DESCRIBE, ...) stream to a
// QueryResultHandler as chunks with RowKinds; text results (EXPLAIN, SHOW CREATE TABLE, "[INFO] ...")
// come back in StatementResult::text. A job ends with a JobSummary.
//
// Threading: a Session is used by one thread at a time. Jobs it starts may use task threads inside
// Execute, and are finished when Execute returns.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "runtime/job_summary.h"
#include "types/row_kind.h"
#include "types/schema.h"
#include "types/vector.h"

namespace sluice {

class Clock;
class ValuesDataRegistry;

struct SessionOptions {
  std::ostream* out = nullptr;   // console sinks (print); stdout when null
  std::ostream* err = nullptr;   // job summaries and print-to-stderr; stderr when null
  const Clock* clock = nullptr;  // processing time; the system clock when null
  // Initial configuration, as `--set key=value` or SET 'key' = 'value' (validated on first use).
  std::map<std::string, std::string> config;
};

class QueryResultHandler {
 public:
  virtual ~QueryResultHandler() = default;
  // Called before Begin with a unique key of the result's changing rows (column indexes; empty when
  // unknown or insert-only), so a handler that folds the changelog can match rows by it.
  virtual void SetUpsertKey(const std::vector<int>& key_columns) {}
  // True when the handler only folds the changes to the final table (engine/result_table.h) and
  // shows nothing else of them: the job may then send fewer changes that fold to the same table.
  virtual bool FinalTableOnly() const { return false; }
  virtual Status Begin(const Schema& schema) = 0;
  // One chunk of changes (RowKind per row). Insert-only for DDL-like listings.
  virtual Status Changes(const Chunk& chunk) = 0;
  virtual Status End() = 0;
};

struct StatementResult {
  enum class Kind { kOk, kRows, kText, kJob };
  Kind kind = Kind::kOk;
  std::string text;                   // kOk: "[INFO] ..." message; kText: EXPLAIN and the like
  std::optional<JobSummary> summary;  // kJob (and SELECT, which runs a job)
};

class Session {
 public:
  explicit Session(SessionOptions options = {});
  ~Session();
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;

  // Executes one statement (without its trailing ';'). Rows go to `handler` (may be null: rows are
  // dropped). Errors name the line and column of the statement text.
  Result<StatementResult> Execute(std::string_view statement, QueryResultHandler* handler);
  // Same, for a statement cut out of a script at `line`/`column` (1-based), so errors point into
  // the script.
  Result<StatementResult> ExecuteAt(std::string_view statement, int line, int column, QueryResultHandler* handler);

  // In-memory rows of 'values' tables (tests feed changelogs through it).
  ValuesDataRegistry* values_registry();

  // The summary of the job the last Execute ran, also when the job failed once it had started
  // (JobSummary::failed; its error is what Execute returned): callers print it before the error.
  // Empty when the statement ran no job or the job failed before it started.
  const std::optional<JobSummary>& LastJobSummary() const;

  // Reads the configuration value of `key` (SET/--set or the declared default).
  Result<std::string> GetConfig(const std::string& key) const;

 private:
  class Impl;
  std::unique_ptr<Impl> impl_;
  Status init_status_;  // a bad initial configuration fails every statement with its reason
};

}  // namespace sluice
