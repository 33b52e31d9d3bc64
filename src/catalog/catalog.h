// Catalog: the tables and views a session has declared, under Flink's three-part names
// (default_catalog.default_database.name).
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

// Resolves a written name (1 to 3 parts) against the current catalog and database.
Result<ObjectPath> ResolvePath(const ast::Name& name);

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
  std::shared_ptr<const ast::CreateTable> ddl;
  std::vector<CatalogColumn> columns;  // declared order
  std::optional<size_t> rowtime_column;  // index into columns
  const ast::Expr* watermark_expr = nullptr;
  std::vector<std::string> primary_key;
  std::map<std::string, std::string> options;
  ast::PropertyList ordered_options;

  Schema schema() const;           // every column, declared order
  Schema physical_schema() const;  // physical columns only
  // Columns an INSERT writes: physical and non-virtual metadata columns, in declared order.
  std::vector<size_t> persisted_columns() const;
  std::string connector() const;
};

struct CatalogView {
  ObjectPath path;
  bool temporary = false;
  std::shared_ptr<const ast::CreateView> ddl;
  Schema schema;
};

class Catalog {
 public:
  Status CreateTable(std::shared_ptr<CatalogTable> table, bool if_not_exists);
  Status CreateView(std::shared_ptr<CatalogView> view, bool if_not_exists);
  // Drops a table (is_view false) or a view. A missing object is an error unless if_exists.
  Status Drop(const ObjectPath& path, bool is_view, bool if_exists);

  // Either a table or a view (exactly one is non-null on success).
  struct Entry {
    std::shared_ptr<const CatalogTable> table;
    std::shared_ptr<const CatalogView> view;
  };
  Result<Entry> Lookup(const ObjectPath& path) const;
  std::shared_ptr<const CatalogTable> FindTable(const ObjectPath& path) const;

  // Names (last part) in the default database, sorted; tables_and_views true for SHOW TABLES (Flink
  // lists views there too).
  std::vector<std::string> ListTables(bool include_views) const;
  std::vector<std::string> ListViews() const;

 private:
  std::map<ObjectPath, std::shared_ptr<const CatalogTable>> tables_;
  std::map<ObjectPath, std::shared_ptr<const CatalogView>> views_;
};

}  // namespace sluice
