#include "plan/interval_join_rule.h"

#include "function/evaluator.h"
#include "function/scalar_function.h"
#include "plan/optimizer.h"
#include "plan/plan_rewrite.h"

namespace sluice {

namespace {

constexpr int64_t kMicrosPerMilli = 1000;

// Where an operand reads its time attribute: the column (over left ++ right) and whether it is rowtime.
struct TimeAccess {
  int column = -1;
  bool rowtime = true;
};

class Extractor {
 public:
  // any_timestamp: every TIMESTAMP column counts as an event time (a regular join's state retention,
  // ExtractTimeDifferenceBounds); proctime attributes never do then.
  Extractor(const Schema& left, const Schema& right, bool any_timestamp = false)
      : left_(left), right_(right), any_timestamp_(any_timestamp) {}

  TimeAttribute AttributeOf(int column) const {
    const size_t nl = left_.size();
    const size_t c = static_cast<size_t>(column);
    const LogicalType& t = c < nl ? left_.field(c).type : right_.field(c - nl).type;
    if (!any_timestamp_) return t.time_attribute();
    if (t.id() != TypeId::kTimestamp || t.time_attribute() == TimeAttribute::kProctime) return TimeAttribute::kNone;
    return TimeAttribute::kRowtime;
  }

  // Whether `e` is the time attribute `*access` shifted by a constant: a reference to it, CASTs
  // between timestamps of one kind (precision >= 3, so no value changes), and +/- a constant
  // DAY-TO-SECOND interval. Sets *access on the first time attribute found.
  bool ShiftedTime(const Expr& e, TimeAccess* access) const {
    switch (e.kind) {
      case ExprKind::kColumnRef: {
        const TimeAttribute a = AttributeOf(e.column_index);
        if (a == TimeAttribute::kNone || access->column >= 0) return false;
        access->column = e.column_index;
        access->rowtime = a == TimeAttribute::kRowtime;
        return true;
      }
      case ExprKind::kCast: {
        const LogicalType& from = e.args[0]->type;
        if (from.id() != e.type.id() || !from.IsTimestamp() || e.type.precision() < 3) return false;
        return ShiftedTime(*e.args[0], access);
      }
      case ExprKind::kCall: {
        if (!e.function || e.args.size() != 2 || (e.function->name != "+" && e.function->name != "-")) return false;
        auto constant_interval = [](const Expr& x) {
          return x.type.id() == TypeId::kIntervalDayTime && x.IsConstant();
        };
        if (constant_interval(*e.args[1])) return ShiftedTime(*e.args[0], access);
        if (e.function->name == "+" && constant_interval(*e.args[0])) return ShiftedTime(*e.args[1], access);
        return false;
      }
      default: return false;
    }
  }

  // The value of `e` (a ShiftedTime expression) with its time attribute at the epoch: the shift in
  // microseconds.
  std::optional<int64_t> Shift(const ExprPtr& e, int column) const {
    std::vector<ExprPtr> subst;
    const size_t n = left_.size() + right_.size();
    for (size_t i = 0; i < n; ++i) {
      LogicalType t = i < left_.size() ? left_.field(i).type : right_.field(i - left_.size()).type;
      t = t.WithTimeAttribute(TimeAttribute::kNone);
      subst.push_back(static_cast<int>(i) == column ? MakeLiteral(Value::Int(t, 0)) : MakeLiteral(Value::Null(t)));
    }
    EvalContext ctx;
    auto v = EvaluateConstant(*SubstituteColumns(e, subst), ctx);
    if (!v.ok() || v->is_null()) return std::nullopt;
    return v->int_value();
  }

  // One time predicate `a op b`: a lower or upper bound of l.ts - r.ts in milliseconds.
  struct Bound {
    bool lower;  // lower bound (else upper); both for an equality
    bool equality;
    int64_t ms;
    int left_time, right_time;  // input indexes
    bool rowtime;
    int64_t micros;  // the same bound in microseconds, exact: l - r >= micros (lower), <= (upper)
  };

  std::optional<Bound> TimePredicate(const std::string& op, const ExprPtr& a, const ExprPtr& b) const {
    TimeAccess ta, tb;
    if (!ShiftedTime(*a, &ta) || !ShiftedTime(*b, &tb)) return std::nullopt;
    if (ta.rowtime != tb.rowtime) return std::nullopt;
    const int nl = static_cast<int>(left_.size());
    const bool a_left = ta.column < nl;
    if (a_left == (tb.column < nl)) return std::nullopt;
    auto sa = Shift(a, ta.column);
    auto sb = Shift(b, tb.column);
    if (!sa || !sb) return std::nullopt;
    // With the left operand's shift sl and the right's sr: `l + sl op r + sr`, i.e. l - r op sr - sl.
    // Normalize so the left input's time is on the left of the comparison.
    std::string o = op;
    int64_t offset = *sb - *sa;
    if (!a_left) {
      offset = *sa - *sb;
      if (o == "<") o = ">";
      else if (o == "<=") o = ">=";
      else if (o == ">") o = "<";
      else if (o == ">=") o = "<=";
    }
    Bound bound;
    bound.equality = o == "=";
    bound.lower = o == ">" || o == ">=" || o == "=";
    bound.rowtime = ta.rowtime;
    bound.left_time = a_left ? ta.column : tb.column;
    bound.right_time = (a_left ? tb.column : ta.column) - nl;
    // Bounds are whole milliseconds, as Flink's (time attributes have millisecond precision): a strict
    // bound moves by one unit, then rounds inwards.
    if (o == ">") offset += 1;
    if (o == "<") offset -= 1;
    bound.micros = offset;
    auto floor_div = [](int64_t x) { return x >= 0 ? x / kMicrosPerMilli : -((-x + kMicrosPerMilli - 1) / kMicrosPerMilli); };
    if (bound.equality) {
      if (offset % kMicrosPerMilli != 0) return std::nullopt;
      bound.ms = offset / kMicrosPerMilli;
    } else if (bound.lower) {
      bound.ms = -floor_div(-offset);  // ceil
    } else {
      bound.ms = floor_div(offset);
    }
    return bound;
  }

 private:
  const Schema& left_;
  const Schema& right_;
  bool any_timestamp_ = false;
};

bool SameBound(const Extractor::Bound& a, const Extractor::Bound& b) {
  return a.lower == b.lower && a.equality == b.equality && a.ms == b.ms && a.left_time == b.left_time &&
         a.right_time == b.right_time && a.rowtime == b.rowtime;
}

const char* ComparisonOp(const Expr& e) {
  if (e.kind != ExprKind::kCall || !e.function || e.args.size() != 2) return nullptr;
  for (const char* op : {"<", "<=", ">", ">=", "="}) {
    if (e.function->name == op) return op;
  }
  return nullptr;
}

}  // namespace

std::optional<IntervalBounds> ExtractIntervalBounds(const ExprPtr& condition, const Schema& left, const Schema& right) {
  if (!condition) return std::nullopt;
  Extractor x(left, right);
  std::vector<ExprPtr> conjuncts = condition->kind == ExprKind::kAnd ? condition->args : std::vector<ExprPtr>{condition};
  std::vector<Extractor::Bound> bounds;
  IntervalBounds out;
  for (const auto& c : conjuncts) {
    std::vector<Extractor::Bound> found;
    if (const char* op = ComparisonOp(*c)) {
      auto b = x.TimePredicate(op, c->args[0], c->args[1]);
      if (b) found.push_back(*b);
    } else if (c->kind == ExprKind::kCall && c->function && c->function->name == "BETWEEN" && c->args.size() == 3) {
      // x BETWEEN lo AND hi: x >= lo AND x <= hi, both time predicates or neither.
      auto lo = x.TimePredicate(">=", c->args[0], c->args[1]);
      auto hi = x.TimePredicate("<=", c->args[0], c->args[2]);
      if (lo && hi) found = {*lo, *hi};
    }
    if (found.empty()) continue;
    // A bound repeated (`u.ts >= t.ts` in ON and again in WHERE) counts once: Flink's condition
    // simplification drops the duplicate conjunct before its interval join rule looks.
    for (const auto& b : found) {
      bool repeated = false;
      for (const auto& seen : bounds) repeated |= SameBound(seen, b);
      if (!repeated) bounds.push_back(b);
    }
    out.time_predicates.push_back(c.get());
  }
  // One equality, or two range predicates bounding the difference from both sides (Flink's rule).
  if (bounds.empty() || bounds.size() > 2) return std::nullopt;
  if (bounds.size() == 1 && !bounds[0].equality) return std::nullopt;
  if (bounds.size() == 2) {
    if (bounds[0].equality || bounds[1].equality || bounds[0].lower == bounds[1].lower) return std::nullopt;
    if (bounds[0].left_time != bounds[1].left_time || bounds[0].right_time != bounds[1].right_time) return std::nullopt;
  }
  out.rowtime = bounds[0].rowtime;
  out.left_time = bounds[0].left_time;
  out.right_time = bounds[0].right_time;
  if (bounds.size() == 1) {
    out.lower_ms = out.upper_ms = bounds[0].ms;
  } else {
    const auto& lo = bounds[0].lower ? bounds[0] : bounds[1];
    const auto& hi = bounds[0].lower ? bounds[1] : bounds[0];
    out.lower_ms = lo.ms;
    out.upper_ms = hi.ms;
  }
  return out;
}

std::vector<TimeDifferenceBound> ExtractTimeDifferenceBounds(const ExprPtr& condition, const Schema& left,
                                                             const Schema& right) {
  std::vector<TimeDifferenceBound> out;
  if (!condition) return out;
  Extractor x(left, right, /*any_timestamp=*/true);
  auto add = [&](const std::optional<Extractor::Bound>& b) {
    if (!b) return;
    if (b->lower || b->equality) out.push_back({b->left_time, b->right_time, /*lower=*/true, b->micros});
    if (!b->lower || b->equality) out.push_back({b->left_time, b->right_time, /*lower=*/false, b->micros});
  };
  std::vector<ExprPtr> conjuncts = condition->kind == ExprKind::kAnd ? condition->args : std::vector<ExprPtr>{condition};
  for (const auto& c : conjuncts) {
    if (const char* op = ComparisonOp(*c)) {
      add(x.TimePredicate(op, c->args[0], c->args[1]));
    } else if (c->kind == ExprKind::kCall && c->function && c->function->name == "BETWEEN" && c->args.size() == 3) {
      add(x.TimePredicate(">=", c->args[0], c->args[1]));
      add(x.TimePredicate("<=", c->args[0], c->args[2]));
    }
  }
  return out;
}

PlanNodePtr IntervalJoinRule::Apply(const PlanNodePtr& node) {
  auto rule = [this](const PlanNode&, const PlanNodePtr& out) -> Result<PlanNodePtr> {
    if (out->kind != PlanKind::kJoin) return out;
    PlanNodePtr rewritten = Rewrite(out->As<JoinNode>());
    return rewritten ? rewritten : out;
  };
  return RewriteBottomUp(node, rule, &memo_).value();  // the rule never fails
}

PlanNodePtr IntervalJoinRule::Rewrite(const JoinNode& join) {
  const Schema& left = join.inputs[0]->schema;
  const Schema& right = join.inputs[1]->schema;
  if (IsSemiOrAnti(join.join_type)) return nullptr;  // IN / EXISTS stay regular semi/anti joins
  auto bounds = ExtractIntervalBounds(join.condition, left, right);
  if (!bounds) return nullptr;
  auto ij = std::make_shared<IntervalJoinNode>();
  ij->schema = join.schema;
  ij->join_type = join.join_type;
  ij->condition = join.condition;
  ij->rowtime = bounds->rowtime;
  ij->lower_ms = bounds->lower_ms;
  ij->upper_ms = bounds->upper_ms;
  ij->left_time = bounds->left_time;
  ij->right_time = bounds->right_time;
  // The time equality (l.ts = r.ts) is a bound, not a key (Flink's computeJoinLeftKeys).
  for (size_t k = 0; k < join.left_keys.size(); ++k) {
    if (join.left_keys[k] == ij->left_time && join.right_keys[k] == ij->right_time) continue;
    ij->left_keys.push_back(join.left_keys[k]);
    ij->right_keys.push_back(join.right_keys[k]);
  }
  std::vector<ExprPtr> residual;
  if (join.residual) {
    std::vector<ExprPtr> parts = join.residual->kind == ExprKind::kAnd ? join.residual->args : std::vector<ExprPtr>{join.residual};
    for (const auto& p : parts) {
      bool time_predicate = false;
      for (const Expr* t : bounds->time_predicates) time_predicate |= t == p.get();
      if (!time_predicate) residual.push_back(p);
    }
  }
  if (residual.size() == 1) {
    ij->residual = residual[0];
  } else if (residual.size() > 1) {
    auto e = std::make_shared<Expr>();
    e->kind = ExprKind::kAnd;
    e->type = LogicalType::Boolean();
    e->args = residual;
    ij->residual = e;
  }
  // Rows are distributed by the remaining keys (a single task when none remain).
  auto exchange = [](const PlanNodePtr& in, const std::vector<int>& keys) -> PlanNodePtr {
    if (in->kind != PlanKind::kExchange) return in;
    auto x = std::make_shared<ExchangeNode>(in->As<ExchangeNode>());
    x->keys = keys;
    return x;
  };
  ij->inputs = {exchange(join.inputs[0], ij->left_keys), exchange(join.inputs[1], ij->right_keys)};
  return ij;
}

std::string IntervalJoinNode::ExplainAttributes() const {
  static const char* kTypes[] = {"InnerJoin", "LeftOuterJoin", "RightOuterJoin", "FullOuterJoin"};
  std::vector<std::string> names = inputs[0]->schema.names();
  for (const auto& n : inputs[1]->schema.names()) names.push_back(n);
  std::string select;
  for (const auto& n : schema.names()) select += (select.empty() ? "" : ", ") + n;
  return std::string("joinType=[") + kTypes[static_cast<int>(join_type)] + "], windowBounds=[isRowTime=" +
         (rowtime ? "true" : "false") + ", leftLowerBound=" + std::to_string(lower_ms) + ", leftUpperBound=" +
         std::to_string(upper_ms) + ", leftTimeIndex=" + std::to_string(left_time) + ", rightTimeIndex=" +
         std::to_string(right_time) + "], where=[" + (condition ? condition->ToString(&names) : std::string("true")) +
         "], select=[" + select + "]";
}

}  // namespace sluice
