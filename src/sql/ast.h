// The syntax tree of Sluice's Flink SQL dialect, as the parser (parser.h) builds it.
//
// The tree is purely syntactic: names are not resolved and nothing is typed except the data types
// written in the text (CAST targets, column types), which the parser already maps to LogicalType.
// Every node is a plain struct owned through std::unique_ptr and carries the 1-based line and
// column where it starts in the whole script. Each family (Statement, Query, TableRef, Expr) has a
// base struct with a `kind` enum; a node of kind K is the derived struct whose `kKind` is K, so
// consumers switch on `kind` and downcast with `As<T>()` (checked).
//
// Identifiers keep the case they were written in (Flink compares them case-sensitively); keywords
// are case-insensitive and never appear as strings here, except function names, which keep the
// spelling of the text (the binder resolves them case-insensitively).
//
// Invariant: Unparse(tree) (unparser.h) parses back to a tree that unparses to the same text.
//
// Threading: a tree is a plain value; it is built by one thread and then only read.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "common/check.h"
#include "types/logical_type.h"

namespace sluice::ast {

// Where a node starts in the script; both 1-based. {0, 0} means "no place" (a synthesized node).
struct SourcePos {
  int line = 0;
  int column = 0;
  bool operator==(const SourcePos&) const = default;
};

// A possibly qualified name as written: `cat`.`db`.`t` is {"cat", "db", "t"}.
using Name = std::vector<std::string>;

// 'key' = 'value' pairs in the order written (WITH options, hints, SET).
using Property = std::pair<std::string, std::string>;
using PropertyList = std::vector<Property>;

// Units of INTERVAL literals, EXTRACT, FLOOR/CEIL(x TO unit), TIMESTAMPADD and TIMESTAMPDIFF.
enum class TimeUnit : uint8_t {
  kYear,
  kQuarter,
  kMonth,
  kWeek,
  kDay,
  kHour,
  kMinute,
  kSecond,
  kMillisecond,
  kMicrosecond,
  kNanosecond,
  kDow,
  kDoy,
  kIsoDow,
  kIsoYear,
  kEpoch,
  kDecade,
  kCentury,
  kMillennium,
};
// The SQL keyword of a unit ("YEAR", "MILLISECOND", "DOW", ...).
const char* TimeUnitName(TimeUnit unit);

// A query hint (/*+ NAME('k'='v', ...) */ or /*+ NAME(a, b) */), on a SELECT or a table reference.
// Exactly one of kv_options and list_options is used (both empty for NAME or NAME()).
struct Hint {
  SourcePos pos;
  std::string name;  // as written (Flink treats hint names case-insensitively)
  PropertyList kv_options;
  std::vector<std::string> list_options;
};

// ---------------------------------------------------------------------------------------------
// Expressions

enum class ExprKind : uint8_t {
  kLiteral,          // Literal
  kIntervalLiteral,  // IntervalLiteral
  kIdentifier,       // Identifier: a column, qualified column, or ROW field chain a.b.c
  kStar,             // Star: * or t.* (select list, COUNT(*))
  kUnary,            // Unary
  kBinary,           // Binary
  kIs,               // IsExpr: IS [NOT] NULL/TRUE/FALSE/UNKNOWN
  kIsDistinctFrom,   // IsDistinctFrom
  kBetween,          // Between
  kIn,               // In (list or subquery)
  kLike,             // Like (LIKE or SIMILAR TO)
  kCall,             // Call: function call, aggregate, window function
  kCast,             // Cast (CAST / TRY_CAST)
  kCase,             // Case
  kExtract,          // Extract
  kFloorCeil,        // FloorCeil: FLOOR/CEIL(x TO unit)
  kTrim,             // Trim
  kTimeUnit,         // TimeUnitExpr: a bare unit as a function argument (TIMESTAMPADD(HOUR, ...))
  kArrayCtor,        // ArrayCtor: ARRAY[...]
  kMapCtor,          // MapCtor: MAP[k, v, ...]
  kRowCtor,          // RowCtor: ROW(a, b) or (a, b)
  kSubscript,        // Subscript: arr[1], m['k']
  kFieldAccess,      // FieldAccess: (expr).field when the base is not an identifier chain
  kSubquery,         // SubqueryExpr: a scalar subquery
  kExists,           // Exists
  kDescriptor,       // Descriptor: DESCRIPTOR(a, b) in a table function call
  kTableArg,         // TableArg: TABLE t [PARTITION BY ...] in a table function call
};

struct Query;
using QueryPtr = std::unique_ptr<Query>;

struct Expr {
  explicit Expr(ExprKind k) : kind(k) {}
  virtual ~Expr() = default;
  Expr(const Expr&) = delete;
  Expr& operator=(const Expr&) = delete;

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

  const ExprKind kind;
  SourcePos pos;
};
using ExprPtr = std::unique_ptr<Expr>;

enum class LiteralKind : uint8_t {
  kNull,
  kBoolean,       // TRUE / FALSE (bool_value)
  kUnknown,       // UNKNOWN (a BOOLEAN NULL)
  kExactNumeric,  // 42, 1.5: `text` as written; no '.' means integer (INT/BIGINT/DECIMAL by size)
  kApproxNumeric, // 1.5E3: a DOUBLE
  kString,        // 'it''s': `text` is the value with quotes undone
  kBinary,        // X'0aFF': `text` is the hex digits
  kDate,          // DATE '2024-01-01': `text` is the quoted part
  kTime,          // TIME '12:00:00'
  kTimestamp,     // TIMESTAMP '2024-01-01 12:00:00'
  kTimestampLtz,  // TIMESTAMP_LTZ '2024-01-01 12:00:00'
};

struct Literal : Expr {
  static constexpr ExprKind kKind = ExprKind::kLiteral;
  Literal() : Expr(kKind) {}
  LiteralKind literal_kind = LiteralKind::kNull;
  std::string text;
  bool bool_value = false;
};

// INTERVAL '1 02:00:00' DAY TO SECOND, INTERVAL '5' SECOND(3), INTERVAL -'1' HOUR.
struct IntervalLiteral : Expr {
  static constexpr ExprKind kKind = ExprKind::kIntervalLiteral;
  IntervalLiteral() : Expr(kKind) {}
  bool negative = false;  // a '-' written before the quoted value (INTERVAL -'1' HOUR)
  std::string text;       // the quoted value, e.g. "1 02:00:00" or "-1"
  TimeUnit start_unit = TimeUnit::kSecond;
  std::optional<TimeUnit> end_unit;  // set for X TO Y
  int start_precision = -1;          // DAY(3), SECOND(3): 3; -1 when not written
  int fraction_precision = -1;       // SECOND(p, 3) or TO SECOND(3): 3; -1 when not written
};

struct Identifier : Expr {
  static constexpr ExprKind kKind = ExprKind::kIdentifier;
  Identifier() : Expr(kKind) {}
  Name parts;  // at least one
};

struct Star : Expr {
  static constexpr ExprKind kKind = ExprKind::kStar;
  Star() : Expr(kKind) {}
  Name qualifier;  // empty for a bare *
};

enum class UnaryOp : uint8_t { kNot, kMinus, kPlus };

struct Unary : Expr {
  static constexpr ExprKind kKind = ExprKind::kUnary;
  Unary() : Expr(kKind) {}
  UnaryOp op = UnaryOp::kNot;
  ExprPtr operand;
};

enum class BinaryOp : uint8_t {
  kOr,
  kAnd,
  kEq,
  kNe,  // <> and !=
  kLt,
  kLe,
  kGt,
  kGe,
  kAdd,
  kSub,
  kMul,
  kDiv,
  kMod,     // %
  kConcat,  // ||
};
// The operator's SQL spelling ("AND", "<>", "||", ...).
const char* BinaryOpName(BinaryOp op);

struct Binary : Expr {
  static constexpr ExprKind kKind = ExprKind::kBinary;
  Binary() : Expr(kKind) {}
  BinaryOp op = BinaryOp::kAnd;
  ExprPtr left;
  ExprPtr right;
};

enum class IsKind : uint8_t { kNull, kTrue, kFalse, kUnknown };

struct IsExpr : Expr {
  static constexpr ExprKind kKind = ExprKind::kIs;
  IsExpr() : Expr(kKind) {}
  IsKind is_kind = IsKind::kNull;
  bool negated = false;  // IS NOT ...
  ExprPtr operand;
};

struct IsDistinctFrom : Expr {
  static constexpr ExprKind kKind = ExprKind::kIsDistinctFrom;
  IsDistinctFrom() : Expr(kKind) {}
  bool negated = false;  // IS NOT DISTINCT FROM
  ExprPtr left;
  ExprPtr right;
};

struct Between : Expr {
  static constexpr ExprKind kKind = ExprKind::kBetween;
  Between() : Expr(kKind) {}
  bool negated = false;
  bool symmetric = false;
  ExprPtr operand;
  ExprPtr low;
  ExprPtr high;
};

// x [NOT] IN (a, b, ...) or x [NOT] IN (subquery); exactly one of `list` and `subquery` is set.
struct In : Expr {
  static constexpr ExprKind kKind = ExprKind::kIn;
  In() : Expr(kKind) {}
  bool negated = false;
  ExprPtr operand;
  std::vector<ExprPtr> list;
  QueryPtr subquery;
};

struct Like : Expr {
  static constexpr ExprKind kKind = ExprKind::kLike;
  Like() : Expr(kKind) {}
  bool negated = false;
  bool similar = false;  // SIMILAR TO instead of LIKE
  ExprPtr operand;
  ExprPtr pattern;
  ExprPtr escape;  // null when no ESCAPE
};

struct OrderItem {
  enum class Nulls : uint8_t { kDefault, kFirst, kLast };
  SourcePos pos;
  ExprPtr expr;
  bool descending = false;
  Nulls nulls = Nulls::kDefault;
};

// One end of a ROWS/RANGE frame.
struct FrameBound {
  enum class Kind : uint8_t { kUnboundedPreceding, kPreceding, kCurrentRow, kFollowing, kUnboundedFollowing };
  Kind kind = Kind::kCurrentRow;
  ExprPtr offset;  // for kPreceding / kFollowing
};

// OVER (...) or a WINDOW clause definition.
struct WindowSpec {
  enum class FrameUnit : uint8_t { kNone, kRows, kRange };
  SourcePos pos;
  std::string base_window;  // OVER (w ORDER BY ...): the named window it extends; empty if none
  std::vector<ExprPtr> partition_by;
  std::vector<OrderItem> order_by;
  FrameUnit frame_unit = FrameUnit::kNone;
  FrameBound frame_start;
  std::optional<FrameBound> frame_end;  // unset for "ROWS <start>" without BETWEEN
};

struct Call : Expr {
  static constexpr ExprKind kKind = ExprKind::kCall;
  Call() : Expr(kKind) {}
  Name name;                   // as written; may be qualified (`cat`.`db`.fn)
  std::vector<ExprPtr> args;
  // Named arguments (DATA => TABLE t): one entry per arg, empty string for a positional one. Empty
  // vector when no argument is named.
  std::vector<std::string> arg_names;
  bool distinct = false;       // agg(DISTINCT x)
  bool star = false;           // COUNT(*): args is empty
  bool no_parens = false;      // CURRENT_TIMESTAMP and friends written without ()
  ExprPtr filter;              // agg(x) FILTER (WHERE cond)
  std::unique_ptr<WindowSpec> over;  // OVER (...)
  std::string over_window;     // OVER w (a WINDOW clause name); empty if none
};

struct Cast : Expr {
  static constexpr ExprKind kKind = ExprKind::kCast;
  Cast() : Expr(kKind) {}
  bool try_cast = false;
  ExprPtr operand;
  LogicalType type;
};

struct Case : Expr {
  static constexpr ExprKind kKind = ExprKind::kCase;
  Case() : Expr(kKind) {}
  ExprPtr operand;  // CASE x WHEN ...; null for a searched CASE
  std::vector<std::pair<ExprPtr, ExprPtr>> when_then;
  ExprPtr else_expr;  // null when no ELSE
};

struct Extract : Expr {
  static constexpr ExprKind kKind = ExprKind::kExtract;
  Extract() : Expr(kKind) {}
  TimeUnit unit = TimeUnit::kYear;
  ExprPtr operand;
};

// FLOOR(x TO unit) / CEIL(x TO unit). FLOOR(x) without TO is a plain Call.
struct FloorCeil : Expr {
  static constexpr ExprKind kKind = ExprKind::kFloorCeil;
  FloorCeil() : Expr(kKind) {}
  bool ceil = false;
  ExprPtr operand;
  TimeUnit unit = TimeUnit::kDay;
};

// TRIM([BOTH|LEADING|TRAILING] [chars] FROM s) and TRIM(s).
struct Trim : Expr {
  static constexpr ExprKind kKind = ExprKind::kTrim;
  enum class Mode : uint8_t { kBoth, kLeading, kTrailing };
  Trim() : Expr(kKind) {}
  Mode mode = Mode::kBoth;
  ExprPtr chars;  // null: a single space
  ExprPtr operand;
};

struct TimeUnitExpr : Expr {
  static constexpr ExprKind kKind = ExprKind::kTimeUnit;
  TimeUnitExpr() : Expr(kKind) {}
  TimeUnit unit = TimeUnit::kDay;
};

struct ArrayCtor : Expr {
  static constexpr ExprKind kKind = ExprKind::kArrayCtor;
  ArrayCtor() : Expr(kKind) {}
  std::vector<ExprPtr> elements;
};

// MAP[k1, v1, k2, v2]: keys at even positions, values at odd.
struct MapCtor : Expr {
  static constexpr ExprKind kKind = ExprKind::kMapCtor;
  MapCtor() : Expr(kKind) {}
  std::vector<ExprPtr> elements;
};

// ROW(a, b) (explicit) or (a, b) (implicit, two or more fields).
struct RowCtor : Expr {
  static constexpr ExprKind kKind = ExprKind::kRowCtor;
  RowCtor() : Expr(kKind) {}
  bool explicit_row = false;
  std::vector<ExprPtr> fields;
};

struct Subscript : Expr {
  static constexpr ExprKind kKind = ExprKind::kSubscript;
  Subscript() : Expr(kKind) {}
  ExprPtr base;
  ExprPtr index;
};

struct FieldAccess : Expr {
  static constexpr ExprKind kKind = ExprKind::kFieldAccess;
  FieldAccess() : Expr(kKind) {}
  ExprPtr base;
  std::string field;
};

struct SubqueryExpr : Expr {
  static constexpr ExprKind kKind = ExprKind::kSubquery;
  SubqueryExpr() : Expr(kKind) {}
  QueryPtr query;
};

struct Exists : Expr {
  static constexpr ExprKind kKind = ExprKind::kExists;
  Exists() : Expr(kKind) {}
  QueryPtr query;
};

struct Descriptor : Expr {
  static constexpr ExprKind kKind = ExprKind::kDescriptor;
  Descriptor() : Expr(kKind) {}
  std::vector<std::string> columns;
};

// TABLE t [PARTITION BY k, ...] as a table function argument (window TVFs, SESSION).
struct TableArg : Expr {
  static constexpr ExprKind kKind = ExprKind::kTableArg;
  TableArg() : Expr(kKind) {}
  Name table;
  std::vector<ExprPtr> partition_by;
};

// ---------------------------------------------------------------------------------------------
// Table references (FROM)

enum class TableRefKind : uint8_t {
  kTable,          // TableName
  kSubquery,       // SubqueryRef: (query), also (VALUES ...), [LATERAL] (query)
  kJoin,           // Join
  kTableFunction,  // TableFunctionRef: [LATERAL] TABLE(fn(...)), incl. window TVFs
  kUnnest,         // Unnest
};

struct TableRef {
  explicit TableRef(TableRefKind k) : kind(k) {}
  virtual ~TableRef() = default;
  TableRef(const TableRef&) = delete;
  TableRef& operator=(const TableRef&) = delete;

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

  const TableRefKind kind;
  SourcePos pos;
  std::string alias;                        // empty when none
  std::vector<std::string> column_aliases;  // AS t(a, b)
};
using TableRefPtr = std::unique_ptr<TableRef>;

struct TableName : TableRef {
  static constexpr TableRefKind kKind = TableRefKind::kTable;
  TableName() : TableRef(kKind) {}
  Name name;
  std::vector<Hint> hints;  // /*+ OPTIONS('k'='v') */
  ExprPtr for_system_time;  // FOR SYSTEM_TIME AS OF expr; null when absent
};

struct SubqueryRef : TableRef {
  static constexpr TableRefKind kKind = TableRefKind::kSubquery;
  SubqueryRef() : TableRef(kKind) {}
  bool lateral = false;
  QueryPtr query;
};

enum class JoinType : uint8_t { kInner, kLeft, kRight, kFull, kCross, kComma };

struct Join : TableRef {
  static constexpr TableRefKind kKind = TableRefKind::kJoin;
  Join() : TableRef(kKind) {}
  JoinType join_type = JoinType::kInner;
  bool natural = false;
  TableRefPtr left;
  TableRefPtr right;
  ExprPtr on;                              // null for CROSS, comma, USING, NATURAL
  std::vector<std::string> using_columns;  // USING (a, b)
};

struct TableFunctionRef : TableRef {
  static constexpr TableRefKind kKind = TableRefKind::kTableFunction;
  TableFunctionRef() : TableRef(kKind) {}
  bool lateral = false;
  ExprPtr call;  // a Call
};

struct Unnest : TableRef {
  static constexpr TableRefKind kKind = TableRefKind::kUnnest;
  Unnest() : TableRef(kKind) {}
  std::vector<ExprPtr> args;
  bool with_ordinality = false;
};

// ---------------------------------------------------------------------------------------------
// Queries

enum class QueryKind : uint8_t {
  kSelect,  // Select
  kSetOp,   // SetOp: UNION / INTERSECT / EXCEPT
  kValues,  // Values
};

// WITH name [(cols)] AS (query)
struct Cte {
  SourcePos pos;
  std::string name;
  std::vector<std::string> columns;
  QueryPtr query;
};

struct Query {
  explicit Query(QueryKind k) : kind(k) {}
  virtual ~Query() = default;
  Query(const Query&) = delete;
  Query& operator=(const Query&) = delete;

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

  const QueryKind kind;
  SourcePos pos;
  // Clauses that wrap any query body: WITH before it, ORDER BY / LIMIT / OFFSET / FETCH after it.
  std::vector<Cte> with;
  std::vector<OrderItem> order_by;
  ExprPtr limit;   // LIMIT n or FETCH FIRST n ROWS ONLY; null when absent
  ExprPtr offset;  // OFFSET n [ROWS]; null when absent
};

struct SelectItem {
  SourcePos pos;
  ExprPtr expr;       // may be a Star
  std::string alias;  // empty when none
};

// One element of GROUP BY.
struct GroupingElement {
  enum class Kind : uint8_t { kExpr, kEmpty, kGroupingSets, kRollup, kCube };
  SourcePos pos;
  Kind kind = Kind::kExpr;
  ExprPtr expr;                           // kExpr (a RowCtor for a parenthesized tuple)
  std::vector<GroupingElement> elements;  // kGroupingSets, kRollup, kCube
};

struct NamedWindow {
  SourcePos pos;
  std::string name;
  std::unique_ptr<WindowSpec> spec;
};

struct Select : Query {
  static constexpr QueryKind kKind = QueryKind::kSelect;
  Select() : Query(kKind) {}
  std::vector<Hint> hints;  // SELECT /*+ ... */
  bool distinct = false;
  std::vector<SelectItem> items;
  TableRefPtr from;  // null for SELECT without FROM
  ExprPtr where;
  std::vector<GroupingElement> group_by;
  ExprPtr having;
  std::vector<NamedWindow> windows;
};

enum class SetOpKind : uint8_t { kUnion, kIntersect, kExcept };

struct SetOp : Query {
  static constexpr QueryKind kKind = QueryKind::kSetOp;
  SetOp() : Query(kKind) {}
  SetOpKind op = SetOpKind::kUnion;
  bool all = false;
  QueryPtr left;
  QueryPtr right;
};

struct Values : Query {
  static constexpr QueryKind kKind = QueryKind::kValues;
  Values() : Query(kKind) {}
  std::vector<std::vector<ExprPtr>> rows;
};

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
  bool primary_key = false;                 // column-level PRIMARY KEY NOT ENFORCED
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

// LIKE source_table (INCLUDING ALL, EXCLUDING OPTIONS, ...).
struct LikeClause {
  enum class Strategy : uint8_t { kIncluding, kExcluding, kOverwriting };
  enum class Feature : uint8_t { kAll, kConstraints, kGenerated, kMetadata, kOptions, kPartitions, kWatermarks };
  SourcePos pos;
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

// ALTER TABLE [IF EXISTS] t SET ('k' = 'v', ...) | RESET ('k', ...): changes a table's WITH options.
struct AlterTable : Statement {
  static constexpr StatementKind kKind = StatementKind::kAlterTable;
  AlterTable() : Statement(kKind) {}
  Name name;
  bool if_exists = false;
  PropertyList set_options;         // SET
  std::vector<std::string> reset_keys;  // RESET
};

// CREATE CATALOG [IF NOT EXISTS] name WITH ('type' = '...', ...)
struct CreateCatalog : Statement {
  static constexpr StatementKind kKind = StatementKind::kCreateCatalog;
  CreateCatalog() : Statement(kKind) {}
  std::string name;
  bool if_not_exists = false;
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

struct ShowCreate : Statement {
  static constexpr StatementKind kKind = StatementKind::kShowCreate;
  ShowCreate() : Statement(kKind) {}
  ObjectKind object = ObjectKind::kTable;
  Name name;
};

struct Describe : Statement {
  static constexpr StatementKind kKind = StatementKind::kDescribe;
  Describe() : Statement(kKind) {}
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
