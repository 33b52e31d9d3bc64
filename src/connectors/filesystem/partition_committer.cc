#include "connectors/filesystem/partition_committer.h"

#include <charconv>
#include <cstdio>
#include <filesystem>
#include <system_error>

#include "common/time_util.h"
#include "connectors/filesystem/partition_path.h"
#include "function/evaluator.h"

namespace sluice {

namespace fs = std::filesystem;

namespace {

std::string Trim(std::string_view s) {
  while (!s.empty() && s.front() == ' ') s.remove_prefix(1);
  while (!s.empty() && s.back() == ' ') s.remove_suffix(1);
  return std::string(s);
}

bool ParseI64(std::string_view s, int64_t* out) {
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), *out);
  return ec == std::errc() && end == s.data() + s.size();
}

}  // namespace

PartitionCommitter::~PartitionCommitter() = default;

Result<std::unique_ptr<PartitionCommitter>> PartitionCommitter::Make(const OptionReader& options, std::string table_dir,
                                                                     std::vector<std::string> keys) {
  std::unique_ptr<PartitionCommitter> c(new PartitionCommitter());
  c->table_dir_ = std::move(table_dir);
  c->keys_ = std::move(keys);
  ASSIGN_OR_RETURN(std::string trigger, options.GetEnum(kTrigger, "process-time", {"process-time", "partition-time"}));
  c->trigger_ = trigger == "partition-time" ? Trigger::kPartitionTime : Trigger::kProcessTime;
  ASSIGN_OR_RETURN(c->delay_millis_, options.GetDurationMillis(kDelay, 0));
  if (c->delay_millis_ < 0) return options.InvalidValue(kDelay, "must not be negative");
  const std::string zone = options.GetString(kWatermarkTimeZone, "UTC");
  auto ctx = EvalContext::Make(zone, nullptr);
  if (!ctx.ok()) {
    return Status::InvalidArgument(std::string("Invalid time zone for '") + kWatermarkTimeZone +
                                   "'. The value should be a Time Zone Database (TZDB) ID such as "
                                   "'America/Los_Angeles' to include daylight saving time. Fixed offsets are "
                                   "supported using 'GMT-03:00' or 'GMT+03:00'. Or use 'UTC' without time zone and "
                                   "daylight saving time.");
  }
  c->zone_ = std::move(ctx).value();
  ASSIGN_OR_RETURN(PartitionTimeExtractor extractor, PartitionTimeExtractor::Make(options));
  c->extractor_ = std::make_unique<PartitionTimeExtractor>(std::move(extractor));
  bool has_policy = false;
  if (options.Has(kPolicyKind)) {
    const std::string kinds = options.GetString(kPolicyKind, "");
    size_t pos = 0;
    while (pos <= kinds.size()) {
      size_t comma = kinds.find(',', pos);
      if (comma == std::string::npos) comma = kinds.size();
      std::string kind = Trim(std::string_view(kinds).substr(pos, comma - pos));
      for (char& ch : kind) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
      pos = comma + 1;
      if (kind == "success-file") {
        has_policy = true;
      } else if (kind == "metastore") {
        return options.InvalidValue(kPolicyKind, "Can not configure a 'metastore' partition commit policy for a file "
                                                 "system table. You can only configure 'metastore' partition commit "
                                                 "policy for a hive table.");
      } else if (kind == "custom") {
        return options.InvalidValue(kPolicyKind, std::string("'custom' loads a Java class ('") + kPolicyClass +
                                                     "'), which Sluice cannot run; use 'success-file'");
      } else {
        return options.InvalidValue(kPolicyKind, "Unsupported policy: " + kind);
      }
    }
    c->success_file_ = options.GetString(kSuccessFileName, "_SUCCESS");
    if (c->success_file_.empty() || c->success_file_.find('/') != std::string::npos) {
      return options.InvalidValue(kSuccessFileName, "must be a file name (not empty, without '/')");
    }
  }
  c->enabled_ = has_policy && !c->keys_.empty();
  return c;
}

void PartitionCommitter::AppendCommittables(bool end_of_input, std::string* out) {
  if (!enabled_) return;
  for (const std::string& p : written_) {
    out->append("\tN\t").append(p).push_back('\n');
  }
  for (const auto& [p, seen] : pending_) {
    out->append("\tP\t").append(p).append("\t").append(std::to_string(seen)).push_back('\n');
  }
  out->append("\tW\t").append(std::to_string(watermark_)).push_back('\n');
  if (end_of_input) out->append("\tE\n");
  written_.clear();
}

Status PartitionCommitter::Commit(const std::vector<std::string_view>& lines, int64_t now_millis) {
  if (!enabled_) return Status::OK();
  int64_t watermark = INT64_MIN;
  bool end = false;
  std::vector<std::string> fresh;
  for (std::string_view line : lines) {
    auto corrupt = [&]() {
      return Status::IOError("Corrupt partition commit state for '" + table_dir_ + "': '" + std::string(line) + "'");
    };
    if (line.size() < 2) return corrupt();
    const char tag = line[1];
    std::string_view rest = line.size() > 3 ? line.substr(3) : std::string_view();
    if (tag == 'N') {
      fresh.emplace_back(rest);
    } else if (tag == 'P') {
      const size_t tab = rest.rfind('\t');
      int64_t seen = 0;
      if (tab == std::string_view::npos || !ParseI64(rest.substr(tab + 1), &seen)) return corrupt();
      pending_.emplace(std::string(rest.substr(0, tab)), seen);
    } else if (tag == 'W') {
      if (!ParseI64(rest, &watermark)) return corrupt();
    } else if (tag == 'E') {
      end = true;
    } else {
      return corrupt();
    }
  }
  // The committer sees a partition when the checkpoint that made its files visible completes.
  for (std::string& p : fresh) pending_.emplace(std::move(p), now_millis);
  return Decide(watermark, end, now_millis);
}

Status PartitionCommitter::CommitAll(int64_t now_millis) {
  if (!enabled_) return Status::OK();
  for (const std::string& p : written_) pending_.emplace(p, now_millis);
  written_.clear();
  return Decide(watermark_, true, now_millis);
}

Status PartitionCommitter::Decide(int64_t watermark, bool end, int64_t now_millis) {
  for (auto it = pending_.begin(); it != pending_.end();) {
    bool commit = end;
    if (!commit) {
      ASSIGN_OR_RETURN(commit, Committable(it->first, it->second, watermark, now_millis));
    }
    if (!commit) {
      ++it;
      continue;
    }
    RETURN_IF_ERROR(WriteSuccessFile(it->first));
    it = pending_.erase(it);
  }
  return Status::OK();
}

Result<bool> PartitionCommitter::Committable(const std::string& partition, int64_t seen_millis, int64_t watermark,
                                             int64_t now_millis) const {
  if (trigger_ == Trigger::kProcessTime) return delay_millis_ == 0 || now_millis > seen_millis + delay_millis_;
  std::vector<std::string> values;
  if (!ParsePartitionDirectory(partition, keys_, &values)) {
    return Status::Internal("partition directory '" + partition + "' does not match the partition keys");
  }
  auto local = extractor_->ExtractMicros(keys_, values);
  if (!local.ok()) return local.status().WithContext("Partition commit of '" + table_dir_ + "/" + partition + "'");
  const int64_t partition_millis = FloorDiv(zone_->LocalToUtc(*local), 1000);
  // The engine's watermarks are microseconds since the epoch; Flink compares milliseconds.
  return FloorDiv(watermark, 1000) > partition_millis + delay_millis_;
}

Status PartitionCommitter::WriteSuccessFile(const std::string& partition) const {
  if (success_file_.empty()) return Status::OK();
  const std::string path = (fs::path(table_dir_) / partition / success_file_).string();
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (f == nullptr || std::fclose(f) != 0) {
    return Status::IOError("Cannot write the success file '" + path + "' of partition '" + partition + "'");
  }
  return Status::OK();
}

}  // namespace sluice
