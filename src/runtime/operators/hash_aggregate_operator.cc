#include "runtime/operators/hash_aggregate_operator.h"

#include <algorithm>

#include "common/check.h"
#include "function/aggregate/aggregate_function.h"
#include "runtime/job.h"
#include "state/key_encoder.h"
#include "state/state_bytes.h"
#include "state/state_serde.h"

namespace sluice {

HashAggregateOperator::HashAggregateOperator(std::string name, std::vector<LogicalType> input_types,
                                             std::vector<int> keys, std::vector<AccumulatorCall> aggs,
                                             std::vector<LogicalType> output_types)
    : Operator(std::move(name), 1),
      input_types_(std::move(input_types)),
      keys_(std::move(keys)),
      output_types_(std::move(output_types)),
      layout_(std::move(aggs), /*insert_only=*/true),  // batch input: no retraction
      stride_(layout_.block_bytes()) {
  // Blocks live in one std::vector<uint8_t>, whose storage operator new aligns to this.
  SLUICE_CHECK_LE(layout_.block_align(), static_cast<size_t>(__STDCPP_DEFAULT_NEW_ALIGNMENT__));
  std::vector<LogicalType> key_types;
  for (int k : keys_) key_types.push_back(input_types_[static_cast<size_t>(k)]);
  key_store_ = Chunk(key_types);
}

HashAggregateOperator::~HashAggregateOperator() { DropState(); }

Status HashAggregateOperator::Process(int, Chunk& chunk) {
  const size_t n = chunk.size();
  metrics_.rows_in += static_cast<int64_t>(n);
  EncodeKeys(chunk, keys_, &encoded_);
  for (size_t r = 0; r < n; ++r) {
    if (!IsAccumulate(chunk.kind(r))) {
      return Status::Internal(name() + " received a " + std::string(RowKindShortString(chunk.kind(r))) +
                              " row; a batch aggregate reads insert-only input");
    }
    bool inserted = false;
    const uint32_t id = index_.Insert(encoded_[r], &inserted);
    if (inserted) {
      for (size_t k = 0; k < keys_.size(); ++k) {
        key_store_.column(k).AppendFrom(chunk.column(static_cast<size_t>(keys_[k])), nullptr, r, 1,
                                        /*copy_strings=*/true);
      }
      key_store_.kind_vector().push_back(RowKind::kInsert);
      blocks_.resize(blocks_.size() + stride_);
      layout_.Init(block(id));
    }
    layout_.Update(block(id), chunk, r, /*retract=*/false);
  }
  return Status::OK();
}

Status HashAggregateOperator::EmitGroups(size_t begin, size_t end) {
  Chunk out(output_types_);
  const size_t nk = keys_.size();
  for (size_t id = begin; id < end; ++id) {
    for (size_t k = 0; k < nk; ++k) out.column(k).AppendRow(key_store_.column(k), id);
    const size_t row = out.size();
    for (size_t a = 0; a < layout_.calls().size(); ++a) out.column(nk + a).Resize(row + 1);
    layout_.Finalize(block(static_cast<uint32_t>(id)), &out, nk, row);
    out.kind_vector().push_back(RowKind::kInsert);
  }
  return Emit(out);
}

Status HashAggregateOperator::OnEndOfInput() {
  if (keys_.empty() && index_.size() == 0) {
    // One row for the empty global aggregation, from an empty group.
    blocks_.resize(stride_);
    layout_.Init(block(0));
    RETURN_IF_ERROR(EmitGroups(0, 1));
  }
  const size_t chunk_size = ctx_ && ctx_->chunk_size > 0 ? ctx_->chunk_size : Chunk::kDefaultCapacity;
  for (size_t begin = 0; begin < index_.size(); begin += chunk_size) {
    RETURN_IF_ERROR(EmitGroups(begin, std::min(index_.size(), begin + chunk_size)));
  }
  return EmitEndOfInput();
}

size_t HashAggregateOperator::StateBytes() const {
  size_t heap = 0;
  if (!layout_.plain()) {
    for (size_t id = 0; id < index_.size(); ++id) heap += layout_.HeapBytes(block(static_cast<uint32_t>(id)));
  }
  return index_.MemoryUsage() + key_store_.MemoryUsage() + VectorBytes(blocks_) + heap;
}

Status HashAggregateOperator::SnapshotState(StateWriter* w) {
  w->PutTag("hash-aggregate");
  index_.Snapshot(w);
  w->PutChunk(key_store_);
  const size_t n = index_.size();
  if (layout_.plain()) {
    w->Reserve(n * stride_);
    if (n > 0) w->PutRaw(blocks_.data(), n * stride_);
  } else {
    for (size_t id = 0; id < n; ++id) layout_.Serialize(block(static_cast<uint32_t>(id)), w);
  }
  return Status::OK();
}

Status HashAggregateOperator::RestoreState(StateReader* r) {
  DropState();
  r->ExpectTag("hash-aggregate");
  index_.Restore(r);
  std::vector<LogicalType> key_types;
  for (const auto& c : key_store_.columns()) key_types.push_back(c.type());
  r->GetChunk(key_types, &key_store_);
  if (r->ok() && key_store_.size() != index_.size()) r->Fail("group keys and key rows differ in number");
  const size_t n = r->ok() ? index_.size() : 0;
  if (layout_.plain() && n > r->remaining() / std::max<size_t>(stride_, 1)) r->Fail("hash aggregate blocks longer than their data");
  if (r->ok()) {
    blocks_.assign(n * stride_, 0);
    if (layout_.plain()) {
      if (n > 0) r->GetRaw(blocks_.data(), n * stride_);
      for (size_t id = 0; id < n && r->ok(); ++id) {
        for (size_t a = 0; a < layout_.calls().size(); ++a) {
          const AggregateFunction& f = *layout_.calls()[a].function;
          if (!RawStateValid(f, block(static_cast<uint32_t>(id)) + layout_.offset(a))) r->Fail("an invalid " + f.name + " state");
        }
      }
    } else {
      for (size_t id = 0; id < n && r->ok(); ++id) {
        layout_.Init(block(static_cast<uint32_t>(id)));
        layout_.Deserialize(block(static_cast<uint32_t>(id)), r);
      }
    }
  }
  // A state that could not be read whole is dropped (Operator::Restore calls DropState).
  return r->status();
}

void HashAggregateOperator::DropState() {
  if (!layout_.plain()) {
    // Destroy skips blocks that were never initialized (all zero).
    const size_t n = stride_ > 0 ? blocks_.size() / stride_ : 0;
    for (size_t id = 0; id < n; ++id) layout_.Destroy(block(static_cast<uint32_t>(id)));
  }
  index_.Clear();
  key_store_.Resize(0);
  blocks_.clear();
}

}  // namespace sluice
