// HeapTracker: a running total of the heap memory that per-id states own beyond their fixed slots
// (DISTINCT counts, string and list accumulators), for the memory budget (runtime/memory_budget.h).
//
// Measuring every state at every budget check would cost a pass over all groups per chunk. Instead
// an operator touches an id whenever it changes that id's state, and Total() re-measures only the
// ids touched since the previous call, adjusting the total by their difference. A budget check
// therefore costs the groups changed since the last check.
//
// Threading: the operator's task thread (the operator's const StateBytes() calls Total() on a
// mutable tracker).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace sluice {

class HeapTracker {
 public:
  void Touch(uint32_t id) {
    if (id >= stale_flag_.size()) {
      stale_flag_.resize(static_cast<size_t>(id) + 1, 0);
      bytes_.resize(static_cast<size_t>(id) + 1, 0);
    }
    if (stale_flag_[id]) return;
    stale_flag_[id] = 1;
    stale_.push_back(id);
  }

  // The heap of all ids, re-measuring the touched ones with `measure(id)` (bytes the id's state owns
  // now; 0 for a dropped id).
  template <typename Measure>
  size_t Total(Measure&& measure) {
    for (uint32_t id : stale_) {
      const size_t now = measure(id);
      total_ = total_ - bytes_[id] + now;
      bytes_[id] = now;
      stale_flag_[id] = 0;
    }
    stale_.clear();
    return total_;
  }

  void Reset() {
    bytes_.clear();
    stale_flag_.clear();
    stale_.clear();
    total_ = 0;
  }

  // The tracker's own bookkeeping.
  size_t MemoryUsage() const {
    return bytes_.capacity() * sizeof(size_t) + stale_flag_.capacity() + stale_.capacity() * sizeof(uint32_t);
  }

 private:
  std::vector<size_t> bytes_;         // per id: its heap when last measured
  std::vector<uint8_t> stale_flag_;   // per id: touched since the last Total()
  std::vector<uint32_t> stale_;       // the touched ids
  size_t total_ = 0;
};

}  // namespace sluice
