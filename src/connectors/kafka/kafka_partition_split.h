// One Kafka partition as a SourceSplit, and the consumer its source's splits share.
//
// All splits of a source share one librdkafka consumer (KafkaConsumerState) that is assigned every
// partition at explicit start offsets; each split reads its own partition queue, so the runtime
// interleaves partitions deterministically. A bounded split ends at its end offset (exclusive); an
// unbounded split never ends. Partitions are assigned at the first Read of any split after they were
// added (the first: rd_kafka_assign; partitions discovered later: rd_kafka_incremental_assign), so a
// restore can first move a split's start (SeekToPosition, StartAsDiscovered).
//
// Checkpoints (SourceSplit::CheckpointPosition): a split's position is the next offset of its
// partition after a given row of its last Read (plus the rows of that record already emitted, the
// end offset and the start-timestamp filter's state); restore seeks there, as Flink's KafkaSource
// keeps partition offsets in its checkpoints. With 'properties.commit.offsets.on.checkpoint'
// (SourceSplit::NotifyCheckpointComplete) the offsets of a completed checkpoint are committed to the
// group in one asynchronous request once every split reported its own.
//
// Reading never spins: a split polls its queue without waiting, and once every active split of the
// source came back empty in a row, the next poll waits up to kKafkaPollMillis for a record. Read
// then returns true with no rows (the runtime moves on to other splits).
//
// Threading: splits are read by the job's task thread; the shared consumer is thread-safe.
#pragma once

#include <librdkafka/rdkafka.h>

#include <memory>
#include <string>
#include <vector>

#include "connectors/connector.h"
#include "connectors/kafka/kafka_client.h"
#include "connectors/kafka/kafka_row_assembler.h"
#include "connectors/kafka/kafka_start_offsets.h"

namespace sluice {

inline constexpr int kKafkaPollMillis = 100;

// Shared by the splits of one source: the consumer, its partition queues and the empty-poll count.
struct KafkaConsumerState {
  std::unique_ptr<KafkaHandle> handle;
  std::vector<rd_kafka_queue_t*> queues;
  int active_splits = 0;
  int empty_streak = 0;  // consecutive Reads of any split that found nothing
  // Every partition with its start offset (element i: split i); the first `assigned` are assigned.
  rd_kafka_topic_partition_list_t* assignment = nullptr;
  int assigned = 0;
  // 'properties.commit.offsets.on.checkpoint': each split reports its offset when a checkpoint
  // completes; once all have, they are committed to the group in one asynchronous request.
  bool commit_offsets = false;
  int64_t commit_checkpoint = 0;
  int commit_reported = 0;
  std::vector<int64_t> commit_offsets_pending;

  KafkaConsumerState() = default;
  KafkaConsumerState(const KafkaConsumerState&) = delete;
  KafkaConsumerState& operator=(const KafkaConsumerState&) = delete;
  ~KafkaConsumerState();
  // Assigns the partitions added since the last call.
  Status Assign();
  // Wait for records only once every active split found nothing: then there is nothing else to do.
  bool ShouldWait() const { return empty_streak >= active_splits; }
  // Split `slot`'s offset at completed checkpoint `id`; commits when every split reported (Flink
  // commits asynchronously too and never fails the job for it: the checkpoint has the offsets).
  void NoteCommit(int64_t id, int slot, int64_t offset);

 private:
  void CommitPending();
};

// Client-level events (errors not tied to a partition) arrive on the consumer queue; librdkafka
// retries transient ones itself, so only a fatal error fails (`what` names the read). Waits up to
// `wait_ms` for the first event (the consumer's queue holds no records: each partition has its own).
Status ServeKafkaConsumerQueue(rd_kafka_t* rk, int wait_ms, const std::string& what);

// A split for partition `p` (read from `p.start`, ending at `p.stop`), added to `state`'s
// assignment. `start_at_ts` / `stop_at_ts` (kNoOffset: none): records are read from the first one
// with a timestamp at or after `start_at_ts`, and the split ends before the first one at or after
// `stop_at_ts` (exact also where a cluster cannot look offsets up by time: the mock cluster).
Result<std::unique_ptr<SourceSplit>> MakeKafkaPartitionSplit(const std::shared_ptr<KafkaConsumerState>& state,
                                                             const PartitionRange& p, int64_t start_at_ts,
                                                             int64_t stop_at_ts,
                                                             std::unique_ptr<RowAssembler> assembler);

}  // namespace sluice
