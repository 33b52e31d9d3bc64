#include "engine/alter_statements.h"

#include <algorithm>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "binder/binder.h"
#include "catalog/catalog.h"
#include "plan/optimizer.h"
#include "sql/ast_copy.h"
#include "sql/parser.h"
#include "sql/unparser.h"

namespace sluice {

namespace {

constexpr char kPrefix[] = "Failed to execute ALTER TABLE statement.\n";

std::string At(const ast::SourcePos& p) {
  return " (at line " + std::to_string(p.line) + ", column " + std::to_string(p.column) + ")";
}

// A refusal in Flink's AlterSchemaConverter wording, naming where the statement says it.
Status Refuse(const std::string& what, const ast::SourcePos& pos) { return Status::BindError(kPrefix + what + At(pos)); }

std::string Backquoted(const std::string& name) { return sql::QuoteIdentifier(name); }

// Flink's name of a PRIMARY KEY declared without CONSTRAINT: PK_ and its columns joined by '_'.
std::string ConstraintName(const ast::PrimaryKeyDef& pk) {
  if (!pk.constraint_name.empty()) return pk.constraint_name;
  std::string name = "PK";
  for (const auto& c : pk.columns) name += "_" + c;
  return name;
}

// A copy of an expression of a table's statement (statements own their expressions), through its
// text, which the unparser guarantees parses back to the same tree.
using sql::CopyExpr;

// A table's schema as the parts of its CREATE TABLE statement ALTER TABLE changes.
struct Draft {
  std::vector<ast::ColumnDef> columns;
  std::optional<ast::WatermarkDef> watermark;
  std::optional<ast::PrimaryKeyDef> primary_key;

  std::vector<std::string> Names() const {
    std::vector<std::string> names;
    for (const auto& c : columns) names.push_back(c.name);
    return names;
  }
  ast::ColumnDef* Find(const std::string& name) {
    for (auto& c : columns) {
      if (c.name == name) return &c;
    }
    return nullptr;
  }
  // The columns in the order `names` gives (each name once, every column named).
  void Reorder(const std::vector<std::string>& names) {
    std::vector<ast::ColumnDef> out;
    for (const auto& n : names) out.push_back(std::move(*Find(n)));
    columns = std::move(out);
  }
};

Result<Draft> DraftOf(const ast::CreateTable& ddl) {
  Draft d;
  for (const auto& c : ddl.columns) {
    ASSIGN_OR_RETURN(ast::ColumnDef col, sql::CopyColumn(c));
    d.columns.push_back(std::move(col));
  }
  if (ddl.watermark) {
    ast::WatermarkDef w;
    w.pos = ddl.watermark->pos;
    w.column = ddl.watermark->column;
    ASSIGN_OR_RETURN(w.expr, CopyExpr(*ddl.watermark->expr));
    d.watermark = std::move(w);
  }
  d.primary_key = ddl.primary_key;
  return d;
}

// Which columns the table's computed columns and watermark read (Flink's ReferencesManager).
struct References {
  std::set<std::string> columns;
  std::map<std::string, std::set<std::string>> read_by;  // column -> the computed columns reading it
  std::map<std::string, std::set<std::string>> reads;    // computed column -> the columns it reads
  std::set<std::string> watermark;                       // the rowtime column and what its expression reads
  std::set<std::string> primary_key;
  std::set<std::string> partition;

  // Flink's checkReferences: the column exists and nothing reads it.
  Status Check(const std::string& column, const ast::SourcePos& pos) const {
    if (!columns.count(column)) return Refuse("The column `" + column + "` does not exist in the base table.", pos);
    auto it = read_by.find(column);
    if (it != read_by.end() && !it->second.empty()) {
      std::string readers;
      for (const auto& r : it->second) readers += (readers.empty() ? "" : ", ") + Backquoted(r);
      return Refuse("The column " + Backquoted(column) + " is referenced by computed column " + readers + ".", pos);
    }
    if (partition.count(column)) return Refuse("The column `" + column + "` is used as the partition keys.", pos);
    if (watermark.count(column)) return Refuse("The column `" + column + "` is referenced by watermark expression.", pos);
    return Status::OK();
  }
};

Result<References> ReferencesOf(const CatalogTable& t, Binder* binder) {
  References refs;
  Scope base;
  for (const auto& c : t.ddl->columns) {
    refs.columns.insert(c.name);
    if (c.column_kind != ast::ColumnKind::kComputed) base.columns.push_back({"", c.name, c.type});
  }
  for (const auto& c : t.ddl->columns) {
    if (c.column_kind != ast::ColumnKind::kComputed) continue;
    ASSIGN_OR_RETURN(ExprPtr e, binder->BindExpr(*c.expr, base));
    std::vector<bool> used(base.columns.size(), false);
    CollectColumns(*e, &used);
    for (size_t i = 0; i < used.size(); ++i) {
      if (!used[i]) continue;
      refs.read_by[base.columns[i].name].insert(c.name);
      refs.reads[c.name].insert(base.columns[i].name);
    }
  }
  if (t.rowtime_column) {
    Scope full;
    for (const auto& c : t.columns) full.columns.push_back({"", c.name, c.type});
    ASSIGN_OR_RETURN(ExprPtr e, binder->BindExpr(*t.watermark_expr, full));
    std::vector<bool> used(full.columns.size(), false);
    CollectColumns(*e, &used);
    for (size_t i = 0; i < used.size(); ++i) {
      if (used[i]) refs.watermark.insert(full.columns[i].name);
    }
    refs.watermark.insert(t.columns[*t.rowtime_column].name);
  }
  refs.primary_key.insert(t.primary_key.begin(), t.primary_key.end());
  for (const auto& k : t.partition_keys) refs.partition.insert(sql::PartitionTermColumn(k));
  return refs;
}

// ADD / MODIFY columns: Flink's applyColumnPosition and updateColumn.
Status ApplyColumns(ast::AlterTable& a, Draft* d) {
  const bool add = a.action == ast::AlterTable::Action::kAdd;
  std::vector<std::string> order = d->Names();
  auto has = [&](const std::string& n) { return std::find(order.begin(), order.end(), n) != order.end(); };
  std::set<std::string> altered;
  for (const auto& c : a.columns) {
    const std::string& name = c.column.name;
    if (!altered.insert(name).second) return Refuse("Encounter duplicate column `" + name + "`.", c.column.pos);
    if (add && has(name)) return Refuse("Try to add a column `" + name + "` which already exists in the table.", c.column.pos);
    if (!add && !has(name)) {
      return Refuse("Try to modify a column `" + name + "` which does not exist in the table.", c.column.pos);
    }
    if (c.position == ast::AlterColumn::Position::kAfter && !has(c.after)) {
      return Refuse("Referenced column `" + c.after + "` by 'AFTER' does not exist in the table.", c.after_pos);
    }
    if (!add && c.position != ast::AlterColumn::Position::kDefault) order.erase(std::find(order.begin(), order.end(), name));
    if (c.position == ast::AlterColumn::Position::kFirst) {
      order.insert(order.begin(), name);
    } else if (c.position == ast::AlterColumn::Position::kAfter) {
      // After the column (Flink's indexOf + 1: the first place when a column is MODIFYed AFTER itself).
      auto at = std::find(order.begin(), order.end(), c.after);
      order.insert(at == order.end() ? order.begin() : at + 1, name);
    } else if (add) {
      order.push_back(name);
    }
  }
  for (auto& c : a.columns) {
    ast::ColumnDef* old = d->Find(c.column.name);
    if (old) {
      // MODIFY keeps the column's comment unless it gives one.
      if (!c.column.comment) c.column.comment = old->comment;
      *old = std::move(c.column);
    } else {
      d->columns.push_back(std::move(c.column));
    }
  }
  d->Reorder(order);
  return Status::OK();
}

// ADD / MODIFY: columns, then the watermark, then the primary key, as Flink applies them.
Status ApplySchema(ast::AlterTable& a, Draft* d) {
  const bool add = a.action == ast::AlterTable::Action::kAdd;
  RETURN_IF_ERROR(ApplyColumns(a, d));
  if (a.watermark) {
    if (add && d->watermark) {
      return Refuse("The base table has already defined the watermark strategy `" + d->watermark->column.back() + "` AS " + sql::Unparse(*d->watermark->expr) +
                        ". You might want to drop it before adding a new one.",
                    a.watermark->pos);
    }
    if (!add && !d->watermark) {
      return Refuse("The base table does not define any watermark. You might want to add a new one.", a.watermark->pos);
    }
    if (a.watermark->column.size() != 1) {
      return Refuse("Watermark strategy on nested column is not supported yet.", a.watermark->pos);
    }
    d->watermark = std::move(a.watermark);
  }
  if (a.primary_key) {
    if (add && d->primary_key) {
      std::string cols;
      for (const auto& c : d->primary_key->columns) cols += (cols.empty() ? "[`" : "`, `") + c;
      return Refuse("The base table has already defined the primary key constraint " + cols +
                        "`]. You might want to drop it before adding a new one.",
                    a.primary_key->pos);
    }
    if (!add && !d->primary_key) {
      return Refuse("The base table does not define any primary key constraint. You might want to add a new one.",
                    a.primary_key->pos);
    }
    // Flink's constraint validation of the new key (its message has no ALTER TABLE line).
    const std::string name = ConstraintName(*a.primary_key);
    for (const auto& k : a.primary_key->columns) {
      const ast::ColumnDef* c = d->Find(k);
      if (!c) {
        return Status::BindError("Invalid primary key '" + name + "'. Column '" + k + "' does not exist." + At(a.primary_key->pos));
      }
      if (c->column_kind != ast::ColumnKind::kPhysical) {
        return Status::BindError("Invalid primary key '" + name + "'. Column '" + k + "' is not a physical column." +
                                 At(a.primary_key->pos));
      }
    }
    d->primary_key = std::move(a.primary_key);
  }
  return Status::OK();
}

// DROP columns: Flink's order (the computed columns reading the most first, so dropping a column
// with the computed columns that read it works) and its checks.
Status DropColumns(const ast::AlterTable& a, References refs, Draft* d) {
  std::vector<std::string> drop;
  for (const auto& c : a.drop_columns) {
    if (std::find(drop.begin(), drop.end(), c) != drop.end()) return Refuse("Duplicate column `" + c + "`.", a.action_pos);
    drop.push_back(c);
  }
  std::stable_sort(drop.begin(), drop.end(),
                   [&](const std::string& x, const std::string& y) { return refs.reads[x].size() > refs.reads[y].size(); });
  for (const auto& c : drop) {
    RETURN_IF_ERROR(refs.Check(c, a.action_pos));
    if (refs.primary_key.count(c)) return Refuse("The column " + Backquoted(c) + " is used as the primary key.", a.action_pos);
    for (const auto& read : refs.reads[c]) refs.read_by[read].erase(c);
    refs.reads.erase(c);
    refs.columns.erase(c);
  }
  std::erase_if(d->columns, [&](const ast::ColumnDef& col) { return std::find(drop.begin(), drop.end(), col.name) != drop.end(); });
  return Status::OK();
}

// DROP PRIMARY KEY / CONSTRAINT name / WATERMARK.
Status DropConstraint(const ast::AlterTable& a, Draft* d) {
  using Action = ast::AlterTable::Action;
  if (a.action == Action::kDropWatermark) {
    if (!d->watermark) return Refuse("The base table does not define any watermark strategy.", a.action_pos);
    d->watermark.reset();
    return Status::OK();
  }
  if (!d->primary_key) return Refuse("The base table does not define any primary key.", a.action_pos);
  const std::string name = ConstraintName(*d->primary_key);
  if (a.action == Action::kDropConstraint && a.constraint_name != name) {
    return Refuse("The base table does not define a primary key constraint named '" + a.constraint_name +
                      "'. Available constraint name: ['" + name + "'].",
                  a.action_pos);
  }
  d->primary_key.reset();
  return Status::OK();
}

Status RenameColumn(const ast::AlterTable& a, const References& refs, Draft* d) {
  RETURN_IF_ERROR(refs.Check(a.old_column, a.action_pos));
  if (refs.columns.count(a.new_column)) {
    return Refuse("The column `" + a.new_column + "` already existed in table schema.", a.action_pos);
  }
  d->Find(a.old_column)->name = a.new_column;
  if (d->primary_key) {
    for (auto& k : d->primary_key->columns) {
      if (k == a.old_column) k = a.new_column;
    }
  }
  return Status::OK();
}

// The table `old` with the schema `d`, bound as CREATE TABLE binds a table.
Result<std::shared_ptr<CatalogTable>> Rebind(const CatalogTable& old, Draft d, Binder* binder, const ast::SourcePos& pos) {
  auto ct = std::make_shared<ast::CreateTable>();
  ct->pos = old.ddl->pos;
  ct->name = {old.path.catalog, old.path.database, old.path.name};
  ct->temporary = old.temporary;
  ct->columns = std::move(d.columns);
  ct->watermark = std::move(d.watermark);
  ct->primary_key = std::move(d.primary_key);
  ct->comment = old.ddl->comment;
  ct->partition_keys = old.partition_keys;
  ct->options = old.ordered_options;
  auto t = binder->BindCreateTable(ct);
  if (!t.ok()) return Status(t.status().code(), kPrefix + t.status().message() + At(pos));
  return t;
}

// SET / RESET: a copy of the table with its WITH options changed.
Result<std::shared_ptr<CatalogTable>> WithOptions(const ast::AlterTable& a, const CatalogTable& old) {
  auto t = std::make_shared<CatalogTable>(old);
  for (const auto& [k, v] : a.set_options) {
    t->options[k] = v;
    bool found = false;
    for (auto& o : t->ordered_options) {
      if (o.first == k) {
        o.second = v;
        found = true;
      }
    }
    if (!found) t->ordered_options.push_back({k, v});
  }
  for (const auto& k : a.reset_keys) {
    if (k == "connector") return Status::InvalidArgument("ALTER TABLE RESET does not support changing 'connector'");
    t->options.erase(k);
    std::erase_if(t->ordered_options, [&](const auto& o) { return o.first == k; });
  }
  return t;
}

// The path `from` is renamed to: `new_name` in `from`'s database (Flink renames within the object's
// database: its Catalog.renameTable takes the new object name only); "Could not execute ALTER TABLE
// c.d.t RENAME TO c.d.t2" and Flink's catalog's reason when the name is taken.
Result<ObjectPath> CheckNewName(const char* what, const ObjectPath& from, const ast::Name& new_name,
                                const Catalog& catalog) {
  ASSIGN_OR_RETURN(ObjectPath to, catalog.Resolve(new_name));
  to.catalog = from.catalog;
  to.database = from.database;
  if (!catalog.Lookup(to).ok()) return to;
  return Status::BindError(std::string("Could not execute ALTER ") + what + " " + from.FullName() + " RENAME TO " +
                           to.FullName() + ": Table (or view) " + to.database + "." + to.name +
                           " already exists in Catalog " + to.catalog + ".");
}

}  // namespace

Status ExecuteAlterTable(ast::AlterTable& a, Catalog* catalog, Binder* binder) {
  using Action = ast::AlterTable::Action;
  ASSIGN_OR_RETURN(ObjectPath p, catalog->Resolve(a.name));
  auto entry = catalog->Lookup(p);
  if (!entry.ok()) {
    if (a.if_exists) return Status::OK();
    return Status::BindError("Table `" + p.catalog + "`.`" + p.database + "`.`" + p.name + "` doesn't exist" + At(a.pos));
  }
  if (!entry->table) return Status::BindError("ALTER TABLE for a view is not allowed" + At(a.pos));
  const CatalogTable& old = *entry->table;
  if (a.action == Action::kSetOptions || a.action == Action::kResetOptions) {
    ASSIGN_OR_RETURN(auto t, WithOptions(a, old));
    return catalog->ReplaceTable(std::move(t));
  }
  if (!old.ddl || (catalog->IsExternal(p.catalog) && !old.temporary)) {
    return Status::NotSupported("ALTER TABLE of '" + p.FullName() + "': tables of catalog '" + p.catalog +
                                "' are altered in the catalog itself" + At(a.pos));
  }
  if (a.action == Action::kRenameTable) {
    ASSIGN_OR_RETURN(ObjectPath to, CheckNewName("TABLE", p, a.new_name, *catalog));
    auto t = std::make_shared<CatalogTable>(old);
    t->path = to;
    RETURN_IF_ERROR(catalog->CreateTable(std::move(t), /*if_not_exists=*/false));
    return catalog->Drop(p, /*is_view=*/false, /*if_exists=*/false);
  }
  ASSIGN_OR_RETURN(Draft d, DraftOf(*old.ddl));
  switch (a.action) {
    case Action::kAdd:
    case Action::kModify: RETURN_IF_ERROR(ApplySchema(a, &d)); break;
    case Action::kDropColumns: {
      ASSIGN_OR_RETURN(References refs, ReferencesOf(old, binder));
      RETURN_IF_ERROR(DropColumns(a, std::move(refs), &d));
      break;
    }
    case Action::kRenameColumn: {
      ASSIGN_OR_RETURN(References refs, ReferencesOf(old, binder));
      RETURN_IF_ERROR(RenameColumn(a, refs, &d));
      break;
    }
    case Action::kDropPrimaryKey:
    case Action::kDropConstraint:
    case Action::kDropWatermark: RETURN_IF_ERROR(DropConstraint(a, &d)); break;
    case Action::kSetOptions:
    case Action::kResetOptions:
    case Action::kRenameTable: break;  // handled above
  }
  ASSIGN_OR_RETURN(auto t, Rebind(old, std::move(d), binder, a.pos));
  return catalog->ReplaceTable(std::move(t));
}

Status ExecuteAlterView(ast::AlterView& v, Catalog* catalog, Binder* binder) {
  ASSIGN_OR_RETURN(ObjectPath p, catalog->Resolve(v.name));
  auto entry = catalog->Lookup(p);
  if (!entry.ok()) {
    return Status::BindError("View `" + p.catalog + "`.`" + p.database + "`.`" + p.name + "` doesn't exist" + At(v.pos));
  }
  if (!entry->view) return Status::BindError("ALTER VIEW for a table is not allowed" + At(v.pos));
  const CatalogView& old = *entry->view;
  if (!v.query) {
    ASSIGN_OR_RETURN(ObjectPath to, CheckNewName("VIEW", p, v.new_name, *catalog));
    auto view = std::make_shared<CatalogView>(old);
    view->path = to;
    RETURN_IF_ERROR(catalog->Drop(p, /*is_view=*/true, /*if_exists=*/false));
    return catalog->CreateView(std::move(view), /*if_not_exists=*/false);
  }
  // ALTER VIEW AS: the view's new query (its COMMENT kept; its column names are the query's).
  auto ddl = std::make_shared<ast::CreateView>();
  ddl->pos = v.pos;
  ddl->name = {p.catalog, p.database, p.name};
  ddl->temporary = old.temporary;
  ddl->comment = old.ddl->comment;
  ddl->query = std::move(v.query);
  ddl->query_text = v.query_text;
  ASSIGN_OR_RETURN(auto view, binder->BindCreateView(ddl));
  RETURN_IF_ERROR(catalog->Drop(p, /*is_view=*/true, /*if_exists=*/false));
  return catalog->CreateView(std::move(view), /*if_not_exists=*/false);
}

}  // namespace sluice
