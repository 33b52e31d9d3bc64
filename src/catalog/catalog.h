// Catalog: the catalogs a session knows, under Flink's three-part names (catalog.database.name), as
// Flink's CatalogManager. It holds the current catalog and database (USE CATALOG / USE), resolves a
// written name against them, and routes each object to where it lives:
//   - in-memory catalogs ('default_catalog', and CREATE CATALOG ... WITH ('type' =
//     'generic_in_memory')): tables and views kept here, under their databases;
//   - external catalogs (an Iceberg warehouse, catalog/external_catalog.h): tables and databases kept
//     by the catalog; temporary tables and views under an external catalog's names are kept here.
//
// A CatalogTable keeps its CREATE TABLE statement (for computed column and watermark expressions,
// which the binder binds again wherever the table is read) plus what binding it at CREATE time
// established: the column types in declared order (computed columns typed, the rowtime column marked
// *ROWTIME*), the primary key and the WITH options. A CatalogView keeps its query and its bound
// schema. Lookups are exact (Flink identifiers are case-sensitive) and a miss offers a did-you-mean.
//
// Threading: owned by one session; entries are immutable and shared with running jobs.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "catalog/external_catalog.h"
#include "common/status.h"
#include "sql/ast.h"
#include "types/schema.h"

namespace sluice {

inline constexpr char kDefaultCatalog[] = "default_catalog";
inline constexpr char kDefaultDatabase[] = "default_database";

struct ObjectPath {
  std::string catalog = kDefaultCatalog;
  std::string database = kDefaultDatabase;
  std::string name;
  // "default_catalog.default_database.t"
  std::string FullName() const;
  // "[default_catalog, default_database, t]" as Flink's EXPLAIN prints a scanned table.
  std::string ExplainName() const;
  bool operator<(const ObjectPath& o) const;
  bool operator==(const ObjectPath& o) const = default;
};

struct CatalogColumn {
  std::string name;
  LogicalType type;
  ast::ColumnKind kind = ast::ColumnKind::kPhysical;
  const ast::Expr* expr = nullptr;  // computed columns (owned by the table's DDL)
  std::string metadata_key;         // metadata columns: the key read from the connector
  bool is_virtual = false;          // metadata columns that are read-only (not written by sinks)
};

struct CatalogTable {
  ObjectPath path;
  bool temporary = false;
  std::shared_ptr<const ast::CreateTable> ddl;  // null for a table an external catalog describes
  std::vector<CatalogColumn> columns;  // declared order
  std::optional<size_t> rowtime_column;  // index into columns
  const ast::Expr* watermark_expr = nullptr;
  std::vector<std::string> primary_key;
  std::map<std::string, std::string> options;
  ast::PropertyList ordered_options;
  std::vector<std::string> partition_keys;  // PARTITIONED BY (...), in order

  Schema schema() const;           // every column, declared order
  Schema physical_schema() const;  // physical columns only
  // Columns an INSERT writes: physical and non-virtual metadata columns, in declared order.
  std::vector<size_t> persisted_columns() const;
  std::string connector() const;
};

// What CREATE CATALOG said, for SHOW CREATE CATALOG and DESCRIBE CATALOG (Flink's CatalogDescriptor):
// the options as written (with 'type'; secret values included, so whoever shows them masks them) and
// the COMMENT.
struct CatalogDescriptor {
  std::string name;
  std::map<std::string, std::string> options;
  std::optional<std::string> comment;
};

struct CatalogView {
  ObjectPath path;
  bool temporary = false;
  std::shared_ptr<const ast::CreateView> ddl;
  Schema schema;
};

class Catalog {
 public:
  Catalog();
  ~Catalog();
  Catalog(const Catalog&) = delete;
  Catalog& operator=(const Catalog&) = delete;

  // ---- catalogs and databases
  // CREATE CATALOG: 'type' chooses the factory ('generic_in_memory' is built in).
  Status CreateCatalog(const std::string& name, const std::map<std::string, std::string>& options,
                       bool if_not_exists, const std::vector<const ExternalCatalogFactory*>& factories,
                       const std::optional<std::string>& comment = std::nullopt);
  // The descriptor of a catalog CREATE CATALOG registered. The built-in 'default_catalog' has none
  // (as in Flink, where it is not in the catalog store): an error, as for a catalog that does not
  // exist.
  Result<CatalogDescriptor> GetCatalogDescriptor(const std::string& name) const;
  Status DropCatalog(const std::string& name, bool if_exists);
  Status UseCatalog(const std::string& name);
  // USE [catalog.]database
  Status UseDatabase(const ast::Name& name);
  const std::string& current_catalog() const { return current_catalog_; }
  const std::string& current_database() const { return current_database_; }
  std::vector<std::string> ListCatalogs() const;  // sorted
  // In creation order for in-memory catalogs (as Flink's), as the catalog lists them otherwise.
  Result<std::vector<std::string>> ListDatabases(const std::string& catalog) const;
  Status CreateDatabase(const ast::Name& name, const std::map<std::string, std::string>& properties,
                        bool if_not_exists);
  Status DropDatabase(const ast::Name& name, bool if_exists, bool cascade);

  // Resolves a written name (1 to 3 parts) against the current catalog and database; the catalog
  // must exist.
  Result<ObjectPath> Resolve(const ast::Name& name) const;
  // True when `catalog` is an external catalog: its tables need no 'connector' option.
  bool IsExternal(const std::string& catalog) const { return FindExternal(catalog) != nullptr; }

  // ---- tables and views
  Status CreateTable(std::shared_ptr<CatalogTable> table, bool if_not_exists);
  Status CreateView(std::shared_ptr<CatalogView> view, bool if_not_exists);
  // Drops a table (is_view false) or a view. A missing object is an error unless if_exists.
  Status Drop(const ObjectPath& path, bool is_view, bool if_exists);
  // Replaces a table of the session (ALTER TABLE); external catalogs' tables are altered there.
  Status ReplaceTable(std::shared_ptr<CatalogTable> table);

  // Either a table or a view (exactly one is non-null on success).
  struct Entry {
    std::shared_ptr<const CatalogTable> table;
    std::shared_ptr<const CatalogView> view;
  };
  Result<Entry> Lookup(const ObjectPath& path) const;
  std::shared_ptr<const CatalogTable> FindTable(const ObjectPath& path) const;

  // Names (last part) in a database, sorted; include_views for SHOW TABLES (Flink lists views there
  // too).
  Result<std::vector<std::string>> ListTables(const std::string& catalog, const std::string& database,
                                              bool include_views) const;
  std::vector<std::string> ListViews(const std::string& catalog, const std::string& database) const;

 private:
  struct MemoryCatalog {
    std::vector<std::string> databases;  // creation order
  };
  ExternalCatalog* FindExternal(const std::string& catalog) const;
  Status CheckCatalog(const std::string& catalog) const;
  Status CheckDatabase(const std::string& catalog, const std::string& database) const;
  bool DatabaseHasObjects(const std::string& catalog, const std::string& database) const;

  std::map<std::string, MemoryCatalog> memory_catalogs_;
  std::map<std::string, std::unique_ptr<ExternalCatalog>> external_catalogs_;
  std::map<std::string, CatalogDescriptor> descriptors_;  // every catalog but the default one
  std::string current_catalog_ = kDefaultCatalog;
  std::string current_database_ = kDefaultDatabase;
  std::map<ObjectPath, std::shared_ptr<const CatalogTable>> tables_;
  std::map<ObjectPath, std::shared_ptr<const CatalogView>> views_;
};

}  // namespace sluice
