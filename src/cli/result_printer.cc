#include "cli/result_printer.h"

#include <algorithm>

#include "formats/csv/csv_format.h"
#include "formats/format.h"
#include "formats/json/json_format.h"
#include "types/value_format.h"

namespace sluice {

namespace {

// Flink SQL client's column width for a type in streaming tableau output.
size_t TypeWidth(const LogicalType& t, size_t max_width) {
  size_t w;
  switch (t.id()) {
    case TypeId::kBoolean: w = 5; break;
    case TypeId::kTinyInt: w = 4; break;
    case TypeId::kSmallInt: w = 6; break;
    case TypeId::kInteger: w = 11; break;
    case TypeId::kBigInt: w = 20; break;
    case TypeId::kFloat:
    case TypeId::kDouble: w = 20; break;
    case TypeId::kDecimal: w = static_cast<size_t>(t.precision()) + 2; break;
    case TypeId::kDate: w = 10; break;
    case TypeId::kTime: w = 8 + (t.precision() ? static_cast<size_t>(t.precision()) + 1 : 0); break;
    case TypeId::kTimestamp:
    case TypeId::kTimestampLtz: w = 19 + (t.precision() ? static_cast<size_t>(t.precision()) + 1 : 0); break;
    case TypeId::kChar:
    case TypeId::kVarChar: w = static_cast<size_t>(std::max(1, t.length())); break;
    default: w = max_width; break;
  }
  return std::min(w, max_width);
}

size_t DisplayWidth(const std::string& s) {
  size_t n = 0;
  for (unsigned char c : s) n += (c & 0xC0) != 0x80;
  return n;
}

std::string Fit(const std::string& s, size_t width) {
  if (DisplayWidth(s) <= width) return std::string(width - DisplayWidth(s), ' ') + s;
  // Cut to width-3 characters and mark with "...".
  std::string out;
  size_t n = 0;
  for (size_t i = 0; i < s.size() && n < width - 3; ++i) {
    out.push_back(s[i]);
    if ((static_cast<unsigned char>(s[i]) & 0xC0) != 0x80) ++n;
  }
  return out + "...";
}

}  // namespace

ResultPrinter::ResultPrinter(std::ostream* out, OutputFormat format, ResultMode mode, int max_column_width)
    : out_(out), format_(format), mode_(mode), max_width_(std::max(4, max_column_width)) {}

ResultPrinter::~ResultPrinter() = default;

Status ResultPrinter::Begin(const Schema& schema) {
  schema_ = schema;
  count_ = 0;
  table_ = MaterializedTable();
  table_.SetUpsertKey(upsert_key_);
  upsert_key_.clear();
  bool changelog = mode_ == ResultMode::kChangelog && !listing_;
  if (format_ == OutputFormat::kJsonl) {
    json_ = std::make_unique<JsonRowWriter>(schema.names(), JsonWriteOptions{}, changelog ? "op" : "");
  } else if (format_ == OutputFormat::kCsv) {
    Schema s;
    if (changelog) s.Add("op", LogicalType::String());
    for (const auto& f : schema.fields()) s.Add(f.name, f.type);
    ASSIGN_OR_RETURN(csv_, CreateCsvListingEncoder(s));
    std::string header;
    for (size_t i = 0; i < s.size(); ++i) header += (i ? "," : "") + s.field(i).name;
    *out_ << header << "\n";
  } else if (changelog) {
    widths_.clear();
    for (const auto& f : schema.fields()) widths_.push_back(std::max(DisplayWidth(f.name), TypeWidth(f.type, static_cast<size_t>(max_width_))));
    PrintTableauHeader(true);
  }
  return Status::OK();
}

void ResultPrinter::PrintTableauRule(bool with_op) {
  std::string s = with_op ? "+----" : "";
  for (size_t w : widths_) s += "+" + std::string(w + 2, '-');
  *out_ << s << "+\n";
}

void ResultPrinter::PrintTableauHeader(bool with_op) {
  PrintTableauRule(with_op);
  std::string s = with_op ? "| op " : "";
  for (size_t i = 0; i < widths_.size(); ++i) s += "| " + Fit(schema_.field(i).name, widths_[i]) + " ";
  *out_ << s << "|\n";
  PrintTableauRule(with_op);
}

std::string ResultPrinter::Cell(const Vector& v, size_t row) const {
  if (v.IsNull(row)) return "<NULL>";
  std::string s;
  AppendVectorText(v, row, &s);
  return s;
}

Status ResultPrinter::PrintRows(const Chunk& chunk, bool with_op) {
  std::string buf;
  for (size_t r = 0; r < chunk.size(); ++r) {
    if (format_ == OutputFormat::kJsonl) {
      RETURN_IF_ERROR(json_->Append(chunk, r, &buf));
      buf.push_back('\n');
    } else if (format_ == OutputFormat::kTableau) {
      buf += with_op ? "| " + std::string(RowKindShortString(chunk.kind(r))) + " " : "";
      for (size_t c = 0; c < chunk.num_columns(); ++c) buf += "| " + Fit(Cell(chunk.column(c), r), widths_[c]) + " ";
      buf += "|\n";
    }
  }
  if (format_ == OutputFormat::kCsv) {
    Chunk with;
    if (with_op) {
      Vector op(LogicalType::String(), chunk.size());
      for (size_t r = 0; r < chunk.size(); ++r) op.SetStringView(r, RowKindShortString(chunk.kind(r)));
      with.AddColumn(std::move(op));
    }
    for (const auto& col : chunk.columns()) with.AddColumn(col);
    with.SetSizeFromColumns();
    if (with.num_columns() == 0) with.Resize(chunk.size());
    RETURN_IF_ERROR(csv_->Encode(with, &buf));
  }
  // A streaming job's changes show as they come (a reader of a pipe sees them while the job runs),
  // as Flink's SQL client prints them.
  *out_ << buf << std::flush;
  return Status::OK();
}

Status ResultPrinter::Changes(const Chunk& chunk) {
  count_ += static_cast<int64_t>(chunk.size());
  if (mode_ == ResultMode::kTable || listing_) {
    table_.Apply(chunk);
    return Status::OK();
  }
  return PrintRows(chunk, true);
}

void ResultPrinter::PrintFinalTableau(const std::vector<std::vector<Value>>& rows) {
  widths_.clear();
  for (const auto& f : schema_.fields()) widths_.push_back(DisplayWidth(f.name));
  std::vector<std::vector<std::string>> cells;
  for (const auto& r : rows) {
    std::vector<std::string> line;
    for (size_t c = 0; c < r.size(); ++c) {
      std::string s = r[c].is_null() ? "<NULL>" : r[c].ToString();
      widths_[c] = std::min(std::max(widths_[c], DisplayWidth(s)), static_cast<size_t>(max_width_));
      line.push_back(std::move(s));
    }
    cells.push_back(std::move(line));
  }
  PrintTableauHeader(false);
  for (const auto& line : cells) {
    std::string s;
    for (size_t c = 0; c < line.size(); ++c) s += "| " + Fit(line[c], widths_[c]) + " ";
    *out_ << s << "|\n";
  }
  PrintTableauRule(false);
  *out_ << rows.size() << (rows.size() == 1 ? " row in set\n" : " rows in set\n");
}

Status ResultPrinter::End() {
  if (mode_ == ResultMode::kTable || listing_) {
    const auto& rows = table_.rows();
    if (format_ == OutputFormat::kTableau) {
      if (rows.empty() && listing_) {
        *out_ << "Empty set\n";
        return Status::OK();
      }
      PrintFinalTableau(rows);
      return Status::OK();
    }
    Chunk chunk(schema_);
    for (const auto& r : rows) chunk.AppendValues(r, RowKind::kInsert);
    return PrintRows(chunk, false);
  }
  if (format_ == OutputFormat::kTableau) {
    PrintTableauRule(true);
    *out_ << "Received a total of " << count_ << (count_ == 1 ? " row\n" : " rows\n");
  }
  return Status::OK();
}

}  // namespace sluice
