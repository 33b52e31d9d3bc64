#include "connectors/iceberg/partition_spec.h"

#include <algorithm>
#include <charconv>
#include <set>

namespace sluice {

namespace {

std::optional<int32_t> BracketParam(std::string_view text, std::string_view prefix) {
  if (!text.starts_with(prefix) || !text.ends_with("]")) return std::nullopt;
  std::string_view inner = text.substr(prefix.size(), text.size() - prefix.size() - 1);
  int32_t v = 0;
  auto [p, ec] = std::from_chars(inner.data(), inner.data() + inner.size(), v);
  if (ec != std::errc() || p != inner.data() + inner.size()) return std::nullopt;
  return v;
}

bool IsTimestampLike(IcebergTypeId id) {
  return id == IcebergTypeId::kTimestamp || id == IcebergTypeId::kTimestampTz || id == IcebergTypeId::kTimestampNs ||
         id == IcebergTypeId::kTimestampTzNs;
}

}  // namespace

Result<Transform> Transform::Parse(std::string_view text) {
  if (text == "identity") return Identity();
  if (text == "year") return Year();
  if (text == "month") return Month();
  if (text == "day") return Day();
  if (text == "hour") return Hour();
  if (text == "void") return Void();
  for (auto [prefix, kind] : {std::pair<std::string_view, TransformKind>{"bucket[", TransformKind::kBucket},
                              {"truncate[", TransformKind::kTruncate}}) {
    if (text.starts_with(prefix)) {
      auto param = BracketParam(text, prefix);
      if (!param || *param <= 0) {
        return Status::InvalidArgument("invalid Iceberg transform '" + std::string(text) +
                                       "': the parameter must be a positive integer");
      }
      return Transform{kind, *param, {}};
    }
  }
  return Transform{TransformKind::kUnknown, 0, std::string(text)};
}

std::string Transform::ToString() const {
  switch (kind) {
    case TransformKind::kIdentity: return "identity";
    case TransformKind::kBucket: return "bucket[" + std::to_string(param) + "]";
    case TransformKind::kTruncate: return "truncate[" + std::to_string(param) + "]";
    case TransformKind::kYear: return "year";
    case TransformKind::kMonth: return "month";
    case TransformKind::kDay: return "day";
    case TransformKind::kHour: return "hour";
    case TransformKind::kVoid: return "void";
    case TransformKind::kUnknown: return unknown_text;
  }
  return unknown_text;
}

Result<IcebergType> Transform::ResultType(const IcebergType& source) const {
  IcebergTypeId id = source.id();
  auto refuse = [&]() {
    return Status::InvalidArgument("Iceberg transform " + ToString() + " cannot be applied to a column of type " +
                                   source.ToString());
  };
  if (kind != TransformKind::kVoid && !source.IsPrimitive()) return refuse();
  switch (kind) {
    case TransformKind::kIdentity:
      return source;
    case TransformKind::kVoid:
      return source;
    case TransformKind::kBucket:
      if (id == IcebergTypeId::kBoolean || id == IcebergTypeId::kFloat || id == IcebergTypeId::kDouble) return refuse();
      return IcebergType::Primitive(IcebergTypeId::kInt);
    case TransformKind::kTruncate:
      if (id != IcebergTypeId::kInt && id != IcebergTypeId::kLong && id != IcebergTypeId::kDecimal &&
          id != IcebergTypeId::kString && id != IcebergTypeId::kBinary) {
        return refuse();
      }
      return source;
    case TransformKind::kYear:
    case TransformKind::kMonth:
    case TransformKind::kDay:
      if (id != IcebergTypeId::kDate && !IsTimestampLike(id)) return refuse();
      return IcebergType::Primitive(kind == TransformKind::kDay ? IcebergTypeId::kDate : IcebergTypeId::kInt);
    case TransformKind::kHour:
      if (!IsTimestampLike(id)) return refuse();
      return IcebergType::Primitive(IcebergTypeId::kInt);
    case TransformKind::kUnknown:
      return Status::NotSupported("Iceberg transform '" + unknown_text + "' is not supported by Sluice");
  }
  return refuse();
}

bool Transform::PreservesOrder() const {
  return kind != TransformKind::kBucket && kind != TransformKind::kVoid && kind != TransformKind::kUnknown;
}

bool PartitionSpec::IsUnpartitioned() const {
  return std::all_of(fields_.begin(), fields_.end(),
                     [](const PartitionField& f) { return f.transform.kind == TransformKind::kVoid; });
}

int32_t PartitionSpec::LastFieldId() const {
  int32_t last = kFirstFieldId - 1;
  for (const PartitionField& f : fields_) last = std::max(last, f.field_id);
  return last;
}

Result<IcebergType> PartitionSpec::PartitionType(const IcebergSchema& schema) const {
  std::vector<IcebergField> fields;
  for (const PartitionField& f : fields_) {
    const IcebergField* source = schema.FindField(f.source_id);
    if (source == nullptr) {
      return Status::InvalidArgument("partition field '" + f.name + "' refers to source column id " +
                                     std::to_string(f.source_id) + ", which is not in the schema");
    }
    auto type = f.transform.ResultType(source->type);
    if (!type.ok()) return type.status().WithContext("partition field '" + f.name + "'");
    fields.push_back({f.field_id, f.name, false, std::move(type).value()});
  }
  return IcebergType::Struct(std::move(fields));
}

std::string DefaultPartitionFieldName(std::string_view source_name, const Transform& transform) {
  std::string name(source_name);
  switch (transform.kind) {
    case TransformKind::kIdentity: return name;
    case TransformKind::kBucket: return name + "_bucket";
    case TransformKind::kTruncate: return name + "_trunc";
    case TransformKind::kYear: return name + "_year";
    case TransformKind::kMonth: return name + "_month";
    case TransformKind::kDay: return name + "_day";
    case TransformKind::kHour: return name + "_hour";
    case TransformKind::kVoid: return name + "_null";
    case TransformKind::kUnknown: return name + "_" + transform.unknown_text;
  }
  return name;
}

Result<PartitionSpec> BuildPartitionSpec(const IcebergSchema& schema, const std::vector<PartitionTerm>& terms,
                                         int32_t spec_id, int32_t first_field_id) {
  std::vector<PartitionField> fields;
  std::set<std::string> names;
  std::set<std::pair<int32_t, std::string>> seen;
  int32_t next_id = first_field_id;
  for (const PartitionTerm& term : terms) {
    const IcebergField* source = schema.FindField(term.column);
    if (source == nullptr) {
      return Status::InvalidArgument("partition column '" + term.column + "' is not a column of the table");
    }
    if (!source->type.IsPrimitive()) {
      return Status::InvalidArgument("partition column '" + term.column + "' has type " + source->type.ToString() +
                                     "; Iceberg partitions only by primitive columns");
    }
    auto type = term.transform.ResultType(source->type);
    if (!type.ok()) return type.status().WithContext("partition column '" + term.column + "'");
    std::string name = term.name.empty() ? DefaultPartitionFieldName(term.column, term.transform) : term.name;
    // As Java's PartitionSpec.Builder: a partition name may only repeat a column's name when it
    // is that column's identity partition.
    const IcebergField* same_name = schema.FindField(name);
    if (same_name != nullptr && !(term.transform.kind == TransformKind::kIdentity && same_name->id == source->id)) {
      return Status::InvalidArgument("Cannot create partition from name that exists in schema: " + name);
    }
    if (!names.insert(name).second) {
      return Status::InvalidArgument("partition field name '" + name + "' is used twice");
    }
    if (!seen.insert({source->id, term.transform.ToString()}).second) {
      return Status::InvalidArgument("partition column '" + term.column + "' is partitioned by " +
                                     term.transform.ToString() + " twice");
    }
    fields.push_back({source->id, next_id++, std::move(name), term.transform});
  }
  return PartitionSpec(spec_id, std::move(fields));
}

}  // namespace sluice
