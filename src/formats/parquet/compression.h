// Page compression for Parquet: UNCOMPRESSED, SNAPPY, GZIP (zlib with a gzip wrapper) and ZSTD,
// the codecs Iceberg's 'write.parquet.compression-codec' names (plus what common writers use).
//
// A PageCodec keeps its compression context between pages (zstd's context is costly to create),
// so a column writer holds one. Decompression is told the uncompressed size the page header
// promises and fails with a clear Status when the data decompresses to anything else or is
// corrupt; it never writes past that size.
//
// Threading: a PageCodec is used by one thread.
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "common/status.h"
#include "formats/parquet/parquet_metadata.h"
#include "types/vector.h"

namespace sluice::parquet {

class PageCodec {
 public:
  // `level` applies to ZSTD (1..22, default 3) and GZIP (1..9, default 6); 0 means the default.
  // Codecs Sluice does not implement (LZO, BROTLI, LZ4) are refused by name.
  static Result<std::unique_ptr<PageCodec>> Make(CompressionCodec codec, int level = 0);
  ~PageCodec();

  CompressionCodec codec() const { return codec_; }
  // Replaces `out` with the compressed form of `in`.
  Status Compress(std::string_view in, std::string* out);
  // The same into a buffer that is not zero-filled when it grows (the writers' hot path).
  Status Compress(std::string_view in, ByteBuffer* out);
  // Replaces `out` with the decompression of `in`, which must be exactly `uncompressed_size` bytes.
  Status Decompress(std::string_view in, size_t uncompressed_size, std::string* out);

 private:
  PageCodec(CompressionCodec codec, int level);
  struct Contexts;
  size_t MaxCompressedLength(size_t n) const;
  // Compresses into dst (at least MaxCompressedLength bytes); returns the compressed length.
  Result<size_t> CompressInto(std::string_view in, char* dst, size_t capacity);
  CompressionCodec codec_;
  int level_;
  std::unique_ptr<Contexts> ctx_;
};

// Parses Iceberg's codec names ('zstd', 'snappy', 'gzip', 'uncompressed'; case-insensitive).
Result<CompressionCodec> ParseCodecName(std::string_view name);

}  // namespace sluice::parquet
