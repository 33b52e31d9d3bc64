// The words Flink 2.2.1's SQL parser reserves (see lexer.h). Calcite's parser, as Flink configures it
// (FlinkSqlParserImpl), reserves every keyword of its grammar that is not listed among its non-reserved
// keywords: SQL:2016's reserved words, Calcite's own (GROUP_CONCAT, QUALIFY, ...) and Flink's
// (WATERMARK, STRING, BYTES, ...). The list was read from Flink 2.2.1's parser (its metadata's reserved
// words: `SqlAbstractParserImpl.Metadata.isReservedWord`) and checked word by word: each is refused
// unquoted as an alias, after a dot and as a column of CREATE TABLE, and no other keyword is. Flink's
// documentation ("Reserved Keywords") lists many non-reserved keywords too; this is the parser's list.
#include <cctype>
#include <set>
#include <string>
#include <string_view>

#include "sql/lexer.h"

namespace sluice::sql {

namespace {

std::string UpperWord(std::string_view word) {
  std::string upper(word);
  for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return upper;
}

const std::set<std::string>& FlinkReservedWords() {
  static const std::set<std::string> kWords = {
      "ABS", "ALL", "ALLOCATE", "ALLOW", "ALTER", "AND", "ANY", "ARE", "ARRAY", "ARRAY_CONCAT_AGG",
      "ARRAY_MAX_CARDINALITY", "AS", "ASENSITIVE", "ASYMMETRIC", "AT", "ATOMIC", "AUTHORIZATION", "AVG",
      "BEGIN", "BEGIN_FRAME", "BEGIN_PARTITION", "BETWEEN", "BIGINT", "BINARY", "BIT", "BLOB", "BOOLEAN",
      "BOTH", "BUCKETS", "BY", "BYTES", "CALL", "CALLED", "CARDINALITY", "CASCADED", "CASE", "CAST",
      "CATALOGS", "CEIL", "CEILING", "CHAR", "CHARACTER", "CHARACTER_LENGTH", "CHAR_LENGTH", "CHECK",
      "CLASSIFIER", "CLOB", "CLOSE", "COALESCE", "COLLATE", "COLLECT", "COLUMN", "COMMENT", "COMMIT",
      "CONDITION", "CONNECT", "CONSTRAINT", "CONTAINS", "CONTAINS_SUBSTR", "CONTINUOUS", "CONVERT", "CORR",
      "CORRESPONDING", "COUNT", "COVAR_POP", "COVAR_SAMP", "CREATE", "CROSS", "CUBE", "CUME_DIST", "CURRENT",
      "CURRENT_CATALOG", "CURRENT_DATE", "CURRENT_DEFAULT_TRANSFORM_GROUP", "CURRENT_PATH", "CURRENT_ROLE",
      "CURRENT_ROW", "CURRENT_SCHEMA", "CURRENT_TIME", "CURRENT_TIMESTAMP",
      "CURRENT_TRANSFORM_GROUP_FOR_TYPE", "CURRENT_USER", "CURSOR", "CYCLE", "DATABASES", "DATE", "DATETIME",
      "DATETIME_TRUNC", "DATE_TRUNC", "DAY", "DEALLOCATE", "DEC", "DECIMAL", "DECLARE", "DEFAULT", "DEFINE",
      "DELETE", "DENSE_RANK", "DEREF", "DESCRIBE", "DETERMINISTIC", "DISALLOW", "DISCONNECT", "DISTINCT",
      "DISTRIBUTED", "DISTRIBUTION", "DOT", "DOUBLE", "DROP", "DYNAMIC", "EACH", "ELEMENT", "ELSE", "EMPTY",
      "END", "END_FRAME", "END_PARTITION", "EQUALS", "ESCAPE", "EVERY", "EXCEPT", "EXEC", "EXECUTE",
      "EXISTS", "EXP", "EXPLAIN", "EXTEND", "EXTENDED", "EXTERNAL", "EXTRACT", "FALSE", "FETCH", "FILTER",
      "FIRST_VALUE", "FLOAT", "FLOOR", "FOR", "FOREIGN", "FRAME_ROW", "FREE", "FRESHNESS", "FRIDAY", "FROM",
      "FULL", "FUNCTION", "FUNCTIONS", "FUSION", "GET", "GLOBAL", "GRANT", "GROUP", "GROUPING", "GROUPS",
      "GROUP_CONCAT", "HASH", "HAVING", "HOLD", "HOUR", "IDENTITY", "ILIKE", "IMPORT", "IN", "INCLUDE",
      "INDICATOR", "INITIAL", "INNER", "INOUT", "INSENSITIVE", "INSERT", "INT", "INTEGER", "INTERSECT",
      "INTERSECTION", "INTERVAL", "INTO", "IS", "JOIN", "JSON_ARRAY", "JSON_ARRAYAGG", "JSON_EXISTS",
      "JSON_OBJECT", "JSON_OBJECTAGG", "JSON_QUERY", "JSON_SCOPE", "JSON_VALUE", "LAG", "LANGUAGE", "LARGE",
      "LAST_VALUE", "LATERAL", "LEAD", "LEADING", "LEFT", "LIKE", "LIKE_REGEX", "LIMIT", "LN", "LOCAL",
      "LOCALTIME", "LOCALTIMESTAMP", "LOWER", "MATCH", "MATCHES", "MATCH_NUMBER", "MATCH_RECOGNIZE",
      "MATERIALIZED", "MAX", "MEASURES", "MEMBER", "MERGE", "METHOD", "MIN", "MINUS", "MINUTE", "MOD",
      "MODELS", "MODIFIES", "MODIFY", "MODULE", "MODULES", "MONDAY", "MONTH", "MULTISET", "NATIONAL",
      "NATURAL", "NCHAR", "NCLOB", "NEW", "NEXT", "NO", "NONE", "NORMALIZE", "NOT", "NTH_VALUE", "NTILE",
      "NULL", "NULLIF", "NUMERIC", "OCCURRENCES_REGEX", "OCTET_LENGTH", "OF", "OFFSET", "OLD", "OMIT", "ON",
      "ONE", "ONLY", "OPEN", "OR", "ORDER", "ORDINAL", "OUT", "OUTER", "OVER", "OVERLAPS", "OVERLAY",
      "PARAMETER", "PARTITION", "PATTERN", "PER", "PERCENT", "PERCENTILE_CONT", "PERCENTILE_DISC",
      "PERCENT_RANK", "PERIOD", "PERMUTE", "PIVOT", "PORTION", "POSITION", "POSITION_REGEX", "POWER",
      "PRECEDES", "PRECISION", "PREPARE", "PREV", "PRIMARY", "PROCEDURE", "PROCEDURES", "QUALIFY",
      "QUARTERS", "RANGE", "RANK", "RAW", "READS", "REAL", "RECURSIVE", "REF", "REFERENCES", "REFERENCING",
      "REFRESH", "REFRESH_MODE", "REGR_AVGX", "REGR_AVGY", "REGR_COUNT", "REGR_INTERCEPT", "REGR_R2",
      "REGR_SLOPE", "REGR_SXX", "REGR_SXY", "REGR_SYY", "RELEASE", "RENAME", "RESET", "RESULT", "RESUME",
      "RETURN", "RETURNS", "REVOKE", "RIGHT", "RLIKE", "ROLLBACK", "ROLLUP", "ROW", "ROWS", "ROW_NUMBER",
      "RUNNING", "SAFE_CAST", "SAFE_OFFSET", "SAFE_ORDINAL", "SATURDAY", "SAVEPOINT", "SCALA", "SCOPE",
      "SCROLL", "SEARCH", "SECOND", "SEEK", "SELECT", "SENSITIVE", "SEPARATOR", "SESSION_USER", "SET",
      "SHOW", "SIMILAR", "SKIP", "SMALLINT", "SOME", "SPECIFIC", "SPECIFICTYPE", "SQL", "SQLEXCEPTION",
      "SQLSTATE", "SQLWARNING", "SQRT", "START", "STATEMENT", "STATIC", "STDDEV_POP", "STDDEV_SAMP",
      "STREAM", "STRING", "STRING_AGG", "STRUCTURED", "SUBMULTISET", "SUBSET", "SUBSTRING",
      "SUBSTRING_REGEX", "SUCCEEDS", "SUM", "SUNDAY", "SUSPEND", "SYMMETRIC", "SYSTEM", "SYSTEM_TIME",
      "SYSTEM_USER", "TABLE", "TABLES", "TABLESAMPLE", "THEN", "THURSDAY", "TIME", "TIMESTAMP",
      "TIMESTAMP_DIFF", "TIMESTAMP_LTZ", "TIMESTAMP_TRUNC", "TIMEZONE_HOUR", "TIMEZONE_MINUTE", "TIME_DIFF",
      "TIME_TRUNC", "TINYINT", "TO", "TRAILING", "TRANSLATE", "TRANSLATE_REGEX", "TRANSLATION", "TREAT",
      "TRIGGER", "TRIM", "TRIM_ARRAY", "TRUE", "TRUNCATE", "TRY_CAST", "TUESDAY", "UESCAPE", "UNION",
      "UNIQUE", "UNKNOWN", "UNNEST", "UNPIVOT", "UPDATE", "UPPER", "UPSERT", "USE", "USER", "USING", "VALUE",
      "VALUES", "VALUE_OF", "VARBINARY", "VARCHAR", "VARIANT", "VARYING", "VAR_POP", "VAR_SAMP",
      "VERSIONING", "VIEWS", "WATERMARK", "WATERMARKS", "WEDNESDAY", "WEEKS", "WHEN", "WHENEVER", "WHERE",
      "WIDTH_BUCKET", "WINDOW", "WITH", "WITHIN", "WITHOUT", "YEAR",
  };
  return kWords;
}

// Reserved words Flink's parser reports together with the next token when one starts an expression
// (`SELECT count FROM t`: Encountered "count FROM"): its grammar looks two tokens ahead there, for a
// function call, a literal (DATE '...') or a special form (EXTRACT, CAST, ...).
const std::set<std::string>& TwoTokenWords() {
  static const std::set<std::string> kWords = {
      "ABS", "ARRAY", "ARRAY_CONCAT_AGG", "AVG", "CARDINALITY", "CAST", "CEIL", "CEILING", "CHAR",
      "CHARACTER_LENGTH", "CHAR_LENGTH", "CLASSIFIER", "COALESCE", "COLLECT", "CONTAINS_SUBSTR", "CONVERT",
      "COUNT", "COVAR_POP", "COVAR_SAMP", "CUME_DIST", "CURRENT", "DATE", "DATETIME", "DATETIME_TRUNC",
      "DATE_TRUNC", "DECIMAL", "DENSE_RANK", "ELEMENT", "EVERY", "EXP", "EXTRACT", "FIRST_VALUE", "FLOOR",
      "FUSION", "GROUPING", "GROUP_CONCAT", "HOUR", "INTERSECTION", "INTERVAL", "JSON_ARRAY",
      "JSON_ARRAYAGG", "JSON_EXISTS", "JSON_OBJECT", "JSON_OBJECTAGG", "JSON_QUERY", "JSON_VALUE", "LAG",
      "LAST_VALUE", "LEAD", "LEFT", "LN", "LOWER", "MATCH_NUMBER", "MAX", "MIN", "MINUTE", "MOD", "MONTH",
      "MULTISET", "NEW", "NEXT", "NTH_VALUE", "NTILE", "NULLIF", "OCTET_LENGTH", "OVERLAY",
      "PERCENTILE_CONT", "PERCENTILE_DISC", "PERCENT_RANK", "PERIOD", "POSITION", "POWER", "PREV", "RANK",
      "REGR_COUNT", "REGR_SXX", "REGR_SYY", "RIGHT", "ROW_NUMBER", "RUNNING", "SAFE_CAST", "SECOND", "SOME",
      "SPECIFIC", "SQRT", "STDDEV_POP", "STDDEV_SAMP", "STRING_AGG", "SUBSTRING", "SUM", "TIME", "TIMESTAMP",
      "TIMESTAMP_DIFF", "TIMESTAMP_TRUNC", "TIME_DIFF", "TIME_TRUNC", "TRANSLATE", "TRIM", "TRUNCATE",
      "TRY_CAST", "UPPER", "VAR_POP", "VAR_SAMP", "YEAR",
  };
  return kWords;
}

// Reserved words Flink's parser takes as a whole expression (context variables, literals): `SELECT user
// FROM t` parses there.
const std::set<std::string>& ExpressionWords() {
  static const std::set<std::string> kWords = {
      "CURRENT_CATALOG", "CURRENT_DATE", "CURRENT_DEFAULT_TRANSFORM_GROUP", "CURRENT_PATH", "CURRENT_ROLE",
      "CURRENT_SCHEMA", "CURRENT_TIME", "CURRENT_TIMESTAMP", "CURRENT_USER", "FALSE", "LOCALTIME",
      "LOCALTIMESTAMP", "NULL", "SESSION_USER", "SYSTEM_USER", "TRUE", "UNKNOWN", "USER",
  };
  return kWords;
}

}  // namespace

bool FlinkParsesAsExpression(std::string_view word) { return ExpressionWords().count(UpperWord(word)) != 0; }

bool IsFlinkReservedWord(std::string_view word) { return FlinkReservedWords().count(UpperWord(word)) != 0; }

bool FlinkReportsNextToken(std::string_view word) { return TwoTokenWords().count(UpperWord(word)) != 0; }

}  // namespace sluice::sql
