// The job's memory budget and its out-of-memory guard (issue 15).
//
// Budget ('taskmanager.memory.process.size', JobContext::memory_budget_bytes): the most bytes the
// job's state may hold. What counts is every operator's StateBytes() (runtime/operator.h: its rows,
// keys, accumulators and indexes, as its state structures account them) plus the checkpoint
// buffers the job keeps between checkpoints; not counted are the process's code and libraries, the
// chunks in flight (one step's worth) and the connectors' buffers. The job checks after every step
// (a source chunk and everything it caused downstream): adding up one figure per operator, never
// walking the state, so the check costs the same whatever the state's size. Over the budget, the
// job fails naming the operator that holds the most state and how much.
//
// Out of memory: an allocation that fails anyway (std::bad_alloc: a huge string, an allocation the
// budget did not foresee, a process limit) escapes whatever code ran; GuardOutOfMemory turns it into
// the same kind of error, naming the operator that was running (JobContext::running).
//
// Both fail the job like any other error: nothing is committed past the last completed checkpoint.
//
// The process sets no limit of its own (RLIMIT_AS): address space is not memory (AddressSanitizer
// reserves terabytes of shadow, the allocator and thread stacks reserve more than they touch), so
// such a limit would fail jobs that fit; and RSS limits are the container's business. Under Linux's
// default overcommit a process that outgrows the machine is killed by the OOM killer rather than
// seeing std::bad_alloc, which is what the budget is for: set it below the container's memory.
//
// Threading: the job's task thread.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "common/status.h"

namespace sluice {

struct JobContext;
class Operator;

// An error when the operators' state plus `extra_bytes` (the job's checkpoint buffers) exceeds
// ctx.memory_budget_bytes (0: no budget).
Status CheckMemoryBudget(const JobContext& ctx, const std::vector<std::unique_ptr<Operator>>& operators,
                         int64_t extra_bytes);

// Runs `body`; an std::bad_alloc (or std::length_error: a string or vector asked for more than it can
// hold) it throws becomes a RuntimeError naming ctx.running (the operator the allocation failed in,
// when known) and the state the operators hold.
Status GuardOutOfMemory(const JobContext& ctx, const std::vector<std::unique_ptr<Operator>>& operators,
                        const std::function<Status()>& body);

}  // namespace sluice
