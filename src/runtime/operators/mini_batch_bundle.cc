#include "runtime/operators/mini_batch_bundle.h"

#include <algorithm>
#include <unordered_map>

#include "state/key_encoder.h"
#include "state/state_serde.h"

namespace sluice {

MiniBatchBundle::MiniBatchBundle(std::vector<std::vector<LogicalType>> input_types, int64_t size)
    : types_(std::move(input_types)), size_(size) {
  for (const auto& t : types_) rows_.emplace_back(t);
}

Status MiniBatchBundle::Add(int input, const Chunk& chunk, const std::function<Status()>& close) {
  Chunk& rows = rows_[static_cast<size_t>(input)];
  size_t pos = 0;
  while (pos < chunk.size()) {
    const size_t take = std::min(static_cast<size_t>(size_ - count_), chunk.size() - pos);
    rows.AppendFrom(chunk, nullptr, pos, take);
    pos += take;
    count_ += static_cast<int64_t>(take);
    if (count_ >= size_) RETURN_IF_ERROR(close());
  }
  return Status::OK();
}

Chunk MiniBatchBundle::Take() { return std::move(TakeAll()[0]); }

std::vector<Chunk> MiniBatchBundle::TakeAll() {
  std::vector<Chunk> out;
  for (size_t i = 0; i < rows_.size(); ++i) {
    out.push_back(std::move(rows_[i]));
    rows_[i] = Chunk(types_[i]);
  }
  count_ = 0;
  return out;
}

void MiniBatchBundle::Clear() {
  for (auto& r : rows_) r.Resize(0);
  count_ = 0;
}

size_t MiniBatchBundle::MemoryUsage() const {
  size_t bytes = 0;
  for (const auto& r : rows_) bytes += r.MemoryUsage();
  return bytes;
}

void MiniBatchBundle::Snapshot(StateWriter* w) const {
  for (const auto& r : rows_) w->PutChunk(r);
}

void MiniBatchBundle::Restore(StateReader* r) {
  count_ = 0;
  for (size_t i = 0; i < rows_.size(); ++i) {
    r->GetChunk(types_[i], &rows_[i]);
    count_ += static_cast<int64_t>(rows_[i].size());
  }
  if (r->ok() && count_ > 0 && (size_ <= 0 || count_ >= size_)) {
    r->Fail("a mini-batch of " + std::to_string(count_) + " rows for a mini-batch size of " + std::to_string(size_));
  }
}

void GroupRowsByKey(const Chunk& rows, const std::vector<int>& keys, std::vector<std::string>* encoded,
                    std::vector<std::vector<uint32_t>>* per_key) {
  EncodeKeys(rows, keys, encoded);
  std::unordered_map<std::string_view, size_t> slot;
  per_key->clear();
  for (size_t r = 0; r < rows.size(); ++r) {
    auto [it, inserted] = slot.emplace((*encoded)[r], per_key->size());
    if (inserted) per_key->emplace_back();
    (*per_key)[it->second].push_back(static_cast<uint32_t>(r));
  }
}

}  // namespace sluice
