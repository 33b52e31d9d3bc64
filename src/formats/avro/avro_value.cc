#include "formats/avro/avro_value.h"

#include <cstdio>

namespace sluice {

std::string AvroValue::DebugString() const {
  static constexpr char kHex[] = "0123456789abcdef";
  switch (kind_) {
    case Kind::kNull: return "null";
    case Kind::kBoolean: return boolean() ? "true" : "false";
    case Kind::kInt:
    case Kind::kLong: return std::to_string(integer());
    case Kind::kEnum: return "enum#" + std::to_string(integer());
    case Kind::kFloat:
    case Kind::kDouble: {
      char buf[32];
      std::snprintf(buf, sizeof(buf), "%.17g", kind_ == Kind::kFloat ? double{float_value()} : double_value());
      return buf;
    }
    case Kind::kString: return "\"" + bytes() + "\"";
    case Kind::kBytes:
    case Kind::kFixed: {
      std::string out = "0x";
      for (unsigned char c : bytes()) {
        out.push_back(kHex[c >> 4]);
        out.push_back(kHex[c & 15]);
      }
      return out;
    }
    case Kind::kArray:
    case Kind::kRecord: {
      std::string out = kind_ == Kind::kArray ? "[" : "{";
      for (size_t i = 0; i < items().size(); ++i) {
        if (i > 0) out += ", ";
        out += items()[i].DebugString();
      }
      return out + (kind_ == Kind::kArray ? "]" : "}");
    }
    case Kind::kMap: {
      std::string out = "map{";
      for (size_t i = 0; i < entries().size(); ++i) {
        if (i > 0) out += ", ";
        out += entries()[i].first + ": " + entries()[i].second.DebugString();
      }
      return out + "}";
    }
  }
  return "?";
}

}  // namespace sluice
