#include "function/function_registry.h"

#include <algorithm>
#include <cctype>

#include "common/check.h"
#include "common/config.h"
#include "function/kernel_util.h"
#include "function/scalar_function.h"
#include "types/value.h"

namespace sluice {

namespace fn {

namespace {
struct Pow10Table {
  __int128 v[39];
  constexpr Pow10Table() : v() {
    v[0] = 1;
    for (int i = 1; i <= 38; ++i) v[i] = v[i - 1] * 10;
  }
};
constexpr Pow10Table kPow10;
}  // namespace

__int128 Pow10(int n) { return kPow10.v[std::clamp(n, 0, 38)]; }

bool Rescale(__int128 v, int from, int to, __int128* out) {
  if (to == from) {
    *out = v;
    return true;
  }
  if (to > from) {
    if (to - from > 38) return false;
    return !__builtin_mul_overflow(v, Pow10(to - from), out);
  }
  int d = from - to;
  if (d > 38) {
    *out = 0;
    return true;
  }
  __int128 p = Pow10(d);
  __int128 q = v / p;
  __int128 r = v % p;
  // HALF_UP: away from zero when the dropped part is at least half.
  if (r < 0) r = -r;
  if (r * 2 >= p) q += v < 0 ? -1 : 1;
  *out = q;
  return true;
}

LogicalType AdjustedDecimal(int precision, int scale) {
  if (precision <= LogicalType::kMaxDecimalPrecision) return LogicalType::Decimal(std::max(precision, 1), scale);
  int int_digits = precision - scale;
  int min_scale = std::min(scale, 6);
  scale = std::max(LogicalType::kMaxDecimalPrecision - int_digits, min_scale);
  return LogicalType::Decimal(LogicalType::kMaxDecimalPrecision, scale);
}

LogicalType ToDecimalType(const LogicalType& t) {
  switch (t.id()) {
    case TypeId::kTinyInt: return LogicalType::Decimal(3, 0).WithNullable(t.nullable());
    case TypeId::kSmallInt: return LogicalType::Decimal(5, 0).WithNullable(t.nullable());
    case TypeId::kInteger: return LogicalType::Decimal(10, 0).WithNullable(t.nullable());
    case TypeId::kBigInt: return LogicalType::Decimal(19, 0).WithNullable(t.nullable());
    default: return t;
  }
}

bool CallInfo::AnyNullable() const {
  for (const auto& t : types) {
    if (t.nullable()) return true;
  }
  return false;
}

void FunctionTable::Add(FunctionFamily f) {
  families_.push_back(std::make_unique<FunctionFamily>(std::move(f)));
  index_.emplace_back(families_.back()->name, families_.back().get());
}

void FunctionTable::Alias(const std::string& alias, const std::string& target) {
  const FunctionFamily* f = Find(target);
  SLUICE_CHECK(f != nullptr);
  auto copy = std::make_unique<FunctionFamily>(*f);
  copy->name = alias;
  for (auto& s : copy->signatures) {
    if (s.compare(0, target.size(), target) == 0) s = alias + s.substr(target.size());
  }
  families_.push_back(std::move(copy));
  index_.emplace_back(alias, families_.back().get());
}

const FunctionFamily* FunctionTable::Find(const std::string& upper_name) const {
  for (const auto& [n, f] : index_) {
    if (n == upper_name) return f;
  }
  return nullptr;
}

std::vector<std::string> FunctionTable::Names(bool user_callable_only) const {
  std::vector<std::string> out;
  for (const auto& [n, f] : index_) {
    if (!user_callable_only || f->user_callable) out.push_back(n);
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::shared_ptr<ScalarFunction> MakeFunction(std::string name, std::vector<LogicalType> args, LogicalType ret,
                                             ScalarKernel kernel, bool deterministic) {
  auto f = std::make_shared<ScalarFunction>();
  f->name = std::move(name);
  f->arg_types = std::move(args);
  f->return_type = std::move(ret);
  f->deterministic = deterministic;
  f->kernel = std::move(kernel);
  return f;
}

bool IsStringType(const LogicalType& t) { return t.IsCharacterString(); }
bool IsIntegerLike(const LogicalType& t) { return t.IsIntegral(); }

int NumericRank(TypeId id) {
  switch (id) {
    case TypeId::kTinyInt: return 1;
    case TypeId::kSmallInt: return 2;
    case TypeId::kInteger: return 3;
    case TypeId::kBigInt: return 4;
    case TypeId::kDecimal: return 5;
    case TypeId::kFloat: return 6;
    case TypeId::kDouble: return 7;
    default: return 0;
  }
}

LogicalType ArithmeticResultType(const LogicalType& a, const LogicalType& b, char op) {
  bool nullable = a.nullable() || b.nullable();
  if (a.IsApproximate() || b.IsApproximate()) {
    bool dbl = a.id() == TypeId::kDouble || b.id() == TypeId::kDouble || a.id() == TypeId::kDecimal ||
               b.id() == TypeId::kDecimal;
    return (dbl ? LogicalType::Double() : LogicalType::Float()).WithNullable(nullable);
  }
  if (a.id() == TypeId::kDecimal || b.id() == TypeId::kDecimal) {
    LogicalType da = ToDecimalType(a), db = ToDecimalType(b);
    int p1 = da.precision(), s1 = da.scale(), p2 = db.precision(), s2 = db.scale();
    LogicalType r;
    switch (op) {
      case '+':
      case '-': {
        int s = std::max(s1, s2);
        r = AdjustedDecimal(std::max(p1 - s1, p2 - s2) + s + 1, s);
        break;
      }
      case '*': r = AdjustedDecimal(p1 + p2 + 1, s1 + s2); break;  // LogicalTypeMerging: p1 + p2 + 1
      case '/': {
        int s = std::max(6, s1 + p2 + 1);
        r = AdjustedDecimal(p1 - s1 + s2 + s, s);
        break;
      }
      default: {  // %
        // FlinkTypeSystem.deriveDecimalModType: two scale-0 operands keep the divisor's type.
        if (s1 == 0 && s2 == 0) return b.WithNullable(nullable).WithTimeAttribute(TimeAttribute::kNone);
        int s = std::max(s1, s2);
        r = AdjustedDecimal(std::min(p1 - s1, p2 - s2) + s, s);
        break;
      }
    }
    return r.WithNullable(nullable);
  }
  // Exact integers: the wider of the two.
  LogicalType w = NumericRank(a.id()) >= NumericRank(b.id()) ? a : b;
  if (op == '%') w = b;  // Calcite: MOD returns the type of the divisor
  return w.WithNullable(nullable).WithTimeAttribute(TimeAttribute::kNone);
}

std::string TypeFamilyName(const LogicalType& t) {
  switch (t.id()) {
    case TypeId::kNull: return "<NULL>";
    case TypeId::kBoolean: return "<BOOLEAN>";
    case TypeId::kTinyInt: return "<TINYINT>";
    case TypeId::kSmallInt: return "<SMALLINT>";
    case TypeId::kInteger: return "<INTEGER>";
    case TypeId::kBigInt: return "<BIGINT>";
    case TypeId::kFloat: return "<FLOAT>";
    case TypeId::kDouble: return "<DOUBLE>";
    case TypeId::kDecimal: return "<DECIMAL>";
    case TypeId::kChar:
    case TypeId::kVarChar: return "<CHARACTER>";
    case TypeId::kBinary:
    case TypeId::kVarBinary: return "<BINARY>";
    case TypeId::kDate: return "<DATE>";
    case TypeId::kTime: return "<TIME>";
    case TypeId::kTimestamp: return "<TIMESTAMP>";
    case TypeId::kTimestampLtz: return "<TIMESTAMP_WITH_LOCAL_TIME_ZONE>";
    case TypeId::kIntervalDayTime: return "<INTERVAL_DAY_TIME>";
    case TypeId::kIntervalYearMonth: return "<INTERVAL_YEAR_MONTH>";
    case TypeId::kArray: return "<ARRAY>";
    case TypeId::kMap: return "<MAP>";
    case TypeId::kMultiset: return "<MULTISET>";
    case TypeId::kRow: return "<ROW>";
  }
  return "<ANY>";
}

namespace {

// Calcite's SqlTypeFamily name of a type.
std::string SqlFamilyName(const LogicalType& t) {
  if (t.IsNumeric()) return "NUMERIC";
  if (t.IsCharacterString()) return "CHARACTER";
  if (t.IsBinaryString()) return "BINARY";
  switch (t.id()) {
    case TypeId::kNull:
      return "NULL";
    case TypeId::kBoolean:
      return "BOOLEAN";
    case TypeId::kDate:
      return "DATE";
    case TypeId::kTime:
      return "TIME";
    case TypeId::kTimestamp:
      return "TIMESTAMP";
    case TypeId::kTimestampLtz:
      return "TIMESTAMP_WITH_LOCAL_TIME_ZONE";
    case TypeId::kIntervalDayTime:
      return "INTERVAL_DAY_TIME";
    case TypeId::kIntervalYearMonth:
      return "INTERVAL_YEAR_MONTH";
    case TypeId::kArray:
      return "ARRAY";
    case TypeId::kMap:
      return "MAP";
    case TypeId::kMultiset:
      return "MULTISET";
    case TypeId::kRow:
      return "ROW";
    default:
      return "ANY";
  }
}

}  // namespace

std::string SqlFamilySignature(const std::string& name, const std::vector<LogicalType>& arg_types) {
  std::string sig = name + "(";
  for (size_t i = 0; i < arg_types.size(); ++i) sig += (i ? ", <" : "<") + SqlFamilyName(arg_types[i]) + ">";
  return sig + ")";
}

bool AsString(const LogicalType& t, LogicalType* cast) {
  if (t.id() == TypeId::kNull) {
    *cast = LogicalType::String();
    return true;
  }
  if (!t.IsCharacterString()) return false;
  *cast = t.WithTimeAttribute(TimeAttribute::kNone);
  return true;
}

bool AsInt(const LogicalType& t, LogicalType* cast) {
  if (t.id() != TypeId::kNull && !t.IsIntegral()) return false;
  *cast = LogicalType::Integer().WithNullable(t.nullable());
  return true;
}

bool AsBigInt(const LogicalType& t, LogicalType* cast) {
  if (t.id() != TypeId::kNull && !t.IsIntegral()) return false;
  *cast = LogicalType::BigInt().WithNullable(t.nullable());
  return true;
}

bool AsDouble(const LogicalType& t, LogicalType* cast) {
  if (t.id() != TypeId::kNull && !t.IsNumeric()) return false;
  *cast = LogicalType::Double().WithNullable(t.nullable());
  return true;
}

bool AsBoolean(const LogicalType& t, LogicalType* cast) {
  if (t.id() != TypeId::kNull && t.id() != TypeId::kBoolean) return false;
  *cast = LogicalType::Boolean().WithNullable(t.nullable());
  return true;
}

std::shared_ptr<ScalarFunction> Simple(const CallInfo& c, const std::vector<Coerce>& sig, const LogicalType& ret,
                                       ScalarKernel kernel, bool may_return_null, bool deterministic) {
  if (c.size() != sig.size()) return nullptr;
  std::vector<LogicalType> casts(sig.size());
  for (size_t i = 0; i < sig.size(); ++i) {
    if (!sig[i](c.type(i), &casts[i])) return nullptr;
  }
  return MakeFunction(c.name, std::move(casts), ret.WithNullable(c.AnyNullable() || may_return_null), std::move(kernel),
                      deterministic);
}

const std::string* ConstantString(const CallInfo& c, size_t i) {
  const Value* v = c.constant(i);
  if (v == nullptr || v->is_null() || !v->type().IsStringLike()) return nullptr;
  return &v->string_value();
}

}  // namespace fn

namespace {

const fn::FunctionTable& Builtins() {
  static const fn::FunctionTable* const kTable = [] {
    auto* t = new fn::FunctionTable();
    fn::RegisterArithmeticFunctions(t);
    fn::RegisterComparisonFunctions(t);
    fn::RegisterStringFunctions(t);
    fn::RegisterMathFunctions(t);
    fn::RegisterTemporalFunctions(t);
    fn::RegisterCollectionFunctions(t);
    fn::RegisterStringExtraFunctions(t);
    fn::RegisterUrlFunctions(t);
    fn::RegisterHashFunctions(t);
    fn::RegisterArrayFunctions(t);
    fn::RegisterCodecFunctions(t);
    fn::RegisterJsonFunctions(t);
    return t;
  }();
  return *kTable;
}

std::string Upper(const std::string& s) {
  std::string u = s;
  for (char& c : u) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return u;
}

}  // namespace

const std::vector<LogicalType>& ResolvedCall::arg_types() const { return function->arg_types; }
LogicalType ResolvedCall::return_type() const { return function->return_type; }
bool ResolvedCall::deterministic() const { return function->deterministic; }

namespace {

// Functions whose result Flink types as nullable for any arguments (SqlTypeTransforms.FORCE_NULLABLE,
// FlinkReturnTypes.VARCHAR_FORCE_NULLABLE / ARG0_VARCHAR_FORCE_NULLABLE in FlinkSqlOperatorTable, and
// forceNullable(...) in BuiltInFunctionDefinitions): they may return NULL for non-NULL input.
bool ForceNullable(const std::string& upper) {
  static const char* const kNames[] = {"SUBSTRING", "SUBSTR",        "LEFT",       "RIGHT",      "CHR",
                                       "REVERSE",   "SPLIT_INDEX",   "REGEXP_EXTRACT", "DATE_FORMAT", "PARSE_URL",
                                       "FROM_UNIXTIME", "TO_TIMESTAMP", "TO_TIMESTAMP_LTZ", "TO_DATE", "CONVERT_TZ",
                                       "JSON_VALUE", "JSON_QUERY"};
  for (const char* n : kNames) {
    if (upper == n) return true;
  }
  return false;
}

}  // namespace

Result<ResolvedCall> ResolveScalar(const std::string& name, const std::vector<LogicalType>& arg_types,
                                   const std::vector<const Value*>& constant_args) {
  std::string upper = Upper(name);
  const fn::FunctionFamily* family = Builtins().Find(upper);
  if (family == nullptr) {
    std::string msg = "No match found for function signature " + fn::SqlFamilySignature(name, arg_types);
    if (IsAggregateFunction(upper)) {
      msg = "Aggregate function " + upper + " is not allowed here.";
    } else if (auto hint = DidYouMean(upper, Builtins().Names(true))) {
      msg += ". Did you mean " + *hint + "?";
    }
    return Status::BindError(msg);
  }
  std::vector<const Value*> constants = constant_args;
  constants.resize(arg_types.size(), nullptr);
  fn::CallInfo info{upper, arg_types, constants};
  ASSIGN_OR_RETURN(std::shared_ptr<ScalarFunction> f, family->resolve(info));
  if (f == nullptr) {
    std::string sig = name + "(";
    for (size_t i = 0; i < arg_types.size(); ++i) sig += (i ? ", " : "") + fn::TypeFamilyName(arg_types[i]);
    sig += ")";
    std::string msg = "No match found for function signature " + sig;
    if (!family->signatures.empty()) {
      msg += "\nSupported signatures are:";
      for (const auto& s : family->signatures) msg += "\n" + s;
    }
    return Status::BindError(msg);
  }
  SLUICE_CHECK_EQ(f->arg_types.size(), arg_types.size());
  if (ForceNullable(upper) && !f->return_type.nullable()) {
    // Flink types these nullable whatever their arguments (FORCE_NULLABLE), so a view's or a CTAS
    // table's column has the type Flink gives it.
    auto copy = std::make_shared<ScalarFunction>(*f);
    copy->return_type = copy->return_type.WithNullable(true);
    f = std::move(copy);
  }
  ResolvedCall r;
  r.function = std::move(f);
  return r;
}

bool IsAggregateFunction(const std::string& name) {
  static const char* const kAggregates[] = {
      "COUNT",       "SUM",        "SUM0",       "$SUM0",          "MIN",          "MAX",
      "AVG",         "FIRST_VALUE", "LAST_VALUE", "LISTAGG",       "COLLECT",      "STDDEV_POP",
      "STDDEV_SAMP", "STDDEV",     "VAR_POP",    "VAR_SAMP",       "VARIANCE",     "RANK",
      "DENSE_RANK",  "ROW_NUMBER", "LEAD",       "LAG",            "CUME_DIST",    "PERCENT_RANK",
      "NTILE",       "JSON_OBJECTAGG", "JSON_ARRAYAGG", "ARRAY_AGG", "BOOL_AND", "BOOL_OR", "SINGLE_VALUE"};
  std::string u = Upper(name);
  for (const char* a : kAggregates) {
    if (u == a) return true;
  }
  return false;
}

bool IsScalarFunction(const std::string& name) { return Builtins().Find(Upper(name)) != nullptr; }

std::vector<std::string> ScalarFunctionNames() { return Builtins().Names(true); }

}  // namespace sluice
