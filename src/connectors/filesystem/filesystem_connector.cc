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
#include <system_error>

#include "common/check.h"
#include "common/file_io.h"
#include "common/time_util.h"
#include "connectors/builtin_connectors.h"
#include "connectors/connector_options.h"
#include "formats/format.h"
#include "types/vector.h"

namespace sluice {

namespace fs = std::filesystem;

namespace {

constexpr char kPath[] = "path";
constexpr char kFormat[] = "format";
constexpr char kRollingFileSize[] = "sink.rolling-policy.file-size";
constexpr int64_t kDefaultRollingFileSize = int64_t{128} << 20;
constexpr size_t kReadBlock = size_t{1} << 20;
constexpr size_t kWriteBuffer = size_t{1} << 20;

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

// Reads one file in blocks; records are cut by the format and decoded batch by batch.
//
// Position checkpoints: "file-v1 <size> <mtime ns> <offset> <line> <skipped> <skip rows>" (see
// FilePosition). After n rows of the last Read: at its end when n is all of them (the offset after
// its last record), else where the Read began with n more rows to skip; a restore then re-decodes
// at most one Read's records, never the file before them.
class FileSplit final : public SourceSplit {
 public:
  FileSplit(std::string path, std::unique_ptr<RecordDecoder> decoder, Schema projected, std::vector<Field> metadata)
      : path_(std::move(path)), decoder_(std::move(decoder)), metadata_(std::move(metadata)) {
    if (!metadata_.empty()) scratch_ = Chunk(projected);
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
    if (metadata_.empty()) {
      RETURN_IF_ERROR(decoder_->Decode(batch, out));
      return out->size() - before;
    }
    scratch_.Resize(0);
    for (auto& c : scratch_.columns()) c.Clear();
    RETURN_IF_ERROR(decoder_->Decode(batch, &scratch_));
    const size_t n = scratch_.size();
    const size_t ncols = scratch_.num_columns();
    for (size_t c = 0; c < ncols; ++c) out->column(c).AppendFrom(scratch_.column(c), nullptr, 0, n);
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
    for (const auto& file : *files) {
      auto decoder = format_->CreateDecoder(ctx_.physical_schema, ctx_.projection, ConnectorOptionReader(ctx_));
      if (!decoder.ok()) return decoder.status().WithContext(context);
      splits.push_back(std::make_unique<FileSplit>(file, std::move(decoder).value(), projected, ctx_.metadata));
    }
    return splits;
  }

 private:
  ConnectorContext ctx_;
  const FormatFactory* format_;
};

class FileWriter final : public SinkWriter {
 public:
  FileWriter(std::string dir, std::string extension, int writer_index, int first_file, int64_t roll_bytes,
             std::unique_ptr<RecordEncoder> encoder, bool append_only = true)
      : append_only_(append_only),
        dir_(std::move(dir)),
        extension_(std::move(extension)),
        writer_index_(writer_index),
        file_counter_(first_file),
        roll_bytes_(roll_bytes),
        encoder_(std::move(encoder)) {}
  ~FileWriter() override {
    if (file_ != nullptr) std::fclose(file_);
  }

  Status Write(const Chunk& chunk) override {
    if (append_only_ && !chunk.AllInserts()) {
      return Status::RuntimeError("The filesystem sink writing '" + dir_ +
                                  "' is append-only and cannot store update or delete changes");
    }
    RETURN_IF_ERROR(encoder_->Encode(chunk, &buffer_));
    if (static_cast<int64_t>(buffer_.size()) >= std::min<int64_t>(kWriteBuffer, roll_bytes_)) RETURN_IF_ERROR(Flush());
    return Status::OK();
  }

  Status Finish() override {
    RETURN_IF_ERROR(Flush());
    return CloseFile();
  }

  // Exactly-once (Flink's FileSink): files stay hidden ('.part-...inprogress') until the checkpoint
  // that covers them completes. A checkpoint rolls the open file; the committables list the closed
  // files and the next file number. Leftovers of a crashed attempt (hidden files numbered from the
  // first file this writer would write) are removed when the job starts afresh or restores.
  bool EnableTwoPhaseCommit() override {
    two_phase_ = true;
    return true;
  }

  Result<std::string> PreCommit(int64_t) override {
    RETURN_IF_ERROR(Flush());
    RETURN_IF_ERROR(CloseFile());
    std::string out = std::to_string(file_counter_) + "\n";
    for (const auto& [tmp, final_path] : pending_) out += tmp + "\t" + final_path + "\n";
    pending_.clear();
    return out;
  }

  Status Commit(const std::string& committables) override {
    int64_t counter = 0;
    std::vector<std::pair<std::string, std::string>> files;
    RETURN_IF_ERROR(ParseCommittables(committables, &counter, &files));
    for (const auto& [tmp, final_path] : files) {
      std::error_code ec;
      if (fs::exists(tmp, ec)) {
        fs::rename(tmp, final_path, ec);
        if (ec) return Status::IOError("Cannot commit '" + tmp + "' as '" + final_path + "': " + ec.message());
      } else if (!fs::exists(final_path, ec)) {
        return Status::IOError("Cannot commit '" + final_path + "': its pending file '" + tmp +
                               "' is gone (was the sink directory changed after the checkpoint?)");
      }
    }
    return Status::OK();
  }

  Status RecoverAndCommit(const std::string& committables) override {
    if (committables.empty()) {
      // A fresh start: what a crashed attempt left in progress is discarded.
      RemoveInProgressFrom(file_counter_);
      return Status::OK();
    }
    RETURN_IF_ERROR(Commit(committables));
    int64_t counter = 0;
    std::vector<std::pair<std::string, std::string>> files;
    RETURN_IF_ERROR(ParseCommittables(committables, &counter, &files));
    file_counter_ = static_cast<int>(counter);
    // Files written after the restored checkpoint are discarded: the job writes them again.
    RemoveInProgressFrom(file_counter_);
    return Status::OK();
  }

 private:
  Status ParseCommittables(const std::string& text, int64_t* counter,
                           std::vector<std::pair<std::string, std::string>>* files) const {
    size_t nl = text.find('\n');
    const std::string first = text.substr(0, nl);
    if (nl == std::string::npos || first.empty() || first.size() > 9 ||
        !std::all_of(first.begin(), first.end(), [](char c) { return c >= '0' && c <= '9'; })) {
      return Status::IOError("Corrupt filesystem sink state for '" + dir_ + "'");
    }
    *counter = std::stoll(first);
    size_t pos = nl + 1;
    while (pos < text.size()) {
      size_t end = text.find('\n', pos);
      size_t tab = text.find('\t', pos);
      if (end == std::string::npos || tab == std::string::npos || tab > end) {
        return Status::IOError("Corrupt filesystem sink state for '" + dir_ + "'");
      }
      files->emplace_back(text.substr(pos, tab - pos), text.substr(tab + 1, end - tab - 1));
      pos = end + 1;
    }
    return Status::OK();
  }

  // Removes this writer's hidden in-progress files numbered `from` or later.
  void RemoveInProgressFrom(int from) {
    const std::string prefix = ".part-" + std::to_string(writer_index_) + "-";
    const std::string suffix = "." + extension_ + ".inprogress";
    std::error_code ec;
    std::vector<fs::path> doomed;
    for (const auto& entry : fs::directory_iterator(dir_, ec)) {
      std::string name = entry.path().filename().string();
      if (name.rfind(prefix, 0) != 0 || name.size() <= prefix.size() + suffix.size() ||
          name.compare(name.size() - suffix.size(), suffix.size(), suffix) != 0) {
        continue;
      }
      std::string digits = name.substr(prefix.size(), name.size() - prefix.size() - suffix.size());
      if (digits.empty() || digits.size() > 9 ||
          !std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; })) {
        continue;
      }
      if (std::stoi(digits) >= from) doomed.push_back(entry.path());
    }
    for (const auto& p : doomed) fs::remove(p, ec);
  }

  std::string FinalName() const {
    std::string name = "part-";
    name.append(std::to_string(writer_index_));
    name.push_back('-');
    name.append(std::to_string(file_counter_));
    name.push_back('.');
    name.append(extension_);
    return name;
  }

  Status Flush() {
    if (buffer_.empty()) return Status::OK();
    if (file_ == nullptr) {
      std::string hidden = ".";
      hidden.append(FinalName());
      hidden.append(".inprogress");
      in_progress_ = (fs::path(dir_) / hidden).string();
      file_ = std::fopen(in_progress_.c_str(), "wb");
      if (file_ == nullptr) return ErrnoError("Cannot create file", in_progress_);
      bytes_in_file_ = 0;
    }
    if (std::fwrite(buffer_.data(), 1, buffer_.size(), file_) != buffer_.size()) {
      return ErrnoError("Cannot write file", in_progress_);
    }
    bytes_in_file_ += static_cast<int64_t>(buffer_.size());
    buffer_.clear();
    if (bytes_in_file_ >= roll_bytes_) RETURN_IF_ERROR(CloseFile());
    return Status::OK();
  }

  Status CloseFile() {
    if (file_ == nullptr) return Status::OK();
    int rc = std::fflush(file_);
    if (rc == 0 && two_phase_) rc = ::fsync(::fileno(file_));
    rc |= std::fclose(file_);
    file_ = nullptr;
    if (rc != 0) return ErrnoError("Cannot write file", in_progress_);
    std::string final_path = (fs::path(dir_) / FinalName()).string();
    if (two_phase_) {
      // Pending until the checkpoint that covers it completes.
      pending_.emplace_back(in_progress_, final_path);
      ++file_counter_;
      return Status::OK();
    }
    std::error_code ec;
    fs::rename(in_progress_, final_path, ec);
    if (ec) return Status::IOError("Cannot rename '" + in_progress_ + "' to '" + final_path + "': " + ec.message());
    ++file_counter_;
    return Status::OK();
  }

  bool append_only_;  // false for changelog formats, which encode every RowKind
  std::string dir_;
  std::string extension_;
  int writer_index_;
  int file_counter_;
  int64_t roll_bytes_;
  std::unique_ptr<RecordEncoder> encoder_;
  std::string buffer_;
  std::FILE* file_ = nullptr;
  std::string in_progress_;
  int64_t bytes_in_file_ = 0;
  bool two_phase_ = false;
  std::vector<std::pair<std::string, std::string>> pending_;  // closed files: hidden path, final path
};

class FileSystemSink final : public TableSink {
 public:
  FileSystemSink(ConnectorContext ctx, const FormatFactory* format, int64_t roll_bytes)
      : ctx_(std::move(ctx)), format_(format), roll_bytes_(roll_bytes) {}
  // Append-only, unless the format encodes changes (debezium-json), as Flink's FileSystemTableSink.
  ChangelogMode accepted_changelog_mode() const override { return format_->changelog_mode(); }

  Result<std::unique_ptr<SinkWriter>> CreateWriter() override {
    const std::string context = ConnectorErrorContext(ctx_, ConnectorRole::kSink);
    const std::string dir = LocalPathOf(ctx_.options.at(kPath));
    std::error_code ec;
    if (fs::exists(dir, ec) && !fs::is_directory(dir, ec)) {
      return Status::InvalidArgument("the sink path '" + dir +
                                     "' is a file; the filesystem sink writes files into a directory")
          .WithContext(context);
    }
    fs::create_directories(dir, ec);
    if (ec) return Status::IOError("Cannot create directory '" + dir + "': " + ec.message()).WithContext(context);
    const int writer = next_writer_++;
    // Continue the numbering after files of earlier runs, so an INSERT appends instead of overwriting.
    std::string prefix = "part-";
    prefix.append(std::to_string(writer));
    prefix.push_back('-');
    std::string suffix = ".";
    suffix.append(format_->file_extension());
    int first = 0;
    for (const auto& entry : fs::directory_iterator(dir, ec)) {
      std::string name = entry.path().filename().string();
      if (name.rfind(prefix, 0) != 0 || name.size() <= prefix.size() + suffix.size() ||
          name.compare(name.size() - suffix.size(), suffix.size(), suffix) != 0) {
        continue;
      }
      std::string digits = name.substr(prefix.size(), name.size() - prefix.size() - suffix.size());
      if (digits.empty() || digits.size() > 9 || !std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; })) continue;
      first = std::max(first, std::stoi(digits) + 1);
    }
    auto encoder = format_->CreateEncoder(ctx_.physical_schema, ConnectorOptionReader(ctx_));
    if (!encoder.ok()) return encoder.status().WithContext(context);
    return std::unique_ptr<SinkWriter>(
        new FileWriter(dir, format_->file_extension(), writer, first, roll_bytes_, std::move(encoder).value(),
                       format_->changelog_mode().IsInsertOnly()));
  }

 private:
  ConnectorContext ctx_;
  const FormatFactory* format_;
  int64_t roll_bytes_;
  int next_writer_ = 0;
};

class FileSystemFactory final : public ConnectorFactory {
 public:
  std::string identifier() const override { return "filesystem"; }
  std::vector<OptionSpec> options() const override {
    return {
        {kPath, true, "", "A regular file or a directory (read recursively, hidden files and anything but regular files skipped; a "
         "UTF-8 byte-order mark opening a file is skipped); a directory for sinks. A FIFO, socket or device as the path is "
         "refused (it could block forever)."},
        {kFormat, true, "", "The format of the files: 'json', 'csv' or 'debezium-json' (a changelog: read as one, and lets the sink take updating queries)."},
        {kRollingFileSize, false, "128 mb", "A sink starts a new part file once the current one is this large."},
    };
  }
  std::vector<Field> metadata() const override { return OfferedMetadata(); }
  bool supports_source() const override { return true; }
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
    auto roll = ConnectorOptionReader(ctx).GetMemorySize(kRollingFileSize, kDefaultRollingFileSize);
    if (!roll.ok()) return roll.status().WithContext(context);
    if (*roll <= 0) {
      return ConnectorOptionReader(ctx).InvalidValue(kRollingFileSize, "must be positive").WithContext(context);
    }
    auto encoder = format->CreateEncoder(ctx.physical_schema, ConnectorOptionReader(ctx));
    if (!encoder.ok()) return encoder.status().WithContext(context);
    return std::unique_ptr<TableSink>(new FileSystemSink(ctx, format, *roll));
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
