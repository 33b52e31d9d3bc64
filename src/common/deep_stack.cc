#include "common/deep_stack.h"

#include <pthread.h>

#include <exception>

#include "common/check.h"

namespace sluice {
namespace {

struct Call {
  const std::function<void()>* fn;
  std::exception_ptr error;
};

void* Trampoline(void* arg) {
  auto* call = static_cast<Call*>(arg);
  try {
    (*call->fn)();
  } catch (...) {
    call->error = std::current_exception();
  }
  return nullptr;
}

}  // namespace

void RunOnDeepStack(const std::function<void()>& fn, size_t stack_bytes) {
  Call call{&fn, nullptr};
  pthread_attr_t attr;
  pthread_t thread;
  bool started = pthread_attr_init(&attr) == 0 && pthread_attr_setstacksize(&attr, stack_bytes) == 0 &&
                 pthread_create(&thread, &attr, &Trampoline, &call) == 0;
  pthread_attr_destroy(&attr);
  if (!started) {
    // No thread (address space or thread limits): run here, with the caller's stack.
    fn();
    return;
  }
  SLUICE_CHECK_EQ(pthread_join(thread, nullptr), 0);
  if (call.error) std::rethrow_exception(call.error);
}

}  // namespace sluice
