// The statement nodes of the syntax tree (ast.h): DDL, DML, SET/SHOW/DESCRIBE, statement sets and
// EXPLAIN.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "sql/ast_query.h"
#include "types/insert_conflict.h"

namespace sluice::ast {

// ---------------------------------------------------------------------------------------------
// Statements

enum class StatementKind : uint8_t {
  kQuery,         // QueryStatement
  kCreateTable,   // CreateTable
  kCreateView,    // CreateView
  kDrop,          // Drop
  kShow,          // Show
  kShowCreate,    // ShowCreate
  kDescribe,      // Describe
  kSet,           // SetStatement
  kReset,         // Reset
  kInsert,        // Insert
  kStatementSet,  // StatementSet
  kExplain,       // Explain
  kCreateFunction,  // CreateFunction
  kAlterTable,    // AlterTable
  kCreateCatalog,   // CreateCatalog
  kCreateDatabase,  // CreateDatabase
  kUse,             // Use
  kAlterView,       // AlterView
  kAlterFunction,   // AlterFunction
};

struct Statement {
  explicit Statement(StatementKind k) : kind(k) {}
  virtual ~Statement() = default;
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;

  template <typename T>
  const T& As() const {
    SLUICE_CHECK(kind == T::kKind);
    return static_cast<const T&>(*this);
  }
  template <typename T>
  T& As() {
    SLUICE_CHECK(kind == T::kKind);
    return static_cast<T&>(*this);
  }

  const StatementKind kind;
  SourcePos pos;
};
using StatementPtr = std::unique_ptr<Statement>;

struct QueryStatement : Statement {
  static constexpr StatementKind kKind = StatementKind::kQuery;
  QueryStatement() : Statement(kKind) {}
  QueryPtr query;
};

enum class ColumnKind : uint8_t { kPhysical, kComputed, kMetadata };

struct ColumnDef {
  SourcePos pos;
  std::string name;
  ColumnKind column_kind = ColumnKind::kPhysical;
  LogicalType type;                         // physical and metadata columns (with NOT NULL)
  ExprPtr expr;                             // computed columns
  std::optional<std::string> metadata_key;  // METADATA FROM 'key'
  bool is_virtual = false;                  // METADATA ... VIRTUAL
  std::optional<std::string> comment;
};

struct WatermarkDef {
  SourcePos pos;
  Name column;  // the rowtime column (a nested field is a chain)
  ExprPtr expr;
};

struct PrimaryKeyDef {
  SourcePos pos;
  std::string constraint_name;  // CONSTRAINT name; empty when none
  std::vector<std::string> columns;
  bool enforced = false;  // Flink requires NOT ENFORCED; the binder rejects ENFORCED
};

// LIKE source_table (INCLUDING ALL EXCLUDING OPTIONS ...), the options separated by spaces.
struct LikeClause {
  enum class Strategy : uint8_t { kIncluding, kExcluding, kOverwriting };
  enum class Feature : uint8_t { kAll, kConstraints, kGenerated, kMetadata, kOptions, kPartitions, kWatermarks };
  SourcePos pos;
  SourcePos source_pos;  // where the source table's name is
  Name source;
  std::vector<std::pair<Strategy, Feature>> options;
};

struct CreateTable : Statement {
  static constexpr StatementKind kKind = StatementKind::kCreateTable;
  CreateTable() : Statement(kKind) {}
  Name name;
  bool temporary = false;
  bool if_not_exists = false;
  std::vector<ColumnDef> columns;
  std::optional<WatermarkDef> watermark;
  std::optional<PrimaryKeyDef> primary_key;  // table-level constraint
  std::optional<std::string> comment;
  std::vector<std::string> partition_keys;
  PropertyList options;  // WITH (...), in order
  std::optional<LikeClause> like;
  QueryPtr as_query;  // CREATE TABLE ... AS SELECT; null otherwise
  // REPLACE TABLE ... AS SELECT (`replace`) and CREATE OR REPLACE TABLE ... AS SELECT (`or_replace`).
  bool replace = false;
  bool or_replace = false;
};

struct CreateView : Statement {
  static constexpr StatementKind kKind = StatementKind::kCreateView;
  CreateView() : Statement(kKind) {}
  Name name;
  bool temporary = false;
  bool if_not_exists = false;
  std::vector<std::string> columns;
  std::optional<std::string> comment;
  QueryPtr query;
  std::string query_text;  // the query exactly as written in the script (for SHOW CREATE VIEW)
};

// CREATE [TEMPORARY] [SYSTEM] FUNCTION [IF NOT EXISTS] name AS 'class' [LANGUAGE JAVA|SCALA|PYTHON]
struct CreateFunction : Statement {
  static constexpr StatementKind kKind = StatementKind::kCreateFunction;
  CreateFunction() : Statement(kKind) {}
  Name name;
  bool temporary = false;
  bool system = false;
  bool if_not_exists = false;
  std::string class_name;
  std::string language;  // as written (upper case); empty when not written
};

// A column ALTER TABLE ADD / MODIFY names, and where it goes: last (ADD) or where it is (MODIFY) by
// default, FIRST, or AFTER another column.
struct AlterColumn {
  enum class Position : uint8_t { kDefault, kFirst, kAfter };
  ColumnDef column;
  Position position = Position::kDefault;
  std::string after;  // kAfter
  SourcePos after_pos;
};

// ALTER TABLE [IF EXISTS] t, one of Flink's actions:
//   SET ('k' = 'v', ...) | RESET ('k', ...)                 the WITH options
//   RENAME TO t2                                           the table's name
//   ADD | MODIFY <component> | (<component>, ...)          columns (FIRST / AFTER c), a PRIMARY KEY, a WATERMARK
//   DROP c | (c, ...) | PRIMARY KEY | CONSTRAINT k | WATERMARK
//   RENAME c TO c2                                         a column
struct AlterTable : Statement {
  static constexpr StatementKind kKind = StatementKind::kAlterTable;
  AlterTable() : Statement(kKind) {}
  enum class Action : uint8_t {
    kSetOptions, kResetOptions, kRenameTable, kAdd, kModify, kDropColumns, kDropPrimaryKey, kDropConstraint,
    kDropWatermark, kRenameColumn
  };
  Name name;
  bool if_exists = false;
  Action action = Action::kSetOptions;
  SourcePos action_pos;                 // where the action's keyword is
  PropertyList set_options;             // SET
  std::vector<std::string> reset_keys;  // RESET
  Name new_name;                        // RENAME TO
  std::vector<AlterColumn> columns;     // ADD / MODIFY
  std::optional<WatermarkDef> watermark;      // ADD / MODIFY
  std::optional<PrimaryKeyDef> primary_key;   // ADD / MODIFY
  std::vector<std::string> drop_columns;      // DROP c / (c, ...)
  std::string constraint_name;                // DROP CONSTRAINT
  std::string old_column, new_column;         // RENAME c TO c2
};

// ALTER VIEW v RENAME TO v2 | ALTER VIEW v AS query.
struct AlterView : Statement {
  static constexpr StatementKind kKind = StatementKind::kAlterView;
  AlterView() : Statement(kKind) {}
  Name name;
  Name new_name;           // RENAME TO; empty for AS
  QueryPtr query;          // AS
  std::string query_text;  // the query as written (SHOW CREATE VIEW)
};

// ALTER [TEMPORARY [SYSTEM]] FUNCTION [IF EXISTS] name AS 'class' [LANGUAGE ...]
struct AlterFunction : Statement {
  static constexpr StatementKind kKind = StatementKind::kAlterFunction;
  AlterFunction() : Statement(kKind) {}
  Name name;
  bool temporary = false;
  bool system = false;
  bool if_exists = false;
  std::string class_name;
  std::string language;
};

// CREATE CATALOG [IF NOT EXISTS] name [COMMENT '...'] WITH ('type' = '...', ...)
struct CreateCatalog : Statement {
  static constexpr StatementKind kKind = StatementKind::kCreateCatalog;
  CreateCatalog() : Statement(kKind) {}
  std::string name;
  bool if_not_exists = false;
  std::optional<std::string> comment;
  PropertyList options;
};

// CREATE DATABASE [IF NOT EXISTS] [catalog.]db [COMMENT '...'] [WITH (...)]
struct CreateDatabase : Statement {
  static constexpr StatementKind kKind = StatementKind::kCreateDatabase;
  CreateDatabase() : Statement(kKind) {}
  Name name;  // 1 or 2 parts
  bool if_not_exists = false;
  std::optional<std::string> comment;
  PropertyList options;
};

// USE CATALOG name | USE [catalog.]db
struct Use : Statement {
  static constexpr StatementKind kKind = StatementKind::kUse;
  Use() : Statement(kKind) {}
  bool catalog = false;
  Name name;
};

enum class ObjectKind : uint8_t { kTable, kView, kCatalog, kDatabase };

struct Drop : Statement {
  static constexpr StatementKind kKind = StatementKind::kDrop;
  Drop() : Statement(kKind) {}
  ObjectKind object = ObjectKind::kTable;
  bool temporary = false;
  bool if_exists = false;
  bool cascade = false;  // DROP DATABASE ... CASCADE (RESTRICT, the default, refuses a non-empty one)
  Name name;
};

enum class ShowKind : uint8_t {
  kTables, kViews, kFunctions, kCatalogs, kDatabases, kModules, kCurrentCatalog, kCurrentDatabase
};

// SHOW TABLES [(FROM | IN) [catalog.]db] [[NOT] LIKE 'pattern'], SHOW DATABASES [(FROM | IN) catalog], ...
struct Show : Statement {
  static constexpr StatementKind kKind = StatementKind::kShow;
  Show() : Statement(kKind) {}
  ShowKind show_kind = ShowKind::kTables;
  Name from;                         // empty: the current catalog / database
  std::optional<std::string> like;   // LIKE pattern (SQL LIKE: % and _)
  bool not_like = false;
};

// SHOW CREATE TABLE name | SHOW CREATE VIEW name | SHOW CREATE CATALOG name (a one-part name)
struct ShowCreate : Statement {
  static constexpr StatementKind kKind = StatementKind::kShowCreate;
  ShowCreate() : Statement(kKind) {}
  ObjectKind object = ObjectKind::kTable;
  Name name;
};

// DESCRIBE [EXTENDED] [catalog.][db.]table | DESCRIBE CATALOG [EXTENDED] catalog (DESC for DESCRIBE)
struct Describe : Statement {
  static constexpr StatementKind kKind = StatementKind::kDescribe;
  Describe() : Statement(kKind) {}
  bool catalog = false;  // DESCRIBE CATALOG: `name` has one part
  bool extended = false;
  Name name;
};

// SET 'k' = 'v', or SET alone (key unset) to list every option.
struct SetStatement : Statement {
  static constexpr StatementKind kKind = StatementKind::kSet;
  SetStatement() : Statement(kKind) {}
  std::optional<std::string> key;
  std::string value;
};

// RESET 'k', or RESET alone (key unset) to reset every option.
struct Reset : Statement {
  static constexpr StatementKind kKind = StatementKind::kReset;
  Reset() : Statement(kKind) {}
  std::optional<std::string> key;
};

struct Insert : Statement {
  static constexpr StatementKind kKind = StatementKind::kInsert;
  Insert() : Statement(kKind) {}
  Name target;
  std::vector<Hint> hints;  // INSERT INTO t /*+ OPTIONS(...) */
  bool overwrite = false;
  // PARTITION (k = 'v', ...): static partition values, in order.
  std::vector<std::pair<std::string, ExprPtr>> static_partition;
  std::vector<std::string> columns;  // (a, b); empty when not written
  QueryPtr query;                    // a SELECT, set operation or VALUES
  // ON CONFLICT DO NOTHING | DO ERROR | DO DEDUPLICATE after the query (Flink 2.3); kNone when absent.
  InsertConflictStrategy on_conflict = InsertConflictStrategy::kNone;
};

// EXECUTE STATEMENT SET BEGIN ...; END  or  BEGIN STATEMENT SET; ...; END
struct StatementSet : Statement {
  static constexpr StatementKind kKind = StatementKind::kStatementSet;
  StatementSet() : Statement(kKind) {}
  bool execute_form = true;  // EXECUTE STATEMENT SET (true) or BEGIN STATEMENT SET (false)
  std::vector<std::unique_ptr<Insert>> inserts;
};

enum class ExplainDetail : uint8_t { kChangelogMode, kEstimatedCost, kPlanAdvice, kJsonExecutionPlan };

struct Explain : Statement {
  static constexpr StatementKind kKind = StatementKind::kExplain;
  Explain() : Statement(kKind) {}
  std::vector<ExplainDetail> details;  // in the order written
  StatementPtr inner;  // a QueryStatement, Insert or StatementSet
};

}  // namespace sluice::ast
