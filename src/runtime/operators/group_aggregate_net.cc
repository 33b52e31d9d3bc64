// GroupAggregateOperator's net changes (set_net_changes): when only a fold to the final table reads
// the output (the CLI's `--mode table`, a .test `final`), a window of input rows emits one change per
// key it changed instead of every change.
//
// The fold (engine/result_table.h) keeps, per live key, the row of its last +I/+U, in the order of
// those last changes. So per window the operator notes, per key, its result before the window and the
// input row of its last change that the full changelog would emit as +I/+U (a row whose result equals
// the one before it emits nothing, as in ProcessRows), and emits when the window closes: -D for a key
// live before the window and not after it (+I and -D for one started and emptied in it, see FlushNet);
// then, in the order of their last changes, +I for a key
// new in the window, else -U (when update-before is asked for) with the result before the window and
// +U with the current one. Folding that gives the same rows in the same order as folding the full
// changelog, wherever windows end; so the table does not depend on the chunk size either.
//
// A window closes at the end of input and before a checkpoint's barrier (so no snapshot holds one);
// with a state TTL after every chunk, as a group may expire between chunks, which the full changelog
// does not show, and a window would net across it. It holds O(keys it changed) memory: per key two
// results (CompactNetResults drops replaced ones). The open window survives an in-place restore
// ('sluice.exec.checkpoint-roundtrip'): it names groups by id, and a restore keeps the ids.
//
// The fold reads the table only when the job ends (the CLI prints it then), so emitting once at the
// end shows nothing later than before.
#include <algorithm>

#include "function/aggregate/aggregate_function.h"
#include "runtime/job.h"
#include "runtime/operators/group_aggregate_operator.h"
#include "state/key_encoder.h"
#include "state/sort_key.h"

namespace sluice {

namespace {

constexpr size_t kNetMinResultRows = 256;

}  // namespace

Status GroupAggregateOperator::ProcessRowsNet(Chunk& chunk) {
  const size_t n = chunk.size();
  metrics_.rows_in += static_cast<int64_t>(n);
  EncodeKeys(chunk, keys_, &encoded_);
  const size_t nk = keys_.size();
  if (net_results_.num_columns() == 0 && output_types_.size() > nk) {
    net_results_ = Chunk(std::vector<LogicalType>(output_types_.begin() + static_cast<std::ptrdiff_t>(nk), output_types_.end()));
  }
  // Results are written in place; a row is discarded again (the last one only) when it equals the
  // key's current result, so the rows before a key's current one are never overwritten. When the
  // rows run out, the ones still referenced are compacted to the front.
  auto finalize = [&](uint32_t id) {
    if (net_nresults_ >= net_results_.size()) CompactNetResults();
    layout_.Finalize(block(id), &net_results_, 0, net_nresults_);
    return net_nresults_++;
  };
  for (size_t r = 0; r < n; ++r) {
    const bool retract = !IsAccumulate(chunk.kind(r));
    uint32_t id = Lookup(encoded_[r]);
    const bool live = id != kNoGroup;
    if (!live) {
      if (retract) {
        ++metrics_.retractions_without_state;
        continue;
      }
      id = NewGroup(encoded_[r], chunk, r);
    }
    if (net_slot_.size() <= id) net_slot_.resize(live_.size(), kNoGroup);
    uint32_t& slot = net_slot_[id];
    if (slot == kNoGroup) {
      slot = static_cast<uint32_t>(net_keys_.size());
      NetKey k{id, live, kNoGroup, kNoGroup, -1};  // a new key has no result yet
      if (live) k.prev = k.cur = finalize(id);  // the result before the window
      net_keys_.push_back(k);
    }
    NetKey& key = net_keys_[slot];
    layout_.Update(block(id), chunk, r, retract);
    if (layout_.has_checks()) RETURN_IF_ERROR(layout_.Check(block(id)));
    if (!layout_.plain()) heap_.Touch(id);
    if (live && layout_.count(block(id)) <= 0) {
      DropGroup(id);  // the full changelog's -D; should the key come back, its +I is a change
      continue;
    }
    const uint32_t row = finalize(id);
    bool same = live;
    for (size_t c = 0; same && c < net_results_.num_columns(); ++c) {
      same = ValuesEqual(net_results_.column(c), key.cur, net_results_.column(c), row);
    }
    if (same) {
      --net_nresults_;  // no change: the full changelog emits nothing for this row
      continue;
    }
    key.cur = row;
    key.last = net_rows_ + static_cast<int64_t>(r);
  }
  net_rows_ += static_cast<int64_t>(n);
  return state_ttl_micros_ > 0 ? FlushNet() : Status::OK();
}

void GroupAggregateOperator::CompactNetResults() {
  // Keeps each key's result before the window and its current one; the rest were replaced.
  std::vector<uint32_t> sel;
  std::vector<uint32_t> moved(net_nresults_, kNoGroup);
  auto keep = [&](uint32_t row) {
    if (moved[row] == kNoGroup) {
      moved[row] = static_cast<uint32_t>(sel.size());
      sel.push_back(row);
    }
    return moved[row];
  };
  for (NetKey& k : net_keys_) {
    if (k.existed) k.prev = keep(k.prev);
    if (k.cur != kNoGroup) k.cur = keep(k.cur);
  }
  // Room for three times the kept rows, so compactions cost O(1) per result written.
  Chunk fresh;
  for (const auto& c : net_results_.columns()) fresh.AddColumn(Vector(c.type()));
  if (!sel.empty()) fresh.AppendFrom(net_results_, sel.data(), 0, sel.size(), /*copy_strings=*/true);
  fresh.Resize(std::max<size_t>(kNetMinResultRows, 4 * sel.size()));
  net_results_ = std::move(fresh);
  net_nresults_ = static_cast<uint32_t>(sel.size());
}

Status GroupAggregateOperator::FlushNet() {
  std::vector<uint32_t> changed;  // keys live after the window with a change in it
  for (size_t i = 0; i < net_keys_.size(); ++i) {
    const NetKey& k = net_keys_[i];
    net_slot_[k.id] = kNoGroup;
    if (live_[k.id] && k.last >= 0) changed.push_back(static_cast<uint32_t>(i));
  }
  std::sort(changed.begin(), changed.end(),
            [this](uint32_t a, uint32_t b) { return net_keys_[a].last < net_keys_[b].last; });
  const size_t nk = keys_.size();
  const size_t limit = std::max<size_t>(ctx_ && ctx_->chunk_size > 0 ? ctx_->chunk_size : Chunk::kDefaultCapacity, 2);
  Chunk out(output_types_);
  // Emits `out` first when `rows` more would overfill it (a -U/+U pair stays in one chunk).
  auto room = [&](size_t rows) -> Status {
    if (out.size() == 0 || out.size() + rows <= limit) return Status::OK();
    Chunk full = std::move(out);
    out = Chunk(output_types_);
    return Emit(full);
  };
  auto append_result = [&](const NetKey& k, uint32_t row, RowKind kind) {
    for (size_t c = 0; c < nk; ++c) out.column(c).AppendRow(key_store_.column(c), k.id);
    for (size_t a = 0; a < net_results_.num_columns(); ++a) out.column(nk + a).AppendRow(net_results_.column(a), row);
    out.kind_vector().push_back(kind);
  };
  Status st;
  for (const NetKey& k : net_keys_) {
    if (live_[k.id]) continue;
    if (k.existed) {
      if (st.ok()) st = room(1);
      append_result(k, k.prev, RowKind::kDelete);
    } else if (k.last >= 0) {
      // Started and emptied in the window. The full changelog's +I and -D remove a row the fold may
      // still hold for the key: one a state TTL expired without a change. The same pair does that here.
      if (st.ok()) st = room(2);
      append_result(k, k.cur, RowKind::kInsert);
      append_result(k, k.cur, RowKind::kDelete);
    }
  }
  for (uint32_t i : changed) {
    const NetKey& k = net_keys_[i];
    const bool update_before = k.existed && emit_update_before_;
    if (st.ok()) st = room(update_before ? 2 : 1);
    if (update_before) append_result(k, k.prev, RowKind::kUpdateBefore);
    AppendResult(k.id, block(k.id), k.existed ? RowKind::kUpdateAfter : RowKind::kInsert, &out);
  }
  if (st.ok() && out.size() > 0) st = Emit(out);
  // A new results chunk, so string bytes of the window's results do not pile up.
  net_keys_.clear();
  net_results_ = Chunk();
  net_nresults_ = 0;
  net_rows_ = 0;
  return st;
}

}  // namespace sluice
