// DeduplicateOperator's keyed state, shared by the operator (deduplicate_operator.cc) and its
// checkpoints (deduplicate_snapshot.cc). Internal to those two files.
#pragma once

#include <cstdint>
#include <deque>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "function/evaluator.h"
#include "runtime/operators/deduplicate_operator.h"
#include "state/delta.h"
#include "state/key_index.h"
#include "state/row_arena.h"
#include "state/sort_key.h"

namespace sluice {
namespace dedup_state {

constexpr uint32_t kNoRow = std::numeric_limits<uint32_t>::max();
constexpr int32_t kNoLocal = -1;
// Compaction threshold: rebuild the arena once at least this many released rows reach half the live
// ones (DeduplicateOperator::MaybeCompact).
constexpr size_t kMinDeadRowsToCompact = 1 << 16;

// A row waiting for the watermark (rowtime keep-first); a min-heap on (rowtime, seq).
struct Timer {
  int64_t rowtime;
  uint64_t seq;
  uint32_t key;
};
struct TimerLater {
  bool operator()(const Timer& a, const Timer& b) const {
    return a.rowtime != b.rowtime ? a.rowtime > b.rowtime : a.seq > b.seq;
  }
};

}  // namespace dedup_state

// The two files that include this header use these names unqualified.
using dedup_state::kMinDeadRowsToCompact;
using dedup_state::kNoLocal;
using dedup_state::kNoRow;
using dedup_state::Timer;
using dedup_state::TimerLater;

struct DeduplicateOperator::State {
  explicit State(const std::vector<LogicalType>& types) : arena(types) { segments.AllowDeferred(); }

  KeyIndex keys;
  // Per key id: the kept (or waiting) row (kNoRow: none). Only for the variants that use them: its
  // rowtime and the sequence number of the waiting row, to recognise stale timers (rowtime keep-first);
  // whether the key's row was emitted (keep-first); the processing time of its last write (state TTL).
  std::vector<uint32_t> row;
  std::vector<int64_t> rowtime;
  std::vector<uint8_t> done;
  std::vector<uint64_t> seq;
  std::vector<int64_t> written;
  std::deque<std::pair<int64_t, uint32_t>> expiry;  // (time, key) writes in time order (state TTL)
  RowArena arena;
  size_t live_rows = 0;
  size_t dead_rows = 0;
  std::vector<Timer> timers;
  uint64_t next_seq = 0;

  // Incremental checkpoints. The base is the state after the last snapshot or restore (none yet:
  // nothing is recorded): `dirty` marks keys below it written since, arena_base and expiry_base are
  // the sizes then, expiry_popped the entries popped since. segments holds the deltas recorded at
  // compactions since the base (num_segments of them, segments_bytes in all: their rows are written
  // by the checkpoint's thread); delta_broken: they grew too large and were dropped, so the next
  // checkpoint must be full.
  DeltaTracker dirty;
  size_t arena_base = 0;
  size_t expiry_base = 0;
  size_t expiry_popped = 0;
  StateWriter segments;
  uint64_t num_segments = 0;
  size_t segments_bytes = 0;
  bool delta_broken = false;

  // Scratch, reused across chunks.
  std::vector<std::string> encoded;
  std::vector<uint32_t> key_of_row;
  std::vector<uint32_t> sel;
  std::vector<uint8_t> passes;  // ChangelogNormalize's condition, per input row
  std::vector<int32_t> local_best;  // per key: input row that won within the current chunk (rowtime keep-first)
  std::vector<uint32_t> touched;
  std::vector<uint32_t> out_ids;
  std::vector<RowKind> out_kinds;
};

}  // namespace sluice
