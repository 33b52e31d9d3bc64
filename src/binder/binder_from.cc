// Binding of the FROM clause (binder.h): tables, views, joins, UNNEST and state TTL hints.
#include "binder/binder.h"

#include <algorithm>
#include <cmath>
#include <charconv>
#include <cerrno>
#include <cstdlib>
#include <limits>
#include <set>

#include "binder/binder_util.h"
#include "common/config.h"
#include "common/time_util.h"
#include "function/aggregate/aggregate_function.h"
#include "function/cast.h"
#include "function/evaluator.h"
#include "function/function_registry.h"
#include "function/scalar_function.h"
#include "plan/interval_join_rule.h"
#include "types/value_format.h"
#include "sql/unparser.h"

namespace sluice {

using namespace binder_internal;  // NOLINT: the helpers the binder's files share

namespace {

// ON TRUE, the only condition a join with UNNEST takes.
bool IsOnTrue(const ast::Join& join) {
  return join.on && join.on->kind == ast::ExprKind::kLiteral &&
         join.on->As<ast::Literal>().literal_kind == ast::LiteralKind::kBoolean && join.on->As<ast::Literal>().bool_value;
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// Relations

Result<Binder::Relation> Binder::ScanTable(std::shared_ptr<const CatalogTable> table, const ast::TableName* ref) {
  auto scan = std::make_shared<TableSourceScanNode>();
  scan->table = table;
  Schema phys = table->physical_schema();
  for (size_t i = 0; i < phys.size(); ++i) {
    scan->projection.push_back(static_cast<int>(i));
    scan->schema.Add(phys.field(i).name, phys.field(i).type);
  }
  for (size_t i = 0; i < table->columns.size(); ++i) {
    const auto& c = table->columns[i];
    if (c.kind == ast::ColumnKind::kMetadata) {
      scan->metadata.push_back(static_cast<int>(i));
      scan->schema.Add(c.name, c.type);
    }
  }
  if (ref) {
    for (const auto& h : ref->hints) {
      if (Upper(h.name) != "OPTIONS") return Error(h.pos, "Unknown table hint '" + h.name + "' (Sluice knows OPTIONS)");
      for (const auto& kv : h.kv_options) scan->hint_options.push_back(kv);
    }
  }
  PlanNodePtr node = scan;
  // Declared order, with computed columns evaluated over physical + metadata columns.
  bool identity = true;
  for (size_t i = 0; i < table->columns.size(); ++i) {
    if (table->columns[i].kind != ast::ColumnKind::kPhysical) identity = false;
  }
  if (!identity) {
    Scope base;
    for (const auto& f : scan->schema.fields()) base.columns.push_back({"", f.name, f.type});
    auto calc = std::make_shared<CalcNode>();
    calc->inputs = {node};
    size_t phys_i = 0, meta_i = phys.size();
    for (const auto& c : table->columns) {
      ExprPtr e;
      if (c.kind == ast::ColumnKind::kPhysical) {
        e = MakeColumnRef(static_cast<int>(phys_i), scan->schema.field(phys_i).type);
        ++phys_i;
      } else if (c.kind == ast::ColumnKind::kMetadata) {
        e = MakeColumnRef(static_cast<int>(meta_i), scan->schema.field(meta_i).type);
        ++meta_i;
      } else {
        ASSIGN_OR_RETURN(e, BindExpr(*c.expr, base));
      }
      calc->projections.push_back(e);
      calc->schema.Add(c.name, e->type);
    }
    node = calc;
  }
  if (table->rowtime_column) {
    auto wm = std::make_shared<WatermarkAssignerNode>();
    wm->inputs = {node};
    wm->rowtime_index = static_cast<int>(*table->rowtime_column);
    Scope s;
    for (const auto& f : node->schema.fields()) s.columns.push_back({"", f.name, f.type});
    ASSIGN_OR_RETURN(wm->watermark, BindExpr(*table->watermark_expr, s));
    wm->schema = table->schema();
    node = wm;
  } else {
    // Computed columns keep their declared types (PROCTIME() keeps *PROCTIME*).
    node->schema = table->schema();
  }
  Relation rel;
  rel.node = node;
  std::string qualifier = ref && !ref->alias.empty() ? ref->alias : table->path.name;
  for (const auto& f : node->schema.fields()) rel.scope.columns.push_back({qualifier, f.name, f.type});
  return rel;
}

Result<Binder::Relation> Binder::BindTable(const ast::TableName& ref) {
  if (ref.for_system_time && !temporal_right_) {
    return Error(ref.pos, "FOR SYSTEM_TIME AS OF is only allowed on the right side of a JOIN (a temporal join)");
  }
  // A CTE by that name?
  if (ref.name.size() == 1) {
    for (auto it = ctes_.rbegin(); it != ctes_.rend(); ++it) {
      auto f = it->find(ref.name[0]);
      if (f == it->end()) continue;
      const ast::Cte* cte = f->second;
      ASSIGN_OR_RETURN(Relation rel, BindQueryBody(*cte->query));
      if (!cte->columns.empty()) {
        if (cte->columns.size() != rel.node->schema.size()) {
          return Error(cte->pos, "WITH list of '" + cte->name + "' has " + std::to_string(cte->columns.size()) +
                                     " columns but the query has " + std::to_string(rel.node->schema.size()));
        }
        Schema s;
        for (size_t i = 0; i < cte->columns.size(); ++i) s.Add(cte->columns[i], rel.node->schema.field(i).type);
        rel.node->schema = s;
      }
      std::string q = ref.alias.empty() ? cte->name : ref.alias;
      rel.scope.columns.clear();
      for (const auto& fld : rel.node->schema.fields()) rel.scope.columns.push_back({q, fld.name, fld.type});
      return rel;
    }
  }
  auto path = catalog_->Resolve(ref.name);
  if (!path.ok()) return Error(ref.pos, path.status().message());
  auto entry = catalog_->Lookup(*path);
  if (!entry.ok()) return Error(ref.pos, entry.status().message());
  if (entry->table) return ScanTable(entry->table, &ref);
  // A view: bind its query in place.
  const auto& view = entry->view;
  if (++view_depth_ > 32) return Error(ref.pos, "View '" + view->path.name + "' refers to itself");
  auto saved = std::move(ctes_);
  ctes_.clear();
  Result<Relation> rel = BindQueryBody(*view->ddl->query);
  ctes_ = std::move(saved);
  --view_depth_;
  if (!rel.ok()) return rel.status().WithContext("In view '" + view->path.name + "'");
  Relation out = std::move(rel).value();
  // Rename to the view's declared column names.
  if (!view->ddl->columns.empty()) {
    Schema s;
    for (size_t i = 0; i < out.node->schema.size(); ++i) s.Add(view->schema.field(i).name, out.node->schema.field(i).type);
    auto calc = std::make_shared<CalcNode>();
    calc->inputs = {out.node};
    calc->projections = IdentityProjections(out.node->schema);
    calc->schema = s;
    out.node = calc;
  }
  std::string q = ref.alias.empty() ? view->path.name : ref.alias;
  out.scope.columns.clear();
  for (const auto& f : out.node->schema.fields()) out.scope.columns.push_back({q, f.name, f.type});
  return out;
}

// UNNEST(a, b, ...): Flink 2.2.1's planner derives the row of the first collection only and fails
// reading the next one's column ("Index N out of bounds for length N", N the first collection's
// columns with ORDINALITY's); Sluice refuses it with that message (docs/sql.md, UNNEST).
Status Binder::RefuseSeveralUnnested(const ast::Unnest& unnest, const LogicalType& first) const {
  size_t n = first.id() == TypeId::kMap ? 2 : first.child(0).id() == TypeId::kRow ? first.child(0).num_children() : 1;
  if (unnest.with_ordinality) ++n;
  const std::string index = std::to_string(n);
  return Status::NotSupported("UNNEST of several collections fails in Flink 2.2.1's planner: Index " + index +
                              " out of bounds for length " + index + " (at line " + std::to_string(unnest.pos.line) +
                              ", column " + std::to_string(unnest.pos.column) +
                              "); unnest each collection in its own CROSS JOIN UNNEST");
}

Result<Binder::Relation> Binder::BindUnnest(Relation left, const ast::Unnest& unnest, bool left_outer) {
  ASSIGN_OR_RETURN(ExprPtr coll, BindExpr(*unnest.args[0], left.scope));
  const LogicalType& t = coll->type;
  if (!t.IsList()) return Error(unnest.pos, "UNNEST needs an ARRAY, MAP or MULTISET, got " + t.ToString());
  if (unnest.args.size() != 1) return RefuseSeveralUnnested(unnest, t);
  auto node = std::make_shared<CorrelateNode>();
  node->inputs = {left.node};
  node->collection = coll;
  node->left_outer = left_outer;
  node->with_ordinality = unnest.with_ordinality;
  node->schema = left.node->schema;
  std::vector<std::pair<std::string, LogicalType>> elem_cols;
  if (t.id() == TypeId::kMap) {
    elem_cols.push_back({"KEY", t.child(0)});
    elem_cols.push_back({"VALUE", t.child(1)});
  } else if (t.child(0).id() == TypeId::kRow) {
    for (size_t i = 0; i < t.child(0).num_children(); ++i) elem_cols.push_back({t.child(0).field_name(i), t.child(0).child(i)});
  } else {
    elem_cols.push_back({"EXPR$0", t.child(0)});
  }
  if (unnest.with_ordinality) elem_cols.push_back({"ORDINALITY", LogicalType::Integer().WithNullable(false)});
  if (!unnest.column_aliases.empty()) {
    if (unnest.column_aliases.size() != elem_cols.size()) {
      return Error(unnest.pos, "UNNEST yields " + std::to_string(elem_cols.size()) + " columns but " +
                                   std::to_string(unnest.column_aliases.size()) + " aliases were given");
    }
    for (size_t i = 0; i < elem_cols.size(); ++i) elem_cols[i].first = unnest.column_aliases[i];
  }
  std::string q = unnest.alias;
  Relation out;
  out.scope = left.scope;
  for (auto& [n, ty] : elem_cols) {
    LogicalType et = left_outer ? ty.WithNullable(true) : ty;
    node->schema.Add(n, et);
    out.scope.columns.push_back({q, n, et});
  }
  std::vector<std::string> names = node->schema.names();
  Uniquify(&names);
  Schema s;
  for (size_t i = 0; i < names.size(); ++i) s.Add(names[i], node->schema.field(i).type);
  node->schema = s;
  out.node = node;
  return out;
}

// A join with UNNEST on its right: CROSS, comma, or [LEFT] JOIN ... ON TRUE.
Result<Binder::Relation> Binder::BindUnnestJoin(const ast::Join& join) {
  bool left_outer = false;
  if (join.join_type == ast::JoinType::kLeft) {
    if (!IsOnTrue(join)) return NotSupported(join.pos, "LEFT JOIN UNNEST with a condition other than ON TRUE");
    left_outer = true;
  } else if (join.join_type == ast::JoinType::kInner) {
    if (!IsOnTrue(join)) return NotSupported(join.pos, "JOIN UNNEST with a condition other than ON TRUE");
  } else if (join.join_type != ast::JoinType::kCross && join.join_type != ast::JoinType::kComma) {
    return NotSupported(join.pos, "This join type with UNNEST");
  }
  ASSIGN_OR_RETURN(Relation left, BindTableRef(*join.left));
  return BindUnnest(std::move(left), join.right->As<ast::Unnest>(), left_outer);
}

// The join condition over the combined columns: ON's, or USING's equalities; null when there is none
// (an inner join only).
// The column of `scope` in [from, to) a USING / NATURAL join names `name` (not a helper column).
static std::optional<size_t> SideColumn(const Scope& scope, size_t from, size_t to, const std::string& name) {
  for (size_t i = from; i < to; ++i) {
    if (scope.columns[i].name == name && (scope.columns[i].qualifier.empty() || scope.columns[i].qualifier[0] != '$')) return i;
  }
  return std::nullopt;
}

// A NATURAL join's common columns: the left side's names the right side has, in the left's order.
static std::vector<std::string> NaturalNames(const Scope& left, const Scope& right) {
  std::vector<std::string> names;
  for (const auto& c : left.columns) {
    if (!c.qualifier.empty() && c.qualifier[0] == '$') continue;
    if (std::find(names.begin(), names.end(), c.name) != names.end()) continue;
    if (SideColumn(right, 0, right.columns.size(), c.name)) names.push_back(c.name);
  }
  return names;
}

// A join's columns: the left side's, then the right side's (nullable on an outer join's null side).
// Regular joins materialize time attributes (they are plain timestamps afterwards, as in Flink); a
// temporal join keeps the left side's, whose watermark it forwards.
static Scope CombineScopes(const Scope& left, const Scope& right, bool temporal, bool left_nullable, bool right_nullable) {
  Scope combined;
  combined.using_columns = left.using_columns;
  combined.natural_names = left.natural_names;
  for (const auto& u : right.using_columns) combined.using_columns.push_back({u.qualifier, u.name, u.index + left.columns.size()});
  for (const auto& n : right.natural_names) combined.natural_names.push_back(n);
  for (const auto& c : left.columns) {
    LogicalType t = temporal ? c.type : c.type.WithTimeAttribute(TimeAttribute::kNone);
    combined.columns.push_back({c.qualifier, c.name, left_nullable ? t.WithNullable(true) : t});
  }
  for (const auto& c : right.columns) {
    LogicalType t = c.type.WithTimeAttribute(TimeAttribute::kNone);
    combined.columns.push_back({c.qualifier, c.name, right_nullable ? t.WithNullable(true) : t});
  }
  return combined;
}

Result<ExprPtr> Binder::BindJoinCondition(const ast::Join& join, const Relation& left, const Relation& right,
                                          const Scope& combined, JoinType type, const std::vector<std::string>& using_names) {
  const size_t nl = left.node->schema.size();
  ExprPtr cond;
  if (join.on) {
    Result<ExprPtr> bound = BindExpr(*join.on, combined);
    if (IsCorrelationRefusal(bound.status())) {
      // An enclosing query's column in the ON of a join inside a subquery: Flink's decorrelation leaves
      // the correlation in the join and fails (its variable is $cor1 there when the subquery's WHERE
      // correlates too).
      return Error(join.on->pos, "unexpected correlate variable $cor0 in the plan (a correlated reference in the ON "
                                 "condition of a join inside a subquery cannot be decorrelated, as in Flink)");
    }
    ASSIGN_OR_RETURN(cond, std::move(bound));
    if (cond->type.id() != TypeId::kBoolean) return Error(join.on->pos, "JOIN condition must be a BOOLEAN expression");
  } else if (!using_names.empty()) {
    std::vector<ExprPtr> eqs;
    for (const auto& u : using_names) {
      auto li = SideColumn(combined, 0, nl, u);
      auto ri = SideColumn(combined, nl, combined.columns.size(), u);
      if (!li || !ri) return Error(join.pos, "Column '" + u + "' in USING clause not found on both sides of the join");
      ASSIGN_OR_RETURN(ExprPtr eq, MakeFunctionCall("=", {MakeColumnRef(static_cast<int>(*li), combined.columns[*li].type),
                                                             MakeColumnRef(static_cast<int>(*ri), combined.columns[*ri].type)},
                                                    join.pos));
      eqs.push_back(eq);
    }
    cond = eqs.size() == 1 ? eqs[0] : MakeSpecial(ExprKind::kAnd, LogicalType::Boolean(), eqs);
  } else if (join.natural) {
    // A NATURAL join without common columns joins every pair (Calcite's condition TRUE).
    if (type != JoinType::kInner) cond = MakeLiteral(Value::Boolean(true));
  } else if (type != JoinType::kInner) {
    return Error(join.pos, "An outer join needs an ON or USING condition");
  }
  return cond;
}

namespace {
// Flink's subquery removal cannot decorrelate a subquery in a temporal join's ON.
constexpr const char* kTemporalOnSubquery =
    "unexpected correlate variable $cor0 in the plan (a subquery in the ON condition of a temporal join (FOR SYSTEM_TIME "
    "AS OF) cannot be decorrelated, as in Flink)";
}  // namespace

Result<Binder::Relation> Binder::BindJoin(const ast::Join& join) {
  const ast::TableRef& right = *join.right;
  if (right.kind == ast::TableRefKind::kUnnest) return BindUnnestJoin(join);
  if (right.kind == ast::TableRefKind::kTableFunction) return NotSupported(right.pos, "LATERAL TABLE function joins");
  const ast::Expr* as_of = right.kind == ast::TableRefKind::kTable ? right.As<ast::TableName>().for_system_time.get() : nullptr;
  ASSIGN_OR_RETURN(Relation left, BindTableRef(*join.left));
  temporal_right_ = as_of != nullptr;
  auto bound_right = BindTableRef(right);
  temporal_right_ = false;
  ASSIGN_OR_RETURN(Relation rightrel, std::move(bound_right));
  JoinType type = JoinType::kInner;
  switch (join.join_type) {
    case ast::JoinType::kLeft: type = JoinType::kLeft; break;
    case ast::JoinType::kRight: type = JoinType::kRight; break;
    case ast::JoinType::kFull: type = JoinType::kFull; break;
    default: type = JoinType::kInner; break;
  }
  // Subqueries in an outer join's ON: joined to the side whose columns they read (binder/subquery_mark.cc).
  bool side_subqueries = false;
  if (join.on && type != JoinType::kInner && !as_of) {
    ASSIGN_OR_RETURN(side_subqueries, JoinOnSubqueriesToSide(*join.on, &left, &rightrel));
  }
  const size_t nl = left.node->schema.size();
  bool left_nullable = type == JoinType::kRight || type == JoinType::kFull;
  bool right_nullable = type == JoinType::kLeft || type == JoinType::kFull;
  const std::vector<std::string> using_names = join.natural ? NaturalNames(left.scope, rightrel.scope) : join.using_columns;
  Scope combined = CombineScopes(left.scope, rightrel.scope, as_of != nullptr, left_nullable, right_nullable);
  auto node = std::make_shared<JoinNode>();
  node->join_type = type;
  for (const auto& c : left.scope.columns) {
    if (!c.qualifier.empty() && std::find(node->left_names.begin(), node->left_names.end(), c.qualifier) == node->left_names.end()) {
      node->left_names.push_back(c.qualifier);
    }
  }
  for (const auto& c : rightrel.scope.columns) {
    if (!c.qualifier.empty() && std::find(node->right_names.begin(), node->right_names.end(), c.qualifier) == node->right_names.end()) {
      node->right_names.push_back(c.qualifier);
    }
  }
  // Subqueries in ON: of an inner join, they are a filter over the join's rows (Flink's subquery
  // removal gives the same semi/anti and scalar joins over it); the plain conjuncts move back into the
  // join's condition through the filter-into-join rule.
  std::vector<const ast::Expr*> on_scalars;
  if (join.on) CollectScalarSubqueries(*join.on, &on_scalars);
  const bool on_subqueries = !side_subqueries && join.on && (HasSubqueryPredicate(*join.on) || !on_scalars.empty());
  // A temporal join's (an outer join's went to a side above): Flink's correlate over the versioned table.
  if (on_subqueries && (as_of || type != JoinType::kInner)) return Error(join.on->pos, kTemporalOnSubquery);
  ExprPtr cond;
  if (!on_subqueries) {
    auto bound = BindJoinCondition(join, left, rightrel, combined, type, using_names);
    if (side_subqueries) ForgetSubqueries(*join.on);
    ASSIGN_OR_RETURN(cond, std::move(bound));
  }
  std::vector<ExprPtr> residual = SplitEquiKeys(cond, nl, node.get());
  // An interval join keeps its inputs' time attributes, as Flink's RelTimeIndicatorConverter does, so
  // event-time operators can follow it (a processing-time one keeps processing time only); the
  // optimizer plans it (plan/interval_join_rule.h).
  if (!as_of && !(config_ && IsBatchRuntimeMode(*config_))) {
    if (auto bounds = ExtractIntervalBounds(cond, left.node->schema, rightrel.node->schema)) {
      const size_t nls = left.scope.columns.size();
      for (size_t i = 0; i < combined.columns.size(); ++i) {
        const LogicalType& in = i < nls ? left.scope.columns[i].type : rightrel.scope.columns[i - nls].type;
        if (in.time_attribute() == TimeAttribute::kRowtime && !bounds->rowtime) continue;
        combined.columns[i].type = combined.columns[i].type.WithTimeAttribute(in.time_attribute());
      }
    }
  }
  node->condition = cond;
  if (residual.size() == 1) node->residual = residual[0];
  else if (residual.size() > 1) node->residual = MakeSpecial(ExprKind::kAnd, LogicalType::Boolean(), residual);
  auto lx = std::make_shared<ExchangeNode>();
  lx->inputs = {left.node};
  lx->schema = left.node->schema;
  lx->keys = node->left_keys;
  auto rx = std::make_shared<ExchangeNode>();
  rx->inputs = {rightrel.node};
  rx->schema = rightrel.node->schema;
  rx->keys = node->right_keys;
  node->inputs = {lx, rx};
  std::vector<std::string> names;
  for (const auto& c : combined.columns) names.push_back(c.name);
  Uniquify(&names);
  for (size_t i = 0; i < names.size(); ++i) node->schema.Add(names[i], combined.columns[i].type);
  if (as_of) return FinishTemporalJoin(join, *as_of, std::move(left), std::move(rightrel), *node, std::move(combined));
  Relation out;
  out.node = node;
  out.scope = combined;
  if (on_subqueries) return BindWhere(*join.on, std::move(out));
  if (side_subqueries) return DropHelperColumns(std::move(out));
  if (!using_names.empty()) return FinishUsingJoin(join, std::move(out), nl, using_names);
  return out;
}

Result<Binder::Relation> Binder::FinishUsingJoin(const ast::Join& join, Relation joined, size_t nl,
                                                 const std::vector<std::string>& names) {
  const Scope& in = joined.scope;
  std::vector<size_t> li, ri;
  std::vector<bool> common(in.columns.size(), false);
  for (const auto& n : names) {
    li.push_back(*SideColumn(in, 0, nl, n));
    ri.push_back(*SideColumn(in, nl, in.columns.size(), n));
    common[li.back()] = common[ri.back()] = true;
  }
  auto calc = std::make_shared<CalcNode>();
  calc->inputs = {joined.node};
  Relation out;
  auto add = [&](ExprPtr e, ScopeColumn c) {
    calc->projections.push_back(e);
    out.scope.columns.push_back(std::move(c));
  };
  auto ref = [&](size_t i) { return MakeColumnRef(static_cast<int>(i), in.columns[i].type); };
  // Each common column once: COALESCE(left, right) in their common type, nullable when both are.
  for (size_t k = 0; k < names.size(); ++k) {
    std::vector<ExprPtr> args = {ref(li[k]), ref(ri[k])};
    ASSIGN_OR_RETURN(ExprPtr common_type, CastAllToCommon(&args, join.pos));
    const bool nullable = args[0]->type.nullable() && args[1]->type.nullable();
    add(MakeSpecial(ExprKind::kCoalesce, common_type->type.WithNullable(nullable), args), {"", names[k], common_type->type.WithNullable(nullable)});
  }
  for (size_t i = 0; i < in.columns.size(); ++i) {
    if (!common[i]) add(ref(i), in.columns[i]);
  }
  // Each side's own common column, for t.c: helper columns * leaves out.
  // (Earlier joins' helper columns are among the other columns: their places move.)
  std::vector<size_t> moved(in.columns.size(), 0);
  for (size_t i = 0, at = names.size(); i < in.columns.size(); ++i) {
    if (!common[i]) moved[i] = at++;
  }
  out.scope.using_columns = in.using_columns;
  for (auto& u : out.scope.using_columns) u.index = moved[u.index];
  for (size_t k = 0; k < names.size(); ++k) {
    for (size_t side : {li[k], ri[k]}) {
      const ScopeColumn& c = in.columns[side];
      out.scope.using_columns.push_back({c.qualifier, c.name, out.scope.columns.size()});
      add(ref(side), {"$over", c.qualifier + "." + c.name, c.type});
    }
  }
  out.scope.natural_names = in.natural_names;
  if (join.natural) {
    for (const auto& n : names) out.scope.natural_names.push_back(n);
  }
  std::vector<std::string> schema_names;
  for (const auto& c : out.scope.columns) schema_names.push_back(c.name);
  Uniquify(&schema_names);
  for (size_t i = 0; i < schema_names.size(); ++i) calc->schema.Add(schema_names[i], out.scope.columns[i].type);
  out.node = calc;
  return out;
}

Status Binder::ApplyStateTtlHints(const ast::Select& select, const Relation& from) {
  std::vector<std::pair<std::string, int64_t>> ttls;
  ast::SourcePos pos;
  for (const auto& h : select.hints) {
    if (Upper(h.name) != "STATE_TTL") continue;
    pos = h.pos;
    if (h.kv_options.empty()) return Error(h.pos, "STATE_TTL needs 'table' = 'duration' options, e.g. STATE_TTL('orders' = '1d')");
    for (const auto& [key, value] : h.kv_options) {
      auto ms = ParseDurationMillis(value);
      if (!ms.ok() || *ms < 0) return Error(h.pos, "STATE_TTL('" + key + "' = '" + value + "'): '" + value + "' is not a duration (e.g. '1d', '12 h', '30 min')");
      ttls.push_back({key, *ms});
    }
  }
  if (ttls.empty()) return Status::OK();
  std::vector<bool> used(ttls.size(), false);
  auto match = [&](const std::vector<std::string>& names, int64_t* ttl) {
    for (size_t i = 0; i < ttls.size(); ++i) {
      for (const auto& n : names) {
        if (n == ttls[i].first) {
          *ttl = ttls[i].second;
          used[i] = true;
        }
      }
    }
  };
  // The joins of the FROM clause (through the projections and exchanges the binder puts between them).
  std::vector<PlanNode*> stack = {from.node.get()};
  bool any_join = false;
  while (!stack.empty()) {
    PlanNode* n = stack.back();
    stack.pop_back();
    if (n->kind == PlanKind::kJoin) {
      any_join = true;
      auto& j = n->As<JoinNode>();
      match(j.left_names, &j.left_ttl_ms);
      match(j.right_names, &j.right_ttl_ms);
    }
    if (n->kind == PlanKind::kJoin || n->kind == PlanKind::kCalc || n->kind == PlanKind::kExchange) {
      for (const auto& in : n->inputs) stack.push_back(in.get());
    }
  }
  if (!any_join) {
    std::vector<std::string> names;
    for (const auto& c : from.scope.columns) {
      if (!c.qualifier.empty() && std::find(names.begin(), names.end(), c.qualifier) == names.end()) names.push_back(c.qualifier);
    }
    match(names, &aggregate_ttl_ms_);
  }
  std::string unmatched;
  for (size_t i = 0; i < ttls.size(); ++i) {
    if (!used[i]) unmatched += (unmatched.empty() ? "`" : ", `") + ttls[i].first + "`";
  }
  if (!unmatched.empty()) {
    return Error(pos, "The options of following hints cannot match the name of input tables or views: " + unmatched +
                          " in `STATE_TTL` (name a table or alias of this SELECT's FROM clause)");
  }
  return Status::OK();
}

Result<Binder::Relation> Binder::BindTableRef(const ast::TableRef& ref) {
  switch (ref.kind) {
    case ast::TableRefKind::kTable: return BindTable(ref.As<ast::TableName>());
    case ast::TableRefKind::kSubquery: {
      const auto& sq = ref.As<ast::SubqueryRef>();
      ASSIGN_OR_RETURN(Relation rel, BindQueryBody(*sq.query));
      if (!ref.column_aliases.empty()) {
        if (ref.column_aliases.size() != rel.node->schema.size()) {
          return Error(ref.pos, "List of column aliases must have same degree as table; table has " +
                                    std::to_string(rel.node->schema.size()) + " columns, whereas alias list has " +
                                    std::to_string(ref.column_aliases.size()) + " columns");
        }
        auto calc = std::make_shared<CalcNode>();
        calc->inputs = {rel.node};
        calc->projections = IdentityProjections(rel.node->schema);
        for (size_t i = 0; i < ref.column_aliases.size(); ++i) calc->schema.Add(ref.column_aliases[i], rel.node->schema.field(i).type);
        rel.node = calc;
      }
      rel.scope.columns.clear();
      for (const auto& f : rel.node->schema.fields()) rel.scope.columns.push_back({ref.alias, f.name, f.type});
      return rel;
    }
    case ast::TableRefKind::kJoin: return BindJoin(ref.As<ast::Join>());
    case ast::TableRefKind::kMatchRecognize: return BindMatchRecognize(ref.As<ast::MatchRecognize>());
    case ast::TableRefKind::kTableFunction: return BindWindowTvf(ref.As<ast::TableFunctionRef>());
    case ast::TableRefKind::kUnnest: {
      // FROM UNNEST(...) alone: unnest over a single empty row.
      Relation one;
      auto values = std::make_shared<ValuesNode>();
      values->rows.push_back({});
      one.node = values;
      return BindUnnest(std::move(one), ref.As<ast::Unnest>(), false);
    }
  }
  return Error(ref.pos, "unsupported FROM item");
}

}  // namespace sluice
