// RunOnDeepStack: runs a function on a thread with a large stack and waits for it.
//
// SQL nests: an expression of thousands of chained operators (sql::kMaxChainedOperators) recurses
// through the parser, the binder, the planner and the evaluator. The calling thread's stack (8 MB
// for a main thread, less for threads an embedding program starts) holds that in a plain build but
// not under sanitizers, whose frames are several times larger. A session runs each statement here
// instead, so the depth Sluice accepts does not depend on who calls it or how it was built.
//
// The stack is reserved address space; pages are committed only as the recursion touches them.
// An exception the function throws is rethrown on the calling thread.
//
// Threading: blocks the caller until the function returns; the function runs on the new thread.
#pragma once

#include <cstddef>
#include <functional>

namespace sluice {

// 256 MB: 5,000 chained operators need about 16 MB under AddressSanitizer.
inline constexpr size_t kDeepStackBytes = size_t{256} << 20;

void RunOnDeepStack(const std::function<void()>& fn, size_t stack_bytes = kDeepStackBytes);

}  // namespace sluice
