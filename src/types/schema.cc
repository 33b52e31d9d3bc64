#include "types/schema.h"

namespace sluice {

std::optional<size_t> Schema::IndexOf(const std::string& name) const {
  for (size_t i = 0; i < fields_.size(); ++i) {
    if (fields_[i].name == name) return i;
  }
  return std::nullopt;
}

std::vector<LogicalType> Schema::types() const {
  std::vector<LogicalType> out;
  out.reserve(fields_.size());
  for (const auto& f : fields_) out.push_back(f.type);
  return out;
}

std::vector<std::string> Schema::names() const {
  std::vector<std::string> out;
  out.reserve(fields_.size());
  for (const auto& f : fields_) out.push_back(f.name);
  return out;
}

std::string Schema::ToString() const {
  std::string s = "(";
  for (size_t i = 0; i < fields_.size(); ++i) {
    if (i) s += ", ";
    s += "`" + fields_[i].name + "` " + fields_[i].type.ToString();
  }
  return s + ")";
}

}  // namespace sluice
