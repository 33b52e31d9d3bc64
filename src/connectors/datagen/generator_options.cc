#include "connectors/datagen/generator_options.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>

namespace sluice::generator_options {

namespace {

std::string_view Trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

size_t EditDistance(std::string_view a, std::string_view b) {
  std::vector<size_t> prev(b.size() + 1), cur(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) prev[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    cur[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      size_t sub = prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1);
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, sub});
    }
    std::swap(prev, cur);
  }
  return prev[b.size()];
}

// Splits "12 kb" into its number and unit parts; false when no leading digits.
bool SplitNumberAndUnit(std::string_view text, int64_t* number, std::string* unit) {
  text = Trim(text);
  size_t i = 0;
  while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) ++i;
  if (i == 0 || i > 18) return false;
  *number = std::strtoll(std::string(text.substr(0, i)).c_str(), nullptr, 10);
  *unit = Lower(Trim(text.substr(i)));
  return true;
}

}  // namespace

Status InvalidOption(const std::string& table, const std::string& key, const std::string& reason) {
  return Status::InvalidArgument("Invalid value for option '" + key + "' of table '" + table + "': " + reason);
}

std::string ClosestMatch(std::string_view word, const std::vector<std::string>& candidates) {
  std::string best;
  size_t best_distance = SIZE_MAX;
  for (const auto& c : candidates) {
    size_t d = EditDistance(word, c);
    if (d < best_distance) {
      best_distance = d;
      best = c;
    }
  }
  size_t limit = std::max<size_t>(2, word.size() / 3);
  return best_distance <= limit ? best : std::string();
}

Status CheckSupportedOptions(const std::string& table, const std::string& connector,
                             const std::map<std::string, std::string>& options,
                             const std::vector<std::string>& supported) {
  for (const auto& [key, value] : options) {
    if (key == "connector") continue;
    if (std::find(supported.begin(), supported.end(), key) != supported.end()) continue;
    std::string msg = "Unsupported option '" + key + "' for connector '" + connector + "' of table '" + table + "'.";
    std::string near = ClosestMatch(key, supported);
    if (!near.empty()) msg += " Did you mean '" + near + "'?";
    return Status::InvalidArgument(std::move(msg));
  }
  return Status::OK();
}

Result<int64_t> ParseLong(const std::string& table, const std::string& key, const std::string& value, int64_t min,
                          int64_t max) {
  std::string text(Trim(value));
  errno = 0;
  char* end = nullptr;
  long long v = text.empty() ? 0 : std::strtoll(text.c_str(), &end, 10);
  if (text.empty() || end != text.c_str() + text.size() || errno == ERANGE) {
    return InvalidOption(table, key, "'" + value + "' is not a valid LONG");
  }
  if (v < min || v > max) {
    return InvalidOption(table, key,
                         "'" + value + "' is out of range [" + std::to_string(min) + ", " + std::to_string(max) + "]");
  }
  return static_cast<int64_t>(v);
}

Result<int64_t> ParseInt(const std::string& table, const std::string& key, const std::string& value, int64_t min,
                         int64_t max) {
  std::string text(Trim(value));
  errno = 0;
  char* end = nullptr;
  long long v = text.empty() ? 0 : std::strtoll(text.c_str(), &end, 10);
  if (text.empty() || end != text.c_str() + text.size() || errno == ERANGE || v < INT32_MIN || v > INT32_MAX) {
    return InvalidOption(table, key, "'" + value + "' is not a valid INT");
  }
  if (v < min || v > max) {
    return InvalidOption(table, key,
                         "'" + value + "' is out of range [" + std::to_string(min) + ", " + std::to_string(max) + "]");
  }
  return static_cast<int64_t>(v);
}

Result<double> ParseDouble(const std::string& table, const std::string& key, const std::string& value) {
  std::string text(Trim(value));
  char* end = nullptr;
  double v = text.empty() ? 0 : std::strtod(text.c_str(), &end);
  if (text.empty() || end != text.c_str() + text.size() || std::isnan(v)) {
    return InvalidOption(table, key, "'" + value + "' is not a valid DOUBLE");
  }
  return v;
}

Result<bool> ParseBool(const std::string& table, const std::string& key, const std::string& value) {
  std::string v = Lower(Trim(value));
  if (v == "true") return true;
  if (v == "false") return false;
  return InvalidOption(table, key, "'" + value + "' is not a valid BOOLEAN (expected 'true' or 'false')");
}

Result<int64_t> ParseMemorySize(const std::string& table, const std::string& key, const std::string& value) {
  int64_t n = 0;
  std::string unit;
  if (!SplitNumberAndUnit(value, &n, &unit)) {
    return InvalidOption(table, key, "'" + value + "' is not a valid memory size (e.g. '200b', '1kb')");
  }
  int shift = -1;
  if (unit.empty() || unit == "b" || unit == "bytes") shift = 0;
  else if (unit == "k" || unit == "kb" || unit == "kibibytes") shift = 10;
  else if (unit == "m" || unit == "mb" || unit == "mebibytes") shift = 20;
  else if (unit == "g" || unit == "gb" || unit == "gibibytes") shift = 30;
  else if (unit == "t" || unit == "tb" || unit == "tebibytes") shift = 40;
  if (shift < 0) return InvalidOption(table, key, "'" + value + "' has an unknown memory unit '" + unit + "'");
  if (n > (INT64_MAX >> shift)) return InvalidOption(table, key, "'" + value + "' is too large");
  return n << shift;
}

Result<int64_t> ParseDurationMillis(const std::string& table, const std::string& key, const std::string& value) {
  int64_t n = 0;
  std::string unit;
  if (!SplitNumberAndUnit(value, &n, &unit)) {
    return InvalidOption(table, key, "'" + value + "' is not a valid duration (e.g. '600 s', '10 min')");
  }
  struct UnitDef {
    const char* names[4];
    int64_t num;  // milliseconds = n * num / den
    int64_t den;
  };
  static const UnitDef kUnits[] = {
      {{"ns", "nano", "nanos", "nanoseconds"}, 1, 1000000},
      {{"us", "micro", "micros", "microseconds"}, 1, 1000},
      {{"ms", "milli", "millis", "milliseconds"}, 1, 1},
      {{"s", "sec", "secs", "seconds"}, 1000, 1},
      {{"min", "m", "minute", "minutes"}, 60000, 1},
      {{"h", "hour", "hours", ""}, 3600000, 1},
      {{"d", "day", "days", ""}, 86400000, 1},
  };
  if (unit.empty()) return n;
  for (const auto& u : kUnits) {
    for (const char* name : u.names) {
      if (*name && unit == name) {
        if (n > INT64_MAX / u.num) return InvalidOption(table, key, "'" + value + "' is too large");
        return n * u.num / u.den;
      }
    }
  }
  return InvalidOption(table, key, "'" + value + "' has an unknown time unit '" + unit + "'");
}

}  // namespace sluice::generator_options
