#include "connectors/iceberg/puffin.h"

#include <simdjson.h>
#include <zstd.h>

#include "connectors/iceberg/iceberg_json.h"

namespace sluice {

namespace {

constexpr std::string_view kMagic("PFA1", 4);
// Footer tail: payload size (4), flags (4), magic (4).
constexpr size_t kTailSize = 12;
constexpr size_t kMaxBlobBytes = size_t{1} << 30;

Status Malformed(const std::string& source, const std::string& what) {
  return Status::InvalidArgument("malformed Puffin file " + source + ": " + what);
}

uint32_t ReadLE32(std::string_view b, size_t at) {
  uint32_t v = 0;
  for (int i = 3; i >= 0; --i) v = (v << 8) | static_cast<uint8_t>(b[at + i]);
  return v;
}

void AppendLE32(uint32_t v, std::string* out) {
  for (int i = 0; i < 4; ++i) out->push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}

void WriteProperties(const PuffinProperties& props, JsonWriter* w) {
  w->BeginObject();
  for (const auto& [k, v] : props) w->Field(k, v);
  w->EndObject();
}

std::string FooterJson(const std::vector<PuffinBlobMetadata>& blobs, const PuffinProperties& properties) {
  JsonWriter w(false);
  w.BeginObject();
  w.Key("blobs");
  w.BeginArray();
  for (const PuffinBlobMetadata& b : blobs) {
    w.BeginObject();
    w.Field("type", b.type);
    w.Key("fields");
    w.BeginArray();
    for (int32_t f : b.fields) w.Int(f);
    w.EndArray();
    w.Field("snapshot-id", b.snapshot_id);
    w.Field("sequence-number", b.sequence_number);
    w.Field("offset", b.offset);
    w.Field("length", b.length);
    if (b.compression_codec) w.Field("compression-codec", *b.compression_codec);
    if (!b.properties.empty()) {
      w.Key("properties");
      WriteProperties(b.properties, &w);
    }
    w.EndObject();
  }
  w.EndArray();
  if (!properties.empty()) {
    w.Key("properties");
    WriteProperties(properties, &w);
  }
  w.EndObject();
  return w.Take();
}

Result<PuffinProperties> ParseProperties(simdjson::dom::object o, const std::string& source) {
  PuffinProperties out;
  simdjson::dom::object props;
  if (o.at_key("properties").get(props) != simdjson::SUCCESS) return out;
  for (auto [k, v] : props) {
    std::string_view s;
    if (v.get(s) != simdjson::SUCCESS) return Malformed(source, "property '" + std::string(k) + "' is not a string");
    out.emplace_back(std::string(k), std::string(s));
  }
  return out;
}

Result<PuffinBlobMetadata> ParseBlob(simdjson::dom::object o, const std::string& source) {
  PuffinBlobMetadata b;
  auto wrap = [&](Status st) { return st.WithContext("Puffin file " + source + " footer"); };
  auto type = JsonGetString(o, "type");
  if (!type.ok()) return wrap(type.status());
  b.type = *type;
  simdjson::dom::array fields;
  if (o.at_key("fields").get(fields) != simdjson::SUCCESS) return Malformed(source, "blob without \"fields\"");
  for (simdjson::dom::element f : fields) {
    int64_t id;
    if (f.get(id) != simdjson::SUCCESS || id < INT32_MIN || id > INT32_MAX) return Malformed(source, "bad field id");
    b.fields.push_back(static_cast<int32_t>(id));
  }
  for (auto [key, target] : {std::pair{"snapshot-id", &b.snapshot_id}, std::pair{"sequence-number", &b.sequence_number},
                             std::pair{"offset", &b.offset}, std::pair{"length", &b.length}}) {
    auto v = JsonGetLong(o, key);
    if (!v.ok()) return wrap(v.status());
    *target = *v;
  }
  std::string_view codec;
  if (o.at_key("compression-codec").get(codec) == simdjson::SUCCESS) b.compression_codec = std::string(codec);
  ASSIGN_OR_RETURN(b.properties, ParseProperties(o, source));
  return b;
}

}  // namespace

const std::string* PuffinBlobMetadata::FindProperty(std::string_view key) const {
  for (const auto& [k, v] : properties) {
    if (k == key) return &v;
  }
  return nullptr;
}

Result<std::unique_ptr<PuffinWriter>> PuffinWriter::Open(std::unique_ptr<WritableFile> file,
                                                         PuffinProperties properties) {
  std::unique_ptr<PuffinWriter> w(new PuffinWriter());
  w->file_ = std::move(file);
  w->properties_ = std::move(properties);
  RETURN_IF_ERROR(w->file_->Append(kMagic));
  return w;
}

PuffinWriter::~PuffinWriter() {
  if (!closed_ && file_ != nullptr) file_->Abort();
}

Result<PuffinBlobMetadata> PuffinWriter::AddBlob(std::string type, std::vector<int32_t> fields, int64_t snapshot_id,
                                                 int64_t sequence_number, std::string_view data,
                                                 PuffinProperties properties, bool zstd) {
  PuffinBlobMetadata b;
  b.type = std::move(type);
  b.fields = std::move(fields);
  b.snapshot_id = snapshot_id;
  b.sequence_number = sequence_number;
  b.offset = static_cast<int64_t>(file_->bytes_written());
  b.properties = std::move(properties);
  if (zstd) {
    std::string compressed(ZSTD_compressBound(data.size()), '\0');
    const size_t n = ZSTD_compress(compressed.data(), compressed.size(), data.data(), data.size(), 3);
    if (ZSTD_isError(n)) return Status::Internal(std::string("zstd compression failed: ") + ZSTD_getErrorName(n));
    compressed.resize(n);
    b.compression_codec = "zstd";
    b.length = static_cast<int64_t>(n);
    RETURN_IF_ERROR(file_->Append(compressed));
  } else {
    b.length = static_cast<int64_t>(data.size());
    RETURN_IF_ERROR(file_->Append(data));
  }
  blobs_.push_back(b);
  return b;
}

Status PuffinWriter::Close() {
  if (closed_) return Status::OK();
  const std::string payload = FooterJson(blobs_, properties_);
  std::string footer(kMagic);
  footer += payload;
  AppendLE32(static_cast<uint32_t>(payload.size()), &footer);
  AppendLE32(0, &footer);  // flags: footer not compressed
  footer += kMagic;
  RETURN_IF_ERROR(file_->Append(footer));
  closed_ = true;
  return file_->Close();
}

Result<PuffinFooter> ParsePuffinFooter(std::string_view file, const std::string& source) {
  if (file.size() < kMagic.size() * 2 + kTailSize || file.substr(0, 4) != kMagic) {
    return Malformed(source, "too short or no leading 'PFA1' magic");
  }
  if (file.substr(file.size() - 4) != kMagic) return Malformed(source, "no trailing 'PFA1' magic");
  const uint32_t payload_size = ReadLE32(file, file.size() - kTailSize);
  const uint32_t flags = ReadLE32(file, file.size() - 8);
  if (static_cast<uint64_t>(payload_size) + kTailSize + 2 * kMagic.size() > file.size()) {
    return Malformed(source, "footer payload size " + std::to_string(payload_size) + " exceeds the file");
  }
  const size_t footer_start = file.size() - kTailSize - payload_size - kMagic.size();
  if (file.substr(footer_start, 4) != kMagic) return Malformed(source, "no magic at the footer's start");
  if (flags & 1u) return Status::NotSupported("Puffin file " + source + " has an LZ4-compressed footer");
  const std::string_view payload = file.substr(footer_start + 4, payload_size);
  simdjson::dom::parser parser;
  simdjson::padded_string padded(payload);
  simdjson::dom::element doc;
  simdjson::dom::object root;
  if (parser.parse(padded).get(doc) != simdjson::SUCCESS || doc.get(root) != simdjson::SUCCESS) {
    return Malformed(source, "footer payload is not a JSON object");
  }
  PuffinFooter footer;
  simdjson::dom::array blobs;
  if (root.at_key("blobs").get(blobs) != simdjson::SUCCESS) return Malformed(source, "footer without \"blobs\"");
  for (simdjson::dom::element e : blobs) {
    simdjson::dom::object o;
    if (e.get(o) != simdjson::SUCCESS) return Malformed(source, "a blob entry is not an object");
    ASSIGN_OR_RETURN(PuffinBlobMetadata b, ParseBlob(o, source));
    if (b.offset < 4 || b.length < 0 || static_cast<uint64_t>(b.offset) + static_cast<uint64_t>(b.length) > footer_start) {
      return Malformed(source, "blob at offset " + std::to_string(b.offset) + " of length " + std::to_string(b.length) +
                                   " lies outside the blob area");
    }
    footer.blobs.push_back(std::move(b));
  }
  ASSIGN_OR_RETURN(footer.properties, ParseProperties(root, source));
  return footer;
}

Result<PuffinFooter> ReadPuffinFooter(RandomAccessFile* file) {
  // The footer is small; reading the whole file keeps one bounds-checked code path.
  std::string data;
  RETURN_IF_ERROR(file->ReadAt(0, file->size(), &data));
  return ParsePuffinFooter(data, file->location());
}

Result<std::string> ReadPuffinBlob(RandomAccessFile* file, const PuffinBlobMetadata& blob) {
  if (blob.offset < 0 || blob.length < 0 ||
      static_cast<uint64_t>(blob.offset) + static_cast<uint64_t>(blob.length) > file->size()) {
    return Malformed(file->location(), "blob range outside the file");
  }
  std::string data;
  RETURN_IF_ERROR(file->ReadAt(static_cast<uint64_t>(blob.offset), static_cast<size_t>(blob.length), &data));
  if (!blob.compression_codec) return data;
  if (*blob.compression_codec != "zstd") {
    return Status::NotSupported("Puffin blob compression '" + *blob.compression_codec + "' in " + file->location() +
                                " (supported: zstd)");
  }
  const unsigned long long size = ZSTD_getFrameContentSize(data.data(), data.size());
  if (size == ZSTD_CONTENTSIZE_ERROR || size == ZSTD_CONTENTSIZE_UNKNOWN || size > kMaxBlobBytes) {
    return Malformed(file->location(), "bad zstd blob");
  }
  std::string out(static_cast<size_t>(size), '\0');
  const size_t n = ZSTD_decompress(out.data(), out.size(), data.data(), data.size());
  if (ZSTD_isError(n) || n != size) return Malformed(file->location(), "bad zstd blob");
  return out;
}

}  // namespace sluice
