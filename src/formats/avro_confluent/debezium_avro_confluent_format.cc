#include "formats/avro_confluent/debezium_avro_confluent_format.h"

#include <memory>

#include "formats/avro_confluent/confluent_wire.h"
#include "types/vector.h"

namespace sluice {

namespace {

const ConfluentKeys& Keys() {
  static const ConfluentKeys kKeys(
      "debezium-avro-confluent",
      "The Debezium envelope's Avro schema (JSON) to write with and to read into, instead of the one derived from "
      "the table: a record with the fields 'before', 'after' (records carrying the table's columns in order) and 'op'.");
  return kKeys;
}

LogicalType RowTypeOf(const Schema& columns) {
  return LogicalType::Row(columns.names(), columns.types()).WithNullable(true);
}

// ROW<before, after, op> of the table's columns (Flink's createDebeziumAvroRowType).
Schema Envelope(const Schema& columns) {
  return Schema({{"before", RowTypeOf(columns)}, {"after", RowTypeOf(columns)}, {"op", LogicalType::String()}});
}

Result<std::shared_ptr<const AvroRowCodec>> MakeCodec(const Schema& physical, const RegistryConfig& c,
                                                      const OptionReader& o) {
  auto codec = AvroRowCodec::Make(Envelope(physical), c.schema, c.legacy_timestamp_mapping);
  if (!codec.ok()) return codec.status().WithContext("Table '" + o.table_name() + "', format 'debezium-avro-confluent'");
  return codec;
}

class DebeziumAvroDecoder final : public RecordDecoder {
 public:
  DebeziumAvroDecoder(std::shared_ptr<const AvroRowCodec> codec, const Schema& physical, std::vector<int> fields,
                      const RegistryConfig& config)
      : reader_(std::move(codec), config), envelope_(Envelope(physical)), fields_(std::move(fields)),
        ignore_(config.ignore_parse_errors) {}

  size_t max_rows_per_record() const override { return 2; }

  Status Decode(const RecordBatch& batch, Chunk* out) override {
    for (size_t i = 0; i < batch.count; ++i) {
      const TextRecord& r = batch.records[i];
      if (r.text.empty()) continue;  // a tombstone after a delete
      Status s = DecodeOne(r.text, out);
      if (!s.ok()) RETURN_IF_ERROR(RecordDecodeFailure(s, "Debezium Avro", batch, r, ignore_, &skipped_));
    }
    return Status::OK();
  }

 private:
  Status DecodeOne(std::string_view data, Chunk* out) {
    Chunk env(envelope_);
    RETURN_IF_ERROR(reader_.Decode(data, {0, 1, 2}, &env));
    const Vector& before = env.column(0);
    const Vector& after = env.column(1);
    const std::string op = env.column(2).IsNull(0) ? std::string() : std::string(env.column(2).GetString(0));
    if (op == "c" || op == "r") return Emit(after, RowKind::kInsert, out);
    if (op == "u" || op == "d") {
      if (before.IsNull(0)) {
        return Status::InvalidArgument(std::string("The \"before\" field of ") + (op == "u" ? "UPDATE" : "DELETE") +
                                       " message is null, if you are using Debezium Postgres Connector, please check "
                                       "the Postgres table has been set REPLICA IDENTITY to FULL level.");
      }
      if (op == "d") return Emit(before, RowKind::kDelete, out);
      RETURN_IF_ERROR(Emit(before, RowKind::kUpdateBefore, out));
      return Emit(after, RowKind::kUpdateAfter, out);
    }
    return Status::InvalidArgument("Unknown \"op\" value \"" + op + "\"");
  }

  Status Emit(const Vector& row, RowKind kind, Chunk* out) {
    if (row.IsNull(0)) return Status::InvalidArgument("the \"after\" field of the change is null");
    for (size_t j = 0; j < fields_.size(); ++j) {
      out->column(j).AppendFrom(row.child(static_cast<size_t>(fields_[j])), nullptr, 0, 1);
    }
    out->kind_vector().push_back(kind);
    return Status::OK();
  }

  ConfluentReader reader_;
  Schema envelope_;
  std::vector<int> fields_;
  bool ignore_;
};

class DebeziumAvroEncoder final : public RecordEncoder {
 public:
  DebeziumAvroEncoder(std::shared_ptr<const AvroRowCodec> codec, const Schema& schema, RegistryConfig config)
      : writer_(std::move(codec), std::move(config)), row_type_(RowTypeOf(schema)) {}

  Status Encode(const Chunk&, std::string*) override {
    return Status::NotSupported(
        "The 'debezium-avro-confluent' format writes one binary record per message (Kafka); it cannot write text files");
  }
  bool binary() const override { return true; }
  Status EncodeBinary(const Chunk& chunk, std::string* out, std::vector<size_t>* ends) override {
    const size_t n = chunk.size();
    Vector before(row_type_, 0);
    for (size_t c = 0; c < chunk.num_columns(); ++c) before.child(c).AppendFrom(chunk.column(c), nullptr, 0, n);
    before.Resize(n);
    Vector after = before;
    Vector op(LogicalType::String(), n);
    for (size_t r = 0; r < n; ++r) {
      const RowKind k = chunk.kind(r);
      const bool insert = k == RowKind::kInsert || k == RowKind::kUpdateAfter;
      before.SetNull(r, insert);
      after.SetNull(r, !insert);
      op.SetStringView(r, insert ? "c" : "d");
    }
    Chunk env;
    env.AddColumn(std::move(before));
    env.AddColumn(std::move(after));
    env.AddColumn(std::move(op));
    env.SetSizeFromColumns();
    for (size_t r = 0; r < n; ++r) {
      RETURN_IF_ERROR(writer_.EncodeRow(env, r, out));
      ends->push_back(out->size());
    }
    return Status::OK();
  }

 private:
  ConfluentWriter writer_;
  LogicalType row_type_;
};

class DebeziumAvroConfluentFactory final : public FormatFactory {
 public:
  std::string identifier() const override { return "debezium-avro-confluent"; }
  std::string file_extension() const override { return "avro"; }
  bool binary_records() const override { return true; }
  ChangelogMode changelog_mode() const override { return ChangelogMode::All(); }
  const std::vector<ConfigOption>& options() const override { return Keys().options(); }
  Result<std::unique_ptr<RecordDecoder>> CreateDecoder(const Schema& physical, const std::vector<int>& projection,
                                                       const OptionReader& options) const override {
    ASSIGN_OR_RETURN(RegistryConfig config, Keys().Read(options));
    ASSIGN_OR_RETURN(auto codec, MakeCodec(physical, config, options));
    return std::unique_ptr<RecordDecoder>(
        new DebeziumAvroDecoder(std::move(codec), physical, AvroProjectedFields(physical, projection), config));
  }
  Result<std::unique_ptr<RecordEncoder>> CreateEncoder(const Schema& schema,
                                                       const OptionReader& options) const override {
    ASSIGN_OR_RETURN(RegistryConfig config, Keys().ReadForSerialization(options));
    ASSIGN_OR_RETURN(auto codec, MakeCodec(schema, config, options));
    return std::unique_ptr<RecordEncoder>(new DebeziumAvroEncoder(std::move(codec), schema, std::move(config)));
  }
};

}  // namespace

const FormatFactory& DebeziumAvroConfluentFormatFactory() {
  static const DebeziumAvroConfluentFactory kFactory;
  return kFactory;
}

}  // namespace sluice
