// The block codecs of Avro object container files: null, deflate (raw deflate, RFC 1951, without
// zlib's header), snappy (each block followed by the big-endian CRC-32 of its uncompressed bytes)
// and zstandard.
//
// Decompression is bounded by a caller's limit so a small hostile block cannot claim gigabytes.
//
// Threading: free functions without shared state.
#pragma once

#include <string>
#include <string_view>

#include "common/status.h"

namespace sluice {

enum class AvroCodec : unsigned char { kNull, kDeflate, kSnappy, kZstandard };

// The name in the "avro.codec" header entry ("null", "deflate", "snappy", "zstandard").
std::string_view AvroCodecName(AvroCodec codec);
// Parses a codec name (case-sensitive, as written in files); an unknown one is NotSupported.
Result<AvroCodec> ParseAvroCodec(std::string_view name);

// Compresses `in` into `out` (replacing it). `level` < 0 means the codec's default.
Status AvroCompress(AvroCodec codec, int level, std::string_view in, std::string* out);
// Decompresses one block into `out` (replacing it); more than `max_size` bytes is an error.
Status AvroDecompress(AvroCodec codec, std::string_view in, size_t max_size, std::string* out);

}  // namespace sluice
