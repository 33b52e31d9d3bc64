#include "connectors/iceberg/iceberg_types.h"

#include <algorithm>
#include <cctype>
#include <charconv>

#include "common/check.h"

namespace sluice {

struct IcebergType::Nested {
  std::vector<IcebergField> fields;   // struct
  std::vector<IcebergType> children;  // list: element; map: key, value
};

IcebergType IcebergType::Primitive(IcebergTypeId id) {
  SLUICE_CHECK(id < IcebergTypeId::kStruct && id != IcebergTypeId::kDecimal && id != IcebergTypeId::kFixed);
  IcebergType t;
  t.id_ = id;
  return t;
}

IcebergType IcebergType::Decimal(int precision, int scale) {
  IcebergType t;
  t.id_ = IcebergTypeId::kDecimal;
  t.precision_ = precision;
  t.scale_ = scale;
  return t;
}

IcebergType IcebergType::Fixed(int32_t length) {
  IcebergType t;
  t.id_ = IcebergTypeId::kFixed;
  t.precision_ = length;
  return t;
}

IcebergType IcebergType::Struct(std::vector<IcebergField> fields) {
  IcebergType t;
  t.id_ = IcebergTypeId::kStruct;
  auto nested = std::make_shared<Nested>();
  nested->fields = std::move(fields);
  t.nested_ = std::move(nested);
  return t;
}

IcebergType IcebergType::List(int32_t element_id, bool element_required, IcebergType element) {
  IcebergType t;
  t.id_ = IcebergTypeId::kList;
  t.id_a_ = element_id;
  t.required_ = element_required;
  auto nested = std::make_shared<Nested>();
  nested->children.push_back(std::move(element));
  t.nested_ = std::move(nested);
  return t;
}

IcebergType IcebergType::Map(int32_t key_id, IcebergType key, int32_t value_id, bool value_required,
                             IcebergType value) {
  IcebergType t;
  t.id_ = IcebergTypeId::kMap;
  t.id_a_ = key_id;
  t.id_b_ = value_id;
  t.required_ = value_required;
  auto nested = std::make_shared<Nested>();
  nested->children.push_back(std::move(key));
  nested->children.push_back(std::move(value));
  t.nested_ = std::move(nested);
  return t;
}

const std::vector<IcebergField>& IcebergType::fields() const {
  SLUICE_CHECK(id_ == IcebergTypeId::kStruct);
  return nested_->fields;
}

const IcebergType& IcebergType::element() const {
  SLUICE_CHECK(id_ == IcebergTypeId::kList);
  return nested_->children[0];
}

const IcebergType& IcebergType::key() const {
  SLUICE_CHECK(id_ == IcebergTypeId::kMap);
  return nested_->children[0];
}

const IcebergType& IcebergType::value() const {
  SLUICE_CHECK(id_ == IcebergTypeId::kMap);
  return nested_->children[1];
}

namespace {

struct PrimitiveName {
  std::string_view name;
  IcebergTypeId id;
};

constexpr PrimitiveName kPrimitiveNames[] = {
    {"boolean", IcebergTypeId::kBoolean},         {"int", IcebergTypeId::kInt},
    {"long", IcebergTypeId::kLong},               {"float", IcebergTypeId::kFloat},
    {"double", IcebergTypeId::kDouble},           {"date", IcebergTypeId::kDate},
    {"time", IcebergTypeId::kTime},               {"timestamp", IcebergTypeId::kTimestamp},
    {"timestamptz", IcebergTypeId::kTimestampTz}, {"timestamp_ns", IcebergTypeId::kTimestampNs},
    {"timestamptz_ns", IcebergTypeId::kTimestampTzNs}, {"string", IcebergTypeId::kString},
    {"uuid", IcebergTypeId::kUuid},               {"binary", IcebergTypeId::kBinary},
};

std::string_view Trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

std::optional<int> ParseInt(std::string_view s) {
  s = Trim(s);
  int v = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || p != s.data() + s.size()) return std::nullopt;
  return v;
}

}  // namespace

Result<IcebergType> IcebergType::ParsePrimitive(std::string_view text) {
  std::string_view t = Trim(text);
  for (const auto& p : kPrimitiveNames) {
    if (t == p.name) return Primitive(p.id);
  }
  if (t.starts_with("decimal(") && t.ends_with(")")) {
    std::string_view inner = t.substr(8, t.size() - 9);
    size_t comma = inner.find(',');
    if (comma != std::string_view::npos) {
      auto p = ParseInt(inner.substr(0, comma));
      auto s = ParseInt(inner.substr(comma + 1));
      if (p && s && *p >= 1 && *p <= 38 && *s >= 0 && *s <= *p) return Decimal(*p, *s);
    }
  }
  if (t.starts_with("fixed[") && t.ends_with("]")) {
    auto len = ParseInt(t.substr(6, t.size() - 7));
    if (len && *len > 0) return Fixed(*len);
  }
  for (std::string_view refused : {"unknown", "variant", "geometry", "geography"}) {
    if (t == refused || t.starts_with(std::string(refused) + "(")) {
      return Status::NotSupported("Iceberg type '" + std::string(t) + "' is not supported by Sluice");
    }
  }
  return Status::InvalidArgument("cannot parse Iceberg type '" + std::string(text) + "'");
}

std::string IcebergType::ToString() const {
  switch (id_) {
    case IcebergTypeId::kDecimal:
      return "decimal(" + std::to_string(precision_) + ", " + std::to_string(scale_) + ")";
    case IcebergTypeId::kFixed:
      return "fixed[" + std::to_string(precision_) + "]";
    case IcebergTypeId::kStruct: {
      std::string out = "struct<";
      for (size_t i = 0; i < nested_->fields.size(); ++i) {
        const IcebergField& f = nested_->fields[i];
        if (i > 0) out += ", ";
        out += std::to_string(f.id) + ": " + f.name + ": " + (f.required ? "required " : "optional ") +
               f.type.ToString();
      }
      return out + ">";
    }
    case IcebergTypeId::kList:
      return "list<" + element().ToString() + ">";
    case IcebergTypeId::kMap:
      return "map<" + key().ToString() + ", " + value().ToString() + ">";
    default:
      for (const auto& p : kPrimitiveNames) {
        if (p.id == id_) return std::string(p.name);
      }
      SLUICE_UNREACHABLE();
  }
}

bool IcebergType::operator==(const IcebergType& other) const {
  if (id_ != other.id_ || precision_ != other.precision_ || scale_ != other.scale_ || id_a_ != other.id_a_ ||
      id_b_ != other.id_b_ || required_ != other.required_) {
    return false;
  }
  if (nested_ == other.nested_) return true;
  if (!nested_ || !other.nested_) return false;
  return nested_->fields == other.nested_->fields && nested_->children == other.nested_->children;
}

// ---------------------------------------------------------------------------------------------
// IcebergSchema

IcebergSchema::IcebergSchema() : state_(std::make_shared<State>()) {}

IcebergSchema::IcebergSchema(int32_t schema_id, std::vector<IcebergField> fields,
                             std::vector<int32_t> identifier_field_ids)
    : schema_id_(schema_id), identifier_field_ids_(std::move(identifier_field_ids)) {
  auto state = std::make_shared<State>();
  state->fields = std::move(fields);
  for (const IcebergField& f : state->fields) {
    state->by_id[f.id] = &f;
    state->by_name.emplace(f.name, f.id);
    state->name_of[f.id] = f.name;
    state->highest_id = std::max(state->highest_id, f.id);
    Index(f.type, f.name, state.get());
  }
  state_ = std::move(state);
}

void IcebergSchema::Index(const IcebergType& type, const std::string& prefix, State* state) {
  auto add = [&](int32_t id, const std::string& name, bool required, const IcebergType& t, const IcebergField* f) {
    if (f == nullptr) {
      state->synthetic.push_back(std::make_unique<IcebergField>());
      *state->synthetic.back() = IcebergField{id, name.substr(name.rfind('.') + 1), required, t};
      f = state->synthetic.back().get();
    }
    state->by_id[id] = f;
    state->by_name.emplace(name, id);
    state->name_of[id] = name;
    state->highest_id = std::max(state->highest_id, id);
    Index(t, name, state);
  };
  switch (type.id()) {
    case IcebergTypeId::kStruct:
      for (const IcebergField& f : type.fields()) add(f.id, prefix + "." + f.name, f.required, f.type, &f);
      break;
    case IcebergTypeId::kList:
      add(type.element_id(), prefix + ".element", type.element_required(), type.element(), nullptr);
      break;
    case IcebergTypeId::kMap:
      add(type.key_id(), prefix + ".key", true, type.key(), nullptr);
      add(type.value_id(), prefix + ".value", type.value_required(), type.value(), nullptr);
      break;
    default:
      break;
  }
}

const IcebergField* IcebergSchema::FindField(int32_t id) const {
  auto it = state_->by_id.find(id);
  return it == state_->by_id.end() ? nullptr : it->second;
}

const IcebergField* IcebergSchema::FindField(std::string_view name) const {
  auto it = state_->by_name.find(std::string(name));
  return it == state_->by_name.end() ? nullptr : FindField(it->second);
}

std::string IcebergSchema::FindName(int32_t id) const {
  auto it = state_->name_of.find(id);
  return it == state_->name_of.end() ? std::string() : it->second;
}

bool IcebergSchema::SameSchema(const IcebergSchema& other) const {
  return fields() == other.fields() && identifier_field_ids_ == other.identifier_field_ids_;
}

std::string IcebergSchema::ToString() const { return "table " + AsStruct().ToString(); }

// ---------------------------------------------------------------------------------------------
// Flink types <-> Iceberg types

namespace {

// Converts without ids for nested children; ids are assigned by AssignIds afterwards so the order
// is TypeUtil.assignFreshIds' (a struct's own fields before their children).
Result<IcebergType> ConvertShape(const LogicalType& type) {
  switch (type.id()) {
    case TypeId::kBoolean: return IcebergType::Primitive(IcebergTypeId::kBoolean);
    case TypeId::kTinyInt:
    case TypeId::kSmallInt:
    case TypeId::kInteger: return IcebergType::Primitive(IcebergTypeId::kInt);
    case TypeId::kBigInt: return IcebergType::Primitive(IcebergTypeId::kLong);
    case TypeId::kFloat: return IcebergType::Primitive(IcebergTypeId::kFloat);
    case TypeId::kDouble: return IcebergType::Primitive(IcebergTypeId::kDouble);
    case TypeId::kDecimal: return IcebergType::Decimal(type.precision(), type.scale());
    case TypeId::kChar:
    case TypeId::kVarChar: return IcebergType::Primitive(IcebergTypeId::kString);
    case TypeId::kBinary: return IcebergType::Fixed(type.length());
    case TypeId::kVarBinary: return IcebergType::Primitive(IcebergTypeId::kBinary);
    case TypeId::kDate: return IcebergType::Primitive(IcebergTypeId::kDate);
    case TypeId::kTime: return IcebergType::Primitive(IcebergTypeId::kTime);
    case TypeId::kTimestamp: return IcebergType::Primitive(IcebergTypeId::kTimestamp);
    case TypeId::kTimestampLtz: return IcebergType::Primitive(IcebergTypeId::kTimestampTz);
    case TypeId::kArray: {
      ASSIGN_OR_RETURN(IcebergType element, ConvertShape(type.child(0)));
      return IcebergType::List(0, !type.child(0).nullable(), std::move(element));
    }
    case TypeId::kMap: {
      ASSIGN_OR_RETURN(IcebergType key, ConvertShape(type.child(0)));
      ASSIGN_OR_RETURN(IcebergType value, ConvertShape(type.child(1)));
      return IcebergType::Map(0, std::move(key), 0, !type.child(1).nullable(), std::move(value));
    }
    case TypeId::kRow: {
      std::vector<IcebergField> fields;
      for (size_t i = 0; i < type.num_children(); ++i) {
        auto converted = ConvertShape(type.child(i));
        if (!converted.ok()) return converted.status().WithContext("field '" + type.field_name(i) + "'");
        fields.push_back({0, type.field_name(i), !type.child(i).nullable(), std::move(converted).value()});
      }
      return IcebergType::Struct(std::move(fields));
    }
    default:
      return Status::NotSupported("type " + type.ToString() + " cannot be stored in an Iceberg table");
  }
}

IcebergType AssignIds(const IcebergType& type, int32_t* next_id) {
  switch (type.id()) {
    case IcebergTypeId::kStruct: {
      std::vector<IcebergField> fields = type.fields();
      for (IcebergField& f : fields) f.id = (*next_id)++;
      for (IcebergField& f : fields) f.type = AssignIds(f.type, next_id);
      return IcebergType::Struct(std::move(fields));
    }
    case IcebergTypeId::kList: {
      int32_t element_id = (*next_id)++;
      return IcebergType::List(element_id, type.element_required(), AssignIds(type.element(), next_id));
    }
    case IcebergTypeId::kMap: {
      int32_t key_id = (*next_id)++;
      int32_t value_id = (*next_id)++;
      IcebergType key = AssignIds(type.key(), next_id);
      return IcebergType::Map(key_id, std::move(key), value_id, type.value_required(),
                              AssignIds(type.value(), next_id));
    }
    default:
      return type;
  }
}

}  // namespace

Result<IcebergType> ToIcebergType(const LogicalType& type, int32_t* next_id) {
  ASSIGN_OR_RETURN(IcebergType shape, ConvertShape(type));
  return AssignIds(shape, next_id);
}

Result<IcebergSchema> ToIcebergSchema(const Schema& schema, const std::vector<std::string>& identifier_columns,
                                      int32_t schema_id) {
  std::vector<std::string> names;
  std::vector<LogicalType> types;
  for (const Field& f : schema.fields()) {
    auto converted = ConvertShape(f.type);
    if (!converted.ok()) return converted.status().WithContext("column '" + f.name + "'");
    names.push_back(f.name);
    types.push_back(f.type);
  }
  ASSIGN_OR_RETURN(IcebergType shape, ConvertShape(LogicalType::Row(names, types)));
  int32_t next_id = 1;
  IcebergType assigned = AssignIds(shape, &next_id);
  std::vector<int32_t> identifier_ids;
  for (const std::string& column : identifier_columns) {
    const IcebergField* found = nullptr;
    for (const IcebergField& f : assigned.fields()) {
      if (f.name == column) found = &f;
    }
    if (found == nullptr) {
      return Status::InvalidArgument("identifier column '" + column + "' is not a column of the table");
    }
    if (!found->type.IsPrimitive() || found->type.id() == IcebergTypeId::kFloat ||
        found->type.id() == IcebergTypeId::kDouble) {
      return Status::InvalidArgument("identifier column '" + column + "' of type " + found->type.ToString() +
                                     " cannot be an Iceberg identifier field (float, double and nested types are "
                                     "not allowed)");
    }
    identifier_ids.push_back(found->id);
  }
  std::vector<IcebergField> fields = assigned.fields();
  // A primary key's columns are NOT NULL in Flink; Iceberg requires identifier fields to be required.
  for (IcebergField& f : fields) {
    if (std::find(identifier_ids.begin(), identifier_ids.end(), f.id) != identifier_ids.end()) f.required = true;
  }
  return IcebergSchema(schema_id, std::move(fields), std::move(identifier_ids));
}

Result<IcebergSchema> AssignFreshIds(const IcebergSchema& schema, int32_t schema_id) {
  int32_t next_id = 1;
  IcebergType assigned = AssignIds(schema.AsStruct(), &next_id);
  IcebergSchema fresh(schema_id, assigned.fields());
  std::vector<int32_t> identifier_ids;
  for (int32_t old_id : schema.identifier_field_ids()) {
    const IcebergField* f = fresh.FindField(schema.FindName(old_id));
    if (f == nullptr) {
      return Status::InvalidArgument("identifier field id " + std::to_string(old_id) + " is not in the schema");
    }
    identifier_ids.push_back(f->id);
  }
  return IcebergSchema(schema_id, assigned.fields(), std::move(identifier_ids));
}

LogicalType ToLogicalType(const IcebergType& type, bool required) {
  LogicalType out;
  switch (type.id()) {
    case IcebergTypeId::kBoolean: out = LogicalType::Boolean(); break;
    case IcebergTypeId::kInt: out = LogicalType::Integer(); break;
    case IcebergTypeId::kLong: out = LogicalType::BigInt(); break;
    case IcebergTypeId::kFloat: out = LogicalType::Float(); break;
    case IcebergTypeId::kDouble: out = LogicalType::Double(); break;
    case IcebergTypeId::kDecimal: out = LogicalType::Decimal(type.precision(), type.scale()); break;
    case IcebergTypeId::kDate: out = LogicalType::Date(); break;
    case IcebergTypeId::kTime: out = LogicalType::Time(0); break;
    case IcebergTypeId::kTimestamp: out = LogicalType::Timestamp(6); break;
    case IcebergTypeId::kTimestampTz: out = LogicalType::TimestampLtz(6); break;
    case IcebergTypeId::kTimestampNs: out = LogicalType::Timestamp(9); break;
    case IcebergTypeId::kTimestampTzNs: out = LogicalType::TimestampLtz(9); break;
    case IcebergTypeId::kString: out = LogicalType::String(); break;
    case IcebergTypeId::kUuid: out = LogicalType::Binary(16); break;
    case IcebergTypeId::kFixed: out = LogicalType::Binary(type.length()); break;
    case IcebergTypeId::kBinary: out = LogicalType::Bytes(); break;
    case IcebergTypeId::kStruct: {
      std::vector<std::string> names;
      std::vector<LogicalType> types;
      for (const IcebergField& f : type.fields()) {
        names.push_back(f.name);
        types.push_back(ToLogicalType(f.type, f.required));
      }
      out = LogicalType::Row(std::move(names), std::move(types));
      break;
    }
    case IcebergTypeId::kList:
      out = LogicalType::Array(ToLogicalType(type.element(), type.element_required()));
      break;
    case IcebergTypeId::kMap:
      out = LogicalType::Map(ToLogicalType(type.key(), true), ToLogicalType(type.value(), type.value_required()));
      break;
  }
  return out.WithNullable(!required);
}

Schema ToSluiceSchema(const IcebergSchema& schema) {
  Schema out;
  for (const IcebergField& f : schema.fields()) out.Add(f.name, ToLogicalType(f.type, f.required));
  return out;
}

}  // namespace sluice
