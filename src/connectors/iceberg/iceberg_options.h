// The options of Iceberg catalogs and Iceberg connector tables, typed and normalised once, with the
// names of Flink's Iceberg connector (iceberg-flink 1.12):
//
//   CREATE CATALOG lake WITH ('type' = 'iceberg', 'catalog-type' = 'hadoop' | 'rest',
//                             'warehouse' = '...', 'uri' = '...', 'default-database' = '...', ...)
//   CREATE TABLE t (...) WITH ('connector' = 'iceberg', 'catalog-name' = 'lake',
//                              'catalog-type' = ..., 'warehouse' = ..., 'catalog-database' = 'db',
//                              'catalog-table' = 't', <table properties>)
//
// A catalog's other options ('credential', 'token', 'scope', 'oauth2-server-uri', 'header.*',
// 'rest.*', 's3.*', 'client.*') pass through to the catalog client as Iceberg catalog properties;
// any option outside these is refused by name. A 'catalog-type' other than hadoop or rest (Flink's
// default, hive, among them) is refused by name.
//
// A table of an Iceberg catalog reaches its connector with the catalog's options under the table
// keys above (IcebergCatalogConfig::ToTableOptions), so `lake.db.t` and a 'connector' = 'iceberg'
// table open the same way (OpenTable).
//
// Threading: plain values and pure functions.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "common/status.h"
#include "connectors/connector.h"
#include "connectors/iceberg/iceberg_catalog.h"

namespace sluice {

class FileIO;

enum class IcebergCatalogType : uint8_t { kHadoop, kRest };

struct IcebergCatalogConfig {
  std::string catalog_name;
  IcebergCatalogType type = IcebergCatalogType::kHadoop;
  std::string warehouse;                  // hadoop: the warehouse location (required); rest: optional
  std::string uri;                        // rest: the catalog's base URI (required)
  std::string default_database = "default";
  std::map<std::string, std::string> properties;  // pass-through catalog properties (see above)

  // From CREATE CATALOG's options (which include 'type' = 'iceberg').
  static Result<IcebergCatalogConfig> FromCatalogOptions(const std::string& catalog_name,
                                                         const std::map<std::string, std::string>& options);
  // From a connector table's options ('catalog-name', 'catalog-type', ...). `table` names the table
  // in errors.
  static Result<IcebergCatalogConfig> FromTableOptions(const std::map<std::string, std::string>& options,
                                                       const std::string& table);
  // The table options FromTableOptions reads back.
  void ToTableOptions(std::map<std::string, std::string>* options) const;
  std::string TypeName() const;
};

// Connection keys of a connector table and their documentation (part of the factory's options()).
std::vector<OptionSpec> IcebergConnectionOptionSpecs();
// Whether `key` is a pass-through catalog property ('credential', 'header.x', 's3.endpoint', ...).
bool IsIcebergCatalogPropertyKey(const std::string& key);

// Table properties a CREATE TABLE may set on an Iceberg table (Iceberg's TableProperties names that
// Sluice implements, plus 'format-version'), with their documentation.
std::vector<OptionSpec> IcebergTablePropertySpecs();
// Refuses a key that is neither a table property Sluice implements nor a connection key, naming it
// (with a did-you-mean).
Status CheckIcebergTableProperties(const std::map<std::string, std::string>& properties, const std::string& table);

// Opens the catalog a configuration describes. The hadoop catalog works on the local file system;
// the REST catalog client (rest_catalog.h) connects to 'uri' and reads the server's configuration.
Result<std::shared_ptr<IcebergCatalog>> OpenIcebergCatalog(const IcebergCatalogConfig& config);

// What a connector table refers to: its catalog and its identifier there.
struct IcebergTableRef {
  IcebergCatalogConfig catalog;
  TableIdentifier ident;
};
// Reads 'catalog-database' (default "default") and 'catalog-table' (default: the last part of the
// table's name) next to the catalog's options.
Result<IcebergTableRef> IcebergTableRefFromContext(const ConnectorContext& ctx);

// Loads the table `ref` names. When it does not exist and `create_if_missing` (a sink of a
// 'connector' = 'iceberg' table, as Flink's IcebergTableSink), creates its namespace and the table
// from `ctx` (columns, primary key as identifier fields, PARTITIONED BY columns as identity
// partitions, table properties from the options).
Result<LoadedTable> OpenIcebergTable(IcebergCatalog* catalog, const IcebergTableRef& ref, const ConnectorContext& ctx,
                                     bool create_if_missing);

// A new table's definition from Sluice columns, primary key, partition columns and properties
// (CREATE TABLE in an Iceberg catalog, and the sink's create-if-missing).
Result<NewTableOptions> IcebergNewTableOptions(const Schema& schema, const std::vector<std::string>& primary_key,
                                               const std::vector<std::string>& partition_keys,
                                               const std::map<std::string, std::string>& properties,
                                               const std::string& table);

}  // namespace sluice
