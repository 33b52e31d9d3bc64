// The JSON bodies an Iceberg REST catalog client sends (the REST catalog OpenAPI spec's
// CreateNamespaceRequest, CreateTableRequest and CommitTableRequest), built from Sluice's metadata
// values. A commit's updates are derived by comparing the base metadata with the updated one, as
// Java's TableMetadata.Builder records its changes:
//
//   upgrade-format-version, add-schema / set-current-schema, add-spec / set-default-spec,
//   add-sort-order / set-default-sort-order, set-location, add-snapshot (each new snapshot, in
//   order), remove-snapshots, set-snapshot-ref / remove-snapshot-ref, set-properties /
//   remove-properties.
//
// The metadata log, snapshot log, sequence numbers and last-updated-ms are the server's to maintain.
// Requirements are the caller's plus, as Java's UpdateRequirements adds them, assert-table-uuid and
// an assert-ref-snapshot-id (the base's head) for every ref the commit moves, so a commit applies only
// on top of the metadata it was built from.
//
// Threading: pure functions.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "common/status.h"
#include "connectors/iceberg/iceberg_catalog.h"
#include "connectors/iceberg/table_metadata.h"

namespace sluice {

// {"namespace": [...], "properties": {...}}
std::string RestCreateNamespaceRequest(const IcebergNamespace& ns, const std::map<std::string, std::string>& properties);

// {"name", "location"?, "schema", "partition-spec", "write-order", "properties"} from a new table's
// metadata (ids already assigned by NewTableMetadata); `location` is left out when empty.
std::string RestCreateTableRequest(const std::string& name, const TableMetadata& fresh, const std::string& location);

// The caller's requirements completed with assert-table-uuid and the moved refs' assertions.
std::vector<TableRequirement> RestCommitRequirements(const TableMetadata& base, const TableMetadata& updated,
                                                     const std::vector<TableRequirement>& requirements);

// {"identifier", "requirements", "updates"}; an error when `updated` changes something the protocol
// cannot express from here (a schema or spec removed, another table's uuid).
[[nodiscard]] Result<std::string> RestCommitTableRequest(const TableIdentifier& ident, const TableMetadata& base,
                                                         const TableMetadata& updated,
                                                         const std::vector<TableRequirement>& requirements);

}  // namespace sluice
