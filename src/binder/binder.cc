// The Binder's entry points (binder.h): errors, queries, INSERT and DDL. Its parts: binder_expr.cc
// and binder_literal.cc (expressions), binder_from.cc (FROM), binder_select.cc (SELECT, GROUP BY,
// ranking), binder_query.cc (set operations, VALUES, ORDER BY/LIMIT), create_table_from.cc (CREATE
// TABLE ... LIKE and ... AS SELECT), over_aggregate.cc,
// temporal_join.cc and window_tvf.cc.
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

Binder::Binder(const Catalog* catalog, const Configuration* config, EvalContext* eval_context,
               const std::map<std::string, std::string>* function_aliases)
    : catalog_(catalog), function_aliases_(function_aliases), config_(config), eval_context_(eval_context) {}

Status Binder::Error(ast::SourcePos pos, const std::string& message) const {
  if (pos.line > 0) {
    return Status::BindError("SQL validation failed. At line " + std::to_string(pos.line) + ", column " +
                             std::to_string(pos.column) + ": " + message);
  }
  return Status::BindError("SQL validation failed. " + message);
}

Status Binder::NotSupported(ast::SourcePos pos, const std::string& what) const {
  std::string where = pos.line > 0 ? " (line " + std::to_string(pos.line) + ", column " + std::to_string(pos.column) + ")" : "";
  return Status::NotSupported(what + " is not supported by Sluice yet" + where);
}


Result<PlanNodePtr> Binder::BindQuery(const ast::Query& query) {
  ASSIGN_OR_RETURN(Relation rel, BindQueryBody(query, /*top=*/true));
  return rel.node;
}

Result<PlanNodePtr> Binder::BindInsert(const ast::Insert& insert) {
  auto path = catalog_->Resolve(insert.target);
  if (!path.ok()) return Error(insert.pos, path.status().message());
  auto entry = catalog_->Lookup(*path);
  if (!entry.ok()) return Error(insert.pos, entry.status().message());
  if (!entry->table) return Error(insert.pos, "'" + path->name + "' is a view; INSERT needs a table");
  auto table = entry->table;
  if (insert.overwrite) {
    // Flink's batch filesystem sink replaces the files under its path (or partition); Sluice's sinks
    // only append, in either mode.
    const bool batch = config_ && IsBatchRuntimeMode(*config_);
    return NotSupported(insert.pos, batch ? "INSERT OVERWRITE (batch mode: Sluice's sinks append to what is there)"
                                          : "INSERT OVERWRITE in streaming mode");
  }
  if (!insert.static_partition.empty()) return NotSupported(insert.pos, "INSERT with a static PARTITION");
  ASSIGN_OR_RETURN(PlanNodePtr query, BindQuery(*insert.query));
  return BindInsertInto(table, query, insert.columns, &insert, insert.pos);
}

Result<PlanNodePtr> Binder::BindInsertInto(const std::shared_ptr<const CatalogTable>& table, const PlanNodePtr& query,
                                           const std::vector<std::string>& columns, const ast::Insert* insert,
                                           ast::SourcePos pos) {
  std::vector<size_t> targets = table->persisted_columns();
  // Map query columns to target columns.
  std::vector<int> source_of(targets.size(), -1);
  if (columns.empty()) {
    if (query->schema.size() != targets.size()) {
      std::string qs, ts;
      for (const auto& f : query->schema.fields()) qs += (qs.empty() ? "" : ", ") + f.name + ": " + f.type.ToString();
      for (size_t t : targets) ts += (ts.empty() ? "" : ", ") + table->columns[t].name + ": " + table->columns[t].type.ToString();
      return Error(pos, "Column types of query result and sink for '" + table->path.FullName() +
                                   "' do not match.\nCause: Different number of columns.\n\nQuery schema: [" + qs +
                                   "]\nSink schema:  [" + ts + "]");
    }
    for (size_t i = 0; i < targets.size(); ++i) source_of[i] = static_cast<int>(i);
  } else {
    if (columns.size() != query->schema.size()) {
      return Error(pos, "Number of columns in the INSERT column list (" + std::to_string(columns.size()) +
                                   ") does not match the query (" + std::to_string(query->schema.size()) + ")");
    }
    for (size_t q = 0; q < columns.size(); ++q) {
      bool found = false;
      for (size_t i = 0; i < targets.size(); ++i) {
        if (table->columns[targets[i]].name == columns[q]) {
          if (source_of[i] >= 0) return Error(pos, "Column '" + columns[q] + "' is listed twice");
          source_of[i] = static_cast<int>(q);
          found = true;
        }
      }
      if (!found) {
        std::vector<std::string> names;
        for (size_t t : targets) names.push_back(table->columns[t].name);
        std::string msg = "Unknown target column '" + columns[q] + "'";
        if (auto d = DidYouMean(columns[q], names)) msg += ". Did you mean '" + *d + "'?";
        return Error(pos, msg);
      }
    }
  }
  auto calc = std::make_shared<CalcNode>();
  calc->inputs = {query};
  bool identity = query->schema.size() == targets.size();
  for (size_t i = 0; i < targets.size(); ++i) {
    const CatalogColumn& col = table->columns[targets[i]];
    LogicalType target_type = col.type.WithTimeAttribute(TimeAttribute::kNone);
    ExprPtr e;
    if (source_of[i] < 0) {
      if (!target_type.nullable()) return Error(pos, "Column '" + col.name + "' has no default value and does not allow NULLs.");
      e = MakeLiteral(Value::Null(target_type));
      identity = false;
    } else {
      const Field& qf = query->schema.field(static_cast<size_t>(source_of[i]));
      e = MakeColumnRef(source_of[i], qf.type);
      if (source_of[i] != static_cast<int>(i)) identity = false;
      if (!qf.type.EqualsIgnoringNullability(target_type)) {
        if (!CanCast(qf.type, target_type, true)) {
          std::string qs, ts;
          for (const auto& f : query->schema.fields()) qs += (qs.empty() ? "" : ", ") + f.name + ": " + f.type.ToString();
          for (size_t t : targets) ts += (ts.empty() ? "" : ", ") + table->columns[t].name + ": " + table->columns[t].type.ToString();
          return Error(pos, "Column types of query result and sink for '" + table->path.FullName() +
                                       "' do not match.\nCause: Incompatible types for sink column '" + col.name +
                                       "' at position " + std::to_string(i) + ".\n\nQuery schema: [" + qs +
                                       "]\nSink schema:  [" + ts + "]");
        }
        e = MakeCast(e, target_type.WithNullable(qf.type.nullable()), false);
        identity = false;
      }
    }
    calc->projections.push_back(e);
    calc->schema.Add(col.name, e->type);
  }
  // The sink consumes the physical columns, then the persisted metadata columns (Flink's consumed
  // row of a SupportsWritingMetadata sink), whatever their declared order.
  std::vector<size_t> order;
  for (size_t i = 0; i < targets.size(); ++i) {
    if (table->columns[targets[i]].kind == ast::ColumnKind::kPhysical) order.push_back(i);
  }
  for (size_t i = 0; i < targets.size(); ++i) {
    if (table->columns[targets[i]].kind != ast::ColumnKind::kPhysical) order.push_back(i);
  }
  std::vector<ExprPtr> projections;
  Schema calc_schema;
  for (size_t o = 0; o < order.size(); ++o) {
    if (order[o] != o) identity = false;
    projections.push_back(calc->projections[order[o]]);
    calc_schema.Add(calc->schema.field(order[o]).name, calc->schema.field(order[o]).type);
  }
  calc->projections = std::move(projections);
  calc->schema = calc_schema;
  auto sink = std::make_shared<SinkNode>();
  sink->table = table;
  if (insert) {
    sink->conflict_strategy = insert->on_conflict;
    for (const auto& h : insert->hints) {
      for (const auto& kv : h.kv_options) sink->hint_options.push_back(kv);
    }
  }
  if (identity) {
    sink->inputs = {query};
  } else {
    sink->inputs = {calc};
  }
  Schema s;
  for (size_t o : order) s.Add(table->columns[targets[o]].name, table->columns[targets[o]].type);
  sink->schema = s;
  return PlanNodePtr(sink);
}

// ---------------------------------------------------------------------------------------------
// DDL

Result<std::shared_ptr<CatalogTable>> Binder::BindCreateTable(std::shared_ptr<const ast::CreateTable> ddl) {
  auto path = catalog_->Resolve(ddl->name);
  if (!path.ok()) return Error(ddl->pos, path.status().message());
  if (ddl->as_query) return Status::Internal("CREATE TABLE ... AS SELECT is bound by Binder::BindCreateTableAs");
  if (ddl->like) {
    ASSIGN_OR_RETURN(std::shared_ptr<ast::CreateTable> merged, MergeTableLike(*ddl));
    return BindCreateTable(merged);
  }
  auto t = std::make_shared<CatalogTable>();
  t->path = *path;
  t->temporary = ddl->temporary;
  t->ddl = ddl;
  std::set<std::string> names;
  std::vector<std::string> pk;
  for (const auto& c : ddl->columns) {
    if (!names.insert(c.name).second) return Error(c.pos, "A column named '" + c.name + "' already exists in the table");
  }
  // A column-level key is recorded by the parser as the table's key (a second one is refused there).
  if (ddl->primary_key) {
    if (ddl->primary_key->enforced) {
      return Error(ddl->primary_key->pos, "Flink doesn't support ENFORCED mode for PRIMARY KEY constraint. ENFORCED/NOT ENFORCED controls if the constraint checks are performed on the incoming/outgoing data. Flink does not own the data therefore the only supported mode is the NOT ENFORCED mode");
    }
    pk = ddl->primary_key->columns;
  }
  // Physical and metadata columns first, for the scope of computed columns.
  Scope base;
  for (const auto& c : ddl->columns) {
    if (c.column_kind != ast::ColumnKind::kComputed) base.columns.push_back({"", c.name, c.type});
  }
  for (const auto& c : ddl->columns) {
    CatalogColumn col;
    col.name = c.name;
    col.kind = c.column_kind;
    col.type = c.type;
    if (c.column_kind == ast::ColumnKind::kComputed) {
      ASSIGN_OR_RETURN(ExprPtr e, BindExpr(*c.expr, base));
      col.type = e->type;
      col.expr = c.expr.get();
    } else if (c.column_kind == ast::ColumnKind::kMetadata) {
      col.metadata_key = c.metadata_key.value_or(c.name);
      col.is_virtual = c.is_virtual;
    }
    if (std::find(pk.begin(), pk.end(), c.name) != pk.end()) {
      if (c.column_kind != ast::ColumnKind::kPhysical) {
        return Error(c.pos, "Could not create a PRIMARY KEY with column '" + c.name + "'. A PRIMARY KEY constraint must be declared on physical columns.");
      }
      col.type = col.type.WithNullable(false);
    }
    t->columns.push_back(col);
  }
  for (const auto& k : pk) {
    if (!names.count(k)) return Error(ddl->pos, "Could not create a PRIMARY KEY '" + k + "'. Column '" + k + "' does not exist.");
  }
  t->primary_key = pk;
  if (ddl->watermark) {
    const auto& wm = *ddl->watermark;
    if (wm.column.size() != 1) return NotSupported(wm.pos, "A watermark on a nested field");
    std::optional<size_t> idx;
    for (size_t i = 0; i < t->columns.size(); ++i) {
      if (t->columns[i].name == wm.column[0]) idx = i;
    }
    if (!idx) {
      std::vector<std::string> all(names.begin(), names.end());
      std::string msg = "The rowtime attribute field '" + wm.column[0] + "' is not defined in the table schema";
      if (auto d = DidYouMean(wm.column[0], all)) msg += ". Did you mean '" + *d + "'?";
      return Error(wm.pos, msg);
    }
    const LogicalType& rt = t->columns[*idx].type;
    if (!rt.IsTimestamp() || rt.precision() > 3) {
      return Error(wm.pos, "Invalid data type of time field for watermark definition. The field must be of type TIMESTAMP(p) or TIMESTAMP_LTZ(p), the supported precision 'p' is from 0 to 3, but the time field type is " + rt.ToString());
    }
    Scope full;
    for (const auto& c : t->columns) full.columns.push_back({"", c.name, c.type});
    ASSIGN_OR_RETURN(ExprPtr wexpr, BindExpr(*wm.expr, full));
    if (!wexpr->type.IsTimestamp()) {
      return Error(wm.pos, "Watermark strategy " + wexpr->ToString() + " must be of type TIMESTAMP or TIMESTAMP_LTZ but is of type '" + wexpr->type.ToString() + "'.");
    }
    t->rowtime_column = *idx;
    t->watermark_expr = wm.expr.get();
    t->columns[*idx].type = rt.WithTimeAttribute(TimeAttribute::kRowtime);
  }
  for (const auto& [k, v] : ddl->options) {
    t->options[k] = v;
    t->ordered_options.push_back({k, v});
  }
  for (const auto& k : ddl->partition_keys) {
    // A transform term ("bucket(16, id)", Iceberg tables) names its column last.
    const std::string column = sql::PartitionTermColumn(k);
    if (!names.count(column)) return Error(ddl->pos, "Partition column '" + column + "' not defined in the table schema.");
    t->partition_keys.push_back(k);
  }
  // A table of an external catalog (Iceberg) is the catalog's: its WITH options are table properties.
  bool external = !t->temporary && catalog_->IsExternal(t->path.catalog);
  if (!external && !t->options.count("connector")) {
    return Error(ddl->pos, "Table options do not contain an option key 'connector' for discovering a connector. Therefore, Flink assumes a managed table. However, a managed table factory that implements org.apache.flink.table.factories.ManagedTableFactory is not in the classpath.");
  }
  return t;
}

Result<std::shared_ptr<CatalogView>> Binder::BindCreateView(std::shared_ptr<const ast::CreateView> ddl) {
  auto path = catalog_->Resolve(ddl->name);
  if (!path.ok()) return Error(ddl->pos, path.status().message());
  ASSIGN_OR_RETURN(PlanNodePtr plan, BindQuery(*ddl->query));
  auto v = std::make_shared<CatalogView>();
  v->path = *path;
  v->temporary = ddl->temporary;
  v->ddl = ddl;
  if (!ddl->columns.empty()) {
    if (ddl->columns.size() != plan->schema.size()) {
      return Error(ddl->pos, "VIEW's field list has " + std::to_string(ddl->columns.size()) + " columns but the query has " +
                                 std::to_string(plan->schema.size()));
    }
    for (size_t i = 0; i < ddl->columns.size(); ++i) v->schema.Add(ddl->columns[i], plan->schema.field(i).type);
  } else {
    v->schema = plan->schema;
  }
  return v;
}

}  // namespace sluice
