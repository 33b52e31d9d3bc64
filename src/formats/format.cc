#include "formats/format.h"

#include <algorithm>
#include <charconv>
#include <cstring>

#include "common/config.h"
#include "formats/csv/csv_format.h"
#include "formats/json/debezium_json_format.h"
#include "formats/json/json_format.h"
#include "formats/raw/raw_format.h"
#include "formats/avro/avro_format.h"
#include "formats/avro_confluent/avro_confluent_format.h"
#include "formats/avro_confluent/debezium_avro_confluent_format.h"

namespace sluice {

namespace {

std::string LowerCopy(std::string_view s) {
  std::string r(s);
  for (char& c : r) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return r;
}

}  // namespace

bool IsSecretOptionKey(std::string_view key) {
  std::string k = LowerCopy(key);
  for (const char* word : {"password", "secret", "token", "jaas", "credential", "private-key", "access-key", "authorization",
                           "user-info", "user.info"}) {
    if (k.find(word) != std::string::npos) return true;
  }
  return false;
}

std::string ShownOptionValue(std::string_view key, const std::string& value) {
  return IsSecretOptionKey(key) ? std::string("******") : value;
}

bool OptionReader::Has(const std::string& key) const { return options_ != nullptr && options_->count(key) > 0; }

std::string OptionReader::GetString(const std::string& key, const std::string& fallback) const {
  if (options_ == nullptr) return fallback;
  auto it = options_->find(key);
  return it == options_->end() ? fallback : it->second;
}

Status OptionReader::InvalidValue(const std::string& key, const std::string& reason) const {
  std::string msg = "Invalid value for option '" + key + "' of table '" + table_name_ + "'";
  if (IsSecretOptionKey(key)) return Status::InvalidArgument(msg + " (the value is hidden)");
  return Status::InvalidArgument(msg + ": " + reason);
}

Result<bool> OptionReader::GetBool(const std::string& key, bool fallback) const {
  if (!Has(key)) return fallback;
  auto r = ParseBool(options_->at(key));
  if (!r.ok()) return InvalidValue(key, r.status().message());
  return *r;
}

Result<int64_t> OptionReader::GetInt(const std::string& key, int64_t fallback) const {
  if (!Has(key)) return fallback;
  const std::string& text = options_->at(key);
  std::string_view t = text;
  while (!t.empty() && t.front() == ' ') t.remove_prefix(1);
  while (!t.empty() && t.back() == ' ') t.remove_suffix(1);
  int64_t v = 0;
  const char* b = t.data();
  if (!t.empty() && t.front() == '+') ++b;
  auto res = std::from_chars(b, t.data() + t.size(), v);
  if (t.empty() || res.ec != std::errc() || res.ptr != t.data() + t.size()) {
    return InvalidValue(key, "'" + text + "' is not an integer");
  }
  return v;
}

Result<int64_t> OptionReader::GetDurationMillis(const std::string& key, int64_t fallback) const {
  if (!Has(key)) return fallback;
  auto r = ParseDurationMillis(options_->at(key));
  if (!r.ok()) return InvalidValue(key, r.status().message());
  return *r;
}

Result<int64_t> OptionReader::GetMemorySize(const std::string& key, int64_t fallback) const {
  if (!Has(key)) return fallback;
  auto r = ParseMemorySize(options_->at(key));
  if (!r.ok()) return InvalidValue(key, r.status().message());
  return *r;
}

Result<std::string> OptionReader::GetEnum(const std::string& key, const std::string& fallback,
                                          const std::vector<std::string>& allowed) const {
  if (!Has(key)) return fallback;
  const std::string& text = options_->at(key);
  std::string lower = LowerCopy(text);
  std::string list;
  for (const auto& a : allowed) {
    if (LowerCopy(a) == lower) return a;
    list += (list.empty() ? "'" : ", '") + a + "'";
  }
  return InvalidValue(key, "'" + text + "' is not one of " + list);
}

Result<char> OptionReader::GetChar(const std::string& key, char fallback) const {
  if (!Has(key)) return fallback;
  const std::string& text = options_->at(key);
  if (text.size() == 1) return text[0];
  if (text == "\\t") return '\t';
  return InvalidValue(key, "'" + text + "' must be a single character");
}

size_t RecordDecoder::SplitRecords(std::string_view data, bool at_end, size_t max_records, int64_t* line,
                                   std::vector<TextRecord>* out) const {
  const char* base = data.data();
  const char* end = base + data.size();
  const char* p = base;
  size_t n = 0;
  while (n < max_records && p < end) {
    const char* nl = static_cast<const char*>(std::memchr(p, '\n', static_cast<size_t>(end - p)));
    if (nl == nullptr && !at_end) break;
    const char* stop = nl ? nl : end;
    const char* text_end = stop;
    if (text_end > p && text_end[-1] == '\r') --text_end;
    // Blank (whitespace-only) lines are not records.
    const char* q = p;
    while (q < text_end && (*q == ' ' || *q == '\t')) ++q;
    if (q < text_end) {
      out->push_back(TextRecord{std::string_view(p, static_cast<size_t>(text_end - p)), *line});
      ++n;
    }
    ++*line;
    p = nl ? nl + 1 : end;
  }
  return static_cast<size_t>(p - base);
}

Result<const FormatFactory*> FindFormat(const std::string& identifier) {
  for (const FormatFactory* f : AllFormats()) {
    if (f->identifier() == identifier) return f;
  }
  std::vector<std::string> names;
  for (const FormatFactory* f : AllFormats()) names.push_back(f->identifier());
  std::string msg = "Could not find any format factory for identifier '" + identifier + "'.";
  if (auto dym = DidYouMean(identifier, names)) msg += " Did you mean '" + *dym + "'?";
  std::string list;
  for (const auto& n : names) list += (list.empty() ? "" : ", ") + n;
  msg += " Available format identifiers are: " + list + ".";
  return Status::InvalidArgument(msg);
}

std::vector<const FormatFactory*> AllFormats() {
  return {&AvroFormatFactory(), &AvroConfluentFormatFactory(), &CsvFormatFactory(), &DebeziumAvroConfluentFormatFactory(),
          &DebeziumJsonFormatFactory(),
          &JsonFormatFactory(), &RawFormatFactory()};
}

Status RecordEncoder::EncodeBinary(const Chunk&, std::string*, std::vector<size_t>*) {
  return Status::NotSupported("This format writes text records (Encode), not binary ones");
}

Status BinaryRecordError(std::string_view format_name, size_t size, std::string_view source, int64_t line,
                         std::string_view reason) {
  std::string msg = "Failed to deserialize ";
  msg.append(format_name);
  msg.append(" record (" + std::to_string(size) + " bytes) at ");
  msg.append(source);
  const bool offset = source.size() >= 6 && source.substr(source.size() - 6) == "offset";
  msg.push_back(offset ? ' ' : ':');
  msg.append(std::to_string(line));
  msg.append(": ");
  msg.append(reason);
  return Status::InvalidArgument(std::move(msg));
}

Status RecordError(std::string_view format_name, std::string_view record, std::string_view source, int64_t line,
                   std::string_view reason) {
  std::string msg = "Failed to deserialize ";
  msg.append(format_name);
  msg.append(" '");
  if (record.size() > 100) {
    msg.append(record.substr(0, 100));
    msg.append("...");
  } else {
    msg.append(record);
  }
  msg.append("' at ");
  msg.append(source);
  msg.push_back(':');
  msg.append(std::to_string(line));
  msg.append(": ");
  msg.append(reason);
  return Status::InvalidArgument(std::move(msg));
}

}  // namespace sluice
