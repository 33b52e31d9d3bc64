// Names of the AST's enums (see ast.h), and the constructors and destructors of the expression nodes
// that own a Query (ast_expr.h declares Query only).
#include "sql/ast.h"

namespace sluice::ast {

In::In() : Expr(kKind) {}
In::~In() = default;
SubqueryExpr::SubqueryExpr() : Expr(kKind) {}
SubqueryExpr::~SubqueryExpr() = default;
Exists::Exists() : Expr(kKind) {}
Exists::~Exists() = default;

const char* TimeUnitName(TimeUnit unit) {
  switch (unit) {
    case TimeUnit::kYear: return "YEAR";
    case TimeUnit::kQuarter: return "QUARTER";
    case TimeUnit::kMonth: return "MONTH";
    case TimeUnit::kWeek: return "WEEK";
    case TimeUnit::kDay: return "DAY";
    case TimeUnit::kHour: return "HOUR";
    case TimeUnit::kMinute: return "MINUTE";
    case TimeUnit::kSecond: return "SECOND";
    case TimeUnit::kMillisecond: return "MILLISECOND";
    case TimeUnit::kMicrosecond: return "MICROSECOND";
    case TimeUnit::kNanosecond: return "NANOSECOND";
    case TimeUnit::kDow: return "DOW";
    case TimeUnit::kDoy: return "DOY";
    case TimeUnit::kIsoDow: return "ISODOW";
    case TimeUnit::kIsoYear: return "ISOYEAR";
    case TimeUnit::kEpoch: return "EPOCH";
    case TimeUnit::kDecade: return "DECADE";
    case TimeUnit::kCentury: return "CENTURY";
    case TimeUnit::kMillennium: return "MILLENNIUM";
  }
  SLUICE_UNREACHABLE();
}

const char* BinaryOpName(BinaryOp op) {
  switch (op) {
    case BinaryOp::kOr: return "OR";
    case BinaryOp::kAnd: return "AND";
    case BinaryOp::kEq: return "=";
    case BinaryOp::kNe: return "<>";
    case BinaryOp::kLt: return "<";
    case BinaryOp::kLe: return "<=";
    case BinaryOp::kGt: return ">";
    case BinaryOp::kGe: return ">=";
    case BinaryOp::kAdd: return "+";
    case BinaryOp::kSub: return "-";
    case BinaryOp::kMul: return "*";
    case BinaryOp::kDiv: return "/";
    case BinaryOp::kMod: return "%";
    case BinaryOp::kConcat: return "||";
  }
  SLUICE_UNREACHABLE();
}

}  // namespace sluice::ast
