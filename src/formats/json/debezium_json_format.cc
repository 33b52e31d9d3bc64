#include "formats/json/debezium_json_format.h"

#include <string>
#include <utility>
#include <vector>

#include "common/check.h"
#include "common/config.h"
#include "formats/json/json_format.h"
#include "types/row_kind.h"
#include "types/vector.h"

namespace sluice {

namespace {

constexpr char kSchemaInclude[] = "debezium-json.schema-include";
constexpr char kIgnoreParseErrors[] = "debezium-json.ignore-parse-errors";

const JsonWriteOptionKeys& WriteKeys() {
  static const JsonWriteOptionKeys kKeys("debezium-json");
  return kKeys;
}

constexpr char kFormatName[] = "Debezium JSON";

// Debezium's Postgres connector leaves "before" null unless the table's REPLICA IDENTITY is FULL;
// the hint is Flink's.
std::string NullBeforeReason(const char* message_kind) {
  return std::string("The \"before\" field of ") + message_kind +
         " message is null, if you are using Debezium Postgres Connector, please check the Postgres table has been "
         "set REPLICA IDENTITY to FULL level.";
}

// The reason part of a json decoder's RecordError ("... at <source>:<line>: <reason>").
std::string JsonReason(const Status& status, std::string_view source, int64_t line) {
  const std::string& msg = status.message();
  std::string marker = "' at ";
  marker.append(source);
  marker.push_back(':');
  marker.append(std::to_string(line));
  marker.append(": ");
  size_t at = msg.find(marker);
  return at == std::string::npos ? msg : msg.substr(at + marker.size());
}

// Which envelope fields the decoder reads, as columns of its scratch chunk.
struct EnvelopeLayout {
  bool schema_include = false;
  // Without schema-include: columns before, after, op and payload (the latter only to explain a
  // record that needs schema-include). With it: one column, payload ROW<before, after, op>.
  std::vector<LogicalType> types;
  Schema schema;
};

EnvelopeLayout MakeLayout(const Schema& projected, bool schema_include) {
  EnvelopeLayout l;
  l.schema_include = schema_include;
  LogicalType image = LogicalType::Row(projected.names(), projected.types());
  if (schema_include) {
    l.schema.Add("payload", LogicalType::Row({"before", "after", "op"}, {image, image, LogicalType::String()}));
  } else {
    l.schema.Add("before", image);
    l.schema.Add("after", image);
    l.schema.Add("op", LogicalType::String());
    l.schema.Add("payload", LogicalType::String());
  }
  l.types = l.schema.types();
  return l;
}

class DebeziumJsonDecoder final : public RecordDecoder {
 public:
  DebeziumJsonDecoder(EnvelopeLayout layout, std::unique_ptr<RecordDecoder> envelope, bool ignore_errors)
      : layout_(std::move(layout)), envelope_(std::move(envelope)), ignore_errors_(ignore_errors) {}

  size_t max_rows_per_record() const override { return 2; }

  Status Decode(const RecordBatch& batch, Chunk* out) override {
    // A fresh scratch chunk per batch: the rows appended to `out` share its string heaps.
    Chunk scratch(layout_.types);
    record_of_row_.clear();
    size_t start = 0;
    Status json_error;
    size_t json_error_record = 0;
    while (start < batch.count) {
      const size_t before = scratch.size();
      RecordBatch rest{batch.records + start, batch.count - start, batch.source, batch.padded};
      Status st = envelope_->Decode(rest, &scratch);
      const size_t decoded = scratch.size() - before;
      for (size_t i = 0; i < decoded; ++i) record_of_row_.push_back(start + i);
      if (st.ok()) break;
      // The json decoder stops at the malformed record: the rows before it are in `scratch`.
      const size_t bad = start + decoded;
      SLUICE_CHECK_LT(bad, batch.count);
      if (!ignore_errors_) {
        json_error = std::move(st);
        json_error_record = bad;
        break;
      }
      ++skipped_;
      start = bad + 1;
    }
    // Records before a malformed one are checked first, so the first bad record is the one named.
    RETURN_IF_ERROR(Classify(batch, scratch));
    if (!json_error.ok()) {
      const TextRecord& rec = batch.records[json_error_record];
      return RecordError(kFormatName, rec.text, batch.source, rec.line, JsonReason(json_error, batch.source, rec.line));
    }
    Emit(scratch, out);
    return Status::OK();
  }

 private:
  // Decides the rows each decoded record yields: indexes into before-images (row) and
  // after-images (n + row) in `sel_`, their kinds in `kinds_`.
  Status Classify(const RecordBatch& batch, const Chunk& scratch) {
    sel_.clear();
    kinds_.clear();
    const size_t n = scratch.size();
    const Vector* payload = layout_.schema_include ? &scratch.column(0) : nullptr;
    const Vector& before = layout_.schema_include ? payload->child(0) : scratch.column(0);
    const Vector& after = layout_.schema_include ? payload->child(1) : scratch.column(1);
    const Vector& op = layout_.schema_include ? payload->child(2) : scratch.column(2);
    std::string reason;
    for (size_t r = 0; r < n; ++r) {
      reason.clear();
      if (payload != nullptr && payload->IsNull(r)) {
        reason = "the \"payload\" field is missing or null ('" + std::string(kSchemaInclude) +
                 "' is true: records are {\"schema\": ..., \"payload\": ...})";
      } else if (op.IsNull(r)) {
        reason = "the \"op\" field is missing or null";
        if (payload == nullptr && !scratch.column(3).IsNull(r)) {
          reason += " (the record has a \"payload\" field: set '" + std::string(kSchemaInclude) +
                    "' = 'true' for records with \"schema\" and \"payload\")";
        }
      } else {
        std::string_view o = op.GetString(r);
        if (o == "c" || o == "r") {
          if (after.IsNull(r)) {
            reason = "The \"after\" field of INSERT message is null.";
          } else {
            Add(n + r, RowKind::kInsert);
          }
        } else if (o == "u") {
          if (before.IsNull(r)) {
            reason = NullBeforeReason("UPDATE");
          } else if (after.IsNull(r)) {
            reason = "The \"after\" field of UPDATE message is null.";
          } else {
            Add(r, RowKind::kUpdateBefore);
            Add(n + r, RowKind::kUpdateAfter);
          }
        } else if (o == "d") {
          if (before.IsNull(r)) {
            reason = NullBeforeReason("DELETE");
          } else {
            Add(r, RowKind::kDelete);
          }
        } else {
          reason = "Unknown \"op\" value \"";
          reason.append(o.substr(0, 50));
          reason += "\".";
        }
      }
      if (reason.empty()) continue;
      if (!ignore_errors_) {
        const TextRecord& rec = batch.records[record_of_row_[r]];
        return RecordError(kFormatName, rec.text, batch.source, rec.line, reason);
      }
      ++skipped_;
    }
    return Status::OK();
  }

  void Add(size_t index, RowKind kind) {
    sel_.push_back(static_cast<uint32_t>(index));
    kinds_.push_back(kind);
  }

  // Appends the chosen images to `out`, a column at a time.
  void Emit(const Chunk& scratch, Chunk* out) {
    const size_t n = scratch.size();
    const size_t k = sel_.size();
    if (k == 0) return;
    const Vector& before = layout_.schema_include ? scratch.column(0).child(0) : scratch.column(0);
    const Vector& after = layout_.schema_include ? scratch.column(0).child(1) : scratch.column(1);
    SLUICE_CHECK_EQ(out->num_columns(), after.num_children());
    bool any_before = false;
    bool contiguous_after = k == n;
    for (size_t i = 0; i < k; ++i) {
      any_before = any_before || sel_[i] < n;
      contiguous_after = contiguous_after && sel_[i] == n + i;
    }
    if (!any_before) {
      // Inserts only (the common case): gather straight from the after-images.
      for (auto& s : sel_) s -= static_cast<uint32_t>(n);
    }
    for (size_t c = 0; c < out->num_columns(); ++c) {
      Vector& dst = out->column(c);
      if (contiguous_after) {
        dst.AppendFrom(after.child(c), nullptr, 0, n);
      } else if (!any_before) {
        dst.AppendFrom(after.child(c), sel_.data(), 0, k);
      } else {
        Vector images(after.child(c).type());
        images.AppendFrom(before.child(c), nullptr, 0, n);
        images.AppendFrom(after.child(c), nullptr, 0, n);
        dst.AppendFrom(images, sel_.data(), 0, k);
      }
    }
    auto& kinds = out->kind_vector();
    kinds.insert(kinds.end(), kinds_.begin(), kinds_.end());
  }

  EnvelopeLayout layout_;
  std::unique_ptr<RecordDecoder> envelope_;
  bool ignore_errors_;
  std::vector<size_t> record_of_row_;  // scratch row -> index of its record in the batch
  std::vector<uint32_t> sel_;
  std::vector<RowKind> kinds_;
};

class DebeziumJsonEncoder final : public RecordEncoder {
 public:
  DebeziumJsonEncoder(const Schema& schema, JsonWriteOptions options) : writer_(schema.names(), std::move(options)) {}

  Status Encode(const Chunk& chunk, std::string* out) override {
    for (size_t r = 0; r < chunk.size(); ++r) {
      if (IsAccumulate(chunk.kind(r))) {
        out->append("{\"before\":null,\"after\":");
        RETURN_IF_ERROR(writer_.Append(chunk, r, out));
        out->append(",\"op\":\"c\"}\n");
      } else {
        out->append("{\"before\":");
        RETURN_IF_ERROR(writer_.Append(chunk, r, out));
        out->append(",\"after\":null,\"op\":\"d\"}\n");
      }
    }
    return Status::OK();
  }

 private:
  JsonRowWriter writer_;
};

class DebeziumJsonFactory final : public FormatFactory {
 public:
  std::string identifier() const override { return "debezium-json"; }
  std::string file_extension() const override { return "json"; }
  ChangelogMode changelog_mode() const override { return ChangelogMode::All(); }

  const std::vector<ConfigOption>& options() const override {
    static const std::vector<ConfigOption> kOptions = [] {
      std::vector<ConfigOption> o = {
          {kSchemaInclude, OptionType::kBoolean, "false",
           "Records carry Debezium's schema ({\"schema\": ..., \"payload\": ...}, as Kafka Connect writes them with "
           "'value.converter.schemas.enable'); the change is read from \"payload\". Reading only."},
          {kIgnoreParseErrors, OptionType::kBoolean, "false",
           "Skip (and count) malformed records instead of failing the job: bad JSON, an unknown or missing \"op\", "
           "a null \"before\" of an update or delete."},
      };
      WriteKeys().Declare(&o);
      return o;
    }();
    return kOptions;
  }

  Result<std::unique_ptr<RecordDecoder>> CreateDecoder(const Schema& physical, const std::vector<int>& projection,
                                                       const OptionReader& options) const override {
    ASSIGN_OR_RETURN(bool schema_include, options.GetBool(kSchemaInclude, false));
    ASSIGN_OR_RETURN(bool ignore, options.GetBool(kIgnoreParseErrors, false));
    ASSIGN_OR_RETURN(TimestampStandard standard, WriteKeys().ReadTimestampStandard(options));
    EnvelopeLayout layout = MakeLayout(JsonProjectedSchema(physical, projection), schema_include);
    // The envelope is decoded by the json format; its own errors are reported as this format's.
    ASSIGN_OR_RETURN(std::unique_ptr<RecordDecoder> envelope,
                     CreateJsonDecoder(layout.schema, /*fail_on_missing=*/false, /*ignore_parse_errors=*/false, standard));
    return std::unique_ptr<RecordDecoder>(new DebeziumJsonDecoder(std::move(layout), std::move(envelope), ignore));
  }

  Result<std::unique_ptr<RecordEncoder>> CreateEncoder(const Schema& schema, const OptionReader& options) const override {
    ASSIGN_OR_RETURN(bool schema_include, options.GetBool(kSchemaInclude, false));
    if (schema_include) {
      return Status::InvalidArgument("Debezium JSON serialization doesn't support '" + std::string(kSchemaInclude) +
                                     "' option been set to true (table '" + options.table_name() + "').");
    }
    RETURN_IF_ERROR(CheckJsonColumns(schema));
    ASSIGN_OR_RETURN(JsonWriteOptions w, WriteKeys().Read(options));
    return std::unique_ptr<RecordEncoder>(new DebeziumJsonEncoder(schema, std::move(w)));
  }
};

}  // namespace

const FormatFactory& DebeziumJsonFormatFactory() {
  static const DebeziumJsonFactory kFactory;
  return kFactory;
}

}  // namespace sluice
