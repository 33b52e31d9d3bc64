#include "formats/json/json_format.h"

#include <simdjson.h>

#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>
#include <unordered_map>

#include "common/utf8.h"
#include "common/check.h"
#include "common/config.h"
#include "common/time_util.h"
#include "types/row_kind.h"
#include "types/value_format.h"
#include "types/vector.h"

namespace sluice {

namespace od = simdjson::ondemand;

namespace {

constexpr char kFailOnMissing[] = "json.fail-on-missing-field";
constexpr char kIgnoreParseErrors[] = "json.ignore-parse-errors";

const JsonWriteOptionKeys& WriteKeys() {
  static const JsonWriteOptionKeys kKeys("json");
  return kKeys;
}

std::string_view TrimJson(std::string_view s) {
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\n' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

// Name lookup without allocating a key per probe.
struct SvHash {
  using is_transparent = void;
  size_t operator()(std::string_view s) const { return std::hash<std::string_view>()(s); }
};
struct SvEq {
  using is_transparent = void;
  bool operator()(std::string_view a, std::string_view b) const { return a == b; }
};

// The decoding plan of one (possibly nested) type.
struct JsonNode {
  LogicalType type;
  TypeId id = TypeId::kNull;
  std::vector<JsonNode> children;  // ROW fields, ARRAY element, MAP key and value
  // ROW only.
  std::vector<std::string> names;
  std::unordered_map<std::string, int, SvHash, SvEq> index;
  // The key order of the last object seen at this level: position -> (key, child or -1). Records
  // of one file nearly always list keys in the same order, so a key is usually matched with one
  // comparison against the key at the same position last time.
  std::vector<std::pair<std::string, int>> order;
  std::vector<uint32_t> seen;
  uint32_t stamp = 0;
};

Status CheckSupported(const LogicalType& t, const std::string& name) {
  switch (t.id()) {
    case TypeId::kNull:
    case TypeId::kIntervalDayTime:
    case TypeId::kIntervalYearMonth:
    case TypeId::kMultiset:
      return Status::NotSupported("The json format does not support type " + t.ToString() + " (column '" + name + "')");
    default: break;
  }
  for (size_t i = 0; i < t.num_children(); ++i) {
    RETURN_IF_ERROR(CheckSupported(t.child(i), name));
  }
  return Status::OK();
}

JsonNode BuildNode(const LogicalType& t) {
  JsonNode n;
  n.type = t;
  n.id = t.id();
  for (size_t i = 0; i < t.num_children(); ++i) n.children.push_back(BuildNode(t.child(i)));
  if (t.id() == TypeId::kRow) {
    n.names = t.field_names();
    for (size_t i = 0; i < n.names.size(); ++i) n.index.emplace(n.names[i], static_cast<int>(i));
    n.seen.assign(n.names.size(), 0);
  }
  return n;
}

void SetNullDeep(Vector& v, size_t row) {
  v.SetNull(row, true);
  switch (v.type().id()) {
    case TypeId::kArray:
    case TypeId::kMap:
    case TypeId::kMultiset:
      v.data<ListEntry>()[row] = ListEntry{static_cast<uint32_t>(v.child(0).size()), 0};
      break;
    case TypeId::kRow:
      for (size_t i = 0; i < v.num_children(); ++i) SetNullDeep(v.child(i), row);
      break;
    default: break;
  }
}

// Collects the vectors that grow by appends (children of list vectors), to undo a partial record.
void CollectGrowing(Vector& v, std::vector<Vector*>* out) {
  if (v.type().IsList()) {
    for (size_t i = 0; i < v.num_children(); ++i) out->push_back(&v.child(i));
  }
  for (size_t i = 0; i < v.num_children(); ++i) CollectGrowing(v.child(i), out);
}

class JsonDecoder final : public RecordDecoder {
 public:
  JsonDecoder(const Schema& projected, bool fail_on_missing, bool ignore_errors, TimestampStandard standard)
      : fail_on_missing_(fail_on_missing), ignore_errors_(ignore_errors), standard_(standard) {
    root_ = BuildNode(LogicalType::Row(projected.names(), projected.types()));
  }

  Status Decode(const RecordBatch& batch, Chunk* out) override {
    SLUICE_CHECK_EQ(out->num_columns(), root_.children.size());
    const size_t base = out->size();
    out->Resize(base + batch.count);
    growing_.clear();
    for (size_t c = 0; c < out->num_columns(); ++c) CollectGrowing(out->column(c), &growing_);
    sizes_.resize(growing_.size());
    size_t row = base;
    for (size_t r = 0; r < batch.count; ++r) {
      const TextRecord& rec = batch.records[r];
      for (size_t g = 0; g < growing_.size(); ++g) sizes_[g] = growing_[g]->size();
      if (DecodeRecord(rec.text, batch.padded, out, row)) {
        ++row;
        continue;
      }
      // Undo what the failed record appended to nested children; its row slot is reused.
      for (size_t g = growing_.size(); g-- > 0;) growing_[g]->Resize(sizes_[g]);
      if (!ignore_errors_) {
        out->Resize(row);
        return RecordError("JSON", rec.text, batch.source, rec.line, Reason());
      }
      ++skipped_;
    }
    out->Resize(row);
    return Status::OK();
  }

 private:
  bool DecodeRecord(std::string_view text, bool padded, Chunk* out, size_t row) {
    error_.clear();
    path_.clear();
    const char* data = text.data();
    size_t capacity = text.size() + kRecordPadding;
    if (!padded) {
      scratch_.assign(text.data(), text.size());
      scratch_.resize(text.size() + kRecordPadding, ' ');
      data = scratch_.data();
      capacity = scratch_.size();
    }
    od::document doc;
    if (auto e = parser_.iterate(simdjson::padded_string_view(data, text.size(), capacity)).get(doc)) {
      return FailJson(e);
    }
    od::json_type jt;
    if (auto e = doc.type().get(jt)) return FailJson(e);
    if (jt != od::json_type::object) {
      // type() looks at the first character only: "not json" starts like null. Name real literals
      // by their type and call anything else malformed.
      std::string_view tok;
      if (auto e = doc.raw_json_token().get(tok)) return FailJson(e);
      tok = TrimJson(tok);
      bool literal = (jt == od::json_type::null && tok == "null") ||
                     (jt == od::json_type::boolean && (tok == "true" || tok == "false")) ||
                     jt == od::json_type::array || jt == od::json_type::string || jt == od::json_type::number;
      if (!literal) return Fail("malformed JSON (expected a JSON object)");
      return Fail(std::string("expected a JSON object, got ") + JsonTypeName(jt));
    }
    od::object obj;
    if (auto e = doc.get_object().get(obj)) return FailJson(e);
    if (!DecodeFields(obj, root_, [out](size_t i) -> Vector& { return out->column(i); }, row)) return false;
    // Anything after the object (a second object, stray text) makes the record malformed.
    const char* rest = nullptr;
    if (doc.current_location().get(rest) == simdjson::SUCCESS) return Fail("unexpected text after the JSON object");
    return true;
  }

  template <typename Cols>
  bool DecodeFields(od::object& obj, JsonNode& node, Cols cols, size_t row) {
    uint32_t stamp = ++node.stamp;
    if (stamp == 0) {
      std::fill(node.seen.begin(), node.seen.end(), 0);
      stamp = node.stamp = 1;
    }
    size_t k = 0;
    for (auto field_result : obj) {
      od::field field;
      if (auto e = std::move(field_result).get(field)) return FailJson(e);
      int idx;
      if (!MatchKey(node, field, k, &idx)) return false;
      ++k;
      if (idx < 0) continue;  // not a projected column: On-Demand skips the value
      node.seen[static_cast<size_t>(idx)] = stamp;
      if (!DecodeValue(field.value(), node.children[static_cast<size_t>(idx)], cols(static_cast<size_t>(idx)), row)) {
        path_.push_back(node.names[static_cast<size_t>(idx)]);
        return false;
      }
    }
    for (size_t i = 0; i < node.children.size(); ++i) {
      if (node.seen[i] == stamp) continue;
      if (fail_on_missing_) {
        error_ = "field is missing ('" + std::string(kFailOnMissing) + "' is true)";
        path_.push_back(node.names[i]);
        return false;
      }
      SetNullDeep(cols(i), row);
    }
    return true;
  }

  bool MatchKey(JsonNode& node, od::field& field, size_t k, int* idx) {
    od::raw_json_string raw = field.key();
    if (k < node.order.size() && raw.unsafe_is_equal(node.order[k].first)) {
      *idx = node.order[k].second;
      return true;
    }
    // The raw key runs to the first quote not escaped by a backslash.
    const char* p = raw.raw();
    const char* q = p;
    bool escaped = false;
    while (*q != '"') {
      if (*q == '\\') {
        escaped = true;
        ++q;
      }
      ++q;
    }
    std::string_view key(p, static_cast<size_t>(q - p));
    if (escaped) {
      std::string_view unescaped;
      if (auto e = field.unescaped_key().get(unescaped)) return FailJson(e);
      auto it = node.index.find(unescaped);
      *idx = it == node.index.end() ? -1 : it->second;
      return true;  // keys with escapes are not remembered (they never match the raw comparison)
    }
    auto it = node.index.find(key);
    *idx = it == node.index.end() ? -1 : it->second;
    if (k >= node.order.size()) node.order.resize(k + 1);
    node.order[k] = {std::string(key), *idx};
    return true;
  }

  bool DecodeValue(od::value value, JsonNode& node, Vector& vec, size_t row) {
    od::json_type jt;
    if (auto e = value.type().get(jt)) return FailJson(e);
    if (jt == od::json_type::null) {
      SetNullDeep(vec, row);
      return true;
    }
    switch (node.id) {
      case TypeId::kBoolean:
        if (jt == od::json_type::boolean) {
          bool b;
          if (auto e = value.get_bool().get(b)) return FailJson(e);
          vec.data<uint8_t>()[row] = b ? 1 : 0;
          break;
        }
        return FromString(value, jt, node, vec, row);
      case TypeId::kTinyInt:
      case TypeId::kSmallInt:
      case TypeId::kInteger:
      case TypeId::kBigInt:
        if (jt == od::json_type::number) {
          if (!StoreIntegerToken(TrimJson(value.raw_json_token()), node, vec, row)) return false;
          break;
        }
        return FromString(value, jt, node, vec, row);
      case TypeId::kFloat:
      case TypeId::kDouble:
        if (jt == od::json_type::number) {
          std::string_view tok = TrimJson(value.raw_json_token());
          double d;
          if (!ParseDoubleText(tok, &d)) return Mismatch(node, jt, tok);
          if (node.id == TypeId::kFloat) {
            vec.data<float>()[row] = static_cast<float>(d);
          } else {
            vec.data<double>()[row] = d;
          }
          break;
        }
        return FromString(value, jt, node, vec, row);
      case TypeId::kDecimal:
        if (jt == od::json_type::number) {
          std::string_view tok = TrimJson(value.raw_json_token());
          __int128 v;
          bool overflow;
          if (!ParseDecimalText(tok, node.type.precision(), node.type.scale(), &v, &overflow)) {
            return Mismatch(node, jt, tok);
          }
          if (overflow) {
            vec.SetNull(row, true);
            return true;
          }
          vec.data<__int128>()[row] = v;
          break;
        }
        return FromString(value, jt, node, vec, row);
      case TypeId::kChar:
      case TypeId::kVarChar:
        if (!DecodeString(value, jt, vec, row)) return false;
        break;
      case TypeId::kBinary:
      case TypeId::kVarBinary:
      case TypeId::kDate:
      case TypeId::kTime:
      case TypeId::kTimestamp:
      case TypeId::kTimestampLtz: return FromString(value, jt, node, vec, row);
      case TypeId::kArray:
        if (!DecodeArray(value, jt, node, vec, row)) return false;
        break;
      case TypeId::kMap:
        if (!DecodeMap(value, jt, node, vec, row)) return false;
        break;
      case TypeId::kRow: {
        if (jt != od::json_type::object) return Mismatch(node, jt, TrimJson(value.raw_json_token()));
        od::object obj;
        if (auto e = value.get_object().get(obj)) return FailJson(e);
        if (!DecodeFields(obj, node, [&vec](size_t i) -> Vector& { return vec.child(i); }, row)) return false;
        break;
      }
      default: return Fail("type " + TypeNameForMessage(node.type) + " is not supported by the json format");
    }
    vec.SetNull(row, false);
    return true;
  }

  // A CHAR/VARCHAR value: a JSON string, or the JSON text of any other value.
  bool DecodeString(od::value value, od::json_type jt, Vector& vec, size_t row) {
    std::string_view s;
    if (jt == od::json_type::string) {
      if (auto e = value.get_string().get(s)) return FailJson(e);
    } else if (jt == od::json_type::object) {
      od::object o;
      if (auto e = value.get_object().get(o)) return FailJson(e);
      if (auto e = o.raw_json().get(s)) return FailJson(e);
    } else if (jt == od::json_type::array) {
      od::array a;
      if (auto e = value.get_array().get(a)) return FailJson(e);
      if (auto e = a.raw_json().get(s)) return FailJson(e);
    } else {
      s = TrimJson(value.raw_json_token());
    }
    // Non-string values keep their JSON text, as Flink's asText()/toString() does.
    vec.SetString(row, jt == od::json_type::string ? s : TrimJson(s));
    return true;
  }

  // A JSON array into an ARRAY column's row.
  bool DecodeArray(od::value value, od::json_type jt, JsonNode& node, Vector& vec, size_t row) {
    if (jt != od::json_type::array) return Mismatch(node, jt, TrimJson(value.raw_json_token()));
    od::array arr;
    if (auto e = value.get_array().get(arr)) return FailJson(e);
    Vector& child = vec.child(0);
    const size_t start = child.size();
    // Grow the element vector in steps rather than per element (a ROW element vector resizes
    // all its fields), then trim it to the elements read.
    size_t n = start;
    size_t room = start;
    for (auto element_result : arr) {
      od::value element;
      if (auto e = std::move(element_result).get(element)) return FailJson(e);
      if (n == room) {
        room = n + std::max<size_t>(8, n - start);
        child.Resize(room);
      }
      if (!DecodeValue(element, node.children[0], child, n)) {
        path_.push_back("[" + std::to_string(n - start) + "]");
        return false;
      }
      ++n;
    }
    if (room != n) child.Resize(n);
    vec.data<ListEntry>()[row] = ListEntry{static_cast<uint32_t>(start), static_cast<uint32_t>(n - start)};
    return true;
  }

  // A JSON object into a MAP column's row: keys parsed from their text, values decoded.
  bool DecodeMap(od::value value, od::json_type jt, JsonNode& node, Vector& vec, size_t row) {
    if (jt != od::json_type::object) return Mismatch(node, jt, TrimJson(value.raw_json_token()));
    od::object obj;
    if (auto e = value.get_object().get(obj)) return FailJson(e);
    Vector& keys = vec.child(0);
    Vector& values = vec.child(1);
    const size_t start = keys.size();
    for (auto field_result : obj) {
      od::field field;
      if (auto e = std::move(field_result).get(field)) return FailJson(e);
      std::string_view key;
      if (auto e = field.unescaped_key().get(key)) return FailJson(e);
      const size_t i = keys.size();
      keys.Resize(i + 1);
      values.Resize(i + 1);
      std::string reason;
      if (!ParseTextValue(key, standard_, &keys, i, &reason)) {
        path_.push_back(std::string(key));
        return Fail("map key: " + reason);
      }
      if (!DecodeValue(field.value(), node.children[1], values, i)) {
        path_.push_back(std::string(key));
        return false;
      }
    }
    vec.data<ListEntry>()[row] =
        ListEntry{static_cast<uint32_t>(start), static_cast<uint32_t>(keys.size() - start)};
    return true;
  }

  // A JSON number into an integral column: integers exactly, fractions truncated (as Flink does).
  bool StoreIntegerToken(std::string_view tok, const JsonNode& node, Vector& vec, size_t row) {
    int64_t v;
    auto res = std::from_chars(tok.data(), tok.data() + tok.size(), v);
    if (res.ec != std::errc() || res.ptr != tok.data() + tok.size()) {
      double d;
      if (!ParseDoubleText(tok, &d) || !std::isfinite(d) || d >= 9.2233720368547758e18 || d < -9.2233720368547758e18) {
        return Mismatch(node, od::json_type::number, tok);
      }
      v = static_cast<int64_t>(d);
    }
    switch (node.id) {
      case TypeId::kTinyInt:
        if (v < INT8_MIN || v > INT8_MAX) return Mismatch(node, od::json_type::number, tok);
        vec.data<int8_t>()[row] = static_cast<int8_t>(v);
        break;
      case TypeId::kSmallInt:
        if (v < INT16_MIN || v > INT16_MAX) return Mismatch(node, od::json_type::number, tok);
        vec.data<int16_t>()[row] = static_cast<int16_t>(v);
        break;
      case TypeId::kInteger:
        if (v < INT32_MIN || v > INT32_MAX) return Mismatch(node, od::json_type::number, tok);
        vec.data<int32_t>()[row] = static_cast<int32_t>(v);
        break;
      default: vec.data<int64_t>()[row] = v; break;
    }
    return true;
  }

  // Scalars given as JSON strings ("42", "2026-08-15 05:00:00") go through the shared text parsers.
  bool FromString(od::value& value, od::json_type jt, const JsonNode& node, Vector& vec, size_t row) {
    if (jt != od::json_type::string) return Mismatch(node, jt, TrimJson(value.raw_json_token()));
    std::string_view s;
    if (auto e = value.get_string().get(s)) return FailJson(e);
    std::string reason;
    if (!ParseTextValue(s, standard_, &vec, row, &reason)) {
      std::string shown(s.substr(0, 50));
      if (s.size() > 50) shown += "...";
      std::string msg = "expected " + TypeNameForMessage(node.type) + ", got string \"" + shown + "\"";
      if (node.type.IsTimestamp()) {
        msg += standard_ == TimestampStandard::kSql
                   ? " ('json.timestamp-format.standard' is 'SQL': yyyy-MM-dd HH:mm:ss[.fff])"
                   : " ('json.timestamp-format.standard' is 'ISO-8601': yyyy-MM-ddTHH:mm:ss[.fff])";
      }
      return Fail(msg);
    }
    return true;
  }

  static const char* JsonTypeName(od::json_type jt) {
    switch (jt) {
      case od::json_type::array: return "array";
      case od::json_type::object: return "object";
      case od::json_type::number: return "number";
      case od::json_type::string: return "string";
      case od::json_type::boolean: return "boolean";
      case od::json_type::null: return "null";
    }
    return "value";
  }

  bool Mismatch(const JsonNode& node, od::json_type jt, std::string_view token) {
    std::string msg = "expected " + TypeNameForMessage(node.type) + ", got " + JsonTypeName(jt);
    if (jt != od::json_type::object && jt != od::json_type::array) {
      msg += " ";
      msg.append(token.substr(0, 50));
      if (token.size() > 50) msg += "...";
    }
    return Fail(msg);
  }

  bool Fail(std::string msg) {
    error_ = std::move(msg);
    return false;
  }
  bool FailJson(simdjson::error_code e) { return Fail(std::string("malformed JSON (") + simdjson::error_message(e) + ")"); }

  std::string Reason() const {
    if (path_.empty()) return error_;
    std::string path;
    for (size_t i = path_.size(); i-- > 0;) {
      if (!path.empty() && path_[i][0] != '[') path.push_back('.');
      path += path_[i];
    }
    return "field '" + path + "': " + error_;
  }

  JsonNode root_;
  bool fail_on_missing_;
  bool ignore_errors_;
  TimestampStandard standard_;
  od::parser parser_;
  std::string scratch_;
  std::string error_;
  std::vector<std::string> path_;  // innermost first
  std::vector<Vector*> growing_;
  std::vector<size_t> sizes_;
};

class JsonEncoder final : public RecordEncoder {
 public:
  JsonEncoder(const Schema& schema, JsonWriteOptions options) : writer_(schema.names(), std::move(options)) {}
  Status Encode(const Chunk& chunk, std::string* out) override {
    for (size_t r = 0; r < chunk.size(); ++r) {
      RETURN_IF_ERROR(writer_.Append(chunk, r, out));
      out->push_back('\n');
    }
    return Status::OK();
  }

 private:
  JsonRowWriter writer_;
};

class JsonFactory final : public FormatFactory {
 public:
  std::string identifier() const override { return "json"; }
  std::string file_extension() const override { return "json"; }
  const std::vector<ConfigOption>& options() const override {
    static const std::vector<ConfigOption> kOptions = [] {
      std::vector<ConfigOption> o = {
          {kFailOnMissing, OptionType::kBoolean, "false",
           "Fail when a field of the schema is missing from a record (otherwise it is NULL)."},
          {kIgnoreParseErrors, OptionType::kBoolean, "false",
           "Skip (and count) malformed records instead of failing the job."},
      };
      WriteKeys().Declare(&o);
      return o;
    }();
    return kOptions;
  }

  Result<std::unique_ptr<RecordDecoder>> CreateDecoder(const Schema& physical, const std::vector<int>& projection,
                                                       const OptionReader& options) const override {
    ASSIGN_OR_RETURN(bool fail_on_missing, options.GetBool(kFailOnMissing, false));
    ASSIGN_OR_RETURN(bool ignore, options.GetBool(kIgnoreParseErrors, false));
    ASSIGN_OR_RETURN(TimestampStandard standard, WriteKeys().ReadTimestampStandard(options));
    if (fail_on_missing && ignore) {
      return Status::InvalidArgument("Table '" + options.table_name() + "': '" + kFailOnMissing + "' and '" +
                                     kIgnoreParseErrors + "' shouldn't both be true.");
    }
    return CreateJsonDecoder(JsonProjectedSchema(physical, projection), fail_on_missing, ignore, standard);
  }

  Result<std::unique_ptr<RecordEncoder>> CreateEncoder(const Schema& schema, const OptionReader& options) const override {
    RETURN_IF_ERROR(CheckJsonColumns(schema));
    ASSIGN_OR_RETURN(JsonWriteOptions w, WriteKeys().Read(options));
    return std::unique_ptr<RecordEncoder>(new JsonEncoder(schema, std::move(w)));
  }
};

}  // namespace

const FormatFactory& JsonFormatFactory() {
  static const JsonFactory kFactory;
  return kFactory;
}

JsonWriteOptionKeys::JsonWriteOptionKeys(std::string_view prefix)
    : timestamp_standard_(std::string(prefix) + ".timestamp-format.standard"),
      map_null_key_mode_(std::string(prefix) + ".map-null-key.mode"),
      map_null_key_literal_(std::string(prefix) + ".map-null-key.literal"),
      decimal_plain_(std::string(prefix) + ".encode.decimal-as-plain-number"),
      map_null_key_mode_description_("Writing a MAP with a NULL key: 'FAIL' the job, 'DROP' the entry, or write "
                                     "'LITERAL' ('" + map_null_key_literal_ + "').") {}

void JsonWriteOptionKeys::Declare(std::vector<ConfigOption>* out) const {
  out->push_back({timestamp_standard_.c_str(), OptionType::kEnum, "SQL",
                  "Text form of TIMESTAMP and TIMESTAMP_LTZ values: 'SQL' (2026-08-15 05:00:00.5) or 'ISO-8601' "
                  "(2026-08-15T05:00:00.5); written with the shortest fraction, read with any.",
                  {"SQL", "ISO-8601"}});
  out->push_back({map_null_key_mode_.c_str(), OptionType::kEnum, "FAIL", map_null_key_mode_description_.c_str(),
                  {"FAIL", "DROP", "LITERAL"}});
  out->push_back({map_null_key_literal_.c_str(), OptionType::kString, "null",
                  "The key written for NULL map keys in 'LITERAL' mode."});
  out->push_back({decimal_plain_.c_str(), OptionType::kBoolean, "false",
                  "Write DECIMAL values as plain numbers at the type's scale (5.00, 100.00) instead of Java's "
                  "BigDecimal text without trailing zeros (5, 1E+2)."});
}

Result<TimestampStandard> JsonWriteOptionKeys::ReadTimestampStandard(const OptionReader& options) const {
  ASSIGN_OR_RETURN(std::string s, options.GetEnum(timestamp_standard_, "SQL", {"SQL", "ISO-8601"}));
  return s == "SQL" ? TimestampStandard::kSql : TimestampStandard::kIso8601;
}

Result<JsonWriteOptions> JsonWriteOptionKeys::Read(const OptionReader& options) const {
  JsonWriteOptions w;
  ASSIGN_OR_RETURN(w.timestamp_standard, ReadTimestampStandard(options));
  std::string mode;  // declared apart: GCC 12 sees a false maybe-uninitialized in the moved-into string
  ASSIGN_OR_RETURN(mode, options.GetEnum(map_null_key_mode_, "FAIL", {"FAIL", "DROP", "LITERAL"}));
  w.map_null_key_mode = mode == "FAIL"   ? JsonWriteOptions::MapNullKeyMode::kFail
                        : mode == "DROP" ? JsonWriteOptions::MapNullKeyMode::kDrop
                                         : JsonWriteOptions::MapNullKeyMode::kLiteral;
  w.map_null_key_literal = options.GetString(map_null_key_literal_, "null");
  ASSIGN_OR_RETURN(bool plain, options.GetBool(decimal_plain_, false));
  w.decimal_text = plain ? DecimalText::kPlain : DecimalText::kNormalized;
  w.fraction_text = FractionText::kShortest;
  return w;
}

Schema JsonProjectedSchema(const Schema& physical, const std::vector<int>& projection) {
  if (projection.empty()) return physical;
  Schema projected;
  for (int i : projection) {
    const Field& f = physical.field(static_cast<size_t>(i));
    projected.Add(f.name, f.type);
  }
  return projected;
}

Status CheckJsonColumns(const Schema& schema) {
  for (const auto& f : schema.fields()) RETURN_IF_ERROR(CheckSupported(f.type, f.name));
  return Status::OK();
}

Result<std::unique_ptr<RecordDecoder>> CreateJsonDecoder(const Schema& schema, bool fail_on_missing,
                                                         bool ignore_parse_errors, TimestampStandard standard) {
  RETURN_IF_ERROR(CheckJsonColumns(schema));
  return std::unique_ptr<RecordDecoder>(new JsonDecoder(schema, fail_on_missing, ignore_parse_errors, standard));
}

}  // namespace sluice
