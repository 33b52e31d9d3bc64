// Puffin files (the Iceberg spec's Puffin format): the magic "PFA1", blobs back to back, then a
// footer: magic, a UTF-8 JSON payload listing every blob (type, fields, snapshot-id,
// sequence-number, offset, length, optional compression-codec and properties) and the file's
// properties, the payload's length (4-byte little-endian), 4 bytes of flags, magic.
//
// Blobs may be stored uncompressed or as one zstd frame ("compression-codec": "zstd"); "lz4" blobs
// and an LZ4-compressed footer (flag bit 0) are refused as not supported (no LZ4 library here).
// Reading checks every offset, length and magic against the file, so a truncated or hostile file
// ends in an InvalidArgument naming the file.
//
// Threading: a writer is used by one thread; the readers are pure functions.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/file_io.h"
#include "common/status.h"

namespace sluice {

using PuffinProperties = std::vector<std::pair<std::string, std::string>>;

struct PuffinBlobMetadata {
  std::string type;
  std::vector<int32_t> fields;
  int64_t snapshot_id = -1;
  int64_t sequence_number = -1;
  int64_t offset = 0;
  int64_t length = 0;
  std::optional<std::string> compression_codec;  // "zstd" (or "lz4", which this build cannot read)
  PuffinProperties properties;

  const std::string* FindProperty(std::string_view key) const;
};

struct PuffinFooter {
  std::vector<PuffinBlobMetadata> blobs;
  PuffinProperties properties;
};

class PuffinWriter {
 public:
  // Writes the leading magic. `properties` go into the footer (e.g. "created-by").
  static Result<std::unique_ptr<PuffinWriter>> Open(std::unique_ptr<WritableFile> file, PuffinProperties properties);
  ~PuffinWriter();

  // Appends a blob and returns its metadata (offset and length as stored). With `zstd` the bytes
  // are compressed as one zstd frame.
  Result<PuffinBlobMetadata> AddBlob(std::string type, std::vector<int32_t> fields, int64_t snapshot_id,
                                     int64_t sequence_number, std::string_view data, PuffinProperties properties,
                                     bool zstd = false);
  // Writes the footer and publishes the file.
  Status Close();
  // The file's length so far; after Close, its final length.
  uint64_t bytes_written() const { return file_->bytes_written(); }
  const std::string& location() const { return file_->location(); }

 private:
  PuffinWriter() = default;
  std::unique_ptr<WritableFile> file_;
  PuffinProperties properties_;
  std::vector<PuffinBlobMetadata> blobs_;
  bool closed_ = false;
};

// The footer of a whole Puffin file's bytes (`source` names it in errors).
[[nodiscard]] Result<PuffinFooter> ParsePuffinFooter(std::string_view file, const std::string& source);
[[nodiscard]] Result<PuffinFooter> ReadPuffinFooter(RandomAccessFile* file);
// One blob's bytes, decompressed.
[[nodiscard]] Result<std::string> ReadPuffinBlob(RandomAccessFile* file, const PuffinBlobMetadata& blob);

}  // namespace sluice
