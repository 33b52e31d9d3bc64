#include "connectors/iceberg/manifest_reader.h"

#include <charconv>

#include "connectors/iceberg/iceberg_json.h"
#include "connectors/iceberg/manifest_avro.h"
#include "formats/avro/avro_container.h"

namespace sluice {

namespace {

// Field positions of a record in the writer's schema, looked up once per file by name (the first
// of the names that is present, for fields renamed across format versions).
class Layout {
 public:
  Layout(const AvroNode& record, std::initializer_list<std::initializer_list<std::string_view>> names) {
    for (const auto& alternatives : names) {
      int index = -1;
      for (std::string_view n : alternatives) {
        if (index < 0) index = record.FieldIndex(n);
      }
      index_.push_back(index);
    }
  }
  bool has(size_t i) const { return index_[i] >= 0; }
  // The field's value, or nullptr when the schema has no such field or the value is null.
  const AvroValue* Get(const AvroValue& rec, size_t i) const {
    if (index_[i] < 0) return nullptr;
    const AvroValue& v = rec.field(static_cast<size_t>(index_[i]));
    return v.is_null() ? nullptr : &v;
  }

 private:
  std::vector<int> index_;
};

Status Malformed(const std::string& source, const std::string& what) {
  return Status::InvalidArgument("malformed Iceberg manifest " + source + ": " + what);
}

const AvroNode* RecordType(const AvroNode& node) {
  if (node.type == AvroType::kRecord) return &node;
  if (node.type == AvroType::kUnion) {
    for (const AvroNode* b : node.branches) {
      if (b->type == AvroType::kRecord) return b;
    }
  }
  return nullptr;
}

std::optional<int64_t> ParseHeaderLong(const std::string* raw) {
  if (raw == nullptr) return std::nullopt;
  int64_t v = 0;
  auto [ptr, ec] = std::from_chars(raw->data(), raw->data() + raw->size(), v);
  if (ec != std::errc() || ptr != raw->data() + raw->size()) return std::nullopt;
  return v;
}

// Reads an integer field that must be present.
Result<int64_t> Required(const Layout& l, const AvroValue& rec, size_t i, const char* name, const std::string& src) {
  const AvroValue* v = l.Get(rec, i);
  if (v == nullptr) return Malformed(src, std::string("missing ") + name);
  if (v->kind() != AvroValue::Kind::kInt && v->kind() != AvroValue::Kind::kLong) {
    return Malformed(src, std::string(name) + " is not a number");
  }
  return v->integer();
}

std::optional<int64_t> Optional(const Layout& l, const AvroValue& rec, size_t i) {
  const AvroValue* v = l.Get(rec, i);
  if (v == nullptr || (v->kind() != AvroValue::Kind::kInt && v->kind() != AvroValue::Kind::kLong)) return std::nullopt;
  return v->integer();
}

std::optional<std::string> OptionalBytes(const Layout& l, const AvroValue& rec, size_t i) {
  const AvroValue* v = l.Get(rec, i);
  if (v == nullptr) return std::nullopt;
  const auto k = v->kind();
  if (k != AvroValue::Kind::kBytes && k != AvroValue::Kind::kString && k != AvroValue::Kind::kFixed) return std::nullopt;
  return v->bytes();
}

// An int-keyed map: Java's array of {key, value} records, or an Avro map with decimal string keys.
template <typename V, typename Convert>
Status ReadIntMap(const AvroValue* v, std::map<int32_t, V>* out, Convert convert, const std::string& src) {
  if (v == nullptr) return Status::OK();
  if (v->kind() == AvroValue::Kind::kArray) {
    for (const AvroValue& kv : v->items()) {
      if (kv.kind() != AvroValue::Kind::kRecord || kv.items().size() < 2 || kv.field(0).kind() != AvroValue::Kind::kInt) {
        return Malformed(src, "a map entry is not a {key, value} record");
      }
      ASSIGN_OR_RETURN(V value, convert(kv.field(1)));
      (*out)[static_cast<int32_t>(kv.field(0).integer())] = std::move(value);
    }
    return Status::OK();
  }
  if (v->kind() == AvroValue::Kind::kMap) {
    for (const auto& [key, item] : v->entries()) {
      int32_t id = 0;
      auto [ptr, ec] = std::from_chars(key.data(), key.data() + key.size(), id);
      if (ec != std::errc() || ptr != key.data() + key.size()) return Malformed(src, "map key '" + key + "'");
      ASSIGN_OR_RETURN(V value, convert(item));
      (*out)[id] = std::move(value);
    }
    return Status::OK();
  }
  return Malformed(src, "a map field is neither an array nor a map");
}

Result<int64_t> AsLong(const AvroValue& v) {
  if (v.kind() != AvroValue::Kind::kInt && v.kind() != AvroValue::Kind::kLong) {
    return Status::InvalidArgument("map value " + v.DebugString() + " is not a number");
  }
  return v.integer();
}

Result<std::string> AsBytes(const AvroValue& v) {
  if (v.kind() != AvroValue::Kind::kBytes && v.kind() != AvroValue::Kind::kFixed &&
      v.kind() != AvroValue::Kind::kString) {
    return Status::InvalidArgument("map value " + v.DebugString() + " is not bytes");
  }
  return v.bytes();
}

template <typename T>
Status ReadNumberList(const AvroValue* v, std::vector<T>* out, const std::string& src) {
  if (v == nullptr) return Status::OK();
  if (v->kind() != AvroValue::Kind::kArray) return Malformed(src, "a list field is not an array");
  for (const AvroValue& item : v->items()) {
    ASSIGN_OR_RETURN(int64_t x, AsLong(item));
    out->push_back(static_cast<T>(x));
  }
  return Status::OK();
}

// ---- manifest lists ----

enum ListField : size_t {
  kPath, kLength, kSpecId, kContent, kSeq, kMinSeq, kSnapshot, kAddedFiles, kExistingFiles, kDeletedFiles,
  kAddedRows, kExistingRows, kDeletedRows, kPartitions, kKeyMetadata, kFirstRowId,
};

Result<ManifestFile> ManifestFileFromAvro(const Layout& l, const AvroValue& rec, const std::string& src) {
  ManifestFile m;
  const AvroValue* path = l.Get(rec, kPath);
  if (path == nullptr || path->kind() != AvroValue::Kind::kString) return Malformed(src, "missing manifest_path");
  m.manifest_path = path->bytes();
  ASSIGN_OR_RETURN(m.manifest_length, Required(l, rec, kLength, "manifest_length", src));
  ASSIGN_OR_RETURN(int64_t spec_id, Required(l, rec, kSpecId, "partition_spec_id", src));
  m.partition_spec_id = static_cast<int32_t>(spec_id);
  const int64_t content = Optional(l, rec, kContent).value_or(0);
  if (content != 0 && content != 1) return Malformed(src, "manifest content " + std::to_string(content));
  m.content = static_cast<ManifestContent>(content);
  m.sequence_number = Optional(l, rec, kSeq).value_or(0);
  m.min_sequence_number = Optional(l, rec, kMinSeq).value_or(0);
  m.added_snapshot_id = Optional(l, rec, kSnapshot).value_or(0);
  m.added_files_count = static_cast<int32_t>(Optional(l, rec, kAddedFiles).value_or(0));
  m.existing_files_count = static_cast<int32_t>(Optional(l, rec, kExistingFiles).value_or(0));
  m.deleted_files_count = static_cast<int32_t>(Optional(l, rec, kDeletedFiles).value_or(0));
  m.added_rows_count = Optional(l, rec, kAddedRows).value_or(0);
  m.existing_rows_count = Optional(l, rec, kExistingRows).value_or(0);
  m.deleted_rows_count = Optional(l, rec, kDeletedRows).value_or(0);
  m.key_metadata = OptionalBytes(l, rec, kKeyMetadata);
  m.first_row_id = Optional(l, rec, kFirstRowId);
  if (const AvroValue* parts = l.Get(rec, kPartitions)) {
    if (parts->kind() != AvroValue::Kind::kArray) return Malformed(src, "partitions is not an array");
    m.partitions.emplace();
    for (const AvroValue& s : parts->items()) {
      // Field summaries are read by position: contains_null, contains_nan?, lower_bound, upper_bound.
      if (s.kind() != AvroValue::Kind::kRecord || s.items().empty() || s.field(0).kind() != AvroValue::Kind::kBoolean) {
        return Malformed(src, "a partition field summary is not a record");
      }
      PartitionFieldSummary summary;
      summary.contains_null = s.field(0).boolean();
      size_t next = 1;
      if (s.items().size() == 4) {
        if (s.field(1).kind() == AvroValue::Kind::kBoolean) summary.contains_nan = s.field(1).boolean();
        next = 2;
      }
      // The bounds are bytes (a file whose schema types them otherwise is malformed, not a crash).
      for (size_t b = next; b < next + 2 && b < s.items().size(); ++b) {
        if (s.field(b).is_null()) continue;
        auto bound = AsBytes(s.field(b));
        if (!bound.ok()) return Malformed(src, "a partition field summary's bound is not bytes");
        (b == next ? summary.lower_bound : summary.upper_bound) = std::move(*bound);
      }
      m.partitions->push_back(std::move(summary));
    }
  }
  return m;
}

// Whether the partition field summaries have the spec's field order (contains_null, [contains_nan,]
// lower_bound, upper_bound), which ManifestFileFromAvro reads them by.
bool SummaryInSpecOrder(const AvroNode& list_record) {
  const int idx = list_record.FieldIndex("partitions");
  if (idx < 0) return true;
  const AvroNode* arr = list_record.fields[idx].type;
  if (arr->type == AvroType::kUnion) {
    for (const AvroNode* b : arr->branches) {
      if (b->type == AvroType::kArray) arr = b;
    }
  }
  if (arr->type != AvroType::kArray || arr->items->type != AvroType::kRecord) return false;
  const AvroNode& s = *arr->items;
  if (s.fields.size() == 4) {
    return s.FieldIndex("contains_null") == 0 && s.FieldIndex("contains_nan") == 1 &&
           s.FieldIndex("lower_bound") == 2 && s.FieldIndex("upper_bound") == 3;
  }
  return s.fields.size() == 3 && s.FieldIndex("contains_null") == 0 && s.FieldIndex("lower_bound") == 1 &&
         s.FieldIndex("upper_bound") == 2;
}

}  // namespace

Result<ManifestListContents> ParseManifestList(std::string data, const std::string& source) {
  ASSIGN_OR_RETURN(auto reader, AvroFileReader::Open(std::move(data), source));
  const AvroNode& root = reader->writer_schema().root();
  if (root.type != AvroType::kRecord || root.FieldIndex("manifest_path") < 0) {
    return Status::InvalidArgument("not an Iceberg manifest list: " + source + " (no manifest_path field)");
  }
  if (!SummaryInSpecOrder(root)) return Malformed(source, "partition field summaries in an unexpected layout");
  const Layout layout(root, {{"manifest_path"}, {"manifest_length"}, {"partition_spec_id"}, {"content"},
                             {"sequence_number"}, {"min_sequence_number"}, {"added_snapshot_id"},
                             {"added_files_count", "added_data_files_count"},
                             {"existing_files_count", "existing_data_files_count"},
                             {"deleted_files_count", "deleted_data_files_count"}, {"added_rows_count"},
                             {"existing_rows_count"}, {"deleted_rows_count"}, {"partitions"}, {"key_metadata"},
                             {"first_row_id"}});
  ManifestListContents out;
  const auto version = ParseHeaderLong(reader->FindMetadata("format-version"));
  out.format_version = version ? static_cast<int>(*version)
                               : layout.has(kFirstRowId) ? 3
                               : layout.has(kSeq)        ? 2
                                                         : 1;
  out.snapshot_id = ParseHeaderLong(reader->FindMetadata("snapshot-id"));
  out.parent_snapshot_id = ParseHeaderLong(reader->FindMetadata("parent-snapshot-id"));
  out.sequence_number = ParseHeaderLong(reader->FindMetadata("sequence-number"));
  out.first_row_id = ParseHeaderLong(reader->FindMetadata("first-row-id"));
  while (true) {
    AvroValue rec;
    ASSIGN_OR_RETURN(bool more, reader->Next(&rec));
    if (!more) break;
    ASSIGN_OR_RETURN(ManifestFile m, ManifestFileFromAvro(layout, rec, source));
    out.manifests.push_back(std::move(m));
  }
  return out;
}

Result<ManifestListContents> ReadManifestList(FileIO* io, const std::string& location) {
  ASSIGN_OR_RETURN(std::string data, io->ReadAll(location));
  return ParseManifestList(std::move(data), location);
}

namespace {

// ---- manifests ----

enum EntryField : size_t { kStatus, kEntrySnapshot, kEntrySeq, kEntryFileSeq, kDataFile };
enum FileField : size_t {
  kFContent, kFPath, kFFormat, kFPartition, kFRecords, kFSize, kFColumnSizes, kFValueCounts, kFNullCounts,
  kFNanCounts, kFLower, kFUpper, kFKeyMetadata, kFSplits, kFEqualityIds, kFSortOrder, kFFirstRowId,
  kFReferenced, kFContentOffset, kFContentSize,
};

Result<IcebergType> PartitionTypeOf(const AvroNode& data_file, const std::string& src) {
  const int idx = data_file.FieldIndex("partition");
  if (idx < 0) return IcebergType::Struct({});
  const AvroNode* rec = RecordType(*data_file.fields[idx].type);
  if (rec == nullptr) return Malformed(src, "the partition field is not a record");
  std::vector<IcebergField> fields;
  for (const AvroField& f : rec->fields) {
    auto type = IcebergTypeOfAvro(*f.type);
    if (!type.ok()) return type.status().WithContext("Iceberg manifest " + src + " partition field " + f.name);
    // Old v1 writers left out partition field ids; the reference implementation numbered them
    // from 1000 in spec order.
    const int32_t id = f.field_id().value_or(PartitionSpec::kFirstFieldId + static_cast<int32_t>(fields.size()));
    fields.emplace_back(id, f.name, false, std::move(type).value());
  }
  return IcebergType::Struct(std::move(fields));
}

Result<DataFile> DataFileFromAvro(const Layout& l, const IcebergType& partition_type, const AvroValue& rec,
                                  const std::string& src) {
  DataFile f;
  const int64_t content = Optional(l, rec, kFContent).value_or(0);
  if (content < 0 || content > 2) return Malformed(src, "data file content " + std::to_string(content));
  f.content = static_cast<DataFileContent>(content);
  const AvroValue* path = l.Get(rec, kFPath);
  if (path == nullptr || path->kind() != AvroValue::Kind::kString) return Malformed(src, "missing file_path");
  f.file_path = path->bytes();
  if (const AvroValue* format = l.Get(rec, kFFormat); format != nullptr && format->kind() == AvroValue::Kind::kString) {
    f.file_format = format->bytes();
  }
  if (const AvroValue* p = l.Get(rec, kFPartition)) {
    const auto& fields = partition_type.fields();
    if (p->kind() != AvroValue::Kind::kRecord || p->items().size() != fields.size()) {
      return Malformed(src, "partition tuple does not match its schema");
    }
    for (size_t i = 0; i < fields.size(); ++i) {
      if (p->field(i).is_null()) {
        f.partition.emplace_back();
        continue;
      }
      auto v = PartitionValueFromAvro(fields[i].type, p->field(i));
      if (!v.ok()) return v.status().WithContext("Iceberg manifest " + src + " file " + f.file_path);
      f.partition.emplace_back(std::move(v).value());
    }
  }
  ASSIGN_OR_RETURN(f.record_count, Required(l, rec, kFRecords, "record_count", src));
  ASSIGN_OR_RETURN(f.file_size_in_bytes, Required(l, rec, kFSize, "file_size_in_bytes", src));
  RETURN_IF_ERROR(ReadIntMap(l.Get(rec, kFColumnSizes), &f.column_sizes, AsLong, src));
  RETURN_IF_ERROR(ReadIntMap(l.Get(rec, kFValueCounts), &f.value_counts, AsLong, src));
  RETURN_IF_ERROR(ReadIntMap(l.Get(rec, kFNullCounts), &f.null_value_counts, AsLong, src));
  RETURN_IF_ERROR(ReadIntMap(l.Get(rec, kFNanCounts), &f.nan_value_counts, AsLong, src));
  RETURN_IF_ERROR(ReadIntMap(l.Get(rec, kFLower), &f.lower_bounds, AsBytes, src));
  RETURN_IF_ERROR(ReadIntMap(l.Get(rec, kFUpper), &f.upper_bounds, AsBytes, src));
  f.key_metadata = OptionalBytes(l, rec, kFKeyMetadata);
  RETURN_IF_ERROR(ReadNumberList(l.Get(rec, kFSplits), &f.split_offsets, src));
  RETURN_IF_ERROR(ReadNumberList(l.Get(rec, kFEqualityIds), &f.equality_ids, src));
  if (auto so = Optional(l, rec, kFSortOrder)) f.sort_order_id = static_cast<int32_t>(*so);
  f.first_row_id = Optional(l, rec, kFFirstRowId);
  if (const AvroValue* ref = l.Get(rec, kFReferenced); ref != nullptr && ref->kind() == AvroValue::Kind::kString) {
    f.referenced_data_file = ref->bytes();
  }
  f.content_offset = Optional(l, rec, kFContentOffset);
  f.content_size_in_bytes = Optional(l, rec, kFContentSize);
  return f;
}

void Inherit(const ManifestFile& m, ManifestContents* out) {
  std::optional<int64_t> next_row_id;
  if (m.content == ManifestContent::kData) next_row_id = m.first_row_id;
  for (ManifestEntry& e : out->entries) {
    if (!e.snapshot_id) e.snapshot_id = m.added_snapshot_id;
    const bool inherits = e.status == ManifestEntryStatus::kAdded || m.sequence_number == 0;
    if (!e.sequence_number && inherits) e.sequence_number = m.sequence_number;
    if (!e.file_sequence_number && inherits) e.file_sequence_number = m.sequence_number;
    if (next_row_id && e.status != ManifestEntryStatus::kDeleted && !e.data_file.first_row_id &&
        e.data_file.content == DataFileContent::kData) {
      e.data_file.first_row_id = *next_row_id;
      *next_row_id += e.data_file.record_count;
    }
  }
}

Status ReadHeader(const AvroFileReader& reader, bool has_content_field, bool has_v3_field, const std::string& src,
                  ManifestContents* out) {
  const auto version = ParseHeaderLong(reader.FindMetadata("format-version"));
  out->format_version = version ? static_cast<int>(*version) : has_v3_field ? 3 : has_content_field ? 2 : 1;
  if (const std::string* content = reader.FindMetadata("content")) {
    if (*content != "data" && *content != "deletes") return Malformed(src, "header content '" + *content + "'");
    out->content = *content == "data" ? ManifestContent::kData : ManifestContent::kDeletes;
  }
  if (auto spec_id = ParseHeaderLong(reader.FindMetadata("partition-spec-id"))) {
    out->partition_spec_id = static_cast<int32_t>(*spec_id);
  }
  if (const std::string* spec = reader.FindMetadata("partition-spec")) {
    auto parsed = PartitionSpecFromJson(*spec, out->partition_spec_id.value_or(0));
    if (!parsed.ok()) return parsed.status().WithContext("Iceberg manifest " + src + " header partition-spec");
    out->spec = std::move(parsed).value();
  }
  if (const std::string* schema = reader.FindMetadata("schema")) {
    auto parsed = SchemaFromJson(*schema);
    if (!parsed.ok()) return parsed.status().WithContext("Iceberg manifest " + src + " header schema");
    out->schema = std::move(parsed).value();
  }
  return Status::OK();
}

}  // namespace

Result<ManifestContents> ParseManifest(std::string data, const std::string& source, const ManifestFile* inherit_from) {
  ASSIGN_OR_RETURN(auto reader, AvroFileReader::Open(std::move(data), source));
  const AvroNode& root = reader->writer_schema().root();
  const int df_index = root.type == AvroType::kRecord ? root.FieldIndex("data_file") : -1;
  const AvroNode* df = df_index < 0 ? nullptr : RecordType(*root.fields[df_index].type);
  if (df == nullptr) return Status::InvalidArgument("not an Iceberg manifest: " + source + " (no data_file record)");
  const Layout entry_layout(root, {{"status"}, {"snapshot_id"}, {"sequence_number"}, {"file_sequence_number"},
                                   {"data_file"}});
  const Layout file_layout(*df, {{"content"}, {"file_path"}, {"file_format"}, {"partition"}, {"record_count"},
                                 {"file_size_in_bytes"}, {"column_sizes"}, {"value_counts"}, {"null_value_counts"},
                                 {"nan_value_counts"}, {"lower_bounds"}, {"upper_bounds"}, {"key_metadata"},
                                 {"split_offsets"}, {"equality_ids"}, {"sort_order_id"}, {"first_row_id"},
                                 {"referenced_data_file"}, {"content_offset"}, {"content_size_in_bytes"}});
  ManifestContents out;
  RETURN_IF_ERROR(ReadHeader(*reader, file_layout.has(kFContent),
                             file_layout.has(kFFirstRowId) || file_layout.has(kFContentOffset), source, &out));

  ASSIGN_OR_RETURN(out.partition_type, PartitionTypeOf(*df, source));
  while (true) {
    AvroValue rec;
    ASSIGN_OR_RETURN(bool more, reader->Next(&rec));
    if (!more) break;
    ManifestEntry e;
    ASSIGN_OR_RETURN(int64_t status, Required(entry_layout, rec, kStatus, "status", source));
    if (status < 0 || status > 2) return Malformed(source, "entry status " + std::to_string(status));
    e.status = static_cast<ManifestEntryStatus>(status);
    e.snapshot_id = Optional(entry_layout, rec, kEntrySnapshot);
    e.sequence_number = Optional(entry_layout, rec, kEntrySeq);
    e.file_sequence_number = Optional(entry_layout, rec, kEntryFileSeq);
    const AvroValue* file = entry_layout.Get(rec, kDataFile);
    if (file == nullptr || file->kind() != AvroValue::Kind::kRecord) return Malformed(source, "missing data_file");
    ASSIGN_OR_RETURN(e.data_file, DataFileFromAvro(file_layout, out.partition_type, *file, source));
    out.entries.push_back(std::move(e));
  }
  if (!reader->FindMetadata("content")) {
    // Without the header key: the manifest list says, or else the entries do.
    bool deletes = false;
    for (const ManifestEntry& e : out.entries) deletes |= e.data_file.content != DataFileContent::kData;
    out.content = inherit_from != nullptr ? inherit_from->content
                  : deletes               ? ManifestContent::kDeletes
                                          : ManifestContent::kData;
  }
  if (inherit_from != nullptr) Inherit(*inherit_from, &out);
  return out;
}

Result<ManifestContents> ReadManifest(FileIO* io, const ManifestFile& manifest) {
  ASSIGN_OR_RETURN(std::string data, io->ReadAll(manifest.manifest_path));
  return ParseManifest(std::move(data), manifest.manifest_path, &manifest);
}

}  // namespace sluice
