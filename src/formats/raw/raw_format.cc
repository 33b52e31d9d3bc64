#include "formats/raw/raw_format.h"

#include <bit>
#include <cstring>

#include "common/config.h"
#include "common/utf8.h"
#include "types/vector.h"

namespace sluice {

namespace {

constexpr char kCharset[] = "raw.charset";
constexpr char kEndianness[] = "raw.endianness";

// Bytes of a fixed-width type, 0 for the variable-width ones.
size_t FixedWidth(TypeId id) {
  switch (id) {
    case TypeId::kBoolean:
    case TypeId::kTinyInt: return 1;
    case TypeId::kSmallInt: return 2;
    case TypeId::kInteger:
    case TypeId::kFloat: return 4;
    case TypeId::kBigInt:
    case TypeId::kDouble: return 8;
    default: return 0;
  }
}

struct RawConfig {
  LogicalType type;
  bool big_endian = true;
};

Result<RawConfig> ReadConfig(const Schema& physical, const OptionReader& options) {
  if (physical.size() != 1) {
    return Status::InvalidArgument("The 'raw' format only supports single physical column. However the defined schema "
                                   "of table '" + options.table_name() + "' contains multiple physical columns: " +
                                   physical.ToString());
  }
  RawConfig c;
  c.type = physical.field(0).type;
  const TypeId id = c.type.id();
  if (FixedWidth(id) == 0 && !c.type.IsStringLike()) {
    return Status::NotSupported("The 'raw' format doesn't support type " + c.type.ToString() + " (column '" +
                                physical.field(0).name + "' of table '" + options.table_name() + "')");
  }
  std::string charset = options.GetString(kCharset, "UTF-8");
  for (char& ch : charset) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
  if (charset != "UTF-8" && charset != "UTF8") {
    return options.InvalidValue(kCharset, "'" + options.GetString(kCharset, "") +
                                              "' is not supported by Sluice yet; only 'UTF-8' is");
  }
  ASSIGN_OR_RETURN(std::string endian, options.GetEnum(kEndianness, "big-endian", {"big-endian", "little-endian"}));
  c.big_endian = endian == "big-endian";
  return c;
}

// Copies `n` bytes between host order and the configured order.
void CopyOrdered(const void* from, size_t n, bool big_endian, void* to) {
  std::memcpy(to, from, n);
  const bool host_big = std::endian::native == std::endian::big;
  if (big_endian != host_big) {
    auto* p = static_cast<unsigned char*>(to);
    for (size_t i = 0; i < n / 2; ++i) std::swap(p[i], p[n - 1 - i]);
  }
}

class RawDecoder final : public RecordDecoder {
 public:
  explicit RawDecoder(RawConfig c) : c_(std::move(c)) {}
  Status Decode(const RecordBatch& batch, Chunk* out) override {
    Vector& col = out->column(0);
    const size_t width = FixedWidth(c_.type.id());
    for (size_t i = 0; i < batch.count; ++i) {
      const TextRecord& r = batch.records[i];
      if (width != 0 && r.text.size() != width) {
        return BinaryRecordError("raw", r.text.size(), batch.source, r.line,
                                 "a " + c_.type.ToString() + " value has " + std::to_string(width) + " bytes");
      }
      if (c_.type.IsCharacterString() && FindInvalidUtf8(r.text) != std::string_view::npos) {
        return BinaryRecordError("raw", r.text.size(), batch.source, r.line, "the bytes are not valid UTF-8");
      }
      const size_t row = out->size();
      out->Resize(row + 1);
      if (width == 0) {
        col.SetString(row, r.text);
      } else {
        CopyOrdered(r.text.data(), width, c_.big_endian, col.raw_data() + row * width);
        if (c_.type.id() == TypeId::kBoolean) col.raw_data()[row] = col.raw_data()[row] != 0 ? 1 : 0;
      }
    }
    return Status::OK();
  }

 private:
  RawConfig c_;
};

class RawEncoder final : public RecordEncoder {
 public:
  explicit RawEncoder(RawConfig c) : c_(std::move(c)) {}
  Status Encode(const Chunk&, std::string*) override {
    return Status::NotSupported("The 'raw' format writes one binary record per message (Kafka); it cannot write text files");
  }
  bool binary() const override { return true; }
  // As Flink's raw format: NULL is a null message (a tombstone as a value, no key as a key).
  bool null_as_null_record() const override { return true; }
  Status EncodeBinary(const Chunk& chunk, std::string* out, std::vector<size_t>* ends) override {
    const Vector& col = chunk.column(0);
    const size_t width = FixedWidth(c_.type.id());
    for (size_t r = 0; r < chunk.size(); ++r) {
      if (col.IsNull(r)) {
        // An empty record, sent as null (null_as_null_record).
      } else if (width == 0) {
        out->append(col.GetString(r));
      } else {
        const size_t at = out->size();
        out->resize(at + width);
        CopyOrdered(col.raw_data() + r * width, width, c_.big_endian, out->data() + at);
      }
      ends->push_back(out->size());
    }
    return Status::OK();
  }

 private:
  RawConfig c_;
};

class RawFactory final : public FormatFactory {
 public:
  std::string identifier() const override { return "raw"; }
  std::string file_extension() const override { return "raw"; }
  bool binary_records() const override { return true; }
  const std::vector<ConfigOption>& options() const override {
    static const std::vector<ConfigOption> kOptions = {
        {kCharset, OptionType::kString, "UTF-8", "The charset of CHAR/VARCHAR values; Sluice supports 'UTF-8' only."},
        {kEndianness, OptionType::kEnum, "big-endian",
         "The byte order of numeric values: 'big-endian' or 'little-endian'.", {"big-endian", "little-endian"}},
    };
    return kOptions;
  }
  Result<std::unique_ptr<RecordDecoder>> CreateDecoder(const Schema& physical, const std::vector<int>& projection,
                                                       const OptionReader& options) const override {
    ASSIGN_OR_RETURN(RawConfig c, ReadConfig(physical, options));
    return std::unique_ptr<RecordDecoder>(new RawDecoder(std::move(c)));
  }
  Result<std::unique_ptr<RecordEncoder>> CreateEncoder(const Schema& schema,
                                                       const OptionReader& options) const override {
    ASSIGN_OR_RETURN(RawConfig c, ReadConfig(schema, options));
    return std::unique_ptr<RecordEncoder>(new RawEncoder(std::move(c)));
  }
};

}  // namespace

const FormatFactory& RawFormatFactory() {
  static const RawFactory kFactory;
  return kFactory;
}

}  // namespace sluice
