// The primary-key index of 'sluice.write.delete-mode' = 'position' (beyond Flink): where each live
// key of an Iceberg table is, as (data file, row position), so every delete the sink writes is a
// position delete and readers without equality-delete support (PyIceberg) read the table.
//
// The index is built from the table itself when a writer starts (and again after a restore, once
// the restored checkpoint is committed): the key columns of every live data file of the current
// snapshot are read with their row positions, minus the rows its position deletes remove. A table
// with equality deletes or deletion vectors is refused (its live rows are not known by position).
// The sink's task writer then keeps the index up to date as it writes.
//
// Threading: pure functions.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "common/file_io.h"
#include "common/status.h"
#include "connectors/iceberg/table_metadata.h"
#include "types/vector.h"

namespace sluice {

// Calls `add(path, keys)` for every live data file of the current snapshot, where `keys` holds the
// columns `key_ids` (Sluice types `key_types`) of its live rows and, last, their positions (BIGINT).
// `table` names the table in errors.
[[nodiscard]] Status ScanLiveKeys(FileIO* io, const TableMetadata& md, const std::vector<int32_t>& key_ids,
                                  const std::vector<LogicalType>& key_types, const std::string& table,
                                  const std::function<Status(const std::string&, const Chunk&)>& add);

}  // namespace sluice
