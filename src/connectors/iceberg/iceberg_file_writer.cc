#include "connectors/iceberg/iceberg_file_writer.h"

#include <cstdio>
#include <cstring>

#include "connectors/iceberg/table_metadata.h"

namespace sluice {
namespace {

// Iceberg's default metrics mode, truncate(16): bounds of strings and binary keep 16 characters.
constexpr size_t kTruncateLength = 16;

parquet::FieldIdTree FieldIdsOf(int32_t id, const IcebergType& type) {
  parquet::FieldIdTree tree;
  tree.id = id;
  switch (type.id()) {
    case IcebergTypeId::kStruct:
      for (const auto& f : type.fields()) tree.children.push_back(FieldIdsOf(f.id, f.type));
      break;
    case IcebergTypeId::kList: tree.children.push_back(FieldIdsOf(type.element_id(), type.element())); break;
    case IcebergTypeId::kMap:
      tree.children.push_back(FieldIdsOf(type.key_id(), type.key()));
      tree.children.push_back(FieldIdsOf(type.value_id(), type.value()));
      break;
    default: break;
  }
  return tree;
}

// The length of the UTF-8 prefix of `s` holding `chars` code points.
size_t Utf8PrefixBytes(const std::string& s, size_t chars) {
  size_t i = 0, n = 0;
  while (i < s.size() && n < chars) {
    ++i;
    while (i < s.size() && (static_cast<unsigned char>(s[i]) & 0xC0) == 0x80) ++i;
    ++n;
  }
  return i;
}

// Truncated bounds as Iceberg's UnicodeUtil/BinaryUtil: the lower bound is the prefix; the upper
// bound is the prefix with its last character (byte) incremented, or none when it cannot be.
std::optional<std::string> TruncateUpper(const std::string& v, bool utf8) {
  size_t keep = utf8 ? Utf8PrefixBytes(v, kTruncateLength) : std::min(v.size(), kTruncateLength);
  if (keep == v.size()) return v;
  std::string p = v.substr(0, keep);
  if (!utf8) {
    while (!p.empty()) {
      auto& last = reinterpret_cast<unsigned char&>(p.back());
      if (last != 0xFF) {
        ++last;
        return p;
      }
      p.pop_back();
    }
    return std::nullopt;
  }
  // Increment the last ASCII code point; give up (no bound) on multi-byte ones at the end, which
  // is allowed (a missing bound is always correct).
  while (!p.empty()) {
    auto last = static_cast<unsigned char>(p.back());
    if (last < 0x7F) {
      p.back() = static_cast<char>(last + 1);
      return p;
    }
    if (last >= 0x80) return std::nullopt;
    p.pop_back();
  }
  return std::nullopt;
}

__int128 DecimalFromPlain(parquet::Type physical, const std::string& b) {
  if (physical == parquet::Type::INT32 && b.size() == 4) {
    int32_t v;
    std::memcpy(&v, b.data(), 4);
    return v;
  }
  if (physical == parquet::Type::INT64 && b.size() == 8) {
    int64_t v;
    std::memcpy(&v, b.data(), 8);
    return v;
  }
  __int128 v = (!b.empty() && (static_cast<unsigned char>(b[0]) & 0x80)) ? -1 : 0;
  for (char c : b) v = (v << 8) | static_cast<unsigned char>(c);
  return v;
}

// The single-value form of a Parquet PLAIN bound for an Iceberg type; nullopt drops the bound.
std::optional<std::string> BoundBytes(const IcebergType& type, parquet::Type physical, const std::string& plain,
                                      bool upper, bool truncate) {
  if (!truncate && (type.id() == IcebergTypeId::kString || type.id() == IcebergTypeId::kBinary)) return plain;
  switch (type.id()) {
    case IcebergTypeId::kDecimal:
      return IcebergLiteral::Decimal(DecimalFromPlain(physical, plain), type.precision(), type.scale()).ToBytes();
    case IcebergTypeId::kString:
      if (!upper) return plain.substr(0, Utf8PrefixBytes(plain, kTruncateLength));
      return TruncateUpper(plain, true);
    case IcebergTypeId::kBinary:
      if (!upper) return plain.substr(0, std::min(plain.size(), kTruncateLength));
      return TruncateUpper(plain, false);
    case IcebergTypeId::kInt:
    case IcebergTypeId::kDate:
      if (plain.size() != 4) return std::nullopt;
      return plain;
    case IcebergTypeId::kLong:
    case IcebergTypeId::kTime:
    case IcebergTypeId::kTimestamp:
    case IcebergTypeId::kTimestampTz:
    case IcebergTypeId::kTimestampNs:
    case IcebergTypeId::kTimestampTzNs:
      if (plain.size() != 8) return std::nullopt;
      return plain;
    case IcebergTypeId::kBoolean:
    case IcebergTypeId::kFloat:
    case IcebergTypeId::kDouble:
    case IcebergTypeId::kFixed:
    case IcebergTypeId::kUuid: return plain;
    default: return std::nullopt;
  }
}

bool InsideListOrMap(const IcebergSchema& schema, int32_t id) {
  const std::string name = schema.FindName(id);
  for (const char* part : {".element", ".key", ".value"}) {
    const std::string p = part;
    size_t at = name.find(p);
    while (at != std::string::npos) {
      if (at + p.size() == name.size() || name[at + p.size()] == '.') return true;
      at = name.find(p, at + 1);
    }
  }
  return false;
}

}  // namespace

IcebergFileNamer::IcebergFileNamer(std::string table_location, int partition_id, int64_t task_id)
    : data_location_(JoinLocation(table_location, "data")) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%05d-%lld-", partition_id, static_cast<long long>(task_id));
  prefix_ = buf + NewTableUuid() + "-";
}

std::string IcebergFileNamer::NextLocation(const std::string& partition_path) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%05lld.parquet", static_cast<long long>(++count_));
  std::string dir = partition_path.empty() ? data_location_ : JoinLocation(data_location_, partition_path);
  return JoinLocation(dir, prefix_ + buf);
}

Result<IcebergFileSpec> MakeIcebergFileSpec(const IcebergSchema& table_schema, const std::vector<int32_t>& field_ids,
                                            const std::vector<LogicalType>& sluice_types) {
  IcebergFileSpec spec;
  std::vector<IcebergField> fields;
  std::vector<Field> columns;
  for (size_t i = 0; i < field_ids.size(); ++i) {
    const IcebergField* f = table_schema.FindField(field_ids[i]);
    if (f == nullptr) return Status::Internal("Iceberg field id " + std::to_string(field_ids[i]) + " not in the schema");
    fields.push_back(*f);
    columns.push_back({f->name, sluice_types[i].WithNullable(!f->required)});
    spec.field_ids.push_back(FieldIdsOf(f->id, f->type));
  }
  spec.schema = Schema(std::move(columns));
  spec.iceberg_schema = IcebergSchema(table_schema.schema_id(), std::move(fields));
  return spec;
}

IcebergFileSpec PositionDeleteFileSpec() {
  IcebergFileSpec spec;
  spec.content = DataFileContent::kPositionDeletes;
  spec.truncate_bounds = false;
  spec.schema = Schema({{"file_path", LogicalType::String().WithNullable(false)},
                        {"pos", LogicalType::BigInt().WithNullable(false)}});
  spec.field_ids = {parquet::FieldIdTree{kDeleteFilePathFieldId, {}}, parquet::FieldIdTree{kDeletePosFieldId, {}}};
  spec.iceberg_schema =
      IcebergSchema(0, {IcebergField(kDeleteFilePathFieldId, "file_path", true, IcebergType::Primitive(IcebergTypeId::kString)),
                        IcebergField(kDeletePosFieldId, "pos", true, IcebergType::Primitive(IcebergTypeId::kLong))});
  return spec;
}

RollingFileWriter::RollingFileWriter(FileIO* io, IcebergFileNamer* namer, const IcebergFileSpec* spec,
                                     std::string partition_path, std::vector<std::optional<IcebergLiteral>> partition)
    : io_(io), namer_(namer), spec_(spec), partition_path_(std::move(partition_path)), partition_(std::move(partition)) {}

RollingFileWriter::~RollingFileWriter() { Abort(); }

void RollingFileWriter::Abort() {
  writer_.reset();
  if (file_) file_->Abort();
  file_.reset();
  path_.clear();
}

Status RollingFileWriter::EnsureOpen() {
  if (writer_) return Status::OK();
  path_ = namer_->NextLocation(partition_path_);
  ASSIGN_OR_RETURN(file_, io_->Create(path_));
  auto w = parquet::ParquetWriter::Open(file_.get(), spec_->schema, spec_->field_ids, spec_->parquet);
  if (!w.ok()) {
    Abort();
    return w.status().WithContext("Iceberg file '" + path_ + "'");
  }
  writer_ = std::move(*w);
  return Status::OK();
}

int64_t RollingFileWriter::current_rows() const { return writer_ ? writer_->rows_written() : 0; }

Status RollingFileWriter::Write(const Chunk& chunk) {
  if (chunk.size() == 0) return Status::OK();
  RETURN_IF_ERROR(EnsureOpen());
  Status st = writer_->Write(chunk);
  if (!st.ok()) return st.WithContext("Iceberg file '" + path_ + "'");
  if (static_cast<int64_t>(writer_->EstimatedFileSize()) >= spec_->target_file_size) RETURN_IF_ERROR(CloseCurrent());
  return Status::OK();
}

Status RollingFileWriter::CloseCurrent() {
  if (!writer_) return Status::OK();
  auto metrics = writer_->Close();
  if (!metrics.ok()) return metrics.status().WithContext("Iceberg file '" + path_ + "'");
  RETURN_IF_ERROR(file_->Close());
  if (metrics->row_count > 0) {
    closed_.push_back(DataFileFromMetrics(*spec_, path_, partition_, *metrics));
  } else {
    RETURN_IF_ERROR(io_->Delete(path_));
  }
  writer_.reset();
  file_.reset();
  path_.clear();
  return Status::OK();
}

Result<std::vector<DataFile>> RollingFileWriter::Complete() {
  RETURN_IF_ERROR(CloseCurrent());
  return std::move(closed_);
}

DataFile DataFileFromMetrics(const IcebergFileSpec& spec, const std::string& path,
                             std::vector<std::optional<IcebergLiteral>> partition,
                             const parquet::ParquetFileMetrics& metrics) {
  DataFile f;
  f.content = spec.content;
  f.file_path = path;
  f.partition = std::move(partition);
  f.record_count = metrics.row_count;
  f.file_size_in_bytes = static_cast<int64_t>(metrics.file_size);
  f.split_offsets = metrics.split_offsets;
  f.equality_ids = spec.equality_ids;
  if (spec.content == DataFileContent::kData) f.sort_order_id = 0;
  for (const auto& c : metrics.columns) {
    if (!c.field_id) continue;
    const int32_t id = *c.field_id;
    f.column_sizes[id] += c.compressed_size;
    f.value_counts[id] += c.value_count;
    f.null_value_counts[id] += c.null_count;
    if (c.nan_count) f.nan_value_counts[id] += *c.nan_count;
    const IcebergField* field = spec.iceberg_schema.FindField(id);
    if (field == nullptr || !field->type.IsPrimitive() || InsideListOrMap(spec.iceberg_schema, id)) continue;
    if (c.min) {
      if (auto b = BoundBytes(field->type, c.physical_type, *c.min, false, spec.truncate_bounds)) f.lower_bounds[id] = std::move(*b);
    }
    if (c.max) {
      if (auto b = BoundBytes(field->type, c.physical_type, *c.max, true, spec.truncate_bounds)) f.upper_bounds[id] = std::move(*b);
    }
  }
  return f;
}

}  // namespace sluice
