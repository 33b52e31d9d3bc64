#include "formats/avro/avro_resolve.h"

#include <simdjson.h>

#include <map>

namespace sluice {

namespace {

bool IsPrimitive(AvroType t) { return t <= AvroType::kString; }

// Whether data of writer type `w` can be read as reader type `r` (not looking inside).
bool Matches(const AvroNode& w, const AvroNode& r) {
  if (w.type == r.type) return w.type != AvroType::kFixed || w.fixed_size == r.fixed_size;
  switch (w.type) {
    case AvroType::kInt: return r.type == AvroType::kLong || r.type == AvroType::kFloat || r.type == AvroType::kDouble;
    case AvroType::kLong: return r.type == AvroType::kFloat || r.type == AvroType::kDouble;
    case AvroType::kFloat: return r.type == AvroType::kDouble;
    case AvroType::kString: return r.type == AvroType::kBytes;
    case AvroType::kBytes: return r.type == AvroType::kString;
    default: return false;
  }
}

// The reader union branch for writer type `w`: an exact type match first, then a promotion.
int PickBranch(const AvroNode& w, const AvroNode& reader_union) {
  for (size_t i = 0; i < reader_union.branches.size(); ++i) {
    if (reader_union.branches[i]->type == w.type && Matches(w, *reader_union.branches[i])) return static_cast<int>(i);
  }
  for (size_t i = 0; i < reader_union.branches.size(); ++i) {
    if (Matches(w, *reader_union.branches[i])) return static_cast<int>(i);
  }
  return -1;
}

AvroValue Promote(AvroValue v, AvroType to) {
  using Kind = AvroValue::Kind;
  switch (to) {
    case AvroType::kLong: return v.kind() == Kind::kInt ? AvroValue::Long(v.integer()) : v;
    case AvroType::kFloat:
      return v.kind() == Kind::kFloat ? v : AvroValue::Float(static_cast<float>(v.integer()));
    case AvroType::kDouble:
      if (v.kind() == Kind::kDouble) return v;
      return AvroValue::Double(v.kind() == Kind::kFloat ? double{v.float_value()} : static_cast<double>(v.integer()));
    case AvroType::kString: return v.kind() == Kind::kString ? v : AvroValue::String(v.bytes());
    case AvroType::kBytes: return v.kind() == Kind::kBytes ? v : AvroValue::Bytes(v.bytes());
    default: return v;
  }
}

Result<AvroValue> DefaultFromJson(const AvroNode& type, simdjson::dom::element e, int depth) {
  using ET = simdjson::dom::element_type;
  const auto bad = [&]() {
    return Status::InvalidArgument("Avro default " + simdjson::minify(e) + " does not fit type " +
                                   std::string(AvroTypeName(type.type)));
  };
  if (depth > kMaxAvroDepth) return bad();
  switch (type.type) {
    case AvroType::kNull: return e.is_null() ? Result<AvroValue>(AvroValue::Null()) : bad();
    case AvroType::kBoolean: return e.is_bool() ? Result<AvroValue>(AvroValue::Boolean(e.get_bool().value())) : bad();
    case AvroType::kInt:
    case AvroType::kLong: {
      int64_t v;
      if (e.get(v) != simdjson::SUCCESS) return bad();
      if (type.type == AvroType::kInt && (v < INT32_MIN || v > INT32_MAX)) return bad();
      return type.type == AvroType::kInt ? AvroValue::Int(static_cast<int32_t>(v)) : AvroValue::Long(v);
    }
    case AvroType::kFloat:
    case AvroType::kDouble: {
      double v;
      if (e.get(v) != simdjson::SUCCESS) return bad();
      return type.type == AvroType::kFloat ? AvroValue::Float(static_cast<float>(v)) : AvroValue::Double(v);
    }
    case AvroType::kBytes:
    case AvroType::kString:
    case AvroType::kFixed:
    case AvroType::kEnum: {
      std::string_view s;
      if (e.get(s) != simdjson::SUCCESS) return bad();
      if (type.type == AvroType::kString) return AvroValue::String(std::string(s));
      if (type.type == AvroType::kEnum) {
        for (size_t i = 0; i < type.symbols.size(); ++i) {
          if (type.symbols[i] == s) return AvroValue::Enum(static_cast<int32_t>(i));
        }
        return bad();
      }
      // JSON defaults of bytes and fixed are strings of code points 0-255, one per byte.
      std::string bytes;
      for (size_t i = 0; i < s.size(); ++i) {
        const auto c = static_cast<unsigned char>(s[i]);
        if (c < 0x80) {
          bytes.push_back(static_cast<char>(c));
        } else if ((c & 0xe0) == 0xc0 && i + 1 < s.size()) {
          bytes.push_back(static_cast<char>(((c & 0x1f) << 6) | (static_cast<unsigned char>(s[++i]) & 0x3f)));
        } else {
          return bad();
        }
      }
      if (type.type == AvroType::kFixed && bytes.size() != static_cast<size_t>(type.fixed_size)) return bad();
      return type.type == AvroType::kBytes ? AvroValue::Bytes(std::move(bytes)) : AvroValue::Fixed(std::move(bytes));
    }
    case AvroType::kUnion: return DefaultFromJson(*type.branches[0], e, depth + 1);
    case AvroType::kArray: {
      if (e.type() != ET::ARRAY) return bad();
      std::vector<AvroValue> items;
      const simdjson::dom::array arr = e.get_array().value();
      for (simdjson::dom::element item : arr) {
        ASSIGN_OR_RETURN(AvroValue v, DefaultFromJson(*type.items, item, depth + 1));
        items.push_back(std::move(v));
      }
      return AvroValue::Array(std::move(items));
    }
    case AvroType::kMap: {
      if (e.type() != ET::OBJECT) return bad();
      AvroValue::Entries entries;
      const simdjson::dom::object obj = e.get_object().value();
      for (auto [key, item] : obj) {
        ASSIGN_OR_RETURN(AvroValue v, DefaultFromJson(*type.items, item, depth + 1));
        entries.emplace_back(std::string(key), std::move(v));
      }
      return AvroValue::Map(std::move(entries));
    }
    case AvroType::kRecord: {
      if (e.type() != ET::OBJECT) return bad();
      std::vector<AvroValue> fields;
      for (const AvroField& f : type.fields) {
        simdjson::dom::element fe;
        if (e.at_key(f.name).get(fe) == simdjson::SUCCESS) {
          ASSIGN_OR_RETURN(AvroValue v, DefaultFromJson(*f.type, fe, depth + 1));
          fields.push_back(std::move(v));
        } else if (f.default_json) {
          ASSIGN_OR_RETURN(AvroValue v, AvroDefaultValue(*f.type, *f.default_json));
          fields.push_back(std::move(v));
        } else {
          return bad();
        }
      }
      return AvroValue::Record(std::move(fields));
    }
  }
  return bad();
}

}  // namespace

Result<AvroValue> AvroDefaultValue(const AvroNode& type, std::string_view default_json) {
  simdjson::dom::parser parser;
  simdjson::padded_string padded(default_json);
  simdjson::dom::element e;
  if (parser.parse(padded).get(e) != simdjson::SUCCESS) {
    return Status::InvalidArgument("Avro default is not JSON: " + std::string(default_json));
  }
  return DefaultFromJson(type, e, 0);
}

// Builds the steps of a plan, one per (writer node, reader node) pair, so a recursive schema makes
// a cyclic plan instead of an endless one.
class AvroPlanBuilder {
 public:
  explicit AvroPlanBuilder(AvroReadPlan* plan) : plan_(plan) {}

  Result<int> Build(const AvroNode& w, const AvroNode& r, const std::string& path) {
    const auto key = std::make_pair(&w, &r);
    if (auto it = memo_.find(key); it != memo_.end()) return it->second;
    const int index = static_cast<int>(plan_->steps_.size());
    plan_->steps_.emplace_back();
    memo_.emplace(key, index);
    AvroReadPlan::Step step;
    step.writer = &w;
    step.reader = &r;
    RETURN_IF_ERROR(Fill(w, r, path, &step));
    plan_->steps_[index] = std::move(step);
    return index;
  }

 private:
  using Op = AvroReadPlan::Step::Op;

  Status Fill(const AvroNode& w, const AvroNode& r, const std::string& path, AvroReadPlan::Step* step) {
    if (w.type == AvroType::kUnion) {
      step->op = Op::kWriterUnion;
      for (const AvroNode* branch : w.branches) {
        const AvroNode* target = &r;
        if (r.type == AvroType::kUnion) {
          const int b = PickBranch(*branch, r);
          target = b < 0 ? nullptr : r.branches[b];
        } else if (!Matches(*branch, r)) {
          target = nullptr;
        }
        int child = -1;
        if (target != nullptr) {
          ASSIGN_OR_RETURN(child, Build(*branch, *target, path));
        }
        step->children.push_back(child);
      }
      return Status::OK();
    }
    if (r.type == AvroType::kUnion) {
      const int b = PickBranch(w, r);
      if (b < 0) return Incompatible(w, r, path);
      return Fill(w, *r.branches[b], path, step);
    }
    if (!Matches(w, r)) return Incompatible(w, r, path);
    if (IsPrimitive(w.type) || w.type == AvroType::kFixed) {
      step->op = Op::kPrimitive;
      return Status::OK();
    }
    switch (w.type) {
      case AvroType::kEnum: return FillEnum(w, r, path, step);
      case AvroType::kArray:
      case AvroType::kMap: {
        step->op = w.type == AvroType::kArray ? Op::kArray : Op::kMap;
        ASSIGN_OR_RETURN(int child, Build(*w.items, *r.items, path + "[]"));
        step->children.push_back(child);
        return Status::OK();
      }
      case AvroType::kRecord: return FillRecord(w, r, path, step);
      default: return Incompatible(w, r, path);
    }
  }

  static Status FillEnum(const AvroNode& w, const AvroNode& r, const std::string& path, AvroReadPlan::Step* step) {
    step->op = Op::kEnum;
    int fallback = -1;
    for (size_t i = 0; i < r.symbols.size(); ++i) {
      if (r.enum_default && r.symbols[i] == *r.enum_default) fallback = static_cast<int>(i);
    }
    for (const std::string& s : w.symbols) {
      int target = fallback;
      for (size_t i = 0; i < r.symbols.size(); ++i) {
        if (r.symbols[i] == s) target = static_cast<int>(i);
      }
      step->enum_map.push_back(target);
    }
    return Status::OK();
  }

  static int FindReaderField(const AvroNode& r, const AvroField& wf) {
    for (size_t i = 0; i < r.fields.size(); ++i) {
      const AvroField& rf = r.fields[i];
      if (rf.name == wf.name) return static_cast<int>(i);
    }
    for (size_t i = 0; i < r.fields.size(); ++i) {
      for (const std::string& alias : r.fields[i].aliases) {
        if (alias == wf.name) return static_cast<int>(i);
      }
    }
    return -1;
  }

  Status FillRecord(const AvroNode& w, const AvroNode& r, const std::string& path, AvroReadPlan::Step* step) {
    step->op = Op::kRecord;
    std::vector<bool> filled(r.fields.size(), false);
    for (const AvroField& wf : w.fields) {
      const int target = FindReaderField(r, wf);
      int child = -1;
      if (target >= 0 && !filled[target]) {
        filled[target] = true;
        ASSIGN_OR_RETURN(child, Build(*wf.type, *r.fields[target].type, path + "." + wf.name));
        step->field_target.push_back(target);
      } else {
        step->field_target.push_back(-1);
      }
      step->children.push_back(child);
    }
    for (size_t i = 0; i < r.fields.size(); ++i) {
      if (filled[i]) continue;
      const AvroField& rf = r.fields[i];
      if (rf.default_json) {
        auto v = AvroDefaultValue(*rf.type, *rf.default_json);
        if (!v.ok()) return v.status().WithContext("field " + path + "." + rf.name);
        step->defaults.emplace_back(static_cast<int>(i), std::move(v).value());
      } else if (rf.type->type == AvroType::kUnion && rf.type->NullBranch() >= 0) {
        step->defaults.emplace_back(static_cast<int>(i), AvroValue::Null());
      } else {
        return Status::InvalidArgument("Avro field " + path + "." + rf.name +
                                       " is missing in the writer's schema and has no default");
      }
    }
    return Status::OK();
  }

  static Status Incompatible(const AvroNode& w, const AvroNode& r, const std::string& path) {
    return Status::InvalidArgument("Avro data of type " + std::string(AvroTypeName(w.type)) + " at " +
                                   (path.empty() ? "<root>" : path) + " cannot be read as " +
                                   std::string(AvroTypeName(r.type)));
  }

  AvroReadPlan* plan_;
  std::map<std::pair<const AvroNode*, const AvroNode*>, int> memo_;
};

Result<AvroReadPlan> AvroReadPlan::Make(const AvroNode& writer, const AvroNode& reader) {
  AvroReadPlan plan;
  AvroPlanBuilder builder(&plan);
  ASSIGN_OR_RETURN(int root, builder.Build(writer, reader, ""));
  (void)root;  // Always 0: the first step built.
  return plan;
}

Status AvroReadPlan::Decode(AvroDecoder* decoder, AvroValue* out) const { return Run(0, decoder, out, 0); }

Status AvroReadPlan::Run(int index, AvroDecoder* d, AvroValue* out, int depth) const {
  if (depth > kMaxAvroDepth) return d->Error("data nested deeper than " + std::to_string(kMaxAvroDepth));
  const Step& step = steps_[index];
  switch (step.op) {
    case Step::Op::kPrimitive: {
      AvroValue v;
      RETURN_IF_ERROR(DecodeAvroValue(*step.writer, d, &v, depth));
      *out = Promote(std::move(v), step.reader->type);
      return Status::OK();
    }
    case Step::Op::kEnum: {
      ASSIGN_OR_RETURN(int32_t i, d->ReadInt());
      if (i < 0 || static_cast<size_t>(i) >= step.enum_map.size()) return d->Error("enum index out of range");
      if (step.enum_map[i] < 0) {
        return d->Error("enum symbol '" + step.writer->symbols[i] + "' unknown to the reader");
      }
      *out = AvroValue::Enum(step.enum_map[i]);
      return Status::OK();
    }
    case Step::Op::kWriterUnion: {
      ASSIGN_OR_RETURN(int64_t b, d->ReadLong());
      if (b < 0 || static_cast<size_t>(b) >= step.children.size()) return d->Error("union branch out of range");
      if (step.children[b] < 0) {
        return d->Error("union branch " + std::string(AvroTypeName(step.writer->branches[b]->type)) +
                        " cannot be read as " + std::string(AvroTypeName(step.reader->type)));
      }
      return Run(step.children[b], d, out, depth + 1);
    }
    case Step::Op::kRecord: {
      std::vector<AvroValue> fields(step.reader->fields.size());
      for (size_t i = 0; i < step.children.size(); ++i) {
        if (step.field_target[i] < 0) {
          RETURN_IF_ERROR(SkipAvroValue(*step.writer->fields[i].type, d, depth + 1));
        } else {
          RETURN_IF_ERROR(Run(step.children[i], d, &fields[step.field_target[i]], depth + 1));
        }
      }
      for (const auto& [i, v] : step.defaults) fields[i] = v;
      *out = AvroValue::Record(std::move(fields));
      return Status::OK();
    }
    case Step::Op::kArray:
    case Step::Op::kMap: {
      std::vector<AvroValue> items;
      AvroValue::Entries entries;
      while (true) {
        ASSIGN_OR_RETURN(int64_t count, d->ReadBlockCount());
        if (count == 0) break;
        const size_t before = d->remaining();
        for (int64_t i = 0; i < count; ++i) {
          AvroValue v;
          std::string key;
          if (step.op == Step::Op::kMap) {
            ASSIGN_OR_RETURN(std::string_view k, d->ReadBytes());
            key = std::string(k);
          }
          RETURN_IF_ERROR(Run(step.children[0], d, &v, depth + 1));
          if (step.op == Step::Op::kMap) {
            entries.emplace_back(std::move(key), std::move(v));
          } else {
            items.push_back(std::move(v));
          }
          // Items that take no bytes (null, empty records) are bounded like the plain decoder's.
          if (i >= (1 << 20) && d->remaining() == before) return d->Error("a block of empty items too large");
        }
      }
      *out = step.op == Step::Op::kMap ? AvroValue::Map(std::move(entries)) : AvroValue::Array(std::move(items));
      return Status::OK();
    }
  }
  return d->Error("unreadable data");
}

}  // namespace sluice
