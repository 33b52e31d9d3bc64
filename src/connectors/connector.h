// Connectors: the interface between the runtime and the outside world (files, generators, consoles).
//
// A ConnectorFactory is registered under Flink's 'connector' identifier ('filesystem', 'datagen',
// 'print', 'blackhole', 'nexmark', ...). From a table's WITH options it creates a TableSource (read
// side) and/or a TableSink (write side). A TableSource is cut into SourceSplits (a file, a partition,
// a generator stream); each split is read by one reader on one task thread, in chunks of the
// projected physical columns. A TableSink creates a SinkWriter that receives chunks of the sink's
// physical columns with their RowKinds.
//
// Options are validated when the source or sink is created: an unknown key gets a did-you-mean, a
// missing required key or a bad value gets an error naming the table and the key (house rule 5).
// Secret-looking option values never appear in errors.
//
// Threading: a factory is shared and stateless. A split reader or a sink writer is used by one thread.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "common/status.h"
#include "function/expression.h"
#include "types/row_kind.h"
#include "types/schema.h"
#include "types/vector.h"

namespace sluice {

class Clock;
class ValuesDataRegistry;

// One declared connector option, Flink-style: key, default, and the description documentation shows.
struct OptionSpec {
  std::string key;
  bool required = false;
  std::string default_value;  // empty when none
  std::string description;
};

struct ConnectorContext {
  std::string table_name;     // as the user wrote it (for error messages)
  Schema physical_schema;     // the table's physical columns in declared order
  // For sources: the physical columns the query reads (indexes into physical_schema), in the order
  // the split readers must produce them. Empty means all, in declared order.
  std::vector<int> projection;
  // Metadata columns the query reads ('METADATA FROM key'), appended after the projected columns,
  // with their declared types. A connector that does not offer a key rejects it at creation.
  // For sinks: the table's persisted metadata columns, appended after the physical columns of
  // every input row, in declared order (checked against ConnectorFactory::writable_metadata).
  std::vector<Field> metadata;
  // For sources: the filters the connector accepted at planning (ConnectorFactory::ApplyFilters),
  // conjuncts whose column references are ordinals of physical_schema. The query applies them too.
  std::vector<ExprPtr> filters;
  std::vector<std::string> primary_key;        // column names; empty when none
  std::vector<std::string> partition_keys;     // PARTITIONED BY (...) column names, in order
  std::map<std::string, std::string> options;  // the WITH clause, keys as written
  // Session configuration (SET keys) for options that fall back to job settings.
  const std::map<std::string, std::string>* config = nullptr;
  std::ostream* out = nullptr;  // where console sinks (print) write; stdout by default
  std::ostream* err = nullptr;  // where print sinks with 'print.standard-error' write
  size_t chunk_size = Chunk::kDefaultCapacity;
  // The rows that 'values' tables read (and their sinks collect), owned by whoever owns the session
  // (tests, the .test runner). Null when the session offers none; 'values' tables then fail to open.
  ValuesDataRegistry* values_registry = nullptr;
  // The job's id (32 hex digits, as Flink prints a JobID), the same for every connector of one job
  // (one INSERT or statement set). Sinks that record their writer in an external system use it
  // (Iceberg's 'flink.job-id' snapshot property). Empty when planning without running.
  std::string job_id;
};

// The projected output schema a source's readers produce for `ctx`.
Schema ProjectedSchema(const ConnectorContext& ctx);

class SourceSplit {
 public:
  virtual ~SourceSplit() = default;
  // Identifies the split in messages and the job summary ("/data/pos/part-0.json", "partition 3").
  virtual std::string id() const = 0;
  // Appends up to `max_rows` rows to `out` (whose columns are the projected schema). Returns false
  // once the split is exhausted and nothing was appended. A malformed record fails with its place
  // (file, line) and reason, unless the format is told to skip; skipped records are counted.
  virtual Result<bool> Read(size_t max_rows, Chunk* out) = 0;
  virtual int64_t records_skipped() const { return 0; }
  // How long (processing time, microseconds) the split will wait before its next row or its end,
  // when it knows ahead: a scripted split whose next step advances the clock ('values' rows with
  // `advance` steps). 0 when a row is ready or the wait is unknown. The source's idle timeout uses
  // it (runtime/operators/source_operator.h).
  virtual int64_t PendingDelayMicros() const { return 0; }

  // Position checkpoints (optional). A split that can seek (a Kafka partition: its next offset, as
  // Flink's KafkaSource stores partition offsets) answers CheckpointPosition(n) with an opaque
  // position just after the first `n` rows its last Read appended (0 <= n <= that Read's rows; before
  // any Read, n = 0 gives where reading starts), and SeekToPosition(position) — called after the
  // split is created and before its first Read — makes reading continue from there. The source
  // operator reads ahead one Read per split, so this lets it checkpoint the position of the last row
  // it emitted. Empty (the default): not supported; restore then re-reads the split from its start
  // and skips the rows emitted before the checkpoint (exact for files and generators).
  virtual std::string CheckpointPosition(size_t rows_of_last_read) const {
    (void)rows_of_last_read;
    return {};
  }
  virtual Status SeekToPosition(const std::string& position) {
    (void)position;
    return Status::Internal("split " + id() + " cannot seek to a checkpointed position");
  }
  // Checkpoint `checkpoint_id` is durable; `position` is what CheckpointPosition gave for it (also
  // for a split that had finished by then). A split that mirrors its progress outside the job does
  // it here (a Kafka partition commits the offset to its consumer group, as Flink's
  // 'commit.offsets.on.checkpoint'). Default: nothing.
  virtual Status NotifyCheckpointComplete(int64_t checkpoint_id, const std::string& position) {
    (void)checkpoint_id;
    (void)position;
    return Status::OK();
  }
  // A restore found no state for this split: it appeared after the checkpoint (a partition added
  // while the job was down). It then starts where a split discovered while running starts
  // (TableSource::DiscoverSplits; a Kafka partition: its earliest offset, as Flink's enumerator
  // starts every partition that is not in its state). Called instead of SeekToPosition, before the
  // first Read. Default: from where CreateSplits put it.
  virtual Status StartAsDiscovered() { return Status::OK(); }
};

class TableSource {
 public:
  virtual ~TableSource() = default;
  // Insert-only for plain sources; changelog formats (debezium-json) and upsert sources say more.
  virtual ChangelogMode changelog_mode() const { return ChangelogMode::InsertOnly(); }
  virtual bool bounded() const = 0;
  virtual Result<std::vector<std::unique_ptr<SourceSplit>>> CreateSplits() = 0;
  // Split discovery while the job runs (Flink's periodic partition discovery,
  // 'scan.topic-partition-discovery.interval'): every `SplitDiscoveryIntervalMicros()` of processing
  // time (0: never) the source operator asks DiscoverSplits for the splits that appeared since
  // CreateSplits or the previous call (a Kafka topic's new partitions, new topics matching
  // 'topic-pattern'), and reads them from then on, from where a discovered split starts
  // (SourceSplit::StartAsDiscovered). Each split is returned once, with an id no other split has;
  // the order is deterministic. A source with discovery does not end while it has no splits.
  virtual int64_t SplitDiscoveryIntervalMicros() const { return 0; }
  virtual Result<std::vector<std::unique_ptr<SourceSplit>>> DiscoverSplits() {
    return std::vector<std::unique_ptr<SourceSplit>>{};
  }
  // A source with discovery and no split to read (a 'topic-pattern' that matches no topic yet) has
  // nothing to do until the next discovery: the source operator calls this instead of spinning, and it
  // blocks for at most `max_micros` (a Kafka source: a bounded poll of its consumer, which also serves
  // the client's errors). Default: returns at once.
  virtual Status WaitForSplits(int64_t max_micros) {
    (void)max_micros;
    return Status::OK();
  }
  // Extra fields of the source's entry in the job summary, as (name, value) pairs in order, e.g.
  // how many files a scan planned and skipped by its filters. Empty: none.
  virtual std::vector<std::pair<std::string, std::string>> SummaryFields() const { return {}; }
};

class SinkWriter {
 public:
  virtual ~SinkWriter() = default;
  // `chunk` holds the sink's physical columns; each row's RowKind is in chunk.kinds().
  virtual Status Write(const Chunk& chunk) = 0;
  // End of input: flush and close. No Write follows.
  virtual Status Finish() = 0;

  // Exactly-once output through checkpoints (two-phase commit, runtime/checkpoint.h). A writer that
  // supports it answers true to EnableTwoPhaseCommit (called before the first Write when the job
  // checkpoints): from then on, what it writes stays invisible until committed. PreCommit(id) is
  // called at checkpoint `id`: everything written so far becomes pending, and the returned bytes
  // (the committables) go into the checkpoint. Commit(committables) makes them visible once the
  // checkpoint is durable; it must be idempotent. After a restart, RecoverAndCommit(committables)
  // gets the committables of the checkpoint restored from: it commits them and discards whatever was
  // written after that checkpoint; a job that checkpoints but starts afresh calls it with empty
  // committables, to discard what a crashed earlier attempt left. Writers that keep the defaults are at-least-once (print,
  // blackhole): a restart replays what they wrote after the last checkpoint.
  virtual bool EnableTwoPhaseCommit() { return false; }
  virtual Result<std::string> PreCommit(int64_t checkpoint_id) {
    (void)checkpoint_id;
    return std::string();
  }
  virtual Status Commit(const std::string& committables) {
    (void)committables;
    return Status::OK();
  }
  virtual Status RecoverAndCommit(const std::string& committables) { return Commit(committables); }

  // Extra columns of the job summary's per-sink table (e.g. an Iceberg table's snapshots, rows
  // written, files and deletes), as (column, value) pairs in order; the first pair names the row
  // ("table"). Sinks with the same columns share one table in the summary. Empty: no row.
  virtual std::vector<std::pair<std::string, std::string>> SummaryFields() const { return {}; }
};

class TableSink {
 public:
  virtual ~TableSink() = default;
  // The changes the sink can store: insert-only for append sinks; all kinds for print; upsert
  // (I, UA, D) for sinks that write by primary key.
  virtual ChangelogMode accepted_changelog_mode() const = 0;
  // The changes the query sends into the sink, once planning knows them (Flink's requested mode in
  // DynamicTableSink.getChangelogMode); called before CreateWriter. Insert-only in batch mode.
  virtual void SetInputChangelogMode(const ChangelogMode& input) { (void)input; }
  virtual Result<std::unique_ptr<SinkWriter>> CreateWriter() = 0;
};

class ConnectorFactory {
 public:
  virtual ~ConnectorFactory() = default;
  virtual std::string identifier() const = 0;
  virtual std::vector<OptionSpec> options() const = 0;
  // Metadata keys the connector offers to 'METADATA FROM' columns, with their types.
  virtual std::vector<Field> metadata() const { return {}; }
  // Metadata keys its sinks write (Flink's SupportsWritingMetadata), in the connector's order. A sink's
  // persisted (non-VIRTUAL) metadata columns come in ConnectorContext::metadata and its input rows
  // hold them after the physical columns.
  virtual std::vector<Field> writable_metadata() const { return {}; }
  virtual bool supports_source() const = 0;
  virtual bool supports_sink() const = 0;
  virtual Result<std::unique_ptr<TableSource>> CreateSource(const ConnectorContext& ctx) const;
  // What a source on `ctx`'s table emits, for planning (before projections are known). By default
  // it creates the source and asks it; a connector may answer without creating one.
  virtual Result<ChangelogMode> SourceChangelogMode(const ConnectorContext& ctx) const;
  // Filter push-down (Flink's SupportsFilterPushDown). A connector whose sources can skip data by
  // filters answers true, and ApplyFilters says which of `filters` (conjuncts over the columns of
  // ctx.physical_schema, offered by the planner) its sources use: one flag per filter. The accepted
  // ones come back in ConnectorContext::filters when the source is created. The planner keeps every
  // filter in the query, so a source may skip rows that cannot match an accepted filter and must
  // never skip one that can; it need not drop every row that does not match.
  virtual bool supports_filter_push_down() const { return false; }
  virtual Result<std::vector<bool>> ApplyFilters(const ConnectorContext& ctx, const std::vector<ExprPtr>& filters) const {
    (void)ctx;
    return std::vector<bool>(filters.size(), false);
  }
  virtual Result<std::unique_ptr<TableSink>> CreateSink(const ConnectorContext& ctx) const;
};

// The built-in connectors. Lookup by 'connector' value; an unknown one gets a did-you-mean.
class ConnectorRegistry {
 public:
  static const ConnectorRegistry& Builtin();
  Result<const ConnectorFactory*> Find(const std::string& identifier) const;
  std::vector<const ConnectorFactory*> all() const;
  void Register(std::unique_ptr<ConnectorFactory> factory);

 private:
  std::vector<std::unique_ptr<ConnectorFactory>> factories_;
};

}  // namespace sluice
