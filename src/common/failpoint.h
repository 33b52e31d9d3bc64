// Failpoints for the crash harness (tests/crash/): SLUICE_FAILPOINT=<name>[@<n>] in the environment
// kills the process with SIGKILL the n-th time (default: first) the named point is reached.
//
// Points: checkpoint.before-sync, checkpoint.after-sync (the checkpoint is durable),
// sink.after-precommit (the sinks flushed), checkpoint.before-commit, checkpoint.after-commit (the sinks
// committed, the sources' offsets went out), restore.during, checkpoint.stall (not a kill: a checkpoint
// write waits until it is abandoned); the exactly-once Kafka sink's kafka.before-commit-transaction
// (its progress marker is in the transaction, commit_transaction not called),
// kafka.after-commit-transaction (committed, the job not told) and kafka.recovery-before-commit (a
// restored checkpoint's records produced again and flushed, their transaction not committed).
//
// Threading: any thread (the count is atomic).
#pragma once

#include <string_view>

namespace sluice {

// Kills the process (SIGKILL) when SLUICE_FAILPOINT names `point` and its count is reached.
void Failpoint(std::string_view point);
// Whether SLUICE_FAILPOINT names `point` and this is the count-th time it is reached (points that do
// something else than kill: "checkpoint.stall" makes a Write wait until it is abandoned).
bool FailpointReached(std::string_view point);

}  // namespace sluice
