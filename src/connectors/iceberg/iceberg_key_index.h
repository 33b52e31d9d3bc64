// The primary-key index of 'sluice.write.delete-mode' = 'position' and 'dv' (beyond Flink): where
// each live key of an Iceberg table is, as (data file, row position), so every delete the sink
// writes is a position delete (or a deletion vector) and readers without equality-delete support
// (PyIceberg) read the table.
//
// The index is built from the table itself when a writer starts (and again after a restore, once
// the restored checkpoint is committed): the key columns of every live data file of the current
// snapshot are read with their row positions, minus the rows its position deletes and deletion
// vectors remove. A table with equality deletes is refused (its live rows are not known by
// position). The sink's task writer then keeps the index up to date as it writes.
//
// Threading: pure functions.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "common/file_io.h"
#include "common/status.h"
#include "connectors/iceberg/deletion_vector.h"
#include "connectors/iceberg/table_metadata.h"
#include "types/vector.h"

namespace sluice {

// Calls `add(path, keys)` for every live data file of the current snapshot, where `keys` holds the
// columns `key_ids` (Sluice types `key_types`) of its live rows and, last, their positions (BIGINT).
// `table` names the table in errors, `mode` the delete mode that needs the index.
//
// `deleted` (optional) is called after the keys, once per data file with deleted rows: the file's path, the
// live deletion vector's manifest entry (nullptr when its deletes are only position delete files)
// and every deleted position (the vector's and the position delete files'), which a writer of
// deletion vectors merges into the file's next vector.
using DeletedRowsFn = std::function<Status(const std::string& data_file, const DataFile* dv, DeletionVector positions)>;
[[nodiscard]] Status ScanLiveKeys(FileIO* io, const TableMetadata& md, const std::vector<int32_t>& key_ids,
                                  const std::vector<LogicalType>& key_types, const std::string& table,
                                  const std::string& mode,
                                  const std::function<Status(const std::string&, const Chunk&)>& add,
                                  const DeletedRowsFn& deleted = nullptr);

}  // namespace sluice
