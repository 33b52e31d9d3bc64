#include "formats/avro/avro_schema.h"

#include <simdjson.h>

#include <charconv>
#include <map>

#include "formats/json/json_format.h"

namespace sluice {

namespace {

constexpr int kMaxSchemaDepth = 64;

struct Primitive {
  std::string_view name;
  AvroType type;
};
constexpr Primitive kPrimitives[] = {
    {"null", AvroType::kNull},     {"boolean", AvroType::kBoolean}, {"int", AvroType::kInt},
    {"long", AvroType::kLong},     {"float", AvroType::kFloat},     {"double", AvroType::kDouble},
    {"bytes", AvroType::kBytes},   {"string", AvroType::kString},
};

std::optional<AvroType> PrimitiveType(std::string_view name) {
  for (const Primitive& p : kPrimitives) {
    if (p.name == name) return p.type;
  }
  return std::nullopt;
}

std::optional<int64_t> ParseJsonInteger(std::string_view raw) {
  int64_t v = 0;
  auto [ptr, ec] = std::from_chars(raw.data(), raw.data() + raw.size(), v);
  if (ec != std::errc() || ptr != raw.data() + raw.size()) return std::nullopt;
  return v;
}

std::string Unquote(const std::string& raw) {
  if (raw.size() >= 2 && raw.front() == '"' && raw.back() == '"') return raw.substr(1, raw.size() - 2);
  return raw;
}

// Sets logical_type, precision and scale from the node's attributes; a logical type that does not
// fit its underlying type is ignored, as the Avro spec says.
void InterpretLogicalType(AvroNode* node) {
  const std::string* raw = node->Attribute("logicalType");
  if (raw == nullptr) return;
  const std::string lt = Unquote(*raw);
  const AvroType t = node->type;
  if (lt == "decimal" && (t == AvroType::kBytes || t == AvroType::kFixed)) {
    const auto precision = node->IntAttribute("precision");
    const auto scale = node->IntAttribute("scale").value_or(0);
    if (!precision || *precision <= 0 || scale < 0 || scale > *precision) return;
    if (t == AvroType::kFixed && node->fixed_size < 16 && *precision > 38) return;
    node->logical_type = AvroLogicalType::kDecimal;
    node->precision = static_cast<int32_t>(*precision);
    node->scale = static_cast<int32_t>(scale);
    return;
  }
  struct Simple {
    std::string_view name;
    AvroType on;
    AvroLogicalType logical;
  };
  static constexpr Simple kSimple[] = {
      {"date", AvroType::kInt, AvroLogicalType::kDate},
      {"time-millis", AvroType::kInt, AvroLogicalType::kTimeMillis},
      {"time-micros", AvroType::kLong, AvroLogicalType::kTimeMicros},
      {"timestamp-millis", AvroType::kLong, AvroLogicalType::kTimestampMillis},
      {"timestamp-micros", AvroType::kLong, AvroLogicalType::kTimestampMicros},
      {"timestamp-nanos", AvroType::kLong, AvroLogicalType::kTimestampNanos},
      {"local-timestamp-millis", AvroType::kLong, AvroLogicalType::kLocalTimestampMillis},
      {"local-timestamp-micros", AvroType::kLong, AvroLogicalType::kLocalTimestampMicros},
      {"uuid", AvroType::kString, AvroLogicalType::kUuid},
      {"uuid", AvroType::kFixed, AvroLogicalType::kUuid},
  };
  for (const Simple& s : kSimple) {
    if (s.name == lt && s.on == t && (t != AvroType::kFixed || node->fixed_size == 16)) {
      node->logical_type = s.logical;
      return;
    }
  }
}

}  // namespace

std::string_view AvroTypeName(AvroType type) {
  switch (type) {
    case AvroType::kNull: return "null";
    case AvroType::kBoolean: return "boolean";
    case AvroType::kInt: return "int";
    case AvroType::kLong: return "long";
    case AvroType::kFloat: return "float";
    case AvroType::kDouble: return "double";
    case AvroType::kBytes: return "bytes";
    case AvroType::kString: return "string";
    case AvroType::kRecord: return "record";
    case AvroType::kEnum: return "enum";
    case AvroType::kArray: return "array";
    case AvroType::kMap: return "map";
    case AvroType::kUnion: return "union";
    case AvroType::kFixed: return "fixed";
  }
  return "?";
}

std::optional<int32_t> AvroField::field_id() const {
  for (const auto& [key, raw] : attributes) {
    if (key != "field-id") continue;
    const auto v = ParseJsonInteger(raw);
    if (!v || *v < INT32_MIN || *v > INT32_MAX) return std::nullopt;
    return static_cast<int32_t>(*v);
  }
  return std::nullopt;
}

std::string AvroNode::FullName() const {
  if (name_space.empty() || name.find('.') != std::string::npos) return name;
  return name_space + "." + name;
}

const std::string* AvroNode::Attribute(std::string_view key) const {
  for (const auto& [k, raw] : attributes) {
    if (k == key) return &raw;
  }
  return nullptr;
}

std::optional<int64_t> AvroNode::IntAttribute(std::string_view key) const {
  const std::string* raw = Attribute(key);
  return raw == nullptr ? std::nullopt : ParseJsonInteger(*raw);
}

int AvroNode::FieldIndex(std::string_view field_name) const {
  for (size_t i = 0; i < fields.size(); ++i) {
    if (fields[i].name == field_name) return static_cast<int>(i);
  }
  return -1;
}

int AvroNode::NullBranch() const {
  for (size_t i = 0; i < branches.size(); ++i) {
    if (branches[i]->type == AvroType::kNull) return static_cast<int>(i);
  }
  return -1;
}

// Builds the nodes of one schema document.
class AvroSchemaParser {
 public:
  explicit AvroSchemaParser(AvroSchema* schema) : schema_(schema) {}

  Result<const AvroNode*> Parse(simdjson::dom::element e, const std::string& ns, const std::string& path,
                                int depth) {
    if (depth > kMaxSchemaDepth) return Error(path, "nested deeper than " + std::to_string(kMaxSchemaDepth));
    switch (e.type()) {
      case simdjson::dom::element_type::STRING: return ParseName(std::string(e.get_string().value()), ns, path);
      case simdjson::dom::element_type::ARRAY: return ParseUnion(e.get_array().value(), ns, path, depth);
      case simdjson::dom::element_type::OBJECT: return ParseObject(e.get_object().value(), ns, path, depth);
      default: return Error(path, "expected a type name, an object or a union array");
    }
  }

 private:
  static Status Error(const std::string& path, const std::string& what) {
    return Status::InvalidArgument("invalid Avro schema at " + (path.empty() ? std::string("<root>") : path) +
                                   ": " + what);
  }

  AvroNode* NewNode(AvroType type) {
    schema_->nodes_.push_back(std::make_unique<AvroNode>());
    schema_->nodes_.back()->type = type;
    return schema_->nodes_.back().get();
  }

  Result<const AvroNode*> ParseName(const std::string& name, const std::string& ns, const std::string& path) {
    if (auto prim = PrimitiveType(name)) return static_cast<const AvroNode*>(NewNode(*prim));
    auto it = named_.find(name.find('.') == std::string::npos && !ns.empty() ? ns + "." + name : name);
    if (it == named_.end()) it = named_.find(name);
    if (it == named_.end()) return Error(path, "unknown type '" + name + "'");
    return it->second;
  }

  Result<const AvroNode*> ParseUnion(simdjson::dom::array arr, const std::string& ns, const std::string& path,
                                     int depth) {
    AvroNode* node = NewNode(AvroType::kUnion);
    size_t i = 0;
    for (simdjson::dom::element b : arr) {
      ASSIGN_OR_RETURN(const AvroNode* branch, Parse(b, ns, path + "[" + std::to_string(i++) + "]", depth + 1));
      if (branch->type == AvroType::kUnion) return Error(path, "a union may not contain a union");
      node->branches.push_back(branch);
    }
    if (node->branches.empty()) return Error(path, "a union needs at least one branch");
    return static_cast<const AvroNode*>(node);
  }

  Status RegisterName(AvroNode* node, const std::string& path) {
    const std::string full = node->FullName();
    if (PrimitiveType(full)) return Error(path, "a named type may not be called '" + full + "'");
    if (!named_.emplace(full, node).second) return Error(path, "type '" + full + "' is defined twice");
    return Status::OK();
  }

  static Result<std::string> StringMember(simdjson::dom::object obj, std::string_view key, const std::string& path) {
    simdjson::dom::element v;
    if (obj.at_key(key).get(v) != simdjson::SUCCESS) return Error(path, "missing \"" + std::string(key) + "\"");
    std::string_view s;
    if (v.get(s) != simdjson::SUCCESS) return Error(path, "\"" + std::string(key) + "\" must be a string");
    return std::string(s);
  }

  static std::vector<std::string> StringList(simdjson::dom::object obj, std::string_view key) {
    std::vector<std::string> out;
    simdjson::dom::array arr;
    if (obj.at_key(key).get(arr) != simdjson::SUCCESS) return out;
    for (simdjson::dom::element e : arr) {
      std::string_view s;
      if (e.get(s) == simdjson::SUCCESS) out.emplace_back(s);
    }
    return out;
  }

  Result<const AvroNode*> ParseObject(simdjson::dom::object obj, const std::string& ns, const std::string& path,
                                      int depth) {
    simdjson::dom::element type_elem;
    if (obj.at_key("type").get(type_elem) != simdjson::SUCCESS) return Error(path, "missing \"type\"");
    std::string_view type_name;
    if (type_elem.get(type_name) != simdjson::SUCCESS) {
      // {"type": {...}} or {"type": [...]}: the attributes around a nested type are dropped.
      return Parse(type_elem, ns, path + ".type", depth + 1);
    }
    AvroNode* node = nullptr;
    std::string inner_ns = ns;
    if (auto prim = PrimitiveType(type_name)) {
      node = NewNode(*prim);
    } else if (type_name == "record" || type_name == "error" || type_name == "enum" || type_name == "fixed") {
      node = NewNode(type_name == "enum" ? AvroType::kEnum
                                         : type_name == "fixed" ? AvroType::kFixed : AvroType::kRecord);
      ASSIGN_OR_RETURN(node->name, StringMember(obj, "name", path));
      std::string_view explicit_ns;
      if (obj.at_key("namespace").get(explicit_ns) == simdjson::SUCCESS) {
        node->name_space = std::string(explicit_ns);
      } else if (node->name.find('.') == std::string::npos) {
        node->name_space = ns;
      }
      const std::string full = node->FullName();
      const size_t dot = full.rfind('.');
      inner_ns = dot == std::string::npos ? std::string() : full.substr(0, dot);
      node->aliases = StringList(obj, "aliases");
      RETURN_IF_ERROR(RegisterName(node, path));
    } else if (type_name == "array" || type_name == "map") {
      node = NewNode(type_name == "array" ? AvroType::kArray : AvroType::kMap);
      const char* key = type_name == "array" ? "items" : "values";
      simdjson::dom::element inner;
      if (obj.at_key(key).get(inner) != simdjson::SUCCESS) return Error(path, std::string("missing \"") + key + "\"");
      ASSIGN_OR_RETURN(node->items, Parse(inner, ns, path + "." + key, depth + 1));
    } else {
      // A name used as {"type": "Name"}.
      return ParseName(std::string(type_name), ns, path);
    }
    std::string_view doc;
    if (obj.at_key("doc").get(doc) == simdjson::SUCCESS) node->doc = std::string(doc);
    RETURN_IF_ERROR(ParseKindSpecific(obj, node, inner_ns, path, depth));
    for (auto [key, value] : obj) {
      if (IsStructuralKey(node->type, key)) continue;
      node->attributes.emplace_back(std::string(key), simdjson::minify(value));
    }
    InterpretLogicalType(node);
    return static_cast<const AvroNode*>(node);
  }

  static bool IsStructuralKey(AvroType type, std::string_view key) {
    if (key == "type" || key == "doc") return true;
    switch (type) {
      case AvroType::kRecord: return key == "name" || key == "namespace" || key == "fields" || key == "aliases";
      case AvroType::kEnum:
        return key == "name" || key == "namespace" || key == "symbols" || key == "aliases" || key == "default";
      case AvroType::kFixed: return key == "name" || key == "namespace" || key == "size" || key == "aliases";
      case AvroType::kArray: return key == "items";
      case AvroType::kMap: return key == "values";
      default: return false;
    }
  }

  Status ParseKindSpecific(simdjson::dom::object obj, AvroNode* node, const std::string& ns, const std::string& path,
                           int depth) {
    switch (node->type) {
      case AvroType::kRecord: return ParseFields(obj, node, ns, path, depth);
      case AvroType::kEnum: {
        node->symbols = StringList(obj, "symbols");
        if (node->symbols.empty()) return Error(path, "an enum needs \"symbols\"");
        std::string_view def;
        if (obj.at_key("default").get(def) == simdjson::SUCCESS) node->enum_default = std::string(def);
        return Status::OK();
      }
      case AvroType::kFixed: {
        int64_t size = -1;
        if (obj.at_key("size").get(size) != simdjson::SUCCESS || size < 0 || size > (1 << 20)) {
          return Error(path, "a fixed type needs a \"size\" between 0 and 1048576");
        }
        node->fixed_size = size;
        return Status::OK();
      }
      default: return Status::OK();
    }
  }

  Status ParseFields(simdjson::dom::object obj, AvroNode* node, const std::string& ns, const std::string& path,
                     int depth) {
    simdjson::dom::array fields;
    if (obj.at_key("fields").get(fields) != simdjson::SUCCESS) return Error(path, "a record needs a \"fields\" array");
    for (simdjson::dom::element fe : fields) {
      simdjson::dom::object fo;
      if (fe.get(fo) != simdjson::SUCCESS) return Error(path + ".fields", "a field must be an object");
      AvroField field;
      ASSIGN_OR_RETURN(field.name, StringMember(fo, "name", path + ".fields"));
      const std::string field_path = path + "." + field.name;
      if (node->FieldIndex(field.name) >= 0) return Error(field_path, "duplicate field name");
      simdjson::dom::element type;
      if (fo.at_key("type").get(type) != simdjson::SUCCESS) return Error(field_path, "missing \"type\"");
      ASSIGN_OR_RETURN(field.type, Parse(type, ns, field_path, depth + 1));
      for (auto [key, value] : fo) {
        if (key == "name" || key == "type") continue;
        if (key == "doc") {
          std::string_view doc;
          if (value.get(doc) == simdjson::SUCCESS) field.doc = std::string(doc);
        } else if (key == "default") {
          field.default_json = simdjson::minify(value);
        } else if (key == "aliases") {
          field.aliases = StringList(fo, "aliases");
        } else {
          field.attributes.emplace_back(std::string(key), simdjson::minify(value));
        }
      }
      node->fields.push_back(std::move(field));
    }
    return Status::OK();
  }

  AvroSchema* schema_;
  std::map<std::string, const AvroNode*> named_;
};

Result<AvroSchema> AvroSchema::Parse(std::string_view json) {
  simdjson::dom::parser parser;
  simdjson::padded_string padded(json);
  simdjson::dom::element doc;
  if (auto err = parser.parse(padded).get(doc); err != simdjson::SUCCESS) {
    return Status::InvalidArgument(std::string("invalid Avro schema: not JSON (") + simdjson::error_message(err) + ")");
  }
  AvroSchema schema;
  AvroSchemaParser p(&schema);
  ASSIGN_OR_RETURN(schema.root_, p.Parse(doc, "", "", 0));
  return schema;
}

namespace {

void AppendStringList(std::string_view key, const std::vector<std::string>& list, std::string* out) {
  out->append(",\"").append(key).append("\":[");
  for (size_t i = 0; i < list.size(); ++i) {
    if (i > 0) out->push_back(',');
    AppendJsonString(list[i], out);
  }
  out->push_back(']');
}

void AppendAttributes(const AvroAttributes& attributes, std::string* out) {
  for (const auto& [key, raw] : attributes) {
    out->push_back(',');
    AppendJsonString(key, out);
    out->push_back(':');
    out->append(raw);
  }
}

void AppendNodeJson(const AvroNode& node, std::vector<const AvroNode*>* written, std::string* out);

void AppendFieldJson(const AvroField& f, std::vector<const AvroNode*>* written, std::string* out) {
  out->append("{\"name\":");
  AppendJsonString(f.name, out);
  out->append(",\"type\":");
  AppendNodeJson(*f.type, written, out);
  if (!f.doc.empty()) {
    out->append(",\"doc\":");
    AppendJsonString(f.doc, out);
  }
  if (f.default_json) out->append(",\"default\":").append(*f.default_json);
  if (!f.aliases.empty()) AppendStringList("aliases", f.aliases, out);
  AppendAttributes(f.attributes, out);
  out->push_back('}');
}

void AppendNodeJson(const AvroNode& node, std::vector<const AvroNode*>* written, std::string* out) {
  if (node.is_named()) {
    for (const AvroNode* w : *written) {
      if (w == &node) {
        AppendJsonString(node.FullName(), out);
        return;
      }
    }
    written->push_back(&node);
  }
  if (node.type == AvroType::kUnion) {
    out->push_back('[');
    for (size_t i = 0; i < node.branches.size(); ++i) {
      if (i > 0) out->push_back(',');
      AppendNodeJson(*node.branches[i], written, out);
    }
    out->push_back(']');
    return;
  }
  const bool plain = !node.is_named() && node.type != AvroType::kArray && node.type != AvroType::kMap &&
                     node.attributes.empty() && node.doc.empty();
  if (plain) {
    AppendJsonString(AvroTypeName(node.type), out);
    return;
  }
  out->append("{\"type\":");
  AppendJsonString(AvroTypeName(node.type), out);
  if (node.is_named()) {
    out->append(",\"name\":");
    AppendJsonString(node.name, out);
    if (!node.name_space.empty() && node.name.find('.') == std::string::npos) {
      out->append(",\"namespace\":");
      AppendJsonString(node.name_space, out);
    }
  }
  switch (node.type) {
    case AvroType::kRecord:
      out->append(",\"fields\":[");
      for (size_t i = 0; i < node.fields.size(); ++i) {
        if (i > 0) out->push_back(',');
        AppendFieldJson(node.fields[i], written, out);
      }
      out->push_back(']');
      break;
    case AvroType::kEnum:
      AppendStringList("symbols", node.symbols, out);
      if (node.enum_default) {
        out->append(",\"default\":");
        AppendJsonString(*node.enum_default, out);
      }
      break;
    case AvroType::kFixed: out->append(",\"size\":").append(std::to_string(node.fixed_size)); break;
    case AvroType::kArray:
      out->append(",\"items\":");
      AppendNodeJson(*node.items, written, out);
      break;
    case AvroType::kMap:
      out->append(",\"values\":");
      AppendNodeJson(*node.items, written, out);
      break;
    default: break;
  }
  if (!node.doc.empty()) {
    out->append(",\"doc\":");
    AppendJsonString(node.doc, out);
  }
  if (!node.aliases.empty()) AppendStringList("aliases", node.aliases, out);
  AppendAttributes(node.attributes, out);
  out->push_back('}');
}

}  // namespace

std::string AvroSchema::ToJson() const {
  std::string out;
  if (root_ == nullptr) return "\"null\"";
  std::vector<const AvroNode*> written;
  AppendNodeJson(*root_, &written, &out);
  return out;
}

}  // namespace sluice
