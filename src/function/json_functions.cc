// IS JSON, JSON_STRING, JSON_OBJECT, JSON_ARRAY, JSON_QUERY (below), and JSON_VALUE(json, path) and
// JSON_EXISTS(json, path) in their plain call form (Flink's defaults: NULL ON
// EMPTY / NULL ON ERROR, FALSE ON ERROR), over simdjson's DOM parser (Debian's libsimdjson, already
// linked for the json format).
//
// Paths are SQL/JSON paths as Flink takes them: an optional `lax` / `strict` mode, `$`, then member
// steps `.name`, `['name']`, `["name"]` (also written `.['name']`) and array steps `[n]`. Wildcards
// and filters are not supported: a path with one is refused when the query is planned. The path must
// be a literal, as in Flink ("Unsupported call: JSON_VALUE(STRING, STRING)" otherwise).
// JSON_VALUE returns a scalar as STRING (a string unquoted, a number as Java's BigDecimal prints its
// text, booleans true/false); NULL for a missing path, a JSON null, an object or array, invalid JSON or
// a bad path. JSON_EXISTS is TRUE when the path leads to a value other than JSON null, else FALSE.
#include <simdjson.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <string>
#include <string_view>
#include <vector>

#include "function/string_kernels.h"
#include "types/value_format.h"

namespace sluice::fn {

using namespace string_internal;  // NOLINT: the string functions' shared helpers

namespace {

struct PathStep {
  bool is_index = false;
  std::string name;
  uint64_t index = 0;
};

// Parses a path into steps; false (with *why) when it is malformed or uses unsupported syntax.
bool ParsePath(std::string_view p, std::vector<PathStep>* steps, std::string* why) {
  while (!p.empty() && p.front() == ' ') p.remove_prefix(1);
  while (!p.empty() && p.back() == ' ') p.remove_suffix(1);
  if (p.substr(0, 4) == "lax ") p.remove_prefix(4);
  else if (p.substr(0, 7) == "strict ") p.remove_prefix(7);
  while (!p.empty() && p.front() == ' ') p.remove_prefix(1);
  if (p.empty() || p[0] != '$') {
    *why = "a path starts with '$'";
    return false;
  }
  size_t i = 1;
  while (i < p.size()) {
    PathStep step;
    if (p[i] == '.' && i + 1 < p.size() && p[i + 1] == '[') ++i;  // $.['a b']
    if (p[i] == '.') {
      size_t start = ++i;
      while (i < p.size() && p[i] != '.' && p[i] != '[') ++i;
      step.name.assign(p.substr(start, i - start));
      if (step.name.empty() || step.name == "*") {
        *why = step.name.empty() ? "an empty member name" : "the wildcard '.*' is not supported by Sluice yet";
        return false;
      }
    } else if (p[i] == '[') {
      size_t close = p.find(']', i);
      if (close == std::string_view::npos) {
        *why = "an unclosed '['";
        return false;
      }
      std::string_view inner = p.substr(i + 1, close - i - 1);
      if (inner.size() >= 2 && (inner.front() == '\'' || inner.front() == '"') && inner.back() == inner.front()) {
        step.name.assign(inner.substr(1, inner.size() - 2));
      } else {
        if (inner.empty()) {
          *why = "an empty '[]'";
          return false;
        }
        for (char ch : inner) {
          if (ch < '0' || ch > '9') {
            *why = "'[" + std::string(inner) + "]' is not supported by Sluice yet (only [n], ['name'])";
            return false;
          }
          step.index = step.index * 10 + static_cast<uint64_t>(ch - '0');
        }
        step.is_index = true;
      }
      i = close + 1;
    } else {
      *why = "unexpected '" + std::string(1, p[i]) + "'";
      return false;
    }
    steps->push_back(std::move(step));
  }
  return true;
}

// `s`, or an empty view with a non-null pointer: simdjson copies the text with memcpy, which must not
// see a null pointer even for 0 bytes (an empty string's view may have one).
std::string_view NonNullText(std::string_view s) { return s.data() != nullptr ? s : std::string_view("", 0); }

// The element `steps` lead to in `json`; false when the JSON is invalid or the path leads nowhere.
bool Lookup(simdjson::dom::parser& parser, std::string_view json, const std::vector<PathStep>& steps,
            simdjson::dom::element* out) {
  simdjson::dom::element e;
  if (parser.parse(NonNullText(json).data(), json.size(), true).get(e) != simdjson::SUCCESS) return false;
  for (const PathStep& s : steps) {
    if (s.is_index) {
      simdjson::dom::array arr;
      if (e.get_array().get(arr) != simdjson::SUCCESS || arr.at(s.index).get(e) != simdjson::SUCCESS) return false;
    } else {
      simdjson::dom::object obj;
      if (e.get_object().get(obj) != simdjson::SUCCESS || obj.at_key(s.name).get(e) != simdjson::SUCCESS) return false;
    }
  }
  *out = e;
  return true;
}

// A JSON number token as Java's BigDecimal prints it (Flink reads numbers as BigDecimal): "1.50" stays,
// "1e20" is "1E+20", "1.5e-3" is "0.0015", "-0.0" is "0.0".
std::string BigDecimalText(std::string_view tok) {
  bool neg = !tok.empty() && tok[0] == '-';
  if (neg) tok.remove_prefix(1);
  size_t e = tok.find_first_of("eE");
  std::string_view mant = tok.substr(0, e);
  int64_t exp = 0;
  if (e != std::string_view::npos) {
    std::string_view x = tok.substr(e + 1);
    const bool neg_exp = !x.empty() && x[0] == '-';
    if (!x.empty() && (x[0] == '-' || x[0] == '+')) x.remove_prefix(1);
    for (char ch : x) exp = std::min<int64_t>(exp * 10 + (ch - '0'), int64_t{1} << 40);  // clamped, never overflows
    if (neg_exp) exp = -exp;
  }
  size_t dot = mant.find('.');
  std::string digits(mant.substr(0, dot));
  std::string_view frac = dot == std::string_view::npos ? std::string_view() : mant.substr(dot + 1);
  digits.append(frac);
  int64_t scale = static_cast<int64_t>(frac.size()) - exp;
  size_t nz = digits.find_first_not_of('0');
  std::string u = nz == std::string::npos ? "0" : digits.substr(nz);
  if (u == "0") neg = false;
  const int64_t len = static_cast<int64_t>(u.size());
  const int64_t adjusted = -scale + (len - 1);
  std::string out = neg ? "-" : "";
  if (scale >= 0 && adjusted >= -6) {
    if (scale == 0) {
      out += u;
    } else if (len > scale) {
      out += u.substr(0, static_cast<size_t>(len - scale)) + "." + u.substr(static_cast<size_t>(len - scale));
    } else {
      out += "0." + std::string(static_cast<size_t>(scale - len), '0') + u;
    }
    return out;
  }
  out += u.substr(0, 1);
  if (len > 1) out += "." + u.substr(1);
  if (adjusted != 0) out += std::string("E") + (adjusted > 0 ? "+" : "") + std::to_string(adjusted);
  return out;
}

// The raw text of the number the steps lead to (simdjson's on-demand API keeps the token).
bool RawNumber(std::string_view json, const std::vector<PathStep>& steps, std::string* out) {
  std::string pointer;
  for (const PathStep& s : steps) {
    pointer.push_back('/');
    if (s.is_index) {
      pointer += std::to_string(s.index);
      continue;
    }
    for (char ch : s.name) {
      if (ch == '~') pointer += "~0";
      else if (ch == '/') pointer += "~1";
      else pointer.push_back(ch);
    }
  }
  if (pointer.empty()) return false;
  simdjson::ondemand::parser parser;
  simdjson::padded_string padded(NonNullText(json));
  simdjson::ondemand::document doc;
  if (parser.iterate(padded).get(doc) != simdjson::SUCCESS) return false;
  simdjson::ondemand::value v;
  if (doc.at_pointer(pointer).get(v) != simdjson::SUCCESS) return false;
  std::string_view raw = v.raw_json_token();
  while (!raw.empty() && (raw.back() == ' ' || raw.back() == '\n' || raw.back() == '\r' || raw.back() == '\t')) raw.remove_suffix(1);
  *out = BigDecimalText(raw);
  return true;
}

// JSON_VALUE's text of a scalar; false for null, objects and arrays.
bool ScalarText(const simdjson::dom::element& e, std::string_view json, const std::vector<PathStep>& steps, std::string* out) {
  switch (e.type()) {
    case simdjson::dom::element_type::STRING: out->assign(std::string_view(e.get_string().value_unsafe())); return true;
    case simdjson::dom::element_type::INT64:
    case simdjson::dom::element_type::UINT64:
    case simdjson::dom::element_type::DOUBLE:
      if (RawNumber(json, steps, out)) return true;
      if (e.type() == simdjson::dom::element_type::INT64) *out = std::to_string(e.get_int64().value_unsafe());
      else if (e.type() == simdjson::dom::element_type::UINT64) *out = std::to_string(e.get_uint64().value_unsafe());
      else AppendDoubleText(e.get_double().value_unsafe(), out);
      return true;
    case simdjson::dom::element_type::BOOL: *out = e.get_bool().value_unsafe() ? "true" : "false"; return true;
    default: return false;
  }
}

Result<std::shared_ptr<const std::vector<PathStep>>> ConstantPath(const CallInfo& c) {
  const std::string* p = ConstantString(c, 1);
  if (p == nullptr) {
    // Flink's code generator takes only a literal path.
    return Status::BindError("Unsupported call: " + c.name + "(STRING, STRING)");
  }
  auto steps = std::make_shared<std::vector<PathStep>>();
  std::string why;
  if (!ParsePath(*p, steps.get(), &why)) {
    return Status::BindError("Invalid JSON path '" + *p + "' in " + c.name + ": " + why);
  }
  return std::shared_ptr<const std::vector<PathStep>>(steps);
}

Result<FnPtr> ResolveJsonValue(const CallInfo& c) {
  if (c.size() != 2) return FnPtr();
  ASSIGN_OR_RETURN(auto fixed, ConstantPath(c));
  return Simple(c, {AsString, AsString}, LogicalType::String(),
                [fixed](EvalContext&, const Vector* const* args, size_t n, size_t rows, Vector* out) -> Status {
                  simdjson::dom::parser parser;
                  std::string buf;
                  return ForEachValidRow(args, n, rows, out, [&](size_t i) {
                    simdjson::dom::element e;
                    buf.clear();
                    if (Lookup(parser, args[0]->GetString(i), *fixed, &e) && ScalarText(e, args[0]->GetString(i), *fixed, &buf)) {
                      out->SetString(i, buf);
                    } else {
                      out->SetNull(i, true);
                    }
                    return Status::OK();
                  });
                },
                true);
}

enum class PathEnd { kFound, kMissing, kMismatch };
PathEnd Walk(simdjson::dom::element e, const std::vector<PathStep>& steps, simdjson::dom::element* out);
bool StrictPath(const CallInfo& c) {
  std::string_view path_text = *ConstantString(c, 1);
  while (!path_text.empty() && path_text.front() == ' ') path_text.remove_prefix(1);
  return path_text.substr(0, 7) == "strict ";
}

// JSON_EXISTS(json, path [{TRUE | FALSE | UNKNOWN | ERROR} ON ERROR]) (the clause is the parser's third,
// literal argument): TRUE when the path finds a value other than JSON null; otherwise (invalid JSON
// too) the ON ERROR behaviour, default FALSE.
Result<FnPtr> ResolveJsonExists(const CallInfo& c) {
  if (c.size() != 2 && c.size() != 3) return FnPtr();
  ASSIGN_OR_RETURN(auto fixed, ConstantPath(c));
  std::string on_error = "FALSE";
  if (c.size() == 3) {
    const std::string* text = ConstantString(c, 2);
    if (text == nullptr) return Status::BindError("JSON_EXISTS's ON ERROR clause must be written in its SQL syntax");
    on_error = *text;
  }
  std::vector<Coerce> sig(c.size(), AsString);
  return Simple(c, sig, LogicalType::Boolean(),
                [fixed, on_error](EvalContext&, const Vector* const* args, size_t n, size_t rows, Vector* out) -> Status {
                  simdjson::dom::parser parser;
                  uint8_t* od = out->data<uint8_t>();
                  return ForEachValidRow(args, n, rows, out, [&](size_t i) -> Status {
                    std::string_view json = args[0]->GetString(i);
                    simdjson::dom::element root, e;
                    const bool valid = parser.parse(NonNullText(json).data(), json.size(), true).get(root) == simdjson::SUCCESS;
                    const PathEnd end = valid ? Walk(root, *fixed, &e) : PathEnd::kMismatch;
                    // Flink 2.2.1 takes the ON ERROR behaviour whenever the path finds no value (a missing
                    // member or index, a step of the wrong kind, a JSON null), in lax and strict paths.
                    if (!valid || end != PathEnd::kFound || e.type() == simdjson::dom::element_type::NULL_VALUE) {
                      if (on_error == "ERROR") {
                        return Status::RuntimeError(valid ? "JSON_EXISTS: the path finds no value in: " + std::string(json)
                                                          : "JSON_EXISTS: invalid input for JSON: " + std::string(json));
                      }
                      if (on_error == "UNKNOWN") out->SetNull(i, true);
                      else od[i] = on_error == "TRUE";
                      return Status::OK();
                    }
                    od[i] = true;
                    return Status::OK();
                  });
                },
                on_error == "UNKNOWN");
}

// x IS JSON <kind> (the parser's IS_JSON_VALUE / _SCALAR / _ARRAY / _OBJECT): whether the text parses
// as JSON of that kind; a NULL operand gives FALSE, as in Flink.
Result<FnPtr> ResolveIsJson(const CallInfo& c) {
  if (c.size() != 1) return FnPtr();
  LogicalType cast;
  if (!AsString(c.type(0), &cast)) return FnPtr();
  const std::string kind = c.name.substr(8);
  return MakeFunction(c.name, {cast}, LogicalType::Boolean().WithNullable(false),
                      [kind](EvalContext&, const Vector* const* args, size_t, size_t rows, Vector* out) -> Status {
                        simdjson::dom::parser parser;
                        uint8_t* od = out->data<uint8_t>();
                        for (size_t i = 0; i < rows; ++i) {
                          simdjson::dom::element e;
                          std::string_view text = args[0]->IsNull(i) ? std::string_view() : args[0]->GetString(i);
                          bool ok = !args[0]->IsNull(i) &&
                                    parser.parse(NonNullText(text).data(), text.size(), true).get(e) == simdjson::SUCCESS;
                          if (ok && kind != "VALUE") {
                            const auto type = e.type();
                            const bool is_array = type == simdjson::dom::element_type::ARRAY;
                            const bool is_object = type == simdjson::dom::element_type::OBJECT;
                            ok = kind == "ARRAY" ? is_array : kind == "OBJECT" ? is_object : !is_array && !is_object;
                          }
                          od[i] = ok;
                        }
                        out->ClearNulls();
                        return Status::OK();
                      });
}

// `s` as a JSON string literal, escaped as Jackson writes it.
void AppendQuoted(std::string_view s, std::string* out) {
  static constexpr char kHex[] = "0123456789abcdef";
  out->push_back('"');
  for (char ch : s) {
    const auto c = static_cast<unsigned char>(ch);
    switch (c) {
      case '"': out->append("\\\""); break;
      case '\\': out->append("\\\\"); break;
      case '\n': out->append("\\n"); break;
      case '\r': out->append("\\r"); break;
      case '\t': out->append("\\t"); break;
      case '\b': out->append("\\b"); break;
      case '\f': out->append("\\f"); break;
      default:
        if (c < 0x20) {
          out->append("\\u00");
          out->push_back(kHex[c >> 4]);
          out->push_back(kHex[c & 15]);
        } else {
          out->push_back(ch);
        }
    }
  }
  out->push_back('"');
}

// Whether AppendScalarJson writes values of `t`.
bool JsonScalarType(const LogicalType& t) {
  switch (t.id()) {
    case TypeId::kNull:
    case TypeId::kBoolean:
    case TypeId::kTinyInt:
    case TypeId::kSmallInt:
    case TypeId::kInteger:
    case TypeId::kBigInt:
    case TypeId::kFloat:
    case TypeId::kDouble:
    case TypeId::kDecimal:
    case TypeId::kChar:
    case TypeId::kVarChar: return true;
    default: return false;
  }
}

// Row i (valid) of `v` as Jackson writes the node Flink makes of it: numbers as Java prints them
// (DECIMAL as BigDecimal.toString, DOUBLE as the BigDecimal of Double.toString), strings quoted, NaN and
// infinities quoted.
void AppendScalarJson(const Vector& v, size_t i, std::string* out) {
  switch (v.type().id()) {
    case TypeId::kBoolean: out->append(v.data<uint8_t>()[i] ? "true" : "false"); break;
    case TypeId::kTinyInt: out->append(std::to_string(v.data<int8_t>()[i])); break;
    case TypeId::kSmallInt: out->append(std::to_string(v.data<int16_t>()[i])); break;
    case TypeId::kInteger: out->append(std::to_string(v.data<int32_t>()[i])); break;
    case TypeId::kBigInt: out->append(std::to_string(v.data<int64_t>()[i])); break;
    case TypeId::kFloat:
    case TypeId::kDouble: {
      const bool is_float = v.type().id() == TypeId::kFloat;
      const double d = is_float ? v.data<float>()[i] : v.data<double>()[i];
      const bool finite = std::isfinite(d);
      std::string text;
      if (is_float) AppendFloatText(v.data<float>()[i], &text);
      else AppendDoubleText(d, &text);
      // Flink's JSON text of a DOUBLE is the BigDecimal of Java's Double.toString: 3.0E-5 is 0.000030.
      if (!finite) out->append("\"" + text + "\"");
      else out->append(BigDecimalText(text));
      break;
    }
    case TypeId::kDecimal: {
      std::string plain;
      AppendDecimalText(v.data<__int128>()[i], v.type().scale(), &plain);
      out->append(BigDecimalText(plain));
      break;
    }
    case TypeId::kChar:
    case TypeId::kVarChar: AppendQuoted(v.GetString(i), out); break;
    default: out->append("null"); break;
  }
}

Status UnsupportedJsonType(const std::string& fn, const LogicalType& t) {
  return Status::BindError(fn + " of a " + t.ToString() + " value is not supported by Sluice yet (only BOOLEAN, " +
                           "numbers and character strings)");
}

// JSON_STRING(x): x serialized as JSON text; NULL for NULL.
Result<FnPtr> ResolveJsonString(const CallInfo& c) {
  if (c.size() != 1) return FnPtr();
  if (!JsonScalarType(c.type(0))) return UnsupportedJsonType(c.name, c.type(0));
  return MakeFunction(c.name, {c.type(0)}, StringType(c.AnyNullable()),
                      [](EvalContext&, const Vector* const* args, size_t n, size_t rows, Vector* out) -> Status {
                        std::string buf;
                        return ForEachValidRow(args, n, rows, out, [&](size_t i) {
                          buf.clear();
                          AppendScalarJson(*args[0], i, &buf);
                          out->SetString(i, buf);
                          return Status::OK();
                        });
                      });
}

// JSON_OBJECT / JSON_ARRAY in the parser's form: a flags literal (see ParseJsonConstructor: 'N' or 'A'
// for NULL / ABSENT ON NULL, then 'j' or 'v' per value), then keys and values. Flink's output: no
// spaces, keys sorted (as UTF-8 bytes; Java compares UTF-16 units), a repeated key takes the last value.
Result<FnPtr> ResolveJsonConstructor(const CallInfo& c) {
  const bool object = c.name == "JSON_OBJECT";
  const std::string* flags = ConstantString(c, 0);
  const size_t step = object ? 2 : 1;
  if (flags == nullptr || flags->empty() || (c.size() - 1) % step != 0 || flags->size() != 1 + (c.size() - 1) / step) {
    return Status::BindError(c.name + " must be written in its SQL syntax (" +
                             (object ? "JSON_OBJECT(KEY k VALUE v, ...)" : "JSON_ARRAY(v, ...)") + ")");
  }
  std::vector<LogicalType> args = c.types;
  std::vector<bool> raw;
  for (size_t k = 1; k < c.size(); k += step) {
    if (object && !IsStringType(c.type(k)) && c.type(k).id() != TypeId::kNull) {
      return Status::BindError("The key of JSON_OBJECT must be a character string, not " + c.type(k).ToString());
    }
    const LogicalType& vt = c.type(k + step - 1);
    if (!JsonScalarType(vt)) return UnsupportedJsonType(c.name, vt);
    raw.push_back((*flags)[raw.size() + 1] == 'j');
  }
  const bool absent_on_null = (*flags)[0] == 'A';
  return MakeFunction(
      c.name, std::move(args), LogicalType::String().WithNullable(false),
      [object, step, raw, absent_on_null](EvalContext&, const Vector* const* a, size_t n, size_t rows, Vector* out) -> Status {
        std::string buf;
        std::vector<std::pair<std::string_view, std::string>> members;
        for (size_t i = 0; i < rows; ++i) {
          members.clear();
          for (size_t k = 1, m = 0; k < n; k += step, ++m) {
            const Vector& v = *a[k + step - 1];
            std::string_view key;
            if (object) {
              if (a[k]->IsNull(i) || a[k]->type().id() == TypeId::kNull) {
                return Status::RuntimeError("JSON_OBJECT: a key is NULL (keys must not be NULL)");
              }
              key = a[k]->GetString(i);
            }
            if (v.IsNull(i) && absent_on_null) continue;
            std::string text;
            if (v.IsNull(i) || v.type().id() == TypeId::kNull) text = "null";
            else if (raw[m]) text.assign(v.GetString(i));
            else AppendScalarJson(v, i, &text);
            auto same = object ? std::find_if(members.begin(), members.end(), [&](const auto& e) { return e.first == key; })
                               : members.end();
            if (same != members.end()) same->second = std::move(text);
            else members.emplace_back(key, std::move(text));
          }
          // Flink writes an object's keys sorted (a repeated key takes its last value).
          if (object) std::stable_sort(members.begin(), members.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
          buf.assign(object ? "{" : "[");
          for (size_t m = 0; m < members.size(); ++m) {
            if (m) buf.push_back(',');
            if (object) {
              AppendQuoted(members[m].first, &buf);
              buf.push_back(':');
            }
            buf += members[m].second;
          }
          buf.push_back(object ? '}' : ']');
          out->SetString(i, buf);
        }
        out->ClearNulls();
        return Status::OK();
      });
}

// `e` as compact JSON text as Flink writes the value its path evaluation returns: keys sorted, integers
// as they are, other numbers as BigDecimal prints the shortest text of their double (Flink keeps the
// text's scale: 2.50 stays 2.50 there, 2.5 here).
void AppendElementJson(const simdjson::dom::element& e, std::string* out) {
  switch (e.type()) {
    case simdjson::dom::element_type::ARRAY: {
      out->push_back('[');
      bool first = true;
      const simdjson::dom::array arr = e.get_array().value_unsafe();
      for (simdjson::dom::element x : arr) {
        if (!first) out->push_back(',');
        first = false;
        AppendElementJson(x, out);
      }
      out->push_back(']');
      break;
    }
    case simdjson::dom::element_type::OBJECT: {
      out->push_back('{');
      bool first = true;
      const simdjson::dom::object obj = e.get_object().value_unsafe();
      // Flink writes the keys sorted.
      std::vector<simdjson::dom::key_value_pair> members(obj.begin(), obj.end());
      std::stable_sort(members.begin(), members.end(), [](const auto& x, const auto& y) { return x.key < y.key; });
      for (const simdjson::dom::key_value_pair& kv : members) {
        if (!first) out->push_back(',');
        first = false;
        AppendQuoted(kv.key, out);
        out->push_back(':');
        AppendElementJson(kv.value, out);
      }
      out->push_back('}');
      break;
    }
    case simdjson::dom::element_type::STRING: AppendQuoted(e.get_string().value_unsafe(), out); break;
    case simdjson::dom::element_type::INT64: out->append(std::to_string(e.get_int64().value_unsafe())); break;
    case simdjson::dom::element_type::UINT64: out->append(std::to_string(e.get_uint64().value_unsafe())); break;
    case simdjson::dom::element_type::DOUBLE: {
      char text[64];
      auto r = std::to_chars(text, text + sizeof(text), e.get_double().value_unsafe());
      out->append(BigDecimalText(std::string_view(text, static_cast<size_t>(r.ptr - text))));
      break;
    }
    case simdjson::dom::element_type::BOOL: out->append(e.get_bool().value_unsafe() ? "true" : "false"); break;
    default: out->append("null"); break;
  }
}

// Where a path leads: kFound, kMissing (no such member or index) or kMismatch (a member step on a
// non-object or an index step on a non-array; lax paths in Flink fail there too).
PathEnd Walk(simdjson::dom::element e, const std::vector<PathStep>& steps, simdjson::dom::element* out) {
  for (const PathStep& s : steps) {
    if (s.is_index) {
      simdjson::dom::array arr;
      if (e.get_array().get(arr) != simdjson::SUCCESS) return PathEnd::kMismatch;
      if (arr.at(s.index).get(e) != simdjson::SUCCESS) return PathEnd::kMissing;
    } else {
      simdjson::dom::object obj;
      if (e.get_object().get(obj) != simdjson::SUCCESS) return PathEnd::kMismatch;
      if (obj.at_key(s.name).get(e) != simdjson::SUCCESS) return PathEnd::kMissing;
    }
  }
  *out = e;
  return PathEnd::kFound;
}

// JSON_QUERY(json, path) and, from the parser's clauses, (json, path, wrapper, on_empty, on_error):
// the object or array at the path as JSON text. Invalid JSON, a scalar without a wrapper, a step of the
// wrong kind, or a missing member in a strict path is an "error" (NULL, '[]', '{}' or a failure by the
// ON ERROR clause); a missing member in a lax path or a JSON null gives NULL (ERROR ON EMPTY fails).
Result<FnPtr> ResolveJsonQuery(const CallInfo& c) {
  if (c.size() != 2 && c.size() != 5) return FnPtr();
  ASSIGN_OR_RETURN(auto fixed, ConstantPath(c));
  std::string clause[3] = {"WITHOUT", "NULL", "NULL"};
  for (size_t k = 2; k < c.size(); ++k) {
    const std::string* text = ConstantString(c, k);
    if (text == nullptr) return Status::BindError("JSON_QUERY's clauses must be written in its SQL syntax");
    clause[k - 2] = *text;
  }
  std::vector<Coerce> sig(c.size(), AsString);
  const bool strict = StrictPath(c);
  const std::string wrapper = clause[0], on_empty = clause[1], on_error = clause[2];
  return Simple(
      c, sig, LogicalType::String(),
      [fixed, strict, wrapper, on_empty, on_error](EvalContext&, const Vector* const* args, size_t n, size_t rows, Vector* out) -> Status {
        simdjson::dom::parser parser;
        std::string buf;
        // Writes the behaviour `b` for row i; fails for ERROR with Flink's cause.
        auto behave = [&](size_t i, const std::string& b, const std::string& why) -> Status {
          if (b == "ERROR") return Status::RuntimeError(why);
          if (b == "NULL") out->SetNull(i, true);
          else out->SetString(i, b == "EMPTY ARRAY" ? "[]" : "{}");
          return Status::OK();
        };
        return ForEachValidRow(args, n, rows, out, [&](size_t i) -> Status {
          std::string_view json = args[0]->GetString(i);
          simdjson::dom::element root;
          if (parser.parse(NonNullText(json).data(), json.size(), true).get(root) != simdjson::SUCCESS) {
            return behave(i, on_error, "JSON_QUERY: invalid input for JSON: " + std::string(json));
          }
          simdjson::dom::element e;
          const PathEnd end = Walk(root, *fixed, &e);
          if (end == PathEnd::kMismatch || (end == PathEnd::kMissing && strict)) {
            return behave(i, on_error, "JSON_QUERY: the path does not lead to a value in: " + std::string(json));
          }
          if (end == PathEnd::kMissing || e.type() == simdjson::dom::element_type::NULL_VALUE) {
            // Flink 2.2.1 gives NULL here whatever the ON EMPTY clause says (other than ERROR).
            return behave(i, on_empty == "ERROR" ? on_empty : "NULL",
                          "JSON_QUERY: empty result of the path for: " + std::string(json));
          }
          const bool container = e.type() == simdjson::dom::element_type::ARRAY ||
                                 e.type() == simdjson::dom::element_type::OBJECT;
          buf.clear();
          if (wrapper == "UNCONDITIONAL" || (wrapper == "CONDITIONAL" && !container)) {
            buf.push_back('[');
            AppendElementJson(e, &buf);
            buf.push_back(']');
          } else if (container) {
            AppendElementJson(e, &buf);
          } else {
            return behave(i, on_error, "JSON_QUERY: the path leads to a scalar, not an array or object, in: " +
                                           std::string(json));
          }
          out->SetString(i, buf);
          return Status::OK();
        });
      },
      true);
}

}  // namespace

void RegisterJsonFunctions(FunctionTable* t) {
  t->Add({"JSON_QUERY", {"JSON_QUERY(<CHARACTER>, <CHARACTER>)"}, ResolveJsonQuery});
  t->Add({"JSON_OBJECT", {"JSON_OBJECT(KEY <CHARACTER> VALUE <ANY>, ...)"}, ResolveJsonConstructor});
  t->Add({"JSON_ARRAY", {"JSON_ARRAY(<ANY>, ...)"}, ResolveJsonConstructor});
  for (const char* kind : {"IS_JSON_VALUE", "IS_JSON_SCALAR", "IS_JSON_ARRAY", "IS_JSON_OBJECT"}) {
    t->Add({kind, {std::string(kind) + "(<CHARACTER>)"}, ResolveIsJson, false});
  }
  t->Add({"JSON_STRING", {"JSON_STRING(<ANY>)"}, ResolveJsonString});
  t->Add({"JSON_VALUE", {"JSON_VALUE(<CHARACTER>, <CHARACTER>)"}, ResolveJsonValue});
  t->Add({"JSON_EXISTS", {"JSON_EXISTS(<CHARACTER>, <CHARACTER>)"}, ResolveJsonExists});
}

}  // namespace sluice::fn
