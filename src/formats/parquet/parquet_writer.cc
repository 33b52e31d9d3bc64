#include "formats/parquet/parquet_writer.h"

#include "common/version.h"

#include <algorithm>
#include <charconv>
#include <cstring>

namespace sluice::parquet {

const std::string kCreatedBy = std::string("sluice version ") + kSluiceVersion;

namespace {

constexpr std::string_view kMagic = "PAR1";

Result<int64_t> PositiveInt(const std::map<std::string, std::string>& props, const std::string& key,
                            int64_t fallback) {
  auto it = props.find(key);
  if (it == props.end()) return fallback;
  const std::string& s = it->second;
  int64_t v = 0;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size() || v <= 0) {
    return Status::InvalidArgument("table property '" + key + "' must be a positive integer, got '" + s + "'");
  }
  return v;
}

}  // namespace

std::string IcebergBoundBytes(const ParquetColumnMetrics& column, std::string_view bound) {
  if (column.sluice_type.id() != TypeId::kDecimal) return std::string(bound);
  // The unscaled value, sign-extended to 128 bits.
  __int128 v = 0;
  if (column.physical_type == Type::INT32 || column.physical_type == Type::INT64) {
    int64_t x = 0;
    if (bound.size() == 4) {
      int32_t y;
      std::memcpy(&y, bound.data(), 4);
      x = y;
    } else {
      std::memcpy(&x, bound.data(), std::min<size_t>(8, bound.size()));
    }
    v = x;
  } else {
    for (size_t i = 0; i < bound.size(); ++i) v = (v << 8) | static_cast<uint8_t>(bound[i]);
    int shift = 128 - 8 * static_cast<int>(bound.size());
    if (shift > 0 && shift < 128) v = (v << shift) >> shift;  // sign-extend from the column's width
  }
  // The fewest bytes whose top bit still carries the sign.
  int n = 16;
  while (n > 1) {
    __int128 top = v >> (8 * (n - 1) - 1);
    if (top != 0 && top != -1) break;
    --n;
  }
  std::string out(n, '\0');
  for (int i = 0; i < n; ++i) out[i] = static_cast<char>(v >> (8 * (n - 1 - i)));
  return out;
}

Result<ParquetWriterOptions> ParquetWriterOptions::FromTableProperties(
    const std::map<std::string, std::string>& props) {
  ParquetWriterOptions o;
  if (auto it = props.find("write.parquet.compression-codec"); it != props.end()) {
    auto codec = ParseCodecName(it->second);
    if (!codec.ok()) return codec.status().WithContext("table property 'write.parquet.compression-codec'");
    o.codec = *codec;
  }
  if (auto it = props.find("write.parquet.compression-level"); it != props.end()) {
    ASSIGN_OR_RETURN(int64_t level, PositiveInt(props, "write.parquet.compression-level", 0));
    o.compression_level = static_cast<int>(level);
    auto check = PageCodec::Make(o.codec, o.compression_level);
    if (!check.ok()) return check.status().WithContext("table property 'write.parquet.compression-level'");
  }
  ASSIGN_OR_RETURN(o.row_group_size_bytes,
                   PositiveInt(props, "write.parquet.row-group-size-bytes", o.row_group_size_bytes));
  ASSIGN_OR_RETURN(o.page_size_bytes, PositiveInt(props, "write.parquet.page-size-bytes", o.page_size_bytes));
  ASSIGN_OR_RETURN(o.page_row_limit, PositiveInt(props, "write.parquet.page-row-limit", o.page_row_limit));
  ASSIGN_OR_RETURN(o.dict_size_bytes, PositiveInt(props, "write.parquet.dict-size-bytes", o.dict_size_bytes));
  return o;
}

ParquetWriter::ParquetWriter(WritableFile* file, ParquetSchema schema, Schema sluice_schema,
                             ParquetWriterOptions options)
    : file_(file), schema_(std::move(schema)), sluice_schema_(std::move(sluice_schema)), options_(std::move(options)) {}

ParquetWriter::~ParquetWriter() = default;

Result<std::unique_ptr<ParquetWriter>> ParquetWriter::Open(WritableFile* file, const Schema& schema,
                                                           const std::vector<FieldIdTree>& field_ids,
                                                           ParquetWriterOptions options) {
  ASSIGN_OR_RETURN(ParquetSchema ps, ParquetSchema::FromSluice(schema, field_ids));
  std::unique_ptr<ParquetWriter> w(new ParquetWriter(file, std::move(ps), schema, std::move(options)));
  ColumnWriterOptions copts;
  copts.page_size_bytes = w->options_.page_size_bytes;
  copts.page_row_limit = w->options_.page_row_limit;
  copts.dict_size_bytes = w->options_.dict_size_bytes;
  copts.enable_dictionary = w->options_.enable_dictionary;
  ASSIGN_OR_RETURN(w->codec_, PageCodec::Make(w->options_.codec, w->options_.compression_level));
  for (const ColumnDescriptor& col : w->schema_.columns()) {
    ASSIGN_OR_RETURN(auto cw, MakeColumnWriter(col, w->codec_.get(), copts));
    w->columns_.push_back(std::move(cw));
  }
  const SchemaNode& root = w->schema_.root();
  for (int field : root.children) w->columns_by_field_.push_back(w->schema_.LeavesUnder(field));
  RETURN_IF_ERROR(file->Append(kMagic));
  return w;
}

Status ParquetWriter::Write(const Chunk& chunk) {
  if (closed_) return Status::Internal("ParquetWriter::Write after Close");
  if (chunk.num_columns() != sluice_schema_.size()) {
    return Status::Internal("Parquet file " + file_->location() + ": a chunk of " +
                            std::to_string(chunk.num_columns()) + " columns for a schema of " +
                            std::to_string(sluice_schema_.size()));
  }
  if (chunk.size() == 0) return Status::OK();
  for (size_t f = 0; f < chunk.num_columns(); ++f) {
    const Vector& v = chunk.column(f);
    if (!v.type().EqualsIgnoringNullability(sluice_schema_.field(f).type)) {
      return Status::Internal("Parquet file " + file_->location() + ": column '" + sluice_schema_.field(f).name +
                              "' has type " + v.type().ToString() + ", the schema says " +
                              sluice_schema_.field(f).type.ToString());
    }
    for (int leaf : columns_by_field_[f]) {
      RETURN_IF_ERROR(levels_.Build(schema_, leaf, v, &batch_).WithContext(file_->location()));
      RETURN_IF_ERROR(columns_[leaf]->Write(batch_).WithContext(file_->location()));
    }
  }
  rows_ += static_cast<int64_t>(chunk.size());
  group_rows_ += static_cast<int64_t>(chunk.size());
  int64_t buffered = 0;
  for (const auto& c : columns_) buffered += c->EstimatedSize();
  if (buffered >= options_.row_group_size_bytes) RETURN_IF_ERROR(FlushRowGroup());
  return Status::OK();
}

Status ParquetWriter::FlushRowGroup() {
  if (group_rows_ == 0) return Status::OK();
  RowGroup g;
  g.num_rows = group_rows_;
  const auto start = static_cast<int64_t>(file_->bytes_written());
  g.file_offset = start;
  g.ordinal = static_cast<int16_t>(row_groups_.size());
  int64_t compressed = 0;
  for (auto& c : columns_) {
    ColumnChunk chunk;
    RETURN_IF_ERROR(c->FinishChunk(static_cast<int64_t>(file_->bytes_written()), file_, &chunk));
    g.total_byte_size += chunk.meta_data->total_uncompressed_size;
    compressed += chunk.meta_data->total_compressed_size;
    g.columns.push_back(std::move(chunk));
  }
  g.total_compressed_size = compressed;
  row_groups_.push_back(std::move(g));
  group_rows_ = 0;
  return Status::OK();
}

uint64_t ParquetWriter::EstimatedFileSize() const {
  uint64_t size = file_->bytes_written();
  for (const auto& c : columns_) size += static_cast<uint64_t>(c->EstimatedSize());
  return size;
}

Result<ParquetFileMetrics> ParquetWriter::Close() {
  if (closed_) return Status::Internal("ParquetWriter::Close called twice");
  RETURN_IF_ERROR(FlushRowGroup());
  closed_ = true;
  FileMetaData md;
  md.version = 2;
  md.schema = schema_.ToElements();
  md.num_rows = rows_;
  md.row_groups = row_groups_;
  md.key_value_metadata = options_.key_value_metadata;
  md.created_by = kCreatedBy;
  md.column_orders.assign(columns_.size(), true);
  std::string footer;
  Serialize(md, &footer);
  auto len = static_cast<uint32_t>(footer.size());
  char len_bytes[4];
  for (int i = 0; i < 4; ++i) len_bytes[i] = static_cast<char>(len >> (8 * i));
  footer.append(len_bytes, 4);
  footer.append(kMagic);
  RETURN_IF_ERROR(file_->Append(footer));

  ParquetFileMetrics m;
  m.row_count = rows_;
  m.file_size = file_->bytes_written();
  for (const RowGroup& g : row_groups_) m.split_offsets.push_back(*g.file_offset);
  for (size_t i = 0; i < columns_.size(); ++i) {
    const ColumnDescriptor& col = schema_.columns()[i];
    const ColumnWriter& cw = *columns_[i];
    ParquetColumnMetrics cm;
    cm.path = col.path;
    cm.field_id = col.field_id;
    cm.physical_type = col.physical_type;
    cm.sluice_type = col.sluice_type;
    cm.value_count = cw.FileValueCount();
    cm.compressed_size = cw.FileCompressedSize();
    ColumnStatsSummary s = cw.FileStats();
    cm.null_count = s.null_count;
    if (col.physical_type == Type::FLOAT || col.physical_type == Type::DOUBLE) cm.nan_count = s.nan_count;
    cm.min = std::move(s.min);
    cm.max = std::move(s.max);
    m.columns.push_back(std::move(cm));
  }
  return m;
}

}  // namespace sluice::parquet
