// `sluice iceberg compact`, `expire-snapshots` and `remove-orphan-files`: table maintenance from the
// command line (connectors/iceberg/iceberg_maintenance.h), as Iceberg's rewrite_data_files,
// expire_snapshots and remove_orphan_files procedures. The catalog is a warehouse path or URI (a hadoop catalog) or the
// options of a CREATE CATALOG as 'key=value,key=value' ('catalog-type=rest,uri=http://...').
// Results print as "<name>\t<value>" lines with the procedures' output names (remove-orphan-files:
// one "orphan_file_location\t<location>" line per file).
#pragma once

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>

namespace sluice {

struct IcebergCommandOptions {
  std::string action;   // "compact" | "expire-snapshots" | "remove-orphan-files"
  std::string catalog;  // a warehouse, or catalog options
  std::string table;    // db.table
  std::optional<int64_t> target_file_size;
  std::string older_than;  // epoch milliseconds or 'YYYY-MM-DD HH:MM:SS[.fff]' (UTC)
  std::optional<int64_t> retain_last;
  bool dry_run = false;  // remove-orphan-files: list, do not delete
};

// Returns the process exit code; errors go to `err` as "sluice: error: ...".
int RunIcebergCommand(const IcebergCommandOptions& options, std::ostream& out, std::ostream& err);

}  // namespace sluice
