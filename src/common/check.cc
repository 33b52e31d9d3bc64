#include "common/check.h"

#include <cstdio>
#include <cstdlib>

namespace sluice::internal {

void CheckFailed(const char* file, int line, const std::string& what) {
  std::fprintf(stderr, "sluice: internal check failed at %s:%d: %s\n", file, line, what.c_str());
  std::fflush(stderr);
  std::abort();
}

}  // namespace sluice::internal
