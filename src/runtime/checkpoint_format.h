// The checkpoint's byte formats, shared by checkpoint.cc (the storage) and checkpoint_format.cc: how an
// operator's state is packed (raw, or zstd frames when large) and which names a state chain may use.
// _metadata itself is EncodeCheckpoint / DecodeCheckpoint (checkpoint.h).
//
// Threading: pure functions.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace sluice::checkpoint_format {

// Operator states of at least this many bytes are stored zstd-compressed, at level 1 (fast) in
// _metadata and at kStateFileLevel in shared state files, which hold the large states.
constexpr size_t kCompressAbove = 4096;
constexpr int kStateFileLevel = 1;
// The codec byte in front of a stored state.
constexpr uint8_t kRaw = 0;
constexpr uint8_t kZstd = 1;

// State bytes as stored: zstd level 1 when that is smaller for a large state (into *packed), else
// raw (the caller stores `raw` itself). Returns the codec.
uint8_t Pack(const std::string& raw, std::string* packed);
// The inverse of Pack; false when the payload does not decode to `raw_size` bytes. A zstd payload
// may be a sequence of independent frames (shared state files).
bool Unpack(uint8_t codec, uint64_t raw_size, std::string_view payload, std::string* out);
// A chain file name from _metadata must name a file directly under shared/.
bool ValidStateFileName(const std::string& name);

}  // namespace sluice::checkpoint_format
