#include "connectors/iceberg/iceberg_catalog.h"

namespace sluice {

std::string NamespaceToString(const IcebergNamespace& ns) {
  std::string out;
  for (size_t i = 0; i < ns.size(); ++i) {
    if (i > 0) out.push_back('.');
    out += ns[i];
  }
  return out;
}

std::string TableIdentifier::ToString() const {
  return ns.empty() ? name : NamespaceToString(ns) + "." + name;
}

std::string TableRequirement::TypeName() const {
  switch (kind) {
    case Kind::kAssertCreate: return "assert-create";
    case Kind::kAssertTableUuid: return "assert-table-uuid";
    case Kind::kAssertRefSnapshotId: return "assert-ref-snapshot-id";
    case Kind::kAssertCurrentSchemaId: return "assert-current-schema-id";
    case Kind::kAssertDefaultSpecId: return "assert-default-spec-id";
    case Kind::kAssertDefaultSortOrderId: return "assert-default-sort-order-id";
    case Kind::kAssertLastAssignedFieldId: return "assert-last-assigned-field-id";
    case Kind::kAssertLastAssignedPartitionId: return "assert-last-assigned-partition-id";
  }
  return "unknown";
}

Status CheckRequirement(const TableRequirement& r, const TableMetadata* current) {
  auto fail = [](const std::string& what) { return Status::Aborted("Requirement failed: " + what); };
  using Kind = TableRequirement::Kind;
  if (r.kind == Kind::kAssertCreate) {
    return current == nullptr ? Status::OK() : fail("table already exists");
  }
  if (current == nullptr) return fail("table does not exist");
  auto expect_id = [&](const char* what, int64_t actual) {
    if (actual == r.id) return Status::OK();
    return fail(std::string(what) + " changed: expected id " + std::to_string(r.id) + " != " + std::to_string(actual));
  };
  switch (r.kind) {
    case Kind::kAssertTableUuid:
      if (current->table_uuid == r.uuid) return Status::OK();
      return fail("UUID does not match: expected " + r.uuid + " != " + current->table_uuid);
    case Kind::kAssertRefSnapshotId: {
      auto it = current->refs.find(r.ref);
      std::optional<int64_t> actual;
      if (it != current->refs.end()) {
        actual = it->second.snapshot_id;
      } else if (r.ref == kMainBranch) {
        actual = current->current_snapshot_id;
      }
      if (actual == r.snapshot_id) return Status::OK();
      if (!r.snapshot_id) return fail("branch or tag " + r.ref + " was created concurrently");
      if (!actual) return fail("branch or tag " + r.ref + " is missing, expected " + std::to_string(*r.snapshot_id));
      return fail("branch " + r.ref + " has changed: expected id " + std::to_string(*r.snapshot_id) +
                  " != " + std::to_string(*actual));
    }
    case Kind::kAssertCurrentSchemaId: return expect_id("current schema", current->current_schema_id);
    case Kind::kAssertDefaultSpecId: return expect_id("default partition spec", current->default_spec_id);
    case Kind::kAssertDefaultSortOrderId: return expect_id("default sort order", current->default_sort_order_id);
    case Kind::kAssertLastAssignedFieldId: return expect_id("last assigned field id", current->last_column_id);
    case Kind::kAssertLastAssignedPartitionId:
      return expect_id("last assigned partition id", current->last_partition_id);
    case Kind::kAssertCreate: break;
  }
  return Status::OK();
}

Result<LoadedTable> CommitWithRetries(IcebergCatalog* catalog, const TableIdentifier& ident,
                                      const MetadataUpdate& apply) {
  Status last;
  for (int64_t attempt = 0;; ++attempt) {
    ASSIGN_OR_RETURN(LoadedTable base, catalog->LoadTable(ident));
    ASSIGN_OR_RETURN(int64_t retries, base.metadata.IntProperty(kPropCommitNumRetries, kDefaultCommitNumRetries));
    if (attempt > std::max<int64_t>(retries, 0)) {
      return Status::Aborted("Commit to " + ident.ToString() + " failed after " + std::to_string(attempt) +
                             " attempts ('" + kPropCommitNumRetries + "' = " + std::to_string(retries) +
                             "): " + last.message());
    }
    ASSIGN_OR_RETURN(std::optional<TableMetadata> updated, apply(base));
    if (!updated) return base;
    std::vector<TableRequirement> requirements = {
        TableRequirement::TableUuid(base.metadata.table_uuid),
        TableRequirement::RefSnapshotId(kMainBranch, base.metadata.current_snapshot_id)};
    auto committed = catalog->CommitTable(base, *updated, requirements);
    if (committed.ok() || !IsCommitConflict(committed.status())) return committed;
    last = committed.status();
  }
}

}  // namespace sluice
