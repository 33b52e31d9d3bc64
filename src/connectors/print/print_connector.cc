#include "connectors/print/print_connector.h"

#include <iostream>
#include <memory>

#include "common/config.h"
#include "connectors/builtin_connectors.h"
#include "connectors/connector_options.h"
#include "formats/json/json_format.h"
#include "types/value_format.h"
#include "types/vector.h"

namespace sluice {

namespace {

constexpr char kIdentifier[] = "print-identifier";
constexpr char kStandardError[] = "standard-error";
constexpr char kParallelism[] = "sink.parallelism";

// Writes each change as Flink's print connector does ("+I[a, 1]"), or, with 'sluice.print.format' =
// 'JSONL', as the JSON object `sluice run --format jsonl` prints (`json` set).
class PrintWriter final : public SinkWriter {
 public:
  PrintWriter(std::ostream* stream, std::string prefix, std::shared_ptr<const JsonRowWriter> json)
      : stream_(stream), prefix_(std::move(prefix)), json_(std::move(json)) {}

  Status Write(const Chunk& chunk) override {
    text_.clear();
    for (size_t r = 0; r < chunk.size(); ++r) {
      text_.append(prefix_);
      if (json_) {
        RETURN_IF_ERROR(json_->Append(chunk, r, &text_));
      } else {
        AppendPrintRow(chunk, r, &text_);
      }
      text_.push_back('\n');
    }
    stream_->write(text_.data(), static_cast<std::streamsize>(text_.size()));
    if (!*stream_) return Status::IOError("The print sink could not write to its stream");
    return Status::OK();
  }

  Status Finish() override {
    stream_->flush();
    return Status::OK();
  }

 private:
  std::ostream* stream_;
  std::string prefix_;
  std::shared_ptr<const JsonRowWriter> json_;
  std::string text_;
};

class PrintSink final : public TableSink {
 public:
  PrintSink(std::ostream* stream, std::string prefix, std::shared_ptr<const JsonRowWriter> json)
      : stream_(stream), prefix_(std::move(prefix)), json_(std::move(json)) {}
  ChangelogMode accepted_changelog_mode() const override { return ChangelogMode::All(); }
  Result<std::unique_ptr<SinkWriter>> CreateWriter() override {
    return std::unique_ptr<SinkWriter>(new PrintWriter(stream_, prefix_, json_));
  }

 private:
  std::ostream* stream_;
  std::string prefix_;
  std::shared_ptr<const JsonRowWriter> json_;
};

// 'sluice.print.format' from the session: true for 'JSONL'.
bool PrintsJsonl(const ConnectorContext& ctx) {
  if (ctx.config == nullptr) return false;
  auto it = ctx.config->find(kPrintFormatKey);
  return it != ctx.config->end() && it->second == "JSONL";
}

class PrintFactory final : public ConnectorFactory {
 public:
  std::string identifier() const override { return "print"; }
  std::vector<OptionSpec> options() const override {
    return {
        {kIdentifier, false, "", "A message prefixed to every printed line: '<identifier>> +I[...]'."},
        {kStandardError, false, "false", "Print to the error stream instead of the output stream."},
        {kParallelism, false, "", "The sink's parallelism (accepted; Sluice prints from one task)."},
    };
  }
  bool supports_source() const override { return false; }
  bool supports_sink() const override { return true; }

  Result<std::unique_ptr<TableSink>> CreateSink(const ConnectorContext& ctx) const override {
    ASSIGN_OR_RETURN(const FormatFactory* format, ValidateConnectorOptions(ctx, *this, ConnectorRole::kSink));
    const std::string context = ConnectorErrorContext(ctx, ConnectorRole::kSink);
    if (format != nullptr) {
      return Status::InvalidArgument("the print connector takes no 'format' option").WithContext(context);
    }
    OptionReader reader = ConnectorOptionReader(ctx);
    auto to_err = reader.GetBool(kStandardError, false);
    if (!to_err.ok()) return to_err.status().WithContext(context);
    auto parallelism = reader.GetInt(kParallelism, 1);
    if (!parallelism.ok()) return parallelism.status().WithContext(context);
    std::string prefix;
    std::shared_ptr<const JsonRowWriter> json;
    if (reader.Has(kIdentifier)) prefix = reader.GetString(kIdentifier, "") + "> ";
    if (PrintsJsonl(ctx)) {
      // The table's own name (the last part of its identifier), as print-identifier would be written.
      if (prefix.empty()) prefix = ctx.table_name.substr(ctx.table_name.rfind('.') + 1) + "> ";
      json = std::make_shared<JsonRowWriter>(ctx.physical_schema.names(), JsonWriteOptions{}, "op");
    }
    std::ostream* stream = *to_err ? (ctx.err ? ctx.err : &std::cerr) : (ctx.out ? ctx.out : &std::cout);
    return std::unique_ptr<TableSink>(new PrintSink(stream, std::move(prefix), std::move(json)));
  }
};

}  // namespace

void AppendPrintRow(const Chunk& chunk, size_t row, std::string* out) {
  out->append(RowKindShortString(chunk.kind(row)));
  out->push_back('[');
  for (size_t c = 0; c < chunk.num_columns(); ++c) {
    if (c) out->append(", ");
    AppendVectorText(chunk.column(c), row, out);
  }
  out->push_back(']');
}

std::unique_ptr<ConnectorFactory> MakePrintConnectorFactory() { return std::make_unique<PrintFactory>(); }

}  // namespace sluice
