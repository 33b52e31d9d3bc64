#include "formats/avro/avro_codec.h"

#include <snappy.h>
#include <zlib.h>
#include <zstd.h>

namespace sluice {

namespace {

Status TooLarge(std::string_view codec, size_t max_size) {
  return Status::InvalidArgument("malformed Avro block: " + std::string(codec) + " data inflates past " +
                                 std::to_string(max_size) + " bytes");
}

Status Deflate(int level, std::string_view in, std::string* out) {
  z_stream zs{};
  if (deflateInit2(&zs, level < 0 ? Z_DEFAULT_COMPRESSION : level, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
    return Status::Internal("deflateInit2 failed");
  }
  out->resize(deflateBound(&zs, static_cast<uLong>(in.size())));
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
  zs.avail_in = static_cast<uInt>(in.size());
  zs.next_out = reinterpret_cast<Bytef*>(out->data());
  zs.avail_out = static_cast<uInt>(out->size());
  const int rc = deflate(&zs, Z_FINISH);
  out->resize(zs.total_out);
  deflateEnd(&zs);
  return rc == Z_STREAM_END ? Status::OK() : Status::Internal("deflate failed");
}

Status Inflate(std::string_view in, size_t max_size, std::string* out) {
  z_stream zs{};
  if (inflateInit2(&zs, -15) != Z_OK) return Status::Internal("inflateInit2 failed");
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
  zs.avail_in = static_cast<uInt>(in.size());
  out->clear();
  char buf[64 * 1024];
  int rc = Z_OK;
  while (rc != Z_STREAM_END) {
    zs.next_out = reinterpret_cast<Bytef*>(buf);
    zs.avail_out = sizeof(buf);
    rc = inflate(&zs, Z_NO_FLUSH);
    if (rc != Z_OK && rc != Z_STREAM_END) {
      inflateEnd(&zs);
      return Status::InvalidArgument(std::string("malformed Avro block: bad deflate data (") +
                                     (zs.msg != nullptr ? zs.msg : "truncated") + ")");
    }
    out->append(buf, sizeof(buf) - zs.avail_out);
    if (out->size() > max_size) {
      inflateEnd(&zs);
      return TooLarge("deflate", max_size);
    }
    if (rc == Z_OK && zs.avail_in == 0 && zs.avail_out != 0) {
      inflateEnd(&zs);
      return Status::InvalidArgument("malformed Avro block: truncated deflate data");
    }
  }
  inflateEnd(&zs);
  return Status::OK();
}

uint32_t Crc32(std::string_view data) {
  return static_cast<uint32_t>(
      crc32(0L, reinterpret_cast<const Bytef*>(data.data()), static_cast<uInt>(data.size())));
}

Status SnappyDecompress(std::string_view in, size_t max_size, std::string* out) {
  if (in.size() < 4) return Status::InvalidArgument("malformed Avro block: snappy block shorter than its CRC");
  const std::string_view body = in.substr(0, in.size() - 4);
  size_t length = 0;
  if (!snappy::GetUncompressedLength(body.data(), body.size(), &length)) {
    return Status::InvalidArgument("malformed Avro block: bad snappy data");
  }
  if (length > max_size) return TooLarge("snappy", max_size);
  if (!snappy::Uncompress(body.data(), body.size(), out)) {
    return Status::InvalidArgument("malformed Avro block: bad snappy data");
  }
  const auto* c = reinterpret_cast<const unsigned char*>(in.data() + body.size());
  const uint32_t want = (uint32_t{c[0]} << 24) | (uint32_t{c[1]} << 16) | (uint32_t{c[2]} << 8) | c[3];
  if (Crc32(*out) != want) return Status::InvalidArgument("malformed Avro block: snappy CRC-32 mismatch");
  return Status::OK();
}

Status ZstdDecompress(std::string_view in, size_t max_size, std::string* out) {
  ZSTD_DCtx* ctx = ZSTD_createDCtx();
  if (ctx == nullptr) return Status::Internal("ZSTD_createDCtx failed");
  out->clear();
  ZSTD_inBuffer input{in.data(), in.size(), 0};
  char buf[64 * 1024];
  size_t rc = 1;
  Status status;
  while (true) {
    ZSTD_outBuffer output{buf, sizeof(buf), 0};
    rc = ZSTD_decompressStream(ctx, &output, &input);
    if (ZSTD_isError(rc)) {
      status = Status::InvalidArgument(std::string("malformed Avro block: bad zstandard data (") +
                                       ZSTD_getErrorName(rc) + ")");
      break;
    }
    out->append(buf, output.pos);
    if (out->size() > max_size) {
      status = TooLarge("zstandard", max_size);
      break;
    }
    if (rc == 0 && input.pos == input.size) break;  // every frame finished
    if (input.pos == input.size && output.pos < output.size) {
      status = Status::InvalidArgument("malformed Avro block: truncated zstandard data");
      break;
    }
  }
  ZSTD_freeDCtx(ctx);
  return status;
}

}  // namespace

std::string_view AvroCodecName(AvroCodec codec) {
  switch (codec) {
    case AvroCodec::kNull: return "null";
    case AvroCodec::kDeflate: return "deflate";
    case AvroCodec::kSnappy: return "snappy";
    case AvroCodec::kZstandard: return "zstandard";
  }
  return "null";
}

Result<AvroCodec> ParseAvroCodec(std::string_view name) {
  for (AvroCodec c : {AvroCodec::kNull, AvroCodec::kDeflate, AvroCodec::kSnappy, AvroCodec::kZstandard}) {
    if (AvroCodecName(c) == name) return c;
  }
  return Status::NotSupported("unsupported Avro codec '" + std::string(name) +
                              "' (supported: null, deflate, snappy, zstandard)");
}

Status AvroCompress(AvroCodec codec, int level, std::string_view in, std::string* out) {
  switch (codec) {
    case AvroCodec::kNull: out->assign(in); return Status::OK();
    case AvroCodec::kDeflate: return Deflate(level, in, out);
    case AvroCodec::kSnappy: {
      snappy::Compress(in.data(), in.size(), out);
      const uint32_t crc = Crc32(in);
      for (int shift = 24; shift >= 0; shift -= 8) out->push_back(static_cast<char>((crc >> shift) & 0xff));
      return Status::OK();
    }
    case AvroCodec::kZstandard: {
      out->resize(ZSTD_compressBound(in.size()));
      const size_t n = ZSTD_compress(out->data(), out->size(), in.data(), in.size(), level < 0 ? 3 : level);
      if (ZSTD_isError(n)) return Status::Internal(std::string("zstd compression failed: ") + ZSTD_getErrorName(n));
      out->resize(n);
      return Status::OK();
    }
  }
  return Status::Internal("unknown Avro codec");
}

Status AvroDecompress(AvroCodec codec, std::string_view in, size_t max_size, std::string* out) {
  switch (codec) {
    case AvroCodec::kNull:
      if (in.size() > max_size) return TooLarge("null", max_size);
      out->assign(in);
      return Status::OK();
    case AvroCodec::kDeflate: return Inflate(in, max_size, out);
    case AvroCodec::kSnappy: return SnappyDecompress(in, max_size, out);
    case AvroCodec::kZstandard: return ZstdDecompress(in, max_size, out);
  }
  return Status::Internal("unknown Avro codec");
}

}  // namespace sluice
