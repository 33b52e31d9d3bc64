// Comparison, logic and null predicates: = <> < <= > >=, IS [NOT] DISTINCT FROM, BETWEEN, IN, NOT,
// IS [NOT] NULL/TRUE/FALSE, IF, NULLIF. Comparisons take both sides cast to their common type
// (cast.h CommonType); strings compare by bytes as Flink's BinaryStringData.
#include <algorithm>
#include <unordered_set>

#include "function/cast.h"
#include "function/evaluator.h"
#include "function/kernel_util.h"
#include "types/value.h"

namespace sluice::fn {

namespace {

enum class CmpOp { kEq, kNe, kLt, kLe, kGt, kGe };

template <typename T>
inline bool Apply(CmpOp op, const T& a, const T& b) {
  switch (op) {
    case CmpOp::kEq: return a == b;
    case CmpOp::kNe: return a != b;
    case CmpOp::kLt: return a < b;
    case CmpOp::kLe: return a <= b;
    case CmpOp::kGt: return a > b;
    case CmpOp::kGe: return a >= b;
  }
  return false;
}

template <typename T, CmpOp kOp>
void CompareLoopT(const Vector& a, const Vector& b, size_t rows, Vector* out) {
  BinaryLoop<T, T, uint8_t>(a, b, rows, out, [](const T& x, const T& y) -> uint8_t { return Apply(kOp, x, y) ? 1 : 0; });
}

template <typename T>
void CompareLoop(CmpOp op, const Vector& a, const Vector& b, size_t rows, Vector* out) {
  switch (op) {
    case CmpOp::kEq: CompareLoopT<T, CmpOp::kEq>(a, b, rows, out); break;
    case CmpOp::kNe: CompareLoopT<T, CmpOp::kNe>(a, b, rows, out); break;
    case CmpOp::kLt: CompareLoopT<T, CmpOp::kLt>(a, b, rows, out); break;
    case CmpOp::kLe: CompareLoopT<T, CmpOp::kLe>(a, b, rows, out); break;
    case CmpOp::kGt: CompareLoopT<T, CmpOp::kGt>(a, b, rows, out); break;
    case CmpOp::kGe: CompareLoopT<T, CmpOp::kGe>(a, b, rows, out); break;
  }
}

// Values of one row of nested vectors compare through boxed Values (rare; never on hot paths).
void CompareNested(CmpOp op, const Vector& a, const Vector& b, size_t rows, Vector* out) {
  const Vector* args[2] = {&a, &b};
  PropagateNulls(args, 2, rows, out);
  uint8_t* od = out->data<uint8_t>();
  for (size_t i = 0; i < rows; ++i) {
    if (a.IsNull(i) || b.IsNull(i)) continue;
    int c = a.GetValue(i).Compare(b.GetValue(i));
    od[i] = Apply(op, c, 0) ? 1 : 0;
  }
}

void CompareVectors(CmpOp op, const Vector& a, const Vector& b, size_t rows, Vector* out) {
  if (a.type().IsNested()) {
    CompareNested(op, a, b, rows, out);
    return;
  }
  if (a.type().id() == TypeId::kNull || b.type().id() == TypeId::kNull) {
    SetAllNull(out, rows);
    return;
  }
  DispatchFixed(a.type().id(), [&](auto tag) {
    using T = decltype(tag);
    CompareLoop<T>(op, a, b, rows, out);
  });
}

// The types both sides of a comparison are cast to; nullopt-like null type when incomparable.
Result<LogicalType> ComparisonType(const LogicalType& a, const LogicalType& b) {
  // Calcite's implicit coercion: a string compared with a number/date/timestamp is read as that type.
  if (a.IsCharacterString() && (b.IsNumeric() || b.IsTemporal() || b.id() == TypeId::kBoolean)) return b;
  if (b.IsCharacterString() && (a.IsNumeric() || a.IsTemporal() || a.id() == TypeId::kBoolean)) return a;
  return CommonType({a, b});
}

std::vector<LogicalType> CastTargets(const std::vector<LogicalType>& types, const LogicalType& common) {
  std::vector<LogicalType> out;
  for (const auto& t : types) {
    out.push_back(common.WithNullable(t.nullable()).WithTimeAttribute(TimeAttribute::kNone));
  }
  return out;
}

Result<std::shared_ptr<ScalarFunction>> ResolveCompare(const CallInfo& c, CmpOp op) {
  if (c.size() != 2) return std::shared_ptr<ScalarFunction>();
  auto common = ComparisonType(c.type(0), c.type(1));
  if (!common.ok()) return std::shared_ptr<ScalarFunction>();
  LogicalType ret = LogicalType::Boolean().WithNullable(c.AnyNullable());
  return MakeFunction(c.name, CastTargets(c.types, *common), ret,
                      [op](EvalContext&, const Vector* const* args, size_t, size_t rows, Vector* out) {
                        CompareVectors(op, *args[0], *args[1], rows, out);
                        return Status::OK();
                      });
}

Result<std::shared_ptr<ScalarFunction>> ResolveDistinct(const CallInfo& c, bool distinct) {
  if (c.size() != 2) return std::shared_ptr<ScalarFunction>();
  auto common = ComparisonType(c.type(0), c.type(1));
  if (!common.ok()) return std::shared_ptr<ScalarFunction>();
  return MakeFunction(c.name, CastTargets(c.types, *common), LogicalType::Boolean().WithNullable(false),
                      [distinct](EvalContext&, const Vector* const* args, size_t, size_t rows, Vector* out) {
                        const Vector& a = *args[0];
                        const Vector& b = *args[1];
                        Vector eq(LogicalType::Boolean(), rows);
                        CompareVectors(CmpOp::kEq, a, b, rows, &eq);
                        uint8_t* od = out->data<uint8_t>();
                        const uint8_t* ed = eq.data<uint8_t>();
                        for (size_t i = 0; i < rows; ++i) {
                          bool an = a.IsNull(i), bn = b.IsNull(i);
                          bool same = (an && bn) || (!an && !bn && ed[i]);
                          od[i] = (same != distinct) ? 1 : 0;
                        }
                        return Status::OK();
                      });
}

// Three-valued AND of two boolean vectors into out (values and validity).
void And3(const Vector& x, const Vector& y, size_t rows, Vector* out) {
  uint8_t* od = out->data<uint8_t>();
  const uint8_t* xd = x.data<uint8_t>();
  const uint8_t* yd = y.data<uint8_t>();
  if (!x.MayHaveNulls() && !y.MayHaveNulls()) {
    for (size_t i = 0; i < rows; ++i) od[i] = xd[i] & yd[i];
    return;
  }
  for (size_t i = 0; i < rows; ++i) {
    bool xf = x.IsValid(i) && !xd[i], yf = y.IsValid(i) && !yd[i];
    if (xf || yf) {
      od[i] = 0;
      out->SetNull(i, false);
    } else if (x.IsNull(i) || y.IsNull(i)) {
      out->SetNull(i, true);
    } else {
      od[i] = 1;
      out->SetNull(i, false);
    }
  }
}

Result<std::shared_ptr<ScalarFunction>> ResolveBetween(const CallInfo& c) {
  if (c.size() != 3) return std::shared_ptr<ScalarFunction>();
  auto common = ComparisonType(c.type(0), c.type(1));
  if (!common.ok()) return std::shared_ptr<ScalarFunction>();
  auto all = ComparisonType(*common, c.type(2));
  if (!all.ok()) return std::shared_ptr<ScalarFunction>();
  return MakeFunction(c.name, CastTargets(c.types, *all), LogicalType::Boolean().WithNullable(c.AnyNullable()),
                      [](EvalContext&, const Vector* const* args, size_t, size_t rows, Vector* out) {
                        Vector ge(LogicalType::Boolean(), rows), le(LogicalType::Boolean(), rows);
                        CompareVectors(CmpOp::kGe, *args[0], *args[1], rows, &ge);
                        CompareVectors(CmpOp::kLe, *args[0], *args[2], rows, &le);
                        And3(ge, le, rows, out);
                        return Status::OK();
                      });
}

// IN over a constant list of integers or strings uses a hash set built once.
template <typename T, typename Key>
Status InWithSet(const std::unordered_set<Key>& set, bool list_has_null, const Vector& x, size_t rows, Vector* out) {
  const T* xd = x.data<T>();
  uint8_t* od = out->data<uint8_t>();
  const Vector* args[1] = {&x};
  PropagateNulls(args, 1, rows, out);
  for (size_t i = 0; i < rows; ++i) {
    bool found = set.count(static_cast<Key>(xd[i])) != 0;
    od[i] = found ? 1 : 0;
    if (!found && list_has_null) out->SetNull(i, true);
  }
  return Status::OK();
}

Result<std::shared_ptr<ScalarFunction>> ResolveIn(const CallInfo& c) {
  if (c.size() < 2) return std::shared_ptr<ScalarFunction>();
  LogicalType common = c.type(0);
  for (size_t i = 1; i < c.size(); ++i) {
    auto t = ComparisonType(common, c.type(i));
    if (!t.ok()) return std::shared_ptr<ScalarFunction>();
    common = *t;
  }
  std::vector<LogicalType> casts = CastTargets(c.types, common);
  LogicalType ret = LogicalType::Boolean().WithNullable(c.AnyNullable());
  // All list items constant: cast them once and probe a hash set.
  bool all_const = true;
  for (size_t i = 1; i < c.size(); ++i) all_const &= c.constant(i) != nullptr;
  TypeId id = common.id();
  bool integral_like = common.IsIntegral() || id == TypeId::kDate || id == TypeId::kTime || common.IsTimestamp() ||
                       id == TypeId::kBoolean;
  if (all_const && (integral_like || common.IsStringLike())) {
    EvalContext ctx;
    auto ints = std::make_shared<std::unordered_set<int64_t>>();
    auto strs = std::make_shared<std::unordered_set<std::string_view>>();
    auto owned = std::make_shared<std::vector<std::string>>();
    owned->reserve(c.size());
    bool has_null = false;
    for (size_t i = 1; i < c.size(); ++i) {
      auto v = CastValue(ctx, *c.constant(i), common, false);
      if (!v.ok()) return v.status();
      if (v->is_null()) {
        has_null = true;
      } else if (common.IsStringLike()) {
        owned->push_back(v->string_value());
      } else if (id == TypeId::kBoolean) {
        ints->insert(v->bool_value() ? 1 : 0);
      } else {
        ints->insert(v->int_value());
      }
    }
    for (const auto& s : *owned) strs->insert(s);
    return MakeFunction(c.name, casts, ret,
                        [ints, strs, owned, has_null](EvalContext&, const Vector* const* args, size_t, size_t rows,
                                                      Vector* out) -> Status {
                          const Vector& x = *args[0];
                          if (x.type().IsStringLike()) return InWithSet<std::string_view>(*strs, has_null, x, rows, out);
                          return DispatchFixed(x.type().id(), [&](auto tag) -> Status {
                            using T = decltype(tag);
                            if constexpr (std::is_integral_v<T>) {
                              return InWithSet<T>(*ints, has_null, x, rows, out);
                            } else {
                              return Status::Internal("IN set on " + x.type().ToString());
                            }
                          });
                        });
  }
  return MakeFunction(c.name, casts, ret, [](EvalContext&, const Vector* const* args, size_t n, size_t rows, Vector* out) {
    // x IN (a, b, ...) = x = a OR x = b OR ...: TRUE if any is TRUE, else NULL if any is NULL, else FALSE.
    uint8_t* od = out->data<uint8_t>();
    std::vector<uint8_t> any_null(rows, 0);
    std::memset(od, 0, rows);
    Vector eq(LogicalType::Boolean(), rows);
    for (size_t k = 1; k < n; ++k) {
      eq.ClearNulls();
      CompareVectors(CmpOp::kEq, *args[0], *args[k], rows, &eq);
      const uint8_t* ed = eq.data<uint8_t>();
      for (size_t i = 0; i < rows; ++i) {
        if (eq.IsNull(i)) {
          any_null[i] = 1;
        } else {
          od[i] |= ed[i];
        }
      }
    }
    for (size_t i = 0; i < rows; ++i) {
      if (args[0]->IsNull(i) || (!od[i] && any_null[i])) out->SetNull(i, true);
    }
    return Status::OK();
  });
}

Result<std::shared_ptr<ScalarFunction>> ResolveNot(const CallInfo& c) {
  if (c.size() != 1 || (c.type(0).id() != TypeId::kBoolean && c.type(0).id() != TypeId::kNull)) {
    return std::shared_ptr<ScalarFunction>();
  }
  return MakeFunction(c.name, {LogicalType::Boolean().WithNullable(c.type(0).nullable())},
                      LogicalType::Boolean().WithNullable(c.type(0).nullable()),
                      [](EvalContext&, const Vector* const* args, size_t, size_t rows, Vector* out) {
                        UnaryLoop<uint8_t, uint8_t>(*args[0], rows, out, [](uint8_t x) -> uint8_t { return x ? 0 : 1; });
                        return Status::OK();
                      });
}

enum class Pred { kNull, kNotNull, kTrue, kNotTrue, kFalse, kNotFalse };

Result<std::shared_ptr<ScalarFunction>> ResolvePredicate(const CallInfo& c, Pred p) {
  if (c.size() != 1) return std::shared_ptr<ScalarFunction>();
  bool boolean_pred = p != Pred::kNull && p != Pred::kNotNull;
  LogicalType arg = c.type(0);
  if (boolean_pred) {
    if (arg.id() != TypeId::kBoolean && arg.id() != TypeId::kNull) return std::shared_ptr<ScalarFunction>();
    arg = LogicalType::Boolean().WithNullable(arg.nullable());
  }
  return MakeFunction(c.name, {arg}, LogicalType::Boolean().WithNullable(false),
                      [p](EvalContext&, const Vector* const* args, size_t, size_t rows, Vector* out) {
                        const Vector& a = *args[0];
                        uint8_t* od = out->data<uint8_t>();
                        const uint8_t* v = a.validity();
                        const bool is_null_type = a.type().id() == TypeId::kNull;
                        const uint8_t* d = (a.type().id() == TypeId::kBoolean) ? a.data<uint8_t>() : nullptr;
                        for (size_t i = 0; i < rows; ++i) {
                          bool valid = !is_null_type && (v == nullptr || v[i]);
                          bool val = valid && d != nullptr && d[i];
                          bool r = false;
                          switch (p) {
                            case Pred::kNull: r = !valid; break;
                            case Pred::kNotNull: r = valid; break;
                            case Pred::kTrue: r = valid && val; break;
                            case Pred::kNotTrue: r = !(valid && val); break;
                            case Pred::kFalse: r = valid && !val; break;
                            case Pred::kNotFalse: r = !(valid && !val); break;
                          }
                          od[i] = r ? 1 : 0;
                        }
                        return Status::OK();
                      });
}

Result<std::shared_ptr<ScalarFunction>> ResolveIf(const CallInfo& c) {
  if (c.size() != 3 || (c.type(0).id() != TypeId::kBoolean && c.type(0).id() != TypeId::kNull)) {
    return std::shared_ptr<ScalarFunction>();
  }
  auto common = CommonType({c.type(1), c.type(2)});
  if (!common.ok()) return std::shared_ptr<ScalarFunction>();
  LogicalType r = common->WithNullable(c.type(1).nullable() || c.type(2).nullable()).WithTimeAttribute(TimeAttribute::kNone);
  return MakeFunction(c.name, {LogicalType::Boolean().WithNullable(c.type(0).nullable()), r.WithNullable(c.type(1).nullable()), r.WithNullable(c.type(2).nullable())}, r,
                      [](EvalContext&, const Vector* const* args, size_t, size_t rows, Vector* out) {
                        const Vector& cond = *args[0];
                        const uint8_t* cd = cond.type().id() == TypeId::kBoolean ? cond.data<uint8_t>() : nullptr;
                        out->ShareHeapsWith(*args[1]);
                        out->ShareHeapsWith(*args[2]);
                        for (size_t i = 0; i < rows; ++i) {
                          bool t = cd != nullptr && cond.IsValid(i) && cd[i];
                          CopyRow(t ? *args[1] : *args[2], i, out, i);
                        }
                        return Status::OK();
                      });
}

Result<std::shared_ptr<ScalarFunction>> ResolveNullIf(const CallInfo& c) {
  if (c.size() != 2) return std::shared_ptr<ScalarFunction>();
  auto common = ComparisonType(c.type(0), c.type(1));
  if (!common.ok()) return std::shared_ptr<ScalarFunction>();
  std::vector<LogicalType> casts = CastTargets(c.types, *common);
  return MakeFunction(c.name, casts, casts[0].WithNullable(true),
                      [](EvalContext&, const Vector* const* args, size_t, size_t rows, Vector* out) {
                        Vector eq(LogicalType::Boolean(), rows);
                        CompareVectors(CmpOp::kEq, *args[0], *args[1], rows, &eq);
                        out->ShareHeapsWith(*args[0]);
                        const uint8_t* ed = eq.data<uint8_t>();
                        for (size_t i = 0; i < rows; ++i) {
                          if (eq.IsValid(i) && ed[i]) {
                            out->SetNull(i, true);
                          } else {
                            CopyRow(*args[0], i, out, i);
                          }
                        }
                        return Status::OK();
                      });
}

// IFNULL(input, replacement): input unless it is NULL; the common type of both, nullable only when the
// replacement is, NOT NULL whenever the input is (Flink's IfNullTypeStrategy).
Result<std::shared_ptr<ScalarFunction>> ResolveIfNull(const CallInfo& c) {
  if (c.size() != 2) return std::shared_ptr<ScalarFunction>();
  auto common = CommonType(c.types);
  if (!common.ok()) return std::shared_ptr<ScalarFunction>();
  std::vector<LogicalType> casts = CastTargets(c.types, *common);
  LogicalType ret = casts[1].WithNullable(c.type(0).nullable() && c.type(1).nullable());
  return NeverFails(MakeFunction(c.name, casts, ret,
                                 [](EvalContext&, const Vector* const* args, size_t, size_t rows, Vector* out) {
                                   out->ShareHeapsWith(*args[0]);
                                   out->ShareHeapsWith(*args[1]);
                                   for (size_t i = 0; i < rows; ++i) CopyRow(*args[args[0]->IsNull(i) ? 1 : 0], i, out, i);
                                   return Status::OK();
                                 }));
}

// GREATEST / LEAST: the largest / smallest argument after casting all to their common type; NULL as
// soon as one argument is NULL (Flink's semantics).
Result<std::shared_ptr<ScalarFunction>> ResolveExtreme(const CallInfo& c, bool greatest) {
  if (c.size() < 1) return std::shared_ptr<ScalarFunction>();
  auto common = CommonType(c.types);
  if (!common.ok() || common->IsNested()) return std::shared_ptr<ScalarFunction>();
  bool nullable = false;
  for (const auto& t : c.types) nullable |= t.nullable();
  std::vector<LogicalType> casts = CastTargets(c.types, *common);
  LogicalType r = common->WithNullable(nullable).WithTimeAttribute(TimeAttribute::kNone);
  const CmpOp op = greatest ? CmpOp::kGt : CmpOp::kLt;
  return MakeFunction(c.name, casts, r,
                      [op](EvalContext&, const Vector* const* args, size_t n, size_t rows, Vector* out) {
                        for (size_t k = 0; k < n; ++k) out->ShareHeapsWith(*args[k]);
                        for (size_t i = 0; i < rows; ++i) CopyRow(*args[0], i, out, i);
                        Vector better(LogicalType::Boolean(), rows);
                        for (size_t k = 1; k < n; ++k) {
                          CompareVectors(op, *args[k], *out, rows, &better);
                          const uint8_t* bd = better.data<uint8_t>();
                          for (size_t i = 0; i < rows; ++i) {
                            if (better.IsValid(i) && bd[i]) CopyRow(*args[k], i, out, i);
                          }
                        }
                        for (size_t k = 0; k < n; ++k) {
                          for (size_t i = 0; i < rows; ++i) {
                            if (args[k]->IsNull(i)) out->SetNull(i, true);
                          }
                        }
                        return Status::OK();
                      });
}

Result<std::shared_ptr<ScalarFunction>> NeverFailsR(Result<std::shared_ptr<ScalarFunction>> r) {
  if (r.ok()) NeverFails(*r);
  return r;
}

}  // namespace

void RegisterComparisonFunctions(FunctionTable* t) {
  struct OpName {
    const char* name;
    CmpOp op;
  };
  for (OpName o : {OpName{"=", CmpOp::kEq}, OpName{"<>", CmpOp::kNe}, OpName{"<", CmpOp::kLt},
                   OpName{"<=", CmpOp::kLe}, OpName{">", CmpOp::kGt}, OpName{">=", CmpOp::kGe}}) {
    CmpOp op = o.op;
    t->Add({o.name, {std::string("<COMPARABLE_TYPE> ") + o.name + " <COMPARABLE_TYPE>"},
            [op](const CallInfo& c) -> Result<std::shared_ptr<ScalarFunction>> {
              ASSIGN_OR_RETURN(auto f, ResolveCompare(c, op));
              return NeverFails(f);
            }, false});
  }
  t->Alias("!=", "<>");
  t->Add({"IS DISTINCT FROM", {"<ANY> IS DISTINCT FROM <ANY>"}, [](const CallInfo& c) { return ResolveDistinct(c, true); }, false});
  t->Add({"IS NOT DISTINCT FROM", {"<ANY> IS NOT DISTINCT FROM <ANY>"},
          [](const CallInfo& c) { return ResolveDistinct(c, false); }, false});
  t->Add({"BETWEEN", {"<COMPARABLE_TYPE> BETWEEN <COMPARABLE_TYPE> AND <COMPARABLE_TYPE>"}, [](const CallInfo& c) { return NeverFailsR(ResolveBetween(c)); }, false});
  t->Add({"IN", {"<ANY> IN (<ANY>, ...)"}, ResolveIn, false});
  t->Add({"NOT", {"NOT <BOOLEAN>"}, [](const CallInfo& c) { return NeverFailsR(ResolveNot(c)); }, false});
  t->Add({"IS NULL", {"<ANY> IS NULL"}, [](const CallInfo& c) { return NeverFailsR(ResolvePredicate(c, Pred::kNull)); }, false});
  t->Add({"IS NOT NULL", {"<ANY> IS NOT NULL"}, [](const CallInfo& c) { return NeverFailsR(ResolvePredicate(c, Pred::kNotNull)); }, false});
  t->Add({"IS TRUE", {"<BOOLEAN> IS TRUE"}, [](const CallInfo& c) { return NeverFailsR(ResolvePredicate(c, Pred::kTrue)); }, false});
  t->Add({"IS NOT TRUE", {"<BOOLEAN> IS NOT TRUE"}, [](const CallInfo& c) { return NeverFailsR(ResolvePredicate(c, Pred::kNotTrue)); }, false});
  t->Add({"IS FALSE", {"<BOOLEAN> IS FALSE"}, [](const CallInfo& c) { return NeverFailsR(ResolvePredicate(c, Pred::kFalse)); }, false});
  t->Add({"IS NOT FALSE", {"<BOOLEAN> IS NOT FALSE"}, [](const CallInfo& c) { return NeverFailsR(ResolvePredicate(c, Pred::kNotFalse)); }, false});
  t->Add({"IF", {"IF(<BOOLEAN>, <ANY>, <ANY>)"}, ResolveIf});
  t->Add({"NULLIF", {"NULLIF(<ANY>, <ANY>)"}, ResolveNullIf});
  t->Add({"IFNULL", {"IFNULL(<ANY>, <ANY>)"}, ResolveIfNull});
  t->Add({"GREATEST", {"GREATEST(<COMPARABLE_TYPE>, ...)"}, [](const CallInfo& c) { return NeverFailsR(ResolveExtreme(c, true)); }});
  t->Add({"LEAST", {"LEAST(<COMPARABLE_TYPE>, ...)"}, [](const CallInfo& c) { return NeverFailsR(ResolveExtreme(c, false)); }});
}

}  // namespace sluice::fn
