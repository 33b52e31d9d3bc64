// The filesystem connector's sink (Flink's FileSystemTableSink in streaming mode): writes the rows of
// a query as files of a format under the table's 'path', which is a directory (created when missing).
//
// Files: writer i writes part-<i>-0.<ext>, part-<i>-1.<ext>, ... (one counter per writer; numbering
// continues after files of earlier runs, so an INSERT appends), each first as a hidden
// '.part-<i>-<n>.<ext>.inprogress' file renamed when complete, so a reader never sees half a file.
// A partitioned table (PARTITIONED BY) writes each row into its partition's directory
// (partition_path.h: <path>/dt=2015-09-15/hm=10-00/part-...), without its partition columns.
//
// Rolling: a part file is closed ('rolled') once it is larger than 'sink.rolling-policy.file-size'. The
// time-based policies are checked as Flink's processing-time timer checks them: every
// 'sink.rolling-policy.check-interval' of the job's clock from the writer's start, a part file open for
// 'sink.rolling-policy.rollover-interval' or not written for 'sink.rolling-policy.inactivity-interval'
// is rolled. The checks due by the clock run before each row and watermark and, through
// SinkTimeListener::OnProcessingTime, between the job's steps, so a sink that receives nothing rolls too.
//
// Exactly-once (with checkpoints, Flink's FileSink): files stay hidden until the checkpoint that covers
// them completes. A checkpoint rolls every open file; the committables list the closed files, the next
// file number and the partition committer's state (partition_committer.h). Leftovers of a crashed
// attempt (hidden files numbered from the first file this writer would write) are removed when the job
// starts afresh or restores. Without checkpoints a file is visible once closed.
//
// Threading: the sink is created on the planning thread; each writer is used by one thread.
#pragma once

#include <memory>
#include <vector>

#include "connectors/connector.h"
#include "formats/format.h"

namespace sluice {

// The sink options (the filesystem factory declares them with its own; 'partition.default-name' is
// read by sources too).
std::vector<OptionSpec> FileSystemSinkOptions();
constexpr char kPartitionDefaultName[] = "partition.default-name";
constexpr char kDefaultPartitionName[] = "__DEFAULT_PARTITION__";

// Checks the sink options of `ctx` (errors name the table and option) and creates the sink.
Result<std::unique_ptr<TableSink>> CreateFileSystemSink(const ConnectorContext& ctx, const FormatFactory* format);

}  // namespace sluice
