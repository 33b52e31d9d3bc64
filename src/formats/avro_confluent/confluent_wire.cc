#include "formats/avro_confluent/confluent_wire.h"

#include "formats/text_values.h"

namespace sluice {

namespace {

constexpr uint8_t kMagicByte = 0;

}  // namespace

ConfluentKeys::ConfluentKeys(std::string prefix, std::string schema_description)
    : prefix_(prefix),
      url_(prefix + ".url"),
      subject_(prefix + ".subject"),
      schema_(prefix + ".schema"),
      auto_register_(prefix + ".auto.register.schemas"),
      basic_source_(prefix + ".basic-auth.credentials-source"),
      basic_user_info_(prefix + ".basic-auth.user-info"),
      bearer_source_(prefix + ".bearer-auth.credentials-source"),
      bearer_token_(prefix + ".bearer-auth.token"),
      keystore_location_(prefix + ".ssl.keystore.location"),
      keystore_password_(prefix + ".ssl.keystore.password"),
      truststore_location_(prefix + ".ssl.truststore.location"),
      truststore_password_(prefix + ".ssl.truststore.password"),
      properties_(prefix + ".properties.#"),
      legacy_(prefix + ".timestamp_mapping.legacy"),
      ignore_(prefix + ".ignore-parse-errors"),
      schema_description_(std::move(schema_description)) {
  options_ = {
      {url_.c_str(), OptionType::kString, "",
       "Required. The URL of the schema registry's Confluent-compatible API (Apicurio Registry: "
       "'http://host:8080/apis/ccompat/v7')."},
      {subject_.c_str(), OptionType::kString, "",
       "The subject the writer registers its schema under. The kafka and upsert-kafka connectors default it to "
       "'<topic>-value' or '<topic>-key' for a table with one topic; other uses must set it to write."},
      {schema_.c_str(), OptionType::kString, "", schema_description_.c_str()},
      {auto_register_.c_str(), OptionType::kBoolean, "true",
       "Register the schema when writing (true), or only look it up under the subject (false)."},
      {basic_source_.c_str(), OptionType::kString, "",
       "'USER_INFO' (send 'basic-auth.user-info' as HTTP basic authentication) or 'URL' (the user info in the URL)."},
      {basic_user_info_.c_str(), OptionType::kString, "", "'user:password' for basic authentication (secret: masked)."},
      {bearer_source_.c_str(), OptionType::kString, "", "'STATIC_TOKEN' (send 'bearer-auth.token')."},
      {bearer_token_.c_str(), OptionType::kString, "", "The bearer token (secret: masked)."},
      {keystore_location_.c_str(), OptionType::kString, "", "Not supported by Sluice yet."},
      {keystore_password_.c_str(), OptionType::kString, "", "Not supported by Sluice yet."},
      {truststore_location_.c_str(), OptionType::kString, "", "Not supported by Sluice yet."},
      {truststore_password_.c_str(), OptionType::kString, "", "Not supported by Sluice yet."},
      {properties_.c_str(), OptionType::kString, "",
       "Schema registry client properties; Sluice reads 'basic.auth.credentials.source', 'basic.auth.user.info', "
       "'bearer.auth.credentials.source' and 'bearer.auth.token' (the Flink options take precedence) and "
       "ignores the others."},
      {legacy_.c_str(), OptionType::kBoolean, "true", "As 'avro.timestamp_mapping.legacy'."},
      {ignore_.c_str(), OptionType::kBoolean, "false",
       "Sluice extension: skip and count records that cannot be read (bad magic byte, unknown schema id, a writer "
       "schema that does not resolve, bytes that do not decode) instead of failing the job."},
  };
}

Result<RegistryConfig> ConfluentKeys::ReadForSerialization(const OptionReader& o) const {
  ASSIGN_OR_RETURN(RegistryConfig config, Read(o));
  if (config.subject.empty()) {
    return Status::InvalidArgument("Option " + subject_ + " is required for serialization (table '" + o.table_name() +
                                   "')");
  }
  return config;
}

std::string ConfluentKeys::OptionOrProperty(const OptionReader& o, const std::string& key,
                                            const std::string& property) const {
  if (o.Has(key)) return o.GetString(key, "");
  return o.GetString(prefix_ + ".properties." + property, "");
}

Result<RegistryConfig> ConfluentKeys::Read(const OptionReader& o) const {
  RegistryConfig c;
  c.url = o.GetString(url_, "");
  if (c.url.empty()) {
    return Status::InvalidArgument("One or more required options are missing for the '" + prefix_ + "' format of table '" +
                                   o.table_name() + "'. Missing required options are: '" + url_ + "'");
  }
  for (const std::string* key : {&keystore_location_, &keystore_password_, &truststore_location_, &truststore_password_}) {
    if (o.Has(*key)) {
      return Status::NotSupported("Option '" + *key + "' of table '" + o.table_name() +
                                  "' is not supported by Sluice yet (an https registry URL is checked against the "
                                  "system's CA certificates)");
    }
  }
  const std::string basic_source = OptionOrProperty(o, basic_source_, "basic.auth.credentials.source");
  const std::string user_info = OptionOrProperty(o, basic_user_info_, "basic.auth.user.info");
  if (basic_source == "SASL_INHERIT") {
    return Status::NotSupported("'" + basic_source_ + "' = 'SASL_INHERIT' is not supported by Sluice yet");
  }
  if (!basic_source.empty() && basic_source != "USER_INFO" && basic_source != "URL") {
    return o.InvalidValue(basic_source_, "'" + basic_source + "' is not one of 'USER_INFO', 'URL'");
  }
  if (basic_source == "USER_INFO" && user_info.empty()) {
    return Status::InvalidArgument("Table '" + o.table_name() + "': '" + basic_source_ + "' = 'USER_INFO' needs '" +
                                   basic_user_info_ + "' ('user:password')");
  }
  if (!user_info.empty() && basic_source != "URL") {
    std::string encoded;
    AppendBase64(user_info, &encoded);
    c.headers.emplace_back("Authorization", "Basic " + encoded);
  }
  const std::string bearer_source = OptionOrProperty(o, bearer_source_, "bearer.auth.credentials.source");
  const std::string token = OptionOrProperty(o, bearer_token_, "bearer.auth.token");
  if (!bearer_source.empty() && bearer_source != "STATIC_TOKEN") {
    return Status::NotSupported("'" + bearer_source_ + "' = '" + bearer_source +
                                "' is not supported by Sluice yet; use 'STATIC_TOKEN'");
  }
  if (!token.empty()) {
    if (!user_info.empty()) {
      return Status::InvalidArgument("Table '" + o.table_name() +
                                     "': set either basic or bearer authentication for the schema registry, not both");
    }
    c.headers.emplace_back("Authorization", "Bearer " + token);
  }
  ASSIGN_OR_RETURN(c.auto_register, o.GetBool(auto_register_, true));
  ASSIGN_OR_RETURN(c.legacy_timestamp_mapping, o.GetBool(legacy_, true));
  ASSIGN_OR_RETURN(c.ignore_parse_errors, o.GetBool(ignore_, false));
  c.subject = o.GetString(subject_, "");
  c.schema = o.GetString(schema_, "");
  return c;
}

ConfluentReader::ConfluentReader(std::shared_ptr<const AvroRowCodec> codec, const RegistryConfig& config)
    : codec_(std::move(codec)), client_(config.url, config.headers) {}

Status ConfluentReader::Decode(std::string_view data, const std::vector<int>& fields, Chunk* out) {
  if (data.size() < 5 || static_cast<uint8_t>(data[0]) != kMagicByte) return Status::InvalidArgument("Unknown magic byte!");
  const auto* p = reinterpret_cast<const uint8_t*>(data.data());
  const auto id = static_cast<int32_t>((uint32_t{p[1]} << 24) | (uint32_t{p[2]} << 16) | (uint32_t{p[3]} << 8) | p[4]);
  ASSIGN_OR_RETURN(const Writer* w, WriterFor(id));
  RETURN_IF_ERROR(w->status);
  return codec_->DecodeRow(data.substr(5), w->plan.get(), fields, out);
}

Result<const ConfluentReader::Writer*> ConfluentReader::WriterFor(int32_t id) {
  if (auto it = writers_.find(id); it != writers_.end()) return it->second.get();
  auto w = std::make_unique<Writer>();
  const std::string which = "the writer schema with id " + std::to_string(id);
  auto json = client_.SchemaById(id);
  if (!json.ok() && json.status().code() != StatusCode::kNotFound) return json.status();
  if (!json.ok()) {
    w->status = Status::InvalidArgument("the schema id " + std::to_string(id) + " is unknown: " + json.status().message());
  } else if (auto schema = AvroSchema::Parse(*json); !schema.ok()) {
    w->status = Status::InvalidArgument(which + " is not a valid Avro schema: " + schema.status().message());
  } else {
    w->schema = std::make_unique<AvroSchema>(std::move(schema).value());
    // The table's own schema (what Sluice registered): decoded straight into the columns, no plan.
    if (w->schema->ToJson() == codec_->schema().ToJson()) {
      const Writer* same = w.get();
      writers_[id] = std::move(w);
      return same;
    }
    auto plan = AvroReadPlan::Make(w->schema->root(), codec_->schema().root());
    if (!plan.ok()) {
      w->status = Status::InvalidArgument(which + " cannot be read as the table's schema: " + plan.status().message());
    } else {
      w->plan = std::make_unique<AvroReadPlan>(std::move(plan).value());
    }
  }
  const Writer* raw = w.get();
  writers_[id] = std::move(w);
  return raw;
}

ConfluentWriter::ConfluentWriter(std::shared_ptr<const AvroRowCodec> codec, RegistryConfig config)
    : codec_(std::move(codec)), config_(std::move(config)), client_(config_.url, config_.headers) {}

Status ConfluentWriter::EncodeRow(const Chunk& chunk, size_t row, std::string* out) {
  if (id_ < 0) {
    ASSIGN_OR_RETURN(id_, client_.Register(config_.subject, codec_->schema_json(), config_.auto_register));
  }
  const auto id = static_cast<uint32_t>(id_);
  out->push_back(static_cast<char>(kMagicByte));
  for (int shift = 24; shift >= 0; shift -= 8) out->push_back(static_cast<char>((id >> shift) & 0xff));
  return codec_->EncodeRow(chunk, row, out);
}

Status RecordDecodeFailure(const Status& s, std::string_view format_name, const RecordBatch& batch,
                           const TextRecord& r, bool ignore, int64_t* skipped) {
  if (IsRegistryFailure(s)) {
    return s.WithContext("Reading the record at " + std::string(batch.source) + " " + std::to_string(r.line));
  }
  if (ignore) {
    ++*skipped;
    return Status::OK();
  }
  return BinaryRecordError(format_name, r.text.size(), batch.source, r.line, s.message());
}

}  // namespace sluice
