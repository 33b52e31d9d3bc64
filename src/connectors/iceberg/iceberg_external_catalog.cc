#include "connectors/iceberg/iceberg_external_catalog.h"

#include "catalog/catalog.h"
#include "connectors/iceberg/partition_spec.h"

namespace sluice {
namespace {

// Iceberg's own "Namespace does not exist" / "already exists" answers, in Flink's catalog wording.
Status DatabaseMissing(const std::string& db, const std::string& catalog) {
  return Status::BindError("Database " + db + " does not exist in Catalog " + catalog + ".");
}

// The PARTITIONED BY term that recreates a partition field: the column for identity, Spark's
// transform syntax otherwise.
std::string PartitionTermText(const PartitionField& f, const IcebergSchema& schema) {
  std::string column = schema.FindName(f.source_id);
  const Transform& t = f.transform;
  switch (t.kind) {
    case TransformKind::kIdentity: return column;
    case TransformKind::kBucket: return "bucket(" + std::to_string(t.param) + ", " + column + ")";
    case TransformKind::kTruncate: return "truncate(" + std::to_string(t.param) + ", " + column + ")";
    default: return t.ToString() + "(" + column + ")";
  }
}

class IcebergExternalCatalog final : public ExternalCatalog {
 public:
  IcebergExternalCatalog(IcebergCatalogConfig config, std::shared_ptr<IcebergCatalog> catalog)
      : config_(std::move(config)), catalog_(std::move(catalog)) {}

  std::string type() const override { return "iceberg"; }
  std::string default_database() const override { return config_.default_database; }

  Result<std::vector<std::string>> ListDatabases() override {
    ASSIGN_OR_RETURN(auto namespaces, catalog_->ListNamespaces({}));
    std::vector<std::string> out;
    for (const auto& ns : namespaces) out.push_back(NamespaceToString(ns));
    return out;
  }

  Result<bool> DatabaseExists(const std::string& database) override { return catalog_->NamespaceExists({database}); }

  Status CreateDatabase(const std::string& database, const std::map<std::string, std::string>& properties,
                        bool if_not_exists) override {
    ASSIGN_OR_RETURN(bool exists, catalog_->NamespaceExists({database}));
    if (exists) {
      if (if_not_exists) return Status::OK();
      return Status::BindError("Database " + database + " already exists in Catalog " + config_.catalog_name + ".");
    }
    return catalog_->CreateNamespace({database}, properties);
  }

  Status DropDatabase(const std::string& database, bool if_exists, bool cascade) override {
    ASSIGN_OR_RETURN(bool exists, catalog_->NamespaceExists({database}));
    if (!exists) return if_exists ? Status::OK() : DatabaseMissing(database, config_.catalog_name);
    ASSIGN_OR_RETURN(auto tables, catalog_->ListTables({database}));
    if (!tables.empty()) {
      if (!cascade) {
        return Status::BindError("Database " + database + " in catalog " + config_.catalog_name + " is not empty.");
      }
      for (const auto& t : tables) RETURN_IF_ERROR(catalog_->DropTable(t, false));
    }
    return catalog_->DropNamespace({database});
  }

  Result<std::vector<std::string>> ListTables(const std::string& database) override {
    ASSIGN_OR_RETURN(bool exists, catalog_->NamespaceExists({database}));
    if (!exists) return DatabaseMissing(database, config_.catalog_name);
    ASSIGN_OR_RETURN(auto tables, catalog_->ListTables({database}));
    std::vector<std::string> out;
    for (const auto& t : tables) out.push_back(t.name);
    return out;
  }

  Result<std::shared_ptr<const CatalogTable>> GetTable(const ObjectPath& path) override {
    TableIdentifier ident{{path.database}, path.name};
    ASSIGN_OR_RETURN(bool exists, catalog_->TableExists(ident));
    if (!exists) return std::shared_ptr<const CatalogTable>();
    ASSIGN_OR_RETURN(LoadedTable loaded, catalog_->LoadTable(ident));
    const TableMetadata& m = loaded.metadata;
    auto t = std::make_shared<CatalogTable>();
    t->path = path;
    const IcebergSchema& schema = m.CurrentSchema();
    Schema columns = ToSluiceSchema(schema);
    for (const auto& f : columns.fields()) {
      CatalogColumn c;
      c.name = f.name;
      c.type = f.type;
      t->columns.push_back(std::move(c));
    }
    for (int32_t id : schema.identifier_field_ids()) t->primary_key.push_back(schema.FindName(id));
    for (const auto& f : m.DefaultSpec().fields()) {
      if (f.transform.kind != TransformKind::kVoid) t->partition_keys.push_back(PartitionTermText(f, schema));
    }
    config_.ToTableOptions(&t->options);
    t->options["catalog-database"] = path.database;
    t->options["catalog-table"] = path.name;
    for (const auto& [k, v] : t->options) t->ordered_options.push_back({k, v});
    return std::shared_ptr<const CatalogTable>(std::move(t));
  }

  Status CreateTable(const CatalogTable& table, bool if_not_exists) override {
    const std::string name = table.path.FullName();
    for (const auto& c : table.columns) {
      if (c.kind == ast::ColumnKind::kComputed) {
        return Status::NotSupported("Table '" + name + "': creating an Iceberg table with computed columns is not "
                                    "supported (column '" + c.name + "')");
      }
      if (c.kind == ast::ColumnKind::kMetadata) {
        return Status::NotSupported("Table '" + name + "': creating an Iceberg table with metadata columns is not "
                                    "supported (column '" + c.name + "')");
      }
    }
    if (table.rowtime_column) {
      return Status::NotSupported("Table '" + name + "': creating an Iceberg table with a watermark is not supported; "
                                  "declare the watermark on a table that reads it (CREATE TABLE ... LIKE, or a "
                                  "'connector' = 'iceberg' table)");
    }
    TableIdentifier ident{{table.path.database}, table.path.name};
    ASSIGN_OR_RETURN(bool ns_exists, catalog_->NamespaceExists(ident.ns));
    if (!ns_exists) return DatabaseMissing(table.path.database, config_.catalog_name);
    ASSIGN_OR_RETURN(bool exists, catalog_->TableExists(ident));
    if (exists) {
      if (if_not_exists) return Status::OK();
      return Status::BindError("Could not execute CreateTable in path `" + table.path.catalog + "`.`" +
                               table.path.database + "`.`" + table.path.name + "`: Table already exists: " +
                               ident.ToString());
    }
    ASSIGN_OR_RETURN(NewTableOptions opts, IcebergNewTableOptions(table.physical_schema(), table.primary_key,
                                                                  table.partition_keys, table.options, name));
    return catalog_->CreateTable(ident, std::move(opts)).status();
  }

  Status DropTable(const ObjectPath& path, bool if_exists) override {
    TableIdentifier ident{{path.database}, path.name};
    ASSIGN_OR_RETURN(bool exists, catalog_->TableExists(ident));
    if (!exists) {
      if (if_exists) return Status::OK();
      return Status::BindError("Table with identifier '" + path.FullName() + "' does not exist.");
    }
    return catalog_->DropTable(ident, false);
  }

 private:
  IcebergCatalogConfig config_;
  std::shared_ptr<IcebergCatalog> catalog_;
};

class Factory final : public ExternalCatalogFactory {
 public:
  std::string type() const override { return "iceberg"; }
  Result<std::unique_ptr<ExternalCatalog>> Create(const std::string& catalog_name,
                                                  const std::map<std::string, std::string>& options) const override {
    ASSIGN_OR_RETURN(IcebergCatalogConfig config, IcebergCatalogConfig::FromCatalogOptions(catalog_name, options));
    ASSIGN_OR_RETURN(std::shared_ptr<IcebergCatalog> catalog, OpenIcebergCatalog(config));
    return std::unique_ptr<ExternalCatalog>(new IcebergExternalCatalog(std::move(config), std::move(catalog)));
  }
};

}  // namespace

const ExternalCatalogFactory* IcebergCatalogFactory() {
  static const Factory factory;
  return &factory;
}

}  // namespace sluice
