#include "catalog/catalog.h"

#include <algorithm>
#include <tuple>

#include "common/config.h"

namespace sluice {

std::string ObjectPath::FullName() const { return catalog + "." + database + "." + name; }
std::string ObjectPath::ExplainName() const { return "[" + catalog + ", " + database + ", " + name + "]"; }
bool ObjectPath::operator<(const ObjectPath& o) const {
  return std::tie(catalog, database, name) < std::tie(o.catalog, o.database, o.name);
}

Result<ObjectPath> ResolvePath(const ast::Name& name) {
  ObjectPath p;
  switch (name.size()) {
    case 1: p.name = name[0]; break;
    case 2:
      p.database = name[0];
      p.name = name[1];
      break;
    case 3:
      p.catalog = name[0];
      p.database = name[1];
      p.name = name[2];
      break;
    default: {
      std::string joined;
      for (const auto& n : name) joined += (joined.empty() ? "" : ".") + n;
      return Status::BindError("Invalid object name '" + joined + "': expected [catalog.][database.]name");
    }
  }
  if (p.catalog != kDefaultCatalog) {
    return Status::BindError("Catalog '" + p.catalog + "' does not exist (Sluice has only '" +
                             std::string(kDefaultCatalog) + "')");
  }
  if (p.database != kDefaultDatabase) {
    return Status::BindError("Database '" + p.database + "' does not exist in catalog '" + p.catalog +
                             "' (Sluice has only '" + std::string(kDefaultDatabase) + "')");
  }
  return p;
}

Schema CatalogTable::schema() const {
  Schema s;
  for (const auto& c : columns) s.Add(c.name, c.type);
  return s;
}

Schema CatalogTable::physical_schema() const {
  Schema s;
  for (const auto& c : columns) {
    if (c.kind == ast::ColumnKind::kPhysical) s.Add(c.name, c.type.WithTimeAttribute(TimeAttribute::kNone));
  }
  return s;
}

std::vector<size_t> CatalogTable::persisted_columns() const {
  std::vector<size_t> out;
  for (size_t i = 0; i < columns.size(); ++i) {
    const auto& c = columns[i];
    if (c.kind == ast::ColumnKind::kPhysical || (c.kind == ast::ColumnKind::kMetadata && !c.is_virtual)) {
      out.push_back(i);
    }
  }
  return out;
}

std::string CatalogTable::connector() const {
  auto it = options.find("connector");
  return it == options.end() ? "" : it->second;
}

Status Catalog::CreateTable(std::shared_ptr<CatalogTable> table, bool if_not_exists) {
  const ObjectPath& p = table->path;
  if (tables_.count(p) || views_.count(p)) {
    if (if_not_exists) return Status::OK();
    return Status::BindError("Could not execute CreateTable in path `" + p.catalog + "`.`" + p.database + "`.`" +
                             p.name + "`: a table or view of that name already exists");
  }
  tables_[p] = std::move(table);
  return Status::OK();
}

Status Catalog::CreateView(std::shared_ptr<CatalogView> view, bool if_not_exists) {
  const ObjectPath& p = view->path;
  if (tables_.count(p) || views_.count(p)) {
    if (if_not_exists) return Status::OK();
    return Status::BindError("Could not execute CreateView in path `" + p.catalog + "`.`" + p.database + "`.`" +
                             p.name + "`: a table or view of that name already exists");
  }
  views_[p] = std::move(view);
  return Status::OK();
}

Status Catalog::Drop(const ObjectPath& path, bool is_view, bool if_exists) {
  if (is_view) {
    if (views_.erase(path)) return Status::OK();
    if (tables_.count(path)) return Status::BindError("'" + path.FullName() + "' is a table; use DROP TABLE");
  } else {
    if (tables_.erase(path)) return Status::OK();
    if (views_.count(path)) return Status::BindError("'" + path.FullName() + "' is a view; use DROP VIEW");
  }
  if (if_exists) return Status::OK();
  return Status::BindError(std::string(is_view ? "View" : "Table") + " with identifier '" + path.FullName() +
                           "' does not exist.");
}

Result<Catalog::Entry> Catalog::Lookup(const ObjectPath& path) const {
  Entry e;
  auto t = tables_.find(path);
  if (t != tables_.end()) {
    e.table = t->second;
    return e;
  }
  auto v = views_.find(path);
  if (v != views_.end()) {
    e.view = v->second;
    return e;
  }
  std::vector<std::string> names = ListTables(true);
  std::string msg = "Object '" + path.name + "' not found within '" + path.catalog + "." + path.database + "'";
  if (auto dym = DidYouMean(path.name, names)) msg += ". Did you mean '" + *dym + "'?";
  return Status::BindError(msg);
}

std::shared_ptr<const CatalogTable> Catalog::FindTable(const ObjectPath& path) const {
  auto t = tables_.find(path);
  return t == tables_.end() ? nullptr : t->second;
}

std::vector<std::string> Catalog::ListTables(bool include_views) const {
  std::vector<std::string> out;
  for (const auto& [p, t] : tables_) out.push_back(p.name);
  if (include_views) {
    for (const auto& [p, v] : views_) out.push_back(p.name);
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<std::string> Catalog::ListViews() const {
  std::vector<std::string> out;
  for (const auto& [p, v] : views_) out.push_back(p.name);
  return out;
}

}  // namespace sluice
