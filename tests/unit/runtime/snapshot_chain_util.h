// Test helpers for incremental checkpoints (issue 5): an operator's full snapshot, its deltas, and a
// restore from a chain (a full snapshot then deltas, in order), as Job::RestoreFrom reads them.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "runtime/operator.h"
#include "state/state_serde.h"

namespace sluice {
namespace snapshot_chain {

inline std::string FullSnapshot(Operator& op) {
  StateWriter w;
  Status st = op.WriteSnapshot(&w);
  EXPECT_TRUE(st.ok()) << st.ToString();
  return w.Release();
}

inline std::string Delta(Operator& op) {
  EXPECT_TRUE(op.CanSnapshotDelta());
  StateWriter w;
  Status st = op.WriteDelta(&w);
  EXPECT_TRUE(st.ok()) << st.ToString();
  return w.Release();
}

inline Status RestoreFull(Operator& op, const std::string& bytes) {
  StateReader r(bytes, op.name() + " snapshot");
  return op.Restore(&r);
}

inline Status RestoreDelta(Operator& op, const std::string& bytes) {
  StateReader r(bytes, op.name() + " delta");
  return op.ApplyDelta(&r);
}

// Restores `op` from `chain`, failing the test on an error.
inline void RestoreChain(Operator& op, const std::vector<std::string>& chain) {
  Status st = RestoreFull(op, chain[0]);
  ASSERT_TRUE(st.ok()) << st.ToString();
  for (size_t k = 1; k < chain.size(); ++k) {
    st = RestoreDelta(op, chain[k]);
    ASSERT_TRUE(st.ok()) << "delta " << k << ": " << st.ToString();
  }
}

}  // namespace snapshot_chain
}  // namespace sluice
