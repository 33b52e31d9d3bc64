#include "connectors/iceberg/manifest_writer.h"

#include <cmath>

#include "connectors/iceberg/iceberg_json.h"
#include "connectors/iceberg/manifest_avro.h"

namespace sluice {

namespace {

AvroValue OptLong(const std::optional<int64_t>& v) { return v ? AvroValue::Long(*v) : AvroValue::Null(); }
AvroValue OptInt(const std::optional<int32_t>& v) { return v ? AvroValue::Int(*v) : AvroValue::Null(); }
AvroValue OptBytes(const std::optional<std::string>& v) { return v ? AvroValue::Bytes(*v) : AvroValue::Null(); }
AvroValue OptString(const std::optional<std::string>& v) { return v ? AvroValue::String(*v) : AvroValue::Null(); }

AvroValue CountMap(const std::map<int32_t, int64_t>& m) {
  if (m.empty()) return AvroValue::Null();
  std::vector<AvroValue> items;
  items.reserve(m.size());
  for (const auto& [k, v] : m) items.push_back(AvroValue::Record({AvroValue::Int(k), AvroValue::Long(v)}));
  return AvroValue::Array(std::move(items));
}

AvroValue BoundMap(const std::map<int32_t, std::string>& m) {
  if (m.empty()) return AvroValue::Null();
  std::vector<AvroValue> items;
  items.reserve(m.size());
  for (const auto& [k, v] : m) items.push_back(AvroValue::Record({AvroValue::Int(k), AvroValue::Bytes(v)}));
  return AvroValue::Array(std::move(items));
}

template <typename T>
AvroValue NumberList(const std::vector<T>& v, bool is_long) {
  if (v.empty()) return AvroValue::Null();
  std::vector<AvroValue> items;
  for (T x : v) items.push_back(is_long ? AvroValue::Long(x) : AvroValue::Int(static_cast<int32_t>(x)));
  return AvroValue::Array(std::move(items));
}

AvroValue DataFileToAvro(const DataFile& f, int format_version) {
  std::vector<AvroValue> partition;
  for (const auto& p : f.partition) partition.push_back(p ? PartitionValueToAvro(*p) : AvroValue::Null());
  std::vector<AvroValue> fields = {
      AvroValue::Int(static_cast<int32_t>(f.content)),
      AvroValue::String(f.file_path),
      AvroValue::String(f.file_format),
      AvroValue::Record(std::move(partition)),
      AvroValue::Long(f.record_count),
      AvroValue::Long(f.file_size_in_bytes),
      CountMap(f.column_sizes),
      CountMap(f.value_counts),
      CountMap(f.null_value_counts),
      CountMap(f.nan_value_counts),
      BoundMap(f.lower_bounds),
      BoundMap(f.upper_bounds),
      OptBytes(f.key_metadata),
      NumberList(f.split_offsets, true),
      NumberList(f.equality_ids, false),
      OptInt(f.sort_order_id),
  };
  if (format_version >= 3) fields.push_back(OptLong(f.first_row_id));
  fields.push_back(OptString(f.referenced_data_file));
  if (format_version >= 3) {
    fields.push_back(OptLong(f.content_offset));
    fields.push_back(OptLong(f.content_size_in_bytes));
  }
  return AvroValue::Record(std::move(fields));
}

AvroValue EntryToAvro(const ManifestEntry& e, int format_version) {
  return AvroValue::Record({AvroValue::Int(static_cast<int32_t>(e.status)), OptLong(e.snapshot_id),
                            OptLong(e.sequence_number), OptLong(e.file_sequence_number),
                            DataFileToAvro(e.data_file, format_version)});
}

AvroValue ManifestFileToAvro(const ManifestFile& m, int format_version) {
  AvroValue partitions = AvroValue::Null();
  if (m.partitions) {
    std::vector<AvroValue> items;
    for (const PartitionFieldSummary& s : *m.partitions) {
      items.push_back(AvroValue::Record({AvroValue::Boolean(s.contains_null),
                                         s.contains_nan ? AvroValue::Boolean(*s.contains_nan) : AvroValue::Null(),
                                         OptBytes(s.lower_bound), OptBytes(s.upper_bound)}));
    }
    partitions = AvroValue::Array(std::move(items));
  }
  std::vector<AvroValue> fields = {
      AvroValue::String(m.manifest_path),       AvroValue::Long(m.manifest_length),
      AvroValue::Int(m.partition_spec_id),      AvroValue::Int(static_cast<int32_t>(m.content)),
      AvroValue::Long(m.sequence_number),       AvroValue::Long(m.min_sequence_number),
      AvroValue::Long(m.added_snapshot_id),     AvroValue::Int(m.added_files_count),
      AvroValue::Int(m.existing_files_count),   AvroValue::Int(m.deleted_files_count),
      AvroValue::Long(m.added_rows_count),      AvroValue::Long(m.existing_rows_count),
      AvroValue::Long(m.deleted_rows_count),    std::move(partitions),
      OptBytes(m.key_metadata),
  };
  if (format_version >= 3) fields.push_back(OptLong(m.first_row_id));
  return AvroValue::Record(std::move(fields));
}

Status CheckFormatVersion(int v) {
  if (v == 2 || v == 3) return Status::OK();
  return Status::NotSupported("Iceberg format version " + std::to_string(v) + " cannot be written (2 and 3 can)");
}

bool IsNaN(const IcebergLiteral& v) {
  const IcebergTypeId id = v.type().id();
  return (id == IcebergTypeId::kFloat || id == IcebergTypeId::kDouble) && std::isnan(v.double_value());
}

}  // namespace

const char* ManifestContentName(ManifestContent content) {
  return content == ManifestContent::kData ? "data" : "deletes";
}

Result<std::unique_ptr<ManifestWriter>> ManifestWriter::Open(FileIO* io, const std::string& location,
                                                             ManifestWriterOptions options) {
  RETURN_IF_ERROR(CheckFormatVersion(options.format_version));
  std::unique_ptr<ManifestWriter> w(new ManifestWriter());
  ASSIGN_OR_RETURN(w->partition_type_, options.spec.PartitionType(options.schema));
  ASSIGN_OR_RETURN(std::string schema_json, ManifestEntryAvroSchema(options.format_version, w->partition_type_));
  ASSIGN_OR_RETURN(w->avro_schema_, AvroSchema::Parse(schema_json));
  AvroWriterOptions avro;
  avro.codec = options.codec;
  avro.sync_marker = options.sync_marker;
  avro.metadata = {
      {"schema", SchemaToJson(options.schema)},
      {"schema-id", std::to_string(options.schema.schema_id())},
      {"partition-spec", PartitionFieldsToJson(options.spec)},
      {"partition-spec-id", std::to_string(options.spec.spec_id())},
      {"format-version", std::to_string(options.format_version)},
      {"content", ManifestContentName(options.content)},
      {"iceberg.schema", SchemaToJson(ManifestEntrySchema(options.format_version, w->partition_type_))},
  };
  ASSIGN_OR_RETURN(auto file, io->Create(location));
  ASSIGN_OR_RETURN(w->writer_, AvroFileWriter::Open(std::move(file), &w->avro_schema_, std::move(avro)));
  const size_t n = w->partition_type_.fields().size();
  w->partitions_.assign(n, PartitionFieldSummary{false, false, std::nullopt, std::nullopt});
  w->lower_.assign(n, std::nullopt);
  w->upper_.assign(n, std::nullopt);
  w->summary_.manifest_path = location;
  w->summary_.partition_spec_id = options.spec.spec_id();
  w->summary_.content = options.content;
  w->summary_.sequence_number = kUnassignedSequenceNumber;
  w->summary_.added_snapshot_id = options.snapshot_id;
  w->options_ = std::move(options);
  return w;
}

Status ManifestWriter::Check(const ManifestEntry& entry) const {
  const DataFile& f = entry.data_file;
  const bool is_data = f.content == DataFileContent::kData;
  if (is_data != (options_.content == ManifestContent::kData)) {
    return Status::InvalidArgument("file " + f.file_path + " cannot go into a " +
                                   ManifestContentName(options_.content) + " manifest");
  }
  const auto& fields = partition_type_.fields();
  if (f.partition.size() != fields.size()) {
    return Status::InvalidArgument("file " + f.file_path + " has " + std::to_string(f.partition.size()) +
                                   " partition values; partition spec " + std::to_string(options_.spec.spec_id()) +
                                   " has " + std::to_string(fields.size()) + " fields");
  }
  for (size_t i = 0; i < fields.size(); ++i) {
    if (f.partition[i] && f.partition[i]->type() != fields[i].type) {
      return Status::InvalidArgument("file " + f.file_path + ": partition value of " + fields[i].name + " is a " +
                                     f.partition[i]->type().ToString() + ", not " + fields[i].type.ToString());
    }
  }
  if (f.content == DataFileContent::kEqualityDeletes && f.equality_ids.empty()) {
    return Status::InvalidArgument("equality delete file " + f.file_path + " has no equality_ids");
  }
  if (options_.format_version < 3 && (f.first_row_id || f.content_offset || f.content_size_in_bytes)) {
    return Status::InvalidArgument("file " + f.file_path + " carries v3 fields in a format-version " +
                                   std::to_string(options_.format_version) + " manifest");
  }
  return Status::OK();
}

void ManifestWriter::Summarize(const ManifestEntry& entry) {
  const DataFile& f = entry.data_file;
  switch (entry.status) {
    case ManifestEntryStatus::kAdded:
      ++summary_.added_files_count;
      summary_.added_rows_count += f.record_count;
      break;
    case ManifestEntryStatus::kExisting:
      ++summary_.existing_files_count;
      summary_.existing_rows_count += f.record_count;
      break;
    case ManifestEntryStatus::kDeleted:
      ++summary_.deleted_files_count;
      summary_.deleted_rows_count += f.record_count;
      break;
  }
  if (entry.status != ManifestEntryStatus::kDeleted && entry.sequence_number) {
    min_sequence_number_ = std::min(min_sequence_number_.value_or(*entry.sequence_number), *entry.sequence_number);
  }
  for (size_t i = 0; i < f.partition.size(); ++i) {
    const auto& v = f.partition[i];
    if (!v) {
      partitions_[i].contains_null = true;
    } else if (IsNaN(*v)) {
      partitions_[i].contains_nan = true;
    } else {
      if (!lower_[i] || v->Compare(*lower_[i]) < 0) lower_[i] = *v;
      if (!upper_[i] || v->Compare(*upper_[i]) > 0) upper_[i] = *v;
    }
  }
}

Status ManifestWriter::Append(const ManifestEntry& entry) {
  RETURN_IF_ERROR(Check(entry));
  RETURN_IF_ERROR(writer_->Append(EntryToAvro(entry, options_.format_version)));
  Summarize(entry);
  return Status::OK();
}

Status ManifestWriter::Add(const DataFile& file) {
  ManifestEntry e;
  e.status = ManifestEntryStatus::kAdded;
  e.snapshot_id = options_.snapshot_id;
  e.data_file = file;
  return Append(e);
}

Status ManifestWriter::Existing(const ManifestEntry& entry) {
  ManifestEntry e = entry;
  e.status = ManifestEntryStatus::kExisting;
  return Append(e);
}

Status ManifestWriter::Delete(const ManifestEntry& entry) {
  ManifestEntry e = entry;
  e.status = ManifestEntryStatus::kDeleted;
  e.snapshot_id = options_.snapshot_id;
  return Append(e);
}

Result<ManifestFile> ManifestWriter::Close() {
  RETURN_IF_ERROR(writer_->Close());
  summary_.manifest_length = static_cast<int64_t>(writer_->bytes_written());
  summary_.min_sequence_number = min_sequence_number_.value_or(kUnassignedSequenceNumber);
  for (size_t i = 0; i < partitions_.size(); ++i) {
    if (lower_[i]) partitions_[i].lower_bound = lower_[i]->ToBytes();
    if (upper_[i]) partitions_[i].upper_bound = upper_[i]->ToBytes();
  }
  summary_.partitions = partitions_;
  return summary_;
}

Result<WrittenManifestList> WriteManifestList(FileIO* io, const std::string& location,
                                              const ManifestListOptions& options, std::vector<ManifestFile> manifests) {
  RETURN_IF_ERROR(CheckFormatVersion(options.format_version));
  ASSIGN_OR_RETURN(AvroSchema schema, AvroSchema::Parse(ManifestFileAvroSchema(options.format_version)));
  AvroWriterOptions avro;
  avro.codec = options.codec;
  avro.sync_marker = options.sync_marker;
  avro.metadata = {
      {"snapshot-id", std::to_string(options.snapshot_id)},
      {"parent-snapshot-id", options.parent_snapshot_id ? std::to_string(*options.parent_snapshot_id) : "null"},
      {"sequence-number", std::to_string(options.sequence_number)},
      {"format-version", std::to_string(options.format_version)},
  };
  if (options.format_version >= 3) avro.metadata.emplace_back("first-row-id", std::to_string(options.first_row_id));
  avro.metadata.emplace_back("iceberg.schema", SchemaToJson(ManifestFileSchema(options.format_version)));
  ASSIGN_OR_RETURN(auto file, io->Create(location));
  ASSIGN_OR_RETURN(auto writer, AvroFileWriter::Open(std::move(file), &schema, std::move(avro)));
  WrittenManifestList out;
  out.next_row_id = options.first_row_id;
  for (ManifestFile& m : manifests) {
    // A manifest written for this snapshot takes its sequence number, as Java's V2 writer does.
    if (m.sequence_number == kUnassignedSequenceNumber) {
      if (m.added_snapshot_id != options.snapshot_id) {
        return Status::InvalidArgument("manifest " + m.manifest_path + " of snapshot " +
                                       std::to_string(m.added_snapshot_id) + " has no sequence number");
      }
      m.sequence_number = options.sequence_number;
    }
    if (m.min_sequence_number == kUnassignedSequenceNumber) m.min_sequence_number = options.sequence_number;
    if (options.format_version >= 3 && m.content == ManifestContent::kData && !m.first_row_id) {
      m.first_row_id = out.next_row_id;
      out.next_row_id += m.added_rows_count + m.existing_rows_count;
    }
    RETURN_IF_ERROR(writer->Append(ManifestFileToAvro(m, options.format_version)));
  }
  RETURN_IF_ERROR(writer->Close());
  out.length = static_cast<int64_t>(writer->bytes_written());
  out.manifests = std::move(manifests);
  return out;
}

}  // namespace sluice
