#include "formats/parquet/compression.h"

#include <snappy.h>
#include <zlib.h>
#include <zstd.h>
#include <zstd_errors.h>

#include <algorithm>
#include <cctype>
#include <cstring>

namespace sluice::parquet {

struct PageCodec::Contexts {
  ZSTD_CCtx* zc = nullptr;
  ZSTD_DCtx* zd = nullptr;
  ~Contexts() {
    ZSTD_freeCCtx(zc);
    ZSTD_freeDCtx(zd);
  }
};

PageCodec::PageCodec(CompressionCodec codec, int level) : codec_(codec), level_(level) {}
PageCodec::~PageCodec() = default;

Result<std::unique_ptr<PageCodec>> PageCodec::Make(CompressionCodec codec, int level) {
  switch (codec) {
    case CompressionCodec::UNCOMPRESSED:
    case CompressionCodec::SNAPPY:
      break;
    case CompressionCodec::GZIP:
      if (level == 0) level = 6;
      if (level < 1 || level > 9) return Status::InvalidArgument("gzip level must be 1..9, got " + std::to_string(level));
      break;
    case CompressionCodec::ZSTD:
      if (level == 0) level = 3;
      if (level < 1 || level > ZSTD_maxCLevel()) {
        return Status::InvalidArgument("zstd level must be 1.." + std::to_string(ZSTD_maxCLevel()) + ", got " +
                                       std::to_string(level));
      }
      break;
    default:
      return Status::NotSupported("Parquet compression codec " + std::string(CodecName(codec)) +
                                  " is not supported (supported: UNCOMPRESSED, SNAPPY, GZIP, ZSTD)");
  }
  std::unique_ptr<PageCodec> c(new PageCodec(codec, level));
  c->ctx_ = std::make_unique<Contexts>();
  return c;
}

namespace {

Result<size_t> GzipCompress(std::string_view in, int level, char* dst, size_t capacity) {
  z_stream s{};
  // windowBits 15 + 16: a gzip wrapper, as Parquet's GZIP codec is.
  if (deflateInit2(&s, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
    return Status::Internal("zlib deflateInit2 failed");
  }
  s.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
  s.avail_in = static_cast<uInt>(in.size());
  s.next_out = reinterpret_cast<Bytef*>(dst);
  s.avail_out = static_cast<uInt>(capacity);
  int rc = deflate(&s, Z_FINISH);
  size_t written = s.total_out;
  deflateEnd(&s);
  if (rc != Z_STREAM_END) return Status::Internal("zlib deflate failed");
  return written;
}

Status GzipDecompress(std::string_view in, size_t size, std::string* out) {
  z_stream s{};
  // windowBits 15 + 32: accept a gzip or a zlib header (older writers wrote zlib streams).
  if (inflateInit2(&s, 15 + 32) != Z_OK) return Status::Internal("zlib inflateInit2 failed");
  out->resize(size);
  s.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
  s.avail_in = static_cast<uInt>(in.size());
  s.next_out = reinterpret_cast<Bytef*>(out->data());
  s.avail_out = static_cast<uInt>(size);
  int rc = inflate(&s, Z_FINISH);
  size_t written = s.total_out;
  inflateEnd(&s);
  if (rc != Z_STREAM_END) {
    if (rc == Z_BUF_ERROR && written == size) {
      return Status::InvalidArgument("GZIP page decompresses to more than the " + std::to_string(size) +
                                     " bytes its header says");
    }
    return Status::InvalidArgument("GZIP page data is corrupt");
  }
  if (written != size) {
    return Status::InvalidArgument("GZIP page decompresses to " + std::to_string(written) + " bytes, its header says " +
                                   std::to_string(size));
  }
  return Status::OK();
}

}  // namespace

size_t PageCodec::MaxCompressedLength(size_t n) const {
  switch (codec_) {
    case CompressionCodec::SNAPPY: return snappy::MaxCompressedLength(n);
    case CompressionCodec::GZIP: return n + n / 1000 + 64 + (n >> 12) + (n >> 14) + (n >> 25) + 13;  // deflateBound + gzip
    case CompressionCodec::ZSTD: return ZSTD_compressBound(n);
    default: return n;
  }
}

Result<size_t> PageCodec::CompressInto(std::string_view in, char* dst, size_t capacity) {
  switch (codec_) {
    case CompressionCodec::UNCOMPRESSED:
      if (!in.empty()) std::memcpy(dst, in.data(), in.size());
      return in.size();
    case CompressionCodec::SNAPPY: {
      size_t n = 0;
      snappy::RawCompress(in.data(), in.size(), dst, &n);
      return n;
    }
    case CompressionCodec::GZIP:
      return GzipCompress(in, level_, dst, capacity);
    case CompressionCodec::ZSTD: {
      if (ctx_->zc == nullptr) ctx_->zc = ZSTD_createCCtx();
      size_t n = ZSTD_compressCCtx(ctx_->zc, dst, capacity, in.data(), in.size(), level_);
      if (ZSTD_isError(n)) return Status::Internal(std::string("zstd compression failed: ") + ZSTD_getErrorName(n));
      return n;
    }
    default:
      break;
  }
  return Status::Internal("unsupported codec in PageCodec::Compress");
}

Status PageCodec::Compress(std::string_view in, std::string* out) {
  out->resize(MaxCompressedLength(in.size()));
  ASSIGN_OR_RETURN(size_t n, CompressInto(in, out->data(), out->size()));
  out->resize(n);
  return Status::OK();
}

Status PageCodec::Compress(std::string_view in, ByteBuffer* out) {
  out->resize(MaxCompressedLength(in.size()));
  ASSIGN_OR_RETURN(size_t n, CompressInto(in, reinterpret_cast<char*>(out->data()), out->size()));
  out->resize(n);
  return Status::OK();
}

Status PageCodec::Decompress(std::string_view in, size_t size, std::string* out) {
  switch (codec_) {
    case CompressionCodec::UNCOMPRESSED:
      if (in.size() != size) {
        return Status::InvalidArgument("UNCOMPRESSED page has " + std::to_string(in.size()) +
                                       " bytes, its header says " + std::to_string(size));
      }
      out->assign(in);
      return Status::OK();
    case CompressionCodec::SNAPPY: {
      size_t n = 0;
      if (!snappy::GetUncompressedLength(in.data(), in.size(), &n)) {
        return Status::InvalidArgument("SNAPPY page data is corrupt");
      }
      if (n != size) {
        return Status::InvalidArgument("SNAPPY page decompresses to " + std::to_string(n) +
                                       " bytes, its header says " + std::to_string(size));
      }
      out->resize(size);
      if (!snappy::RawUncompress(in.data(), in.size(), out->data())) {
        return Status::InvalidArgument("SNAPPY page data is corrupt");
      }
      return Status::OK();
    }
    case CompressionCodec::GZIP:
      return GzipDecompress(in, size, out);
    case CompressionCodec::ZSTD: {
      if (ctx_->zd == nullptr) ctx_->zd = ZSTD_createDCtx();
      out->resize(size);
      size_t n = ZSTD_decompressDCtx(ctx_->zd, out->data(), size, in.data(), in.size());
      if (ZSTD_isError(n)) {
        if (ZSTD_getErrorCode(n) == ZSTD_error_dstSize_tooSmall) {
          return Status::InvalidArgument("ZSTD page decompresses to more than the " + std::to_string(size) +
                                         " bytes its header says");
        }
        return Status::InvalidArgument(std::string("ZSTD page data is corrupt: ") + ZSTD_getErrorName(n));
      }
      if (n != size) {
        return Status::InvalidArgument("ZSTD page decompresses to " + std::to_string(n) + " bytes, its header says " +
                                       std::to_string(size));
      }
      return Status::OK();
    }
    default:
      break;
  }
  return Status::Internal("unsupported codec in PageCodec::Decompress");
}

Result<CompressionCodec> ParseCodecName(std::string_view name) {
  std::string lower(name);
  std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
  if (lower == "zstd") return CompressionCodec::ZSTD;
  if (lower == "snappy") return CompressionCodec::SNAPPY;
  if (lower == "gzip") return CompressionCodec::GZIP;
  if (lower == "uncompressed" || lower == "none") return CompressionCodec::UNCOMPRESSED;
  return Status::InvalidArgument("unknown Parquet compression codec '" + std::string(name) +
                                 "' (supported: zstd, snappy, gzip, uncompressed)");
}

}  // namespace sluice::parquet
