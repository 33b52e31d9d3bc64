// What the 'avro-confluent' and 'debezium-avro-confluent' formats share: their registry options under
// the format's prefix ('<prefix>.url', '.subject', '.schema', '.basic-auth.*', '.bearer-auth.*',
// '.ssl.*', '.properties.*', '.auto.register.schemas', '.timestamp_mapping.legacy',
// '.ignore-parse-errors'), and the Confluent wire format (a 0 byte, the schema id as a big-endian int,
// the Avro datum) with the writer schemas fetched by id, cached, and resolved to the reader's schema.
//
// Threading: ConfluentKeys are immutable (one function-local static per format); a ConfluentReader or
// ConfluentWriter is used by one decoder or encoder.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "common/config.h"
#include "formats/avro/avro_format.h"
#include "formats/avro_confluent/schema_registry.h"
#include "formats/format.h"

namespace sluice {

struct RegistryConfig {
  std::string url;
  std::vector<std::pair<std::string, std::string>> headers;  // Authorization
  bool auto_register = true;
  std::string subject;
  std::string schema;  // '<prefix>.schema', empty when not given
  bool legacy_timestamp_mapping = true;
  bool ignore_parse_errors = false;
};

// The option keys of one format ("avro-confluent", "debezium-avro-confluent"). The declarations point
// into this object's strings, so a format keeps one for as long as it lives.
class ConfluentKeys {
 public:
  // `schema_description` says what '<prefix>.schema' must be for this format.
  ConfluentKeys(std::string prefix, std::string schema_description);
  ConfluentKeys(const ConfluentKeys&) = delete;
  ConfluentKeys& operator=(const ConfluentKeys&) = delete;

  const std::vector<ConfigOption>& options() const { return options_; }
  [[nodiscard]] Result<RegistryConfig> Read(const OptionReader& o) const;
  // Read for an encoder: '<prefix>.subject' is required to register the writer schema.
  [[nodiscard]] Result<RegistryConfig> ReadForSerialization(const OptionReader& o) const;

 private:
  std::string OptionOrProperty(const OptionReader& o, const std::string& key, const std::string& property) const;

  std::string prefix_, url_, subject_, schema_, auto_register_, basic_source_, basic_user_info_, bearer_source_,
      bearer_token_, keystore_location_, keystore_password_, truststore_location_, truststore_password_, properties_,
      legacy_, ignore_, schema_description_;
  std::vector<ConfigOption> options_;
};

// Decodes Confluent-framed records: the writer schema by id (fetched once), resolved to `codec`'s.
class ConfluentReader {
 public:
  ConfluentReader(std::shared_ptr<const AvroRowCodec> codec, const RegistryConfig& config);
  // Appends the record's columns `fields` to `out`. A kIOError/kInternal status means the registry could
  // not be asked (never skippable); any other error is the record's.
  [[nodiscard]] Status Decode(std::string_view data, const std::vector<int>& fields, Chunk* out);

 private:
  struct Writer {
    Status status;  // why the id cannot be read (unknown id, schema that does not resolve)
    std::unique_ptr<AvroSchema> schema;
    std::unique_ptr<AvroReadPlan> plan;
  };
  [[nodiscard]] Result<const Writer*> WriterFor(int32_t id);

  std::shared_ptr<const AvroRowCodec> codec_;
  SchemaRegistryClient client_;
  std::map<int32_t, std::unique_ptr<Writer>> writers_;
};

// Encodes rows in the Confluent framing, registering the codec's schema on first use.
class ConfluentWriter {
 public:
  ConfluentWriter(std::shared_ptr<const AvroRowCodec> codec, RegistryConfig config);
  [[nodiscard]] Status EncodeRow(const Chunk& chunk, size_t row, std::string* out);

 private:
  std::shared_ptr<const AvroRowCodec> codec_;
  RegistryConfig config_;
  SchemaRegistryClient client_;
  int64_t id_ = -1;
};

// Whether a Decode error must fail the job whatever the ignore option says (the registry is unreachable).
inline bool IsRegistryFailure(const Status& s) {
  return s.code() == StatusCode::kIOError || s.code() == StatusCode::kInternal;
}

// What a decoder does with record `r` of `batch` that failed to decode with `s`: a registry failure
// fails the job whatever the ignore option says; any other failure skips the record (counted in
// *skipped) when `ignore`, else fails the job naming the record's place ("Failed to deserialize
// <format_name> record ..."). Returns OK when the record is skipped.
[[nodiscard]] Status RecordDecodeFailure(const Status& s, std::string_view format_name, const RecordBatch& batch,
                                         const TextRecord& r, bool ignore, int64_t* skipped);

}  // namespace sluice
