// AggregateFunction: one resolved SQL aggregate call (COUNT, SUM, $SUM0, AVG, MIN, MAX, FIRST_VALUE,
// LAST_VALUE, LISTAGG, VAR_POP, VAR_SAMP, STDDEV_POP, STDDEV_SAMP, and the planner's SINGLE_VALUE) with Flink's semantics and result
// types, as a set of callbacks over a fixed-size per-group state slot.
//
// Contract with the operator (GroupAggregate, OverAggregate, ...): per group it allocates
// `state_size` bytes aligned to `state_align` (8, or 16 for DECIMAL SUM/AVG), calls init once, update
// for every input row (retract = true for -U/-D rows; only when supports_retract), finalize whenever it
// needs the current result (finalize does not change the state and may be called any number of
// times), and destroy exactly once when the group is dropped. NULL arguments are skipped by every
// function except COUNT(*), as in SQL. Append-only variants (needs_retract = false) keep plain values
// in the slot and never allocate, except for strings, which they copy into one owned buffer per slot
// (rewritten only when the kept value changes; LISTAGG's grows). Retract variants of MIN/MAX/
// FIRST_VALUE/LAST_VALUE/LISTAGG keep an owning pointer to heap memory in the slot (freed by destroy).
// Retracting a value that was never accumulated is tolerated the way Flink's functions do (counters
// go negative and a later accumulation cancels them; FIRST_VALUE/LAST_VALUE ignore it; LISTAGG keeps
// it pending for a merge). An append-only variant (supports_retract = false) CHECK-fails on retract.
// COUNT(*) reads no argument (args may be null); LISTAGG reads only args[0], its separator comes from
// constant_args at resolution. Functions resolved with needs_retract = false also accept retract = true
// where that costs nothing (COUNT, SUM, $SUM0, AVG, variance family always support retraction).
//
// Semantics and types (Flink's): COUNT -> BIGINT NOT NULL; SUM of TINYINT..BIGINT/FLOAT/DOUBLE -> the
// same type (integral sums wrap as Java's), DECIMAL(p,s) -> DECIMAL(38,s), NULL when no non-null value
// is (still) counted; $SUM0 (alias SUM0) -> same type NOT NULL, 0 when empty; AVG -> the argument type
// (integral AVG truncates), DECIMAL(p,s) -> DECIMAL(38,max(6,s)) rounded half up; MIN/MAX/FIRST_VALUE/
// LAST_VALUE -> the argument type (nullable, time attribute dropped); LISTAGG -> the VARCHAR argument
// type (STRING for CHAR); VAR_POP/VAR_SAMP/STDDEV_POP/STDDEV_SAMP (aliases VARIANCE, STDDEV) -> as AVG.
// A DECIMAL result beyond 38 digits is NULL, as Flink's decimal overflow.
//
// Threading: an AggregateFunction is immutable after resolution and may be shared between tasks; a
// state slot belongs to the task that owns the group.
#pragma once
#include <functional>
#include <memory>
#include <string>
#include <vector>
#include "common/status.h"
#include "types/logical_type.h"
namespace sluice {

class StateWriter;
class StateReader;
class Vector; class Value;
// One resolved aggregate call. Per group the operator allocates `state_size` bytes aligned to
// `state_align`, calls init once, update per input row (retract = true for -U/-D rows), finalize to
// read the current result, destroy when the group is dropped. State that needs heap memory (MIN/MAX
// with retraction, LISTAGG, FIRST_VALUE/LAST_VALUE with retraction) keeps an owning pointer in the slot.
struct AggregateFunction {
  std::string name;           // upper-case SQL name: COUNT, SUM, MIN, ...
  std::string explain_name;   // as Flink's EXPLAIN prints it, e.g. "SUM" or "SUM_RETRACT", "COUNT_RETRACT"
  std::vector<LogicalType> arg_types;
  LogicalType result_type;
  bool supports_retract = true;
  size_t state_size = 0;
  size_t state_align = 8;
  std::function<void(uint8_t* state)> init;
  std::function<void(uint8_t* state)> destroy;
  // args[i] are the argument vectors (of arg_types[i]); row is the row to (un)accumulate.
  std::function<void(uint8_t* state, const Vector* const* args, size_t row, bool retract)> update;
  // Writes the current result into out (of result_type) at out_row; sets NULL when the SQL result is NULL.
  std::function<void(const uint8_t* state, Vector* out, size_t out_row)> finalize;

  // Additions beyond the interface above (may be empty; callers check before calling).
  //
  // Folds `other` (an initialized state of the same function, left unchanged) into `state`, for
  // local/global (two-phase) aggregation: `other` must hold rows that arrived after those in `state`
  // (FIRST_VALUE/LAST_VALUE/LISTAGG depend on it). Retractions that `other` saw without a matching
  // accumulation cancel against `state` (negative counts, pending removals), as Flink's merge does.
  // Empty when the function cannot merge (FIRST_VALUE/LAST_VALUE with retraction, as in Flink);
  // then the planner must not split the aggregate into local and global phases.
  std::function<void(uint8_t* state, const uint8_t* other)> merge;
  // Heap bytes owned by the state beyond its `state_size` slot (an estimate for memory accounting and
  // EXPLAIN's state-size reporting). Empty when the function never owns heap memory.
  std::function<size_t(const uint8_t* state)> heap_bytes;
  // Checkpoints (state/state_serde.h): write the state, and read it back into an initialized state.
  // Empty for states that are plain bytes (no heap_bytes): those are saved as their state_size bytes.
  std::function<void(const uint8_t* state, StateWriter* w)> serialize;
  std::function<void(uint8_t* state, StateReader* r)> deserialize;
  // Plain-bytes states: the offsets of their bool fields, which a restore checks hold 0 or 1 (any
  // other byte there would be undefined behaviour, so such a state is refused as corrupt).
  std::vector<uint32_t> raw_bools;
  // A runtime failure of the current state, checked by the operator after each update (SINGLE_VALUE's
  // second row). Empty when the function never fails.
  std::function<Status(const uint8_t* state)> check;
  // Plain-bytes states (no serialize, heap_bytes or check): functions with the same non-null tag keep
  // the same state (size and bytes) with the same update rule, so calls of two such functions over
  // the same arguments and FILTER hold equal states (SUM and AVG of one BIGINT column), which an
  // operator may store once (AccumulatorLayout's share_states). RowCountStateTag(): the state is an
  // int64 of accumulated minus retracted rows, whatever the arguments hold (COUNT(*)).
  const void* state_tag = nullptr;
};

const void* RowCountStateTag();

// Checkpoints of plain-bytes states: whether `state`'s bool fields hold 0 or 1 (raw_bools), and the
// read of one such state, refused through `r` when invalid.
bool RawStateValid(const AggregateFunction& f, const uint8_t* state);
void GetRawState(const AggregateFunction& f, uint8_t* state, StateReader* r);
// Resolves NAME(args) for GROUP BY / OVER aggregation. `needs_retract`: the input has -U/-D rows, so the
// function must support retraction (and explain_name gets Flink's _RETRACT suffix where Flink uses one).
// `constant_args[i]` is the value of argument i when it is a literal (LISTAGG's separator), else null.
// Unknown name or bad argument types: Status::BindError with Flink-like wording.
Result<std::shared_ptr<const AggregateFunction>> ResolveAggregate(const std::string& name,
    const std::vector<LogicalType>& arg_types, const std::vector<const Value*>& constant_args, bool needs_retract);
}  // namespace sluice
