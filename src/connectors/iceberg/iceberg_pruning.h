// Scan pruning by a pushed-down filter (iceberg_filter.h), with the meaning of Iceberg's own
// evaluators: a manifest or data file is skipped only when no row in it can match; everything else
// is read (the query's Calc filters the rows).
//
//   - Partition projection (Iceberg's Projections.inclusive): per partition spec, each predicate on
//     a source column becomes a predicate on its partition fields that every matching row's
//     partition value satisfies: identity keeps it; bucket[N] keeps =, IN (on the bucket of the
//     literals); truncate[W] and year/month/day/hour turn < v into <= T(v - 1), > v into >= T(v + 1),
//     <=, >=, =, IN into the same on T(v) (strings: < and <= into <= T(v), startsWith into
//     startsWith(T(prefix))); time transforms widen negative (pre-1970) results by one, as Iceberg does
//     for files that older writers partitioned by truncating toward zero. IS [NOT] NULL carries over
//     through every transform but void. Other predicates project to true.
//   - Data manifests are skipped by their partition summaries (ManifestEvaluator: contains_null,
//     contains_nan, lower and upper bounds of each partition field); delete manifests are always read,
//     so every delete that applies to a kept data file still applies.
//   - Data files are skipped by their partition tuple (the projected filter evaluated exactly) and by
//     their column metrics (InclusiveMetricsEvaluator: record, value, null and NaN counts, lower and
//     upper bounds; truncated string bounds stay valid bounds).
//   - Row groups of the Parquet files read are skipped by their column statistics the same way.
// A bound that is NaN or cannot be decoded never prunes.
//
// Threading: one scan planning at a time (caches projections per spec).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "connectors/iceberg/iceberg_filter.h"
#include "connectors/iceberg/manifest.h"
#include "connectors/iceberg/table_metadata.h"
#include "formats/parquet/parquet_metadata.h"

namespace sluice {

// What pruning did, with the names of Iceberg's ScanMetrics.
struct IcebergScanMetrics {
  int64_t result_data_files = 0;
  int64_t skipped_data_files = 0;
  int64_t scanned_data_manifests = 0;
  int64_t skipped_data_manifests = 0;
  std::vector<std::pair<std::string, std::string>> SummaryFields() const;
};

class IcebergScanPruner {
 public:
  // `filter` is bound to `metadata`'s current schema; `metadata` must outlive the pruner.
  IcebergScanPruner(const TableMetadata& metadata, IcebergFilter filter)
      : metadata_(metadata), filter_(std::move(filter)) {}

  // False when no data file the manifest lists can match (data manifests only).
  bool ManifestMightMatch(const ManifestFile& manifest);
  // False when no row of the data file can match, by its partition or its column metrics.
  bool FileMightMatch(const DataFile& file, int32_t spec_id);

  // The filter projected onto the partition fields of `spec` (predicates name field positions).
  IcebergFilter Project(const PartitionSpec& spec) const;

 private:
  struct SpecFilter {
    IcebergFilter filter;
    std::vector<IcebergType> types;  // the partition fields' result types
    bool known = false;              // false: the spec is missing or does not bind; nothing prunes
  };
  const SpecFilter& ForSpec(int32_t spec_id);

  const TableMetadata& metadata_;
  IcebergFilter filter_;
  std::map<int32_t, SpecFilter> specs_;
};

// The row groups of a Parquet data file that `filter` (bound to `schema`) might match, by their
// column statistics (null counts, min_value/max_value) of top-level columns matched by field id:
// ints, longs, dates, floats, doubles, booleans, strings and microsecond (nanosecond for the _ns
// types) timestamps; other columns never prune. Used by the scan reader (iceberg_scan_reader.h);
// row positions stay those of the whole file, so position deletes still line up.
std::vector<int> IcebergRowGroupsToRead(const parquet::FileMetaData& metadata, const IcebergFilter& filter,
                                        const IcebergSchema& schema);

}  // namespace sluice
