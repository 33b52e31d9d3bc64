// ExternalCatalog: a catalog whose databases and tables live outside the session — an Iceberg
// warehouse (hadoop or REST catalog) registered with CREATE CATALOG ... WITH ('type' = 'iceberg').
// The session's Catalog (catalog.h) routes every name under a registered external catalog here.
//
// A table an external catalog returns is an ordinary CatalogTable whose WITH options name the
// connector that reads and writes it ('connector' = 'iceberg' plus the catalog's own options and
// the table's identity), so planning treats a catalog table and a `CREATE TABLE ... WITH
// ('connector' = 'iceberg', ...)` table the same way.
//
// Errors use Flink's catalog wording ("Database x does not exist in Catalog y.", ...) and name the
// catalog's storage when the storage itself fails.
//
// Threading: owned by one session's Catalog; called from the session's thread only (a running job
// gets what it needs through the table's options, not through this object).
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "common/status.h"

namespace sluice {

struct CatalogTable;
struct ObjectPath;

class ExternalCatalog {
 public:
  virtual ~ExternalCatalog() = default;
  // The 'type' it was created with ("iceberg").
  virtual std::string type() const = 0;
  // The database USE CATALOG makes current ('default-database', "default" unless set).
  virtual std::string default_database() const = 0;

  virtual Result<std::vector<std::string>> ListDatabases() = 0;
  virtual Result<bool> DatabaseExists(const std::string& database) = 0;
  virtual Status CreateDatabase(const std::string& database, const std::map<std::string, std::string>& properties,
                                bool if_not_exists) = 0;
  // A non-empty database is refused unless `cascade` (then its tables are dropped too).
  virtual Status DropDatabase(const std::string& database, bool if_exists, bool cascade) = 0;

  virtual Result<std::vector<std::string>> ListTables(const std::string& database) = 0;
  // The table at `path`, or null when there is none.
  virtual Result<std::shared_ptr<const CatalogTable>> GetTable(const ObjectPath& path) = 0;
  // Creates the table `table` describes (its path, columns, primary key, partition keys and WITH
  // options as table properties).
  virtual Status CreateTable(const CatalogTable& table, bool if_not_exists) = 0;
  virtual Status DropTable(const ObjectPath& path, bool if_exists) = 0;
};

// Creates external catalogs by 'type' (CREATE CATALOG name WITH ('type' = '...', ...)). The engine
// registers the factories it links (iceberg); the in-memory type 'generic_in_memory' is built in.
class ExternalCatalogFactory {
 public:
  virtual ~ExternalCatalogFactory() = default;
  virtual std::string type() const = 0;
  virtual Result<std::unique_ptr<ExternalCatalog>> Create(const std::string& catalog_name,
                                                          const std::map<std::string, std::string>& options) const = 0;
};

}  // namespace sluice
