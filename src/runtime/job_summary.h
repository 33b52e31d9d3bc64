// JobSummary: what a job did, printed as one line on stderr when it ends (issue 2, DESIGN.md §9):
// rows read per source (and records skipped as malformed), changes written per sink by kind, late
// rows dropped, elapsed time and peak memory. A job that fails once it started running gets one
// too ("job failed: ..."), printed before its error.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace sluice {

struct JobSummary {
  struct SourceStats {
    std::string table;
    int64_t rows = 0;
    int64_t skipped = 0;  // malformed records skipped by 'json.ignore-parse-errors' and the like
    // The source's own fields (TableSource::SummaryFields), e.g. an Iceberg scan's planned and
    // skipped files: "source t(rows=10, result-data-files=1, skipped-data-files=3)".
    std::vector<std::pair<std::string, std::string>> fields;
  };
  struct SinkStats {
    std::string table;  // the sink table, or "(select)" for a query result
    int64_t inserts = 0, update_befores = 0, update_afters = 0, deletes = 0;
    int64_t dropped_not_null = 0;  // rows dropped by 'table.exec.sink.not-null-enforcer' = 'DROP'
    // The writer's own summary columns (SinkWriter::SummaryFields), e.g. an Iceberg table's
    // snapshots and deletes; empty for most sinks.
    std::vector<std::pair<std::string, std::string>> fields;
  };
  std::vector<SourceStats> sources;
  std::vector<SinkStats> sinks;
  int64_t late_rows_dropped = 0;
  // Late rows per dropping operator (its late-row label, runtime/late_rows.h), operators that dropped none left out.
  std::vector<std::pair<std::string, int64_t>> late_rows_per_operator;
  // The late-rows table ('sluice.exec.late-rows.table') and the rows written to it; empty when none.
  std::string late_rows_table;
  int64_t late_rows_recorded = 0;
  int64_t retractions_without_state = 0;
  int64_t expired_states = 0;
  // Operators that measure their state: label, peak state bytes, rows in its frames at the peak.
  struct StateStats {
    std::string op;
    int64_t peak_bytes = 0;
    int64_t rows = 0;
  };
  std::vector<StateStats> state_per_operator;
  // Checkpoints taken by this run (and the one restored from, if any).
  struct CheckpointStats {
    int64_t taken = 0;
    int64_t last_bytes = 0;
    int64_t total_bytes = 0;
    double max_seconds = 0;       // trigger to durable
    double total_seconds = 0;
    double sync_seconds = 0;      // the synchronous part (barriers and snapshots), which stalls the job
    double max_sync_seconds = 0;
    int64_t restored_from = -1;  // checkpoint id, -1 when the job started fresh
    int64_t delta_states = 0;    // operator states written as deltas (incremental checkpoints)
    int64_t aborted = 0;         // checkpoints abandoned (the one a bounded job's final checkpoint made unnecessary)
    int64_t failed = 0;          // checkpoints that failed (a write error, the timeout) and the job tolerated
    // A bounded job's final checkpoint, from its start (waiting for the previous one) until durable:
    // the time the job spent after its last row only because it checkpoints.
    double final_seconds = 0;
  };
  CheckpointStats checkpoints;
  // Warnings for the user (a corrupt checkpoint skipped at restore), printed before the summary.
  std::vector<std::string> notes;
  double elapsed_seconds = 0;
  // The job's own peak memory: the most resident memory (RSS) the process held during the job above
  // what it held when the job started (RssMeter), so memory the embedding process had before the
  // job does not count.
  int64_t peak_rss_bytes = 0;
  bool failed = false;  // the job failed (its error follows the summary)
  // "job finished: source pos(rows=22276) -> sink lines(+I=58119) late_dropped=0 elapsed=0.412s peak_rss=52428800";
  // with late rows "late_dropped=3(WindowAggregate=2, Deduplicate=1) -> late rows late_rows(+I=3)".
  std::string ToString() const;
  // The sinks' own summary columns as aligned tables (one per set of columns, a header line and a
  // line per sink; numbers right-aligned), each line ending in '\n'; empty when no sink has any:
  //   table                      snapshots  written files eq deletes pos deletes  key
  //   stream.store_sales_daily           1   58,119     1        775      57,344  business_date,store_id
  std::string SinkTables() const;
};

// Measures a job's own peak memory: the most resident memory the process holds while the meter
// runs, above what it held when the meter started.
//
// How: the kernel's peak (getrusage's ru_maxrss) is exact when the process reaches a new peak during
// the job, as a process that runs one job does; when the process had held more before (memory it
// since freed, or still holds: a large embedding process), the peak during the job is not the
// process's, so the meter falls back to the largest current RSS it sampled (Sample(), after job
// steps), a lower bound. It never resets the kernel's peak (/proc/self/clear_refs), which the
// embedding process and tools such as `time -v` read.
//
// Threading: one thread (the job's task thread).
class RssMeter {
 public:
  RssMeter();
  // Reads the current RSS (a cheap /proc read) when called; the job calls it after some steps.
  void Sample();
  // The peak so far, above the RSS at the start (0 when the job added none).
  int64_t PeakGrowthBytes();

 private:
  int64_t start_rss_ = 0;
  int64_t start_max_rss_ = 0;
  int64_t max_sampled_ = 0;
};

// Resident memory of this process now, and its peak (ru_maxrss), in bytes; 0 when unknown.
int64_t CurrentRssBytes();
int64_t PeakRssBytes();

}  // namespace sluice
