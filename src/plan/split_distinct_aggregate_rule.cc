#include "plan/split_distinct_aggregate_rule.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <string>

#include "function/aggregate/aggregate_function.h"
#include "function/function_registry.h"
#include "plan/optimizer.h"

namespace sluice {

namespace {

// The partial and the final functions of a call Flink splits (its PARTIAL_FINAL_MAP): AVG runs as a
// partial $SUM0 and COUNT and a final $SUM0 of each (their quotient is the average), COUNT as a
// partial COUNT and a final $SUM0, the others as themselves. Flink's doAllAggSupportSplit keeps the
// one-phase plan for every other function (COLLECT, STDDEV/VAR which Sluice does not reduce to sums,
// ...), for FIRST_VALUE/LAST_VALUE with an order argument and for LISTAGG with a separator.
struct SplitFunctions {
  std::vector<std::string> partial;
  std::vector<std::string> final;
};

std::optional<SplitFunctions> PartialFinal(const AggregateCall& a) {
  if (!a.constant_args.empty()) return std::nullopt;
  const std::string& name = a.name;
  if (name == "AVG") return SplitFunctions{{"$SUM0", "COUNT"}, {"$SUM0", "$SUM0"}};
  if (name == "COUNT") return SplitFunctions{{"COUNT"}, {"$SUM0"}};
  if ((name == "FIRST_VALUE" || name == "LAST_VALUE" || name == "LISTAGG") && a.args.size() != 1) return std::nullopt;
  for (const char* same : {"SUM", "$SUM0", "MIN", "MAX", "FIRST_VALUE", "LAST_VALUE", "LISTAGG"}) {
    if (name == same) return SplitFunctions{{name}, {name}};
  }
  return std::nullopt;
}

// Calls whose arguments decide the bucket: DISTINCT ones, and MIN/MAX/FIRST_VALUE/LAST_VALUE (which
// would otherwise gather a hot key on one task when they retract).
bool NeedsHashField(const AggregateCall& a) {
  return a.distinct || a.name == "MIN" || a.name == "MAX" || a.name == "FIRST_VALUE" || a.name == "LAST_VALUE";
}

// Calcite's uniquification of a generated field name: `name`, else name_0, name_1, ...
std::string Unique(const std::string& name, std::set<std::string>* taken) {
  std::string out = name;
  for (int i = 0; taken->count(out); ++i) out = name + "_" + std::to_string(i);
  taken->insert(out);
  return out;
}

Result<AggregateCall> MakeCall(const std::string& name, std::vector<int> args, const PlanNode& input, bool distinct,
                               int filter, std::string output_name) {
  AggregateCall ac;
  ac.name = name;
  ac.args = std::move(args);
  for (int a : ac.args) {
    ac.arg_types.push_back(input.schema.field(static_cast<size_t>(a)).type.WithTimeAttribute(TimeAttribute::kNone));
    ac.arg_constants.push_back(std::nullopt);
  }
  std::vector<const Value*> constants(ac.args.size(), nullptr);
  ASSIGN_OR_RETURN(ac.function, ResolveAggregate(name, ac.arg_types, constants, /*needs_retract=*/false));
  ac.distinct = distinct;
  ac.filter = filter;
  ac.output_name = std::move(output_name);
  return ac;
}

// MOD(HASH_CODE(column), buckets) over `input`'s column.
Result<ExprPtr> BucketOf(const ExprPtr& column, int64_t buckets) {
  ASSIGN_OR_RETURN(ResolvedCall hash, ResolveScalar("HASH_CODE", {column->type}, {nullptr}));
  ExprPtr h = sluice::MakeCall(hash.function, {column});
  ExprPtr n = MakeLiteral(Value::Integer(static_cast<int32_t>(buckets)));
  ASSIGN_OR_RETURN(ResolvedCall mod, ResolveScalar("MOD", {h->type, n->type}, {nullptr, &n->literal}));
  return sluice::MakeCall(mod.function, {h, n});
}

// `input` with `extra` (expressions over `input`'s columns) appended, merged into the Calc `input`
// is (as Flink merges Calcs), or a new Calc over it.
std::shared_ptr<CalcNode> ExtendCalc(const PlanNodePtr& input, const std::vector<std::pair<std::string, ExprPtr>>& extra) {
  auto calc = std::make_shared<CalcNode>();
  const CalcNode* below = input->kind == PlanKind::kCalc ? &input->As<CalcNode>() : nullptr;
  if (below) {
    calc->inputs = below->inputs;
    calc->projections = below->projections;
    calc->condition = below->condition;
  } else {
    calc->inputs = {input};
    for (size_t i = 0; i < input->schema.size(); ++i) {
      calc->projections.push_back(MakeColumnRef(static_cast<int>(i), input->schema.field(i).type));
    }
  }
  calc->schema = input->schema;
  for (const auto& [name, e] : extra) {
    calc->projections.push_back(below ? SubstituteColumns(e, below->projections) : e);
    calc->schema.Add(name, e->type);
  }
  return calc;
}

// `input`'s columns and a bucket column MOD(HASH_CODE(c), buckets) per column c of `hashed`.
Result<std::shared_ptr<CalcNode>> BucketCalc(const PlanNodePtr& input, const std::vector<int>& hashed, int64_t buckets) {
  std::set<std::string> names;
  for (const auto& f : input->schema.fields()) names.insert(f.name);
  std::vector<std::pair<std::string, ExprPtr>> extra;
  for (int c : hashed) {
    ASSIGN_OR_RETURN(ExprPtr bucket, BucketOf(MakeColumnRef(c, input->schema.field(static_cast<size_t>(c)).type), buckets));
    extra.emplace_back(Unique("$f" + std::to_string(input->schema.size() + extra.size()), &names), bucket);
  }
  return ExtendCalc(input, extra);
}

// The binary operator (or function) `op` over two expressions, each cast to the type the resolved
// overload takes (as the binder casts implicitly: DECIMAL / BIGINT divides two DECIMALs).
Result<ExprPtr> Binary(const std::string& op, ExprPtr a, ExprPtr b) {
  ASSIGN_OR_RETURN(ResolvedCall call, ResolveScalar(op, {a->type, b->type}, {nullptr, nullptr}));
  std::vector<ExprPtr> args = {std::move(a), std::move(b)};
  for (size_t i = 0; i < args.size(); ++i) {
    const LogicalType& want = call.arg_types()[i];
    if (!args[i]->type.EqualsIgnoringNullability(want)) {
      args[i] = MakeCast(args[i], want.WithNullable(args[i]->type.nullable()), /*is_try=*/false);
    }
  }
  return sluice::MakeCall(call.function, std::move(args));
}

// `a = b` over two expressions (a BOOLEAN call).
Result<ExprPtr> Equals(const ExprPtr& a, const ExprPtr& b) { return Binary("=", a, b); }

// When the calls group by more than one set of columns (several DISTINCT arguments, or DISTINCT and
// plain calls), Flink expands every row once per set: an Expand that keeps the set's bucket columns
// and nulls the others, with the set's id `$e` (Calcite's grouping id over `full`: a bit per column
// the set leaves out, the first column highest), and a Calc with one filter column per call, `$g_<id>`
// (`$e = id`, ANDed with the call's own FILTER; a set's second and later columns `$g_<id>0`,
// `$g_<id>1`, ... in call order). Returns the Calc, and each call's filter column in it in `filters`.
Result<PlanNodePtr> ExpandPerSet(const std::shared_ptr<CalcNode>& calc, const std::vector<int>& full,
                                 const std::vector<std::set<int>>& call_sets, const std::vector<AggregateCall>& aggs,
                                 std::vector<int>* filters) {
  const size_t n = calc->schema.size();
  auto id_of = [&](const std::set<int>& set) {
    int64_t id = 0;
    for (size_t j = 0; j < full.size(); ++j) {
      if (!set.count(full[j])) id |= int64_t{1} << (full.size() - 1 - j);
    }
    return id;
  };
  std::set<int64_t> ids;
  for (const auto& set : call_sets) ids.insert(id_of(set));
  auto expand = std::make_shared<ExpandNode>();
  expand->inputs = {calc};
  for (int64_t id : ids) {
    std::vector<bool> keep(n, true);
    for (size_t j = 0; j < full.size(); ++j) {
      if (id & (int64_t{1} << (full.size() - 1 - j))) keep[static_cast<size_t>(full[j])] = false;
    }
    expand->keep.push_back(std::move(keep));
    expand->expand_ids.push_back(id);
  }
  for (size_t c = 0; c < n; ++c) {
    const Field& f = calc->schema.field(c);
    const bool nulled = std::find(full.begin(), full.end(), static_cast<int>(c)) != full.end() &&
                        std::any_of(expand->keep.begin(), expand->keep.end(), [&](const auto& k) { return !k[c]; });
    expand->schema.Add(f.name, nulled ? f.type.WithNullable(true) : f.type);
  }
  expand->schema.Add("$e", LogicalType::BigInt().WithNullable(false));
  auto filter_calc = std::make_shared<CalcNode>();
  filter_calc->inputs = {expand};
  for (size_t c = 0; c < n; ++c) {
    filter_calc->projections.push_back(MakeColumnRef(static_cast<int>(c), expand->schema.field(c).type));
    filter_calc->schema.Add(expand->schema.field(c).name, expand->schema.field(c).type);
  }
  const ExprPtr e = MakeColumnRef(static_cast<int>(n), expand->schema.field(n).type);
  std::map<std::pair<int64_t, int>, int> made;  // (id, own filter) -> column
  std::set<std::string> taken;                   // the Calc's column names so far
  for (size_t c = 0; c < n; ++c) taken.insert(filter_calc->schema.field(c).name);
  for (size_t a = 0; a < aggs.size(); ++a) {
    const int64_t id = id_of(call_sets[a]);
    const int own = aggs[a].filter;
    auto it = made.find({id, own});
    if (it != made.end()) {
      filters->push_back(it->second);
      continue;
    }
    ASSIGN_OR_RETURN(ExprPtr cond, Equals(e, MakeLiteral(Value::BigInt(id))));
    if (own >= 0) cond = AndAll({cond, MakeColumnRef(own, expand->schema.field(static_cast<size_t>(own)).type)});
    // Every column of a set is named $g_<id>; Calcite's project makes the later ones unique by appending
    // 0, 1, ... (its EXPR_SUGGESTER), so the first one in call order keeps the plain name.
    std::string name = "$g_" + std::to_string(id);
    for (int j = 0; taken.count(name); ++j) name = "$g_" + std::to_string(id) + std::to_string(j);
    taken.insert(name);
    const int column = static_cast<int>(filter_calc->projections.size());
    filter_calc->projections.push_back(cond);
    filter_calc->schema.Add(name, cond->type);
    made[{id, own}] = column;
    filters->push_back(column);
  }
  return PlanNodePtr(filter_calc);
}

// AVG from its final $SUM0 `sum` and COUNT `count` columns, as Flink's SplitAggregateRule writes it:
// IF(count = 0, NULL, sum / count), cast to AVG's type where the quotient's differs (INT / BIGINT
// is BIGINT). A CASE, which divides only the rows whose count is not 0 (the binder's IF is one too).
Result<ExprPtr> Average(const ExprPtr& sum, const ExprPtr& count, const LogicalType& type) {
  ASSIGN_OR_RETURN(ExprPtr quotient, Binary("/", sum, count));
  ASSIGN_OR_RETURN(ExprPtr empty, Equals(count, MakeLiteral(Value::BigInt(0))));
  auto e = std::make_shared<Expr>();
  e->kind = ExprKind::kCase;
  e->type = quotient->type.WithNullable(true);
  e->args = {empty, MakeLiteral(Value::Null(e->type)), quotient};
  e->has_else = true;
  ExprPtr avg = e;
  if (!avg->type.EqualsIgnoringNullability(type)) avg = MakeCast(avg, type.WithNullable(true), /*is_try=*/false);
  return avg;
}

// The final phase over `partial` (keys `full`, then the partial calls): per key of `agg`, each call's
// final functions over its partial results. Its output is `agg`'s, through a Calc computing the
// averages when there are AVG calls. Null when a final call's type differs from `agg`'s.
Result<PlanNodePtr> FinalPhase(const GroupAggregateNode& agg, const PlanNodePtr& partial, const std::vector<int>& full) {
  const size_t nk = agg.group_keys.size();
  auto ex2 = std::make_shared<ExchangeNode>();
  ex2->inputs = {partial};
  ex2->schema = partial->schema;
  auto final_agg = std::make_shared<GroupAggregateNode>();
  final_agg->inputs = {ex2};
  final_agg->partial_final = GroupAggregateNode::PartialFinal::kFinal;
  final_agg->state_ttl_ms = agg.state_ttl_ms;
  for (int k : agg.group_keys) {
    final_agg->group_keys.push_back(static_cast<int>(std::find(full.begin(), full.end(), k) - full.begin()));
  }
  ex2->keys = final_agg->group_keys;
  bool averages = false;
  for (const auto& a : agg.aggs) averages |= a.name == "AVG";
  std::set<std::string> final_names;
  for (size_t i = 0; i < nk; ++i) {
    final_names.insert(agg.schema.field(i).name);
    final_agg->schema.Add(agg.schema.field(i).name, agg.schema.field(i).type);
  }
  int x = 0;  // the next partial result
  std::vector<ExprPtr> outputs;  // per call of `agg`: its value over the final aggregate's columns
  for (size_t a = 0; a < agg.aggs.size(); ++a) {
    const Field& out = agg.schema.field(nk + a);
    std::vector<ExprPtr> columns;
    const SplitFunctions split = *PartialFinal(agg.aggs[a]);
    for (const std::string& split_fn : split.final) {
      // A NOT NULL SUM (of a NOT NULL argument) sums its partial results as $SUM0: a partial group of
      // another set of the Expand has a NULL partial sum, and a key whose first partial result is one
      // would print NULL into the NOT NULL column until its other partial results arrive (Flink prints a
      // placeholder -1 there; random query 2020-37, flink_differences.md#split-distinct-aggregation).
      const std::string fn = split_fn == "SUM" && !out.type.nullable() ? "$SUM0" : split_fn;
      const std::string name = Unique("$f" + std::to_string(nk + static_cast<size_t>(x)), &final_names);
      ASSIGN_OR_RETURN(AggregateCall call,
                       MakeCall(fn, {static_cast<int>(full.size()) + x++}, *partial, false, -1, name));
      const LogicalType type = call.function->result_type;
      if (averages) {
        final_agg->schema.Add(name, type);
      } else {
        if (!type.EqualsIgnoringNullability(out.type)) return PlanNodePtr();
        final_agg->schema.Add(out.name, out.type);
      }
      columns.push_back(MakeColumnRef(static_cast<int>(final_agg->schema.size() - 1), type));
      final_agg->aggs.push_back(std::move(call));
    }
    if (agg.aggs[a].name == "AVG") {
      ASSIGN_OR_RETURN(ExprPtr avg, Average(columns[0], columns[1], out.type));
      outputs.push_back(avg);
    } else {
      if (!columns[0]->type.EqualsIgnoringNullability(out.type)) return PlanNodePtr();
      outputs.push_back(columns[0]);
    }
  }
  if (!averages) return PlanNodePtr(final_agg);
  // Flink's STEP 4: a Calc over the final aggregate, the keys and each call's value.
  auto calc = std::make_shared<CalcNode>();
  calc->inputs = {final_agg};
  calc->schema = agg.schema;
  for (size_t i = 0; i < nk; ++i) calc->projections.push_back(MakeColumnRef(static_cast<int>(i), agg.schema.field(i).type));
  for (auto& o : outputs) calc->projections.push_back(std::move(o));
  return PlanNodePtr(calc);
}

// VAR_POP / VAR_SAMP / STDDEV_POP / STDDEV_SAMP (STDDEV and VARIANCE are the _SAMP ones): Flink's
// AggregateReduceFunctionsRule rewrites them before the split into sums and a count.
bool IsVariance(const AggregateCall& a) {
  const std::string& n = a.function->name;
  return a.args.size() == 1 && a.constant_args.empty() &&
         (n == "VAR_POP" || n == "VAR_SAMP" || n == "STDDEV_POP" || n == "STDDEV_SAMP");
}

// An aggregate whose calls were reduced, and each column of the original aggregate (keys, then
// calls) as an expression over the reduced one's columns.
struct Reduced {
  std::shared_ptr<GroupAggregateNode> agg;
  std::vector<ExprPtr> outputs;
};

// CASE(cond, NULL, value) in `value`'s type, made nullable.
ExprPtr NullIf(ExprPtr cond, ExprPtr value) {
  auto e = std::make_shared<Expr>();
  e->kind = ExprKind::kCase;
  e->type = value->type.WithNullable(true);
  e->args = {std::move(cond), MakeLiteral(Value::Null(e->type)), std::move(value)};
  e->has_else = true;
  return e;
}

// `e` cast to `type` (nullable as `e`) unless it has that type.
ExprPtr EnsureType(ExprPtr e, const LogicalType& type) {
  if (e->type.EqualsIgnoringNullability(type)) return e;
  const bool nullable = e->type.nullable();
  return MakeCast(std::move(e), type.WithNullable(nullable), /*is_try=*/false);
}

// Calcite's AggregateReduceFunctionsRule as Flink 2.2.1 runs it when an aggregate has a variance
// call: the calls become sums and counts of the input (with x * x appended where a variance needs
// it), and an expression per original call computes its value from them:
//   SUM(x)   = CASE(COUNT(x) = 0, NULL, $SUM0(x))         ($SUM0(x) alone when SUM is NOT NULL)
//   AVG(x)   = CAST(SUM(x) / COUNT(x))
//   VAR_POP  = (SUM(x * x) - SUM(x) * SUM(x) / COUNT(x)) / COUNT(x)
//   VAR_SAMP = (SUM(x * x) - SUM(x) * SUM(x) / COUNT(x)) / CASE(COUNT(x) = 1, NULL, COUNT(x) - 1)
//   STDDEV_* = POWER(VAR_*, 0.5)
// each in the call's type (x, SUM(x) cast to it where they differ: a DECIMAL's), cast back to it.
// Equal calls are computed once; the other calls are kept.
class Reducer {
 public:
  explicit Reducer(const GroupAggregateNode& agg) : agg_(agg), input_(agg.inputs[0]->inputs[0]), nk_(agg.group_keys.size()) {
    for (const auto& f : input_->schema.fields()) taken_.insert(f.name);
    reduced_ = std::make_shared<GroupAggregateNode>();
    reduced_->group_keys = agg.group_keys;
    reduced_->state_ttl_ms = agg.state_ttl_ms;
    for (size_t i = 0; i < nk_; ++i) reduced_->schema.Add(agg.schema.field(i).name, agg.schema.field(i).type);
  }

  Result<Reduced> Run() {
    std::vector<ExprPtr> outputs;
    for (size_t i = 0; i < nk_; ++i) outputs.push_back(MakeColumnRef(static_cast<int>(i), agg_.schema.field(i).type));
    for (size_t i = 0; i < agg_.aggs.size(); ++i) {
      const AggregateCall& a = agg_.aggs[i];
      const LogicalType& type = agg_.schema.field(nk_ + i).type;
      const std::string& fn = a.function->name;
      ExprPtr value;
      if (IsVariance(a)) {
        ASSIGN_OR_RETURN(value, Variance(a, type));
      } else if (fn == "AVG" && a.args.size() == 1) {
        ASSIGN_OR_RETURN(ExprPtr sum, AddCall("SUM", a.args[0], a));
        ASSIGN_OR_RETURN(ExprPtr count, AddCall("COUNT", a.args[0], a));
        ASSIGN_OR_RETURN(value, Binary("/", EnsureType(sum, type), count));
        value = EnsureType(value, type);
      } else if (fn == "SUM" && a.args.size() == 1) {
        ASSIGN_OR_RETURN(value, AddCall("$SUM0", a.args[0], a));
        if (type.nullable()) {
          ASSIGN_OR_RETURN(ExprPtr count, AddCall("COUNT", a.args[0], a));
          ASSIGN_OR_RETURN(ExprPtr empty, Equals(count, MakeLiteral(Value::Integer(0))));
          value = NullIf(empty, EnsureType(value, type));
        }
      } else {
        value = Add(a, type);
      }
      outputs.push_back(value);
    }
    auto exchange = std::make_shared<ExchangeNode>(agg_.inputs[0]->As<ExchangeNode>());
    exchange->inputs = {ExtendCalc(input_, extra_)};
    exchange->schema = exchange->inputs[0]->schema;
    reduced_->inputs = {exchange};
    return Reduced{reduced_, std::move(outputs)};
  }

 private:
  // The variance function `a` of x from SUM(x * x), SUM(x) and COUNT(x).
  Result<ExprPtr> Variance(const AggregateCall& a, const LogicalType& type) {
    const std::string& fn = a.function->name;
    const int x = a.args[0];
    ExprPtr xr = EnsureType(MakeColumnRef(x, input_->schema.field(static_cast<size_t>(x)).type), type);
    ASSIGN_OR_RETURN(ExprPtr square, Binary("*", xr, xr));
    ASSIGN_OR_RETURN(ExprPtr sum_sq, AddCall("SUM", AddColumn(square), a));
    ASSIGN_OR_RETURN(ExprPtr sum, AddCall("SUM", x, a));
    ASSIGN_OR_RETURN(ExprPtr count, AddCall("COUNT", x, a));
    sum = EnsureType(sum, type);
    ASSIGN_OR_RETURN(ExprPtr sum_squared, Binary("*", sum, sum));
    ASSIGN_OR_RETURN(ExprPtr mean_square, Binary("/", sum_squared, count));
    ASSIGN_OR_RETURN(ExprPtr diff, Binary("-", sum_sq, mean_square));
    ExprPtr denominator = count;
    if (fn == "VAR_SAMP" || fn == "STDDEV_SAMP") {
      ExprPtr one = MakeLiteral(Value::Integer(1));
      ASSIGN_OR_RETURN(ExprPtr is_one, Equals(count, one));
      ASSIGN_OR_RETURN(ExprPtr minus_one, Binary("-", count, one));
      denominator = NullIf(is_one, minus_one);
    }
    ASSIGN_OR_RETURN(ExprPtr value, Binary("/", diff, denominator));
    if (fn == "STDDEV_POP" || fn == "STDDEV_SAMP") {
      ASSIGN_OR_RETURN(value, Binary("POWER", value, MakeLiteral(Value::Decimal(2, 1, 5))));
    }
    return EnsureType(value, type);
  }

  // An input column computing `e` (over the input's columns), appended once per expression.
  int AddColumn(const ExprPtr& e) {
    const std::string key = e->ToString();
    auto it = extra_of_.find(key);
    if (it != extra_of_.end()) return it->second;
    const int c = static_cast<int>(input_->schema.size() + extra_.size());
    extra_.emplace_back(Unique("$f" + std::to_string(c), &taken_), e);
    extra_of_[key] = c;
    return c;
  }

  // `name`(column) with the DISTINCT and FILTER of `like`; SUM is NULL over no rows, COUNT never.
  Result<ExprPtr> AddCall(const char* name, int column, const AggregateCall& like) {
    const PlanNodePtr with_columns = ExtendCalc(input_, extra_);  // the reduced input as it is so far
    ASSIGN_OR_RETURN(AggregateCall call, MakeCall(name, {column}, *with_columns, like.distinct, like.filter, ""));
    LogicalType type = call.function->result_type;
    if (std::string(name) == "SUM") type = type.WithNullable(true);
    return Add(std::move(call), type);
  }

  // Adds `call` (or finds an equal one) and returns its output column.
  ExprPtr Add(AggregateCall call, const LogicalType& type) {
    std::string key = call.name + (call.distinct ? " distinct" : "") + " f" + std::to_string(call.filter);
    for (int a : call.args) key += " " + std::to_string(a);
    for (const Value& v : call.constant_args) key += " '" + v.ToString();
    const size_t at = std::find(call_keys_.begin(), call_keys_.end(), key) - call_keys_.begin();
    if (at == call_keys_.size()) {
      call_keys_.push_back(key);
      call.output_name = "$f" + std::to_string(nk_ + at);
      reduced_->schema.Add(call.output_name, type);
      reduced_->aggs.push_back(std::move(call));
    }
    return MakeColumnRef(static_cast<int>(nk_ + at), reduced_->schema.field(nk_ + at).type);
  }

  const GroupAggregateNode& agg_;
  const PlanNodePtr& input_;
  const size_t nk_;
  std::set<std::string> taken_;
  std::vector<std::pair<std::string, ExprPtr>> extra_;  // the appended input columns
  std::map<std::string, int> extra_of_;
  std::vector<std::string> call_keys_;
  std::shared_ptr<GroupAggregateNode> reduced_;
};

// The reduced `agg` when it has a variance call (Flink reduces only then), else nothing.
Result<std::optional<Reduced>> ReduceFunctions(const GroupAggregateNode& agg) {
  if (std::none_of(agg.aggs.begin(), agg.aggs.end(), IsVariance)) return std::optional<Reduced>();
  ASSIGN_OR_RETURN(Reduced r, Reducer(agg).Run());
  return std::optional<Reduced>(std::move(r));
}

// The split plan of `agg` (its calls all split, one DISTINCT), or null when Sluice keeps its
// one-phase plan.
Result<PlanNodePtr> SplitCalls(const GroupAggregateNode& agg, int64_t buckets) {
  const PlanNodePtr& input = agg.inputs[0]->inputs[0];
  const std::vector<int>& keys = agg.group_keys;
  auto is_key = [&](int c) { return std::find(keys.begin(), keys.end(), c) != keys.end(); };
  std::vector<int> hashed;  // input columns that get a bucket column, ascending
  for (const auto& a : agg.aggs) {
    if (!NeedsHashField(a)) continue;
    for (int c : a.args) {
      if (!is_key(c) && std::find(hashed.begin(), hashed.end(), c) == hashed.end()) hashed.push_back(c);
    }
  }
  std::sort(hashed.begin(), hashed.end());
  const int nin = static_cast<int>(input->schema.size());
  // Flink needs an Expand when the hashed calls group by more than one set of columns.
  std::set<std::set<int>> hashed_sets;
  std::vector<std::set<int>> call_sets;  // per call: the keys and the bucket columns of its arguments
  for (const auto& a : agg.aggs) {
    std::set<int> set(keys.begin(), keys.end());
    if (NeedsHashField(a)) {
      for (int c : a.args) {
        auto it = std::find(hashed.begin(), hashed.end(), c);
        set.insert(it == hashed.end() ? c : nin + static_cast<int>(it - hashed.begin()));
      }
      hashed_sets.insert(set);
    }
    call_sets.push_back(set);
  }
  const bool expand = hashed_sets.size() > 1;

  // A column HASH_CODE does not take (ARRAY, ROW, ...) keeps the one-phase plan.
  for (int c : hashed) {
    if (!ResolveScalar("HASH_CODE", {input->schema.field(static_cast<size_t>(c)).type}, {nullptr}).ok()) {
      return PlanNodePtr();
    }
  }
  ASSIGN_OR_RETURN(std::shared_ptr<CalcNode> calc, BucketCalc(input, hashed, buckets));

  // The partial phase: per key and bucket (Calcite's group set: ascending columns).
  std::set<int> full_set(keys.begin(), keys.end());
  for (size_t i = 0; i < hashed.size(); ++i) full_set.insert(nin + static_cast<int>(i));
  std::vector<int> full(full_set.begin(), full_set.end());
  PlanNodePtr below = calc;
  std::vector<int> filters;  // per call: its filter column below the partial phase
  for (const auto& a : agg.aggs) filters.push_back(a.filter);
  if (expand) {
    filters.clear();
    ASSIGN_OR_RETURN(below, ExpandPerSet(calc, full, call_sets, agg.aggs, &filters));
  }
  auto ex1 = std::make_shared<ExchangeNode>();
  ex1->inputs = {below};
  ex1->schema = below->schema;
  ex1->keys = full;
  auto partial = std::make_shared<GroupAggregateNode>();
  partial->inputs = {ex1};
  partial->group_keys = full;
  partial->partial_final = GroupAggregateNode::PartialFinal::kPartial;
  partial->state_ttl_ms = agg.state_ttl_ms;
  std::set<std::string> partial_names;
  for (int k : full) {
    const Field& f = below->schema.field(static_cast<size_t>(k));
    partial->schema.Add(Unique(f.name, &partial_names), f.type.WithTimeAttribute(TimeAttribute::kNone));
  }
  for (size_t i = 0; i < agg.aggs.size(); ++i) {
    const AggregateCall& a = agg.aggs[i];
    const SplitFunctions split = *PartialFinal(a);
    for (const std::string& fn : split.partial) {
      const std::string name = Unique("$f" + std::to_string(partial->schema.size()), &partial_names);
      ASSIGN_OR_RETURN(AggregateCall call, MakeCall(fn, a.args, *below, a.distinct, filters[i], name));
      partial->schema.Add(name, call.function->result_type);
      partial->aggs.push_back(std::move(call));
    }
  }
  return FinalPhase(agg, partial, full);
}

// The split plan of `agg`, or null when Sluice keeps its one-phase plan. Variance calls are first
// reduced to sums and counts (ReduceFunctions, which also reduces AVG and SUM then, as Flink), and a
// Calc over the split computes them.
Result<PlanNodePtr> Split(const GroupAggregateNode& agg, int64_t buckets) {
  if (agg.phase != GroupAggregateNode::Phase::kSingle || agg.partial_final != GroupAggregateNode::PartialFinal::kNone) {
    return PlanNodePtr();
  }
  if (agg.inputs[0]->kind != PlanKind::kExchange) return PlanNodePtr();
  bool any_distinct = false;
  for (const auto& a : agg.aggs) {
    if (!PartialFinal(a) && !IsVariance(a)) return PlanNodePtr();
    any_distinct |= a.distinct;
  }
  if (!any_distinct) return PlanNodePtr();
  ASSIGN_OR_RETURN(std::optional<Reduced> reduced, ReduceFunctions(agg));
  if (!reduced) return SplitCalls(agg, buckets);
  ASSIGN_OR_RETURN(PlanNodePtr split, SplitCalls(*reduced->agg, buckets));
  if (!split) return PlanNodePtr();
  // Flink's Calc over the final aggregate (merged with the split's own for AVG).
  const CalcNode* below = split->kind == PlanKind::kCalc ? &split->As<CalcNode>() : nullptr;
  auto calc = std::make_shared<CalcNode>();
  calc->inputs = below ? below->inputs : std::vector<PlanNodePtr>{split};
  for (size_t i = 0; i < reduced->outputs.size(); ++i) {
    const ExprPtr& o = reduced->outputs[i];
    calc->projections.push_back(below ? SubstituteColumns(o, below->projections) : o);
    // VAR_SAMP / STDDEV_SAMP of one row are NULL (the reduced expression's CASE), also where the
    // aggregate typed them NOT NULL.
    const Field& f = agg.schema.field(i);
    calc->schema.Add(f.name, o->type.nullable() ? f.type.WithNullable(true) : f.type);
  }
  return PlanNodePtr(calc);
}

class Splitter {
 public:
  explicit Splitter(int64_t buckets) : buckets_(buckets) {}

  Result<PlanNodePtr> Rewrite(const PlanNodePtr& node) {
    auto it = memo_.find(node.get());
    if (it != memo_.end()) return it->second;
    std::vector<PlanNodePtr> inputs;
    for (const auto& in : node->inputs) {
      ASSIGN_OR_RETURN(PlanNodePtr r, Rewrite(in));
      inputs.push_back(r);
    }
    PlanNodePtr out = CopyWithInputs(node, std::move(inputs));
    if (out->kind == PlanKind::kGroupAggregate) {
      ASSIGN_OR_RETURN(PlanNodePtr split, Split(out->As<GroupAggregateNode>(), buckets_));
      if (split) out = split;
    }
    memo_[node.get()] = out;
    return out;
  }

 private:
  int64_t buckets_;
  std::map<const PlanNode*, PlanNodePtr> memo_;
};

}  // namespace

Status ApplySplitDistinctAggregates(std::vector<PlanNodePtr>* roots, int64_t buckets) {
  if (buckets <= 0 || buckets > INT32_MAX) {
    return Status::InvalidArgument("'table.optimizer.distinct-agg.split.bucket-num' must be a positive INT, but is " +
                                   std::to_string(buckets));
  }
  Splitter splitter(buckets);
  for (auto& r : *roots) {
    ASSIGN_OR_RETURN(r, splitter.Rewrite(r));
  }
  return Status::OK();
}

}  // namespace sluice
