#include "runtime/job_summary.h"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>

namespace sluice {

std::string JobSummary::ToString() const {
  std::string s = failed ? "job failed:" : "job finished:";
  for (const auto& src : sources) {
    s += " source " + src.table + "(rows=" + std::to_string(src.rows);
    if (src.skipped) s += ", skipped=" + std::to_string(src.skipped);
    for (const auto& [k, v] : src.fields) s += ", " + k + "=" + v;
    s += ")";
  }
  for (const auto& snk : sinks) {
    s += " -> sink " + snk.table + "(+I=" + std::to_string(snk.inserts);
    if (snk.update_befores) s += ", -U=" + std::to_string(snk.update_befores);
    if (snk.update_afters) s += ", +U=" + std::to_string(snk.update_afters);
    if (snk.deletes) s += ", -D=" + std::to_string(snk.deletes);
    if (snk.dropped_not_null) s += ", dropped_not_null=" + std::to_string(snk.dropped_not_null);
    s += ")";
  }
  if (retractions_without_state) s += " retractions_without_state=" + std::to_string(retractions_without_state);
  if (expired_states) s += " expired_states=" + std::to_string(expired_states);
  for (const auto& st : state_per_operator) {
    s += " state_peak=" + st.op + "(" + std::to_string(st.peak_bytes) + "B, rows=" + std::to_string(st.rows) + ")";
  }
  s += " late_dropped=" + std::to_string(late_rows_dropped);
  if (!late_rows_per_operator.empty()) {
    s += "(";
    for (size_t i = 0; i < late_rows_per_operator.size(); ++i) {
      s += (i ? ", " : "") + late_rows_per_operator[i].first + "=" + std::to_string(late_rows_per_operator[i].second);
    }
    s += ")";
  }
  if (!late_rows_table.empty()) s += " -> late rows " + late_rows_table + "(+I=" + std::to_string(late_rows_recorded) + ")";
  if (checkpoints.restored_from >= 0) s += " restored_from=chk-" + std::to_string(checkpoints.restored_from);
  if (checkpoints.taken > 0) {
    char cb[224];
    std::snprintf(cb, sizeof(cb), " checkpoints=%lld(last=%lldB, avg=%.1fms, max=%.1fms, sync_avg=%.1fms, sync_max=%.1fms)",
                  static_cast<long long>(checkpoints.taken), static_cast<long long>(checkpoints.last_bytes),
                  1000.0 * checkpoints.total_seconds / static_cast<double>(checkpoints.taken),
                  1000.0 * checkpoints.max_seconds,
                  1000.0 * checkpoints.sync_seconds / static_cast<double>(checkpoints.taken),
                  1000.0 * checkpoints.max_sync_seconds);
    s += cb;
    if (checkpoints.delta_states > 0) {
      // Operator states written as deltas on an earlier checkpoint's (incremental checkpoints).
      s.insert(s.size() - 1, ", incremental=" + std::to_string(checkpoints.delta_states));
    }
    if (checkpoints.aborted > 0) s.insert(s.size() - 1, ", aborted=" + std::to_string(checkpoints.aborted));
    if (checkpoints.failed > 0) s.insert(s.size() - 1, ", failed=" + std::to_string(checkpoints.failed));
    if (checkpoints.final_seconds > 0) {
      char fb[48];
      std::snprintf(fb, sizeof(fb), ", final=%.1fms", 1000.0 * checkpoints.final_seconds);
      s.insert(s.size() - 1, fb);
    }
    s.insert(s.size() - 1, ", written=" + std::to_string(checkpoints.total_bytes) + "B");
  }
  char buf[96];
  std::snprintf(buf, sizeof(buf), " elapsed=%.3fs peak_rss=%lld", elapsed_seconds, static_cast<long long>(peak_rss_bytes));
  return s + buf;
}

namespace {

bool IsNumber(const std::string& v) {
  return !v.empty() && std::all_of(v.begin(), v.end(), [](char c) { return (c >= '0' && c <= '9') || c == ','; });
}

}  // namespace

std::string JobSummary::SinkTables() const {
  std::string out;
  std::vector<bool> done(sinks.size(), false);
  for (size_t i = 0; i < sinks.size(); ++i) {
    if (done[i] || sinks[i].fields.empty()) continue;
    std::vector<const SinkStats*> rows;
    for (size_t j = i; j < sinks.size(); ++j) {
      if (done[j] || sinks[j].fields.size() != sinks[i].fields.size()) continue;
      bool same = true;
      for (size_t k = 0; k < sinks[i].fields.size(); ++k) same = same && sinks[j].fields[k].first == sinks[i].fields[k].first;
      if (!same) continue;
      done[j] = true;
      rows.push_back(&sinks[j]);
    }
    const size_t cols = sinks[i].fields.size();
    std::vector<size_t> width(cols);
    for (size_t k = 0; k < cols; ++k) {
      width[k] = sinks[i].fields[k].first.size();
      for (const SinkStats* r : rows) width[k] = std::max(width[k], r->fields[k].second.size());
    }
    auto line = [&](auto cell) {
      std::string l;
      for (size_t k = 0; k < cols; ++k) {
        auto [text, right] = cell(k);
        const std::string pad(width[k] - text.size(), ' ');
        if (k > 0) l += "  ";
        l += right ? pad + text : text + (k + 1 < cols ? pad : "");
      }
      return l + "\n";
    };
    out += line([&](size_t k) { return std::pair<std::string, bool>(sinks[i].fields[k].first, k > 0 && IsNumber(rows[0]->fields[k].second)); });
    for (const SinkStats* r : rows) {
      out += line([&](size_t k) { return std::pair<std::string, bool>(r->fields[k].second, k > 0 && IsNumber(r->fields[k].second)); });
    }
  }
  return out;
}

int64_t CurrentRssBytes() {
  // /proc/self/statm: "size resident shared ..." in pages.
  FILE* f = std::fopen("/proc/self/statm", "r");
  if (f == nullptr) return 0;
  long long size = 0, resident = 0;
  const int n = std::fscanf(f, "%lld %lld", &size, &resident);
  std::fclose(f);
  if (n != 2) return 0;
  return static_cast<int64_t>(resident) * static_cast<int64_t>(sysconf(_SC_PAGESIZE));
}

RssMeter::RssMeter() : start_rss_(CurrentRssBytes()), start_max_rss_(PeakRssBytes()), max_sampled_(start_rss_) {}

void RssMeter::Sample() { max_sampled_ = std::max(max_sampled_, CurrentRssBytes()); }

int64_t RssMeter::PeakGrowthBytes() {
  Sample();
  const int64_t max_rss = PeakRssBytes();
  // A new peak of the process was reached during the job: that is the job's peak, exactly.
  const int64_t peak = max_rss > start_max_rss_ ? std::max(max_rss, max_sampled_) : max_sampled_;
  return std::max<int64_t>(0, peak - start_rss_);
}

int64_t PeakRssBytes() {
  struct rusage ru;
  if (getrusage(RUSAGE_SELF, &ru) != 0) return 0;
  return static_cast<int64_t>(ru.ru_maxrss) * 1024;
}

}  // namespace sluice
