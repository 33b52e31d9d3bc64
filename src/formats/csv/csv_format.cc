#include "formats/csv/csv_format.h"

#include <algorithm>
#include <cstring>
#include <optional>

#include "common/check.h"
#include "common/config.h"
#include "common/time_util.h"
#include "formats/text_values.h"
#include "types/value_format.h"
#include "types/vector.h"

namespace sluice {

namespace {

constexpr char kFieldDelimiter[] = "csv.field-delimiter";
constexpr char kDisableQuote[] = "csv.disable-quote-character";
constexpr char kQuoteCharacter[] = "csv.quote-character";
constexpr char kAllowComments[] = "csv.allow-comments";
constexpr char kIgnoreParseErrors[] = "csv.ignore-parse-errors";
constexpr char kArrayDelimiter[] = "csv.array-element-delimiter";
constexpr char kEscapeCharacter[] = "csv.escape-character";
constexpr char kNullLiteral[] = "csv.null-literal";
constexpr char kScientific[] = "csv.write-bigdecimal-in-scientific-notation";

struct CsvConfig {
  char delimiter = ',';
  bool quoting = true;
  char quote = '"';
  bool allow_comments = false;
  bool ignore_errors = false;
  std::string array_delimiter = ";";
  std::optional<char> escape;
  std::optional<std::string> null_literal;
  DecimalText decimal_text = DecimalText::kPlain;
  // The CLI's `--format csv` result listing (CreateCsvListingEncoder) instead of Flink's csv text:
  // TIME and TIMESTAMP with the type's precision, and only fields holding the delimiter, the quote or
  // a line break quoted (as the jsonl listing keeps the type's precision).
  bool listing = false;
};

Result<CsvConfig> ReadConfig(const OptionReader& options) {
  CsvConfig c;
  ASSIGN_OR_RETURN(c.delimiter, options.GetChar(kFieldDelimiter, ','));
  ASSIGN_OR_RETURN(bool disable_quote, options.GetBool(kDisableQuote, false));
  c.quoting = !disable_quote;
  ASSIGN_OR_RETURN(c.quote, options.GetChar(kQuoteCharacter, '"'));
  if (disable_quote && options.Has(kQuoteCharacter)) {
    return Status::InvalidArgument("Table '" + options.table_name() + "': format cannot define a quote character and " +
                                   "disabled quote character at the same time ('" + kQuoteCharacter + "', '" +
                                   kDisableQuote + "').");
  }
  ASSIGN_OR_RETURN(c.allow_comments, options.GetBool(kAllowComments, false));
  ASSIGN_OR_RETURN(c.ignore_errors, options.GetBool(kIgnoreParseErrors, false));
  c.array_delimiter = options.GetString(kArrayDelimiter, ";");
  if (c.array_delimiter.empty()) return options.InvalidValue(kArrayDelimiter, "the delimiter must not be empty");
  if (options.Has(kEscapeCharacter)) {
    ASSIGN_OR_RETURN(char e, options.GetChar(kEscapeCharacter, '\\'));
    c.escape = e;
  }
  if (options.Has(kNullLiteral)) c.null_literal = options.GetString(kNullLiteral, "");
  // Flink 2.2.1's csv writer keeps the plain text unless the option is set to true.
  ASSIGN_OR_RETURN(bool scientific, options.GetBool(kScientific, false));
  c.decimal_text = scientific ? DecimalText::kNormalized : DecimalText::kPlain;
  if (c.quoting && c.quote == c.delimiter) {
    return options.InvalidValue(kQuoteCharacter, "the quote character must differ from the field delimiter");
  }
  return c;
}

Status CheckSupported(const LogicalType& t, const std::string& name, bool top) {
  switch (t.id()) {
    case TypeId::kNull:
    case TypeId::kIntervalDayTime:
    case TypeId::kIntervalYearMonth:
    case TypeId::kMultiset:
    case TypeId::kMap:
    case TypeId::kRow:
      return Status::NotSupported("The csv format does not support type " + t.ToString() + " (column '" + name + "')");
    case TypeId::kArray:
      if (!top) {
        return Status::NotSupported("The csv format does not support nested arrays (column '" + name + "')");
      }
      return CheckSupported(t.child(0), name, false);
    default: return Status::OK();
  }
}

struct CsvField {
  std::string_view text;
  bool quoted = false;
};

class CsvDecoder final : public RecordDecoder {
 public:
  CsvDecoder(Schema physical, std::vector<int> projection, CsvConfig config)
      : physical_(std::move(physical)), projection_(std::move(projection)), config_(std::move(config)) {}

  size_t SplitRecords(std::string_view data, bool at_end, size_t max_records, int64_t* line,
                      std::vector<TextRecord>* out) const override {
    const char* base = data.data();
    const char* end = base + data.size();
    const char* p = base;
    size_t n = 0;
    while (n < max_records && p < end) {
      int64_t newlines = 0;
      const char* stop = FindRecordEnd(p, end, at_end, &newlines);
      if (stop == nullptr) break;  // the record may continue in data not read yet
      const char* text_end = stop;
      if (text_end > p && text_end[-1] == '\r') --text_end;
      std::string_view text(p, static_cast<size_t>(text_end - p));
      bool blank = text.find_first_not_of(" \t") == std::string_view::npos;
      bool comment = config_.allow_comments && !text.empty() && text.front() == '#';
      if (!blank && !comment) {
        out->push_back(TextRecord{text, *line});
        ++n;
      }
      *line += newlines + 1;
      p = stop < end ? stop + 1 : end;
    }
    return static_cast<size_t>(p - base);
  }

  Status Decode(const RecordBatch& batch, Chunk* out) override {
    const size_t base = out->size();
    out->Resize(base + batch.count);
    std::vector<size_t> child_sizes(out->num_columns());
    size_t row = base;
    for (size_t r = 0; r < batch.count; ++r) {
      const TextRecord& rec = batch.records[r];
      for (size_t c = 0; c < out->num_columns(); ++c) {
        if (out->column(c).type().IsList()) child_sizes[c] = out->column(c).child(0).size();
      }
      std::string reason;
      if (DecodeRecord(rec.text, out, row, &reason)) {
        ++row;
        continue;
      }
      for (size_t c = 0; c < out->num_columns(); ++c) {
        if (out->column(c).type().IsList()) out->column(c).child(0).Resize(child_sizes[c]);
      }
      if (!config_.ignore_errors) {
        out->Resize(row);
        return RecordError("CSV", rec.text, batch.source, rec.line, reason);
      }
      ++skipped_;
    }
    out->Resize(row);
    return Status::OK();
  }

 private:
  // The end of the record starting at `p` (its '\n', or `end` for the file's last record), counting the
  // line breaks inside it; nullptr when more data is needed. A quote opens a quoted field only at the
  // start of a field (elsewhere it is a literal character), so a stray quote never joins lines. A
  // record may span lines only through well-formed quoted fields: when a quoted field is never closed,
  // or is followed by anything but a delimiter or the end of the record, the record is cut at its
  // first line break instead. The malformed line is then one bad record and the lines after it are
  // read as records of their own: a skipped record never hides valid ones.
  const char* FindRecordEnd(const char* p, const char* end, bool at_end, int64_t* newlines) const {
    auto first_line_end = [&]() -> const char* {
      *newlines = 0;
      const char* nl = static_cast<const char*>(std::memchr(p, '\n', static_cast<size_t>(end - p)));
      if (nl != nullptr) return nl;
      return at_end ? end : nullptr;
    };
    bool in_quote = false, field_start = true, after_quote = false;
    int64_t count = 0;
    for (const char* q = p; q < end;) {
      const char c = *q;
      if (config_.escape && c == *config_.escape) {
        if (q + 1 >= end) return at_end ? first_line_end() : nullptr;
        if (q[1] == '\n') ++count;
        q += 2;
        field_start = false;
        continue;
      }
      if (in_quote) {
        if (c == config_.quote) {
          if (q + 1 >= end && !at_end) return nullptr;  // a doubled quote may follow
          if (q + 1 < end && q[1] == config_.quote) {
            q += 2;
            continue;
          }
          in_quote = false;
          after_quote = true;
        } else if (c == '\n') {
          ++count;
        }
        ++q;
        continue;
      }
      if (c == '\n') {
        *newlines = count;
        return q;
      }
      if (after_quote && c == '\r' && q + 1 >= end && !at_end) return nullptr;
      if (after_quote && c != config_.delimiter && !(c == '\r' && q + 1 < end && q[1] == '\n')) {
        return first_line_end();  // text after a closing quote: malformed
      }
      after_quote = false;
      if (c == config_.delimiter) {
        field_start = true;
      } else {
        if (config_.quoting && c == config_.quote && field_start) in_quote = true;
        field_start = false;
      }
      ++q;
    }
    if (!at_end) return nullptr;
    if (in_quote) return first_line_end();  // never closed
    *newlines = count;
    return end;
  }

  // Splits `text` into fields, unquoting into unescaped_ (reserved up front so views stay valid).
  bool SplitFields(std::string_view text, std::string* reason) {
    fields_.clear();
    unescaped_.clear();
    unescaped_.reserve(text.size());
    size_t i = 0;
    const size_t n = text.size();
    while (true) {
      CsvField f;
      if (config_.quoting && i < n && text[i] == config_.quote) {
        f.quoted = true;
        size_t start = unescaped_.size();
        ++i;
        bool closed = false;
        while (i < n) {
          char c = text[i];
          if (config_.escape && c == *config_.escape && i + 1 < n) {
            unescaped_.push_back(text[i + 1]);
            i += 2;
          } else if (c == config_.quote) {
            if (i + 1 < n && text[i + 1] == config_.quote) {
              unescaped_.push_back(c);
              i += 2;
            } else {
              ++i;
              closed = true;
              break;
            }
          } else {
            unescaped_.push_back(c);
            ++i;
          }
        }
        if (!closed) {
          *reason = "unterminated quoted field";
          return false;
        }
        f.text = std::string_view(unescaped_.data() + start, unescaped_.size() - start);
        if (i < n && text[i] != config_.delimiter) {
          *reason = "unexpected character after a quoted field";
          return false;
        }
      } else {
        size_t start = i;
        bool has_escape = false;
        while (i < n && text[i] != config_.delimiter) {
          if (config_.escape && text[i] == *config_.escape && i + 1 < n) {
            has_escape = true;
            ++i;
          }
          ++i;
        }
        if (has_escape) {
          size_t s = unescaped_.size();
          for (size_t k = start; k < i; ++k) {
            if (text[k] == *config_.escape && k + 1 < i) ++k;
            unescaped_.push_back(text[k]);
          }
          f.text = std::string_view(unescaped_.data() + s, unescaped_.size() - s);
        } else {
          f.text = text.substr(start, i - start);
        }
      }
      fields_.push_back(f);
      if (i >= n) break;
      ++i;  // the delimiter
    }
    return true;
  }

  bool DecodeRecord(std::string_view text, Chunk* out, size_t row, std::string* reason) {
    if (!SplitFields(text, reason)) return false;
    if (fields_.size() != physical_.size()) {
      *reason = "expected " + std::to_string(physical_.size()) + " fields, got " + std::to_string(fields_.size());
      return false;
    }
    const size_t ncols = out->num_columns();
    for (size_t c = 0; c < ncols; ++c) {
      const size_t p = projection_.empty() ? c : static_cast<size_t>(projection_[c]);
      const CsvField& f = fields_[p];
      Vector& vec = out->column(c);
      if (!DecodeField(f, vec, row, reason)) {
        *reason = "field '" + physical_.field(p).name + "': " + *reason;
        return false;
      }
    }
    return true;
  }

  bool IsNullText(const CsvField& f, const LogicalType& t) const {
    if (config_.null_literal && f.text == *config_.null_literal) return true;
    return f.text.empty() && !f.quoted && !t.IsStringLike();
  }

  bool DecodeField(const CsvField& f, Vector& vec, size_t row, std::string* reason) {
    const LogicalType& t = vec.type();
    if (IsNullText(f, t)) {
      vec.SetNull(row, true);
      if (t.IsList()) vec.data<ListEntry>()[row] = ListEntry{static_cast<uint32_t>(vec.child(0).size()), 0};
      return true;
    }
    if (t.id() != TypeId::kArray) return ParseTextValue(f.text, TimestampStandard::kSql, &vec, row, reason);
    Vector& child = vec.child(0);
    const size_t start = child.size();
    if (!f.text.empty()) {
      std::string_view rest = f.text;
      while (true) {
        size_t d = rest.find(config_.array_delimiter);
        std::string_view element = rest.substr(0, d);
        size_t i = child.size();
        child.Resize(i + 1);
        CsvField ef{element, false};
        if (IsNullText(ef, child.type())) {
          child.SetNull(i, true);
        } else if (!ParseTextValue(element, TimestampStandard::kSql, &child, i, reason)) {
          *reason = "element " + std::to_string(i - start + 1) + ": " + *reason;
          return false;
        }
        if (d == std::string_view::npos) break;
        rest.remove_prefix(d + config_.array_delimiter.size());
      }
    }
    vec.data<ListEntry>()[row] = ListEntry{static_cast<uint32_t>(start), static_cast<uint32_t>(child.size() - start)};
    vec.SetNull(row, false);
    return true;
  }

  Schema physical_;
  std::vector<int> projection_;
  CsvConfig config_;
  std::vector<CsvField> fields_;
  std::string unescaped_;
};

// Flink's csv writer (Jackson's CsvGenerator with its default, loose quoting check): numbers and
// booleans are written as they are; text (strings, bytes as base64, dates, times, timestamps and whole
// ARRAY fields) is quoted when it is longer than 24 UTF-16 units, holds a character below
// max(delimiter, quote) + 1 (a space, '#', '+', '\'', ...), or holds the escape character. Inside
// quotes the quote and the escape character are doubled. Without quoting, text is written as is.
class CsvEncoder final : public RecordEncoder {
 public:
  explicit CsvEncoder(CsvConfig config)
      : config_(std::move(config)),
        min_safe_(std::max(static_cast<unsigned char>(config_.delimiter), static_cast<unsigned char>(config_.quote)) + 1),
        fraction_(config_.listing ? FractionText::kPrecision : FractionText::kShortest) {}

  Status Encode(const Chunk& chunk, std::string* out) override {
    for (size_t r = 0; r < chunk.size(); ++r) {
      for (size_t c = 0; c < chunk.num_columns(); ++c) {
        if (c) out->push_back(config_.delimiter);
        const Vector& vec = chunk.column(c);
        if (vec.IsNull(r)) {
          if (config_.null_literal) out->append(*config_.null_literal);
          continue;
        }
        // Strings are checked and written from the vector, without a copy.
        if (vec.type().id() == TypeId::kVarChar || vec.type().id() == TypeId::kChar) {
          AppendText(vec.GetString(r), out);
          continue;
        }
        field_.clear();
        bool text = true;
        if (vec.type().id() == TypeId::kArray) {
          const ListEntry& e = vec.list_entry(r);
          for (uint32_t i = 0; i < e.length; ++i) {
            if (i) field_.append(config_.array_delimiter);
            const Vector& child = vec.child(0);
            if (child.IsNull(e.offset + i)) {
              if (config_.null_literal) field_.append(*config_.null_literal);
            } else {
              AppendScalar(child, e.offset + i, &field_);
            }
          }
        } else {
          text = AppendScalar(vec, r, &field_);
        }
        if (text) {
          AppendText(field_, out);
        } else {
          out->append(field_);
        }
      }
      out->push_back('\n');
    }
    return Status::OK();
  }

 private:
  // Appends the value's text; returns whether it is text (subject to quoting) rather than a number.
  bool AppendScalar(const Vector& vec, size_t row, std::string* out) const {
    const LogicalType& t = vec.type();
    switch (t.id()) {
      case TypeId::kBoolean: out->append(vec.data<uint8_t>()[row] ? "true" : "false"); return false;
      case TypeId::kDecimal:
        AppendDecimalValueText(vec.data<__int128>()[row], t.scale(), config_.decimal_text, out);
        return false;
      case TypeId::kChar:
      case TypeId::kVarChar: out->append(vec.GetString(row)); return true;
      case TypeId::kBinary:
      case TypeId::kVarBinary: AppendBase64(vec.GetString(row), out); return true;
      case TypeId::kTime: AppendTimeText(vec.data<int32_t>()[row], t.precision(), fraction_, out); return true;
      case TypeId::kTimestamp:
      case TypeId::kTimestampLtz:
        AppendTimestampText(vec.data<int64_t>()[row], t.precision(), TimestampStandard::kSql,
                            t.id() == TypeId::kTimestampLtz, fraction_, out);
        return true;
      case TypeId::kDate: AppendVectorText(vec, row, out); return true;
      default: AppendVectorText(vec, row, out); return false;
    }
  }

  bool NeedsQuotes(std::string_view s) const {
    if (config_.listing) {
      return s.find_first_of(std::string{config_.delimiter, config_.quote, '\n', '\r'}) != std::string_view::npos;
    }
    // More than 24 UTF-16 units is quoted whatever the characters: the scan stops there.
    size_t utf16_units = 0;
    for (char ch : s) {
      const auto c = static_cast<unsigned char>(ch);
      if ((c & 0xC0) != 0x80) ++utf16_units;  // a sequence's lead byte
      if ((c & 0xF8) == 0xF0) ++utf16_units;  // four bytes: a surrogate pair in Java
      if (utf16_units > 24 || c < min_safe_ || (config_.escape && ch == *config_.escape)) return true;
    }
    return false;
  }

  void AppendText(std::string_view s, std::string* out) const {
    if (!config_.quoting || !NeedsQuotes(s)) {
      out->append(s);
      return;
    }
    // Copied in runs up to each character to double, found with memchr (find).
    out->push_back(config_.quote);
    const char doubled[2] = {config_.quote, config_.escape ? *config_.escape : config_.quote};
    const std::string_view to_double(doubled, config_.escape && *config_.escape != config_.quote ? 2 : 1);
    size_t run = 0;
    while (true) {
      const size_t i = to_double.size() == 1 ? s.find(doubled[0], run) : s.find_first_of(to_double, run);
      if (i == std::string_view::npos) break;
      out->append(s.data() + run, i + 1 - run);
      out->push_back(s[i]);
      run = i + 1;
    }
    out->append(s.data() + run, s.size() - run);
    out->push_back(config_.quote);
  }

  CsvConfig config_;
  unsigned min_safe_;
  FractionText fraction_;
  std::string field_;
};

class CsvFactory final : public FormatFactory {
 public:
  std::string identifier() const override { return "csv"; }
  std::string file_extension() const override { return "csv"; }
  const std::vector<ConfigOption>& options() const override {
    static const std::vector<ConfigOption> kOptions = {
        {kFieldDelimiter, OptionType::kString, ",", "Field delimiter character."},
        {kDisableQuote, OptionType::kBoolean, "false",
         "Disable the quote character for enclosing field values (then 'csv.quote-character' must not be set)."},
        {kQuoteCharacter, OptionType::kString, "\"", "Quote character for enclosing field values."},
        {kAllowComments, OptionType::kBoolean, "false", "Ignore comment lines that start with '#'."},
        {kIgnoreParseErrors, OptionType::kBoolean, "false",
         "Skip (and count) malformed records instead of failing the job. A quote opens a quoted field only at "
         "a field's start; a record whose quoted field is never closed, or has text after its closing quote, is "
         "one bad line: the lines after it are read as records."},
        {kArrayDelimiter, OptionType::kString, ";", "Separator of array elements inside a field."},
        {kEscapeCharacter, OptionType::kString, "", "Escape character for escaping values (none by default)."},
        {kNullLiteral, OptionType::kString, "", "Text read and written as NULL (none by default)."},
        {kScientific, OptionType::kBoolean, "false",
         "When true, write DECIMAL values as Java's BigDecimal text without trailing zeros (5, 1E+2, 1.2E-7); "
         "otherwise plain at the type's scale (5.00, 100.00). Flink documents true as the default, yet its "
         "csv writer writes plain text unless the option is set, and so does Sluice."},
    };
    return kOptions;
  }

  Result<std::unique_ptr<RecordDecoder>> CreateDecoder(const Schema& physical, const std::vector<int>& projection,
                                                       const OptionReader& options) const override {
    for (size_t i = 0; i < physical.size(); ++i) {
      bool used = projection.empty();
      for (int p : projection) used = used || p == static_cast<int>(i);
      if (used) RETURN_IF_ERROR(CheckSupported(physical.field(i).type, physical.field(i).name, true));
    }
    ASSIGN_OR_RETURN(CsvConfig config, ReadConfig(options));
    return std::unique_ptr<RecordDecoder>(new CsvDecoder(physical, projection, std::move(config)));
  }

  Result<std::unique_ptr<RecordEncoder>> CreateEncoder(const Schema& schema, const OptionReader& options) const override {
    for (const auto& f : schema.fields()) RETURN_IF_ERROR(CheckSupported(f.type, f.name, true));
    ASSIGN_OR_RETURN(CsvConfig config, ReadConfig(options));
    return std::unique_ptr<RecordEncoder>(new CsvEncoder(std::move(config)));
  }
};

}  // namespace

const FormatFactory& CsvFormatFactory() {
  static const CsvFactory kFactory;
  return kFactory;
}

Result<std::unique_ptr<RecordEncoder>> CreateCsvListingEncoder(const Schema& schema) {
  for (const auto& f : schema.fields()) RETURN_IF_ERROR(CheckSupported(f.type, f.name, true));
  CsvConfig config;
  config.listing = true;
  return std::unique_ptr<RecordEncoder>(new CsvEncoder(std::move(config)));
}

}  // namespace sluice
