// Vectorized expression evaluation (see evaluator.h).
#include "function/evaluator.h"

#include "common/check.h"
#include "function/cast.h"
#include "function/kernel_util.h"
#include "function/scalar_function.h"
#include "types/row_kind.h"
#include "types/value.h"

namespace sluice {

namespace {

using LiteralCache = std::map<std::pair<const Expr*, size_t>, Vector>;

void CollectColumns(const Expr& e, std::vector<uint8_t>* used) {
  if (e.kind == ExprKind::kColumnRef) {
    size_t i = static_cast<size_t>(e.column_index);
    if (i < used->size()) (*used)[i] = 1;
    return;
  }
  for (const auto& a : e.args) CollectColumns(*a, used);
}

// The rows `sel` of `in`, only for the columns `e` references (others stay empty).
Chunk GatherFor(const Expr& e, const Chunk& in, const std::vector<uint32_t>& sel) {
  std::vector<uint8_t> used(in.num_columns(), 0);
  CollectColumns(e, &used);
  Chunk out;
  for (size_t c = 0; c < in.num_columns(); ++c) {
    Vector v(in.column(c).type(), 0);
    if (used[c]) v.AppendFrom(in.column(c), sel.data(), 0, sel.size());
    out.AddColumn(std::move(v));
  }
  out.kind_vector().assign(sel.size(), RowKind::kInsert);
  return out;
}

// True when evaluating `e` can never return an error, so it may run on rows a short-circuit skips.
bool CannotFail(const Expr& e) {
  switch (e.kind) {
    case ExprKind::kColumnRef:
    case ExprKind::kLiteral: return true;
    case ExprKind::kCall:
      if (e.function->can_fail) return false;
      break;
    case ExprKind::kCast: {
      const LogicalType& from = e.args[0]->type;
      bool safe = e.is_try || from.EqualsIgnoringNullability(e.type) ||
                  (from.IsNumeric() && e.type.IsNumeric() && CanCast(from, e.type, true));
      if (!safe) return false;
      break;
    }
    default: break;
  }
  for (const auto& a : e.args) {
    if (!CannotFail(*a)) return false;
  }
  return true;
}

class Evaluation {
 public:
  Evaluation(EvalContext& ctx, LiteralCache* cache) : ctx_(ctx), cache_(cache) {}

  Status Eval(const Expr& e, const Chunk& in, Vector* out);
  // Evaluates `e` and points *res at the result: the input column itself, a cached literal vector or
  // *tmp. Avoids copying column data into intermediate vectors.
  Status EvalRef(const Expr& e, const Chunk& in, Vector* tmp, const Vector** res);

 private:
  // Evaluates `e` over the rows `sel` of `in` (all rows when `all`), with the result's type made `type`.
  Status EvalRows(const Expr& e, const Chunk& in, const std::vector<uint32_t>& sel, bool all, const LogicalType& type,
                  Vector* out);
  // Kept out of Eval (never inlined) so the Vectors on their stacks do not enlarge Eval's frame.
  [[gnu::noinline]] Status EvalLeaf(const Expr& e, const Chunk& in, Vector* out);
  [[gnu::noinline]] Status EvalCast(const Expr& e, const Chunk& in, Vector* out);
  [[gnu::noinline]] Status EvalCall(const Expr& e, const Chunk& in, Vector* out);
  [[gnu::noinline]] Status EvalLogic(const Expr& e, const Chunk& in, Vector* out);
  [[gnu::noinline]] Status EvalCase(const Expr& e, const Chunk& in, Vector* out);
  Status EvalCaseEveryBranch(const Expr& e, const Chunk& in, size_t num_when, Vector* out);
  [[gnu::noinline]] Status EvalCoalesce(const Expr& e, const Chunk& in, Vector* out);
  [[gnu::noinline]] const Vector* Column(const Expr& e, const Chunk& in);
  [[gnu::noinline]] const Vector* Literal(const Expr& e, size_t rows, Vector* tmp);
  Status NameFailure(const Expr& e, const Chunk& in, Status st);

  EvalContext& ctx_;
  LiteralCache* cache_;
};

const Vector* Evaluation::Literal(const Expr& e, size_t rows, Vector* tmp) {
  if (cache_ == nullptr) {
    *tmp = Vector::Constant(e.literal, rows);
    return tmp;
  }
  auto key = std::make_pair(&e, rows);
  auto it = cache_->find(key);
  if (it != cache_->end()) return &it->second;
  // Never cleared here: the caller may still hold a vector this cache returned for another argument
  // (ExprEvaluator trims the cache between evaluations instead).
  return &cache_->emplace(key, Vector::Constant(e.literal, rows)).first->second;
}

const Vector* Evaluation::Column(const Expr& e, const Chunk& in) {
  size_t c = static_cast<size_t>(e.column_index);
  SLUICE_CHECK_LT(c, in.num_columns());
  SLUICE_CHECK_EQ(in.column(c).size(), in.size());
  return &in.column(c);
}

// A runtime error of the innermost failing call names its SQL text and, when the kernel said which,
// the input row (as the print sink writes rows), so a user can find the expression and the data.
Status Evaluation::NameFailure(const Expr& e, const Chunk& in, Status st) {
  if (st.ok() || ctx_.failure_named || e.sql_text.empty()) return st;
  ctx_.failure_named = true;
  std::string where = "in expression " + e.sql_text;
  const int64_t row = ctx_.failed_row;
  if (row >= 0 && static_cast<size_t>(row) < in.size()) {
    where += " on the row " + std::string(RowKindShortString(in.kind(static_cast<size_t>(row)))) + "[";
    for (size_t c = 0; c < in.num_columns(); ++c) {
      where += (c ? ", " : "") + in.column(c).GetValue(static_cast<size_t>(row)).ToString();
    }
    where += "]";
  }
  std::string message = st.message();
  if (!message.empty() && message.back() == '.') message.pop_back();
  return Status(st.code(), message + " " + where);
}

Status Evaluation::EvalRef(const Expr& e, const Chunk& in, Vector* tmp, const Vector** res) {
  switch (e.kind) {
    case ExprKind::kColumnRef: *res = Column(e, in); return Status::OK();
    case ExprKind::kLiteral: *res = Literal(e, in.size(), tmp); return Status::OK();
    default:
      RETURN_IF_ERROR(Eval(e, in, tmp));
      *res = tmp;
      return Status::OK();
  }
}

Status Evaluation::Eval(const Expr& e, const Chunk& in, Vector* out) {
  switch (e.kind) {
    case ExprKind::kColumnRef:
    case ExprKind::kLiteral: return EvalLeaf(e, in, out);
    case ExprKind::kCall: return EvalCall(e, in, out);
    case ExprKind::kCast: return EvalCast(e, in, out);
    case ExprKind::kAnd:
    case ExprKind::kOr: return EvalLogic(e, in, out);
    case ExprKind::kCase: return EvalCase(e, in, out);
    case ExprKind::kCoalesce: return EvalCoalesce(e, in, out);
  }
  return Status::Internal("unknown expression kind");
}

Status Evaluation::EvalCall(const Expr& e, const Chunk& in, Vector* out) {
  // The argument vectors live on the heap: Eval recurses as deep as the expression (up to
  // sql::kMaxChainedOperators), so every frame of that recursion stays small.
  const size_t n = e.args.size();
  std::vector<Vector> tmps(n);
  std::vector<const Vector*> ptrs(n);
  for (size_t i = 0; i < n; ++i) RETURN_IF_ERROR(EvalRef(*e.args[i], in, &tmps[i], &ptrs[i]));
  *out = Vector(e.function->return_type, in.size());
  if (in.size() == 0) return Status::OK();
  return NameFailure(e, in, e.function->kernel(ctx_, ptrs.data(), n, in.size(), out));
}

Status Evaluation::EvalLeaf(const Expr& e, const Chunk& in, Vector* out) {
  Vector tmp;
  const Vector* r;
  RETURN_IF_ERROR(EvalRef(e, in, &tmp, &r));
  if (r == &tmp) {
    *out = std::move(tmp);
  } else {
    *out = *r;
  }
  return Status::OK();
}

Status Evaluation::EvalCast(const Expr& e, const Chunk& in, Vector* out) {
  auto tmp = std::make_unique<Vector>();
  const Vector* arg;
  RETURN_IF_ERROR(EvalRef(*e.args[0], in, tmp.get(), &arg));
  return NameFailure(e, in, CastVector(ctx_, *arg, e.type, e.is_try, out));
}

Status Evaluation::EvalRows(const Expr& e, const Chunk& in, const std::vector<uint32_t>& sel, bool all,
                            const LogicalType& type, Vector* out) {
  Vector v;
  if (all) {
    RETURN_IF_ERROR(Eval(e, in, &v));
  } else {
    Chunk sub = GatherFor(e, in, sel);
    RETURN_IF_ERROR(Eval(e, sub, &v));
  }
  if (!v.type().EqualsIgnoringNullability(type) && type.id() != TypeId::kNull) {
    return CastVector(ctx_, v, type, false, out);
  }
  *out = std::move(v);
  return Status::OK();
}

Status Evaluation::EvalLogic(const Expr& e, const Chunk& in, Vector* out) {
  const bool is_and = e.kind == ExprKind::kAnd;
  const size_t rows = in.size();
  const LogicalType boolean = LogicalType::Boolean();
  RETURN_IF_ERROR(EvalRows(*e.args[0], in, {}, true, boolean, out));
  std::vector<uint32_t> sel;
  sel.reserve(rows);
  for (size_t k = 1; k < e.args.size(); ++k) {
    // Rows still undecided: AND - TRUE or NULL so far; OR - FALSE or NULL so far.
    const uint8_t* cur = out->data<uint8_t>();
    const uint8_t* valid = out->validity();
    size_t undecided = 0;
    if (valid == nullptr) {
      for (size_t i = 0; i < rows; ++i) undecided += is_and ? (cur[i] != 0) : (cur[i] == 0);
    } else {
      for (size_t i = 0; i < rows; ++i) undecided += !valid[i] || (is_and ? (cur[i] != 0) : (cur[i] == 0));
    }
    if (undecided == 0) break;
    // Evaluate on all rows when every row is undecided, or when the operand cannot fail and most rows
    // are undecided (cheaper than gathering); three-valued AND/OR leaves decided rows unchanged.
    const bool full = undecided == rows || (undecided * 4 >= rows && CannotFail(*e.args[k]));
    sel.clear();
    if (!full) {
      for (size_t i = 0; i < rows; ++i) {
        bool decided = out->IsValid(i) && (is_and ? cur[i] == 0 : cur[i] != 0);
        if (!decided) sel.push_back(static_cast<uint32_t>(i));
      }
    }
    Vector v;
    RETURN_IF_ERROR(EvalRows(*e.args[k], in, sel, full, boolean, &v));
    const uint8_t* vd = v.data<uint8_t>();
    uint8_t* od = out->data<uint8_t>();
    if (full) {
      if (!v.MayHaveNulls() && !out->MayHaveNulls()) {
        if (is_and) {
          for (size_t i = 0; i < rows; ++i) od[i] &= vd[i];
        } else {
          for (size_t i = 0; i < rows; ++i) od[i] |= vd[i];
        }
        continue;
      }
      for (size_t i = 0; i < rows; ++i) {
        bool cv = out->IsValid(i), nv = v.IsValid(i);
        bool c_dom = cv && (is_and ? od[i] == 0 : od[i] != 0);
        bool n_dom = nv && (is_and ? vd[i] == 0 : vd[i] != 0);
        if (c_dom || n_dom) {
          od[i] = is_and ? 0 : 1;
          out->SetNull(i, false);
        } else if (!cv || !nv) {
          out->SetNull(i, true);
        } else {
          od[i] = is_and ? 1 : 0;
        }
      }
      continue;
    }
    for (size_t j = 0; j < sel.size(); ++j) {
      size_t i = sel[j];
      if (v.IsNull(j)) {
        out->SetNull(i, true);
      } else if (is_and ? vd[j] == 0 : vd[j] != 0) {
        od[i] = is_and ? 0 : 1;
        out->SetNull(i, false);
      }
    }
  }
  return Status::OK();
}

// CASE whose branches cannot fail: every branch is evaluated over the whole batch and each row picks
// its branch's value, cheaper than gathering the undecided rows' inputs (e.g. whole ROW columns) before
// each WHEN. `out` holds all NULLs on entry.
Status Evaluation::EvalCaseEveryBranch(const Expr& e, const Chunk& in, size_t num_when, Vector* out) {
  const size_t rows = in.size();
  const LogicalType boolean = LogicalType::Boolean();
  std::vector<std::vector<uint32_t>> picks(num_when + 1);
  std::vector<uint8_t> decided(rows, 0);
  for (size_t w = 0; w < num_when; ++w) {
    Vector cond;
    RETURN_IF_ERROR(EvalRows(*e.args[2 * w], in, {}, true, boolean, &cond));
    const uint8_t* cd = cond.data<uint8_t>();
    for (size_t i = 0; i < rows; ++i) {
      if (!decided[i] && cond.IsValid(i) && cd[i]) {
        decided[i] = 1;
        picks[w].push_back(static_cast<uint32_t>(i));
      }
    }
  }
  if (e.has_else) {
    for (size_t i = 0; i < rows; ++i) {
      if (!decided[i]) picks[num_when].push_back(static_cast<uint32_t>(i));
    }
  }
  for (size_t b = 0; b <= num_when; ++b) {
    if (picks[b].empty()) continue;
    const Expr& value = b < num_when ? *e.args[2 * b + 1] : *e.args.back();
    Vector v;
    Vector picked;
    if (value.kind == ExprKind::kLiteral) {
      // A literal is made (and cast to the CASE's type) once, then repeated for the picked rows.
      Chunk one;
      one.kind_vector().assign(1, RowKind::kInsert);
      RETURN_IF_ERROR(EvalRows(value, one, {}, true, e.type, &v));
      const std::vector<uint32_t> first(picks[b].size(), 0);
      picked = Vector(v.type(), 0);
      picked.AppendFrom(v, first.data(), 0, first.size());
    } else {
      RETURN_IF_ERROR(EvalRows(value, in, {}, true, e.type, &v));
      picked = Vector(v.type(), 0);
      picked.AppendFrom(v, picks[b].data(), 0, picks[b].size());
    }
    fn::ScatterRows(picked, picks[b].data(), picks[b].size(), out);
  }
  return Status::OK();
}

Status Evaluation::EvalCase(const Expr& e, const Chunk& in, Vector* out) {
  const size_t rows = in.size();
  *out = Vector(e.type, rows);
  if (rows == 0) return Status::OK();
  fn::SetAllNull(out, rows);
  const size_t num_when = (e.args.size() - (e.has_else ? 1 : 0)) / 2;
  bool all_safe = true;
  for (const auto& a : e.args) all_safe = all_safe && CannotFail(*a);
  if (all_safe) return EvalCaseEveryBranch(e, in, num_when, out);
  // `remaining` maps rows of `cur` (the chunk of still-undecided rows) to rows of `in`.
  std::vector<uint32_t> remaining(rows);
  for (size_t i = 0; i < rows; ++i) remaining[i] = static_cast<uint32_t>(i);
  Chunk owned;
  const Chunk* cur = &in;
  const LogicalType boolean = LogicalType::Boolean();
  for (size_t w = 0; w < num_when && !remaining.empty(); ++w) {
    Vector cond;
    RETURN_IF_ERROR(EvalRows(*e.args[2 * w], *cur, {}, true, boolean, &cond));
    std::vector<uint32_t> matched, unmatched;
    const uint8_t* cd = cond.data<uint8_t>();
    for (size_t j = 0; j < remaining.size(); ++j) {
      if (cond.IsValid(j) && cd[j]) {
        matched.push_back(static_cast<uint32_t>(j));
      } else {
        unmatched.push_back(static_cast<uint32_t>(j));
      }
    }
    if (!matched.empty()) {
      Vector v;
      RETURN_IF_ERROR(EvalRows(*e.args[2 * w + 1], *cur, matched, matched.size() == remaining.size(), e.type, &v));
      std::vector<uint32_t> targets(matched.size());
      for (size_t k = 0; k < matched.size(); ++k) targets[k] = remaining[matched[k]];
      fn::ScatterRows(v, targets.data(), targets.size(), out);
    }
    if (unmatched.size() == remaining.size()) continue;
    std::vector<uint32_t> next(unmatched.size());
    for (size_t k = 0; k < unmatched.size(); ++k) next[k] = remaining[unmatched[k]];
    remaining = std::move(next);
    if (remaining.empty()) break;
    // Gather from the original input so the next WHEN sees only undecided rows.
    std::vector<uint8_t> used(in.num_columns(), 0);
    for (const auto& a : e.args) CollectColumns(*a, &used);
    Chunk next_chunk;
    for (size_t c = 0; c < in.num_columns(); ++c) {
      Vector col(in.column(c).type(), 0);
      if (used[c]) col.AppendFrom(in.column(c), remaining.data(), 0, remaining.size());
      next_chunk.AddColumn(std::move(col));
    }
    next_chunk.kind_vector().assign(remaining.size(), RowKind::kInsert);
    owned = std::move(next_chunk);
    cur = &owned;
  }
  if (e.has_else && !remaining.empty()) {
    Vector v;
    RETURN_IF_ERROR(EvalRows(*e.args.back(), *cur, {}, true, e.type, &v));
    fn::ScatterRows(v, remaining.data(), remaining.size(), out);
  }
  return Status::OK();
}

Status Evaluation::EvalCoalesce(const Expr& e, const Chunk& in, Vector* out) {
  const size_t rows = in.size();
  RETURN_IF_ERROR(EvalRows(*e.args[0], in, {}, true, e.type, out));
  std::vector<uint32_t> sel;
  for (size_t k = 1; k < e.args.size(); ++k) {
    sel.clear();
    for (size_t i = 0; i < rows; ++i) {
      if (out->IsNull(i)) sel.push_back(static_cast<uint32_t>(i));
    }
    if (sel.empty()) break;
    Vector v;
    RETURN_IF_ERROR(EvalRows(*e.args[k], in, sel, sel.size() == rows, e.type, &v));
    fn::ScatterRows(v, sel.data(), sel.size(), out);
  }
  return Status::OK();
}

}  // namespace

ExprEvaluator::ExprEvaluator(std::vector<ExprPtr> exprs, EvalContext* ctx) : exprs_(std::move(exprs)), ctx_(ctx) {
  SLUICE_CHECK(ctx_ != nullptr);
}

void ExprEvaluator::TrimLiteralCache() {
  // Literal vectors are cached per row count; chunks of many sizes (filtered subsets) would grow it.
  if (literal_cache_.size() > 256) literal_cache_.clear();
}

Status ExprEvaluator::Evaluate(const Chunk& input, std::vector<Vector>* out) {
  ctx_->RefreshNow();
  TrimLiteralCache();
  out->resize(exprs_.size());
  Evaluation ev(*ctx_, &literal_cache_);
  for (size_t i = 0; i < exprs_.size(); ++i) RETURN_IF_ERROR(ev.Eval(*exprs_[i], input, &(*out)[i]));
  return Status::OK();
}

Status ExprEvaluator::EvaluateOne(size_t i, const Chunk& input, Vector* out) {
  ctx_->RefreshNow();
  TrimLiteralCache();
  Evaluation ev(*ctx_, &literal_cache_);
  return ev.Eval(*exprs_[i], input, out);
}

Status ExprEvaluator::Filter(const Chunk& input, std::vector<uint32_t>* sel) {
  ctx_->RefreshNow();
  TrimLiteralCache();
  Evaluation ev(*ctx_, &literal_cache_);
  Vector tmp;
  const Vector* r;
  RETURN_IF_ERROR(ev.EvalRef(*exprs_[0], input, &tmp, &r));
  const size_t rows = input.size();
  sel->resize(rows);
  uint32_t* s = sel->data();
  size_t n = 0;
  if (r->type().id() != TypeId::kBoolean) {
    sel->clear();
    return Status::OK();  // a NULL-typed predicate selects nothing
  }
  const uint8_t* d = r->data<uint8_t>();
  const uint8_t* v = r->validity();
  if (v == nullptr) {
    for (size_t i = 0; i < rows; ++i) {
      s[n] = static_cast<uint32_t>(i);
      n += d[i] != 0;
    }
  } else {
    for (size_t i = 0; i < rows; ++i) {
      s[n] = static_cast<uint32_t>(i);
      n += (d[i] & v[i]) != 0;
    }
  }
  sel->resize(n);
  return Status::OK();
}

Status EvaluateExpr(const Expr& expr, const Chunk& input, EvalContext& ctx, Vector* out) {
  Evaluation ev(ctx, nullptr);
  return ev.Eval(expr, input, out);
}

Result<Value> EvaluateConstant(const Expr& expr, EvalContext& ctx) {
  Chunk one;
  one.kind_vector().assign(1, RowKind::kInsert);
  Vector out;
  RETURN_IF_ERROR(EvaluateExpr(expr, one, ctx, &out));
  Value v = out.GetValue(0);
  if (v.is_null()) return Value::Null(expr.type);
  return v.WithType(expr.type);
}

bool ExprCannotFail(const Expr& expr) { return CannotFail(expr); }

}  // namespace sluice
