#include "connectors/iceberg/rest_catalog_requests.h"

#include <algorithm>
#include <set>

#include "connectors/iceberg/iceberg_json.h"
#include "connectors/iceberg/table_metadata_json.h"

namespace sluice {
namespace {

void WriteNamespace(const IcebergNamespace& ns, JsonWriter* w) {
  w->BeginArray();
  for (const std::string& level : ns) w->String(level);
  w->EndArray();
}

void WriteStringMap(const std::map<std::string, std::string>& m, JsonWriter* w) {
  w->BeginObject();
  for (const auto& [k, v] : m) w->Field(k, v);
  w->EndObject();
}

void WriteRequirement(const TableRequirement& r, JsonWriter* w) {
  using Kind = TableRequirement::Kind;
  w->BeginObject();
  w->Field("type", r.TypeName());
  switch (r.kind) {
    case Kind::kAssertCreate: break;
    case Kind::kAssertTableUuid: w->Field("uuid", r.uuid); break;
    case Kind::kAssertRefSnapshotId:
      w->Field("ref", r.ref);
      w->Key("snapshot-id");
      if (r.snapshot_id) w->Int(*r.snapshot_id);
      else w->Null();
      break;
    case Kind::kAssertCurrentSchemaId: w->Field("current-schema-id", r.id); break;
    case Kind::kAssertDefaultSpecId: w->Field("default-spec-id", r.id); break;
    case Kind::kAssertDefaultSortOrderId: w->Field("default-sort-order-id", r.id); break;
    case Kind::kAssertLastAssignedFieldId: w->Field("last-assigned-field-id", r.id); break;
    case Kind::kAssertLastAssignedPartitionId: w->Field("last-assigned-partition-id", r.id); break;
  }
  w->EndObject();
}

void WriteRef(const std::string& name, const SnapshotRef& ref, JsonWriter* w) {
  w->BeginObject();
  w->Field("action", "set-snapshot-ref");
  w->Field("ref-name", name);
  w->Field("type", ref.type);
  w->Field("snapshot-id", ref.snapshot_id);
  if (ref.min_snapshots_to_keep) w->Field("min-snapshots-to-keep", *ref.min_snapshots_to_keep);
  if (ref.max_snapshot_age_ms) w->Field("max-snapshot-age-ms", *ref.max_snapshot_age_ms);
  if (ref.max_ref_age_ms) w->Field("max-ref-age-ms", *ref.max_ref_age_ms);
  w->EndObject();
}

bool SameRef(const SnapshotRef& a, const SnapshotRef& b) {
  return a.snapshot_id == b.snapshot_id && a.type == b.type && a.min_snapshots_to_keep == b.min_snapshots_to_keep &&
         a.max_snapshot_age_ms == b.max_snapshot_age_ms && a.max_ref_age_ms == b.max_ref_age_ms;
}

Status WriteSchemaUpdates(const TableMetadata& base, const TableMetadata& updated, JsonWriter* w) {
  for (const IcebergSchema& s : base.schemas) {
    if (updated.SchemaById(s.schema_id()) == nullptr) {
      return Status::NotSupported("a REST catalog commit cannot remove schema " + std::to_string(s.schema_id()));
    }
  }
  for (const IcebergSchema& s : updated.schemas) {
    if (base.SchemaById(s.schema_id()) != nullptr) continue;
    w->BeginObject();
    w->Field("action", "add-schema");
    w->Key("schema");
    WriteSchemaJson(s, w);
    w->Field("last-column-id", updated.last_column_id);
    w->EndObject();
  }
  if (updated.current_schema_id != base.current_schema_id) {
    w->BeginObject();
    w->Field("action", "set-current-schema");
    w->Field("schema-id", updated.current_schema_id);
    w->EndObject();
  }
  return Status::OK();
}

Status WriteSpecAndOrderUpdates(const TableMetadata& base, const TableMetadata& updated, JsonWriter* w) {
  for (const PartitionSpec& s : base.specs) {
    if (updated.SpecById(s.spec_id()) == nullptr) {
      return Status::NotSupported("a REST catalog commit cannot remove partition spec " + std::to_string(s.spec_id()));
    }
  }
  for (const PartitionSpec& s : updated.specs) {
    if (base.SpecById(s.spec_id()) != nullptr) continue;
    w->BeginObject();
    w->Field("action", "add-spec");
    w->Key("spec");
    WritePartitionSpecJson(s, w);
    w->EndObject();
  }
  if (updated.default_spec_id != base.default_spec_id) {
    w->BeginObject();
    w->Field("action", "set-default-spec");
    w->Field("spec-id", updated.default_spec_id);
    w->EndObject();
  }
  auto has_order = [](const TableMetadata& md, int32_t id) {
    return std::any_of(md.sort_orders.begin(), md.sort_orders.end(), [&](const SortOrder& o) { return o.order_id == id; });
  };
  for (const SortOrder& o : updated.sort_orders) {
    if (has_order(base, o.order_id)) continue;
    w->BeginObject();
    w->Field("action", "add-sort-order");
    w->Key("sort-order");
    WriteSortOrderJson(o, w);
    w->EndObject();
  }
  if (updated.default_sort_order_id != base.default_sort_order_id) {
    w->BeginObject();
    w->Field("action", "set-default-sort-order");
    w->Field("sort-order-id", updated.default_sort_order_id);
    w->EndObject();
  }
  return Status::OK();
}

void WriteSnapshotUpdates(const TableMetadata& base, const TableMetadata& updated, JsonWriter* w) {
  for (const Snapshot& s : updated.snapshots) {
    if (base.SnapshotById(s.snapshot_id) != nullptr) continue;
    w->BeginObject();
    w->Field("action", "add-snapshot");
    w->Key("snapshot");
    WriteSnapshotJson(s, updated.format_version, w);
    w->EndObject();
  }
  std::vector<int64_t> removed;
  for (const Snapshot& s : base.snapshots) {
    if (updated.SnapshotById(s.snapshot_id) == nullptr) removed.push_back(s.snapshot_id);
  }
  if (!removed.empty()) {
    w->BeginObject();
    w->Field("action", "remove-snapshots");
    w->Key("snapshot-ids");
    w->BeginArray();
    for (int64_t id : removed) w->Int(id);
    w->EndArray();
    w->EndObject();
  }
  for (const auto& [name, ref] : base.refs) {
    if (updated.refs.count(name)) continue;
    w->BeginObject();
    w->Field("action", "remove-snapshot-ref");
    w->Field("ref-name", name);
    w->EndObject();
  }
  for (const auto& [name, ref] : updated.refs) {
    auto old = base.refs.find(name);
    if (old == base.refs.end() || !SameRef(old->second, ref)) WriteRef(name, ref, w);
  }
}

void WritePropertyUpdates(const TableMetadata& base, const TableMetadata& updated, JsonWriter* w) {
  std::map<std::string, std::string> set;
  for (const auto& [k, v] : updated.properties) {
    auto old = base.properties.find(k);
    if (old == base.properties.end() || old->second != v) set[k] = v;
  }
  std::vector<std::string> removed;
  for (const auto& [k, v] : base.properties) {
    if (!updated.properties.count(k)) removed.push_back(k);
  }
  if (!set.empty()) {
    w->BeginObject();
    w->Field("action", "set-properties");
    w->Key("updates");
    WriteStringMap(set, w);
    w->EndObject();
  }
  if (!removed.empty()) {
    w->BeginObject();
    w->Field("action", "remove-properties");
    w->Key("removals");
    w->BeginArray();
    for (const std::string& k : removed) w->String(k);
    w->EndArray();
    w->EndObject();
  }
}

}  // namespace

std::string RestCreateNamespaceRequest(const IcebergNamespace& ns, const std::map<std::string, std::string>& properties) {
  JsonWriter w(false);
  w.BeginObject();
  w.Key("namespace");
  WriteNamespace(ns, &w);
  w.Key("properties");
  WriteStringMap(properties, &w);
  w.EndObject();
  return w.Take();
}

std::string RestCreateTableRequest(const std::string& name, const TableMetadata& fresh, const std::string& location) {
  JsonWriter w(false);
  w.BeginObject();
  w.Field("name", name);
  if (!location.empty()) w.Field("location", location);
  w.Key("schema");
  WriteSchemaJson(fresh.CurrentSchema(), &w);
  w.Key("partition-spec");
  WritePartitionSpecJson(fresh.DefaultSpec(), &w);
  w.Key("write-order");
  WriteSortOrderJson(fresh.DefaultSortOrder(), &w);
  std::map<std::string, std::string> properties = fresh.properties;
  properties["format-version"] = std::to_string(fresh.format_version);
  w.Key("properties");
  WriteStringMap(properties, &w);
  w.Field("stage-create", false);
  w.EndObject();
  return w.Take();
}

std::vector<TableRequirement> RestCommitRequirements(const TableMetadata& base, const TableMetadata& updated,
                                                     const std::vector<TableRequirement>& requirements) {
  using Kind = TableRequirement::Kind;
  std::vector<TableRequirement> out = requirements;
  auto has = [&](Kind kind, const std::string& ref) {
    return std::any_of(out.begin(), out.end(), [&](const TableRequirement& r) {
      return r.kind == kind && (kind != Kind::kAssertRefSnapshotId || r.ref == ref);
    });
  };
  if (!has(Kind::kAssertTableUuid, "")) out.insert(out.begin(), TableRequirement::TableUuid(base.table_uuid));
  std::set<std::string> moved;
  for (const auto& [name, ref] : updated.refs) {
    auto old = base.refs.find(name);
    if (old == base.refs.end() || old->second.snapshot_id != ref.snapshot_id) moved.insert(name);
  }
  for (const auto& [name, ref] : base.refs) {
    if (!updated.refs.count(name)) moved.insert(name);
  }
  for (const std::string& name : moved) {
    if (has(Kind::kAssertRefSnapshotId, name)) continue;
    auto old = base.refs.find(name);
    out.push_back(TableRequirement::RefSnapshotId(
        name, old == base.refs.end() ? std::nullopt : std::optional<int64_t>(old->second.snapshot_id)));
  }
  return out;
}

Result<std::string> RestCommitTableRequest(const TableIdentifier& ident, const TableMetadata& base,
                                           const TableMetadata& updated,
                                           const std::vector<TableRequirement>& requirements) {
  if (updated.table_uuid != base.table_uuid) {
    return Status::InvalidArgument("Cannot commit table " + ident.ToString() + ": the updated metadata's uuid " +
                                   updated.table_uuid + " is not the base's " + base.table_uuid);
  }
  JsonWriter w(false);
  w.BeginObject();
  w.Key("identifier");
  w.BeginObject();
  w.Key("namespace");
  WriteNamespace(ident.ns, &w);
  w.Field("name", ident.name);
  w.EndObject();
  w.Key("requirements");
  w.BeginArray();
  for (const TableRequirement& r : RestCommitRequirements(base, updated, requirements)) WriteRequirement(r, &w);
  w.EndArray();
  w.Key("updates");
  w.BeginArray();
  if (updated.format_version != base.format_version) {
    w.BeginObject();
    w.Field("action", "upgrade-format-version");
    w.Field("format-version", static_cast<int64_t>(updated.format_version));
    w.EndObject();
  }
  RETURN_IF_ERROR(WriteSchemaUpdates(base, updated, &w));
  RETURN_IF_ERROR(WriteSpecAndOrderUpdates(base, updated, &w));
  if (updated.location != base.location) {
    w.BeginObject();
    w.Field("action", "set-location");
    w.Field("location", updated.location);
    w.EndObject();
  }
  WriteSnapshotUpdates(base, updated, &w);
  WritePropertyUpdates(base, updated, &w);
  w.EndArray();
  w.EndObject();
  return w.Take();
}

}  // namespace sluice
