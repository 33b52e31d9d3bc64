#include "common/failpoint.h"

#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <string>

namespace sluice {

bool FailpointReached(std::string_view point) {
  static const char* spec = std::getenv("SLUICE_FAILPOINT");
  if (spec == nullptr || *spec == '\0') return false;
  static std::atomic<int64_t> hits{0};  // points are reached on the task thread and the checkpoint writer
  std::string_view s(spec);
  int64_t target = 1;
  size_t at = s.find('@');
  std::string_view name = s.substr(0, at);
  if (at != std::string_view::npos) target = std::atoll(std::string(s.substr(at + 1)).c_str());
  if (name != point) return false;
  return ++hits == target;
}

void Failpoint(std::string_view point) {
  if (FailpointReached(point)) ::kill(::getpid(), SIGKILL);
}

}  // namespace sluice
