// The JSON writing side of json_format.h: values, rows and strings as JSON text, as the write options
// (JsonWriteOptions) say.
#include "formats/json/json_format.h"

#include <charconv>
#include <cmath>
#include <string>

#include "common/check.h"
#include "common/config.h"
#include "common/utf8.h"
#include "common/time_util.h"
#include "types/row_kind.h"
#include "types/value_format.h"
#include "types/vector.h"

namespace sluice {

namespace {

void AppendInt(int64_t v, std::string* out) {
  char buf[24];
  auto res = std::to_chars(buf, buf + sizeof(buf), v);
  out->append(buf, res.ptr);
}

// A MAP as a JSON object, its keys as text; a NULL key as json.map-null-key.mode says.
Status AppendJsonMap(const Vector& vec, size_t row, const JsonWriteOptions& options, std::string* out) {
  const ListEntry& e = vec.list_entry(row);
  out->push_back('{');
  bool first = true;
  std::string key;
  for (uint32_t i = 0; i < e.length; ++i) {
    const Vector& keys = vec.child(0);
    key.clear();
    if (keys.IsNull(e.offset + i)) {
      if (options.map_null_key_mode == JsonWriteOptions::MapNullKeyMode::kDrop) continue;
      if (options.map_null_key_mode == JsonWriteOptions::MapNullKeyMode::kFail) {
        return Status::RuntimeError(
            "JSON format doesn't support to serialize map data with null keys. You can drop null key entries "
            "or encode null in literals by specifying 'json.map-null-key.mode' option.");
      }
      key = options.map_null_key_literal;
    } else if (keys.type().IsCharacterString()) {
      key.assign(keys.GetString(e.offset + i));
    } else {
      AppendVectorText(keys, e.offset + i, &key);
    }
    if (!first) out->push_back(',');
    first = false;
    AppendJsonString(key, out);
    out->push_back(':');
    RETURN_IF_ERROR(AppendJsonValue(vec.child(1), e.offset + i, options, out));
  }
  out->push_back('}');
  return Status::OK();
}

}  // namespace

void AppendJsonString(std::string_view s, std::string* out) {
  static constexpr char kHex[] = "0123456789abcdef";
  out->push_back('"');
  size_t run = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    if (c >= 0x20 && c < 0x80 && c != '"' && c != '\\') continue;
    if (c >= 0x80) {
      // Valid UTF-8 is copied as is; a byte that starts no valid sequence becomes U+FFFD, as Java's
      // decoding of such bytes into the String Flink's JSON writer writes: the output is always UTF-8.
      if (const size_t len = Utf8SequenceLength(s, i); len > 0) {
        i += len - 1;
        continue;
      }
      out->append(s.data() + run, i - run);
      run = i + 1;
      out->append("\xEF\xBF\xBD");
      continue;
    }
    out->append(s.data() + run, i - run);
    run = i + 1;
    switch (c) {
      case '"': out->append("\\\""); break;
      case '\\': out->append("\\\\"); break;
      case '\n': out->append("\\n"); break;
      case '\r': out->append("\\r"); break;
      case '\t': out->append("\\t"); break;
      case '\b': out->append("\\b"); break;
      case '\f': out->append("\\f"); break;
      default:
        out->append("\\u00");
        out->push_back(kHex[c >> 4]);
        out->push_back(kHex[c & 15]);
    }
  }
  out->append(s.data() + run, s.size() - run);
  out->push_back('"');
}

Status AppendJsonValue(const Vector& vec, size_t row, const JsonWriteOptions& options, std::string* out) {
  if (vec.IsNull(row)) {
    out->append("null");
    return Status::OK();
  }
  const LogicalType& t = vec.type();
  switch (t.id()) {
    case TypeId::kNull: out->append("null"); break;
    case TypeId::kBoolean: out->append(vec.data<uint8_t>()[row] ? "true" : "false"); break;
    case TypeId::kTinyInt: AppendInt(vec.data<int8_t>()[row], out); break;
    case TypeId::kSmallInt: AppendInt(vec.data<int16_t>()[row], out); break;
    case TypeId::kInteger: AppendInt(vec.data<int32_t>()[row], out); break;
    case TypeId::kBigInt: AppendInt(vec.data<int64_t>()[row], out); break;
    case TypeId::kFloat:
    case TypeId::kDouble: {
      double d = t.id() == TypeId::kFloat ? vec.data<float>()[row] : vec.data<double>()[row];
      // Jackson quotes the non-numbers NaN and Infinity (they are not JSON numbers).
      bool finite = std::isfinite(d);
      if (!finite) out->push_back('"');
      if (t.id() == TypeId::kFloat) {
        AppendFloatText(vec.data<float>()[row], out);
      } else {
        AppendDoubleText(d, out);
      }
      if (!finite) out->push_back('"');
      break;
    }
    case TypeId::kDecimal:
      AppendDecimalValueText(vec.data<__int128>()[row], t.scale(), options.decimal_text, out);
      break;
    case TypeId::kChar:
    case TypeId::kVarChar: AppendJsonString(vec.GetString(row), out); break;
    case TypeId::kBinary:
    case TypeId::kVarBinary:
      out->push_back('"');
      AppendBase64(vec.GetString(row), out);
      out->push_back('"');
      break;
    case TypeId::kDate:
      out->push_back('"');
      out->append(FormatDate(vec.data<int32_t>()[row]));
      out->push_back('"');
      break;
    case TypeId::kTime:
      // Flink's json writer keeps whole seconds of a TIME (LocalTime.ofSecondOfDay).
      out->push_back('"');
      AppendTimeText(vec.data<int32_t>()[row],
                     options.fraction_text == FractionText::kShortest ? 0 : t.precision(), FractionText::kPrecision,
                     out);
      out->push_back('"');
      break;
    case TypeId::kTimestamp:
    case TypeId::kTimestampLtz:
      out->push_back('"');
      AppendTimestampText(vec.data<int64_t>()[row], t.precision(), options.timestamp_standard,
                          t.id() == TypeId::kTimestampLtz, options.fraction_text, out);
      out->push_back('"');
      break;
    case TypeId::kArray:
    case TypeId::kMultiset: {
      const ListEntry& e = vec.list_entry(row);
      out->push_back('[');
      for (uint32_t i = 0; i < e.length; ++i) {
        if (i) out->push_back(',');
        RETURN_IF_ERROR(AppendJsonValue(vec.child(0), e.offset + i, options, out));
      }
      out->push_back(']');
      break;
    }
    case TypeId::kMap: return AppendJsonMap(vec, row, options, out);
    case TypeId::kRow: {
      out->push_back('{');
      for (size_t i = 0; i < vec.num_children(); ++i) {
        if (i) out->push_back(',');
        AppendJsonString(t.field_name(i), out);
        out->push_back(':');
        RETURN_IF_ERROR(AppendJsonValue(vec.child(i), row, options, out));
      }
      out->push_back('}');
      break;
    }
    case TypeId::kIntervalDayTime: AppendInt(vec.data<int64_t>()[row], out); break;
    case TypeId::kIntervalYearMonth: AppendInt(vec.data<int32_t>()[row], out); break;
  }
  return Status::OK();
}

JsonRowWriter::JsonRowWriter(std::vector<std::string> names, JsonWriteOptions options, std::string op_key)
    : options_(std::move(options)) {
  if (!op_key.empty()) {
    op_prefix_ = "{";
    AppendJsonString(op_key, &op_prefix_);
    op_prefix_ += ":\"";
  }
  for (size_t i = 0; i < names.size(); ++i) {
    std::string k;
    if (i > 0 || !op_prefix_.empty()) k.push_back(',');
    AppendJsonString(names[i], &k);
    k.push_back(':');
    keys_.push_back(std::move(k));
  }
}

Status JsonRowWriter::Append(const Chunk& chunk, size_t row, std::string* out) const {
  SLUICE_CHECK_EQ(chunk.num_columns(), keys_.size());
  if (op_prefix_.empty()) {
    out->push_back('{');
  } else {
    out->append(op_prefix_);
    out->append(RowKindShortString(chunk.kind(row)));
    out->push_back('"');
  }
  for (size_t c = 0; c < keys_.size(); ++c) {
    out->append(keys_[c]);
    RETURN_IF_ERROR(AppendJsonValue(chunk.column(c), row, options_, out));
  }
  out->push_back('}');
  return Status::OK();
}

Status AppendJsonRow(const Chunk& chunk, size_t row, const std::vector<std::string>& names, std::string* out,
                     const JsonWriteOptions& options, std::string_view op_key) {
  JsonRowWriter writer(names, options, std::string(op_key));
  return writer.Append(chunk, row, out);
}

}  // namespace sluice
