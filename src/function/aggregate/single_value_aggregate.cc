// SINGLE_VALUE: the aggregate Calcite puts over a scalar subquery that may return more than one row.
// It returns the one value it received (NULL for none) and fails the job on a second row, with Flink's
// wording. The value is kept by LAST_VALUE's state (any type LAST_VALUE keeps), after a row count.
#include <cstring>

#include "function/aggregate/aggregate_util.h"
#include "state/state_serde.h"

namespace sluice::aggregate_internal {

namespace {

constexpr size_t kCountBytes = 16;  // the row count, padded so the inner state keeps its alignment

int64_t RowCount(const uint8_t* state) {
  int64_t c;
  std::memcpy(&c, state, sizeof c);
  return c;
}

}  // namespace

Status MakeSingleValue(AggregateFunction* f, bool needs_retract) {
  AggregateFunction value;
  value.arg_types = f->arg_types;
  RETURN_IF_ERROR(MakeFirstLastValue(&value, /*is_last=*/true, needs_retract));
  auto inner = std::make_shared<AggregateFunction>(std::move(value));
  f->result_type = inner->result_type;
  f->supports_retract = inner->supports_retract;
  f->explain_name = "SINGLE_VALUE";
  f->state_align = std::max<size_t>(inner->state_align, 8);
  const size_t off = std::max(kCountBytes, f->state_align);
  f->state_size = off + inner->state_size;
  f->init = [inner, off](uint8_t* s) {
    std::memset(s, 0, off);
    inner->init(s + off);
  };
  f->destroy = [inner, off](uint8_t* s) { inner->destroy(s + off); };
  // Every row counts, NULL values included (the subquery returned a row).
  f->update = [inner, off](uint8_t* s, const Vector* const* args, size_t row, bool retract) {
    const int64_t c = RowCount(s) + (retract ? -1 : 1);
    std::memcpy(s, &c, sizeof c);
    inner->update(s + off, args, row, retract);
  };
  f->finalize = [inner, off](const uint8_t* s, Vector* out, size_t row) { inner->finalize(s + off, out, row); };
  f->check = [](const uint8_t* s) {
    if (RowCount(s) > 1) return Status::RuntimeError("SingleValueAggFunction received more than one element.");
    return Status::OK();
  };
  if (inner->heap_bytes) {
    f->heap_bytes = [inner, off](const uint8_t* s) { return inner->heap_bytes(s + off); };
  }
  f->serialize = [inner, off](const uint8_t* s, StateWriter* w) {
    w->PutI64(RowCount(s));
    if (inner->serialize) {
      inner->serialize(s + off, w);
    } else {
      w->PutRaw(s + off, inner->state_size);
    }
  };
  f->deserialize = [inner, off](uint8_t* s, StateReader* r) {
    const int64_t c = r->GetI64();
    std::memcpy(s, &c, sizeof c);
    if (inner->deserialize) {
      inner->deserialize(s + off, r);
    } else {
      GetRawState(*inner, s + off, r);
    }
  };
  return Status::OK();
}

}  // namespace sluice::aggregate_internal
