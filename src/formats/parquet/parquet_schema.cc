#include "formats/parquet/parquet_schema.h"

#include <functional>

namespace sluice::parquet {
namespace {

using Kind = LogicalTypeAnnotation::Kind;

SchemaElement Leaf(std::string name, Type type, bool nullable) {
  SchemaElement e;
  e.name = std::move(name);
  e.type = type;
  e.repetition_type = nullable ? FieldRepetitionType::OPTIONAL : FieldRepetitionType::REQUIRED;
  return e;
}

SchemaElement Group(std::string name, FieldRepetitionType rep, int32_t num_children) {
  SchemaElement e;
  e.name = std::move(name);
  e.repetition_type = rep;
  e.num_children = num_children;
  return e;
}

Status AppendField(const std::string& name, const LogicalType& type, const FieldIdTree* ids, bool force_required,
                   const std::string& column, std::vector<SchemaElement>* out);

// AppendField of a ROW, ARRAY or MAP field: its group element (a LIST or MAP annotated one with the
// three-level structure Parquet's spec requires) followed by its children's elements.
Status AppendNestedField(const std::string& name, const LogicalType& type, const FieldIdTree* ids, bool nullable,
                         const std::string& column, std::vector<SchemaElement>* out) {
  auto child_tree = [&](size_t i) -> const FieldIdTree* {
    return ids != nullptr && i < ids->children.size() ? &ids->children[i] : nullptr;
  };
  SchemaElement e;
  if (type.id() == TypeId::kRow) {
    e = Group(name, nullable ? FieldRepetitionType::OPTIONAL : FieldRepetitionType::REQUIRED,
              static_cast<int32_t>(type.num_children()));
    if (ids != nullptr) e.field_id = ids->id;
    out->push_back(std::move(e));
    for (size_t i = 0; i < type.num_children(); ++i) {
      RETURN_IF_ERROR(AppendField(type.field_name(i), type.child(i), child_tree(i), false,
                                  column + "." + type.field_name(i), out));
    }
    return Status::OK();
  }
  if (type.id() == TypeId::kArray) {
    e = Group(name, nullable ? FieldRepetitionType::OPTIONAL : FieldRepetitionType::REQUIRED, 1);
    e.logical_type = LogicalTypeAnnotation::Of(Kind::LIST);
    e.converted_type = ConvertedType::LIST;
    if (ids != nullptr) e.field_id = ids->id;
    out->push_back(std::move(e));
    out->push_back(Group("list", FieldRepetitionType::REPEATED, 1));
    return AppendField("element", type.child(0), child_tree(0), false, column + ".element", out);
  }
  // MAP: a repeated key_value group of a required key and a value.
  e = Group(name, nullable ? FieldRepetitionType::OPTIONAL : FieldRepetitionType::REQUIRED, 1);
  e.logical_type = LogicalTypeAnnotation::Of(Kind::MAP);
  e.converted_type = ConvertedType::MAP;
  if (ids != nullptr) e.field_id = ids->id;
  out->push_back(std::move(e));
  out->push_back(Group("key_value", FieldRepetitionType::REPEATED, 2));
  RETURN_IF_ERROR(AppendField("key", type.child(0), child_tree(0), true, column + ".key", out));
  return AppendField("value", type.child(1), child_tree(1), false, column + ".value", out);
}

// Appends the elements for one Sluice field (depth-first) to `out`.
Status AppendField(const std::string& name, const LogicalType& type, const FieldIdTree* ids, bool force_required,
                   const std::string& column, std::vector<SchemaElement>* out) {
  const bool nullable = type.nullable() && !force_required;
  SchemaElement e;
  switch (type.id()) {
    case TypeId::kBoolean: e = Leaf(name, Type::BOOLEAN, nullable); break;
    case TypeId::kTinyInt:
    case TypeId::kSmallInt: {
      e = Leaf(name, Type::INT32, nullable);
      bool tiny = type.id() == TypeId::kTinyInt;
      e.logical_type = LogicalTypeAnnotation::Integer(tiny ? 8 : 16, true);
      e.converted_type = tiny ? ConvertedType::INT_8 : ConvertedType::INT_16;
      break;
    }
    case TypeId::kInteger: e = Leaf(name, Type::INT32, nullable); break;
    case TypeId::kBigInt: e = Leaf(name, Type::INT64, nullable); break;
    case TypeId::kFloat: e = Leaf(name, Type::FLOAT, nullable); break;
    case TypeId::kDouble: e = Leaf(name, Type::DOUBLE, nullable); break;
    case TypeId::kDecimal: {
      int p = type.precision();
      if (p <= 9) {
        e = Leaf(name, Type::INT32, nullable);
      } else if (p <= 18) {
        e = Leaf(name, Type::INT64, nullable);
      } else {
        e = Leaf(name, Type::FIXED_LEN_BYTE_ARRAY, nullable);
        e.type_length = DecimalByteWidth(p);
      }
      e.logical_type = LogicalTypeAnnotation::Decimal(p, type.scale());
      e.converted_type = ConvertedType::DECIMAL;
      e.precision = p;
      e.scale = type.scale();
      break;
    }
    case TypeId::kChar:
    case TypeId::kVarChar:
      e = Leaf(name, Type::BYTE_ARRAY, nullable);
      e.logical_type = LogicalTypeAnnotation::Of(Kind::STRING);
      e.converted_type = ConvertedType::UTF8;
      break;
    case TypeId::kBinary:
      e = Leaf(name, Type::FIXED_LEN_BYTE_ARRAY, nullable);
      e.type_length = type.length();
      break;
    case TypeId::kVarBinary: e = Leaf(name, Type::BYTE_ARRAY, nullable); break;
    case TypeId::kDate:
      e = Leaf(name, Type::INT32, nullable);
      e.logical_type = LogicalTypeAnnotation::Of(Kind::DATE);
      e.converted_type = ConvertedType::DATE;
      break;
    case TypeId::kTime:
      // Iceberg's time is TIME(MICROS) not adjusted to UTC; the legacy TIME_MICROS converted type
      // means adjusted=true, so none is written (as parquet-mr does).
      e = Leaf(name, Type::INT64, nullable);
      e.logical_type = LogicalTypeAnnotation::Time(false, TimeUnit::MICROS);
      break;
    case TypeId::kTimestamp:
    case TypeId::kTimestampLtz: {
      bool ltz = type.id() == TypeId::kTimestampLtz;
      e = Leaf(name, Type::INT64, nullable);
      e.logical_type = LogicalTypeAnnotation::Timestamp(ltz, TimeUnit::MICROS);
      if (ltz) e.converted_type = ConvertedType::TIMESTAMP_MICROS;
      break;
    }
    case TypeId::kRow:
    case TypeId::kArray:
    case TypeId::kMap: return AppendNestedField(name, type, ids, nullable, column, out);
    default:
      return Status::NotSupported("column '" + column + "' has type " + type.ToString() +
                                  ", which Iceberg's Parquet files cannot store");
  }
  if (ids != nullptr) e.field_id = ids->id;
  out->push_back(std::move(e));
  return Status::OK();
}

LogicalType WithNull(LogicalType t, bool nullable) { return t.WithNullable(nullable); }

int TimePrecision(TimeUnit unit) { return unit == TimeUnit::MILLIS ? 3 : unit == TimeUnit::MICROS ? 6 : 9; }

}  // namespace

int32_t DecimalByteWidth(int precision) {
  __int128 max_unscaled = 1;
  for (int i = 0; i < precision; ++i) max_unscaled *= 10;
  max_unscaled -= 1;
  for (int32_t n = 1; n < 16; ++n) {
    __int128 limit = (static_cast<__int128>(1) << (8 * n - 1)) - 1;
    if (max_unscaled <= limit) return n;
  }
  return 16;
}

std::string ColumnDescriptor::DottedPath() const {
  std::string s;
  for (const std::string& p : path) {
    if (!s.empty()) s += '.';
    s += p;
  }
  return s;
}

Result<ParquetSchema> ParquetSchema::FromSluice(const Schema& schema, const std::vector<FieldIdTree>& field_ids) {
  if (!field_ids.empty() && field_ids.size() != schema.size()) {
    return Status::Internal("ParquetSchema::FromSluice: " + std::to_string(field_ids.size()) + " field id trees for " +
                            std::to_string(schema.size()) + " columns");
  }
  std::vector<SchemaElement> elements;
  SchemaElement root;
  root.name = "table";
  root.num_children = static_cast<int32_t>(schema.size());
  elements.push_back(root);
  for (size_t i = 0; i < schema.size(); ++i) {
    const Field& f = schema.field(i);
    RETURN_IF_ERROR(AppendField(f.name, f.type, field_ids.empty() ? nullptr : &field_ids[i], false, f.name, &elements));
  }
  ASSIGN_OR_RETURN(ParquetSchema ps, FromElements(elements));
  // Keep the caller's exact types (VARCHAR(10), TIMESTAMP(3), TIME(0), ...): they describe the
  // vectors the writer encodes, which the types derived from Parquet only approximate.
  std::function<void(int, const LogicalType&)> assign = [&](int n, const LogicalType& t) {
    SchemaNode& node = ps.nodes_[n];
    node.sluice_type = t;
    if (node.leaf_index >= 0) ps.columns_[node.leaf_index].sluice_type = t;
    switch (node.role) {
      case SchemaNode::Role::kStruct:
        for (size_t i = 0; i < node.children.size(); ++i) assign(node.children[i], t.child(i));
        break;
      case SchemaNode::Role::kList:
        assign(node.list_element, t.child(0));
        break;
      case SchemaNode::Role::kMap:
        assign(node.map_key, t.child(0).WithNullable(false));
        assign(node.map_value, t.child(1));
        break;
      case SchemaNode::Role::kPrimitive:
        break;
    }
  };
  for (size_t i = 0; i < schema.size(); ++i) assign(ps.nodes_[0].children[i], schema.field(i).type);
  ps.nodes_[0].sluice_type = LogicalType::Row(schema.names(), schema.types());
  return ps;
}

Result<ParquetSchema> ParquetSchema::FromElements(const std::vector<SchemaElement>& elements) {
  if (elements.empty()) return Status::InvalidArgument("Parquet schema has no root element");
  ParquetSchema ps;
  ps.nodes_.resize(elements.size());
  // Rebuild the tree from the depth-first list and its num_children counts.
  struct Open {
    int node;
    int32_t left;
  };
  std::vector<Open> stack;
  for (size_t i = 0; i < elements.size(); ++i) {
    SchemaNode& n = ps.nodes_[i];
    n.element = elements[i];
    if (i > 0) {
      if (stack.empty()) return Status::InvalidArgument("Parquet schema has elements after the root's last child");
      n.parent = stack.back().node;
      ps.nodes_[n.parent].children.push_back(static_cast<int>(i));
      if (--stack.back().left == 0) stack.pop_back();
    }
    int32_t kids = elements[i].num_children.value_or(0);
    if (kids < 0) return Status::InvalidArgument("Parquet schema element '" + elements[i].name + "' has negative num_children");
    bool is_group = i == 0 || !elements[i].type.has_value() || kids > 0;
    if (is_group) {
      if (kids == 0 && i > 0) {
        return Status::InvalidArgument("Parquet schema group '" + elements[i].name + "' has no children");
      }
      if (kids > 0) stack.push_back({static_cast<int>(i), kids});
      if (stack.size() > 128) return Status::InvalidArgument("Parquet schema is nested deeper than 128 levels");
    }
  }
  if (!stack.empty()) return Status::InvalidArgument("Parquet schema ends before its groups' children do");
  RETURN_IF_ERROR(ps.Build());
  return ps;
}

Status ParquetSchema::Build() {
  // Levels, top-down (parents precede children in depth-first order).
  for (size_t i = 1; i < nodes_.size(); ++i) {
    SchemaNode& n = nodes_[i];
    const SchemaNode& p = nodes_[n.parent];
    n.definition_level = p.definition_level;
    n.repetition_level = p.repetition_level;
    if (!n.element.repetition_type) {
      return Status::InvalidArgument("Parquet schema element '" + n.element.name + "' has no repetition type");
    }
    if (n.element.repetition_type != FieldRepetitionType::REQUIRED) ++n.definition_level;
    if (n.repeated()) ++n.repetition_level;
  }
  // Roles bottom-up would need a reversed pass; Classify recurses from the root instead.
  nodes_[0].role = SchemaNode::Role::kStruct;
  for (int c : nodes_[0].children) RETURN_IF_ERROR(Classify(c));
  // Leaves in depth-first order are the columns.
  for (size_t i = 0; i < nodes_.size(); ++i) {
    SchemaNode& n = nodes_[i];
    if (!n.children.empty() || i == 0) continue;
    n.leaf_index = static_cast<int>(columns_.size());
    ColumnDescriptor c;
    c.physical_type = *n.element.type;
    c.type_length = n.element.type_length.value_or(0);
    if (c.physical_type == Type::FIXED_LEN_BYTE_ARRAY && c.type_length <= 0) {
      return Status::InvalidArgument("Parquet column '" + n.element.name + "' is FIXED_LEN_BYTE_ARRAY without a length");
    }
    c.max_definition_level = n.definition_level;
    c.max_repetition_level = n.repetition_level;
    c.field_id = n.element.field_id;
    c.node = static_cast<int>(i);
    for (int k = static_cast<int>(i); k > 0; k = nodes_[k].parent) c.path.insert(c.path.begin(), nodes_[k].element.name);
    columns_.push_back(std::move(c));
  }
  for (int c : nodes_[0].children) DeriveType(c);
  std::vector<std::string> names;
  std::vector<LogicalType> types;
  for (int c : nodes_[0].children) {
    names.push_back(nodes_[c].element.name);
    types.push_back(nodes_[c].sluice_type);
  }
  nodes_[0].sluice_type = LogicalType::Row(std::move(names), std::move(types));
  for (ColumnDescriptor& c : columns_) c.sluice_type = nodes_[c.node].sluice_type;
  return Status::OK();
}

Status ParquetSchema::Classify(int idx) {
  SchemaNode& n = nodes_[idx];
  const SchemaElement& e = n.element;
  const bool is_leaf = n.children.empty();
  const bool list_annot = e.logical_type.kind == Kind::LIST || e.converted_type == ConvertedType::LIST;
  const bool map_annot = e.logical_type.kind == Kind::MAP || e.converted_type == ConvertedType::MAP ||
                         e.converted_type == ConvertedType::MAP_KEY_VALUE;
  if (n.repeated() && (n.parent <= 0 || (nodes_[n.parent].role != SchemaNode::Role::kList &&
                                          nodes_[n.parent].role != SchemaNode::Role::kMap))) {
    // A repeated field outside a LIST/MAP group: a list of required values of its own type.
    n.role = SchemaNode::Role::kList;
    n.repeated_node = idx;
    n.list_element = idx;
    if (!is_leaf) {
      for (int c : n.children) RETURN_IF_ERROR(Classify(c));
    }
    return Status::OK();
  }
  if (is_leaf) {
    n.role = SchemaNode::Role::kPrimitive;
    return Status::OK();
  }
  if (list_annot && n.children.size() == 1 && nodes_[n.children[0]].repeated()) {
    n.role = SchemaNode::Role::kList;
    int rep = n.children[0];
    n.repeated_node = rep;
    SchemaNode& r = nodes_[rep];
    bool rep_is_element = r.children.empty() || r.children.size() > 1 || r.element.name == "array" ||
                          r.element.name == e.name + "_tuple";
    if (rep_is_element) {
      // 2-level list: the repeated field is the (required) element.
      n.list_element = rep;
      r.role = r.children.empty() ? SchemaNode::Role::kPrimitive : SchemaNode::Role::kStruct;
      for (int c : r.children) RETURN_IF_ERROR(Classify(c));
    } else {
      r.role = SchemaNode::Role::kStruct;  // the 'list' group itself; not a Sluice level
      n.list_element = r.children[0];
      RETURN_IF_ERROR(Classify(n.list_element));
    }
    return Status::OK();
  }
  if (map_annot && n.children.size() == 1 && nodes_[n.children[0]].repeated() &&
      !nodes_[n.children[0]].children.empty()) {
    int kv = n.children[0];
    SchemaNode& r = nodes_[kv];
    if (r.children.size() > 2) {
      n.unsupported = "map '" + e.name + "' has more than a key and a value";
    }
    n.role = SchemaNode::Role::kMap;
    n.repeated_node = kv;
    r.role = SchemaNode::Role::kStruct;
    n.map_key = r.children[0];
    n.map_value = r.children.size() > 1 ? r.children[1] : -1;
    for (int c : r.children) RETURN_IF_ERROR(Classify(c));
    return Status::OK();
  }
  n.role = SchemaNode::Role::kStruct;
  for (int c : n.children) RETURN_IF_ERROR(Classify(c));
  return Status::OK();
}

namespace {

// The Sluice type of a primitive element (nullability applied by the caller), or an explanation.
LogicalType PrimitiveType(const SchemaElement& e, std::string* unsupported) {
  const LogicalTypeAnnotation& lt = e.logical_type;
  const auto ct = e.converted_type;
  const bool decimal = lt.kind == Kind::DECIMAL || ct == ConvertedType::DECIMAL;
  const int precision = lt.kind == Kind::DECIMAL ? lt.decimal_precision : e.precision.value_or(0);
  const int scale = lt.kind == Kind::DECIMAL ? lt.decimal_scale : e.scale.value_or(0);
  if (decimal && (precision < 1 || precision > LogicalType::kMaxDecimalPrecision || scale < 0 || scale > precision)) {
    *unsupported = "DECIMAL(" + std::to_string(precision) + ", " + std::to_string(scale) + ") is out of range";
    return LogicalType::Null();
  }
  switch (*e.type) {
    case Type::BOOLEAN: return LogicalType::Boolean();
    case Type::INT32:
      if (decimal) return LogicalType::Decimal(precision, scale);
      if (lt.kind == Kind::DATE || ct == ConvertedType::DATE) return LogicalType::Date();
      if ((lt.kind == Kind::TIME && lt.unit == TimeUnit::MILLIS) || ct == ConvertedType::TIME_MILLIS) {
        return LogicalType::Time(3);
      }
      if (lt.kind == Kind::INTEGER || (ct >= ConvertedType::UINT_8 && ct <= ConvertedType::INT_64)) {
        int bits = lt.kind == Kind::INTEGER ? lt.bit_width : 0;
        bool is_signed = lt.kind == Kind::INTEGER ? lt.is_signed : ct >= ConvertedType::INT_8;
        if (lt.kind != Kind::INTEGER) {
          static constexpr int kBits[] = {8, 16, 32, 64, 8, 16, 32, 64};
          bits = kBits[static_cast<int>(*ct) - static_cast<int>(ConvertedType::UINT_8)];
        }
        if (bits == 8) return is_signed ? LogicalType::TinyInt() : LogicalType::SmallInt();
        if (bits == 16) return is_signed ? LogicalType::SmallInt() : LogicalType::Integer();
        return is_signed ? LogicalType::Integer() : LogicalType::BigInt();
      }
      return LogicalType::Integer();
    case Type::INT64:
      if (decimal) return LogicalType::Decimal(precision, scale);
      if (lt.kind == Kind::TIMESTAMP) {
        int p = TimePrecision(lt.unit);
        return lt.is_adjusted_to_utc ? LogicalType::TimestampLtz(p) : LogicalType::Timestamp(p);
      }
      if (ct == ConvertedType::TIMESTAMP_MILLIS) return LogicalType::TimestampLtz(3);
      if (ct == ConvertedType::TIMESTAMP_MICROS) return LogicalType::TimestampLtz(6);
      if (lt.kind == Kind::TIME) return LogicalType::Time(TimePrecision(lt.unit));
      if (ct == ConvertedType::TIME_MICROS) return LogicalType::Time(6);
      if ((lt.kind == Kind::INTEGER && !lt.is_signed) || ct == ConvertedType::UINT_64) {
        *unsupported = "unsigned 64-bit integers have no Sluice type";
        return LogicalType::Null();
      }
      return LogicalType::BigInt();
    case Type::INT96:
      // Legacy Impala/Spark timestamps (nanoseconds of the day + Julian day).
      return LogicalType::Timestamp(9);
    case Type::FLOAT: return LogicalType::Float();
    case Type::DOUBLE: return LogicalType::Double();
    case Type::BYTE_ARRAY:
      if (decimal) return LogicalType::Decimal(precision, scale);
      if (lt.kind == Kind::STRING || lt.kind == Kind::ENUM || lt.kind == Kind::JSON || ct == ConvertedType::UTF8 ||
          ct == ConvertedType::ENUM || ct == ConvertedType::JSON) {
        return LogicalType::String();
      }
      return LogicalType::Bytes();
    case Type::FIXED_LEN_BYTE_ARRAY:
      if (decimal) return LogicalType::Decimal(precision, scale);
      return LogicalType::Binary(e.type_length.value_or(0));
  }
  *unsupported = "unknown physical type";
  return LogicalType::Null();
}

}  // namespace

void ParquetSchema::DeriveType(int idx) {
  SchemaNode& n = nodes_[idx];
  const bool nullable = n.optional();
  auto unsupported_from = [&](int child) {
    if (child >= 0 && !nodes_[child].unsupported.empty() && n.unsupported.empty()) {
      n.unsupported = nodes_[child].unsupported;
    }
  };
  if (n.role == SchemaNode::Role::kList && n.list_element == idx) {
    // A bare repeated field: ARRAY<its type NOT NULL>, itself never null.
    LogicalType element;
    if (n.children.empty()) {
      element = PrimitiveType(n.element, &n.unsupported);
    } else {
      std::vector<std::string> names;
      std::vector<LogicalType> types;
      for (int c : n.children) {
        DeriveType(c);
        unsupported_from(c);
        names.push_back(nodes_[c].element.name);
        types.push_back(nodes_[c].sluice_type);
      }
      element = LogicalType::Row(std::move(names), std::move(types));
    }
    n.sluice_type = LogicalType::Array(element.WithNullable(false)).WithNullable(false);
    return;
  }
  switch (n.role) {
    case SchemaNode::Role::kPrimitive:
      n.sluice_type = WithNull(PrimitiveType(n.element, &n.unsupported), nullable);
      return;
    case SchemaNode::Role::kStruct: {
      std::vector<std::string> names;
      std::vector<LogicalType> types;
      for (int c : n.children) {
        DeriveType(c);
        unsupported_from(c);
        names.push_back(nodes_[c].element.name);
        types.push_back(nodes_[c].sluice_type);
      }
      n.sluice_type = WithNull(LogicalType::Row(std::move(names), std::move(types)), nullable);
      return;
    }
    case SchemaNode::Role::kList: {
      DeriveType(n.list_element);
      unsupported_from(n.list_element);
      LogicalType element = nodes_[n.list_element].sluice_type;
      if (n.list_element == n.repeated_node) element = element.WithNullable(false);
      n.sluice_type = WithNull(LogicalType::Array(element), nullable);
      return;
    }
    case SchemaNode::Role::kMap: {
      DeriveType(n.map_key);
      unsupported_from(n.map_key);
      if (n.map_value < 0) {
        if (n.unsupported.empty()) n.unsupported = "map '" + n.element.name + "' has no value field";
        n.sluice_type = WithNull(LogicalType::Map(nodes_[n.map_key].sluice_type, LogicalType::Null()), nullable);
        return;
      }
      DeriveType(n.map_value);
      unsupported_from(n.map_value);
      n.sluice_type =
          WithNull(LogicalType::Map(nodes_[n.map_key].sluice_type, nodes_[n.map_value].sluice_type), nullable);
      return;
    }
  }
}

std::vector<SchemaElement> ParquetSchema::ToElements() const {
  std::vector<SchemaElement> out;
  out.reserve(nodes_.size());
  for (const SchemaNode& n : nodes_) out.push_back(n.element);
  return out;
}

Schema ParquetSchema::ToSluiceSchema() const {
  Schema s;
  for (int c : nodes_[0].children) s.Add(nodes_[c].element.name, nodes_[c].sluice_type);
  return s;
}

int ParquetSchema::FindChild(int struct_node, std::optional<int32_t> field_id, std::string_view name) const {
  const SchemaNode& n = nodes_[struct_node];
  if (field_id) {
    for (int c : n.children) {
      if (nodes_[c].element.field_id == field_id) return c;
    }
    // Ids decide when the file has them: a file with ids but not this one lacks the field.
    for (int c : n.children) {
      if (nodes_[c].element.field_id) return -1;
    }
  }
  for (int c : n.children) {
    if (nodes_[c].element.name == name) return c;
  }
  return -1;
}

std::vector<int> ParquetSchema::LeavesUnder(int node) const {
  std::vector<int> out;
  std::function<void(int)> walk = [&](int i) {
    if (nodes_[i].leaf_index >= 0) out.push_back(nodes_[i].leaf_index);
    for (int c : nodes_[i].children) walk(c);
  };
  walk(node);
  return out;
}

}  // namespace sluice::parquet
