// Growing a large array without holding both copies: when an array doubles, its old buffer is freed
// right after its contents were copied into the new one, so for a moment both are resident (a join's
// 134 MB entry array at 8.4M stored rows is 268 MB while it grows; the peak RSS of a state-growing
// query is set by those moments). These helpers copy in 1 MiB steps and hand each copied step's pages
// of the old buffer back to the kernel (madvise MADV_DONTNEED) at once, so a growth costs about one
// step more than the new buffer. Only whole pages inside the old buffer are dropped (never the
// allocator's headers around it), and only in buffers of at least 4 MiB.
//
// Threading: the caller owns both buffers; the old one must not be read after the copy (it is about
// to be freed: dropped pages read back as zeros).
#pragma once

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <vector>

namespace sluice {

namespace release_copy_internal {
constexpr size_t kStep = size_t{1} << 20;
constexpr size_t kMinBytes = size_t{4} << 20;

inline size_t PageSize() {
  static const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  return page;
}

// Drops the whole pages of [begin, end) not dropped yet (from *released on).
inline void ReleaseUpTo(uintptr_t* released, uintptr_t end) {
  end &= ~(PageSize() - 1);
  if (end > *released) {
    madvise(reinterpret_cast<void*>(*released), end - *released, MADV_DONTNEED);
    *released = end;
  }
}

inline uintptr_t FirstWholePage(const void* p) {
  const uintptr_t page = PageSize();
  return (reinterpret_cast<uintptr_t>(p) + page - 1) & ~(page - 1);
}
}  // namespace release_copy_internal

// Copies `bytes` from `from` to `to` (not overlapping); `from` is garbage afterwards.
inline void CopyReleasingSource(void* to, void* from, size_t bytes) {
  using namespace release_copy_internal;
  if (bytes < kMinBytes) {
    if (bytes > 0) std::memcpy(to, from, bytes);
    return;
  }
  const uintptr_t base = reinterpret_cast<uintptr_t>(from);
  uintptr_t released = FirstWholePage(from);
  for (size_t done = 0; done < bytes;) {
    const size_t n = std::min(kStep, bytes - done);
    std::memcpy(static_cast<char*>(to) + done, static_cast<const char*>(from) + done, n);
    done += n;
    ReleaseUpTo(&released, base + done);
  }
}

// Grows `v` (trivially copyable elements) to a capacity of at least `capacity`, as push_back would,
// copying step by step and dropping the old buffer's copied pages as it goes.
template <typename T, typename A>
void GrowReleasingSource(std::vector<T, A>* v, size_t capacity) {
  static_assert(std::is_trivially_copyable_v<T>);
  using namespace release_copy_internal;
  if (v->capacity() >= capacity) return;
  std::vector<T, A> grown;
  grown.reserve(std::max(capacity, 2 * v->capacity()));
  T* src = v->data();
  const size_t n = v->size();
  const size_t step = std::max<size_t>(1, kStep / sizeof(T));
  const bool release = n * sizeof(T) >= kMinBytes;
  const uintptr_t base = reinterpret_cast<uintptr_t>(src);
  uintptr_t released = FirstWholePage(src);
  for (size_t done = 0; done < n;) {
    const size_t m = std::min(step, n - done);
    grown.insert(grown.end(), src + done, src + done + m);
    done += m;
    if (release) ReleaseUpTo(&released, base + done * sizeof(T));
  }
  v->swap(grown);
}

}  // namespace sluice
