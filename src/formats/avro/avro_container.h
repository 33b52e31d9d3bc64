// Avro object container files: the magic "Obj\x01", a header metadata map (string keys to bytes:
// "avro.schema", "avro.codec" and any application keys, such as Iceberg's "schema" and
// "format-version"), a 16-byte sync marker, then blocks of (datum count, byte size, compressed
// datums, sync marker).
//
// AvroFileWriter writes one file through FileIO: the header at Open, a block whenever the pending
// datums pass the block size, and the last block at Close. Header entries keep the caller's order
// after avro.schema and avro.codec. AvroFileReader parses a whole file held in memory (manifests
// and manifest lists are small) and decodes each datum with the writer's schema resolved against
// the reader's (avro_resolve.h). Every length, count and sync marker is checked; a malformed file
// is an InvalidArgument naming the file and the byte offset.
//
// Threading: a writer or reader is used by one thread.
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
#include "formats/avro/avro_binary.h"
#include "formats/avro/avro_codec.h"
#include "formats/avro/avro_resolve.h"
#include "formats/avro/avro_schema.h"
#include "formats/avro/avro_value.h"

namespace sluice {

using AvroMetadata = std::vector<std::pair<std::string, std::string>>;

struct AvroWriterOptions {
  AvroCodec codec = AvroCodec::kDeflate;
  // The codec's level; < 0 for its default (deflate 6, zstandard 3).
  int compression_level = -1;
  // Header entries besides avro.schema and avro.codec, written in this order.
  AvroMetadata metadata;
  // A block is written once its uncompressed datums reach this many bytes (Java's default sync
  // interval is 64000).
  size_t block_bytes = 64000;
  // The 16-byte sync marker; random when not given (tests fix it for byte-identical files).
  std::optional<std::string> sync_marker;
};

class AvroFileWriter {
 public:
  // Writes the header into `file`. `schema` must outlive the writer.
  static Result<std::unique_ptr<AvroFileWriter>> Open(std::unique_ptr<WritableFile> file, const AvroSchema* schema,
                                                      AvroWriterOptions options);
  ~AvroFileWriter();

  // Appends one datum of the writer's schema; a value that does not fit is an InvalidArgument
  // naming the field, and leaves the file as it was.
  Status Append(const AvroValue& datum);
  // Writes the last block and publishes the file. No Append follows.
  Status Close();
  // Bytes written so far; after Close, the file's length.
  uint64_t bytes_written() const;
  const std::string& location() const { return file_->location(); }

 private:
  AvroFileWriter(std::unique_ptr<WritableFile> file, const AvroSchema* schema, AvroWriterOptions options);
  Status WriteHeader();
  Status FlushBlock();

  std::unique_ptr<WritableFile> file_;
  const AvroSchema* schema_;
  AvroWriterOptions options_;
  std::string sync_;
  std::string pending_;  // encoded datums of the current block
  int64_t pending_count_ = 0;
  std::string scratch_;
  bool closed_ = false;
};

// The bytes of a whole container file holding `datums` (tests, and callers that keep files in
// memory).
Result<std::string> EncodeAvroFile(const AvroSchema& schema, const std::vector<AvroValue>& datums,
                                   AvroWriterOptions options);

class AvroFileReader {
 public:
  // Parses the header of a whole file's bytes; `source` names the file in errors.
  static Result<std::unique_ptr<AvroFileReader>> Open(std::string data, std::string source);
  static Result<std::unique_ptr<AvroFileReader>> OpenFile(FileIO* io, const std::string& location);

  const AvroSchema& writer_schema() const { return writer_schema_; }
  AvroCodec codec() const { return codec_; }
  // Every header entry in file order.
  const AvroMetadata& metadata() const { return metadata_; }
  // The value of a header entry, or nullptr.
  const std::string* FindMetadata(std::string_view key) const;

  // Decodes datums into `reader`'s shape from now on (the writer's schema until called). `reader`
  // must outlive this reader. Refused when the schemas do not resolve.
  Status SetReaderSchema(const AvroNode& reader);

  // The next datum; false at the end of the file.
  Result<bool> Next(AvroValue* out);
  // Every remaining datum.
  Result<std::vector<AvroValue>> ReadAll();

 private:
  AvroFileReader(std::string data, std::string source) : data_(std::move(data)), source_(std::move(source)) {}
  Status ParseHeader();
  Status NextBlock();
  Status Error(const std::string& what, size_t offset) const;

  std::string data_;
  std::string source_;
  AvroSchema writer_schema_;
  AvroCodec codec_ = AvroCodec::kNull;
  AvroMetadata metadata_;
  std::string sync_;
  std::optional<AvroReadPlan> plan_;
  size_t pos_ = 0;           // next block's offset in data_
  std::string block_;        // the current block, decompressed
  size_t block_offset_ = 0;  // where the current block starts in data_, for errors
  int64_t block_left_ = 0;   // datums left in the current block
  std::optional<AvroDecoder> block_decoder_;
};

}  // namespace sluice
