#include "connectors/filesystem/filesystem_connector.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <optional>
#include <system_error>

#include "common/check.h"
#include "common/file_io.h"
#include "common/time_util.h"
#include "connectors/builtin_connectors.h"
#include "connectors/connector_options.h"
#include "connectors/filesystem/filesystem_sink.h"
#include "connectors/filesystem/partition_path.h"
#include "formats/format.h"
#include "function/evaluator.h"
#include "function/scalar_function.h"
#include "types/vector.h"

namespace sluice {

namespace fs = std::filesystem;

namespace {

constexpr char kPath[] = "path";
constexpr char kFormat[] = "format";
constexpr size_t kReadBlock = size_t{1} << 20;

bool IsHidden(const fs::path& p) {
  std::string name = p.filename().string();
  return !name.empty() && (name[0] == '.' || name[0] == '_');
}

Status ErrnoError(const std::string& what, const std::string& path) {
  return Status::IOError(what + " '" + path + "': " + std::strerror(errno));
}

const std::vector<Field>& OfferedMetadata() {
  static const std::vector<Field> kMetadata = {{"file.path", LogicalType::String().WithNullable(false)},
                                               {"file.name", LogicalType::String().WithNullable(false)},
                                               {"file.size", LogicalType::BigInt().WithNullable(false)}};
  return kMetadata;
}

// Which version of a file a split read: its size and modification time (nanoseconds). A restore
// refuses to resume a file whose identity changed since the checkpoint.
struct FileIdentity {
  int64_t size = -1;
  int64_t mtime_ns = -1;
  bool operator==(const FileIdentity&) const = default;
};

FileIdentity IdentityOf(const struct stat& st) {
  return {static_cast<int64_t>(st.st_size),
          static_cast<int64_t>(st.st_mtim.tv_sec) * 1000000000 + static_cast<int64_t>(st.st_mtim.tv_nsec)};
}

// Where reading a file stands: the byte offset of the next record (a record boundary) and its
// line, the malformed records skipped before it, and how many rows decoded from there on were
// already emitted (a restore drops them again: a Debezium update gives two rows, and a checkpoint
// may fall between them or anywhere in a Read).
struct FilePosition {
  int64_t offset = 0;
  int64_t line = 1;
  int64_t skipped = 0;
  int64_t skip_rows = 0;
};

// How a partitioned table's file makes the projected columns: column i is decoded column decoded[i]
// (>= 0), or the file's partition value constants[i] (a one-row vector) when decoded[i] < 0.
struct PartitionColumns {
  std::vector<int> decoded;
  std::vector<Vector> constants;
};

// Reads one file in blocks; records are cut by the format and decoded batch by batch.
//
// Position checkpoints: "file-v1 <size> <mtime ns> <offset> <line> <skipped> <skip rows>" (see
// FilePosition). After n rows of the last Read: at its end when n is all of them (the offset after
// its last record), else where the Read began with n more rows to skip; a restore then re-decodes
// at most one Read's records, never the file before them.
class FileSplit final : public SourceSplit {
 public:
  // `decoded` is the schema the decoder produces; `partition` (a partitioned table's file) says how the
  // projected columns are made of decoded columns and the file's partition values.
  FileSplit(std::string path, std::unique_ptr<RecordDecoder> decoder, Schema decoded, std::vector<Field> metadata,
            std::optional<PartitionColumns> partition = std::nullopt)
      : path_(std::move(path)), decoder_(std::move(decoder)), metadata_(std::move(metadata)),
        partition_(std::move(partition)) {
    if (!metadata_.empty() || partition_) scratch_ = Chunk(decoded);
  }
  ~FileSplit() override {
    if (fd_ >= 0) ::close(fd_);
  }

  std::string id() const override { return path_; }
  int64_t records_skipped() const override { return skipped_base_ + decoder_->records_skipped(); }

  std::string CheckpointPosition(size_t rows_of_last_read) const override {
    SLUICE_CHECK_LE(rows_of_last_read, last_read_rows_);
    FilePosition p = read_start_;
    if (rows_of_last_read == last_read_rows_) {
      p = CurrentPosition();
    } else {
      p.skip_rows += static_cast<int64_t>(rows_of_last_read);
    }
    FileIdentity id = identity_;
    if (id.size < 0) {
      // Not opened yet: the file as it is now.
      struct stat st;
      if (::stat(path_.c_str(), &st) == 0) id = IdentityOf(st);
    }
    std::string out = kPositionTag;
    for (int64_t v : {id.size, id.mtime_ns, p.offset, p.line, p.skipped, p.skip_rows}) {
      out.push_back(' ');
      out.append(std::to_string(v));
    }
    return out;
  }

  Status SeekToPosition(const std::string& position) override {
    if (fd_ >= 0 || done_) return Status::Internal("file '" + path_ + "': SeekToPosition after the first Read");
    int64_t v[6];
    const char* p = position.data();
    const char* end = p + position.size();
    bool ok = position.rfind(kPositionTag, 0) == 0;
    if (ok) p += std::strlen(kPositionTag);
    for (int i = 0; i < 6 && ok; ++i) {
      ok = p < end && *p == ' ';
      if (!ok) break;
      ++p;
      auto [next, ec] = std::from_chars(p, end, v[i]);
      ok = ec == std::errc() && next != p;
      p = next;
    }
    const FileIdentity saved{ok ? v[0] : -1, ok ? v[1] : -1};
    const FilePosition pos{ok ? v[2] : 0, ok ? v[3] : 1, ok ? v[4] : 0, ok ? v[5] : 0};
    ok = ok && p == end && saved.size >= 0 && pos.offset >= 0 && pos.offset <= saved.size && pos.line >= 1 &&
         pos.skipped >= 0 && pos.skip_rows >= 0;
    if (!ok) {
      return Status::InvalidArgument("corrupt checkpoint position '" + position.substr(0, 100) + "' of file '" +
                                     path_ + "' (expected '" + kPositionTag +
                                     " <size> <mtime ns> <offset> <line> <skipped> <skip rows>')");
    }
    struct stat st;
    if (::stat(path_.c_str(), &st) != 0) return ErrnoError("Cannot read file", path_);
    RETURN_IF_ERROR(CheckUnchanged(saved, IdentityOf(st)));
    identity_ = saved;
    seek_ = true;
    read_start_ = pos;
    last_read_rows_ = 0;
    consumed_ = pos.offset;
    line_ = pos.line;
    skipped_base_ = pos.skipped;
    skip_rows_ = static_cast<size_t>(pos.skip_rows);
    return Status::OK();
  }

  Result<bool> Read(size_t max_rows, Chunk* out) override {
    read_start_ = CurrentPosition();
    last_read_rows_ = 0;
    if (done_) return false;
    if (fd_ < 0) RETURN_IF_ERROR(Open());
    // After a restore: the rows emitted before the checkpoint are decoded again and dropped.
    while (skip_rows_ > 0) {
      Chunk dropped;
      for (const auto& c : out->columns()) dropped.AddColumn(Vector(c.type()));
      ASSIGN_OR_RETURN(size_t n, ReadRows(skip_rows_, &dropped));
      if (n == 0) {
        return Status::InvalidArgument("file '" + path_ + "' ends " + std::to_string(skip_rows_) +
                                       " rows before the position of the checkpoint");
      }
      if (n > skip_rows_) {
        // The other row of a record whose first row was emitted (a Debezium update) comes first.
        out->AppendFrom(dropped, nullptr, skip_rows_, n - skip_rows_);
        last_read_rows_ = n - skip_rows_;
        skip_rows_ = 0;
        break;
      }
      skip_rows_ -= n;
    }
    if (last_read_rows_ < max_rows) {
      ASSIGN_OR_RETURN(size_t n, ReadRows(max_rows - last_read_rows_, out));
      last_read_rows_ += n;
    }
    if (last_read_rows_ == 0 && eof_ && begin_ == end_) {
      done_ = true;
      ::close(fd_);
      fd_ = -1;
      return false;
    }
    return true;
  }

 private:
  static constexpr char kPositionTag[] = "file-v1";

  FilePosition CurrentPosition() const {
    return {consumed_, line_, records_skipped(), static_cast<int64_t>(skip_rows_)};
  }

  Status CheckUnchanged(const FileIdentity& saved, const FileIdentity& now) const {
    if (saved == now) return Status::OK();
    auto describe = [](const FileIdentity& id) {
      return std::to_string(id.size) + " bytes, modified " + FormatTimestamp(FloorDiv(id.mtime_ns, 1000), 6) + " UTC";
    };
    return Status::InvalidArgument("file '" + path_ + "' changed since the checkpoint (then " + describe(saved) +
                                   "; now " + describe(now) + "): its read position no longer applies");
  }

  // Appends the rows of whole records to `out` until at least `max_rows` (a record's rows are
  // never split) or the end of the file; returns how many.
  Result<size_t> ReadRows(size_t max_rows, Chunk* out) {
    size_t appended = 0;
    while (appended < max_rows) {
      records_.clear();
      // A changelog format's record may yield two rows (-U, +U): ask for fewer records then.
      const size_t per_record = decoder_->max_rows_per_record();
      size_t used = decoder_->SplitRecords(std::string_view(buffer_.get() + begin_, end_ - begin_), eof_,
                                           (max_rows - appended + per_record - 1) / per_record, &line_, &records_);
      begin_ += used;
      consumed_ += static_cast<int64_t>(used);
      if (!records_.empty()) {
        RecordBatch batch{records_.data(), records_.size(), path_, true};
        ASSIGN_OR_RETURN(size_t n, DecodeInto(batch, out));
        appended += n;  // keep filling the chunk (the records' bytes are no longer needed)
        continue;
      }
      if (eof_) {
        if (begin_ == end_) break;
        continue;
      }
      RETURN_IF_ERROR(Refill());
    }
    return appended;
  }

  Status Open() {
    fd_ = ::open(path_.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd_ < 0) return ErrnoError("Cannot open file", path_);
    struct stat st;
    if (::fstat(fd_, &st) != 0) return ErrnoError("Cannot read file", path_);
    if (seek_) {
      // Checked again on the open file (it may have changed since SeekToPosition).
      RETURN_IF_ERROR(CheckUnchanged(identity_, IdentityOf(st)));
      if (::lseek(fd_, static_cast<off_t>(consumed_), SEEK_SET) < 0) return ErrnoError("Cannot seek in file", path_);
    }
    identity_ = IdentityOf(st);
    capacity_ = kReadBlock;
    buffer_.reset(new char[capacity_ + kRecordPadding]);
    std::memset(buffer_.get(), ' ', capacity_ + kRecordPadding);
    if (!metadata_.empty()) {
      std::error_code ec;
      file_size_ = static_cast<int64_t>(fs::file_size(path_, ec));
    }
    return Status::OK();
  }

  Status Refill() {
    if (begin_ > 0) {
      std::memmove(buffer_.get(), buffer_.get() + begin_, end_ - begin_);
      end_ -= begin_;
      begin_ = 0;
    }
    if (end_ == capacity_) {
      // One record is longer than the block: grow so it fits.
      size_t grown = capacity_ * 2;
      std::unique_ptr<char[]> bigger(new char[grown + kRecordPadding]);
      std::memcpy(bigger.get(), buffer_.get(), end_);
      std::memset(bigger.get() + end_, ' ', grown + kRecordPadding - end_);
      buffer_ = std::move(bigger);
      capacity_ = grown;
    }
    ssize_t n;
    do {
      n = ::read(fd_, buffer_.get() + end_, capacity_ - end_);
    } while (n < 0 && errno == EINTR);
    if (n < 0) return ErrnoError("Cannot read file", path_);
    if (n == 0) eof_ = true;
    end_ += static_cast<size_t>(n);
    SkipByteOrderMark();
    return Status::OK();
  }

  // A UTF-8 byte-order mark at the start of the file is not part of the first record (Jackson, which
  // Flink's json and csv formats read with, skips it too).
  void SkipByteOrderMark() {
    static constexpr char kBom[] = "\xEF\xBB\xBF";
    if (consumed_ != 0 || begin_ != 0 || end_ < 3) return;
    if (std::memcmp(buffer_.get(), kBom, 3) != 0) return;
    begin_ = 3;
    consumed_ = 3;
  }

  // Decodes into `out` directly, or through a scratch chunk when metadata columns follow.
  Result<size_t> DecodeInto(const RecordBatch& batch, Chunk* out) {
    size_t before = out->size();
    if (metadata_.empty() && !partition_) {
      RETURN_IF_ERROR(decoder_->Decode(batch, out));
      return out->size() - before;
    }
    scratch_.Resize(0);
    for (auto& c : scratch_.columns()) c.Clear();
    RETURN_IF_ERROR(decoder_->Decode(batch, &scratch_));
    const size_t n = scratch_.size();
    size_t ncols = scratch_.num_columns();
    if (partition_) {
      // A partition value is the same for every row of the file: gathered from its one-row vector.
      if (zeros_.size() < n) zeros_.resize(n, 0);
      ncols = partition_->decoded.size();
      for (size_t c = 0; c < ncols; ++c) {
        const int from = partition_->decoded[c];
        if (from >= 0) {
          out->column(c).AppendFrom(scratch_.column(static_cast<size_t>(from)), nullptr, 0, n);
        } else {
          out->column(c).AppendFrom(partition_->constants[c], zeros_.data(), 0, n);
        }
      }
    } else {
      for (size_t c = 0; c < ncols; ++c) out->column(c).AppendFrom(scratch_.column(c), nullptr, 0, n);
    }
    for (size_t m = 0; m < metadata_.size(); ++m) {
      Vector& col = out->column(ncols + m);
      const std::string& key = metadata_[m].name;
      size_t start = col.size();
      col.Resize(start + n);
      for (size_t i = 0; i < n; ++i) {
        if (key == "file.size") {
          col.data<int64_t>()[start + i] = file_size_;
        } else if (key == "file.path") {
          col.SetString(start + i, path_);
        } else {
          col.SetString(start + i, fs::path(path_).filename().string());
        }
      }
    }
    out->kind_vector().insert(out->kind_vector().end(), scratch_.kinds(), scratch_.kinds() + n);
    return n;
  }

  std::string path_;
  std::unique_ptr<RecordDecoder> decoder_;
  std::vector<Field> metadata_;
  std::optional<PartitionColumns> partition_;
  std::vector<uint32_t> zeros_;  // a selection of row 0, for partition values
  Chunk scratch_;
  int fd_ = -1;
  bool eof_ = false;
  bool done_ = false;
  std::unique_ptr<char[]> buffer_;
  size_t capacity_ = 0;
  size_t begin_ = 0;
  size_t end_ = 0;
  int64_t line_ = 1;
  int64_t file_size_ = 0;
  std::vector<TextRecord> records_;
  // Checkpoint positions (see the class comment).
  FileIdentity identity_;      // of the open file, or the one a restore expects
  bool seek_ = false;          // restored: Open seeks to consumed_ and checks identity_
  int64_t consumed_ = 0;       // the file offset of buffer_[begin_] (the next record)
  int64_t skipped_base_ = 0;   // malformed records skipped before a restored position
  size_t skip_rows_ = 0;       // rows to drop before the next row returned
  FilePosition read_start_;    // where the last Read began
  size_t last_read_rows_ = 0;  // the rows the last Read appended
};

class FileSystemSource final : public TableSource {
 public:
  FileSystemSource(ConnectorContext ctx, const FormatFactory* format) : ctx_(std::move(ctx)), format_(format) {}
  bool bounded() const override { return true; }
  // Changelog formats (debezium-json) make the files a changelog.
  ChangelogMode changelog_mode() const override { return format_->changelog_mode(); }
  // A partitioned table's scan: the files read and those its partition filters skipped.
  std::vector<std::pair<std::string, std::string>> SummaryFields() const override {
    if (ctx_.partition_keys.empty()) return {};
    return {{"result-files", std::to_string(result_files_)}, {"skipped-files", std::to_string(skipped_files_)}};
  }

  Result<std::vector<std::unique_ptr<SourceSplit>>> CreateSplits() override {
    const std::string context = ConnectorErrorContext(ctx_, ConnectorRole::kSource);
    auto files = ListSourceFiles(LocalPathOf(ctx_.options.at(kPath)));
    if (!files.ok()) return files.status().WithContext(context);
    Schema projected;
    if (ctx_.projection.empty()) {
      projected = ctx_.physical_schema;
    } else {
      for (int i : ctx_.projection) projected.Add(ctx_.physical_schema.field(static_cast<size_t>(i)).name,
                                                  ctx_.physical_schema.field(static_cast<size_t>(i)).type);
    }
    std::vector<std::unique_ptr<SourceSplit>> splits;
    if (!ctx_.partition_keys.empty()) {
      auto partitioned = PartitionedSplits(*files, &splits);
      if (!partitioned.ok()) return partitioned.WithContext(context);
      return splits;
    }
    for (const auto& file : *files) {
      auto decoder = format_->CreateDecoder(ctx_.physical_schema, ctx_.projection, ConnectorOptionReader(ctx_));
      if (!decoder.ok()) return decoder.status().WithContext(context);
      splits.push_back(std::make_unique<FileSplit>(file, std::move(decoder).value(), projected, ctx_.metadata));
    }
    return splits;
  }

 private:
  // A partitioned table (Flink's FileSystemTableSource with partition keys): the files in directories
  // one 'key=value' level per partition key (others are not the table's), partition columns restored
  // from the path, partitions that the pushed-down filters rule out skipped.
  Status PartitionedSplits(const std::vector<std::string>& files, std::vector<std::unique_ptr<SourceSplit>>* splits) {
    const OptionReader options = ConnectorOptionReader(ctx_);
    ASSIGN_OR_RETURN(PartitionComputer pc,
                     PartitionComputer::Make(ctx_.physical_schema, ctx_.partition_keys,
                                             options.GetString(kPartitionDefaultName, kDefaultPartitionName)));
    Schema data_schema;
    std::vector<int> data_index(ctx_.physical_schema.size(), -1);
    for (int c : pc.data_columns()) {
      data_index[static_cast<size_t>(c)] = static_cast<int>(data_schema.size());
      data_schema.Add(ctx_.physical_schema.field(static_cast<size_t>(c)).name,
                      ctx_.physical_schema.field(static_cast<size_t>(c)).type);
    }
    std::vector<int> projection = ctx_.projection;
    if (projection.empty()) {
      for (size_t i = 0; i < ctx_.physical_schema.size(); ++i) projection.push_back(static_cast<int>(i));
    }
    // The decoder reads the projected data columns in order of appearance (at least one column).
    std::vector<int> data_projection;
    std::vector<int> decoded_of;  // per projected column: its position among the decoded ones, or -1
    for (int c : projection) {
      const int d = data_index[static_cast<size_t>(c)];
      decoded_of.push_back(d < 0 ? -1 : static_cast<int>(data_projection.size()));
      if (d >= 0) data_projection.push_back(d);
    }
    if (data_projection.empty()) data_projection.push_back(0);
    Schema decoded;
    for (int d : data_projection) decoded.Add(data_schema.field(static_cast<size_t>(d)).name,
                                              data_schema.field(static_cast<size_t>(d)).type);
    // One row per partition directory, in the table's physical columns (data columns NULL), for the filters.
    const std::string root = LocalPathOf(ctx_.options.at(kPath));
    std::vector<std::pair<std::string, std::vector<std::string>>> dirs;  // directory, values
    std::vector<std::pair<size_t, std::string>> kept_files;              // partition, file
    std::vector<std::string> values;
    for (const std::string& file : files) {
      const std::string rel = fs::path(file).parent_path().lexically_relative(root).generic_string();
      if (!ParsePartitionDirectory(rel, ctx_.partition_keys, &values)) continue;
      if (dirs.empty() || dirs.back().first != rel) dirs.emplace_back(rel, values);
      kept_files.emplace_back(dirs.size() - 1, file);
    }
    Chunk partitions(ctx_.physical_schema);
    partitions.Resize(0);
    for (auto& col : partitions.columns()) col.Clear();
    for (const auto& [rel, vals] : dirs) {
      for (size_t c = 0; c < ctx_.physical_schema.size(); ++c) {
        if (data_index[c] >= 0) partitions.column(c).AppendValue(Value::Null(ctx_.physical_schema.field(c).type));
      }
      for (size_t k = 0; k < vals.size(); ++k) {
        const size_t c = static_cast<size_t>(pc.partition_columns()[k]);
        RETURN_IF_ERROR(AppendPartitionValue(vals[k], vals[k] == pc.default_name(), ctx_.partition_keys[k],
                                             &partitions.column(c)));
      }
      partitions.kind_vector().push_back(RowKind::kInsert);
    }
    std::vector<bool> selected(dirs.size(), true);
    EvalContext eval;
    for (const ExprPtr& filter : ctx_.filters) {
      ExprEvaluator evaluator({filter}, &eval);
      std::vector<uint32_t> sel;
      // A filter that fails on some partition's values prunes nothing: the query reports the error.
      if (!evaluator.Filter(partitions, &sel).ok()) continue;
      std::vector<bool> pass(dirs.size(), false);
      for (uint32_t r : sel) pass[r] = true;
      for (size_t i = 0; i < dirs.size(); ++i) selected[i] = selected[i] && pass[i];
    }
    for (const auto& [partition, file] : kept_files) {
      if (!selected[partition]) {
        ++skipped_files_;
        continue;
      }
      ++result_files_;
      PartitionColumns plan;
      plan.decoded = decoded_of;
      for (size_t i = 0; i < projection.size(); ++i) {
        Vector constant(ctx_.physical_schema.field(static_cast<size_t>(projection[i])).type);
        if (decoded_of[i] < 0) constant.AppendRow(partitions.column(static_cast<size_t>(projection[i])), partition);
        plan.constants.push_back(std::move(constant));
      }
      ASSIGN_OR_RETURN(auto decoder, format_->CreateDecoder(data_schema, data_projection, options));
      splits->push_back(std::make_unique<FileSplit>(file, std::move(decoder), decoded, ctx_.metadata, std::move(plan)));
    }
    return Status::OK();
  }

  ConnectorContext ctx_;
  const FormatFactory* format_;
  int64_t result_files_ = 0;
  int64_t skipped_files_ = 0;
};

// Whether `e` reads only the flagged columns and calls only deterministic functions.
bool OnPartitionColumnsOnly(const Expr& e, const std::vector<bool>& partition_column) {
  if (e.kind == ExprKind::kColumnRef) {
    return e.column_index >= 0 && static_cast<size_t>(e.column_index) < partition_column.size() &&
           partition_column[static_cast<size_t>(e.column_index)];
  }
  if (e.kind == ExprKind::kCall && (e.function == nullptr || !e.function->deterministic)) return false;
  for (const ExprPtr& a : e.args) {
    if (!OnPartitionColumnsOnly(*a, partition_column)) return false;
  }
  return true;
}

class FileSystemFactory final : public ConnectorFactory {
 public:
  std::string identifier() const override { return "filesystem"; }
  std::vector<OptionSpec> options() const override {
    std::vector<OptionSpec> specs = {
        {kPath, true, "", "A regular file or a directory (read recursively, hidden files and anything but regular files skipped; a "
         "UTF-8 byte-order mark opening a file is skipped); a directory for sinks. A FIFO, socket or device as the path is "
         "refused (it could block forever)."},
        {kFormat, true, "", "The format of the files: 'json', 'csv' or 'debezium-json' (a changelog: read as one, and lets the sink take updating queries)."},
    };
    for (OptionSpec& spec : FileSystemSinkOptions()) specs.push_back(std::move(spec));
    return specs;
  }
  std::vector<Field> metadata() const override { return OfferedMetadata(); }
  bool supports_source() const override { return true; }
  // Partition pruning: a conjunct over partition columns only (deterministic) lets the source skip the
  // partitions it rules out; the query still applies it (and reports its errors, if any).
  bool supports_filter_push_down() const override { return true; }
  Result<std::vector<bool>> ApplyFilters(const ConnectorContext& ctx, const std::vector<ExprPtr>& filters) const override {
    std::vector<bool> partition_column(ctx.physical_schema.size(), false);
    for (const std::string& key : ctx.partition_keys) {
      for (size_t i = 0; i < ctx.physical_schema.size(); ++i) {
        if (ctx.physical_schema.field(i).name == key) partition_column[i] = true;
      }
    }
    std::vector<bool> accepted;
    for (const ExprPtr& f : filters) {
      accepted.push_back(!ctx.partition_keys.empty() && OnPartitionColumnsOnly(*f, partition_column));
    }
    return accepted;
  }
  bool supports_sink() const override { return true; }

  Result<std::unique_ptr<TableSource>> CreateSource(const ConnectorContext& ctx) const override {
    ASSIGN_OR_RETURN(const FormatFactory* format, ValidateConnectorOptions(ctx, *this, ConnectorRole::kSource));
    const std::string context = ConnectorErrorContext(ctx, ConnectorRole::kSource);
    if (format->binary_records()) {
      // Binary records (avro, raw) need a file layout of their own (Avro container files), which this
      // connector does not have yet; cutting them at line breaks would corrupt them.
      return Status::NotSupported("The filesystem connector does not support the '" + format->identifier() +
                                  "' format yet").WithContext(context);
    }
    for (const Field& m : ctx.metadata) {
      bool offered = false;
      for (const Field& o : OfferedMetadata()) offered = offered || o.name == m.name;
      if (!offered) {
        return Status::InvalidArgument("the filesystem connector offers no metadata key '" + m.name +
                                       "' (available: file.path, file.name, file.size)")
            .WithContext(context);
      }
    }
    // Check the options (and the format's) now, so a bad value fails before any file is opened.
    auto decoder = format->CreateDecoder(ctx.physical_schema, ctx.projection, ConnectorOptionReader(ctx));
    if (!decoder.ok()) return decoder.status().WithContext(context);
    return std::unique_ptr<TableSource>(new FileSystemSource(ctx, format));
  }

  Result<std::unique_ptr<TableSink>> CreateSink(const ConnectorContext& ctx) const override {
    ASSIGN_OR_RETURN(const FormatFactory* format, ValidateConnectorOptions(ctx, *this, ConnectorRole::kSink));
    const std::string context = ConnectorErrorContext(ctx, ConnectorRole::kSink);
    if (format->binary_records()) {
      // Binary records (avro, raw) need a file layout of their own (Avro container files), which this
      // connector does not have yet; cutting them at line breaks would corrupt them.
      return Status::NotSupported("The filesystem connector does not support the '" + format->identifier() +
                                  "' format yet").WithContext(context);
    }
    return CreateFileSystemSink(ctx, format);
  }
};

}  // namespace

namespace {

std::string FileKindName(fs::file_type type) {
  switch (type) {
    case fs::file_type::fifo:
      return "a FIFO";
    case fs::file_type::socket:
      return "a socket";
    case fs::file_type::block:
      return "a block device";
    case fs::file_type::character:
      return "a character device";
    default:
      return "not a file";
  }
}

}  // namespace

Result<std::vector<std::string>> ListSourceFiles(const std::string& path) {
  std::error_code ec;
  fs::file_status st = fs::status(path, ec);
  if (ec || !fs::exists(st)) return Status::NotFound("path '" + path + "' does not exist");
  if (fs::is_regular_file(st)) return std::vector<std::string>{path};
  if (!fs::is_directory(st)) {
    // Reading a FIFO without a writer, a socket or a device would block forever or never end.
    return Status::InvalidArgument("path '" + path + "' is not a regular file or a directory (" + FileKindName(st.type()) +
                                   "); the filesystem connector reads files");
  }
  std::vector<std::string> files;
  fs::recursive_directory_iterator it(path, fs::directory_options::follow_directory_symlink, ec);
  if (ec) return Status::IOError("Cannot list directory '" + path + "': " + ec.message());
  for (; it != fs::recursive_directory_iterator(); it.increment(ec)) {
    if (ec) return Status::IOError("Cannot list directory '" + path + "': " + ec.message());
    if (IsHidden(it->path())) {
      if (it->is_directory(ec)) it.disable_recursion_pending();
      continue;
    }
    if (it->is_regular_file(ec)) files.push_back(it->path().string());
  }
  std::sort(files.begin(), files.end());
  return files;
}

std::unique_ptr<ConnectorFactory> MakeFilesystemConnectorFactory() { return std::make_unique<FileSystemFactory>(); }

}  // namespace sluice
