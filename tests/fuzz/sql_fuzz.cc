// libFuzzer target: a SQL script through the parser, binder and planner (tests/fuzz/README.md).
//
// The input is a script; it is split into statements (sql::SplitStatements) and each runs in one
// fresh Session, in order, so a CREATE TABLE or SET earlier in the script shapes how later statements
// bind and plan. No job runs: a query, INSERT or statement set is executed as EXPLAIN (binding,
// the rewrite rules, the physical planner, changelog-mode and upsert-key inference, the connectors'
// option validation, the plan printer), which keeps every input fast and free of files written or
// read. DDL, SET, SHOW and DESCRIBE run as they are.
//
// Errors are expected (most inputs do not parse); crashes, sanitizer reports and hangs are findings.
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>
#include <string_view>

#include "common/clock.h"
#include "engine/session.h"
#include "sql/parser.h"

namespace {

// Statements run per input at most: enough for a few DDLs and queries, bounded so an input made of
// thousands of ';' stays fast.
constexpr size_t kMaxStatements = 16;

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view script(reinterpret_cast<const char*>(data), size);
  auto statements = sluice::sql::SplitStatements(script);
  if (!statements.ok()) return 0;
  std::ostringstream out, err;  // print sinks and job summaries (none run; kept off the terminal)
  sluice::ManualClock clock(0);
  sluice::SessionOptions options;
  options.out = &out;
  options.err = &err;
  options.clock = &clock;
  sluice::Session session(options);
  size_t run = 0;
  for (const auto& st : *statements) {
    if (++run > kMaxStatements) break;
    auto parsed = sluice::sql::ParseStatement(st);
    if (!parsed.ok()) continue;
    switch ((*parsed)->kind) {
      case sluice::ast::StatementKind::kQuery:
      case sluice::ast::StatementKind::kInsert:
      case sluice::ast::StatementKind::kStatementSet:
        // Planned, not run. The statement keeps its place in the script for error positions.
        (void)session.ExecuteAt("EXPLAIN " + st.text, st.line, st.column, nullptr);
        break;
      default:
        (void)session.ExecuteAt(st.text, st.line, st.column, nullptr);
        break;
    }
  }
  return 0;
}
