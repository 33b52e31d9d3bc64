// Removing files from a table's manifests, for the commits that replace files (a deletion vector
// replaced by a merged one, iceberg_committer.h; data files rewritten by compaction,
// iceberg_maintenance.h), as Java's ManifestFilterManager does: a manifest that holds a removed file
// is written again for the new snapshot with that entry DELETED (by the new snapshot, its sequence
// numbers kept), its other live entries EXISTING and the entries an earlier snapshot deleted dropped.
//
// Threading: pure functions over a FileIO.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "common/file_io.h"
#include "common/status.h"
#include "connectors/iceberg/manifest.h"
#include "connectors/iceberg/table_metadata.h"

namespace sluice {

// Writes the copy of manifest `m` (whose entries are `entries`) at `location` for `snapshot_id`,
// with the entries `remove` selects DELETED; counts each removed file in `changes`.
[[nodiscard]] Result<ManifestFile> RewriteManifestRemoving(FileIO* io, const TableMetadata& md, const ManifestFile& m,
                                                           const std::vector<ManifestEntry>& entries,
                                                           const std::function<bool(const ManifestEntry&)>& remove,
                                                           int64_t snapshot_id, const std::string& location,
                                                           SnapshotChanges* changes);

// Counts a file a snapshot adds or removes in the summary's changes (Java's SnapshotSummary: a
// deletion vector counts as a DV with its blob's size, not as a position delete file).
void CountAddedFile(const DataFile& f, SnapshotChanges* changes);
void CountRemovedFile(const DataFile& f, SnapshotChanges* changes);

// Whether a manifest of the parent snapshot holds nothing for the next one (only DELETED entries).
bool OnlyDeletedEntries(const ManifestFile& m);

}  // namespace sluice
