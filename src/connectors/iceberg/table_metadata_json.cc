#include "connectors/iceberg/table_metadata_json.h"

#include <zlib.h>

#include "connectors/iceberg/iceberg_json.h"

namespace sluice {

namespace dom = simdjson::dom;

namespace {

Result<dom::array> GetArray(dom::object o, std::string_view key) {
  dom::element e;
  if (o.at_key(key).get(e) != simdjson::SUCCESS) {
    return Status::InvalidArgument("Cannot parse missing list: " + std::string(key));
  }
  dom::array arr;
  if (e.get_array().get(arr) != simdjson::SUCCESS) {
    return Status::InvalidArgument("Cannot parse " + std::string(key) + " from non-array: " + simdjson::to_string(e));
  }
  return arr;
}

Result<dom::object> AsObject(dom::element e, std::string_view what) {
  dom::object o;
  if (e.get_object().get(o) != simdjson::SUCCESS) {
    return Status::InvalidArgument("Cannot parse " + std::string(what) + " from non-object: " + simdjson::to_string(e));
  }
  return o;
}

Result<std::vector<std::pair<std::string, std::string>>> ParseStringMap(dom::element e, std::string_view what) {
  ASSIGN_OR_RETURN(dom::object o, AsObject(e, what));
  std::vector<std::pair<std::string, std::string>> out;
  for (auto [k, v] : o) {
    std::string_view s;
    if (v.get_string().get(s) != simdjson::SUCCESS) {
      // Some writers store numbers in summaries; keep their text.
      out.emplace_back(std::string(k), simdjson::minify(v));
    } else {
      out.emplace_back(std::string(k), std::string(s));
    }
  }
  return out;
}

Result<Snapshot> ParseSnapshot(dom::element e) {
  ASSIGN_OR_RETURN(dom::object o, AsObject(e, "snapshot"));
  Snapshot s;
  ASSIGN_OR_RETURN(s.snapshot_id, JsonGetLong(o, "snapshot-id"));
  if (JsonHas(o, "parent-snapshot-id")) {
    ASSIGN_OR_RETURN(s.parent_snapshot_id, JsonGetLong(o, "parent-snapshot-id"));
  }
  if (JsonHas(o, "sequence-number")) {
    ASSIGN_OR_RETURN(s.sequence_number, JsonGetLong(o, "sequence-number"));
  }
  ASSIGN_OR_RETURN(s.timestamp_ms, JsonGetLong(o, "timestamp-ms"));
  if (JsonHas(o, "summary")) {
    ASSIGN_OR_RETURN(s.summary, ParseStringMap(o["summary"].value_unsafe(), "summary"));
    // "operation" first, as written.
    std::stable_partition(s.summary.begin(), s.summary.end(), [](const auto& kv) { return kv.first == "operation"; });
  }
  if (JsonHas(o, "manifest-list")) {
    ASSIGN_OR_RETURN(s.manifest_list, JsonGetString(o, "manifest-list"));
  } else if (JsonHas(o, "manifests")) {
    ASSIGN_OR_RETURN(dom::array arr, GetArray(o, "manifests"));
    for (dom::element m : arr) {
      std::string_view path;
      if (m.get_string().get(path) != simdjson::SUCCESS) return Status::InvalidArgument("Cannot parse manifests");
      s.manifests.emplace_back(path);
    }
  }
  if (JsonHas(o, "schema-id")) {
    ASSIGN_OR_RETURN(s.schema_id, JsonGetInt(o, "schema-id"));
  }
  if (JsonHas(o, "first-row-id")) {
    ASSIGN_OR_RETURN(s.first_row_id, JsonGetLong(o, "first-row-id"));
  }
  if (JsonHas(o, "added-rows")) {
    ASSIGN_OR_RETURN(s.added_rows, JsonGetLong(o, "added-rows"));
  }
  return s;
}

Result<SnapshotRef> ParseRef(dom::element e) {
  ASSIGN_OR_RETURN(dom::object o, AsObject(e, "snapshot reference"));
  SnapshotRef r;
  ASSIGN_OR_RETURN(r.snapshot_id, JsonGetLong(o, "snapshot-id"));
  ASSIGN_OR_RETURN(r.type, JsonGetString(o, "type"));
  if (r.type != "branch" && r.type != "tag") return Status::InvalidArgument("Invalid snapshot ref type: " + r.type);
  if (JsonHas(o, "min-snapshots-to-keep")) {
    ASSIGN_OR_RETURN(r.min_snapshots_to_keep, JsonGetInt(o, "min-snapshots-to-keep"));
  }
  if (JsonHas(o, "max-snapshot-age-ms")) {
    ASSIGN_OR_RETURN(r.max_snapshot_age_ms, JsonGetLong(o, "max-snapshot-age-ms"));
  }
  if (JsonHas(o, "max-ref-age-ms")) {
    ASSIGN_OR_RETURN(r.max_ref_age_ms, JsonGetLong(o, "max-ref-age-ms"));
  }
  return r;
}

Result<std::vector<RawJsonEntry>> ParseRawEntries(dom::object o, std::string_view key) {
  std::vector<RawJsonEntry> out;
  if (!JsonHas(o, key)) return out;
  ASSIGN_OR_RETURN(dom::array arr, GetArray(o, key));
  for (dom::element e : arr) {
    RawJsonEntry entry;
    entry.json = simdjson::minify(e);
    dom::object eo;
    int64_t id;
    if (e.get_object().get(eo) == simdjson::SUCCESS && eo["snapshot-id"].get_int64().get(id) == simdjson::SUCCESS) {
      entry.snapshot_id = id;
    }
    out.push_back(std::move(entry));
  }
  return out;
}

Status ParseSchemas(dom::object o, TableMetadata* md) {
  if (JsonHas(o, "schemas")) {
    ASSIGN_OR_RETURN(dom::array arr, GetArray(o, "schemas"));
    for (dom::element e : arr) {
      ASSIGN_OR_RETURN(IcebergSchema s, ParseSchemaJson(e));
      md->schemas.push_back(std::move(s));
    }
    ASSIGN_OR_RETURN(md->current_schema_id, JsonGetInt(o, "current-schema-id"));
    return Status::OK();
  }
  if (md->format_version != 1) {
    return Status::InvalidArgument("schemas must exist in format v" + std::to_string(md->format_version));
  }
  if (!JsonHas(o, "schema")) return Status::InvalidArgument("Cannot parse missing field: schema");
  ASSIGN_OR_RETURN(IcebergSchema s, ParseSchemaJson(o["schema"].value_unsafe()));
  md->current_schema_id = s.schema_id();
  md->schemas.push_back(std::move(s));
  return Status::OK();
}

Status ParseSpecs(dom::object o, TableMetadata* md) {
  if (JsonHas(o, "partition-specs")) {
    ASSIGN_OR_RETURN(dom::array arr, GetArray(o, "partition-specs"));
    for (dom::element e : arr) {
      ASSIGN_OR_RETURN(PartitionSpec s, ParsePartitionSpecJson(e));
      md->specs.push_back(std::move(s));
    }
    ASSIGN_OR_RETURN(md->default_spec_id, JsonGetInt(o, "default-spec-id"));
  } else {
    if (md->format_version != 1) {
      return Status::InvalidArgument("partition-specs must exist in format v" + std::to_string(md->format_version));
    }
    if (!JsonHas(o, "partition-spec")) return Status::InvalidArgument("Cannot parse missing field: partition-spec");
    ASSIGN_OR_RETURN(PartitionSpec s, ParsePartitionSpecJson(o["partition-spec"].value_unsafe(), 0));
    md->default_spec_id = 0;
    md->specs.push_back(std::move(s));
  }
  if (JsonHas(o, "last-partition-id")) {
    ASSIGN_OR_RETURN(md->last_partition_id, JsonGetInt(o, "last-partition-id"));
  } else {
    if (md->format_version != 1) {
      return Status::InvalidArgument("last-partition-id must exist in format v" + std::to_string(md->format_version));
    }
    md->last_partition_id = PartitionSpec::kFirstFieldId - 1;
    for (const PartitionSpec& s : md->specs) md->last_partition_id = std::max(md->last_partition_id, s.LastFieldId());
  }
  return Status::OK();
}

Status ParseSortOrders(dom::object o, TableMetadata* md) {
  if (JsonHas(o, "sort-orders")) {
    ASSIGN_OR_RETURN(dom::array arr, GetArray(o, "sort-orders"));
    for (dom::element e : arr) {
      ASSIGN_OR_RETURN(SortOrder s, ParseSortOrderJson(e));
      md->sort_orders.push_back(std::move(s));
    }
    ASSIGN_OR_RETURN(md->default_sort_order_id, JsonGetInt(o, "default-sort-order-id"));
    return Status::OK();
  }
  if (md->format_version != 1) {
    return Status::InvalidArgument("sort-orders must exist in format v" + std::to_string(md->format_version));
  }
  md->sort_orders.push_back(SortOrder::Unsorted());
  md->default_sort_order_id = 0;
  return Status::OK();
}

Status ParseSnapshotsAndLogs(dom::object o, TableMetadata* md) {
  if (JsonHas(o, "current-snapshot-id")) {
    ASSIGN_OR_RETURN(int64_t id, JsonGetLong(o, "current-snapshot-id"));
    if (id != -1) md->current_snapshot_id = id;  // Java's v1/v2 "no snapshot"
  }
  if (JsonHas(o, "snapshots")) {
    ASSIGN_OR_RETURN(dom::array arr, GetArray(o, "snapshots"));
    for (dom::element e : arr) {
      ASSIGN_OR_RETURN(Snapshot s, ParseSnapshot(e));
      md->snapshots.push_back(std::move(s));
    }
  }
  if (JsonHas(o, "refs")) {
    ASSIGN_OR_RETURN(dom::object refs, AsObject(o["refs"].value_unsafe(), "refs"));
    for (auto [name, value] : refs) {
      ASSIGN_OR_RETURN(SnapshotRef r, ParseRef(value));
      md->refs.emplace(std::string(name), r);
    }
  } else if (md->current_snapshot_id) {
    md->refs.emplace(kMainBranch, SnapshotRef{*md->current_snapshot_id, "branch", {}, {}, {}});
  }
  if (JsonHas(o, "snapshot-log")) {
    ASSIGN_OR_RETURN(dom::array arr, GetArray(o, "snapshot-log"));
    for (dom::element e : arr) {
      ASSIGN_OR_RETURN(dom::object eo, AsObject(e, "snapshot-log entry"));
      SnapshotLogEntry entry;
      ASSIGN_OR_RETURN(entry.timestamp_ms, JsonGetLong(eo, "timestamp-ms"));
      ASSIGN_OR_RETURN(entry.snapshot_id, JsonGetLong(eo, "snapshot-id"));
      md->snapshot_log.push_back(entry);
    }
  }
  if (JsonHas(o, "metadata-log")) {
    ASSIGN_OR_RETURN(dom::array arr, GetArray(o, "metadata-log"));
    for (dom::element e : arr) {
      ASSIGN_OR_RETURN(dom::object eo, AsObject(e, "metadata-log entry"));
      MetadataLogEntry entry;
      ASSIGN_OR_RETURN(entry.timestamp_ms, JsonGetLong(eo, "timestamp-ms"));
      ASSIGN_OR_RETURN(entry.metadata_file, JsonGetString(eo, "metadata-file"));
      md->metadata_log.push_back(std::move(entry));
    }
  }
  ASSIGN_OR_RETURN(md->statistics, ParseRawEntries(o, "statistics"));
  ASSIGN_OR_RETURN(md->partition_statistics, ParseRawEntries(o, "partition-statistics"));
  ASSIGN_OR_RETURN(md->encryption_keys, ParseRawEntries(o, "encryption-keys"));
  return Status::OK();
}

Result<TableMetadata> ParseObject(dom::object o) {
  TableMetadata md;
  ASSIGN_OR_RETURN(int32_t version, JsonGetInt(o, "format-version"));
  if (version < 1 || version > kMaxSupportedFormatVersion) {
    return Status::NotSupported("Cannot read unsupported version " + std::to_string(version));
  }
  md.format_version = version;
  if (JsonHas(o, "table-uuid")) {
    ASSIGN_OR_RETURN(md.table_uuid, JsonGetString(o, "table-uuid"));
  } else if (version > 1) {
    return Status::InvalidArgument("Cannot parse missing string: table-uuid");
  }
  ASSIGN_OR_RETURN(md.location, JsonGetString(o, "location"));
  if (version > 1) {
    ASSIGN_OR_RETURN(md.last_sequence_number, JsonGetLong(o, "last-sequence-number"));
  }
  ASSIGN_OR_RETURN(md.last_updated_ms, JsonGetLong(o, "last-updated-ms"));
  ASSIGN_OR_RETURN(md.last_column_id, JsonGetInt(o, "last-column-id"));
  RETURN_IF_ERROR(ParseSchemas(o, &md));
  RETURN_IF_ERROR(ParseSpecs(o, &md));
  RETURN_IF_ERROR(ParseSortOrders(o, &md));
  if (JsonHas(o, "properties")) {
    ASSIGN_OR_RETURN(auto props, ParseStringMap(o["properties"].value_unsafe(), "properties"));
    for (auto& [k, v] : props) md.properties[k] = v;
  }
  RETURN_IF_ERROR(ParseSnapshotsAndLogs(o, &md));
  if (JsonHas(o, "next-row-id")) {
    ASSIGN_OR_RETURN(md.next_row_id, JsonGetLong(o, "next-row-id"));
  } else if (version >= 3) {
    // Early v3 writers (Spark with Iceberg 1.8) left it out; no row ids were assigned beyond what
    // the snapshots record.
    int64_t next = 0;
    for (const Snapshot& s : md.snapshots) {
      if (s.first_row_id) next = std::max(next, *s.first_row_id + s.added_rows.value_or(0));
    }
    md.next_row_id = next;
  }
  RETURN_IF_ERROR(md.Validate());
  return md;
}


void WriteRawEntries(std::string_view key, const std::vector<RawJsonEntry>& entries, JsonWriter* w, bool always) {
  if (entries.empty() && !always) return;
  w->Key(key);
  w->BeginArray();
  for (const RawJsonEntry& e : entries) w->Raw(e.json);
  w->EndArray();
}

void WriteSnapshotsAndLogs(const TableMetadata& md, JsonWriter* w) {
  if (md.current_snapshot_id) {
    w->Field("current-snapshot-id", *md.current_snapshot_id);
  } else if (md.format_version < 3) {
    w->Field("current-snapshot-id", int64_t{-1});
  }
  if (md.next_row_id) w->Field("next-row-id", *md.next_row_id);
  w->Key("refs");
  w->BeginObject();
  for (const auto& [name, r] : md.refs) {
    w->Key(name);
    w->BeginObject();
    w->Field("snapshot-id", r.snapshot_id);
    w->Field("type", r.type);
    if (r.min_snapshots_to_keep) w->Field("min-snapshots-to-keep", *r.min_snapshots_to_keep);
    if (r.max_snapshot_age_ms) w->Field("max-snapshot-age-ms", *r.max_snapshot_age_ms);
    if (r.max_ref_age_ms) w->Field("max-ref-age-ms", *r.max_ref_age_ms);
    w->EndObject();
  }
  w->EndObject();
  w->Key("snapshots");
  w->BeginArray();
  for (const Snapshot& s : md.snapshots) WriteSnapshotJson(s, md.format_version, w);
  w->EndArray();
  WriteRawEntries("statistics", md.statistics, w, true);
  WriteRawEntries("partition-statistics", md.partition_statistics, w, true);
  WriteRawEntries("encryption-keys", md.encryption_keys, w, false);
  w->Key("snapshot-log");
  w->BeginArray();
  for (const SnapshotLogEntry& e : md.snapshot_log) {
    w->BeginObject();
    w->Field("timestamp-ms", e.timestamp_ms);
    w->Field("snapshot-id", e.snapshot_id);
    w->EndObject();
  }
  w->EndArray();
  w->Key("metadata-log");
  w->BeginArray();
  for (const MetadataLogEntry& e : md.metadata_log) {
    w->BeginObject();
    w->Field("timestamp-ms", e.timestamp_ms);
    w->Field("metadata-file", e.metadata_file);
    w->EndObject();
  }
  w->EndArray();
}

// Metadata files may be gzip-compressed ('write.metadata.compression-codec' = 'gzip').
Result<std::string> Gunzip(std::string_view data) {
  z_stream zs{};
  if (inflateInit2(&zs, 16 + MAX_WBITS) != Z_OK) return Status::Internal("cannot initialize zlib");
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
  zs.avail_in = static_cast<uInt>(data.size());
  std::string out;
  char buf[65536];
  int rc = Z_OK;
  while (rc == Z_OK) {
    zs.next_out = reinterpret_cast<Bytef*>(buf);
    zs.avail_out = sizeof(buf);
    rc = inflate(&zs, Z_NO_FLUSH);
    out.append(buf, sizeof(buf) - zs.avail_out);
    if (rc == Z_BUF_ERROR && zs.avail_in == 0) break;
  }
  inflateEnd(&zs);
  if (rc != Z_STREAM_END) return Status::InvalidArgument("malformed gzip-compressed metadata");
  return out;
}

}  // namespace

void WriteSnapshotJson(const Snapshot& s, int format_version, JsonWriter* w) {
  w->BeginObject();
  if (format_version >= 2) w->Field("sequence-number", s.sequence_number);
  w->Field("snapshot-id", s.snapshot_id);
  if (s.parent_snapshot_id) w->Field("parent-snapshot-id", *s.parent_snapshot_id);
  w->Field("timestamp-ms", s.timestamp_ms);
  if (!s.summary.empty()) {
    w->Key("summary");
    w->BeginObject();
    for (const auto& [k, v] : s.summary) w->Field(k, v);
    w->EndObject();
  }
  if (!s.manifest_list.empty()) {
    w->Field("manifest-list", s.manifest_list);
  } else if (!s.manifests.empty()) {
    w->Key("manifests");
    w->BeginArray();
    for (const std::string& m : s.manifests) w->String(m);
    w->EndArray();
  }
  if (s.schema_id) w->Field("schema-id", *s.schema_id);
  if (s.first_row_id) w->Field("first-row-id", *s.first_row_id);
  if (s.added_rows) w->Field("added-rows", *s.added_rows);
  w->EndObject();
}

Result<TableMetadata> ParseTableMetadata(std::string_view json, std::string_view location) {
  auto with_place = [&](const Status& st) {
    return location.empty() ? st : st.WithContext("Iceberg metadata file " + std::string(location));
  };
  std::string inflated;
  if (json.size() >= 2 && static_cast<uint8_t>(json[0]) == 0x1f && static_cast<uint8_t>(json[1]) == 0x8b) {
    auto text = Gunzip(json);
    if (!text.ok()) return with_place(text.status());
    inflated = std::move(text).value();
    json = inflated;
  }
  dom::parser parser;
  dom::element root;
  if (auto err = parser.parse(json.data(), json.size()).get(root)) {
    return with_place(Status::InvalidArgument(std::string("malformed JSON (") + simdjson::error_message(err) + ")"));
  }
  dom::object o;
  if (root.get_object().get(o) != simdjson::SUCCESS) {
    return with_place(Status::InvalidArgument("Cannot parse metadata from a non-object: " + simdjson::to_string(root)));
  }
  auto md = ParseObject(o);
  if (!md.ok()) return with_place(md.status());
  return md;
}

std::string TableMetadataToJson(const TableMetadata& md) {
  JsonWriter w;
  w.BeginObject();
  w.Field("format-version", md.format_version);
  w.Field("table-uuid", md.table_uuid);
  w.Field("location", md.location);
  if (md.format_version >= 2) w.Field("last-sequence-number", md.last_sequence_number);
  w.Field("last-updated-ms", md.last_updated_ms);
  w.Field("last-column-id", md.last_column_id);
  if (md.format_version == 1) {
    w.Key("schema");
    WriteSchemaJson(md.CurrentSchema(), &w);
  }
  w.Field("current-schema-id", md.current_schema_id);
  w.Key("schemas");
  w.BeginArray();
  for (const IcebergSchema& s : md.schemas) WriteSchemaJson(s, &w);
  w.EndArray();
  if (md.format_version == 1) {
    w.Key("partition-spec");
    WritePartitionFieldsJson(md.DefaultSpec(), &w);
  }
  w.Field("default-spec-id", md.default_spec_id);
  w.Key("partition-specs");
  w.BeginArray();
  for (const PartitionSpec& s : md.specs) WritePartitionSpecJson(s, &w);
  w.EndArray();
  w.Field("last-partition-id", md.last_partition_id);
  w.Field("default-sort-order-id", md.default_sort_order_id);
  w.Key("sort-orders");
  w.BeginArray();
  for (const SortOrder& s : md.sort_orders) WriteSortOrderJson(s, &w);
  w.EndArray();
  w.Key("properties");
  w.BeginObject();
  for (const auto& [k, v] : md.properties) w.Field(k, v);
  w.EndObject();
  WriteSnapshotsAndLogs(md, &w);
  w.EndObject();
  std::string out = w.Take();
  out.push_back('\n');
  return out;
}

}  // namespace sluice
