// HadoopCatalog: Iceberg's file-system catalog (Java's HadoopCatalog and HadoopTableOperations) on
// a FileIO warehouse, so tables it writes are read by Spark, Flink, PyIceberg and DuckDB pointed at
// the same directory, and theirs by Sluice:
//
//   <warehouse>/<ns1>/<ns2>/<table>/metadata/v<N>.metadata.json   one file per table version
//   <warehouse>/<ns1>/<ns2>/<table>/metadata/version-hint.text    "N", the latest version (a hint)
//   <warehouse>/<ns1>/<ns2>/<table>/data/...                      data files (written by sinks)
//
// Gzip-compressed versions (v<N>.gz.metadata.json, Java's 'write.metadata.compression-codec' =
// 'gzip') are read; Sluice writes uncompressed files.
//
// Namespaces are directories; a directory is a table when its metadata/ holds a *.metadata.json.
// Loading reads the hint (falling back to the highest v<N> listed) and then follows v<N+1>, v<N+2>
// while they exist, as Java's refresh does, since a committer may have died between publishing the
// version and updating the hint. A commit writes v<N+1> with FileIO::WriteAtomically(overwrite=
// false): of two committers building on version N exactly one creates it; the other gets
// "Version N+1 already exists: ..." (kAborted) and can reload and retry. Then the hint is rewritten
// and, when 'write.metadata.delete-after-commit.enabled' is true, metadata files that fell out of
// the metadata log (beyond 'write.metadata.previous-versions-max') are deleted.
//
// Threading: thread-safe (no mutable state besides the FileIO, which is thread-safe).
#pragma once

#include <functional>
#include <memory>
#include <string>

#include "common/file_io.h"
#include "connectors/iceberg/iceberg_catalog.h"

namespace sluice {

class HadoopCatalog final : public IcebergCatalog {
 public:
  // `warehouse` is a location ("file:///path/wh" or "/path/wh"); `now_ms` stamps new tables and
  // commits' last-updated-ms when the caller left it at the base's value (injected for tests).
  HadoopCatalog(std::shared_ptr<FileIO> io, std::string warehouse, std::function<int64_t()> now_ms);

  const std::string& warehouse() const { return warehouse_; }
  FileIO* io() const { return io_.get(); }
  // <warehouse>/<ns...>/<name>
  std::string TableLocation(const TableIdentifier& ident) const;

  Result<std::vector<IcebergNamespace>> ListNamespaces(const IcebergNamespace& parent) override;
  Status CreateNamespace(const IcebergNamespace& ns, const std::map<std::string, std::string>& properties) override;
  Result<bool> NamespaceExists(const IcebergNamespace& ns) override;
  Status DropNamespace(const IcebergNamespace& ns) override;
  Result<std::vector<TableIdentifier>> ListTables(const IcebergNamespace& ns) override;
  Result<LoadedTable> CreateTable(const TableIdentifier& ident, NewTableOptions options) override;
  Result<bool> TableExists(const TableIdentifier& ident) override;
  Result<LoadedTable> LoadTable(const TableIdentifier& ident) override;
  Result<LoadedTable> CommitTable(const LoadedTable& base, const TableMetadata& updated,
                                  const std::vector<TableRequirement>& requirements) override;
  Status DropTable(const TableIdentifier& ident, bool purge) override;

  // The metadata file of version `version` of a table at `table_location`.
  static std::string MetadataFileLocation(const std::string& table_location, int64_t version);

 private:
  std::string NamespaceLocation(const IcebergNamespace& ns) const;
  Result<bool> IsTableDirectory(const std::string& location) const;
  // The current version of a table directory (0 when it has none).
  Result<int64_t> FindVersion(const std::string& table_location) const;
  // The file of a version: v<N>.metadata.json or v<N>.gz.metadata.json; empty when neither exists.
  Result<std::string> ExistingMetadataFile(const std::string& table_location, int64_t version) const;
  Status WriteVersionHint(const std::string& table_location, int64_t version) const;
  Status CheckName(const std::string& name, const char* what) const;

  std::shared_ptr<FileIO> io_;
  std::string warehouse_;
  std::function<int64_t()> now_ms_;
};

}  // namespace sluice
