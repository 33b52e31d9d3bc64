// Collection functions and constructors: ARRAY[...], MAP[...], ROW(...), element access ITEM (arr[i],
// map[k]), field access $FIELD, CARDINALITY, ELEMENT.
#include "function/cast.h"
#include "function/kernel_util.h"
#include "types/value.h"

namespace sluice::fn {

namespace {

using FnPtr = std::shared_ptr<ScalarFunction>;

Result<FnPtr> ResolveArray(const CallInfo& c) {
  if (c.size() == 0) return FnPtr();
  auto elem = CommonType(c.types);
  if (!elem.ok()) return FnPtr();
  LogicalType e = elem->id() == TypeId::kNull ? LogicalType::Null() : *elem;
  std::vector<LogicalType> casts;
  for (const auto& t : c.types) casts.push_back(e.WithNullable(t.nullable()));
  return MakeFunction(c.name, casts, LogicalType::Array(e).WithNullable(false),
                      [](EvalContext&, const Vector* const* args, size_t n, size_t rows, Vector* out) {
                        Vector& child = out->child(0);
                        child.Reserve(rows * n);
                        ListEntry* entries = out->data<ListEntry>();
                        for (size_t i = 0; i < rows; ++i) {
                          entries[i] = ListEntry{static_cast<uint32_t>(child.size()), static_cast<uint32_t>(n)};
                          for (size_t k = 0; k < n; ++k) child.AppendRow(*args[k], i);
                        }
                        return Status::OK();
                      });
}

Result<FnPtr> ResolveMap(const CallInfo& c) {
  if (c.size() == 0 || c.size() % 2 != 0) return FnPtr();
  std::vector<LogicalType> ks, vs;
  for (size_t i = 0; i < c.size(); ++i) (i % 2 == 0 ? ks : vs).push_back(c.type(i));
  auto k = CommonType(ks);
  auto v = CommonType(vs);
  if (!k.ok() || !v.ok()) return FnPtr();
  std::vector<LogicalType> casts;
  for (size_t i = 0; i < c.size(); ++i) casts.push_back((i % 2 == 0 ? *k : *v).WithNullable(c.type(i).nullable()));
  return MakeFunction(c.name, casts, LogicalType::Map(*k, *v).WithNullable(false),
                      [](EvalContext&, const Vector* const* args, size_t n, size_t rows, Vector* out) {
                        Vector& keys = out->child(0);
                        Vector& values = out->child(1);
                        ListEntry* entries = out->data<ListEntry>();
                        const size_t pairs = n / 2;
                        for (size_t i = 0; i < rows; ++i) {
                          uint32_t offset = static_cast<uint32_t>(keys.size());
                          uint32_t len = 0;
                          for (size_t p = 0; p < pairs; ++p) {
                            // A later duplicate key replaces the earlier value, as in Flink.
                            bool replaced = false;
                            for (uint32_t q = 0; q < len && !args[2 * p]->IsNull(i); ++q) {
                              if (keys.IsValid(offset + q) && RowsEqual(*args[2 * p], i, keys, offset + q)) {
                                values.ShareHeapsWith(*args[2 * p + 1]);
                                CopyRow(*args[2 * p + 1], i, &values, offset + q);
                                replaced = true;
                                break;
                              }
                            }
                            if (replaced) continue;
                            keys.AppendRow(*args[2 * p], i);
                            values.AppendRow(*args[2 * p + 1], i);
                            ++len;
                          }
                          entries[i] = ListEntry{offset, len};
                        }
                        return Status::OK();
                      });
}

Result<FnPtr> ResolveRow(const CallInfo& c) {
  if (c.size() == 0) return FnPtr();
  std::vector<std::string> names;
  std::vector<LogicalType> fields;
  for (size_t i = 0; i < c.size(); ++i) {
    names.push_back("EXPR$" + std::to_string(i));
    fields.push_back(c.type(i).WithTimeAttribute(TimeAttribute::kNone));
  }
  return MakeFunction(c.name, fields, LogicalType::Row(names, fields).WithNullable(false),
                      [](EvalContext&, const Vector* const* args, size_t n, size_t rows, Vector* out) {
                        for (size_t k = 0; k < n; ++k) {
                          Vector& child = out->child(k);
                          child = Vector(child.type(), 0);
                          child.AppendFrom(*args[k], nullptr, 0, rows);
                        }
                        return Status::OK();
                      });
}

Result<FnPtr> ResolveField(const CallInfo& c) {
  if (c.size() != 2 || c.type(0).id() != TypeId::kRow) return FnPtr();
  const Value* idx = c.constant(1);
  if (idx == nullptr || idx->is_null() || !c.type(1).IsIntegral()) {
    return Status::BindError("$FIELD needs a constant field index");
  }
  int64_t f = idx->int_value();
  if (f < 0 || static_cast<size_t>(f) >= c.type(0).num_children()) {
    return Status::BindError("Field index " + std::to_string(f) + " is out of range for " + c.type(0).ToString());
  }
  size_t field = static_cast<size_t>(f);
  LogicalType ret = c.type(0).child(field);
  ret = ret.WithNullable(ret.nullable() || c.type(0).nullable());
  return MakeFunction(c.name, {c.type(0), c.type(1)}, ret,
                      [field](EvalContext&, const Vector* const* args, size_t, size_t rows, Vector* out) {
                        const Vector& row = *args[0];
                        const Vector& child = row.child(field);
                        *out = Vector(out->type(), 0);
                        out->AppendFrom(child, nullptr, 0, rows);
                        if (row.MayHaveNulls()) {
                          for (size_t i = 0; i < rows; ++i) {
                            if (row.IsNull(i)) out->SetNull(i, true);
                          }
                        }
                        return Status::OK();
                      });
}

Result<FnPtr> ResolveItem(const CallInfo& c) {
  if (c.size() != 2) return FnPtr();
  const LogicalType& coll = c.type(0);
  if (coll.id() == TypeId::kArray) {
    LogicalType it;
    if (!AsInt(c.type(1), &it)) return FnPtr();
    return MakeFunction(c.name, {coll, it}, coll.child(0).WithNullable(true),
                        [](EvalContext&, const Vector* const* args, size_t n, size_t rows, Vector* out) {
                          const Vector& arr = *args[0];
                          const Vector& elems = arr.child(0);
                          out->ShareHeapsWith(elems);
                          return ForEachValidRow(args, n, rows, out, [&](size_t i) {
                            const ListEntry& e = arr.list_entry(i);
                            int32_t k = args[1]->data<int32_t>()[i];
                            if (k < 1 || static_cast<uint32_t>(k) > e.length) {
                              out->SetNull(i, true);
                            } else {
                              CopyRow(elems, e.offset + static_cast<uint32_t>(k) - 1, out, i);
                            }
                            return Status::OK();
                          });
                        });
  }
  if (coll.id() == TypeId::kMap) {
    if (!CanCast(c.type(1), coll.child(0), true) && c.type(1).id() != TypeId::kNull) return FnPtr();
    return MakeFunction(c.name, {coll, coll.child(0).WithNullable(c.type(1).nullable())}, coll.child(1).WithNullable(true),
                        [](EvalContext&, const Vector* const* args, size_t n, size_t rows, Vector* out) {
                          const Vector& map = *args[0];
                          const Vector& keys = map.child(0);
                          const Vector& values = map.child(1);
                          out->ShareHeapsWith(values);
                          return ForEachValidRow(args, n, rows, out, [&](size_t i) {
                            const ListEntry& e = map.list_entry(i);
                            for (uint32_t q = 0; q < e.length; ++q) {
                              if (keys.IsValid(e.offset + q) && RowsEqual(*args[1], i, keys, e.offset + q)) {
                                CopyRow(values, e.offset + q, out, i);
                                return Status::OK();
                              }
                            }
                            out->SetNull(i, true);
                            return Status::OK();
                          });
                        });
  }
  return FnPtr();
}

Result<FnPtr> ResolveCardinality(const CallInfo& c) {
  if (c.size() != 1 || !c.type(0).IsList()) return FnPtr();
  return MakeFunction(c.name, {c.type(0)}, LogicalType::Integer().WithNullable(c.type(0).nullable()),
                      [](EvalContext&, const Vector* const* args, size_t, size_t rows, Vector* out) {
                        UnaryLoop<ListEntry, int32_t>(*args[0], rows, out,
                                                      [](const ListEntry& e) { return static_cast<int32_t>(e.length); });
                        return Status::OK();
                      });
}

Result<FnPtr> ResolveElement(const CallInfo& c) {
  if (c.size() != 1 || c.type(0).id() != TypeId::kArray) return FnPtr();
  // As Flink: the element type, nullable when it or the array is (an empty array still gives NULL).
  const LogicalType& element = c.type(0).child(0);
  return MakeFunction(c.name, {c.type(0)}, element.WithNullable(element.nullable() || c.type(0).nullable()),
                      [](EvalContext&, const Vector* const* args, size_t n, size_t rows, Vector* out) {
                        const Vector& arr = *args[0];
                        out->ShareHeapsWith(arr.child(0));
                        return ForEachValidRow(args, n, rows, out, [&](size_t i) {
                          const ListEntry& e = arr.list_entry(i);
                          if (e.length > 1) {
                            return Status::RuntimeError("ELEMENT: the array has more than one element (" +
                                                        std::to_string(e.length) + ")");
                          }
                          if (e.length == 0) {
                            out->SetNull(i, true);
                          } else {
                            CopyRow(arr.child(0), e.offset, out, i);
                          }
                          return Status::OK();
                        });
                      });
}

// STR_TO_MAP(text[, list_delimiter, key_value_delimiter]): 'a=1,b=2' -> {a=1, b=2}; a pair without
// the key-value delimiter maps to NULL; later duplicate keys win (Java HashMap.put). Delimiters are
// literal text here (Flink splits by regex; plain delimiters behave the same).
Result<FnPtr> ResolveStrToMap(const CallInfo& c) {
  if (c.size() != 1 && c.size() != 3) return FnPtr();
  std::vector<LogicalType> casts(c.size());
  for (size_t i = 0; i < c.size(); ++i) {
    if (!AsString(c.type(i), &casts[i])) return FnPtr();
  }
  // Flink types it nullable whatever its arguments.
  LogicalType ret = LogicalType::Map(LogicalType::String(), LogicalType::String()).WithNullable(true);
  return MakeFunction(c.name, casts, ret, [](EvalContext&, const Vector* const* args, size_t n, size_t rows, Vector* out) {
    Vector& keys = out->child(0);
    Vector& values = out->child(1);
    return ForEachValidRow(args, n, rows, out, [&](size_t i) {
      std::string_view text = args[0]->GetString(i);
      std::string_view list_delim = n == 3 ? args[1]->GetString(i) : ",";
      std::string_view kv_delim = n == 3 ? args[2]->GetString(i) : "=";
      uint32_t offset = static_cast<uint32_t>(keys.size());
      uint32_t len = 0;
      auto put = [&](std::string_view k, const std::string_view* v) {
        for (uint32_t q = 0; q < len; ++q) {
          if (keys.GetString(offset + q) == k) {
            if (v != nullptr) {
              values.SetNull(offset + q, false);
              values.SetString(offset + q, *v);
            } else {
              values.SetNull(offset + q, true);
            }
            return;
          }
        }
        keys.Resize(keys.size() + 1);
        keys.SetString(keys.size() - 1, k);
        values.Resize(values.size() + 1);
        if (v != nullptr) {
          values.SetString(values.size() - 1, *v);
        } else {
          values.SetNull(values.size() - 1, true);
        }
        ++len;
      };
      if (!text.empty() && !list_delim.empty() && !kv_delim.empty()) {
        size_t start = 0;
        for (;;) {
          size_t p = text.find(list_delim, start);
          std::string_view pair = text.substr(start, p == std::string_view::npos ? std::string_view::npos : p - start);
          size_t kv = pair.find(kv_delim);
          if (kv == std::string_view::npos) {
            put(pair, nullptr);
          } else {
            std::string_view v = pair.substr(kv + kv_delim.size());
            put(pair.substr(0, kv), &v);
          }
          if (p == std::string_view::npos) break;
          start = p + list_delim.size();
        }
      }
      out->data<ListEntry>()[i] = ListEntry{offset, len};
      return Status::OK();
    });
  });
}

}  // namespace

void RegisterCollectionFunctions(FunctionTable* t) {
  t->Add({"STR_TO_MAP", {"STR_TO_MAP(<CHARACTER>)", "STR_TO_MAP(<CHARACTER>, <CHARACTER>, <CHARACTER>)"}, ResolveStrToMap});
  t->Add({"ARRAY", {"ARRAY[<ANY>, ...]"}, ResolveArray, false});
  t->Add({"MAP", {"MAP[<ANY>, <ANY>, ...]"}, ResolveMap, false});
  t->Add({"ROW", {"ROW(<ANY>, ...)"}, ResolveRow, false});
  // Reading a field never fails, so filters may let it run on every row (see ScalarFunction::can_fail).
  t->Add({"$FIELD", {"<ROW>.<FIELD>"}, [](const CallInfo& c) -> Result<FnPtr> {
            ASSIGN_OR_RETURN(FnPtr f, ResolveField(c));
            return NeverFails(f);
          }, false});
  t->Add({"ITEM", {"<ARRAY>[<INTEGER>]", "<MAP>[<ANY>]"}, ResolveItem, false});
  t->Add({"CARDINALITY", {"CARDINALITY(<ARRAY>)", "CARDINALITY(<MAP>)"}, ResolveCardinality});
  t->Add({"ELEMENT", {"ELEMENT(<ARRAY>)"}, ResolveElement});
}

}  // namespace sluice::fn
