// CREATE TABLE ... LIKE and CREATE TABLE ... AS SELECT (binder.h).
//
// LIKE source [( <like options> )] (Binder::MergeTableLike): the statement
// with the source table's columns, watermark, key, partitions and options merged in, as Flink 2.2's
// MergeTableLikeUtil merges them, with its errors. The merged statement is then bound as any CREATE
// TABLE (Binder::BindCreateTable), so SHOW CREATE TABLE shows the merged table.
//
// Options: INCLUDING / EXCLUDING / OVERWRITING of ALL, CONSTRAINTS, GENERATED, METADATA, OPTIONS,
// PARTITIONS, WATERMARKS. Defaults: INCLUDING for every feature but OPTIONS (OVERWRITING); ALL sets
// every feature, a feature named after it overrides it. Physical columns are always included.
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "binder/binder.h"
#include "function/cast.h"
#include "sql/ast_copy.h"
#include "sql/parser.h"
#include "sql/unparser.h"

namespace sluice {

namespace {

using Strategy = ast::LikeClause::Strategy;
using Feature = ast::LikeClause::Feature;

const char* StrategyName(Strategy s) {
  switch (s) {
    case Strategy::kIncluding: return "INCLUDING";
    case Strategy::kExcluding: return "EXCLUDING";
    case Strategy::kOverwriting: return "OVERWRITING";
  }
  return "";
}

const char* FeatureName(Feature f) {
  static const char* kNames[] = {"ALL", "CONSTRAINTS", "GENERATED", "METADATA", "OPTIONS", "PARTITIONS", "WATERMARKS"};
  return kNames[static_cast<int>(f)];
}

// A copy of an expression a table's statement owns, through its text (the unparser's output parses
// back to the same tree).
using sql::CopyColumn;
using sql::CopyExpr;

// The strategy of each feature: Flink's defaults, then ALL, then each feature named.
Result<std::map<Feature, Strategy>> Strategies(const ast::LikeClause& like, const std::function<Status(const std::string&)>& error) {
  std::map<Feature, Strategy> out = {
      {Feature::kConstraints, Strategy::kIncluding}, {Feature::kGenerated, Strategy::kIncluding},
      {Feature::kMetadata, Strategy::kIncluding},    {Feature::kOptions, Strategy::kOverwriting},
      {Feature::kPartitions, Strategy::kIncluding},  {Feature::kWatermarks, Strategy::kIncluding},
  };
  std::map<Feature, int> seen;
  for (const auto& [strategy, feature] : like.options) {
    if (++seen[feature] > 1) return error("Each like option feature can be declared only once.");
  }
  for (const auto& [strategy, feature] : like.options) {
    const bool overwriting = strategy == Strategy::kOverwriting;
    if (overwriting && (feature == Feature::kAll || feature == Feature::kPartitions || feature == Feature::kConstraints)) {
      return error(std::string("Illegal merging strategy '") + StrategyName(strategy) + "' for '" + FeatureName(feature) +
                   "' option.");
    }
  }
  for (const auto& [strategy, feature] : like.options) {
    if (feature != Feature::kAll) continue;
    for (auto& [f, s] : out) s = strategy;
  }
  for (const auto& [strategy, feature] : like.options) {
    if (feature != Feature::kAll) out[feature] = strategy;
  }
  return out;
}

// The source table's column `c` as a statement's column definition.
Result<ast::ColumnDef> ColumnOf(const CatalogTable& source, const CatalogColumn& c) {
  ast::ColumnDef col;
  col.name = c.name;
  col.column_kind = c.kind;
  col.type = c.type.WithTimeAttribute(TimeAttribute::kNone);
  if (c.kind == ast::ColumnKind::kComputed) {
    ASSIGN_OR_RETURN(col.expr, CopyExpr(*c.expr));
  } else if (c.kind == ast::ColumnKind::kMetadata) {
    if (c.metadata_key != c.name) col.metadata_key = c.metadata_key;
    col.is_virtual = c.is_virtual;
  }
  if (source.ddl) {
    for (const auto& d : source.ddl->columns) {
      if (d.name == c.name) col.comment = d.comment;
    }
  }
  return col;
}

const char* KindWord(ast::ColumnKind k) { return k == ast::ColumnKind::kComputed ? "Computed" : "Metadata"; }

using ErrorAt = std::function<Status(ast::SourcePos, const std::string&)>;

// LIKE's columns into `out`.
Status MergeLikeColumns(const CatalogTable& source, const ast::CreateTable& ddl, std::map<Feature, Strategy>& strategies,
                        std::vector<ast::ColumnDef>* out, const ErrorAt& error) {
  // Columns: the source's (physical always; computed and metadata unless excluded), then the new
  // ones; a new computed or metadata column may replace the source's of its kind when OVERWRITING.
  std::vector<ast::ColumnDef>& cols = *out;
  auto find = [&](const std::string& name) -> ast::ColumnDef* {
    for (auto& c : cols) {
      if (c.name == name) return &c;
    }
    return nullptr;
  };
  for (const auto& c : source.columns) {
    if (c.kind == ast::ColumnKind::kComputed && strategies[Feature::kGenerated] == Strategy::kExcluding) continue;
    if (c.kind == ast::ColumnKind::kMetadata && strategies[Feature::kMetadata] == Strategy::kExcluding) continue;
    ASSIGN_OR_RETURN(ast::ColumnDef col, ColumnOf(source, c));
    cols.push_back(std::move(col));
  }
  const size_t source_columns = cols.size();
  for (const auto& c : ddl.columns) {
    ASSIGN_OR_RETURN(ast::ColumnDef col, CopyColumn(c));
    ast::ColumnDef* existing = find(c.name);
    if (existing && existing - cols.data() >= static_cast<std::ptrdiff_t>(source_columns)) {
      return error(c.pos, "A column named '" + c.name + "' already exists in the table");
    }
    if (existing && c.column_kind == ast::ColumnKind::kPhysical) {
      return error(c.pos, "A column named '" + c.name + "' already exists in the base table.");
    }
    if (existing) {
      const Feature feature = c.column_kind == ast::ColumnKind::kComputed ? Feature::kGenerated : Feature::kMetadata;
      if (existing->column_kind != c.column_kind) {
        return error(c.pos, "A column named '" + c.name + "' already exists in the base table. " + KindWord(c.column_kind) +
                                " columns can only overwrite other " + (c.column_kind == ast::ColumnKind::kComputed ? "computed" : "metadata") +
                                " columns.");
      }
      if (strategies[feature] != Strategy::kOverwriting) {
        const std::string what = feature == Feature::kGenerated ? "generated" : "metadata";
        const std::string word = feature == Feature::kGenerated ? "GENERATED" : "METADATA";
        return error(c.pos, "A " + what + " column named '" + c.name + "' already exists in the base table. You might want to specify EXCLUDING " +
                                word + " or OVERWRITING " + word + ".");
      }
      *existing = std::move(col);
      continue;
    }
    cols.push_back(std::move(col));
  }
  return Status::OK();
}

}  // namespace

Result<std::shared_ptr<ast::CreateTable>> Binder::MergeTableLike(const ast::CreateTable& ddl) const {
  const ast::LikeClause& like = *ddl.like;
  auto error = [&](const std::string& message) { return Error(like.pos, message); };
  if (ddl.as_query) {
    return Status::ParseError("SQL parse failed. Encountered \"AS\" after the LIKE clause (at line " +
                              std::to_string(ddl.as_query->pos.line) + ", column " + std::to_string(ddl.as_query->pos.column) +
                              "): CREATE TABLE ... LIKE takes no AS query, as in Flink");
  }
  ASSIGN_OR_RETURN(auto strategies, Strategies(like, error));
  auto path = catalog_->Resolve(like.source);
  if (!path.ok()) return Error(like.pos, path.status().message());
  auto entry = catalog_->Lookup(*path);
  const std::string at = ", at line " + std::to_string(like.source_pos.line) + ", column " + std::to_string(like.source_pos.column);
  const std::string quoted = "`" + path->catalog + "`.`" + path->database + "`.`" + path->name + "`";
  if (!entry.ok()) return Status::BindError("Source table '" + quoted + "' of the LIKE clause not found in the catalog" + at);
  if (!entry->table) return Status::BindError("Source table '" + quoted + "' of the LIKE clause can not be a VIEW" + at);
  const CatalogTable& source = *entry->table;

  auto out = std::make_shared<ast::CreateTable>();
  out->pos = ddl.pos;
  out->name = ddl.name;
  out->temporary = ddl.temporary;
  out->if_not_exists = ddl.if_not_exists;
  out->comment = ddl.comment;
  RETURN_IF_ERROR(MergeLikeColumns(source, ddl, strategies, &out->columns, [&](ast::SourcePos pos, const std::string& m) { return Error(pos, m); }));
  // The watermark: the source's unless excluded; a new one for the same column replaces it only
  // when OVERWRITING.
  if (source.rowtime_column && source.watermark_expr && strategies[Feature::kWatermarks] != Strategy::kExcluding) {
    ast::WatermarkDef wm;
    wm.pos = like.pos;
    wm.column = {source.columns[*source.rowtime_column].name};
    ASSIGN_OR_RETURN(wm.expr, CopyExpr(*source.watermark_expr));
    out->watermark = std::move(wm);
  }
  if (ddl.watermark) {
    if (out->watermark) {
      if (out->watermark->column != ddl.watermark->column) {
        return Error(ddl.watermark->pos, "Multiple watermark definitions are not supported yet.");
      }
      if (strategies[Feature::kWatermarks] != Strategy::kOverwriting) {
        return Error(ddl.watermark->pos, "There already exists a watermark spec for column '" + ddl.watermark->column.back() +
                                             "' in the base table. You might want to specify EXCLUDING WATERMARKS or OVERWRITING WATERMARKS.");
      }
    }
    ast::WatermarkDef wm;
    wm.pos = ddl.watermark->pos;
    wm.column = ddl.watermark->column;
    ASSIGN_OR_RETURN(wm.expr, CopyExpr(*ddl.watermark->expr));
    out->watermark = std::move(wm);
  }
  // The primary key: the source's when INCLUDING; a second one is refused.
  if (!source.primary_key.empty() && strategies[Feature::kConstraints] == Strategy::kIncluding) {
    ast::PrimaryKeyDef pk;
    pk.pos = like.pos;
    pk.columns = source.primary_key;
    if (source.ddl && source.ddl->primary_key) pk.constraint_name = source.ddl->primary_key->constraint_name;
    out->primary_key = std::move(pk);
  }
  if (ddl.primary_key) {
    if (out->primary_key) return Error(ddl.primary_key->pos, "The base table already has a primary key. You might want to specify EXCLUDING CONSTRAINTS.");
    out->primary_key = ddl.primary_key;
  }
  // Partitions: one PARTITIONED BY, the new table's or the source's.
  const bool source_partitions = !source.partition_keys.empty() && strategies[Feature::kPartitions] != Strategy::kExcluding;
  if (!ddl.partition_keys.empty() && source_partitions) {
    return error("The base table already has partitions defined. You might want to specify EXCLUDING PARTITIONS.");
  }
  out->partition_keys = !ddl.partition_keys.empty() ? ddl.partition_keys : source_partitions ? source.partition_keys : std::vector<std::string>{};
  // Options: the source's unless excluded; a key in both is refused unless OVERWRITING.
  const Strategy options = strategies[Feature::kOptions];
  if (options != Strategy::kExcluding) out->options = source.ordered_options;
  for (const auto& [k, v] : ddl.options) {
    bool replaced = false;
    for (auto& [key, value] : out->options) {
      if (key != k) continue;
      if (options != Strategy::kOverwriting) {
        return error("There already exists an option ['" + k + "' -> '" + value +
                     "']  in the base table. You might want to specify EXCLUDING OPTIONS or OVERWRITING OPTIONS.");
      }
      value = v;
      replaced = true;
    }
    if (!replaced) out->options.emplace_back(k, v);
  }
  return out;
}

// [CREATE OR REPLACE | REPLACE] TABLE t [(<columns>, <watermark>, <primary key>)] [PARTITIONED BY]
// WITH (...) AS query, as
// Flink 2.2's MergeTableAsUtil: the table's columns are the statement's columns the query does not
// produce, then the query's columns in its order (a statement's physical column of a query column's
// name gives that column its type, which the query's type must cast to implicitly); the query then
// writes its columns by name (the others get NULL).
Result<Binder::TableAsSelect> Binder::BindCreateTableAs(std::shared_ptr<const ast::CreateTable> ddl) {
  auto path = catalog_->Resolve(ddl->name);
  if (!path.ok()) return Error(ddl->pos, path.status().message());
  if (ddl->temporary) return Error(ddl->pos, "CREATE TABLE AS SELECT syntax does not support to create temporary table yet.");
  if (ddl->like) return MergeTableLike(*ddl).status();
  if (ddl->replace || ddl->or_replace) {
    if (ddl->if_not_exists) return Error(ddl->pos, "REPLACE TABLE AS SELECT takes no IF NOT EXISTS");
    if (ddl->replace && !catalog_->FindTable(*path)) {
      return Status::BindError("The table `" + path->catalog + "`.`" + path->database + "`.`" + path->name +
                               "` to be replaced doesn't exist. You can try to use CREATE TABLE AS statement or CREATE OR REPLACE TABLE AS statement.");
    }
  }
  ASSIGN_OR_RETURN(PlanNodePtr query, BindQuery(*ddl->as_query));
  auto merged = std::make_shared<ast::CreateTable>();
  merged->pos = ddl->pos;
  merged->name = ddl->name;
  merged->if_not_exists = ddl->if_not_exists;
  merged->comment = ddl->comment;
  std::vector<ast::ColumnDef> from_query;
  std::vector<std::string> names;
  for (const auto& f : query->schema.fields()) {
    for (const auto& n : names) {
      if (n == f.name) return Error(ddl->as_query->pos, "A column named '" + f.name + "' already exists in the schema. ");
    }
    ast::ColumnDef col;
    col.pos = ddl->as_query->pos;
    col.name = f.name;
    col.type = f.type.WithTimeAttribute(TimeAttribute::kNone);
    from_query.push_back(std::move(col));
    names.push_back(f.name);
  }
  for (size_t i = 0; i < ddl->columns.size(); ++i) {
    const ast::ColumnDef& c = ddl->columns[i];
    ASSIGN_OR_RETURN(ast::ColumnDef col, CopyColumn(c));
    for (const auto& m : merged->columns) {
      if (m.name == c.name) return Error(c.pos, "A column named '" + c.name + "' already exists in the schema. ");
    }
    ast::ColumnDef* source = nullptr;
    for (auto& q : from_query) {
      if (q.name == c.name) source = &q;
    }
    if (!source) {
      merged->columns.push_back(std::move(col));
      continue;
    }
    if (c.column_kind != ast::ColumnKind::kPhysical) {
      return Error(c.pos, "A column named '" + c.name + "' already exists in the source schema. " +
                              (c.column_kind == ast::ColumnKind::kComputed ? "Computed" : "Metadata") +
                              " columns cannot overwrite columns from source.");
    }
    if (!CanCast(source->type, c.type, true)) {
      return Error(c.pos, "Incompatible types for sink column '" + c.name + "' at position " + std::to_string(i) +
                              ". The source column has type '" + source->type.ToString() + "', while the target column has type '" +
                              c.type.ToString() + "'.");
    }
    *source = std::move(col);
  }
  for (auto& q : from_query) merged->columns.push_back(std::move(q));
  if (ddl->watermark) {
    ast::WatermarkDef wm;
    wm.pos = ddl->watermark->pos;
    wm.column = ddl->watermark->column;
    ASSIGN_OR_RETURN(wm.expr, CopyExpr(*ddl->watermark->expr));
    merged->watermark = std::move(wm);
  }
  merged->primary_key = ddl->primary_key;
  merged->partition_keys = ddl->partition_keys;
  merged->options = ddl->options;
  ASSIGN_OR_RETURN(std::shared_ptr<CatalogTable> table, BindCreateTable(merged));
  // IF NOT EXISTS of a table that exists: the query goes into that table (by column name).
  std::shared_ptr<const CatalogTable> target = table;
  if (ddl->if_not_exists) {
    if (auto existing = catalog_->FindTable(table->path)) target = existing;
  }
  ASSIGN_OR_RETURN(PlanNodePtr sink, BindInsertInto(target, query, names, nullptr, ddl->as_query->pos));
  return TableAsSelect{table, sink};
}

}  // namespace sluice
