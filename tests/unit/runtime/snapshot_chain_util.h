// Test helpers for incremental checkpoints (issue 5): an operator's full snapshot, its deltas, and a
// restore from a chain (a full snapshot then deltas, in order), as Job::RestoreFrom reads them.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
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

// Restoring a chain whose last delta fails. Cut short in its header (tag and versions), it is refused
// before anything changes. Cut short anywhere after that, or damaged there (a damaged byte may also
// still read as a valid state), it fails halfway and must leave the operator empty: no further delta
// applies to it and its full snapshot equals a fresh operator's. The whole chain then restores again, to the state
// a clean restore of it has. `make` returns a new operator, opened, configured like the one that
// wrote `chain` (a full snapshot and at least one delta).
template <typename MakeOperator>
void ExpectFailedDeltasDropTheState(const MakeOperator& make, const std::vector<std::string>& chain) {
  ASSERT_GE(chain.size(), 2u);
  const std::string empty = FullSnapshot(*make());
  std::string restored;
  {
    auto op = make();
    RestoreChain(*op, chain);
    restored = FullSnapshot(*op);
  }
  const std::vector<std::string> head(chain.begin(), chain.end() - 1);
  const std::string& last = chain.back();
  // The delta's header (its tag and versions) ends where the base part's tag begins.
  const size_t header = last.find("operator");
  ASSERT_NE(header, std::string::npos);
  ASSERT_GT(header, 1u);
  const size_t past_header = header - 1;
  // Cut short in its header, a delta is refused before it changes anything: the chain continues.
  for (size_t len = 0; len < past_header; ++len) {
    auto op = make();
    RestoreChain(*op, head);
    EXPECT_FALSE(RestoreDelta(*op, last.substr(0, len)).ok()) << "cut at " << len;
    Status st = RestoreDelta(*op, last);
    EXPECT_TRUE(st.ok()) << "after a cut at " << len << ": " << st.ToString();
    EXPECT_EQ(FullSnapshot(*op), restored) << "after a cut at " << len;
  }
  // Checks the operator after `bad` failed; `what` names the damage. Returns whether it was refused.
  auto check = [&](const std::string& bad, const std::string& what, bool must_fail) {
    auto op = make();
    RestoreChain(*op, head);
    Status st = RestoreDelta(*op, bad);
    if (st.ok()) {
      EXPECT_FALSE(must_fail) << what;
      return false;
    }
    EXPECT_FALSE(RestoreDelta(*op, chain[1]).ok()) << what << ": a delta applied after a failed one";
    EXPECT_EQ(FullSnapshot(*op), empty) << what << ": " << st.ToString();
    RestoreChain(*op, chain);
    EXPECT_EQ(FullSnapshot(*op), restored) << what;
    return true;
  };
  const size_t stride = std::max<size_t>(1, (last.size() - past_header) / 100);
  for (size_t len = past_header; len < last.size(); len += stride) {
    check(last.substr(0, len), "cut at " + std::to_string(len) + " of " + std::to_string(last.size()), true);
  }
  check(last.substr(0, last.size() - 1), "cut by one byte", true);
  check(last + std::string(1, '\0'), "one byte too many", true);
  int refused = 0;
  for (size_t i = past_header; i < last.size(); i += stride) {
    for (uint8_t flip : {0x01, 0x80, 0xff}) {
      std::string bad = last;
      bad[i] = static_cast<char>(bad[i] ^ flip);
      refused += check(bad, "byte " + std::to_string(i) + " ^ " + std::to_string(flip), false) ? 1 : 0;
    }
  }
  EXPECT_GT(refused, 0);
}

}  // namespace snapshot_chain
}  // namespace sluice
