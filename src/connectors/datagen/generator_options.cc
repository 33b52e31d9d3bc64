#include "connectors/datagen/generator_options.h"

#include <charconv>
#include <cmath>
#include <cstdlib>

#include "formats/format.h"

namespace sluice {

Result<int64_t> GetIntInRange(const OptionReader& reader, const std::string& key, int64_t fallback, int64_t min,
                              int64_t max) {
  ASSIGN_OR_RETURN(int64_t v, reader.GetInt(key, fallback));
  if (v < min || v > max) {
    return reader.InvalidValue(key, "'" + reader.GetString(key, "") + "' is out of range [" + std::to_string(min) +
                                        ", " + std::to_string(max) + "]");
  }
  return v;
}

Result<double> GetDouble(const OptionReader& reader, const std::string& key, double fallback) {
  if (!reader.Has(key)) return fallback;
  const std::string text = reader.GetString(key, "");
  size_t b = text.find_first_not_of(' ');
  size_t e = text.find_last_not_of(' ');
  std::string t = b == std::string::npos ? std::string() : text.substr(b, e - b + 1);
  char* end = nullptr;
  double v = t.empty() ? 0 : std::strtod(t.c_str(), &end);
  if (t.empty() || end != t.c_str() + t.size() || std::isnan(v)) {
    return reader.InvalidValue(key, "'" + text + "' is not a number");
  }
  return v;
}

Status ParseGeneratorPosition(std::string_view text, std::string_view tag, size_t count, uint64_t* out,
                              const std::string& split_id, std::string_view expected) {
  auto corrupt = [&]() {
    return Status::InvalidArgument("corrupt checkpoint position '" + std::string(text.substr(0, 100)) + "' of " +
                                   split_id + " (expected '" + std::string(expected) + "')");
  };
  if (text.substr(0, tag.size()) != tag) return corrupt();
  const char* p = text.data() + tag.size();
  const char* end = text.data() + text.size();
  for (size_t i = 0; i < count; ++i) {
    if (p == end || *p != ' ') return corrupt();
    ++p;
    auto [next, ec] = std::from_chars(p, end, out[i]);
    if (ec != std::errc() || next == p) return corrupt();
    p = next;
  }
  if (p != end) return corrupt();
  return Status::OK();
}

}  // namespace sluice
