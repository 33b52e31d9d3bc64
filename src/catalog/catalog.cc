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

namespace {

constexpr char kInMemoryType[] = "generic_in_memory";

std::string JoinNames(const ast::Name& name) {
  std::string joined;
  for (const auto& n : name) joined += (joined.empty() ? "" : ".") + n;
  return joined;
}

// [catalog.]database -> (catalog, database), the catalog defaulting to the current one.
Result<std::pair<std::string, std::string>> SplitDatabaseName(const ast::Name& name, const std::string& current) {
  if (name.empty() || name.size() > 2) {
    return Status::BindError("Invalid database name '" + JoinNames(name) + "': expected [catalog.]database");
  }
  return std::make_pair(name.size() == 2 ? name[0] : current, name.back());
}

}  // namespace

Catalog::Catalog() { memory_catalogs_[kDefaultCatalog].databases = {kDefaultDatabase}; }
Catalog::~Catalog() = default;

ExternalCatalog* Catalog::FindExternal(const std::string& catalog) const {
  auto it = external_catalogs_.find(catalog);
  return it == external_catalogs_.end() ? nullptr : it->second.get();
}

Status Catalog::CheckCatalog(const std::string& catalog) const {
  if (memory_catalogs_.count(catalog) || external_catalogs_.count(catalog)) return Status::OK();
  std::string msg = "Catalog " + catalog + " does not exist";
  if (auto dym = DidYouMean(catalog, ListCatalogs())) msg += ". Did you mean '" + *dym + "'?";
  return Status::BindError(msg);
}

Status Catalog::CheckDatabase(const std::string& catalog, const std::string& database) const {
  RETURN_IF_ERROR(CheckCatalog(catalog));
  if (ExternalCatalog* ext = FindExternal(catalog)) {
    ASSIGN_OR_RETURN(bool exists, ext->DatabaseExists(database));
    if (exists) return Status::OK();
  } else {
    const auto& dbs = memory_catalogs_.at(catalog).databases;
    if (std::find(dbs.begin(), dbs.end(), database) != dbs.end()) return Status::OK();
  }
  return Status::BindError("Database " + database + " does not exist in Catalog " + catalog + ".");
}

Status Catalog::CreateCatalog(const std::string& name, const std::map<std::string, std::string>& options,
                              bool if_not_exists, const std::vector<const ExternalCatalogFactory*>& factories,
                              const std::optional<std::string>& comment) {
  if (memory_catalogs_.count(name) || external_catalogs_.count(name)) {
    if (if_not_exists) return Status::OK();
    return Status::BindError("Catalog " + name + " already exists.");
  }
  auto type = options.find("type");
  if (type == options.end()) {
    return Status::BindError("Catalog options do not contain an option key 'type' for discovering a catalog.");
  }
  if (type->second == kInMemoryType) {
    for (const auto& [k, v] : options) {
      if (k != "type" && k != "default-database") {
        return Status::BindError("Unsupported options found for catalog '" + name + "' of type '" + kInMemoryType +
                                 "': '" + k + "' (supported: 'type', 'default-database')");
      }
    }
    auto db = options.find("default-database");
    memory_catalogs_[name].databases = {db == options.end() ? std::string("default") : db->second};
    descriptors_[name] = CatalogDescriptor{name, options, comment};
    return Status::OK();
  }
  std::vector<std::string> types = {kInMemoryType};
  for (const ExternalCatalogFactory* f : factories) {
    if (f->type() == type->second) {
      ASSIGN_OR_RETURN(std::unique_ptr<ExternalCatalog> catalog, f->Create(name, options));
      external_catalogs_[name] = std::move(catalog);
      descriptors_[name] = CatalogDescriptor{name, options, comment};
      return Status::OK();
    }
    types.push_back(f->type());
  }
  std::sort(types.begin(), types.end());
  std::string list;
  for (const auto& t : types) list += (list.empty() ? "" : ", ") + t;
  return Status::BindError("Could not find any factory for identifier '" + type->second +
                           "' that implements CatalogFactory. Available factory identifiers are: " + list);
}

Status Catalog::DropCatalog(const std::string& name, bool if_exists) {
  if (!memory_catalogs_.count(name) && !external_catalogs_.count(name)) {
    if (if_exists) return Status::OK();
    return Status::BindError("Catalog " + name + " does not exist.");
  }
  if (name == current_catalog_) return Status::BindError("Cannot drop a catalog which is currently in use.");
  memory_catalogs_.erase(name);
  external_catalogs_.erase(name);
  descriptors_.erase(name);
  // Temporary objects under the catalog's names go with it.
  for (auto it = tables_.begin(); it != tables_.end();) it = it->first.catalog == name ? tables_.erase(it) : std::next(it);
  for (auto it = views_.begin(); it != views_.end();) it = it->first.catalog == name ? views_.erase(it) : std::next(it);
  return Status::OK();
}

Result<CatalogDescriptor> Catalog::GetCatalogDescriptor(const std::string& name) const {
  RETURN_IF_ERROR(CheckCatalog(name));
  auto it = descriptors_.find(name);
  if (it == descriptors_.end()) return Status::BindError("Cannot obtain metadata information from Catalog " + name + ".");
  return it->second;
}

Status Catalog::UseCatalog(const std::string& name) {
  if (ExternalCatalog* ext = FindExternal(name)) {
    current_catalog_ = name;
    current_database_ = ext->default_database();
    return Status::OK();
  }
  auto it = memory_catalogs_.find(name);
  if (it == memory_catalogs_.end()) return Status::BindError("A catalog with name [" + name + "] does not exist.");
  current_catalog_ = name;
  current_database_ = it->second.databases.empty() ? "" : it->second.databases.front();
  return Status::OK();
}

Status Catalog::UseDatabase(const ast::Name& name) {
  ASSIGN_OR_RETURN(auto parts, SplitDatabaseName(name, current_catalog_));
  // Named copies, not a structured binding: clang 14 cannot capture bindings in lambdas.
  const std::string catalog = parts.first;
  const std::string database = parts.second;
  if (name.size() == 2 && !memory_catalogs_.count(catalog) && !external_catalogs_.count(catalog)) {
    return Status::BindError("A catalog with name [" + catalog + "] does not exist.");
  }
  if (!CheckDatabase(catalog, database).ok()) {
    return Status::BindError("A database with name [" + database + "] does not exist in the catalog: [" + catalog +
                             "].");
  }
  current_catalog_ = catalog;
  current_database_ = database;
  return Status::OK();
}

std::vector<std::string> Catalog::ListCatalogs() const {
  std::vector<std::string> out;
  for (const auto& [name, c] : memory_catalogs_) out.push_back(name);
  for (const auto& [name, c] : external_catalogs_) out.push_back(name);
  std::sort(out.begin(), out.end());
  return out;
}

Result<std::vector<std::string>> Catalog::ListDatabases(const std::string& catalog) const {
  RETURN_IF_ERROR(CheckCatalog(catalog));
  if (ExternalCatalog* ext = FindExternal(catalog)) return ext->ListDatabases();
  return memory_catalogs_.at(catalog).databases;
}

Status Catalog::CreateDatabase(const ast::Name& name, const std::map<std::string, std::string>& properties,
                               bool if_not_exists) {
  ASSIGN_OR_RETURN(auto parts, SplitDatabaseName(name, current_catalog_));
  // Named copies, not a structured binding: clang 14 cannot capture bindings in lambdas.
  const std::string catalog = parts.first;
  const std::string database = parts.second;
  RETURN_IF_ERROR(CheckCatalog(catalog));
  if (ExternalCatalog* ext = FindExternal(catalog)) return ext->CreateDatabase(database, properties, if_not_exists);
  auto& dbs = memory_catalogs_.at(catalog).databases;
  if (std::find(dbs.begin(), dbs.end(), database) != dbs.end()) {
    if (if_not_exists) return Status::OK();
    return Status::BindError("Database " + database + " already exists in Catalog " + catalog + ".");
  }
  dbs.push_back(database);
  return Status::OK();
}

bool Catalog::DatabaseHasObjects(const std::string& catalog, const std::string& database) const {
  for (const auto& [p, t] : tables_) {
    if (p.catalog == catalog && p.database == database) return true;
  }
  for (const auto& [p, v] : views_) {
    if (p.catalog == catalog && p.database == database) return true;
  }
  return false;
}

Status Catalog::DropDatabase(const ast::Name& name, bool if_exists, bool cascade) {
  ASSIGN_OR_RETURN(auto parts, SplitDatabaseName(name, current_catalog_));
  // Named copies, not a structured binding: clang 14 cannot capture bindings in lambdas.
  const std::string catalog = parts.first;
  const std::string database = parts.second;
  RETURN_IF_ERROR(CheckCatalog(catalog));
  if (catalog == current_catalog_ && database == current_database_) {
    return Status::BindError("Cannot drop a database which is currently in use.");
  }
  if (ExternalCatalog* ext = FindExternal(catalog)) return ext->DropDatabase(database, if_exists, cascade);
  auto& dbs = memory_catalogs_.at(catalog).databases;
  auto it = std::find(dbs.begin(), dbs.end(), database);
  if (it == dbs.end()) {
    if (if_exists) return Status::OK();
    return Status::BindError("Database " + database + " does not exist in Catalog " + catalog + ".");
  }
  if (DatabaseHasObjects(catalog, database)) {
    if (!cascade) return Status::BindError("Database " + database + " in catalog " + catalog + " is not empty.");
    std::erase_if(tables_, [&](const auto& e) { return e.first.catalog == catalog && e.first.database == database; });
    std::erase_if(views_, [&](const auto& e) { return e.first.catalog == catalog && e.first.database == database; });
  }
  dbs.erase(it);
  return Status::OK();
}

Result<ObjectPath> Catalog::Resolve(const ast::Name& name) const {
  ObjectPath p;
  p.catalog = current_catalog_;
  p.database = current_database_;
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
    default:
      return Status::BindError("Invalid object name '" + JoinNames(name) + "': expected [catalog.][database.]name");
  }
  RETURN_IF_ERROR(CheckCatalog(p.catalog));
  return p;
}

Status Catalog::CreateTable(std::shared_ptr<CatalogTable> table, bool if_not_exists) {
  const ObjectPath& p = table->path;
  if (tables_.count(p) || views_.count(p)) {
    if (if_not_exists) return Status::OK();
    return Status::BindError("Could not execute CreateTable in path `" + p.catalog + "`.`" + p.database + "`.`" +
                             p.name + "`: a table or view of that name already exists");
  }
  ExternalCatalog* ext = FindExternal(p.catalog);
  if (ext && !table->temporary) return ext->CreateTable(*table, if_not_exists);
  if (!ext) RETURN_IF_ERROR(CheckDatabase(p.catalog, p.database));
  tables_[p] = std::move(table);
  return Status::OK();
}

Status Catalog::ReplaceTable(std::shared_ptr<CatalogTable> table) {
  const ObjectPath p = table->path;
  if (!tables_.count(p)) {
    return Status::NotSupported("ALTER TABLE of '" + p.FullName() + "': tables of catalog '" + p.catalog +
                                "' are altered in the catalog itself");
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
  if (FindExternal(p.catalog) && !view->temporary) {
    return Status::NotSupported("Catalog '" + p.catalog + "' (" + FindExternal(p.catalog)->type() +
                                ") cannot store views; create a TEMPORARY VIEW");
  }
  if (!FindExternal(p.catalog)) RETURN_IF_ERROR(CheckDatabase(p.catalog, p.database));
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
    if (ExternalCatalog* ext = FindExternal(path.catalog)) return ext->DropTable(path, if_exists);
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
  if (ExternalCatalog* ext = FindExternal(path.catalog)) {
    ASSIGN_OR_RETURN(e.table, ext->GetTable(path));
    if (e.table) return e;
  }
  auto names = ListTables(path.catalog, path.database, true);
  std::string msg = "Object '" + path.name + "' not found within '" + path.catalog + "." + path.database + "'";
  if (names.ok()) {
    if (auto dym = DidYouMean(path.name, *names)) msg += ". Did you mean '" + *dym + "'?";
  }
  return Status::BindError(msg);
}

std::shared_ptr<const CatalogTable> Catalog::FindTable(const ObjectPath& path) const {
  auto t = tables_.find(path);
  if (t != tables_.end()) return t->second;
  if (views_.count(path)) return nullptr;
  if (ExternalCatalog* ext = FindExternal(path.catalog)) {
    auto table = ext->GetTable(path);
    if (table.ok()) return *table;
  }
  return nullptr;
}

Result<std::vector<std::string>> Catalog::ListTables(const std::string& catalog, const std::string& database,
                                                     bool include_views) const {
  std::vector<std::string> out;
  if (ExternalCatalog* ext = FindExternal(catalog)) {
    ASSIGN_OR_RETURN(out, ext->ListTables(database));
  } else {
    RETURN_IF_ERROR(CheckDatabase(catalog, database));
  }
  for (const auto& [p, t] : tables_) {
    if (p.catalog == catalog && p.database == database) out.push_back(p.name);
  }
  if (include_views) {
    for (const auto& [p, v] : views_) {
      if (p.catalog == catalog && p.database == database) out.push_back(p.name);
    }
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

std::vector<std::string> Catalog::ListViews(const std::string& catalog, const std::string& database) const {
  std::vector<std::string> out;
  for (const auto& [p, v] : views_) {
    if (p.catalog == catalog && p.database == database) out.push_back(p.name);
  }
  return out;
}

}  // namespace sluice
