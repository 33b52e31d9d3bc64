#include "connectors/filesystem/partition_path.h"

#include <charconv>
#include <cstdlib>
#include <cstring>

#include "common/time_util.h"
#include "types/value.h"

namespace sluice {

namespace {

bool NeedsEscaping(unsigned char c) {
  if (c < 0x20 || c == 0x7F) return true;
  switch (c) {
    case '"': case '#': case '%': case '\'': case '*': case '/': case ':': case '=':
    case '?': case '\\': case '{': case '}': case '[': case ']': case '^':
      return true;
    default:
      return false;
  }
}

int HexDigit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

void AppendEscaped(std::string_view name, std::string* out) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  for (char ch : name) {
    const auto c = static_cast<unsigned char>(ch);
    if (NeedsEscaping(c)) {
      out->push_back('%');
      out->push_back(kHex[c >> 4]);
      out->push_back(kHex[c & 15]);
    } else {
      out->push_back(ch);
    }
  }
}

// Java's LocalDateTime.toString: "2015-09-15T10:00", seconds only when not zero, then the fraction
// in groups of three digits.
std::string IsoLocalDateTime(int64_t micros) {
  std::string text = FormatTimestamp(micros, 6);  // "2015-09-15 10:00:00.000000"
  text[10] = 'T';
  const std::string date_time = text.substr(0, 19);
  std::string fraction = text.substr(20);
  while (!fraction.empty() && fraction.size() % 3 == 0 && fraction.compare(fraction.size() - 3, 3, "000") == 0) {
    fraction.resize(fraction.size() - 3);
  }
  if (fraction.empty() && date_time.compare(17, 2, "00") == 0) return date_time.substr(0, 16);
  return fraction.empty() ? date_time : date_time + "." + fraction;
}

template <typename T>
bool ParseInteger(std::string_view text, T* out) {
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), *out);
  return ec == std::errc() && end == text.data() + text.size();
}

}  // namespace

std::string EscapePathName(std::string_view name) {
  std::string out;
  out.reserve(name.size());
  AppendEscaped(name, &out);
  return out;
}

std::string UnescapePathName(std::string_view name) {
  std::string out;
  out.reserve(name.size());
  for (size_t i = 0; i < name.size(); ++i) {
    if (name[i] == '%' && i + 2 < name.size()) {
      const int hi = HexDigit(name[i + 1]);
      const int lo = HexDigit(name[i + 2]);
      if (hi >= 0 && lo >= 0) {
        out.push_back(static_cast<char>(hi * 16 + lo));
        i += 2;
        continue;
      }
    }
    out.push_back(name[i]);
  }
  return out;
}

Result<PartitionComputer> PartitionComputer::Make(const Schema& schema, const std::vector<std::string>& partition_keys,
                                                  std::string default_name) {
  PartitionComputer pc;
  pc.keys_ = partition_keys;
  pc.default_name_ = std::move(default_name);
  std::vector<bool> is_partition(schema.size(), false);
  for (const std::string& key : partition_keys) {
    int found = -1;
    for (size_t i = 0; i < schema.size(); ++i) {
      if (schema.field(i).name == key) found = static_cast<int>(i);
    }
    if (found < 0) {
      return Status::InvalidArgument("partition column '" + key + "' is not a physical column of the table");
    }
    pc.partition_columns_.push_back(found);
    is_partition[static_cast<size_t>(found)] = true;
  }
  for (size_t i = 0; i < schema.size(); ++i) {
    if (!is_partition[i]) pc.data_columns_.push_back(static_cast<int>(i));
  }
  if (pc.partitioned() && pc.data_columns_.empty()) {
    return Status::InvalidArgument("every column is a partition column: the files would hold no column");
  }
  return pc;
}

std::string PartitionValueText(const Vector& column, size_t row) {
  if (column.IsNull(row)) return {};
  switch (column.type().id()) {
    case TypeId::kChar:
    case TypeId::kVarChar:
      return std::string(column.GetString(row));
    case TypeId::kBoolean:
      return column.data<uint8_t>()[row] != 0 ? "true" : "false";
    case TypeId::kTinyInt:
      return std::to_string(column.data<int8_t>()[row]);
    case TypeId::kSmallInt:
      return std::to_string(column.data<int16_t>()[row]);
    case TypeId::kInteger:
      return std::to_string(column.data<int32_t>()[row]);
    case TypeId::kBigInt:
      return std::to_string(column.data<int64_t>()[row]);
    case TypeId::kDate:
      return FormatDate(column.data<int32_t>()[row]);
    case TypeId::kTimestamp:
      return IsoLocalDateTime(column.data<int64_t>()[row]);
    default:
      return column.GetValue(row).ToString();
  }
}

void PartitionComputer::PartitionPath(const Chunk& chunk, size_t row, std::string* out) const {
  out->clear();
  for (size_t k = 0; k < partition_columns_.size(); ++k) {
    if (k > 0) out->push_back('/');
    AppendEscaped(keys_[k], out);
    out->push_back('=');
    const Vector& column = chunk.column(static_cast<size_t>(partition_columns_[k]));
    const bool is_string = column.type().id() == TypeId::kVarChar || column.type().id() == TypeId::kChar;
    if (is_string && !column.IsNull(row)) {
      // The common case without a temporary string.
      std::string_view s = column.GetString(row);
      AppendEscaped(s.empty() ? std::string_view(default_name_) : s, out);
      continue;
    }
    std::string text = PartitionValueText(column, row);
    AppendEscaped(text.empty() ? std::string_view(default_name_) : std::string_view(text), out);
  }
}

bool PartitionComputer::SamePartition(const Chunk& chunk, size_t a, size_t b) const {
  for (int c : partition_columns_) {
    const Vector& column = chunk.column(static_cast<size_t>(c));
    const bool null_a = column.IsNull(a);
    if (null_a != column.IsNull(b)) return false;
    if (null_a) continue;
    const LogicalType& t = column.type();
    if (t.IsStringLike()) {
      if (column.GetString(a) != column.GetString(b)) return false;
      continue;
    }
    const size_t w = t.PhysicalWidth();
    if (t.IsList() || t.id() == TypeId::kRow || w == 0) return false;
    if (std::memcmp(column.raw_data() + a * w, column.raw_data() + b * w, w) != 0) return false;
  }
  return true;
}

bool ParsePartitionDirectory(std::string_view relative_dir, const std::vector<std::string>& keys,
                             std::vector<std::string>* values) {
  values->clear();
  size_t pos = 0;
  for (size_t k = 0; k < keys.size(); ++k) {
    if (pos > relative_dir.size()) return false;
    size_t slash = relative_dir.find('/', pos);
    if (slash == std::string_view::npos) slash = relative_dir.size();
    std::string_view component = relative_dir.substr(pos, slash - pos);
    const size_t eq = component.find('=');
    if (eq == std::string_view::npos || eq == 0 || eq + 1 == component.size()) return false;
    if (UnescapePathName(component.substr(0, eq)) != keys[k]) return false;
    values->push_back(UnescapePathName(component.substr(eq + 1)));
    pos = slash + 1;
  }
  return pos >= relative_dir.size();
}

Status AppendPartitionValue(std::string_view text, bool is_default, const std::string& column, Vector* out) {
  const LogicalType& type = out->type();
  if (is_default) {
    out->AppendValue(Value::Null(type));
    return Status::OK();
  }
  auto bad = [&]() {
    return Status::InvalidArgument("Can not convert partition value '" + std::string(text) + "' of column '" + column +
                                   "' to type " + type.ToString());
  };
  switch (type.id()) {
    case TypeId::kChar:
    case TypeId::kVarChar:
      out->AppendValue(Value::Typed(type, std::string(text)));
      return Status::OK();
    case TypeId::kBoolean:
      // Java's Boolean.parseBoolean: "true" in any case is true, anything else false.
      out->AppendValue(Value::Boolean(text.size() == 4 && (text[0] | 32) == 't' && (text[1] | 32) == 'r' &&
                                      (text[2] | 32) == 'u' && (text[3] | 32) == 'e').WithType(type));
      return Status::OK();
    case TypeId::kTinyInt:
    case TypeId::kSmallInt:
    case TypeId::kInteger:
    case TypeId::kBigInt: {
      int64_t v = 0;
      if (!ParseInteger(text, &v)) return bad();
      const int64_t lo = type.id() == TypeId::kTinyInt ? -128 : type.id() == TypeId::kSmallInt ? -32768
                         : type.id() == TypeId::kInteger ? INT32_MIN : INT64_MIN;
      const int64_t hi = -(lo + 1);
      if (v < lo || v > hi) return bad();
      out->AppendValue(Value::Int(type, v));
      return Status::OK();
    }
    case TypeId::kFloat:
    case TypeId::kDouble: {
      std::string s(text);
      char* end = nullptr;
      const double v = std::strtod(s.c_str(), &end);
      if (s.empty() || end != s.c_str() + s.size()) return bad();
      out->AppendValue(type.id() == TypeId::kFloat ? Value::Float(static_cast<float>(v)).WithType(type)
                                                   : Value::Double(v).WithType(type));
      return Status::OK();
    }
    case TypeId::kDate: {
      auto days = ParseDate(text);
      if (!days) return bad();
      out->AppendValue(Value::Int(type, *days));
      return Status::OK();
    }
    case TypeId::kTimestamp: {
      auto micros = ParseTimestamp(text, true);
      if (!micros) return bad();
      out->AppendValue(Value::Int(type, *micros));
      return Status::OK();
    }
    default:
      return bad();
  }
}

}  // namespace sluice
