// IcebergCatalog: where Iceberg tables are found and how their metadata is committed, with the
// operations Flink's Iceberg catalog needs (namespaces = Flink databases). The hadoop catalog
// (hadoop_catalog.h) implements it on a FileIO warehouse; a REST catalog client implements the same
// calls over HTTP (CommitTable's requirements are the REST protocol's).
//
// Errors follow Iceberg's exception wording so users recognise them:
//   kNotFound         "Namespace does not exist: db", "Table does not exist: db.t"
//   kInvalidArgument  "Namespace already exists: db", "Table already exists: db.t",
//                     "Namespace db is not empty."
//   kAborted          a commit lost a race or its requirements no longer hold
//                     ("Version 3 already exists: ...", "Cannot commit changes based on stale table
//                     metadata", "Requirement failed: branch main has changed: ..."): reload the
//                     table, re-apply the change and retry (IsCommitConflict).
//
// Threading: implementations are thread-safe; concurrent commits to one table from several
// processes are serialized by the catalog's atomic primitive (exactly one wins).
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "common/status.h"
#include "connectors/iceberg/table_metadata.h"

namespace sluice {

using IcebergNamespace = std::vector<std::string>;

// "a.b" as Iceberg's Namespace.toString.
std::string NamespaceToString(const IcebergNamespace& ns);

struct TableIdentifier {
  IcebergNamespace ns;
  std::string name;
  // "db.t"
  std::string ToString() const;
  bool operator==(const TableIdentifier& other) const { return ns == other.ns && name == other.name; }
};

// A table's metadata as loaded: the file it came from and (for the hadoop catalog) its version N of
// v<N>.metadata.json, so a commit can check that it builds on the current version.
struct LoadedTable {
  TableIdentifier ident;
  TableMetadata metadata;
  std::string metadata_location;
  int64_t version = 0;
  // The REST catalog's per-table configuration from loadTable ("config", then the
  // "storage-credentials" entry whose prefix the table's location starts with): vended storage
  // credentials ('s3.access-key-id', 's3.session-token', 's3.session-token-expires-at-ms', ...) that
  // apply to this table's files. Empty for other catalogs.
  std::map<std::string, std::string> config;
};

// A REST-style commit requirement, checked against the current metadata before a commit applies.
struct TableRequirement {
  enum class Kind {
    kAssertCreate,                // the table must not exist
    kAssertTableUuid,             // uuid
    kAssertRefSnapshotId,         // ref, snapshot_id (nullopt: the ref must not exist)
    kAssertCurrentSchemaId,       // id
    kAssertDefaultSpecId,         // id
    kAssertDefaultSortOrderId,    // id
    kAssertLastAssignedFieldId,   // id
    kAssertLastAssignedPartitionId,  // id
  };
  Kind kind = Kind::kAssertCreate;
  std::string uuid;
  std::string ref;
  std::optional<int64_t> snapshot_id;
  int64_t id = 0;

  static TableRequirement TableUuid(std::string uuid) { return {Kind::kAssertTableUuid, std::move(uuid), {}, {}, 0}; }
  static TableRequirement RefSnapshotId(std::string ref, std::optional<int64_t> snapshot_id) {
    return {Kind::kAssertRefSnapshotId, {}, std::move(ref), snapshot_id, 0};
  }
  // The REST protocol's JSON name ("assert-ref-snapshot-id").
  std::string TypeName() const;
};

// Checks one requirement; `current` is null when the table does not exist. A failure is kAborted
// with the REST catalog's wording ("Requirement failed: branch main has changed: expected id 1 != 2").
[[nodiscard]] Status CheckRequirement(const TableRequirement& requirement, const TableMetadata* current);

// Whether a failed commit may be retried after reloading the table.
inline bool IsCommitConflict(const Status& status) { return status.code() == StatusCode::kAborted; }

class IcebergCatalog {
 public:
  virtual ~IcebergCatalog() = default;

  // Namespaces directly under `parent` (the top level for an empty parent), sorted.
  [[nodiscard]] virtual Result<std::vector<IcebergNamespace>> ListNamespaces(const IcebergNamespace& parent) = 0;
  [[nodiscard]] virtual Status CreateNamespace(const IcebergNamespace& ns,
                                               const std::map<std::string, std::string>& properties) = 0;
  [[nodiscard]] virtual Result<bool> NamespaceExists(const IcebergNamespace& ns) = 0;
  // Refuses a namespace that still holds tables or namespaces.
  [[nodiscard]] virtual Status DropNamespace(const IcebergNamespace& ns) = 0;

  // Tables of a namespace, sorted by name.
  [[nodiscard]] virtual Result<std::vector<TableIdentifier>> ListTables(const IcebergNamespace& ns) = 0;
  // Creates a table (the location defaults to the catalog's place for it) and returns it loaded.
  [[nodiscard]] virtual Result<LoadedTable> CreateTable(const TableIdentifier& ident, NewTableOptions options) = 0;
  [[nodiscard]] virtual Result<bool> TableExists(const TableIdentifier& ident) = 0;
  [[nodiscard]] virtual Result<LoadedTable> LoadTable(const TableIdentifier& ident) = 0;
  // Commits `updated` (built from `base`, e.g. by AddSnapshot) if `base` is still the current version
  // and every requirement holds; records `base` in the metadata log. Returns the table as committed.
  [[nodiscard]] virtual Result<LoadedTable> CommitTable(const LoadedTable& base, const TableMetadata& updated,
                                                        const std::vector<TableRequirement>& requirements) = 0;
  // Drops the table's metadata; with `purge` its files as well. NotFound when it does not exist.
  [[nodiscard]] virtual Status DropTable(const TableIdentifier& ident, bool purge) = 0;
};

// Iceberg's commit loop ('commit.retry.num-retries', default 4): loads the table, lets `apply` build
// the new metadata from it (apply returns nullopt when there is nothing to commit, e.g. a restarted
// job finds its checkpoint already committed), commits with assert-table-uuid and
// assert-ref-snapshot-id on main, and on a conflict reloads and applies again. No waiting between
// attempts: a conflict means another commit has already landed, so a reload sees it. Returns the
// committed table, or the loaded one when apply committed nothing.
inline constexpr const char* kPropCommitNumRetries = "commit.retry.num-retries";
inline constexpr int64_t kDefaultCommitNumRetries = 4;
using MetadataUpdate = std::function<Result<std::optional<TableMetadata>>(const LoadedTable& base)>;
[[nodiscard]] Result<LoadedTable> CommitWithRetries(IcebergCatalog* catalog, const TableIdentifier& ident,
                                                    const MetadataUpdate& apply);

}  // namespace sluice
