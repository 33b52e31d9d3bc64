#include "connectors/iceberg/table_metadata.h"

#include <algorithm>
#include <charconv>
#include <random>
#include <set>
#include <unordered_map>

#include "common/check.h"
#include "common/random_id.h"

namespace sluice {

std::string Snapshot::SummaryValue(std::string_view key) const {
  for (const auto& [k, v] : summary) {
    if (k == key) return v;
  }
  return {};
}

// ---------------------------------------------------------------------------------------------
// Lookups

const IcebergSchema* TableMetadata::SchemaById(int32_t id) const {
  for (const IcebergSchema& s : schemas) {
    if (s.schema_id() == id) return &s;
  }
  return nullptr;
}

const PartitionSpec* TableMetadata::SpecById(int32_t id) const {
  for (const PartitionSpec& s : specs) {
    if (s.spec_id() == id) return &s;
  }
  return nullptr;
}

const Snapshot* TableMetadata::SnapshotById(int64_t id) const {
  for (const Snapshot& s : snapshots) {
    if (s.snapshot_id == id) return &s;
  }
  return nullptr;
}

const IcebergSchema& TableMetadata::CurrentSchema() const {
  const IcebergSchema* s = SchemaById(current_schema_id);
  SLUICE_CHECK(s != nullptr);
  return *s;
}

const PartitionSpec& TableMetadata::DefaultSpec() const {
  const PartitionSpec* s = SpecById(default_spec_id);
  SLUICE_CHECK(s != nullptr);
  return *s;
}

const SortOrder& TableMetadata::DefaultSortOrder() const {
  for (const SortOrder& o : sort_orders) {
    if (o.order_id == default_sort_order_id) return o;
  }
  SLUICE_UNREACHABLE();
}

const Snapshot* TableMetadata::CurrentSnapshot() const {
  return current_snapshot_id ? SnapshotById(*current_snapshot_id) : nullptr;
}

const Snapshot* TableMetadata::SnapshotForRef(const std::string& ref) const {
  auto it = refs.find(ref);
  if (it != refs.end()) return SnapshotById(it->second.snapshot_id);
  return ref == kMainBranch ? CurrentSnapshot() : nullptr;
}

std::string TableMetadata::Property(const std::string& key, const std::string& fallback) const {
  auto it = properties.find(key);
  return it == properties.end() ? fallback : it->second;
}

Result<int64_t> TableMetadata::IntProperty(const std::string& key, int64_t fallback) const {
  auto it = properties.find(key);
  if (it == properties.end()) return fallback;
  int64_t v = 0;
  const std::string& text = it->second;
  auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || p != text.data() + text.size()) {
    return Status::InvalidArgument("table property '" + key + "' must be an integer, got '" + text + "'");
  }
  return v;
}

Result<bool> TableMetadata::BoolProperty(const std::string& key, bool fallback) const {
  auto it = properties.find(key);
  if (it == properties.end()) return fallback;
  std::string v = it->second;
  std::transform(v.begin(), v.end(), v.begin(), [](unsigned char c) { return std::tolower(c); });
  if (v == "true") return true;
  if (v == "false") return false;
  return Status::InvalidArgument("table property '" + key + "' must be 'true' or 'false', got '" + it->second + "'");
}

Status TableMetadata::Validate() const {
  if (format_version < 1 || format_version > kMaxSupportedFormatVersion) {
    return Status::NotSupported("Cannot read unsupported version " + std::to_string(format_version) +
                                " (Sluice reads Iceberg format versions 1 to " +
                                std::to_string(kMaxSupportedFormatVersion) + ")");
  }
  if (SchemaById(current_schema_id) == nullptr) {
    return Status::InvalidArgument("Cannot find schema with current-schema-id=" + std::to_string(current_schema_id) +
                                   " from schemas");
  }
  if (SpecById(default_spec_id) == nullptr) {
    return Status::InvalidArgument("Cannot find spec with default-spec-id=" + std::to_string(default_spec_id) +
                                   " from partition-specs");
  }
  bool order_found = std::any_of(sort_orders.begin(), sort_orders.end(),
                                 [&](const SortOrder& o) { return o.order_id == default_sort_order_id; });
  if (!order_found) {
    return Status::InvalidArgument("Cannot find sort order with default-sort-order-id=" +
                                   std::to_string(default_sort_order_id) + " from sort-orders");
  }
  if (current_snapshot_id && SnapshotById(*current_snapshot_id) == nullptr) {
    return Status::InvalidArgument("Invalid table metadata: Cannot find current version " +
                                   std::to_string(*current_snapshot_id) + " in snapshots");
  }
  auto main = refs.find(kMainBranch);
  if (main != refs.end() && (!current_snapshot_id || main->second.snapshot_id != *current_snapshot_id)) {
    return Status::InvalidArgument("Current snapshot ID does not match main branch (" +
                                   (current_snapshot_id ? std::to_string(*current_snapshot_id) : "null") + " != " +
                                   std::to_string(main->second.snapshot_id) + ")");
  }
  for (const auto& [name, ref] : refs) {
    if (SnapshotById(ref.snapshot_id) == nullptr) {
      return Status::InvalidArgument("Snapshot for reference " + name +
                                     " does not exist in the existing snapshots list");
    }
  }
  if (format_version >= 2) {
    for (const Snapshot& s : snapshots) {
      if (s.sequence_number > last_sequence_number) {
        return Status::InvalidArgument("Invalid table metadata: snapshot " + std::to_string(s.snapshot_id) +
                                       " has sequence number " + std::to_string(s.sequence_number) +
                                       " above last-sequence-number " + std::to_string(last_sequence_number));
      }
    }
  }
  return Status::OK();
}

// ---------------------------------------------------------------------------------------------
// Builders

namespace {

// Java's Schema.validateIdentifierField: identifier fields are required primitive top-level
// columns (or fields of required structs), never float or double.
Status ValidateIdentifierFields(const IcebergSchema& schema) {
  for (int32_t id : schema.identifier_field_ids()) {
    const IcebergField* f = schema.FindField(id);
    std::string name = schema.FindName(id);
    if (f == nullptr) {
      return Status::InvalidArgument("Cannot add fieldId " + std::to_string(id) +
                                     " as an identifier field: field does not exist");
    }
    if (!f->type.IsPrimitive()) {
      return Status::InvalidArgument("Cannot add field " + name +
                                     " as an identifier field: not a primitive type field");
    }
    if (!f->required) {
      return Status::InvalidArgument("Cannot add field " + name + " as an identifier field: not a required field");
    }
    if (f->type.id() == IcebergTypeId::kFloat || f->type.id() == IcebergTypeId::kDouble) {
      return Status::InvalidArgument("Cannot add field " + name +
                                     " as an identifier field: must not be float or double field");
    }
    // Every enclosing field must be a required struct (not a list or map, not optional).
    for (size_t dot = name.find('.'); dot != std::string::npos; dot = name.find('.', dot + 1)) {
      const IcebergField* parent = schema.FindField(std::string_view(name).substr(0, dot));
      if (parent == nullptr || parent->type.id() != IcebergTypeId::kStruct || !parent->required) {
        return Status::InvalidArgument("Cannot add field " + name +
                                       " as an identifier field: must not be nested in an optional field or a "
                                       "list or map");
      }
    }
  }
  return Status::OK();
}

Result<int32_t> RemapSource(const IcebergSchema& from, const IcebergSchema& to, int32_t source_id,
                            std::string_view what) {
  std::string name = from.FindName(source_id);
  const IcebergField* f = name.empty() ? nullptr : to.FindField(name);
  if (f == nullptr) {
    return Status::InvalidArgument(std::string(what) + " refers to column id " + std::to_string(source_id) +
                                   ", which is not in the table's schema");
  }
  return f->id;
}

}  // namespace

Result<TableMetadata> NewTableMetadata(const NewTableOptions& options) {
  TableMetadata md;
  md.properties = options.properties;
  md.format_version = options.format_version;
  auto fv = md.properties.find(kPropFormatVersion);
  if (fv != md.properties.end()) {
    if (fv->second != "1" && fv->second != "2" && fv->second != "3") {
      return Status::InvalidArgument("Unsupported format version: v" + fv->second +
                                     " (table property 'format-version' must be 1, 2 or 3)");
    }
    md.format_version = fv->second[0] - '0';
    md.properties.erase(fv);
  }
  if (md.format_version < 1 || md.format_version > kMaxSupportedFormatVersion) {
    return Status::InvalidArgument("Unsupported format version: v" + std::to_string(md.format_version));
  }
  // Java's new tables compress Parquet with zstd unless told otherwise.
  md.properties.emplace(kPropParquetCompression, "zstd");
  if (options.location.empty()) return Status::InvalidArgument("a new Iceberg table needs a location");
  md.location = options.location;
  while (md.location.size() > 1 && md.location.back() == '/') md.location.pop_back();
  md.table_uuid = options.table_uuid.empty() ? NewTableUuid() : options.table_uuid;
  md.last_updated_ms = options.now_ms;

  ASSIGN_OR_RETURN(IcebergSchema schema, AssignFreshIds(options.schema, 0));
  RETURN_IF_ERROR(ValidateIdentifierFields(schema));
  md.last_column_id = schema.HighestFieldId();
  md.current_schema_id = 0;

  std::vector<PartitionField> spec_fields;
  int32_t next_field_id = PartitionSpec::kFirstFieldId;
  for (const PartitionField& f : options.spec.fields()) {
    ASSIGN_OR_RETURN(int32_t source,
                     RemapSource(options.schema, schema, f.source_id, "partition field '" + f.name + "'"));
    spec_fields.push_back({source, next_field_id++, f.name, f.transform});
  }
  PartitionSpec spec(0, std::move(spec_fields));
  ASSIGN_OR_RETURN(IcebergType partition_type, spec.PartitionType(schema));
  (void)partition_type;
  md.last_partition_id = spec.LastFieldId();
  md.default_spec_id = 0;
  md.specs.push_back(std::move(spec));

  SortOrder order;
  for (const SortField& f : options.sort_order.fields) {
    SortField g = f;
    ASSIGN_OR_RETURN(g.source_id, RemapSource(options.schema, schema, f.source_id, "sort field"));
    order.fields.push_back(std::move(g));
  }
  order.order_id = order.fields.empty() ? 0 : 1;
  md.default_sort_order_id = order.order_id;
  md.sort_orders.push_back(std::move(order));
  md.schemas.push_back(std::move(schema));
  if (md.format_version >= 3) md.next_row_id = 0;
  RETURN_IF_ERROR(md.Validate());
  return md;
}

std::vector<std::pair<std::string, std::string>> BuildSnapshotSummary(const Snapshot* parent,
                                                                      const NewSnapshot& snapshot) {
  const SnapshotChanges& c = snapshot.changes;
  std::vector<std::pair<std::string, std::string>> summary;
  summary.emplace_back("operation", snapshot.operation);
  for (const auto& kv : snapshot.extra_summary) summary.push_back(kv);
  auto set_if = [&](int64_t v, const char* key) {
    if (v > 0) summary.emplace_back(key, std::to_string(v));
  };
  int64_t added_delete_files = c.added_equality_delete_files + c.added_position_delete_files + c.added_dvs;
  set_if(c.added_files_size, "added-files-size");
  set_if(c.removed_files_size, "removed-files-size");
  set_if(c.added_data_files, "added-data-files");
  set_if(c.removed_data_files, "deleted-data-files");
  set_if(c.added_equality_delete_files, "added-equality-delete-files");
  set_if(c.added_position_delete_files, "added-position-delete-files");
  set_if(c.added_dvs, "added-dvs");
  set_if(added_delete_files, "added-delete-files");
  set_if(c.removed_dvs, "removed-dvs");
  set_if(c.removed_delete_files, "removed-delete-files");
  set_if(c.added_records, "added-records");
  set_if(c.deleted_records, "deleted-records");
  set_if(c.added_position_deletes, "added-position-deletes");
  set_if(c.removed_position_deletes, "removed-position-deletes");
  set_if(c.added_equality_deletes, "added-equality-deletes");
  set_if(c.removed_equality_deletes, "removed-equality-deletes");
  if (c.changed_partition_count) {
    summary.emplace_back("changed-partition-count", std::to_string(*c.changed_partition_count));
  }
  // Totals continue the parent's; the first snapshot starts from zero; a parent without a total
  // (written by a writer that did not keep it) leaves it out, as Java's SnapshotProducer does.
  auto total = [&](const char* key, int64_t added, int64_t removed) {
    int64_t base = 0;
    if (parent != nullptr) {
      std::string prev = parent->SummaryValue(key);
      if (prev.empty()) return;
      auto [p, ec] = std::from_chars(prev.data(), prev.data() + prev.size(), base);
      if (ec != std::errc()) return;
    }
    int64_t v = base + added - removed;
    if (v >= 0) summary.emplace_back(key, std::to_string(v));
  };
  total("total-records", c.added_records, c.deleted_records);
  total("total-files-size", c.added_files_size, c.removed_files_size);
  total("total-data-files", c.added_data_files, c.removed_data_files);
  total("total-delete-files", added_delete_files, c.removed_delete_files);
  total("total-position-deletes", c.added_position_deletes, c.removed_position_deletes);
  total("total-equality-deletes", c.added_equality_deletes, c.removed_equality_deletes);
  return summary;
}

Result<TableMetadata> AddSnapshot(const TableMetadata& base, const NewSnapshot& snapshot) {
  if (base.SnapshotById(snapshot.snapshot_id) != nullptr) {
    return Status::InvalidArgument("Snapshot already exists for id: " + std::to_string(snapshot.snapshot_id));
  }
  static const std::set<std::string> kOperations = {"append", "overwrite", "delete", "replace"};
  if (!kOperations.contains(snapshot.operation)) {
    return Status::InvalidArgument("unknown Iceberg snapshot operation '" + snapshot.operation + "'");
  }
  TableMetadata md = base;
  const Snapshot* parent = base.SnapshotForRef(snapshot.branch);
  Snapshot s;
  s.snapshot_id = snapshot.snapshot_id;
  if (parent != nullptr) s.parent_snapshot_id = parent->snapshot_id;
  s.sequence_number = base.format_version >= 2 ? base.last_sequence_number + 1 : 0;
  s.timestamp_ms = snapshot.timestamp_ms;
  s.manifest_list = snapshot.manifest_list;
  s.summary = BuildSnapshotSummary(parent, snapshot);
  s.schema_id = base.current_schema_id;
  if (base.format_version >= 3) {
    s.first_row_id = base.next_row_id.value_or(0);
    s.added_rows = snapshot.added_rows;
    md.next_row_id = *s.first_row_id + snapshot.added_rows;
  }
  if (base.format_version >= 2) md.last_sequence_number = s.sequence_number;
  md.last_updated_ms = std::max(base.last_updated_ms, snapshot.timestamp_ms);
  md.snapshots.push_back(s);
  SnapshotRef ref;
  auto existing = base.refs.find(snapshot.branch);
  if (existing != base.refs.end()) ref = existing->second;
  ref.snapshot_id = s.snapshot_id;
  ref.type = "branch";
  md.refs[snapshot.branch] = ref;
  if (snapshot.branch == kMainBranch) {
    md.current_snapshot_id = s.snapshot_id;
    md.snapshot_log.push_back({s.timestamp_ms, s.snapshot_id});
  }
  RETURN_IF_ERROR(md.Validate());
  return md;
}

Result<std::vector<MetadataLogEntry>> UpdateMetadataLog(TableMetadata* next, const TableMetadata& base,
                                                        const std::string& base_metadata_file) {
  ASSIGN_OR_RETURN(int64_t max_entries,
                   next->IntProperty(kPropMetadataPreviousVersionsMax, kDefaultMetadataPreviousVersionsMax));
  max_entries = std::max<int64_t>(1, max_entries);
  next->metadata_log = base.metadata_log;
  if (!base_metadata_file.empty()) next->metadata_log.push_back({base.last_updated_ms, base_metadata_file});
  std::vector<MetadataLogEntry> removed;
  if (static_cast<int64_t>(next->metadata_log.size()) > max_entries) {
    size_t drop = next->metadata_log.size() - static_cast<size_t>(max_entries);
    removed.assign(next->metadata_log.begin(), next->metadata_log.begin() + drop);
    next->metadata_log.erase(next->metadata_log.begin(), next->metadata_log.begin() + drop);
  }
  return removed;
}

Result<ExpireSnapshotsOptions> ExpireOptionsFromProperties(const TableMetadata& metadata, int64_t now_ms) {
  ExpireSnapshotsOptions options;
  ASSIGN_OR_RETURN(int64_t max_age, metadata.IntProperty(kPropMaxSnapshotAgeMs, kDefaultMaxSnapshotAgeMs));
  ASSIGN_OR_RETURN(options.min_snapshots_to_keep, metadata.IntProperty(kPropMinSnapshotsToKeep, 1));
  options.older_than_ms = now_ms - max_age;
  return options;
}

Result<TableMetadata> ExpireSnapshots(const TableMetadata& base, const ExpireSnapshotsOptions& options,
                                      std::vector<Snapshot>* removed) {
  if (options.min_snapshots_to_keep < 1) {
    return Status::InvalidArgument("Number of snapshots to retain must be at least 1, cannot be: " +
                                   std::to_string(options.min_snapshots_to_keep));
  }
  std::set<int64_t> keep;
  std::set<int64_t> reachable;
  for (const auto& [name, ref] : base.refs) {
    if (ref.type == "tag") {
      keep.insert(ref.snapshot_id);
      continue;
    }
    int64_t min_keep = ref.min_snapshots_to_keep.value_or(options.min_snapshots_to_keep);
    int64_t kept = 0;
    bool retaining = true;
    // Walk the branch's ancestry; the chain is bounded by the snapshot count (no cycles in valid
    // metadata, and a visited id stops the walk).
    std::set<int64_t> seen;
    for (const Snapshot* s = base.SnapshotById(ref.snapshot_id); s != nullptr && seen.insert(s->snapshot_id).second;
         s = s->parent_snapshot_id ? base.SnapshotById(*s->parent_snapshot_id) : nullptr) {
      reachable.insert(s->snapshot_id);
      if (retaining && (kept < min_keep || s->timestamp_ms >= options.older_than_ms)) {
        keep.insert(s->snapshot_id);
        ++kept;
      } else {
        retaining = false;
      }
    }
  }
  for (const Snapshot& s : base.snapshots) {
    if (!reachable.contains(s.snapshot_id) && s.timestamp_ms >= options.older_than_ms) keep.insert(s.snapshot_id);
  }
  TableMetadata md = base;
  md.snapshots.clear();
  std::set<int64_t> expired;
  for (const Snapshot& s : base.snapshots) {
    if (keep.contains(s.snapshot_id)) {
      md.snapshots.push_back(s);
    } else {
      expired.insert(s.snapshot_id);
      removed->push_back(s);
    }
  }
  // The spec: entries before an expired snapshot's entry go with it.
  size_t first_kept = 0;
  for (size_t i = 0; i < md.snapshot_log.size(); ++i) {
    if (expired.contains(md.snapshot_log[i].snapshot_id)) first_kept = i + 1;
  }
  md.snapshot_log.erase(md.snapshot_log.begin(), md.snapshot_log.begin() + first_kept);
  auto drop_stats = [&](std::vector<RawJsonEntry>* entries) {
    std::erase_if(*entries, [&](const RawJsonEntry& e) { return e.snapshot_id && expired.contains(*e.snapshot_id); });
  };
  drop_stats(&md.statistics);
  drop_stats(&md.partition_statistics);
  RETURN_IF_ERROR(md.Validate());
  return md;
}

Result<int64_t> MaxCommittedCheckpointId(const TableMetadata& metadata, std::string_view job_id,
                                         std::string_view operator_id, const std::string& branch) {
  std::unordered_map<int64_t, const Snapshot*> by_id;
  for (const Snapshot& s : metadata.snapshots) by_id.emplace(s.snapshot_id, &s);
  const Snapshot* s = metadata.SnapshotForRef(branch);
  for (size_t steps = 0; s != nullptr && steps <= metadata.snapshots.size(); ++steps) {
    std::string job = s->SummaryValue(kFlinkJobId);
    std::string op = s->SummaryValue(kFlinkOperatorId);
    if (job == job_id && (op.empty() || op == operator_id)) {
      std::string value = s->SummaryValue(kFlinkMaxCommittedCheckpointId);
      if (!value.empty()) {
        int64_t id = 0;
        auto [p, ec] = std::from_chars(value.data(), value.data() + value.size(), id);
        if (ec != std::errc() || p != value.data() + value.size()) {
          return Status::InvalidArgument("snapshot " + std::to_string(s->snapshot_id) + " has a malformed '" +
                                         kFlinkMaxCommittedCheckpointId + "': '" + value + "'");
        }
        return id;
      }
    }
    if (!s->parent_snapshot_id) break;
    auto it = by_id.find(*s->parent_snapshot_id);
    s = it == by_id.end() ? nullptr : it->second;
  }
  return int64_t{-1};
}

std::string NewTableUuid() { return RandomUuid(); }

int64_t NewSnapshotId() {
  std::random_device rd;
  std::mt19937_64 gen((static_cast<uint64_t>(rd()) << 32) ^ rd());
  uint64_t hi = gen(), lo = gen();
  int64_t id = static_cast<int64_t>((hi ^ lo) & 0x7fffffffffffffffull);
  return id == 0 ? 1 : id;
}

}  // namespace sluice
