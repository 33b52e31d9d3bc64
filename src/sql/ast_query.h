// The query nodes of the syntax tree (ast.h): table references (FROM) and queries (SELECT, set
// operations, VALUES, WITH, ORDER BY and LIMIT).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "sql/ast_expr.h"

namespace sluice::ast {

// ---------------------------------------------------------------------------------------------
// Table references (FROM)

enum class TableRefKind : uint8_t {
  kTable,          // TableName
  kSubquery,       // SubqueryRef: (query), also (VALUES ...), [LATERAL] (query)
  kJoin,           // Join
  kTableFunction,  // TableFunctionRef: [LATERAL] TABLE(fn(...)), incl. window TVFs
  kUnnest,         // Unnest
  kMatchRecognize, // MatchRecognize: input MATCH_RECOGNIZE (...)
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

// A row pattern of MATCH_RECOGNIZE: a variable, a concatenation, an alternation (|) or a group, each
// with a quantifier (min..max rows, max -1 for no bound; reluctant for *?, +?, ??, {n,m}?).
struct PatternTerm {
  enum class Kind : uint8_t { kVariable, kConcat, kAlternation, kGroup };
  Kind kind = Kind::kVariable;
  SourcePos pos;
  std::string name;                 // kVariable
  std::vector<PatternTerm> terms;   // kConcat, kAlternation, kGroup (one term)
  bool quantified = false;          // a quantifier was written
  int64_t min = 1;
  int64_t max = 1;                  // -1: no upper bound
  bool reluctant = false;
};

// input MATCH_RECOGNIZE (PARTITION BY ... ORDER BY ... MEASURES ... ONE ROW PER MATCH AFTER MATCH SKIP
// ... PATTERN (...) [WITHIN INTERVAL ...] DEFINE ...) [AS alias].
struct MatchRecognize : TableRef {
  static constexpr TableRefKind kKind = TableRefKind::kMatchRecognize;
  MatchRecognize() : TableRef(kKind) {}
  enum class Skip : uint8_t { kPastLastRow, kToNextRow, kToFirst, kToLast };
  TableRefPtr input;
  std::vector<ExprPtr> partition_by;
  std::vector<OrderItem> order_by;
  struct Measure {
    SourcePos pos;
    ExprPtr expr;
    std::string alias;
    bool running = false;  // written RUNNING expr (refused by the binder, as Flink does); FINAL is the default
  };
  std::vector<Measure> measures;
  bool all_rows = false;      // ALL ROWS PER MATCH (refused by the binder, as Flink does)
  Skip skip = Skip::kToNextRow;  // Calcite's default when AFTER MATCH is absent
  std::string skip_variable;  // kToFirst / kToLast
  SourcePos skip_pos;
  PatternTerm pattern;
  ExprPtr within;             // an interval literal, null when absent
  struct Definition {
    SourcePos pos;
    std::string variable;
    ExprPtr condition;
  };
  std::vector<Definition> define;
  // SUBSET name = (variable, ...): a union of pattern variables, usable in MEASURES.
  struct Subset {
    SourcePos pos;
    std::string name;
    std::vector<std::string> variables;
    std::vector<SourcePos> variable_pos;
  };
  std::vector<Subset> subsets;
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

}  // namespace sluice::ast
