#include "runtime/pending_commits.h"

#include "connectors/connector.h"
#include "state/state_serde.h"

namespace sluice {

Status PendingCommits::PreCommit(SinkWriter* writer, int64_t id) {
  ASSIGN_OR_RETURN(std::string committables, writer->PreCommit(id));
  pending_.emplace_back(id, std::move(committables));
  return Status::OK();
}

Status PendingCommits::CommitUpTo(SinkWriter* writer, int64_t id) {
  size_t done = 0;
  Status st;
  for (; done < pending_.size() && pending_[done].first <= id; ++done) {
    if (pending_[done].second.empty()) continue;
    st = writer->Commit(pending_[done].second);
    if (!st.ok()) break;
  }
  pending_.erase(pending_.begin(), pending_.begin() + static_cast<std::ptrdiff_t>(done));
  return st;
}

void PendingCommits::Put(StateWriter* w) const {
  w->PutVarint(pending_.size());
  for (const auto& p : pending_) w->PutString(p.second);
}

std::vector<std::string> PendingCommits::Get(StateReader* r) {
  const size_t n = r->GetCount();
  std::vector<std::string> committables;
  for (size_t i = 0; i < n && r->ok(); ++i) committables.push_back(r->GetString());
  return committables;
}

Status PendingCommits::Recover(SinkWriter* writer, const std::vector<std::string>& committables) {
  for (size_t i = 0; i + 1 < committables.size(); ++i) {
    if (!committables[i].empty()) RETURN_IF_ERROR(writer->Commit(committables[i]));
  }
  return writer->RecoverAndCommit(committables.empty() ? std::string() : committables.back());
}

}  // namespace sluice
