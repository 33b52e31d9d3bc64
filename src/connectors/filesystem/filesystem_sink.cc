#include "connectors/filesystem/filesystem_sink.h"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <limits>
#include <optional>
#include <system_error>
#include <unordered_map>

#include "common/clock.h"
#include "common/file_io.h"
#include "connectors/connector_options.h"
#include "connectors/filesystem/partition_committer.h"
#include "connectors/filesystem/partition_path.h"
#include "connectors/sink_time_listener.h"

namespace sluice {

namespace fs = std::filesystem;

namespace {

constexpr char kRollingFileSize[] = "sink.rolling-policy.file-size";
constexpr char kRolloverInterval[] = "sink.rolling-policy.rollover-interval";
constexpr char kInactivityInterval[] = "sink.rolling-policy.inactivity-interval";
constexpr char kCheckInterval[] = "sink.rolling-policy.check-interval";
constexpr char kShuffleByPartition[] = "sink.shuffle-by-partition.enable";
constexpr int64_t kDefaultRollingFileSize = int64_t{128} << 20;
constexpr size_t kWriteBuffer = size_t{1} << 20;

Status ErrnoError(const std::string& what, const std::string& path) {
  return Status::IOError(what + " '" + path + "': " + std::strerror(errno));
}

// "<digits>" of a name "<prefix><digits><suffix>", or nullopt.
std::optional<int> FileNumber(const std::string& name, const std::string& prefix, const std::string& suffix) {
  if (name.rfind(prefix, 0) != 0 || name.size() <= prefix.size() + suffix.size() ||
      name.compare(name.size() - suffix.size(), suffix.size(), suffix) != 0) {
    return std::nullopt;
  }
  std::string digits = name.substr(prefix.size(), name.size() - prefix.size() - suffix.size());
  if (digits.empty() || digits.size() > 9 ||
      !std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; })) {
    return std::nullopt;
  }
  return std::stoi(digits);
}

// The typed rolling policy (see the header).
struct RollingPolicy {
  int64_t file_size = kDefaultRollingFileSize;
  int64_t rollover_millis = 30 * 60 * 1000;
  int64_t inactivity_millis = 30 * 60 * 1000;
  int64_t check_millis = 60 * 1000;
};

class FileWriter final : public SinkWriter, public SinkTimeListener {
 public:
  FileWriter(std::string dir, std::string extension, int writer_index, int first_file, RollingPolicy rolling,
             std::unique_ptr<RecordEncoder> encoder, bool append_only, PartitionComputer partitions,
             std::unique_ptr<PartitionCommitter> committer)
      : append_only_(append_only),
        dir_(std::move(dir)),
        extension_(std::move(extension)),
        writer_index_(writer_index),
        file_counter_(first_file),
        rolling_(rolling),
        encoder_(std::move(encoder)),
        partitions_(std::move(partitions)),
        committer_(std::move(committer)) {}
  ~FileWriter() override {
    for (auto& b : buckets_) {
      if (b->file != nullptr) std::fclose(b->file);
    }
  }

  void SetProcessingTimeClock(const Clock* clock) override {
    clock_ = clock;
    // Flink's first bucket-inspection timer: one check interval after the writer opens.
    next_check_millis_ = NowMillis() + rolling_.check_millis;
  }
  Status OnWatermark(int64_t watermark) override {
    RETURN_IF_ERROR(FireDueChecks());
    committer_->SetWatermark(watermark);
    return Status::OK();
  }
  Status OnProcessingTime() override { return FireDueChecks(); }

  Status Write(const Chunk& chunk) override {
    if (append_only_ && !chunk.AllInserts()) {
      return Status::RuntimeError("The filesystem sink writing '" + dir_ +
                                  "' is append-only and cannot store update or delete changes");
    }
    // The checks due by now run first: in Flink their timers fire before a row that arrives later.
    RETURN_IF_ERROR(FireDueChecks());
    const int64_t now = NowMillis();
    if (!partitions_.partitioned()) return Append(BucketFor(std::string()), chunk, now);
    return WritePartitioned(chunk, now);
  }

  Status Finish() override {
    next_check_millis_ = kNoCheck;
    RETURN_IF_ERROR(CloseAll());
    finished_ = true;
    // Without checkpoints every file is visible now: the end of the input commits every partition.
    return two_phase_ ? Status::OK() : committer_->CommitAll(NowMillis());
  }

  bool EnableTwoPhaseCommit() override {
    two_phase_ = true;
    return true;
  }

  Result<std::string> PreCommit(int64_t) override {
    RETURN_IF_ERROR(CloseAll());
    std::string out = std::to_string(file_counter_) + "\n";
    for (const auto& [tmp, final_path] : pending_) out += tmp + "\t" + final_path + "\n";
    committer_->AppendCommittables(finished_, &out);
    pending_.clear();
    // Every file is closed: the buckets start again (a partition no longer written keeps nothing).
    buckets_.clear();
    bucket_index_.clear();
    return out;
  }

  Status Commit(const std::string& committables) override {
    int64_t counter = 0;
    std::vector<std::pair<std::string, std::string>> files;
    std::vector<std::string_view> committer_lines;
    RETURN_IF_ERROR(ParseCommittables(committables, &counter, &files, &committer_lines));
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
    return committer_->Commit(committer_lines, NowMillis());
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
    std::vector<std::string_view> committer_lines;
    RETURN_IF_ERROR(ParseCommittables(committables, &counter, &files, &committer_lines));
    file_counter_ = static_cast<int>(counter);
    // Files written after the restored checkpoint are discarded: the job writes them again.
    RemoveInProgressFrom(file_counter_);
    return Status::OK();
  }

 private:
  // One directory being written: the table's, or one partition's.
  struct Bucket {
    std::string partition;  // relative to dir_ ("dt=2015-09-15/hm=10-00"); empty when unpartitioned
    std::string buffer;     // encoded rows not yet in the file
    std::FILE* file = nullptr;
    std::string in_progress;
    std::string final_path;
    int64_t bytes_in_file = 0;
    int64_t opened_millis = 0;      // when the part's first row came (buffered or written)
    int64_t last_write_millis = 0;  // when its last row came
    bool open() const { return file != nullptr || !buffer.empty(); }
  };

  static constexpr int64_t kNoCheck = std::numeric_limits<int64_t>::max();

  // Flink's processing-time timer of the rolling policy (StreamingFileSinkHelper): a check every
  // check interval from the writer's start, each scheduling the next one an interval later, rolling
  // the part files open for the rollover interval or not written for the inactivity interval. Run as
  // a timer service that fires on time would: every check due by the clock runs, with its own time,
  // before the event at hand. Between two events no row arrives, so a part that qualifies at one due
  // check still does at the last one: judging the parts once, at the last due check, rolls the same.
  Status FireDueChecks() {
    const int64_t now = NowMillis();
    if (now < next_check_millis_) return Status::OK();
    const int64_t step = rolling_.check_millis;
    const int64_t check = next_check_millis_ + (now - next_check_millis_) / step * step;  // the last due
    next_check_millis_ = check + step;
    for (auto& b : buckets_) {
      if (b->open() && (check - b->opened_millis >= rolling_.rollover_millis ||
                        check - b->last_write_millis >= rolling_.inactivity_millis)) {
        RETURN_IF_ERROR(Flush(*b));
        RETURN_IF_ERROR(CloseFile(*b));
      }
    }
    return Status::OK();
  }

  int64_t NowMillis() const { return clock_ != nullptr ? clock_->NowMicros() / 1000 : 0; }

  Bucket& BucketFor(const std::string& partition) {
    auto it = bucket_index_.find(partition);
    if (it != bucket_index_.end()) return *buckets_[it->second];
    bucket_index_.emplace(partition, buckets_.size());
    buckets_.push_back(std::make_unique<Bucket>());
    buckets_.back()->partition = partition;
    return *buckets_.back();
  }

  // Splits the rows by partition (in order of first appearance) and writes each group's data columns.
  Status WritePartitioned(const Chunk& chunk, int64_t now) {
    const size_t n = chunk.size();
    std::vector<Bucket*> touched;
    std::vector<std::vector<uint32_t>> rows;
    Bucket* last = nullptr;
    for (size_t i = 0; i < n; ++i) {
      // A row with its predecessor's partition values goes where it went (no path to compute).
      Bucket* b = last;
      if (i == 0 || !partitions_.SamePartition(chunk, i - 1, i)) {
        partitions_.PartitionPath(chunk, i, &path_);
        b = last != nullptr && last->partition == path_ ? last : &BucketFor(path_);
      }
      if (b != last) {
        auto pos = std::find(touched.begin(), touched.end(), b);
        if (pos == touched.end()) {
          touched.push_back(b);
          rows.emplace_back();
          pos = touched.end() - 1;
        }
        current_group_ = static_cast<size_t>(pos - touched.begin());
        last = b;
      }
      rows[current_group_].push_back(static_cast<uint32_t>(i));
    }
    for (size_t g = 0; g < touched.size(); ++g) {
      Chunk data;
      const uint32_t* sel = rows[g].size() == n ? nullptr : rows[g].data();
      for (int c : partitions_.data_columns()) {
        Vector v(chunk.column(static_cast<size_t>(c)).type());
        v.AppendFrom(chunk.column(static_cast<size_t>(c)), sel, 0, rows[g].size());
        data.AddColumn(std::move(v));
      }
      for (uint32_t r : rows[g]) data.kind_vector().push_back(chunk.kind(r));
      committer_->PartitionWritten(touched[g]->partition);
      RETURN_IF_ERROR(Append(*touched[g], data, now));
    }
    return Status::OK();
  }

  Status Append(Bucket& b, const Chunk& rows, int64_t now) {
    if (!b.open()) b.opened_millis = now;  // a new part file starts with this row
    RETURN_IF_ERROR(encoder_->Encode(rows, &b.buffer));
    b.last_write_millis = now;
    if (static_cast<int64_t>(b.buffer.size()) >= std::min<int64_t>(kWriteBuffer, rolling_.file_size)) {
      RETURN_IF_ERROR(Flush(b));
    }
    return Status::OK();
  }

  Status CloseAll() {
    for (auto& b : buckets_) {
      RETURN_IF_ERROR(Flush(*b));
      RETURN_IF_ERROR(CloseFile(*b));
    }
    return Status::OK();
  }

  Status ParseCommittables(const std::string& text, int64_t* counter,
                           std::vector<std::pair<std::string, std::string>>* files,
                           std::vector<std::string_view>* committer_lines) const {
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
      if (end == std::string::npos) return Status::IOError("Corrupt filesystem sink state for '" + dir_ + "'");
      std::string_view line(text.data() + pos, end - pos);
      if (PartitionCommitter::IsCommitterLine(line)) {
        committer_lines->push_back(line);
      } else {
        size_t tab = line.find('\t');
        if (tab == std::string_view::npos) return Status::IOError("Corrupt filesystem sink state for '" + dir_ + "'");
        files->emplace_back(std::string(line.substr(0, tab)), std::string(line.substr(tab + 1)));
      }
      pos = end + 1;
    }
    return Status::OK();
  }

  // Removes this writer's hidden in-progress files numbered `from` or later, in every partition.
  void RemoveInProgressFrom(int from) {
    const std::string prefix = ".part-" + std::to_string(writer_index_) + "-";
    const std::string suffix = "." + extension_ + ".inprogress";
    std::error_code ec;
    std::vector<fs::path> doomed;
    for (auto it = fs::recursive_directory_iterator(dir_, ec); !ec && it != fs::recursive_directory_iterator();
         it.increment(ec)) {
      auto number = FileNumber(it->path().filename().string(), prefix, suffix);
      if (number && *number >= from) doomed.push_back(it->path());
    }
    for (const auto& p : doomed) fs::remove(p, ec);
  }

  Status Flush(Bucket& b) {
    if (b.buffer.empty()) return Status::OK();
    if (b.file == nullptr) {
      const fs::path dir = b.partition.empty() ? fs::path(dir_) : fs::path(dir_) / b.partition;
      if (!b.partition.empty()) {
        std::error_code ec;
        fs::create_directories(dir, ec);
        if (ec) return Status::IOError("Cannot create directory '" + dir.string() + "': " + ec.message());
      }
      std::string name = "part-" + std::to_string(writer_index_) + "-" + std::to_string(file_counter_++) + "." +
                         extension_;
      b.final_path = (dir / name).string();
      b.in_progress = (dir / ("." + name + ".inprogress")).string();
      b.file = std::fopen(b.in_progress.c_str(), "wb");
      if (b.file == nullptr) return ErrnoError("Cannot create file", b.in_progress);
      b.bytes_in_file = 0;
    }
    if (std::fwrite(b.buffer.data(), 1, b.buffer.size(), b.file) != b.buffer.size()) {
      return ErrnoError("Cannot write file", b.in_progress);
    }
    b.bytes_in_file += static_cast<int64_t>(b.buffer.size());
    b.buffer.clear();
    if (b.bytes_in_file >= rolling_.file_size) RETURN_IF_ERROR(CloseFile(b));
    return Status::OK();
  }

  Status CloseFile(Bucket& b) {
    if (b.file == nullptr) return Status::OK();
    int rc = std::fflush(b.file);
    if (rc == 0 && two_phase_) rc = ::fsync(::fileno(b.file));
    rc |= std::fclose(b.file);
    b.file = nullptr;
    if (rc != 0) return ErrnoError("Cannot write file", b.in_progress);
    if (two_phase_) {
      // Pending until the checkpoint that covers it completes.
      pending_.emplace_back(b.in_progress, b.final_path);
      return Status::OK();
    }
    std::error_code ec;
    fs::rename(b.in_progress, b.final_path, ec);
    if (ec) return Status::IOError("Cannot rename '" + b.in_progress + "' to '" + b.final_path + "': " + ec.message());
    return Status::OK();
  }

  bool append_only_;  // false for changelog formats, which encode every RowKind
  std::string dir_;
  std::string extension_;
  int writer_index_;
  int file_counter_;
  RollingPolicy rolling_;
  std::unique_ptr<RecordEncoder> encoder_;
  PartitionComputer partitions_;
  std::unique_ptr<PartitionCommitter> committer_;
  const Clock* clock_ = nullptr;
  std::vector<std::unique_ptr<Bucket>> buckets_;
  std::unordered_map<std::string, size_t> bucket_index_;
  std::string path_;          // scratch: the partition path of the row at hand
  size_t current_group_ = 0;  // scratch: the group of the last bucket seen
  int64_t next_check_millis_ = kNoCheck;  // the next rolling check (FireDueChecks); none without a clock
  bool two_phase_ = false;
  bool finished_ = false;
  std::vector<std::pair<std::string, std::string>> pending_;  // closed files: hidden path, final path
};

class FileSystemSink final : public TableSink {
 public:
  FileSystemSink(ConnectorContext ctx, const FormatFactory* format, RollingPolicy rolling, PartitionComputer partitions)
      : ctx_(std::move(ctx)), format_(format), rolling_(rolling), partitions_(std::move(partitions)) {
    for (int c : partitions_.data_columns()) {
      data_schema_.Add(ctx_.physical_schema.field(static_cast<size_t>(c)).name,
                       ctx_.physical_schema.field(static_cast<size_t>(c)).type);
    }
  }
  // Append-only, unless the format encodes changes (debezium-json), as Flink's FileSystemTableSink.
  ChangelogMode accepted_changelog_mode() const override { return format_->changelog_mode(); }

  Result<std::unique_ptr<SinkWriter>> CreateWriter() override {
    const std::string context = ConnectorErrorContext(ctx_, ConnectorRole::kSink);
    const std::string dir = LocalPathOf(ctx_.options.at("path"));
    std::error_code ec;
    if (fs::exists(dir, ec) && !fs::is_directory(dir, ec)) {
      return Status::InvalidArgument("the sink path '" + dir +
                                     "' is a file; the filesystem sink writes files into a directory")
          .WithContext(context);
    }
    fs::create_directories(dir, ec);
    if (ec) return Status::IOError("Cannot create directory '" + dir + "': " + ec.message()).WithContext(context);
    const int writer = next_writer_++;
    // Continue the numbering after files of earlier runs (in every partition), so an INSERT appends.
    const std::string prefix = "part-" + std::to_string(writer) + "-";
    const std::string suffix = "." + format_->file_extension();
    int first = 0;
    for (auto it = fs::recursive_directory_iterator(dir, ec); !ec && it != fs::recursive_directory_iterator();
         it.increment(ec)) {
      auto number = FileNumber(it->path().filename().string(), prefix, suffix);
      if (number) first = std::max(first, *number + 1);
    }
    auto encoder = format_->CreateEncoder(data_schema_, ConnectorOptionReader(ctx_));
    if (!encoder.ok()) return encoder.status().WithContext(context);
    auto committer = PartitionCommitter::Make(ConnectorOptionReader(ctx_), dir, ctx_.partition_keys);
    if (!committer.ok()) return committer.status().WithContext(context);
    return std::unique_ptr<SinkWriter>(new FileWriter(dir, format_->file_extension(), writer, first, rolling_,
                                                      std::move(encoder).value(),
                                                      format_->changelog_mode().IsInsertOnly(), partitions_,
                                                      std::move(committer).value()));
  }

 private:
  ConnectorContext ctx_;
  const FormatFactory* format_;
  RollingPolicy rolling_;
  PartitionComputer partitions_;
  Schema data_schema_;
  int next_writer_ = 0;
};

Result<RollingPolicy> ReadRollingPolicy(const OptionReader& options) {
  RollingPolicy p;
  ASSIGN_OR_RETURN(p.file_size, options.GetMemorySize(kRollingFileSize, kDefaultRollingFileSize));
  if (p.file_size <= 0) return options.InvalidValue(kRollingFileSize, "must be positive");
  ASSIGN_OR_RETURN(p.rollover_millis, options.GetDurationMillis(kRolloverInterval, p.rollover_millis));
  ASSIGN_OR_RETURN(p.inactivity_millis, options.GetDurationMillis(kInactivityInterval, p.inactivity_millis));
  ASSIGN_OR_RETURN(p.check_millis, options.GetDurationMillis(kCheckInterval, p.check_millis));
  for (auto [key, v] : {std::pair{kRolloverInterval, p.rollover_millis}, std::pair{kInactivityInterval, p.inactivity_millis},
                        std::pair{kCheckInterval, p.check_millis}}) {
    if (v <= 0) return options.InvalidValue(key, "must be positive");
  }
  return p;
}

}  // namespace

std::vector<OptionSpec> FileSystemSinkOptions() {
  using PC = PartitionCommitter;
  using PT = PartitionTimeExtractor;
  return {
      {kRollingFileSize, false, "128 mb", "A sink starts a new part file once the current one is this large."},
      {kRolloverInterval, false, "30 min",
       "The longest a part file stays open before it is rolled (checked every 'sink.rolling-policy.check-interval')."},
      {kInactivityInterval, false, "30 min", "A part file not written for this long is rolled."},
      {kCheckInterval, false, "1 min",
       "How often the time-based rolling policies are checked (a processing-time timer from the job's start, "
       "rows or not)."},
      {kPartitionDefaultName, false, kDefaultPartitionName,
       "The directory name of a partition whose value is NULL or empty; it reads back as NULL."},
      {kShuffleByPartition, false, "false", "Accepted for Flink compatibility; Sluice has one writer per sink, "
       "so rows are grouped by partition already."},
      {PT::kKind, false, "default", "How a partition's time is extracted: 'default' (from the partition values); "
       "'custom' (a Java class) is refused."},
      {PT::kClass, false, "", "Accepted for Flink compatibility; only used by 'custom', which Sluice refuses."},
      {PT::kTimestampPattern, false, "", "How partition values form the partition's timestamp text, e.g. "
       "'$dt $hm:00'; unset: the first partition value."},
      {PT::kTimestampFormatter, false, "", "The java.time pattern that timestamp text is parsed with (letters y M d "
       "H m s S, quoted literals); unset: 'yyyy-MM-dd[ HH:mm:ss]', leniently."},
      {PC::kTrigger, false, "process-time", "When a partition commits: 'process-time' (processing time passes the "
       "time it was first committed plus the delay) or 'partition-time' (the watermark passes the partition's time "
       "plus the delay)."},
      {PC::kDelay, false, "0 s", "How long after its time a partition commits ('1 h' for hourly partitions)."},
      {PC::kWatermarkTimeZone, false, "UTC", "The time zone partition times are in when compared with the "
       "watermark ('UTC' for a watermark on a TIMESTAMP column; the session zone for TIMESTAMP_LTZ)."},
      {PC::kPolicyKind, false, "", "How a partition is committed: 'success-file' (an empty file in the partition "
       "directory). 'metastore' and 'custom' are refused. Unset: partitions are not committed."},
      {PC::kPolicyClass, false, "", "Accepted for Flink compatibility; only used by 'custom', which Sluice refuses."},
      {PC::kPolicyClassParameters, false, "", "Accepted for Flink compatibility; only used by 'custom'."},
      {PC::kSuccessFileName, false, "_SUCCESS", "The name of the success file."},
  };
}

Result<std::unique_ptr<TableSink>> CreateFileSystemSink(const ConnectorContext& ctx, const FormatFactory* format) {
  const std::string context = ConnectorErrorContext(ctx, ConnectorRole::kSink);
  const OptionReader options = ConnectorOptionReader(ctx);
  auto rolling = ReadRollingPolicy(options);
  if (!rolling.ok()) return rolling.status().WithContext(context);
  auto partitions = PartitionComputer::Make(ctx.physical_schema, ctx.partition_keys,
                                            options.GetString(kPartitionDefaultName, kDefaultPartitionName));
  if (!partitions.ok()) return partitions.status().WithContext(context);
  if (partitions->default_name().empty()) {
    return options.InvalidValue(kPartitionDefaultName, "must not be empty").WithContext(context);
  }
  Schema data_schema;
  for (int c : partitions->data_columns()) {
    data_schema.Add(ctx.physical_schema.field(static_cast<size_t>(c)).name, ctx.physical_schema.field(static_cast<size_t>(c)).type);
  }
  auto encoder = format->CreateEncoder(data_schema, options);
  if (!encoder.ok()) return encoder.status().WithContext(context);
  // Check the commit options now, so a bad value fails before the job starts.
  auto committer = PartitionCommitter::Make(options, std::string(), ctx.partition_keys);
  if (!committer.ok()) return committer.status().WithContext(context);
  auto sink = std::make_unique<FileSystemSink>(ctx, format, *rolling, std::move(partitions).value());
  return std::unique_ptr<TableSink>(std::move(sink));
}

}  // namespace sluice
