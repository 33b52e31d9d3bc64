// See checkpoint_format.h; _metadata's layout (EncodeCheckpoint / DecodeCheckpoint, checkpoint.h):
// magic, format version, id, timestamp, final flag, then per operator its digest, codec, raw size,
// payload and checksum, and its chain of shared state files; an xxhash64 of everything at the end.
#include "runtime/checkpoint_format.h"

#include <xxhash.h>
#include <zstd.h>

#include <cctype>
#include <cstring>

#include "runtime/checkpoint.h"
#include "state/state_serde.h"

namespace sluice {
namespace checkpoint_format {

// State bytes as stored: zstd level 1 when that is smaller for a large state, else raw.
uint8_t Pack(const std::string& raw, std::string* packed) {
  if (raw.size() >= kCompressAbove) {
    packed->resize(ZSTD_compressBound(raw.size()));
    size_t n = ZSTD_compress(packed->data(), packed->size(), raw.data(), raw.size(), 1);
    if (!ZSTD_isError(n) && n < raw.size()) {
      packed->resize(n);
      return kZstd;
    }
  }
  return kRaw;
}

// The bytes a sequence of zstd frames decodes to, as their headers say; ZSTD_CONTENTSIZE_ERROR when
// a frame is malformed or does not say.
uint64_t FramesContentSize(std::string_view payload) {
  uint64_t total = 0;
  while (!payload.empty()) {
    const unsigned long long n = ZSTD_getFrameContentSize(payload.data(), payload.size());
    const size_t frame = ZSTD_findFrameCompressedSize(payload.data(), payload.size());
    if (n == ZSTD_CONTENTSIZE_ERROR || n == ZSTD_CONTENTSIZE_UNKNOWN || ZSTD_isError(frame) || n > (uint64_t{1} << 40)) {
      return ZSTD_CONTENTSIZE_ERROR;
    }
    total += n;
    payload.remove_prefix(frame);
  }
  return total;
}

// The inverse of Pack; false when the payload does not decode to `raw_size` bytes.
bool Unpack(uint8_t codec, uint64_t raw_size, std::string_view payload, std::string* out) {
  if (codec == kRaw && raw_size == payload.size()) {
    out->assign(payload);
    return true;
  }
  // A large state file is a sequence of independent frames (StateFileWriter); their sizes add up.
  if (codec == kZstd && raw_size < (uint64_t{1} << 40) && FramesContentSize(payload) == raw_size) {
    out->resize(raw_size);
    size_t n = ZSTD_decompress(out->data(), out->size(), payload.data(), payload.size());
    return !ZSTD_isError(n) && n == raw_size;
  }
  return false;
}

// A chain file name from _metadata must name a file directly under shared/.
bool ValidStateFileName(const std::string& name) {
  if (name.empty() || name.size() > 200 || name[0] == '.') return false;
  for (char c : name) {
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_')) return false;
  }
  return true;
}

}  // namespace checkpoint_format

namespace {

constexpr char kMagic[] = "SLUICECKPT";
// Raised whenever an operator's state bytes change meaning for the same plan, so a checkpoint of an
// earlier build is refused instead of misread (4: group aggregation blocks share equal accumulator
// states, memrank).
constexpr uint32_t kFormatVersion = 4;

}  // namespace

using namespace checkpoint_format;  // NOLINT: the codec names

std::string EncodeCheckpoint(const CheckpointData& data) {
  StateWriter w;
  size_t total = 64;
  for (const auto& op : data.operators) total += op.bytes.size() + op.digest.size() + 32;
  w.Reserve(total);
  w.PutRaw(kMagic, std::strlen(kMagic));
  w.PutU32(kFormatVersion);
  w.PutI64(data.id);
  w.PutI64(data.timestamp_micros);
  w.PutBool(data.final);
  w.PutVarint(data.operators.size());
  std::string packed;
  for (const auto& op : data.operators) {
    w.PutString(op.digest);
    const uint8_t codec = Pack(op.bytes, &packed);
    const std::string& payload = codec == kRaw ? op.bytes : packed;
    w.PutU8(codec);
    w.PutVarint(op.bytes.size());
    w.PutString(payload);
    w.PutU64(XXH64(payload.data(), payload.size(), 0));
    w.PutVarint(op.chain.size());
    for (const auto& f : op.chain) {
      w.PutString(f.name);
      w.PutBool(f.delta);
      w.PutVarint(f.raw_size);
      w.PutVarint(f.file_size);
      w.PutU64(f.checksum);
    }
  }
  std::string bytes = w.Release();
  uint64_t sum = XXH64(bytes.data(), bytes.size(), 0);
  StateWriter tail;
  tail.PutU64(sum);
  bytes += tail.data();
  return bytes;
}

Result<CheckpointData> DecodeCheckpoint(std::string_view bytes, const std::string& path) {
  const size_t magic_len = std::strlen(kMagic);
  if (bytes.size() < magic_len + 4 + 8 || bytes.substr(0, magic_len) != kMagic) {
    return Status::IOError("Checkpoint '" + path + "' is not a Sluice checkpoint (bad header; " +
                           std::to_string(bytes.size()) + " bytes)");
  }
  std::string_view body = bytes.substr(0, bytes.size() - 8);
  StateReader tail(bytes.substr(bytes.size() - 8), "checkpoint '" + path + "'");
  if (tail.GetU64() != XXH64(body.data(), body.size(), 0)) {
    return Status::IOError("Checkpoint '" + path + "' is corrupt: checksum mismatch (torn or damaged file)");
  }
  StateReader r(body.substr(magic_len), "checkpoint '" + path + "'");
  uint32_t version = r.GetU32();
  if (r.ok() && version != kFormatVersion) {
    return Status::IOError("Checkpoint '" + path + "' has format version " + std::to_string(version) +
                           "; this Sluice reads version " + std::to_string(kFormatVersion));
  }
  CheckpointData data;
  data.id = r.GetI64();
  data.timestamp_micros = r.GetI64();
  data.final = r.GetBool();
  size_t n = r.GetCount(10);
  for (size_t i = 0; i < n && r.ok(); ++i) {
    CheckpointData::OperatorState op;
    op.digest = r.GetString();
    const uint8_t codec = r.GetU8();
    const uint64_t raw_size = r.GetVarint();
    std::string_view payload = r.GetStringView();
    uint64_t sum = r.GetU64();
    if (!r.ok()) break;
    const std::string which = "operator #" + std::to_string(i + 1) + " " + op.digest;
    if (sum != XXH64(payload.data(), payload.size(), 0)) {
      r.Fail("checksum mismatch in the state of " + which);
    } else if (!Unpack(codec, raw_size, payload, &op.bytes)) {
      r.Fail("the state of " + which + " does not decode");
    }
    const size_t nfiles = r.GetCount(12);
    for (size_t k = 0; k < nfiles && r.ok(); ++k) {
      CheckpointData::StateFile f;
      f.name = r.GetString();
      f.delta = r.GetBool();
      f.raw_size = r.GetVarint();
      f.file_size = r.GetVarint();
      f.checksum = r.GetU64();
      if (r.ok() && !ValidStateFileName(f.name)) r.Fail("a bad state file name in the chain of " + which);
      if (r.ok() && f.delta != (k > 0)) r.Fail("the state chain of " + which + " does not start with a full snapshot");
      op.chain.push_back(std::move(f));
    }
    if (r.ok() && !op.chain.empty() && !op.bytes.empty()) r.Fail("both inline state and a state chain for " + which);
    data.operators.push_back(std::move(op));
  }
  RETURN_IF_ERROR(r.Finish());
  return data;
}

}  // namespace sluice
