// The expression nodes of the syntax tree (ast.h), with what they share with the rest of the tree:
// source positions, names, option lists, time units and hints. A subquery inside an expression
// (IN, EXISTS, a scalar subquery) points to a Query of ast_query.h, declared here only.
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
  In();
  ~In() override;  // out of line (ast.cc), where Query is complete
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
  SubqueryExpr();
  ~SubqueryExpr() override;  // out of line (ast.cc), where Query is complete
  QueryPtr query;
};

struct Exists : Expr {
  static constexpr ExprKind kKind = ExprKind::kExists;
  Exists();
  ~Exists() override;  // out of line (ast.cc), where Query is complete
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

}  // namespace sluice::ast
