// DeletionVector: the set of deleted row positions of one data file (Iceberg v3 deletion vectors),
// held as 64-bit Roaring: one CRoaring 32-bit bitmap per distinct high 32 bits of a position.
//
// Serialized forms:
//  - Roaring's 64-bit "portable" format: the bucket count (8 bytes, little-endian), then per
//    bucket in ascending key order its key (4 bytes, little-endian) and the 32-bit bitmap in
//    Roaring's portable format (RoaringFormatSpec), as CRoaring and Java's Roaring64NavigableMap
//    portable serialization write it.
//  - the Puffin blob 'deletion-vector-v1': the length of magic plus vector (4 bytes, big-endian),
//    the magic D1 D3 39 64, the 64-bit portable vector, and the CRC-32 of magic plus vector
//    (4 bytes, big-endian).
// Positions are non-negative; a serialized vector with a key at or above 2^31 is refused. Every
// 32-bit bitmap read is checked by hand (keys, cardinalities, sorted arrays, non-overlapping runs,
// bitmap popcounts, offsets) before CRoaring sees it, so a hostile blob is an InvalidArgument.
//
// Threading: a value used by one thread at a time (reads may be shared).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "common/file_io.h"
#include "common/status.h"
#include "connectors/iceberg/manifest.h"
#include "connectors/iceberg/puffin.h"

struct roaring_bitmap_s;

namespace sluice {

inline constexpr std::string_view kDeletionVectorBlobType = "deletion-vector-v1";
// The field id of the reserved _pos column, which a deletion vector blob lists in its "fields".
inline constexpr int32_t kRowPositionFieldId = 2147483645;

class DeletionVector {
 public:
  DeletionVector();
  ~DeletionVector();
  DeletionVector(DeletionVector&&) noexcept;
  DeletionVector& operator=(DeletionVector&&) noexcept;

  void Add(int64_t position);
  // Adds [start, end).
  void AddRange(int64_t start, int64_t end);
  bool Contains(int64_t position) const;
  int64_t Cardinality() const;
  bool empty() const { return Cardinality() == 0; }
  // Adds every position of `other`.
  void Merge(const DeletionVector& other);
  // The positions in ascending order.
  std::vector<int64_t> ToVector() const;
  // Converts runs to run containers where smaller (before serializing, as Java does).
  void RunOptimize();

  std::string SerializePortable() const;
  [[nodiscard]] static Result<DeletionVector> DeserializePortable(std::string_view data);
  std::string SerializeBlob() const;
  [[nodiscard]] static Result<DeletionVector> DeserializeBlob(std::string_view blob);

 private:
  struct Free {
    void operator()(roaring_bitmap_s* b) const;
  };
  using Bitmap = std::unique_ptr<roaring_bitmap_s, Free>;
  roaring_bitmap_s* Bucket(uint32_t key);

  std::map<uint32_t, Bitmap> buckets_;
};

// Writes `dv` as a deletion-vector-v1 blob for `referenced_data_file` (fields [_pos],
// snapshot-id and sequence-number -1, properties referenced-data-file and cardinality). An empty
// vector is refused: a file without deleted rows gets no vector.
[[nodiscard]] Result<PuffinBlobMetadata> AddDeletionVectorBlob(PuffinWriter* writer, const DeletionVector& dv,
                                                              const std::string& referenced_data_file);

// One data file's deleted positions, for WriteDeletionVectorFile.
struct DeletionVectorFor {
  const DataFile* data_file = nullptr;  // the file the positions delete from (path and partition)
  const DeletionVector* positions = nullptr;
};

// Writes one Puffin file at `location` holding a deletion vector per data file (empty vectors are
// skipped) and returns the delete-manifest entries that describe them: content position deletes,
// format PUFFIN, the data file's partition, record_count the vector's cardinality, the Puffin file's
// size, referenced_data_file, content_offset and content_size_in_bytes.
[[nodiscard]] Result<std::vector<DataFile>> WriteDeletionVectorFile(FileIO* io, const std::string& location,
                                                                    const std::vector<DeletionVectorFor>& vectors,
                                                                    const std::string& created_by);

// Reads the deletion vector a manifest's delete file describes (its content_offset and
// content_size_in_bytes in the Puffin file at file_path); checks the cardinality against its
// record_count.
[[nodiscard]] Result<DeletionVector> ReadDeletionVector(FileIO* io, const DataFile& file);

}  // namespace sluice
