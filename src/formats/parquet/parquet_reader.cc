#include "formats/parquet/parquet_reader.h"

#include <algorithm>
#include <cstring>

namespace sluice::parquet {

namespace {

constexpr size_t kMagicSize = 4;
constexpr size_t kFooterTail = 8;  // footer length (4 bytes LE) + "PAR1"

Status BadFile(const RandomAccessFile& f, const std::string& msg) {
  return Status::InvalidArgument("Parquet file '" + f.location() + "': " + msg);
}

}  // namespace

Result<std::unique_ptr<ParquetReader>> ParquetReader::Open(RandomAccessFile* file) {
  const uint64_t size = file->size();
  if (size < kMagicSize + kFooterTail) {
    return BadFile(*file, "is " + std::to_string(size) + " bytes long, too short for a Parquet file");
  }
  std::string tail;
  RETURN_IF_ERROR(file->ReadAt(size - kFooterTail, kFooterTail, &tail));
  if (std::memcmp(tail.data() + 4, "PARE", 4) == 0) {
    return Status::NotSupported("Parquet file '" + file->location() + "' is encrypted");
  }
  if (std::memcmp(tail.data() + 4, "PAR1", 4) != 0) return BadFile(*file, "does not end with the magic 'PAR1'");
  std::string head;
  RETURN_IF_ERROR(file->ReadAt(0, kMagicSize, &head));
  if (head != "PAR1") return BadFile(*file, "does not start with the magic 'PAR1'");
  uint32_t footer_len;
  std::memcpy(&footer_len, tail.data(), 4);
  if (footer_len == 0 || footer_len > size - kMagicSize - kFooterTail) {
    return BadFile(*file, "footer length " + std::to_string(footer_len) + " does not fit the file's " +
                              std::to_string(size) + " bytes");
  }
  std::string footer;
  RETURN_IF_ERROR(file->ReadAt(size - kFooterTail - footer_len, footer_len, &footer));
  auto metadata = ParseFileMetaData(footer);
  if (!metadata.ok()) return BadFile(*file, "footer: " + metadata.status().message());
  auto schema = ParquetSchema::FromElements(metadata->schema);
  if (!schema.ok()) return BadFile(*file, "schema: " + schema.status().message());
  std::unique_ptr<ParquetReader> reader(
      new ParquetReader(file, std::move(metadata).value(), std::move(schema).value()));
  RETURN_IF_ERROR(reader->Validate());
  int64_t row = 0;
  for (const RowGroup& rg : reader->metadata_.row_groups) {
    reader->first_row_.push_back(row);
    row += rg.num_rows;
  }
  return reader;
}

Result<std::unique_ptr<ParquetReader>> ParquetReader::Open(std::unique_ptr<RandomAccessFile> file) {
  ASSIGN_OR_RETURN(std::unique_ptr<ParquetReader> reader, Open(file.get()));
  reader->owned_file_ = std::move(file);
  return reader;
}

Status ParquetReader::Validate() const {
  const size_t columns = schema_.columns().size();
  const uint64_t data_end = file_->size() - kFooterTail;
  for (size_t g = 0; g < metadata_.row_groups.size(); ++g) {
    const RowGroup& rg = metadata_.row_groups[g];
    std::string where = "row group " + std::to_string(g) + ": ";
    if (rg.num_rows < 0) return BadFile(*file_, where + "negative row count");
    if (rg.columns.size() != columns) {
      return BadFile(*file_, where + "has " + std::to_string(rg.columns.size()) + " column chunks; the schema has " +
                                 std::to_string(columns) + " columns");
    }
    for (size_t c = 0; c < columns; ++c) {
      const ColumnChunk& cc = rg.columns[c];
      const std::string col = "column '" + schema_.columns()[c].DottedPath() + "': ";
      if (cc.file_path) return Status::NotSupported("Parquet file '" + file_->location() + "': " + where + col +
                                                    "column chunks in other files are not supported");
      if (!cc.meta_data) return BadFile(*file_, where + col + "no column metadata");
      const ColumnMetaData& m = *cc.meta_data;
      if (m.data_page_offset < 0 || m.total_compressed_size < 0 ||
          static_cast<uint64_t>(m.data_page_offset) > data_end ||
          static_cast<uint64_t>(m.total_compressed_size) > data_end || m.num_values < 0) {
        return BadFile(*file_, where + col + "column chunk lies outside the file");
      }
    }
  }
  return Status::OK();
}

Status ParquetReader::Select(const Schema& requested, const std::vector<FieldIdTree>& field_ids,
                             const ParquetReadOptions& options) {
  auto plan = BuildReadPlan(schema_, requested, field_ids);
  if (!plan.ok()) return plan.status().WithContext("Parquet file '" + file_->location() + "'");
  plan_ = std::move(plan).value();
  options_ = options;
  output_schema_ = requested;
  if (options.row_positions) output_schema_.Add(kRowPositionColumn, LogicalType::BigInt().WithNullable(false));
  row_groups_.clear();
  if (options.row_groups) {
    for (int g : *options.row_groups) {
      if (g < 0 || g >= num_row_groups()) {
        return Status::InvalidArgument("Parquet file '" + file_->location() + "' has no row group " + std::to_string(g));
      }
      row_groups_.push_back(g);
    }
  } else {
    for (int g = 0; g < num_row_groups(); ++g) row_groups_.push_back(g);
  }
  leaves_.clear();
  for (const LeafRead& leaf : plan_.leaves) {
    leaves_.emplace_back(schema_.columns()[leaf.column], leaf.conv, leaf.slot_def, leaf.keep_levels);
  }
  levels_.assign(plan_.leaves.size(), LeafLevels());
  values_.assign(plan_.leaves.size(), Vector());
  next_group_ = 0;
  current_group_ = -1;
  group_rows_left_ = 0;
  selected_ = true;
  return Status::OK();
}

Status ParquetReader::StartRowGroup(int g) {
  const RowGroup& rg = metadata_.row_groups[g];
  const uint64_t data_end = file_->size() - kFooterTail;
  for (size_t i = 0; i < plan_.leaves.size(); ++i) {
    const int c = plan_.leaves[i].column;
    const ColumnMetaData& m = *rg.columns[c].meta_data;
    uint64_t start = static_cast<uint64_t>(m.data_page_offset);
    if (m.dictionary_page_offset && *m.dictionary_page_offset > 0 &&
        static_cast<uint64_t>(*m.dictionary_page_offset) < start) {
      start = static_cast<uint64_t>(*m.dictionary_page_offset);
    }
    const uint64_t length = static_cast<uint64_t>(m.total_compressed_size);
    std::string context = "Parquet file '" + file_->location() + "', column '" + schema_.columns()[c].DottedPath() +
                          "', row group " + std::to_string(g);
    if (start < kMagicSize || start > data_end || length > data_end - start) {
      return Status::InvalidArgument(context + ": the column chunk lies outside the file");
    }
    RETURN_IF_ERROR(file_->ReadAt(start, static_cast<size_t>(length), leaves_[i].chunk_buffer()));
    RETURN_IF_ERROR(leaves_[i].Start(m, std::move(context)));
  }
  current_group_ = g;
  group_rows_left_ = rg.num_rows;
  next_position_ = first_row_[g];
  return Status::OK();
}

Status ParquetReader::ReadNext(size_t max_rows, Chunk* out) {
  if (!selected_) RETURN_IF_ERROR(Select(sluice_schema(), {}));
  while (group_rows_left_ == 0) {
    if (next_group_ == row_groups_.size()) {
      *out = Chunk(output_schema_);
      return Status::OK();
    }
    RETURN_IF_ERROR(StartRowGroup(row_groups_[next_group_++]));
  }
  const size_t n = static_cast<size_t>(std::min<int64_t>(static_cast<int64_t>(std::max<size_t>(max_rows, 1)),
                                                         group_rows_left_));
  for (size_t i = 0; i < leaves_.size(); ++i) {
    levels_[i].Clear();
    values_[i] = Vector(plan_.leaves[i].conv.target, 0);
    values_[i].Reserve(n);
    RETURN_IF_ERROR(leaves_[i].ReadRows(n, &levels_[i], &values_[i]));
  }
  std::vector<Vector> columns(output_schema_.size());
  for (size_t c = 0; c < plan_.columns.size(); ++c) {
    Status st = AssembleColumn(plan_.columns[c], &values_, levels_, n, &columns[c]);
    if (!st.ok()) {
      return st.WithContext("Parquet file '" + file_->location() + "', column '" + output_schema_.field(c).name +
                            "', row group " + std::to_string(current_group_));
    }
  }
  if (options_.row_positions) {
    Vector& pos = columns.back();
    pos = Vector(output_schema_.fields().back().type, n);
    int64_t* p = pos.data<int64_t>();
    for (size_t i = 0; i < n; ++i) p[i] = next_position_ + static_cast<int64_t>(i);
  }
  next_position_ += static_cast<int64_t>(n);
  group_rows_left_ -= static_cast<int64_t>(n);
  *out = Chunk();
  for (Vector& v : columns) out->AddColumn(std::move(v));
  // With no column at all (a count), the row count still has to travel.
  if (columns.empty()) {
    out->Resize(n);
  } else {
    out->SetSizeFromColumns();
  }
  return Status::OK();
}

}  // namespace sluice::parquet
