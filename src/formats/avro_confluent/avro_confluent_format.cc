#include "formats/avro_confluent/avro_confluent_format.h"

#include <map>
#include <memory>

#include "common/config.h"
#include "formats/avro/avro_format.h"
#include "formats/avro_confluent/schema_registry.h"
#include "formats/text_values.h"
#include "types/vector.h"

namespace sluice {

namespace {

constexpr char kUrl[] = "avro-confluent.url";
constexpr char kSubject[] = "avro-confluent.subject";
constexpr char kSchema[] = "avro-confluent.schema";
constexpr char kAutoRegister[] = "avro-confluent.auto.register.schemas";
constexpr char kBasicSource[] = "avro-confluent.basic-auth.credentials-source";
constexpr char kBasicUserInfo[] = "avro-confluent.basic-auth.user-info";
constexpr char kBearerSource[] = "avro-confluent.bearer-auth.credentials-source";
constexpr char kBearerToken[] = "avro-confluent.bearer-auth.token";
constexpr char kKeystoreLocation[] = "avro-confluent.ssl.keystore.location";
constexpr char kKeystorePassword[] = "avro-confluent.ssl.keystore.password";
constexpr char kTruststoreLocation[] = "avro-confluent.ssl.truststore.location";
constexpr char kTruststorePassword[] = "avro-confluent.ssl.truststore.password";
constexpr char kProperties[] = "avro-confluent.properties.#";
constexpr char kPropertiesPrefix[] = "avro-confluent.properties.";
constexpr char kLegacyMapping[] = "avro-confluent.timestamp_mapping.legacy";
constexpr char kIgnoreParseErrors[] = "avro-confluent.ignore-parse-errors";
constexpr uint8_t kMagicByte = 0;

struct RegistryConfig {
  std::string url;
  std::vector<std::pair<std::string, std::string>> headers;
  bool auto_register = true;
  std::string subject;
};

// A Flink option, or its Confluent client property under 'avro-confluent.properties.'.
std::string OptionOrProperty(const OptionReader& o, const char* key, const std::string& property) {
  if (o.Has(key)) return o.GetString(key, "");
  return o.GetString(kPropertiesPrefix + property, "");
}

Result<RegistryConfig> ReadRegistryConfig(const OptionReader& o) {
  RegistryConfig c;
  c.url = o.GetString(kUrl, "");
  if (c.url.empty()) {
    return Status::InvalidArgument("One or more required options are missing for the 'avro-confluent' format of table '" +
                                   o.table_name() + "'. Missing required options are: '" + kUrl + "'");
  }
  for (const char* key : {kKeystoreLocation, kKeystorePassword, kTruststoreLocation, kTruststorePassword}) {
    if (o.Has(key)) {
      return Status::NotSupported("Option '" + std::string(key) + "' of table '" + o.table_name() +
                                  "' is not supported by Sluice yet (an https registry URL is checked against the "
                                  "system's CA certificates)");
    }
  }
  const std::string basic_source = OptionOrProperty(o, kBasicSource, "basic.auth.credentials.source");
  const std::string user_info = OptionOrProperty(o, kBasicUserInfo, "basic.auth.user.info");
  if (basic_source == "SASL_INHERIT") {
    return Status::NotSupported("'" + std::string(kBasicSource) + "' = 'SASL_INHERIT' is not supported by Sluice yet");
  }
  if (!basic_source.empty() && basic_source != "USER_INFO" && basic_source != "URL") {
    return o.InvalidValue(kBasicSource, "'" + basic_source + "' is not one of 'USER_INFO', 'URL'");
  }
  if (basic_source == "USER_INFO" && user_info.empty()) {
    return Status::InvalidArgument("Table '" + o.table_name() + "': '" + kBasicSource + "' = 'USER_INFO' needs '" +
                                   kBasicUserInfo + "' ('user:password')");
  }
  if (!user_info.empty() && basic_source != "URL") {
    std::string encoded;
    AppendBase64(user_info, &encoded);
    c.headers.emplace_back("Authorization", "Basic " + encoded);
  }
  const std::string bearer_source = OptionOrProperty(o, kBearerSource, "bearer.auth.credentials.source");
  const std::string token = OptionOrProperty(o, kBearerToken, "bearer.auth.token");
  if (!bearer_source.empty() && bearer_source != "STATIC_TOKEN") {
    return Status::NotSupported("'" + std::string(kBearerSource) + "' = '" + bearer_source +
                                "' is not supported by Sluice yet; use 'STATIC_TOKEN'");
  }
  if (!token.empty()) {
    if (!user_info.empty()) {
      return Status::InvalidArgument("Table '" + o.table_name() + "': set either basic or bearer authentication for the schema registry, not both");
    }
    c.headers.emplace_back("Authorization", "Bearer " + token);
  }
  ASSIGN_OR_RETURN(c.auto_register, o.GetBool(kAutoRegister, true));
  c.subject = o.GetString(kSubject, "");
  return c;
}

Result<std::shared_ptr<const AvroRowCodec>> MakeCodec(const Schema& physical, const OptionReader& o) {
  ASSIGN_OR_RETURN(bool legacy, o.GetBool(kLegacyMapping, true));
  auto codec = AvroRowCodec::Make(physical, o.GetString(kSchema, ""), legacy);
  if (!codec.ok()) return codec.status().WithContext("Table '" + o.table_name() + "', format 'avro-confluent'");
  return codec;
}

class ConfluentDecoder final : public RecordDecoder {
 public:
  ConfluentDecoder(std::shared_ptr<const AvroRowCodec> codec, std::vector<int> fields, RegistryConfig config,
                   bool ignore)
      : codec_(std::move(codec)), fields_(std::move(fields)), client_(config.url, config.headers), ignore_(ignore) {}

  Status Decode(const RecordBatch& batch, Chunk* out) override {
    for (size_t i = 0; i < batch.count; ++i) {
      const TextRecord& r = batch.records[i];
      Status s = DecodeOne(r.text, out);
      if (s.ok()) continue;
      if (s.code() == StatusCode::kIOError || s.code() == StatusCode::kInternal) {
        return s.WithContext("Reading the record at " + std::string(batch.source) + " " + std::to_string(r.line));
      }
      if (ignore_) {
        ++skipped_;
        continue;
      }
      return BinaryRecordError("Avro (Confluent)", r.text.size(), batch.source, r.line, s.message());
    }
    return Status::OK();
  }

 private:
  struct Writer {
    Status status;  // why the id cannot be read (unknown id, schema that does not resolve)
    std::unique_ptr<AvroSchema> schema;
    std::unique_ptr<AvroReadPlan> plan;
  };

  Status DecodeOne(std::string_view data, Chunk* out) {
    if (data.size() < 5 || static_cast<uint8_t>(data[0]) != kMagicByte) {
      return Status::InvalidArgument("Unknown magic byte!");
    }
    const auto* p = reinterpret_cast<const uint8_t*>(data.data());
    const int32_t id = static_cast<int32_t>((uint32_t{p[1]} << 24) | (uint32_t{p[2]} << 16) | (uint32_t{p[3]} << 8) | p[4]);
    ASSIGN_OR_RETURN(const Writer* w, WriterFor(id));
    RETURN_IF_ERROR(w->status);
    return codec_->DecodeRow(data.substr(5), w->plan.get(), fields_, out);
  }

  Result<const Writer*> WriterFor(int32_t id) {
    if (auto it = writers_.find(id); it != writers_.end()) return it->second.get();
    auto w = std::make_unique<Writer>();
    auto json = client_.SchemaById(id);
    if (!json.ok() && json.status().code() != StatusCode::kNotFound) return json.status();
    if (!json.ok()) {
      w->status = Status::InvalidArgument("the schema id " + std::to_string(id) + " is unknown: " + json.status().message());
    } else {
      auto schema = AvroSchema::Parse(*json);
      if (!schema.ok()) {
        w->status = Status::InvalidArgument("the writer schema with id " + std::to_string(id) +
                                            " is not a valid Avro schema: " + schema.status().message());
      } else {
        w->schema = std::make_unique<AvroSchema>(std::move(schema).value());
        auto plan = AvroReadPlan::Make(w->schema->root(), codec_->schema().root());
        if (!plan.ok()) {
          w->status = Status::InvalidArgument("the writer schema with id " + std::to_string(id) +
                                              " cannot be read as the table's schema: " + plan.status().message());
        } else {
          w->plan = std::make_unique<AvroReadPlan>(std::move(plan).value());
        }
      }
    }
    const Writer* raw = w.get();
    writers_[id] = std::move(w);
    return raw;
  }

  std::shared_ptr<const AvroRowCodec> codec_;
  std::vector<int> fields_;
  SchemaRegistryClient client_;
  bool ignore_;
  std::map<int32_t, std::unique_ptr<Writer>> writers_;
};

class ConfluentEncoder final : public RecordEncoder {
 public:
  ConfluentEncoder(std::shared_ptr<const AvroRowCodec> codec, RegistryConfig config)
      : codec_(std::move(codec)), config_(std::move(config)), client_(config_.url, config_.headers) {}

  Status Encode(const Chunk&, std::string*) override {
    return Status::NotSupported("The 'avro-confluent' format writes one binary record per message (Kafka); it cannot write text files");
  }
  bool binary() const override { return true; }
  Status EncodeBinary(const Chunk& chunk, std::string* out, std::vector<size_t>* ends) override {
    if (chunk.size() == 0) return Status::OK();
    if (id_ < 0) {
      ASSIGN_OR_RETURN(id_, client_.Register(config_.subject, codec_->schema_json(), config_.auto_register));
    }
    const auto id = static_cast<uint32_t>(id_);
    for (size_t r = 0; r < chunk.size(); ++r) {
      out->push_back(static_cast<char>(kMagicByte));
      for (int shift = 24; shift >= 0; shift -= 8) out->push_back(static_cast<char>((id >> shift) & 0xff));
      RETURN_IF_ERROR(codec_->EncodeRow(chunk, r, out));
      ends->push_back(out->size());
    }
    return Status::OK();
  }

 private:
  std::shared_ptr<const AvroRowCodec> codec_;
  RegistryConfig config_;
  SchemaRegistryClient client_;
  int64_t id_ = -1;
};

class AvroConfluentFactory final : public FormatFactory {
 public:
  std::string identifier() const override { return "avro-confluent"; }
  std::string file_extension() const override { return "avro"; }
  bool binary_records() const override { return true; }
  const std::vector<ConfigOption>& options() const override {
    static const std::vector<ConfigOption> kOptions = {
        {kUrl, OptionType::kString, "",
         "Required. The URL of the schema registry's Confluent-compatible API (Apicurio Registry: "
         "'http://host:8080/apis/ccompat/v7')."},
        {kSubject, OptionType::kString, "",
         "The subject the writer registers its schema under. The kafka and upsert-kafka connectors default it to "
         "'<topic>-value' or '<topic>-key' for a table with one topic; other uses must set it to write."},
        {kSchema, OptionType::kString, "",
         "The Avro schema (JSON) to write with and to read into, instead of the one derived from the table; "
         "a record whose fields carry the table's columns in order."},
        {kAutoRegister, OptionType::kBoolean, "true",
         "Register the schema when writing (true), or only look it up under the subject (false)."},
        {kBasicSource, OptionType::kString, "",
         "'USER_INFO' (send 'basic-auth.user-info' as HTTP basic authentication) or 'URL' (the user info in "
         "the URL)."},
        {kBasicUserInfo, OptionType::kString, "", "'user:password' for basic authentication (secret: masked)."},
        {kBearerSource, OptionType::kString, "", "'STATIC_TOKEN' (send 'bearer-auth.token')."},
        {kBearerToken, OptionType::kString, "", "The bearer token (secret: masked)."},
        {kKeystoreLocation, OptionType::kString, "", "Not supported by Sluice yet."},
        {kKeystorePassword, OptionType::kString, "", "Not supported by Sluice yet."},
        {kTruststoreLocation, OptionType::kString, "", "Not supported by Sluice yet."},
        {kTruststorePassword, OptionType::kString, "", "Not supported by Sluice yet."},
        {kProperties, OptionType::kString, "",
         "Schema registry client properties; Sluice reads 'basic.auth.credentials.source', "
         "'basic.auth.user.info', 'bearer.auth.credentials.source' and 'bearer.auth.token' (the Flink "
         "options take precedence) and ignores the others."},
        {kLegacyMapping, OptionType::kBoolean, "true", "As 'avro.timestamp_mapping.legacy'."},
        {kIgnoreParseErrors, OptionType::kBoolean, "false",
         "Sluice extension: skip and count records that cannot be read (bad magic byte, unknown schema id, "
         "a writer schema that does not resolve, bytes that do not decode) instead of failing the job."},
    };
    return kOptions;
  }
  Result<std::unique_ptr<RecordDecoder>> CreateDecoder(const Schema& physical, const std::vector<int>& projection,
                                                       const OptionReader& options) const override {
    ASSIGN_OR_RETURN(RegistryConfig config, ReadRegistryConfig(options));
    ASSIGN_OR_RETURN(bool ignore, options.GetBool(kIgnoreParseErrors, false));
    ASSIGN_OR_RETURN(auto codec, MakeCodec(physical, options));
    return std::unique_ptr<RecordDecoder>(
        new ConfluentDecoder(std::move(codec), AvroProjectedFields(physical, projection), std::move(config), ignore));
  }
  Result<std::unique_ptr<RecordEncoder>> CreateEncoder(const Schema& schema,
                                                       const OptionReader& options) const override {
    ASSIGN_OR_RETURN(RegistryConfig config, ReadRegistryConfig(options));
    if (config.subject.empty()) {
      return Status::InvalidArgument("Option " + std::string(kSubject) + " is required for serialization (table '" +
                                     options.table_name() + "')");
    }
    ASSIGN_OR_RETURN(auto codec, MakeCodec(schema, options));
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
