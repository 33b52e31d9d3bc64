#include "runtime/memory_budget.h"

#include <new>
#include <stdexcept>
#include <string>

#include "common/config.h"
#include "runtime/job.h"
#include "runtime/operator.h"

namespace sluice {
namespace {

struct StateTotals {
  int64_t total = 0;
  const Operator* largest = nullptr;
  int64_t largest_bytes = 0;
};

StateTotals AddUpState(const std::vector<std::unique_ptr<Operator>>& operators) {
  StateTotals t;
  for (const auto& op : operators) {
    const auto bytes = static_cast<int64_t>(op->StateBytes());
    t.total += bytes;
    if (t.largest == nullptr || bytes > t.largest_bytes) {
      t.largest = op.get();
      t.largest_bytes = bytes;
    }
  }
  return t;
}

std::string JobName(const JobContext& ctx) { return "Job '" + (ctx.job_name.empty() ? "job" : ctx.job_name) + "'"; }

// The error of an allocation that failed (`what`): it names the operator that was running.
Status OutOfMemoryError(const JobContext& ctx, const std::vector<std::unique_ptr<Operator>>& operators,
                        const std::string& what) {
  // The failed allocation's memory was never handed out, so there is room to say where it failed.
  const StateTotals t = AddUpState(operators);
  std::string msg = JobName(ctx) + " ran out of memory (" + what + ")";
  if (ctx.running != nullptr) {
    msg += " in operator " + ctx.running->digest() + ", which holds " +
           FormatMemorySize(static_cast<int64_t>(ctx.running->StateBytes())) + " of state";
  }
  return Status::RuntimeError(msg + "; the job's state: " + FormatMemorySize(t.total));
}

}  // namespace

Status CheckMemoryBudget(const JobContext& ctx, const std::vector<std::unique_ptr<Operator>>& operators,
                         int64_t extra_bytes) {
  if (ctx.memory_budget_bytes <= 0) return Status::OK();
  const StateTotals t = AddUpState(operators);
  if (t.total + extra_bytes <= ctx.memory_budget_bytes) return Status::OK();
  std::string msg = JobName(ctx) + " exceeded the memory budget ('" + kProcessMemoryKey +
                    "' = " + FormatMemorySize(ctx.memory_budget_bytes) + "): ";
  if (t.largest != nullptr && t.largest_bytes > 0) {
    msg += "operator " + t.largest->digest() + " holds " + FormatMemorySize(t.largest_bytes) + " of state";
    if (t.total != t.largest_bytes) msg += " (all operators: " + FormatMemorySize(t.total) + ")";
  } else {
    msg += "the operators hold " + FormatMemorySize(t.total) + " of state";
  }
  if (extra_bytes > 0) msg += ", and its checkpoint buffers " + FormatMemorySize(extra_bytes);
  return Status::RuntimeError(msg + "; raise '" + kProcessMemoryKey + "' or reduce the state (fewer keys, a state TTL)");
}

Status GuardOutOfMemory(const JobContext& ctx, const std::vector<std::unique_ptr<Operator>>& operators,
                        const std::function<Status()>& body) {
  try {
    return body();
  } catch (const std::bad_alloc&) {
    return OutOfMemoryError(ctx, operators, "an allocation failed: std::bad_alloc");
  } catch (const std::length_error& e) {
    // A container asked for more than it can ever hold (a string or vector beyond its max_size()).
    return OutOfMemoryError(ctx, operators, std::string("an allocation too large: std::length_error: ") + e.what());
  }
}

}  // namespace sluice
