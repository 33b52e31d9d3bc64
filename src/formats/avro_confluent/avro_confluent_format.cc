#include "formats/avro_confluent/avro_confluent_format.h"

#include <map>
#include <memory>

#include "formats/avro_confluent/confluent_wire.h"
#include "types/vector.h"

namespace sluice {

namespace {

const ConfluentKeys& Keys() {
  static const ConfluentKeys kKeys(
      "avro-confluent",
      "The Avro schema (JSON) to write with and to read into, instead of the one derived from the table; a record "
      "whose fields carry the table's columns in order.");
  return kKeys;
}

Result<std::shared_ptr<const AvroRowCodec>> MakeCodec(const Schema& physical, const RegistryConfig& c,
                                                      const OptionReader& o) {
  auto codec = AvroRowCodec::Make(physical, c.schema, c.legacy_timestamp_mapping);
  if (!codec.ok()) return codec.status().WithContext("Table '" + o.table_name() + "', format 'avro-confluent'");
  return codec;
}

class ConfluentDecoder final : public RecordDecoder {
 public:
  ConfluentDecoder(std::shared_ptr<const AvroRowCodec> codec, std::vector<int> fields, const RegistryConfig& config)
      : reader_(std::move(codec), config), fields_(std::move(fields)), ignore_(config.ignore_parse_errors) {}

  Status Decode(const RecordBatch& batch, Chunk* out) override {
    for (size_t i = 0; i < batch.count; ++i) {
      const TextRecord& r = batch.records[i];
      Status s = reader_.Decode(r.text, fields_, out);
      if (!s.ok()) RETURN_IF_ERROR(RecordDecodeFailure(s, "Avro (Confluent)", batch, r, ignore_, &skipped_));
    }
    return Status::OK();
  }

 private:
  ConfluentReader reader_;
  std::vector<int> fields_;
  bool ignore_;
};

class ConfluentEncoder final : public RecordEncoder {
 public:
  ConfluentEncoder(std::shared_ptr<const AvroRowCodec> codec, RegistryConfig config)
      : writer_(std::move(codec), std::move(config)) {}

  Status Encode(const Chunk&, std::string*) override {
    return Status::NotSupported("The 'avro-confluent' format writes one binary record per message (Kafka); it cannot write text files");
  }
  bool binary() const override { return true; }
  Status EncodeBinary(const Chunk& chunk, std::string* out, std::vector<size_t>* ends) override {
    for (size_t r = 0; r < chunk.size(); ++r) {
      RETURN_IF_ERROR(writer_.EncodeRow(chunk, r, out));
      ends->push_back(out->size());
    }
    return Status::OK();
  }

 private:
  ConfluentWriter writer_;
};

class AvroConfluentFactory final : public FormatFactory {
 public:
  std::string identifier() const override { return "avro-confluent"; }
  std::string file_extension() const override { return "avro"; }
  bool binary_records() const override { return true; }
  const std::vector<ConfigOption>& options() const override { return Keys().options(); }
  Result<std::unique_ptr<RecordDecoder>> CreateDecoder(const Schema& physical, const std::vector<int>& projection,
                                                       const OptionReader& options) const override {
    ASSIGN_OR_RETURN(RegistryConfig config, Keys().Read(options));
    ASSIGN_OR_RETURN(auto codec, MakeCodec(physical, config, options));
    return std::unique_ptr<RecordDecoder>(
        new ConfluentDecoder(std::move(codec), AvroProjectedFields(physical, projection), config));
  }
  Result<std::unique_ptr<RecordEncoder>> CreateEncoder(const Schema& schema,
                                                       const OptionReader& options) const override {
    ASSIGN_OR_RETURN(RegistryConfig config, Keys().ReadForSerialization(options));
    ASSIGN_OR_RETURN(auto codec, MakeCodec(schema, config, options));
    return std::unique_ptr<RecordEncoder>(new ConfluentEncoder(std::move(codec), std::move(config)));
  }
};

}  // namespace

const FormatFactory& AvroConfluentFormatFactory() {
  static const AvroConfluentFactory kFactory;
  return kFactory;
}

void DefaultSchemaRegistrySubject(const FormatFactory& format, const std::string& topic, bool is_key,
                                  std::map<std::string, std::string>* format_options) {
  const std::string id = format.identifier();
  if (id != "avro-confluent" && id != "debezium-avro-confluent") return;
  const std::string key = id + ".subject";
  if (format_options->count(key)) return;
  (*format_options)[key] = topic + (is_key ? "-key" : "-value");
}

}  // namespace sluice
