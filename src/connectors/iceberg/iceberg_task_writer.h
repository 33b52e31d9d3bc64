// IcebergTaskWriter: what one Iceberg sink task writes between two checkpoints, as Flink's task
// writers (PartitionedFanoutWriter for appends; BaseDeltaTaskWriter with BaseEqualityDeltaWriter
// per partition for updating queries and upserts):
//
//  - append (an insert-only query without upsert): rows go to the rolling data file of their
//    partition;
//  - delta: per row, in order, with the equality fields (the identifier fields, or every column of a
//    table without them) as the key:
//      +I/+U: upsert: deleteKey(key), then write(row); otherwise write(row)
//      -U:    upsert: skipped; otherwise delete(row)
//      -D:    upsert: deleteKey(key); otherwise delete(row)
//    write(row) records key -> (data file, row position) for this checkpoint (Flink's
//    insertedRowMap); a key written again gets a position delete on its earlier row. delete/deleteKey
//    of a key written in this checkpoint is a position delete on that row, of any other key an
//    equality delete (the key columns for deleteKey, the whole row for delete). Keys are per
//    partition, as Flink keeps one delta writer per partition.
//
// Position deletes are kept in memory until Complete, which writes them sorted by (file_path, pos)
// per partition (or as deletion vectors, format v3), closes every file and returns them all; the key
// map starts empty again.
//
// Threading: one sink task.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "common/file_io.h"
#include "common/status.h"
#include "connectors/iceberg/deletion_vector.h"
#include "connectors/iceberg/iceberg_file_writer.h"
#include "connectors/iceberg/partition_router.h"
#include "types/vector.h"

namespace sluice {

// A deletion vector that a new one (holding its positions too) replaces: the commit removes it.
struct ReplacedDeletionVector {
  std::string data_file;  // the referenced data file
  std::string path;       // the Puffin file of the replaced vector
  int64_t offset = 0;     // its content_offset
};

struct IcebergWriteResult {
  std::vector<DataFile> data_files;
  std::vector<DataFile> delete_files;
  std::vector<ReplacedDeletionVector> replaced_dvs;
  bool empty() const { return data_files.empty() && delete_files.empty(); }
};

struct IcebergTaskWriterOptions {
  FileIO* io = nullptr;
  std::string table_location;
  IcebergFileSpec data;
  IcebergFileSpec equality_delete;  // used in delta mode
  IcebergFileSpec position_delete;
  bool delta = false;
  bool upsert = false;
  std::vector<int> key_columns;  // chunk columns of the equality fields (delta mode)
  // 'sluice.write.delete-mode' = 'position': the key map is a primary-key index of the whole table
  // (kept across checkpoints, filled by AddIndexed), so a key not in it has nothing to delete and
  // every delete is a position delete.
  bool position_mode = false;
  // Format v3 tables: position deletes are written as deletion vectors (Puffin 'deletion-vector-v1'
  // blobs, one per data file, all of a Complete in one Puffin file), as the spec requires ("position
  // delete files must not be added to v3 tables"). Each data file gets at most one vector per
  // Complete. In equality mode only files of this checkpoint are referenced; with position_mode too
  // ('sluice.write.delete-mode' = 'dv') files of earlier snapshots are, and a file's new vector is
  // merged with its previous one (AddDeleted, then the vectors this writer wrote), which the commit
  // removes (IcebergWriteResult::replaced_dvs), so a data file keeps one live vector (the v3 rule).
  bool deletion_vectors = false;
};

class IcebergTaskWriter {
 public:
  IcebergTaskWriter(IcebergTaskWriterOptions options, PartitionRouter router);
  ~IcebergTaskWriter();

  [[nodiscard]] Status Write(const Chunk& chunk);
  // Closes every open file and returns what was written since the last Complete.
  [[nodiscard]] Result<IcebergWriteResult> Complete();
  // Gives up every open file (and, in position and dv mode, the index and the files' deleted positions:
  // rebuild them with AddIndexed and AddDeleted).
  void Abort();
  // Position mode: records the live keys of a data file of the table; `keys` holds the key columns
  // then the row positions (iceberg_key_index.h).
  [[nodiscard]] Status AddIndexed(const std::string& path, const Chunk& keys);
  // 'dv' mode: the deleted positions of a data file of the table and its live deletion vector
  // (nullptr: none), merged into the file's next vector (iceberg_key_index.h's DeletedRowsFn).
  [[nodiscard]] Status AddDeleted(const std::string& path, const DataFile* dv, DeletionVector positions);

 private:
  struct PathOffset {
    uint32_t path = 0;  // index into paths_
    int64_t pos = 0;
  };
  // 'dv' mode: a data file's deleted positions so far and its live vector (Puffin path, offset).
  struct FileVector {
    DeletionVector positions;
    std::string dv_path;  // empty: no live vector
    int64_t dv_offset = 0;
  };
  struct PartitionState {
    std::unique_ptr<RollingFileWriter> data;
    std::unique_ptr<RollingFileWriter> eq_deletes;
    std::vector<PathOffset> pos_deletes;
    std::vector<uint32_t> pending_rows;     // rows of the current chunk to write
    std::vector<uint32_t> pending_deletes;  // rows of the current chunk to equality-delete
  };

  PartitionState& StateOf(uint32_t ordinal);
  [[nodiscard]] Status WriteAppend(const Chunk& chunk);
  [[nodiscard]] Status WriteDelta(const Chunk& chunk);
  [[nodiscard]] Status InsertRow(PartitionState& st, const std::string& key, uint32_t row);
  void DeleteKey(PartitionState& st, const std::string& key, uint32_t row);
  [[nodiscard]] Status FlushPending(const Chunk& chunk);
  [[nodiscard]] Status WritePositionDeletes(uint32_t ordinal, PartitionState& st, std::vector<DataFile>* out);
  [[nodiscard]] Status WriteDeletionVectors(IcebergWriteResult* out);
  uint32_t InternPath(const std::string& path);

  IcebergTaskWriterOptions o_;
  PartitionRouter router_;
  IcebergFileNamer namer_;
  std::vector<PartitionState> partitions_;
  std::vector<uint32_t> partition_of_row_;
  std::vector<uint32_t> touched_;  // partitions with pending rows in the current chunk
  std::vector<std::string> keys_;
  std::string key_;
  std::unordered_map<std::string, PathOffset> inserted_;
  std::vector<std::string> paths_;
  std::unordered_map<std::string, uint32_t> path_index_;
  std::unordered_map<std::string, FileVector> vectors_;  // 'dv' mode
  Chunk scratch_;
};

}  // namespace sluice
