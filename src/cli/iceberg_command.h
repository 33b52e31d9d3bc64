// `sluice iceberg compact` and `sluice iceberg expire-snapshots`: table maintenance from the command
// line (connectors/iceberg/iceberg_maintenance.h), as Iceberg's rewrite_data_files and
// expire_snapshots procedures. The catalog is a warehouse path or URI (a hadoop catalog) or the
// options of a CREATE CATALOG as 'key=value,key=value' ('catalog-type=rest,uri=http://...').
// Results print as "<name>\t<value>" lines with the procedures' output names.
#pragma once

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>

namespace sluice {

struct IcebergCommandOptions {
  std::string action;   // "compact" | "expire-snapshots"
  std::string catalog;  // a warehouse, or catalog options
  std::string table;    // db.table
  std::optional<int64_t> target_file_size;
  std::string older_than;  // epoch milliseconds or 'YYYY-MM-DD HH:MM:SS[.fff]' (UTC)
  std::optional<int64_t> retain_last;
};

// Returns the process exit code; errors go to `err` as "sluice: error: ...".
int RunIcebergCommand(const IcebergCommandOptions& options, std::ostream& out, std::ostream& err);

}  // namespace sluice
