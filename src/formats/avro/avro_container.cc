#include "formats/avro/avro_container.h"

#include <random>

namespace sluice {

namespace {

constexpr std::string_view kMagic("Obj\x01", 4);
constexpr size_t kSyncSize = 16;
// The largest decompressed block a reader accepts (metadata files hold far less).
constexpr size_t kMaxBlockBytes = size_t{128} << 20;

std::string RandomSync() {
  std::random_device rd;
  std::string sync(kSyncSize, '\0');
  for (size_t i = 0; i < kSyncSize; i += 4) {
    const uint32_t r = rd();
    for (size_t j = 0; j < 4; ++j) sync[i + j] = static_cast<char>((r >> (8 * j)) & 0xff);
  }
  return sync;
}

// A WritableFile that appends to a string, for EncodeAvroFile.
class StringFile : public WritableFile {
 public:
  explicit StringFile(std::string* out) : out_(out) {}
  const std::string& location() const override { return location_; }
  Status Append(std::string_view data) override {
    out_->append(data);
    return Status::OK();
  }
  uint64_t bytes_written() const override { return out_->size(); }
  Status Close() override { return Status::OK(); }
  void Abort() override {}

 private:
  std::string* out_;
  std::string location_ = "<memory>";
};

}  // namespace

AvroFileWriter::AvroFileWriter(std::unique_ptr<WritableFile> file, const AvroSchema* schema,
                               AvroWriterOptions options)
    : file_(std::move(file)), schema_(schema), options_(std::move(options)) {}

AvroFileWriter::~AvroFileWriter() {
  if (!closed_ && file_ != nullptr) file_->Abort();
}

Result<std::unique_ptr<AvroFileWriter>> AvroFileWriter::Open(std::unique_ptr<WritableFile> file,
                                                             const AvroSchema* schema, AvroWriterOptions options) {
  if (options.sync_marker && options.sync_marker->size() != kSyncSize) {
    return Status::InvalidArgument("an Avro sync marker has 16 bytes, not " +
                                   std::to_string(options.sync_marker->size()));
  }
  std::unique_ptr<AvroFileWriter> w(new AvroFileWriter(std::move(file), schema, std::move(options)));
  w->sync_ = w->options_.sync_marker ? *w->options_.sync_marker : RandomSync();
  RETURN_IF_ERROR(w->WriteHeader());
  return w;
}

Status AvroFileWriter::WriteHeader() {
  std::string header(kMagic);
  AvroEncoder e(&header);
  AvroMetadata entries;
  entries.emplace_back("avro.schema", schema_->ToJson());
  entries.emplace_back("avro.codec", std::string(AvroCodecName(options_.codec)));
  for (const auto& kv : options_.metadata) {
    if (kv.first == "avro.schema" || kv.first == "avro.codec") {
      return Status::InvalidArgument("Avro header key '" + kv.first + "' is set by the writer");
    }
    entries.push_back(kv);
  }
  e.WriteLong(static_cast<int64_t>(entries.size()));
  for (const auto& [key, value] : entries) {
    e.WriteBytes(key);
    e.WriteBytes(value);
  }
  e.WriteLong(0);
  header.append(sync_);
  return file_->Append(header);
}

Status AvroFileWriter::Append(const AvroValue& datum) {
  const size_t before = pending_.size();
  AvroEncoder e(&pending_);
  if (Status st = EncodeAvroValue(schema_->root(), datum, &e); !st.ok()) {
    pending_.resize(before);
    return st.WithContext("Avro file " + file_->location());
  }
  ++pending_count_;
  if (pending_.size() >= options_.block_bytes) return FlushBlock();
  return Status::OK();
}

Status AvroFileWriter::FlushBlock() {
  if (pending_count_ == 0) return Status::OK();
  RETURN_IF_ERROR(AvroCompress(options_.codec, options_.compression_level, pending_, &scratch_));
  std::string block;
  AvroEncoder e(&block);
  e.WriteLong(pending_count_);
  e.WriteLong(static_cast<int64_t>(scratch_.size()));
  block.append(scratch_);
  block.append(sync_);
  pending_.clear();
  pending_count_ = 0;
  return file_->Append(block);
}

Status AvroFileWriter::Close() {
  if (closed_) return Status::OK();
  RETURN_IF_ERROR(FlushBlock());
  closed_ = true;
  return file_->Close();
}

uint64_t AvroFileWriter::bytes_written() const { return file_->bytes_written(); }

Result<std::string> EncodeAvroFile(const AvroSchema& schema, const std::vector<AvroValue>& datums,
                                   AvroWriterOptions options) {
  std::string out;
  ASSIGN_OR_RETURN(auto writer, AvroFileWriter::Open(std::make_unique<StringFile>(&out), &schema, std::move(options)));
  for (const AvroValue& d : datums) RETURN_IF_ERROR(writer->Append(d));
  RETURN_IF_ERROR(writer->Close());
  return out;
}

Result<std::unique_ptr<AvroFileReader>> AvroFileReader::Open(std::string data, std::string source) {
  std::unique_ptr<AvroFileReader> r(new AvroFileReader(std::move(data), std::move(source)));
  RETURN_IF_ERROR(r->ParseHeader());
  return r;
}

Result<std::unique_ptr<AvroFileReader>> AvroFileReader::OpenFile(FileIO* io, const std::string& location) {
  ASSIGN_OR_RETURN(std::string data, io->ReadAll(location));
  return Open(std::move(data), location);
}

Status AvroFileReader::Error(const std::string& what, size_t offset) const {
  return Status::InvalidArgument("malformed Avro file " + source_ + ": " + what + " at byte " + std::to_string(offset));
}

Status AvroFileReader::ParseHeader() {
  if (data_.size() < kMagic.size() || std::string_view(data_).substr(0, kMagic.size()) != kMagic) {
    return Status::InvalidArgument("not an Avro object container file: " + source_ + " (no 'Obj\\x01' magic)");
  }
  AvroDecoder d(std::string_view(data_).substr(kMagic.size()));
  while (true) {
    auto count = d.ReadBlockCount();
    if (!count.ok()) return count.status().WithContext("Avro file " + source_ + " header");
    if (*count == 0) break;
    for (int64_t i = 0; i < *count; ++i) {
      auto key = d.ReadBytes();
      if (!key.ok()) return key.status().WithContext("Avro file " + source_ + " header");
      auto value = d.ReadBytes();
      if (!value.ok()) return value.status().WithContext("Avro file " + source_ + " header");
      metadata_.emplace_back(std::string(*key), std::string(*value));
    }
  }
  auto sync = d.ReadFixed(kSyncSize);
  if (!sync.ok()) return Error("truncated sync marker", kMagic.size() + d.position());
  sync_ = std::string(*sync);
  pos_ = kMagic.size() + d.position();

  const std::string* schema_json = FindMetadata("avro.schema");
  if (schema_json == nullptr) return Status::InvalidArgument("Avro file " + source_ + " has no avro.schema");
  auto schema = AvroSchema::Parse(*schema_json);
  if (!schema.ok()) return schema.status().WithContext("Avro file " + source_);
  writer_schema_ = std::move(schema).value();
  if (const std::string* codec = FindMetadata("avro.codec")) {
    auto c = ParseAvroCodec(*codec);
    if (!c.ok()) return c.status().WithContext("Avro file " + source_);
    codec_ = *c;
  }
  return Status::OK();
}

const std::string* AvroFileReader::FindMetadata(std::string_view key) const {
  for (const auto& [k, v] : metadata_) {
    if (k == key) return &v;
  }
  return nullptr;
}

Status AvroFileReader::SetReaderSchema(const AvroNode& reader) {
  auto plan = AvroReadPlan::Make(writer_schema_.root(), reader);
  if (!plan.ok()) return plan.status().WithContext("Avro file " + source_);
  plan_ = std::move(plan).value();
  return Status::OK();
}

Status AvroFileReader::NextBlock() {
  block_offset_ = pos_;
  AvroDecoder d(std::string_view(data_).substr(pos_));
  auto count = d.ReadLong();
  if (!count.ok() || *count < 0) return Error("bad block count", pos_);
  auto size = d.ReadLong();
  if (!size.ok() || *size < 0) return Error("bad block size", pos_);
  if (static_cast<uint64_t>(*size) + kSyncSize > d.remaining()) return Error("truncated block", pos_);
  const std::string_view body = std::string_view(data_).substr(pos_ + d.position(), static_cast<size_t>(*size));
  const std::string_view sync = std::string_view(data_).substr(pos_ + d.position() + body.size(), kSyncSize);
  if (sync != sync_) return Error("sync marker mismatch after the block", pos_);
  if (Status st = AvroDecompress(codec_, body, kMaxBlockBytes, &block_); !st.ok()) {
    return st.WithContext("Avro file " + source_ + " block at byte " + std::to_string(pos_));
  }
  pos_ += d.position() + body.size() + kSyncSize;
  block_left_ = *count;
  block_decoder_.emplace(block_);
  return Status::OK();
}

Result<bool> AvroFileReader::Next(AvroValue* out) {
  while (block_left_ == 0) {
    if (block_decoder_ && !block_decoder_->at_end()) {
      return Error(std::to_string(block_decoder_->remaining()) + " bytes left over after the block's datums",
                   block_offset_);
    }
    if (pos_ >= data_.size()) return false;
    RETURN_IF_ERROR(NextBlock());
  }
  const Status st = plan_ ? plan_->Decode(&*block_decoder_, out)
                          : DecodeAvroValue(writer_schema_.root(), &*block_decoder_, out);
  if (!st.ok()) return st.WithContext("Avro file " + source_ + " block at byte " + std::to_string(block_offset_));
  --block_left_;
  return true;
}

Result<std::vector<AvroValue>> AvroFileReader::ReadAll() {
  std::vector<AvroValue> out;
  while (true) {
    AvroValue v;
    ASSIGN_OR_RETURN(bool more, Next(&v));
    if (!more) return out;
    out.push_back(std::move(v));
  }
}

}  // namespace sluice
