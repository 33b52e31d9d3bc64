#include "connectors/iceberg/iceberg_pruning.h"

#include <limits>
#include <optional>

#include "connectors/iceberg/partition_transforms.h"

namespace sluice {
namespace {

bool IsTimeTransform(TransformKind k) {
  return k == TransformKind::kYear || k == TransformKind::kMonth || k == TransformKind::kDay ||
         k == TransformKind::kHour;
}

// v + delta for an integer-like or decimal value; nullopt at the ends of the range.
std::optional<IcebergLiteral> Shift(const IcebergLiteral& v, int delta) {
  if (v.type().id() == IcebergTypeId::kDecimal) {
    return IcebergLiteral::Decimal(v.unscaled() + delta, v.type().precision(), v.type().scale());
  }
  int64_t x = v.int_value();
  if ((delta < 0 && x == std::numeric_limits<int64_t>::min()) || (delta > 0 && x == std::numeric_limits<int64_t>::max())) {
    return std::nullopt;
  }
  if (v.type().id() == IcebergTypeId::kInt &&
      ((delta < 0 && x == std::numeric_limits<int32_t>::min()) || (delta > 0 && x == std::numeric_limits<int32_t>::max()))) {
    return std::nullopt;
  }
  return IcebergLiteral::OfInt(v.type(), x + delta);
}

// The inclusive projection of one predicate on a source column through one partition field at
// `pos` (Iceberg's Transform.project); true when nothing can be said.
IcebergFilter ProjectLeaf(const IcebergFilter& p, const PartitionField& pf, int32_t pos, const IcebergType& source) {
  const TransformKind kind = pf.transform.kind;
  if (kind == TransformKind::kVoid || kind == TransformKind::kUnknown) return IcebergFilter::True();
  if (p.op == IcebergOp::kIsNull || p.op == IcebergOp::kNotNull) return IcebergFilter::Predicate(p.op, pos);
  if (kind == TransformKind::kIdentity) return IcebergFilter::Predicate(p.op, pos, p.literals);
  auto apply = [&](const std::optional<IcebergLiteral>& v) -> std::optional<IcebergLiteral> {
    if (!v) return std::nullopt;
    auto r = ApplyTransform(pf.transform, source, v);
    if (!r.ok() || !r->has_value()) return std::nullopt;
    return **r;
  };
  auto set = [&](IcebergOp op) -> IcebergFilter {
    std::vector<IcebergLiteral> out;
    for (const auto& l : p.literals) {
      auto t = apply(l);
      if (!t) return IcebergFilter::True();
      out.push_back(*t);
    }
    return IcebergFilter::Predicate(op, pos, std::move(out));
  };
  if (kind == TransformKind::kBucket) {
    return p.op == IcebergOp::kEq || p.op == IcebergOp::kIn ? set(p.op) : IcebergFilter::True();
  }
  const bool text = source.id() == IcebergTypeId::kString;
  if (kind == TransformKind::kTruncate && source.id() == IcebergTypeId::kBinary) return IcebergFilter::True();
  const IcebergLiteral* lit = p.literals.empty() ? nullptr : &p.literals[0];
  std::optional<IcebergFilter> out;
  switch (p.op) {
    case IcebergOp::kLt:
    case IcebergOp::kLtEq: {
      auto bound = text || p.op == IcebergOp::kLtEq ? std::optional<IcebergLiteral>(*lit) : Shift(*lit, -1);
      if (auto t = apply(bound)) out = IcebergFilter::Predicate(IcebergOp::kLtEq, pos, {*t});
      break;
    }
    case IcebergOp::kGt:
    case IcebergOp::kGtEq: {
      auto bound = text || p.op == IcebergOp::kGtEq ? std::optional<IcebergLiteral>(*lit) : Shift(*lit, 1);
      if (auto t = apply(bound)) out = IcebergFilter::Predicate(IcebergOp::kGtEq, pos, {*t});
      break;
    }
    case IcebergOp::kEq:
    case IcebergOp::kIn: out = set(p.op); break;
    case IcebergOp::kStartsWith:
      if (text) out = set(IcebergOp::kStartsWith);
      break;
    default: break;
  }
  if (!out) return IcebergFilter::True();
  if (IsTimeTransform(kind) && out->IsPredicate() && out->op != IcebergOp::kGtEq) {
    // Widen by one where an older writer may have rounded a pre-1970 value toward zero.
    std::vector<IcebergLiteral> widened;
    for (const auto& v : out->literals) {
      widened.push_back(v);
      if (v.int_value() < 0) widened.push_back(IcebergLiteral::OfInt(v.type(), v.int_value() + 1));
    }
    if (widened.size() != out->literals.size()) {
      if (out->op == IcebergOp::kLtEq) {
        out->literals = {widened.back()};
      } else {
        out->op = IcebergOp::kIn;
        out->literals = std::move(widened);
      }
    }
  }
  return *out;
}

IcebergFilter ProjectFilter(const IcebergFilter& f, const PartitionSpec& spec, const IcebergSchema& schema) {
  if (f.op == IcebergOp::kAnd || f.op == IcebergOp::kOr) {
    std::vector<IcebergFilter> children;
    for (const auto& c : f.children) children.push_back(ProjectFilter(c, spec, schema));
    return f.op == IcebergOp::kAnd ? IcebergFilter::And(std::move(children)) : IcebergFilter::Or(std::move(children));
  }
  if (!f.IsPredicate()) return f;
  const IcebergField* source = schema.FindField(f.field);
  if (source == nullptr) return IcebergFilter::True();
  std::vector<IcebergFilter> parts;
  for (size_t i = 0; i < spec.fields().size(); ++i) {
    const PartitionField& pf = spec.fields()[i];
    if (pf.source_id == f.field) parts.push_back(ProjectLeaf(f, pf, static_cast<int32_t>(i), source->type));
  }
  return IcebergFilter::And(std::move(parts));
}

bool StartsWith(const std::string& s, const std::string& prefix) { return s.compare(0, prefix.size(), prefix) == 0; }

// One predicate against exact values (a partition tuple's): true unless no row can match.
bool ValueMightMatch(const IcebergFilter& p, const std::optional<IcebergLiteral>& v) {
  if (p.op == IcebergOp::kIsNull) return !v;
  if (p.op == IcebergOp::kNotNull) return v.has_value();
  if (!v) return false;  // a comparison with NULL is never true
  auto cmp = [&](const IcebergLiteral& lit) { return CompareIcebergValues(*v, lit); };
  switch (p.op) {
    case IcebergOp::kIn:
    case IcebergOp::kNotIn: {
      bool any_equal = false, unknown = false;
      for (const auto& l : p.literals) {
        auto c = cmp(l);
        if (!c) unknown = true;
        else if (*c == 0) any_equal = true;
      }
      return p.op == IcebergOp::kIn ? any_equal || unknown : !any_equal;
    }
    case IcebergOp::kStartsWith: return StartsWith(v->bytes(), p.literals[0].bytes());
    default: break;
  }
  auto c = cmp(p.literals[0]);
  if (!c) return true;
  switch (p.op) {
    case IcebergOp::kLt: return *c < 0;
    case IcebergOp::kLtEq: return *c <= 0;
    case IcebergOp::kGt: return *c > 0;
    case IcebergOp::kGtEq: return *c >= 0;
    case IcebergOp::kEq: return *c == 0;
    case IcebergOp::kNotEq: return *c != 0;
    default: return true;
  }
}

// What is known of one column over a set of rows (a data file's metrics, a manifest's partition
// summary).
struct RangeStats {
  bool may_have_null = true;
  bool all_null = false;
  bool all_nan = false;
  std::optional<IcebergLiteral> lower, upper;
};

// One predicate against a range: false only when no value in it can match.
bool RangeMightMatch(const IcebergFilter& p, const RangeStats& s) {
  switch (p.op) {
    case IcebergOp::kIsNull: return s.may_have_null;
    case IcebergOp::kNotNull: return !s.all_null;
    case IcebergOp::kNotEq:
    case IcebergOp::kNotIn: return true;
    default: break;
  }
  if (s.all_null || s.all_nan) return false;
  // Definitely above (below) the literal: a bound that is NaN or missing says nothing.
  auto lower_above = [&](const IcebergLiteral& l, bool or_equal) {
    if (!s.lower) return false;
    auto c = CompareIcebergValues(*s.lower, l);
    return c && (or_equal ? *c >= 0 : *c > 0);
  };
  auto upper_below = [&](const IcebergLiteral& l, bool or_equal) {
    if (!s.upper) return false;
    auto c = CompareIcebergValues(*s.upper, l);
    return c && (or_equal ? *c <= 0 : *c < 0);
  };
  switch (p.op) {
    case IcebergOp::kLt: return !lower_above(p.literals[0], true);
    case IcebergOp::kLtEq: return !lower_above(p.literals[0], false);
    case IcebergOp::kGt: return !upper_below(p.literals[0], true);
    case IcebergOp::kGtEq: return !upper_below(p.literals[0], false);
    case IcebergOp::kEq: return !lower_above(p.literals[0], false) && !upper_below(p.literals[0], false);
    case IcebergOp::kIn:
      for (const auto& l : p.literals) {
        if (!lower_above(l, false) && !upper_below(l, false)) return true;
      }
      return false;
    case IcebergOp::kStartsWith: {
      const std::string& prefix = p.literals[0].bytes();
      if (s.lower && s.lower->bytes().substr(0, prefix.size()) > prefix) return false;
      if (s.upper && s.upper->bytes().substr(0, prefix.size()) < prefix) return false;
      return true;
    }
    default: return true;
  }
}

template <typename Leaf>
bool Evaluate(const IcebergFilter& f, const Leaf& leaf) {
  switch (f.op) {
    case IcebergOp::kTrue: return true;
    case IcebergOp::kFalse: return false;
    case IcebergOp::kAnd:
      for (const auto& c : f.children) {
        if (!Evaluate(c, leaf)) return false;
      }
      return true;
    case IcebergOp::kOr:
      for (const auto& c : f.children) {
        if (Evaluate(c, leaf)) return true;
      }
      return false;
    default: return leaf(f);
  }
}

std::optional<IcebergLiteral> Bound(const IcebergType& type, const std::optional<std::string>& bytes) {
  if (!bytes) return std::nullopt;
  auto v = IcebergLiteral::FromBytes(type, *bytes);
  if (!v.ok()) return std::nullopt;
  return *v;
}

template <typename T>
std::optional<T> Lookup(const std::map<int32_t, T>& m, int32_t key) {
  auto it = m.find(key);
  if (it == m.end()) return std::nullopt;
  return it->second;
}

// A Parquet statistic (PLAIN encoding) as a value of the column's Iceberg type, where the two
// encodings agree; nullopt otherwise.
std::optional<IcebergLiteral> ParquetBound(const IcebergType& type, const parquet::SchemaElement& leaf,
                                           const std::optional<std::string>& bytes) {
  if (!bytes || !leaf.type) return std::nullopt;
  using PT = parquet::Type;
  const PT pt = *leaf.type;
  bool ok = false;
  switch (type.id()) {
    case IcebergTypeId::kBoolean: ok = pt == PT::BOOLEAN; break;
    case IcebergTypeId::kInt:
    case IcebergTypeId::kDate: ok = pt == PT::INT32; break;
    case IcebergTypeId::kLong: ok = pt == PT::INT32 || pt == PT::INT64; break;
    case IcebergTypeId::kFloat: ok = pt == PT::FLOAT; break;
    case IcebergTypeId::kDouble: ok = pt == PT::FLOAT || pt == PT::DOUBLE; break;
    case IcebergTypeId::kString: ok = pt == PT::BYTE_ARRAY; break;
    case IcebergTypeId::kTimestamp:
    case IcebergTypeId::kTimestampTz:
    case IcebergTypeId::kTimestampNs:
    case IcebergTypeId::kTimestampTzNs: {
      const bool ns = type.id() == IcebergTypeId::kTimestampNs || type.id() == IcebergTypeId::kTimestampTzNs;
      const auto& lt = leaf.logical_type;
      if (lt.kind == parquet::LogicalTypeAnnotation::Kind::TIMESTAMP) {
        ok = lt.unit == (ns ? parquet::TimeUnit::NANOS : parquet::TimeUnit::MICROS);
      } else {
        ok = !ns && leaf.converted_type == parquet::ConvertedType::TIMESTAMP_MICROS;
      }
      ok = ok && pt == PT::INT64;
      break;
    }
    default: break;
  }
  if (!ok) return std::nullopt;
  auto v = IcebergLiteral::FromBytes(type, *bytes);
  if (!v.ok()) return std::nullopt;
  return *v;
}

}  // namespace

std::vector<int> IcebergRowGroupsToRead(const parquet::FileMetaData& metadata, const IcebergFilter& filter,
                                        const IcebergSchema& schema) {
  // Leaf column index and schema element of each top-level primitive column with a field id.
  std::map<int32_t, std::pair<size_t, const parquet::SchemaElement*>> leaves;
  size_t leaf = 0;
  std::vector<int32_t> remaining;  // children left per open group, the root first
  for (size_t i = 0; i < metadata.schema.size(); ++i) {
    const parquet::SchemaElement& e = metadata.schema[i];
    const size_t depth = remaining.size();
    if (!remaining.empty()) remaining.back()--;
    if (e.num_children && *e.num_children > 0) {
      remaining.push_back(*e.num_children);
    } else if (i > 0) {
      if (depth == 1 && e.field_id) leaves[*e.field_id] = {leaf, &e};
      leaf++;
    }
    while (!remaining.empty() && remaining.back() == 0) remaining.pop_back();
  }
  std::vector<int> out;
  for (size_t g = 0; g < metadata.row_groups.size(); ++g) {
    const parquet::RowGroup& rg = metadata.row_groups[g];
    bool might = rg.num_rows != 0 && Evaluate(filter, [&](const IcebergFilter& p) {
      auto it = leaves.find(p.field);
      const IcebergField* field = schema.FindField(p.field);
      if (it == leaves.end() || field == nullptr || it->second.first >= rg.columns.size()) return true;
      const auto& chunk = rg.columns[it->second.first];
      if (!chunk.meta_data || !chunk.meta_data->statistics) return true;
      const parquet::Statistics& st = *chunk.meta_data->statistics;
      RangeStats s;
      s.may_have_null = !st.null_count || *st.null_count > 0;
      s.all_null = st.null_count && *st.null_count == chunk.meta_data->num_values;
      // min_value/max_value only: the legacy min/max of strings were written in signed byte order.
      s.lower = ParquetBound(field->type, *it->second.second, st.min_value);
      s.upper = ParquetBound(field->type, *it->second.second, st.max_value);
      return RangeMightMatch(p, s);
    });
    if (might) out.push_back(static_cast<int>(g));
  }
  return out;
}

std::vector<std::pair<std::string, std::string>> IcebergScanMetrics::SummaryFields() const {
  return {{"result-data-files", std::to_string(result_data_files)},
          {"skipped-data-files", std::to_string(skipped_data_files)},
          {"scanned-data-manifests", std::to_string(scanned_data_manifests)},
          {"skipped-data-manifests", std::to_string(skipped_data_manifests)}};
}

IcebergFilter IcebergScanPruner::Project(const PartitionSpec& spec) const {
  return ProjectFilter(filter_, spec, metadata_.CurrentSchema());
}

const IcebergScanPruner::SpecFilter& IcebergScanPruner::ForSpec(int32_t spec_id) {
  auto it = specs_.find(spec_id);
  if (it != specs_.end()) return it->second;
  SpecFilter sf;
  const PartitionSpec* spec = metadata_.SpecById(spec_id);
  const IcebergSchema& schema = metadata_.CurrentSchema();
  if (spec != nullptr) {
    sf.known = true;
    for (const PartitionField& pf : spec->fields()) {
      const IcebergField* source = schema.FindField(pf.source_id);
      auto type = source ? pf.transform.ResultType(source->type) : Result<IcebergType>(Status::NotFound("source"));
      if (!type.ok()) {
        sf.known = false;
        break;
      }
      sf.types.push_back(*type);
    }
    if (sf.known) sf.filter = Project(*spec);
  }
  return specs_.emplace(spec_id, std::move(sf)).first->second;
}

bool IcebergScanPruner::ManifestMightMatch(const ManifestFile& manifest) {
  if (manifest.content != ManifestContent::kData || !manifest.partitions) return true;
  const SpecFilter& sf = ForSpec(manifest.partition_spec_id);
  if (!sf.known || manifest.partitions->size() != sf.types.size()) return true;
  return Evaluate(sf.filter, [&](const IcebergFilter& p) {
    const PartitionFieldSummary& summary = (*manifest.partitions)[static_cast<size_t>(p.field)];
    const IcebergType& type = sf.types[static_cast<size_t>(p.field)];
    RangeStats s;
    s.may_have_null = summary.contains_null;
    s.lower = Bound(type, summary.lower_bound);
    s.upper = Bound(type, summary.upper_bound);
    // No bound while nulls are present (and no NaN): every value is null.
    s.all_null = summary.contains_null && !summary.lower_bound && !summary.upper_bound && summary.contains_nan != true;
    return RangeMightMatch(p, s);
  });
}

bool IcebergScanPruner::FileMightMatch(const DataFile& file, int32_t spec_id) {
  if (file.record_count == 0) return false;
  const SpecFilter& sf = ForSpec(spec_id);
  if (sf.known && file.partition.size() == sf.types.size()) {
    bool partition_matches = Evaluate(sf.filter, [&](const IcebergFilter& p) {
      return ValueMightMatch(p, file.partition[static_cast<size_t>(p.field)]);
    });
    if (!partition_matches) return false;
  }
  if (file.record_count < 0) return true;  // v1 files written by a buggy writer
  const IcebergSchema& schema = metadata_.CurrentSchema();
  return Evaluate(filter_, [&](const IcebergFilter& p) {
    const IcebergField* field = schema.FindField(p.field);
    if (field == nullptr) return true;
    auto values = Lookup(file.value_counts, p.field);
    auto nulls = Lookup(file.null_value_counts, p.field);
    auto nans = Lookup(file.nan_value_counts, p.field);
    RangeStats s;
    s.may_have_null = !nulls || *nulls > 0;
    s.all_null = values && nulls && *values == *nulls;
    s.all_nan = values && nans && *values == *nans;
    s.lower = Bound(field->type, Lookup(file.lower_bounds, p.field));
    s.upper = Bound(field->type, Lookup(file.upper_bounds, p.field));
    return RangeMightMatch(p, s);
  });
}

}  // namespace sluice
