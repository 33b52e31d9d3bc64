// JSON_VALUE(json, path) and JSON_EXISTS(json, path) in their plain call form (Flink's defaults: NULL ON
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

// The element `steps` lead to in `json`; false when the JSON is invalid or the path leads nowhere.
bool Lookup(simdjson::dom::parser& parser, std::string_view json, const std::vector<PathStep>& steps,
            simdjson::dom::element* out) {
  simdjson::dom::element e;
  if (parser.parse(json.data(), json.size(), true).get(e) != simdjson::SUCCESS) return false;
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
  simdjson::padded_string padded(json);
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

Result<FnPtr> ResolveJsonExists(const CallInfo& c) {
  if (c.size() != 2) return FnPtr();
  ASSIGN_OR_RETURN(auto fixed, ConstantPath(c));
  return Simple(c, {AsString, AsString}, LogicalType::Boolean(),
                [fixed](EvalContext&, const Vector* const* args, size_t n, size_t rows, Vector* out) -> Status {
                  simdjson::dom::parser parser;
                  uint8_t* od = out->data<uint8_t>();
                  return ForEachValidRow(args, n, rows, out, [&](size_t i) {
                    simdjson::dom::element e;
                    // A JSON null counts as absent, as in Flink (Jayway JsonPath).
                    od[i] = Lookup(parser, args[0]->GetString(i), *fixed, &e) &&
                            e.type() != simdjson::dom::element_type::NULL_VALUE;
                    return Status::OK();
                  });
                });
}

}  // namespace

void RegisterJsonFunctions(FunctionTable* t) {
  t->Add({"JSON_VALUE", {"JSON_VALUE(<CHARACTER>, <CHARACTER>)"}, ResolveJsonValue});
  t->Add({"JSON_EXISTS", {"JSON_EXISTS(<CHARACTER>, <CHARACTER>)"}, ResolveJsonExists});
}

}  // namespace sluice::fn
