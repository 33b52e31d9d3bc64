// Helpers for Operator::StateBytes (runtime/operator.h): the bytes a state structure holds, from
// its sizes alone, so an operator adds up its state in time independent of its keys and rows.
//
// Flat containers count their capacity. Node-based containers (std::map, std::unordered_map,
// std::deque) count their entries times the entry and a per-node overhead (pointers, allocator
// header), an estimate; string keys stored in them count their inline bytes only, so operators
// keep such containers for small working sets, and large state in RowArena / KeyIndex, which
// account exactly.
//
// Threading: plain functions.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace sluice {

template <typename T>
size_t VectorBytes(const std::vector<T>& v) {
  return v.capacity() * sizeof(T);
}

// A vector of strings: the vector and the strings' heap bytes beyond their inline buffer (a walk of
// the strings, for vectors of at most a chunk's rows).
inline size_t StringsBytes(const std::vector<std::string>& v) {
  size_t bytes = VectorBytes(v);
  for (const auto& s : v) {
    if (s.capacity() > sizeof(std::string)) bytes += s.capacity() + 1;
  }
  return bytes;
}

// `n` entries of `entry_bytes` in a node-based container.
inline size_t NodeBytes(size_t n, size_t entry_bytes) { return n * (entry_bytes + 4 * sizeof(void*)); }

}  // namespace sluice
