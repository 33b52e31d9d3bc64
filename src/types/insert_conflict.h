// InsertConflictStrategy: what an INSERT's `ON CONFLICT DO ...` clause (Flink 2.3, FLIP-558) asks the
// sink to do when rows with different upsert keys of the query map to one PRIMARY KEY value of the
// sink. The parser records it on the INSERT, the binder copies it onto the plan's Sink node, the
// planner validates it and picks the materializer, EXPLAIN prints it as Flink's
// `conflictStrategy=[...]`. kNone: the statement has no clause.
#pragma once

#include <cstdint>

namespace sluice {

enum class InsertConflictStrategy : uint8_t {
  kNone,
  kError,        // ON CONFLICT DO ERROR: fail the job on a conflict (after watermark compaction)
  kNothing,      // ON CONFLICT DO NOTHING: keep the first row per key (after watermark compaction)
  kDeduplicate,  // ON CONFLICT DO DEDUPLICATE: the latest live row wins (SinkUpsertMaterializer)
};

// Flink's name of the behaviour ("ERROR", "NOTHING", "DEDUPLICATE"), as in `ON CONFLICT DO <name>` and
// EXPLAIN; "" for kNone.
inline const char* InsertConflictStrategyName(InsertConflictStrategy s) {
  switch (s) {
    case InsertConflictStrategy::kNone: return "";
    case InsertConflictStrategy::kError: return "ERROR";
    case InsertConflictStrategy::kNothing: return "NOTHING";
    case InsertConflictStrategy::kDeduplicate: return "DEDUPLICATE";
  }
  return "";
}

// Whether the strategy resolves conflicts by compacting on watermarks (Flink's
// WatermarkCompactingSinkMaterializer) rather than by keeping every live row (SinkUpsertMaterializer).
inline bool CompactsOnWatermarks(InsertConflictStrategy s) {
  return s == InsertConflictStrategy::kError || s == InsertConflictStrategy::kNothing;
}

}  // namespace sluice
