#include "connectors/iceberg/deletion_vector.h"

#include <roaring/roaring.h>
#include <zlib.h>

#include <bit>

#include "common/check.h"

namespace sluice {

namespace {

constexpr uint32_t kSerialCookieNoRuns = 12346;
constexpr uint32_t kSerialCookie = 12347;
constexpr size_t kNoOffsetThreshold = 4;
constexpr size_t kMaxArrayCardinality = 4096;
constexpr uint8_t kBlobMagic[4] = {0xD1, 0xD3, 0x39, 0x64};

uint16_t LE16(std::string_view b, size_t at) {
  return static_cast<uint16_t>(static_cast<uint8_t>(b[at]) | (static_cast<uint8_t>(b[at + 1]) << 8));
}
uint32_t LE32(std::string_view b, size_t at) {
  uint32_t v = 0;
  for (int i = 3; i >= 0; --i) v = (v << 8) | static_cast<uint8_t>(b[at + i]);
  return v;
}
uint32_t BE32(std::string_view b, size_t at) {
  uint32_t v = 0;
  for (int i = 0; i < 4; ++i) v = (v << 8) | static_cast<uint8_t>(b[at + i]);
  return v;
}
void AppendBE32(uint32_t v, std::string* out) {
  for (int shift = 24; shift >= 0; shift -= 8) out->push_back(static_cast<char>((v >> shift) & 0xff));
}

Status Bad(const std::string& what) { return Status::InvalidArgument("malformed deletion vector: " + what); }

// Checks one 32-bit bitmap in Roaring's portable format at the start of `b` and returns its size.
Result<size_t> ValidatePortable32(std::string_view b) {
  if (b.size() < 4) return Bad("truncated bitmap header");
  const uint32_t cookie = LE32(b, 0);
  size_t pos = 4;
  size_t count = 0;
  std::string_view run_flags;
  const bool has_runs = (cookie & 0xffff) == kSerialCookie;
  if (has_runs) {
    count = (cookie >> 16) + 1;
    const size_t flag_bytes = (count + 7) / 8;
    if (b.size() < pos + flag_bytes) return Bad("truncated run flags");
    run_flags = b.substr(pos, flag_bytes);
    pos += flag_bytes;
  } else if (cookie == kSerialCookieNoRuns) {
    if (b.size() < pos + 4) return Bad("truncated container count");
    count = LE32(b, pos);
    pos += 4;
    if (count > 65536) return Bad("more than 65536 containers");
  } else {
    return Bad("unknown Roaring cookie " + std::to_string(cookie));
  }
  if (b.size() < pos + 4 * count) return Bad("truncated container headers");
  const size_t headers = pos;
  pos += 4 * count;
  const bool has_offsets = !has_runs || count >= kNoOffsetThreshold;
  const size_t offsets = pos;
  if (has_offsets) {
    if (b.size() < pos + 4 * count) return Bad("truncated container offsets");
    pos += 4 * count;
  }
  int64_t prev_key = -1;
  for (size_t i = 0; i < count; ++i) {
    const uint16_t key = LE16(b, headers + 4 * i);
    const size_t cardinality = size_t{LE16(b, headers + 4 * i + 2)} + 1;
    if (key <= prev_key) return Bad("container keys not ascending");
    prev_key = key;
    if (has_offsets && LE32(b, offsets + 4 * i) != pos) return Bad("container offset mismatch");
    const bool is_run = has_runs && (static_cast<uint8_t>(run_flags[i / 8]) >> (i % 8)) & 1;
    if (is_run) {
      if (b.size() < pos + 2) return Bad("truncated run container");
      const size_t runs = LE16(b, pos);
      pos += 2;
      if (b.size() < pos + 4 * runs) return Bad("truncated run container");
      int64_t prev_end = -1;
      size_t total = 0;
      for (size_t r = 0; r < runs; ++r) {
        const int64_t start = LE16(b, pos + 4 * r);
        const int64_t end = start + LE16(b, pos + 4 * r + 2);
        if (start <= prev_end || end > 65535) return Bad("overlapping or out-of-range runs");
        prev_end = end;
        total += static_cast<size_t>(end - start + 1);
      }
      if (runs == 0 || total != cardinality) return Bad("run container cardinality mismatch");
      pos += 4 * runs;
    } else if (cardinality <= kMaxArrayCardinality) {
      if (b.size() < pos + 2 * cardinality) return Bad("truncated array container");
      for (size_t j = 1; j < cardinality; ++j) {
        if (LE16(b, pos + 2 * j) <= LE16(b, pos + 2 * (j - 1))) return Bad("array container not sorted");
      }
      pos += 2 * cardinality;
    } else {
      if (b.size() < pos + 8192) return Bad("truncated bitmap container");
      size_t bits = 0;
      for (size_t w = 0; w < 1024; ++w) {
        uint64_t word = 0;
        for (int k = 7; k >= 0; --k) word = (word << 8) | static_cast<uint8_t>(b[pos + 8 * w + k]);
        bits += static_cast<size_t>(std::popcount(word));
      }
      if (bits != cardinality) return Bad("bitmap container cardinality mismatch");
      pos += 8192;
    }
  }
  return pos;
}

}  // namespace

void DeletionVector::Free::operator()(roaring_bitmap_s* b) const { roaring_bitmap_free(b); }

DeletionVector::DeletionVector() = default;
DeletionVector::~DeletionVector() = default;
DeletionVector::DeletionVector(DeletionVector&&) noexcept = default;
DeletionVector& DeletionVector::operator=(DeletionVector&&) noexcept = default;

roaring_bitmap_s* DeletionVector::Bucket(uint32_t key) {
  Bitmap& b = buckets_[key];
  if (!b) b.reset(roaring_bitmap_create());
  return b.get();
}

void DeletionVector::Add(int64_t position) {
  SLUICE_CHECK_GE(position, 0);
  roaring_bitmap_add(Bucket(static_cast<uint32_t>(position >> 32)), static_cast<uint32_t>(position));
}

void DeletionVector::AddRange(int64_t start, int64_t end) {
  SLUICE_CHECK_GE(start, 0);
  while (start < end) {
    const uint32_t key = static_cast<uint32_t>(start >> 32);
    const int64_t bucket_end = std::min<int64_t>(end, (static_cast<int64_t>(key) + 1) << 32);
    roaring_bitmap_add_range_closed(Bucket(key), static_cast<uint32_t>(start), static_cast<uint32_t>(bucket_end - 1));
    start = bucket_end;
  }
}

bool DeletionVector::Contains(int64_t position) const {
  if (position < 0) return false;
  auto it = buckets_.find(static_cast<uint32_t>(position >> 32));
  return it != buckets_.end() && roaring_bitmap_contains(it->second.get(), static_cast<uint32_t>(position));
}

int64_t DeletionVector::Cardinality() const {
  int64_t n = 0;
  for (const auto& [key, b] : buckets_) n += static_cast<int64_t>(roaring_bitmap_get_cardinality(b.get()));
  return n;
}

void DeletionVector::Merge(const DeletionVector& other) {
  for (const auto& [key, b] : other.buckets_) roaring_bitmap_or_inplace(Bucket(key), b.get());
}

std::vector<int64_t> DeletionVector::ToVector() const {
  std::vector<int64_t> out;
  out.reserve(static_cast<size_t>(Cardinality()));
  std::vector<uint32_t> low;
  for (const auto& [key, b] : buckets_) {
    low.resize(roaring_bitmap_get_cardinality(b.get()));
    roaring_bitmap_to_uint32_array(b.get(), low.data());
    for (uint32_t v : low) out.push_back((static_cast<int64_t>(key) << 32) | v);
  }
  return out;
}

void DeletionVector::RunOptimize() {
  for (auto& [key, b] : buckets_) roaring_bitmap_run_optimize(b.get());
}

std::string DeletionVector::SerializePortable() const {
  std::string out;
  uint64_t count = 0;
  for (const auto& [key, b] : buckets_) count += roaring_bitmap_get_cardinality(b.get()) > 0 ? 1 : 0;
  for (int i = 0; i < 8; ++i) out.push_back(static_cast<char>((count >> (8 * i)) & 0xff));
  for (const auto& [key, b] : buckets_) {
    if (roaring_bitmap_get_cardinality(b.get()) == 0) continue;
    for (int i = 0; i < 4; ++i) out.push_back(static_cast<char>((key >> (8 * i)) & 0xff));
    const size_t at = out.size();
    out.resize(at + roaring_bitmap_portable_size_in_bytes(b.get()));
    const size_t written = roaring_bitmap_portable_serialize(b.get(), out.data() + at);
    out.resize(at + written);
  }
  return out;
}

Result<DeletionVector> DeletionVector::DeserializePortable(std::string_view data) {
  if (data.size() < 8) return Bad("shorter than its bucket count");
  uint64_t count = 0;
  for (int i = 7; i >= 0; --i) count = (count << 8) | static_cast<uint8_t>(data[i]);
  // Each bucket takes at least 12 bytes (key and the smallest bitmap).
  if (count > (data.size() - 8) / 12) return Bad("bucket count " + std::to_string(count) + " exceeds the data");
  DeletionVector dv;
  size_t pos = 8;
  int64_t prev_key = -1;
  for (uint64_t i = 0; i < count; ++i) {
    if (data.size() < pos + 4) return Bad("truncated bucket key");
    const uint32_t key = LE32(data, pos);
    pos += 4;
    if (key >= 0x80000000u) return Bad("a position at or above 2^63");
    if (static_cast<int64_t>(key) <= prev_key) return Bad("bucket keys not ascending");
    prev_key = key;
    ASSIGN_OR_RETURN(size_t size, ValidatePortable32(data.substr(pos)));
    roaring_bitmap_t* b = roaring_bitmap_portable_deserialize_safe(data.data() + pos, size);
    if (b == nullptr) return Bad("CRoaring refused bucket " + std::to_string(key));
    dv.buckets_[key].reset(b);
    pos += size;
  }
  if (pos != data.size()) return Bad(std::to_string(data.size() - pos) + " bytes after the last bucket");
  return dv;
}

std::string DeletionVector::SerializeBlob() const {
  const std::string vector = SerializePortable();
  std::string body(reinterpret_cast<const char*>(kBlobMagic), 4);
  body += vector;
  std::string out;
  AppendBE32(static_cast<uint32_t>(body.size()), &out);
  out += body;
  AppendBE32(static_cast<uint32_t>(crc32(0L, reinterpret_cast<const Bytef*>(body.data()), static_cast<uInt>(body.size()))),
             &out);
  return out;
}

Result<DeletionVector> DeletionVector::DeserializeBlob(std::string_view blob) {
  if (blob.size() < 12) return Bad("blob of " + std::to_string(blob.size()) + " bytes");
  const uint32_t length = BE32(blob, 0);
  if (static_cast<uint64_t>(length) + 8 != blob.size()) {
    return Bad("length " + std::to_string(length) + " does not match the blob's " + std::to_string(blob.size()) +
               " bytes");
  }
  const std::string_view body = blob.substr(4, length);
  if (body.substr(0, 4) != std::string_view(reinterpret_cast<const char*>(kBlobMagic), 4)) return Bad("no magic");
  const uint32_t crc = static_cast<uint32_t>(crc32(0L, reinterpret_cast<const Bytef*>(body.data()), static_cast<uInt>(body.size())));
  if (crc != BE32(blob, 4 + length)) return Bad("CRC-32 mismatch");
  return DeserializePortable(body.substr(4));
}

Result<PuffinBlobMetadata> AddDeletionVectorBlob(PuffinWriter* writer, const DeletionVector& dv,
                                                 const std::string& referenced_data_file) {
  if (dv.empty()) {
    // A file without deleted rows needs no vector, and some readers (PyIceberg 0.12) fail on one.
    return Status::InvalidArgument("an empty deletion vector for " + referenced_data_file + " is not written");
  }
  return writer->AddBlob(std::string(kDeletionVectorBlobType), {kRowPositionFieldId}, -1, -1, dv.SerializeBlob(),
                         {{"referenced-data-file", referenced_data_file},
                          {"cardinality", std::to_string(dv.Cardinality())}});
}

Result<std::vector<DataFile>> WriteDeletionVectorFile(FileIO* io, const std::string& location,
                                                      const std::vector<DeletionVectorFor>& vectors,
                                                      const std::string& created_by) {
  ASSIGN_OR_RETURN(auto file, io->Create(location));
  ASSIGN_OR_RETURN(auto writer, PuffinWriter::Open(std::move(file), {{"created-by", created_by}}));
  std::vector<DataFile> out;
  for (const DeletionVectorFor& v : vectors) {
    if (v.positions->empty()) continue;
    ASSIGN_OR_RETURN(PuffinBlobMetadata blob, AddDeletionVectorBlob(writer.get(), *v.positions, v.data_file->file_path));
    DataFile f;
    f.content = DataFileContent::kPositionDeletes;
    f.file_path = location;
    f.file_format = "PUFFIN";
    f.partition = v.data_file->partition;
    f.record_count = v.positions->Cardinality();
    f.referenced_data_file = v.data_file->file_path;
    f.content_offset = blob.offset;
    f.content_size_in_bytes = blob.length;
    out.push_back(std::move(f));
  }
  RETURN_IF_ERROR(writer->Close());
  for (DataFile& f : out) f.file_size_in_bytes = static_cast<int64_t>(writer->bytes_written());
  return out;
}

Result<DeletionVector> ReadDeletionVector(FileIO* io, const DataFile& file) {
  if (!file.content_offset || !file.content_size_in_bytes) {
    return Status::InvalidArgument("deletion vector " + file.file_path + " has no content_offset/content_size_in_bytes");
  }
  ASSIGN_OR_RETURN(auto in, io->OpenRead(file.file_path));
  PuffinBlobMetadata blob;
  blob.offset = *file.content_offset;
  blob.length = *file.content_size_in_bytes;
  ASSIGN_OR_RETURN(std::string data, ReadPuffinBlob(in.get(), blob));
  auto dv = DeletionVector::DeserializeBlob(data);
  if (!dv.ok()) return dv.status().WithContext(file.file_path + " at offset " + std::to_string(blob.offset));
  if (dv->Cardinality() != file.record_count) {
    return Status::InvalidArgument("deletion vector " + file.file_path + " holds " +
                                   std::to_string(dv->Cardinality()) + " positions, its manifest entry says " +
                                   std::to_string(file.record_count));
  }
  return std::move(dv).value();
}

}  // namespace sluice
