#include "formats/avro/avro_format.h"

#include "common/config.h"
#include "formats/avro/avro_binary.h"
#include "formats/avro/avro_row.h"
#include "types/vector.h"

namespace sluice {

namespace {

constexpr char kLegacyMapping[] = "avro.timestamp_mapping.legacy";
constexpr char kEncoding[] = "avro.encoding";
constexpr char kCodec[] = "avro.codec";
constexpr char kIgnoreParseErrors[] = "avro.ignore-parse-errors";

class AvroDecoderImpl final : public RecordDecoder {
 public:
  AvroDecoderImpl(std::shared_ptr<const AvroRowCodec> codec, std::vector<int> fields, bool ignore)
      : codec_(std::move(codec)), fields_(std::move(fields)), ignore_(ignore) {}

  Status Decode(const RecordBatch& batch, Chunk* out) override {
    for (size_t i = 0; i < batch.count; ++i) {
      const TextRecord& r = batch.records[i];
      Status s = codec_->DecodeRow(r.text, nullptr, fields_, out);
      if (s.ok()) continue;
      if (ignore_) {
        ++skipped_;
        continue;
      }
      return BinaryRecordError("Avro", r.text.size(), batch.source, r.line, s.message());
    }
    return Status::OK();
  }

 private:
  std::shared_ptr<const AvroRowCodec> codec_;
  std::vector<int> fields_;
  bool ignore_;
};

class AvroEncoderImpl final : public RecordEncoder {
 public:
  explicit AvroEncoderImpl(std::shared_ptr<const AvroRowCodec> codec) : codec_(std::move(codec)) {}
  Status Encode(const Chunk&, std::string*) override {
    return Status::NotSupported("The 'avro' format writes one binary record per message (Kafka); it cannot write text files");
  }
  bool binary() const override { return true; }
  Status EncodeBinary(const Chunk& chunk, std::string* out, std::vector<size_t>* ends) override {
    for (size_t r = 0; r < chunk.size(); ++r) {
      RETURN_IF_ERROR(codec_->EncodeRow(chunk, r, out));
      ends->push_back(out->size());
    }
    return Status::OK();
  }

 private:
  std::shared_ptr<const AvroRowCodec> codec_;
};

Result<std::shared_ptr<const AvroRowCodec>> MakeCodec(const Schema& physical, const OptionReader& options) {
  ASSIGN_OR_RETURN(std::string encoding, options.GetEnum(kEncoding, "binary", {"binary", "json"}));
  if (encoding == "json") {
    return Status::NotSupported("Option '" + std::string(kEncoding) + "' = 'json' of table '" + options.table_name() +
                                "' is not supported by Sluice yet; use 'binary'");
  }
  ASSIGN_OR_RETURN(bool legacy, options.GetBool(kLegacyMapping, true));
  auto codec = AvroRowCodec::Make(physical, "", legacy);
  if (!codec.ok()) return codec.status().WithContext("Table '" + options.table_name() + "', format 'avro'");
  return codec;
}

class AvroFactory final : public FormatFactory {
 public:
  std::string identifier() const override { return "avro"; }
  std::string file_extension() const override { return "avro"; }
  bool binary_records() const override { return true; }
  const std::vector<ConfigOption>& options() const override {
    static const std::vector<ConfigOption> kOptions = {
        {kLegacyMapping, OptionType::kBoolean, "true",
         "Flink's timestamp mapping: true maps TIMESTAMP(p <= 3) to timestamp-millis and refuses TIMESTAMP_LTZ; "
         "false maps TIMESTAMP to local-timestamp-millis/-micros/-nanos and TIMESTAMP_LTZ to "
         "timestamp-millis/-micros/-nanos by precision."},
        {kEncoding, OptionType::kEnum, "binary",
         "The Avro encoding of a record: 'binary' (Avro's binary encoding). 'json' is not supported by Sluice yet.",
         {"binary", "json"}},
        {kCodec, OptionType::kString, "",
         "Accepted for Flink compatibility: the compression of Avro files (filesystem connector); a Kafka "
         "message is never compressed by the format."},
        {kIgnoreParseErrors, OptionType::kBoolean, "false",
         "Sluice extension (Flink's avro format has no such option): skip and count records that do not "
         "decode instead of failing the job."},
    };
    return kOptions;
  }
  Result<std::unique_ptr<RecordDecoder>> CreateDecoder(const Schema& physical, const std::vector<int>& projection,
                                                       const OptionReader& options) const override {
    ASSIGN_OR_RETURN(bool ignore, options.GetBool(kIgnoreParseErrors, false));
    ASSIGN_OR_RETURN(auto codec, MakeCodec(physical, options));
    return std::unique_ptr<RecordDecoder>(
        new AvroDecoderImpl(std::move(codec), AvroProjectedFields(physical, projection), ignore));
  }
  Result<std::unique_ptr<RecordEncoder>> CreateEncoder(const Schema& schema,
                                                       const OptionReader& options) const override {
    ASSIGN_OR_RETURN(auto codec, MakeCodec(schema, options));
    return std::unique_ptr<RecordEncoder>(new AvroEncoderImpl(std::move(codec)));
  }
};

}  // namespace

Result<std::shared_ptr<const AvroRowCodec>> AvroRowCodec::Make(const Schema& columns, const std::string& given_json,
                                                              bool legacy_timestamp_mapping) {
  std::shared_ptr<AvroRowCodec> codec(new AvroRowCodec());
  if (given_json.empty()) {
    ASSIGN_OR_RETURN(codec->json_, AvroSchemaJsonForRow(columns, legacy_timestamp_mapping));
  } else {
    codec->json_ = given_json;
  }
  auto parsed = AvroSchema::Parse(codec->json_);
  if (!parsed.ok()) return parsed.status().WithContext("Invalid Avro schema");
  codec->schema_ = std::move(parsed).value();
  RETURN_IF_ERROR(CheckAvroRecordForColumns(codec->schema_.root(), columns));
  if (!given_json.empty()) codec->json_ = codec->schema_.ToJson();
  return std::shared_ptr<const AvroRowCodec>(std::move(codec));
}

Status AvroRowCodec::EncodeRow(const Chunk& chunk, size_t row, std::string* out) const {
  AvroEncoder encoder(out);
  return EncodeAvroRow(chunk, row, schema_.root(), &encoder);
}

Status AvroRowCodec::DecodeRow(std::string_view data, const AvroReadPlan* plan, const std::vector<int>& fields,
                               Chunk* out) const {
  AvroDecoder decoder(data);
  if (plan == nullptr) {
    // The writer's schema is this one: straight into the columns.
    RETURN_IF_ERROR(DecodeAvroRow(&decoder, schema_.root(), fields, out));
    if (decoder.at_end()) return Status::OK();
    out->Resize(out->size() - 1);
    return decoder.Error(std::to_string(decoder.remaining()) + " bytes follow the record");
  }
  // Another writer schema: resolved by the plan into a record of this schema's shape.
  AvroValue record;
  RETURN_IF_ERROR(plan->Decode(&decoder, &record));
  if (!decoder.at_end()) return decoder.Error(std::to_string(decoder.remaining()) + " bytes follow the record");
  return AppendAvroRecord(record, schema_.root(), fields, out);
}

std::vector<int> AvroProjectedFields(const Schema& physical, const std::vector<int>& projection) {
  if (!projection.empty()) return projection;
  std::vector<int> all;
  for (size_t i = 0; i < physical.size(); ++i) all.push_back(static_cast<int>(i));
  return all;
}

const FormatFactory& AvroFormatFactory() {
  static const AvroFactory kFactory;
  return kFactory;
}

}  // namespace sluice
