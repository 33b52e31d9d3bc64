// Partition commit of the filesystem sink (Flink's PartitionCommitter with its triggers and the
// 'success-file' policy): once a partition's files are visible and its trigger says so, a success file
// (an empty '_SUCCESS') is written into the partition directory, telling readers the partition is
// complete. Only partitioned tables with a 'sink.partition-commit.policy.kind' commit partitions, as in
// Flink.
//
// Options (typed and checked by Make; errors name the option):
// - 'sink.partition-commit.trigger': 'process-time' (default) commits a partition once the processing
//   time passes the time the committer first saw it plus the delay (at once with no delay);
//   'partition-time' once the watermark passes the partition's time (PartitionTimeExtractor, placed in
//   'sink.partition-commit.watermark-time-zone') plus the delay: watermark > time + delay.
// - 'sink.partition-commit.delay' (default 0 s), 'sink.partition-commit.watermark-time-zone' ('UTC').
// - 'sink.partition-commit.policy.kind': a comma-separated list; 'success-file' is supported,
//   'metastore' is refused as Flink refuses it for filesystem tables, 'custom' is refused (a Java class).
// - 'sink.partition-commit.success-file.name' (default '_SUCCESS').
//
// When: the decision is made when a checkpoint completes (after its files were made visible), with the
// watermark the sink had when the checkpoint's barrier passed (Flink's checkpoint-id-to-watermark) and
// the processing time of the completion. At the end of the input every pending partition commits (Flink's
// endInput). Without checkpoints, files are visible as they close and partitions commit at the end.
//
// State: the partitions waiting for their trigger (with the time the committer first saw each) travel in
// the sink's committables, so a restore decides as the lost run would have; committing twice only
// rewrites an empty success file.
//
// Threading: owned by one sink writer; every call comes from its thread.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "connectors/filesystem/partition_time_extractor.h"
#include "formats/format.h"

namespace sluice {

struct EvalContext;

class PartitionCommitter {
 public:
  static constexpr char kTrigger[] = "sink.partition-commit.trigger";
  static constexpr char kDelay[] = "sink.partition-commit.delay";
  static constexpr char kWatermarkTimeZone[] = "sink.partition-commit.watermark-time-zone";
  static constexpr char kPolicyKind[] = "sink.partition-commit.policy.kind";
  static constexpr char kPolicyClass[] = "sink.partition-commit.policy.class";
  static constexpr char kPolicyClassParameters[] = "sink.partition-commit.policy.class.parameters";
  static constexpr char kSuccessFileName[] = "sink.partition-commit.success-file.name";

  enum class Trigger { kProcessTime, kPartitionTime };

  // Reads and checks the options (also those of PartitionTimeExtractor). `table_dir` is the sink's
  // directory, `keys` the partition columns (empty: an unpartitioned table, which never commits).
  static Result<std::unique_ptr<PartitionCommitter>> Make(const OptionReader& options, std::string table_dir,
                                                          std::vector<std::string> keys);
  ~PartitionCommitter();

  // Whether partitions are committed at all (a partitioned table with a policy).
  bool enabled() const { return enabled_; }

  // Rows were written into partition `partition` (a directory relative to the table, escaped).
  void PartitionWritten(const std::string& partition) {
    if (enabled_) written_.insert(partition);
  }
  // The sink's input watermark, in microseconds since the epoch (the engine's unit).
  void SetWatermark(int64_t watermark) { watermark_ = watermark; }

  // What a checkpoint's committables carry for the committer (lines starting with a tab, which no file
  // line does): the partitions written since the last checkpoint, those waiting for their trigger, the
  // watermark, and whether the input had ended. Starts the next checkpoint interval.
  void AppendCommittables(bool end_of_input, std::string* out);
  // Whether `line` (without its newline) is one of the committer's lines.
  static bool IsCommitterLine(std::string_view line) { return !line.empty() && line[0] == '\t'; }
  // Commits what the checkpoint with these committer lines allows, at processing time `now_millis`.
  Status Commit(const std::vector<std::string_view>& lines, int64_t now_millis);
  // End of input without checkpoints: commits every partition written.
  Status CommitAll(int64_t now_millis);

 private:
  PartitionCommitter() = default;
  // Whether pending partition `partition` (first seen at `seen_millis`) may commit now.
  Result<bool> Committable(const std::string& partition, int64_t seen_millis, int64_t watermark,
                           int64_t now_millis) const;
  Status WriteSuccessFile(const std::string& partition) const;
  Status Decide(int64_t watermark, bool end, int64_t now_millis);

  bool enabled_ = false;
  std::string table_dir_;
  std::vector<std::string> keys_;
  Trigger trigger_ = Trigger::kProcessTime;
  int64_t delay_millis_ = 0;
  std::unique_ptr<EvalContext> zone_;  // 'sink.partition-commit.watermark-time-zone'
  std::unique_ptr<PartitionTimeExtractor> extractor_;
  std::string success_file_;  // empty: no success-file policy
  int64_t watermark_ = INT64_MIN;
  std::set<std::string> written_;              // since the last checkpoint (or the start)
  std::map<std::string, int64_t> pending_;     // waiting for the trigger: partition -> first seen (ms)
};

}  // namespace sluice
