// The 'filesystem' connector (Flink's): reads and writes files of a format ('json', 'csv',
// 'debezium-json') under a 'path'. A changelog format (debezium-json) makes the source a changelog
// and the sink accept every change, as Flink's FileSystemTableSource/Sink take the format's mode.
//
// Source (bounded): 'path' is a file or a directory. A directory's files are found recursively,
// skipping hidden entries (names starting with '.' or '_', as Flink does), and sorted by their path
// so splits are read in a deterministic order; each file is one SourceSplit. A split reads its file
// in large blocks (1 MiB, grown for longer records) and lets the format cut records inside the block
// without copying them, then decodes whole batches into the chunk. Metadata columns 'file.path',
// 'file.name' (STRING) and 'file.size' (BIGINT) are offered. A split's checkpoint position
// (SourceSplit::CheckpointPosition) is the file's size and modification time, the byte offset and
// line of a record boundary, the malformed records skipped before it and the rows from there on
// already emitted; a restore seeks there (re-decoding at most one read's records) and refuses a file
// that changed since the checkpoint, naming it.
//
// Sink (append-only with 'json' and 'csv': accepts inserts only): 'path' is a directory, created when missing. Writer i
// writes files part-<i>-0.<ext>, part-<i>-1.<ext>, ... (numbering continues after files already
// there), each first as a hidden ".part-....inprogress" file renamed when complete, so a reader
// never sees half a file. 'sink.rolling-policy.file-size' (default 128 MB) starts a new file once
// a file grows past it.
//
// Threading: the factory is stateless; each split and each writer is used by one thread.
#pragma once

#include <string>
#include <vector>

#include "common/status.h"

namespace sluice {

// The files a source 'path' denotes, in read order (see above). Errors name the path.
Result<std::vector<std::string>> ListSourceFiles(const std::string& path);

}  // namespace sluice
