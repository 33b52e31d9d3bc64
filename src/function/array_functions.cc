// The array and map functions of Flink 2 (values and types checked on Flink 2.2.1): ARRAY_CONTAINS,
// ARRAY_POSITION, ARRAY_REMOVE, ARRAY_DISTINCT, ARRAY_REVERSE, ARRAY_SLICE, ARRAY_CONCAT, ARRAY_APPEND,
// ARRAY_PREPEND, ARRAY_JOIN, ARRAY_MAX, ARRAY_MIN, MAP_KEYS, MAP_VALUES. A NULL array gives NULL; an
// element argument is cast to the array's element type (or both to their common type).
//
// An array is an offset/length entry per row into one child vector (types/vector.h); a result is built
// by appending the chosen child rows, so strings and nested elements are shared, never boxed.
#include <algorithm>
#include <string>
#include <unordered_set>
#include <vector>

#include "function/cast.h"
#include "function/kernel_util.h"
#include "types/value.h"

namespace sluice::fn {

namespace {

using FnPtr = std::shared_ptr<ScalarFunction>;

bool IsArray(const LogicalType& t) { return t.id() == TypeId::kArray; }

// The common element type of an array and an element (or of several arrays' elements).
Result<LogicalType> CommonElement(const std::vector<LogicalType>& elements) {
  ASSIGN_OR_RETURN(LogicalType common, CommonType(elements));
  return common.id() == TypeId::kNull ? LogicalType::Null() : common.WithTimeAttribute(TimeAttribute::kNone);
}

// Runs `pick(i, entry, sel)` per valid row to choose child rows of `arr` (indexes into arr.child(0)) for
// the row's result array; rows where an argument in `null_args` is NULL get NULL.
template <typename F>
void BuildFromChild(const Vector& arr, const Vector* const* null_args, size_t num_null_args, size_t rows, Vector* out,
                    F pick) {
  bool nulls = PropagateNulls(null_args, num_null_args, rows, out);
  Vector& child = out->child(0);
  ListEntry* entries = out->data<ListEntry>();
  std::vector<uint32_t> sel;
  for (size_t i = 0; i < rows; ++i) {
    const uint32_t offset = static_cast<uint32_t>(child.size());
    sel.clear();
    if (!(nulls && out->IsNull(i))) pick(i, arr.list_entry(i), &sel);
    if (!sel.empty()) child.AppendFrom(arr.child(0), sel.data(), 0, sel.size());
    entries[i] = ListEntry{offset, static_cast<uint32_t>(sel.size())};
  }
}

// Whether element k of the array child equals row i of the needle (a NULL needle equals NULL elements).
bool ElementMatches(const Vector& elems, size_t k, const Vector& needle, size_t i) {
  const bool en = elems.IsNull(k), nn = needle.IsNull(i);
  if (en || nn) return en && nn;
  return RowsEqual(elems, k, needle, i);
}

// ARRAY_CONTAINS / ARRAY_POSITION / ARRAY_REMOVE(array, needle): the needle is cast to the element type.
Result<FnPtr> ResolveNeedle(const CallInfo& c, int kind) {
  if (c.size() != 2 || !IsArray(c.type(0))) return FnPtr();
  auto elem = CommonElement({c.type(0).child(0), c.type(1)});
  if (!elem.ok()) return FnPtr();
  LogicalType arr = LogicalType::Array(*elem).WithNullable(c.type(0).nullable());
  std::vector<LogicalType> casts{arr, elem->WithNullable(c.type(1).nullable())};
  if (kind == 0) {  // ARRAY_CONTAINS: BOOLEAN, NULL only for a NULL array
    return NeverFails(MakeFunction(c.name, casts, LogicalType::Boolean().WithNullable(c.type(0).nullable()),
                                   [](EvalContext&, const Vector* const* args, size_t, size_t rows, Vector* out) {
                                     PropagateNulls(args, 1, rows, out);
                                     uint8_t* od = out->data<uint8_t>();
                                     const Vector& elems = args[0]->child(0);
                                     for (size_t i = 0; i < rows; ++i) {
                                       if (args[0]->IsNull(i)) continue;
                                       const ListEntry& e = args[0]->list_entry(i);
                                       bool found = false;
                                       for (uint32_t k = 0; k < e.length && !found; ++k) {
                                         found = ElementMatches(elems, e.offset + k, *args[1], i);
                                       }
                                       od[i] = found ? 1 : 0;
                                     }
                                     return Status::OK();
                                   }));
  }
  if (kind == 1) {  // ARRAY_POSITION: INT, 1-based, 0 when absent, NULL when an argument is
    return NeverFails(MakeFunction(c.name, casts, LogicalType::Integer().WithNullable(c.AnyNullable()),
                                   [](EvalContext&, const Vector* const* args, size_t n, size_t rows, Vector* out) {
                                     int32_t* od = out->data<int32_t>();
                                     const Vector& elems = args[0]->child(0);
                                     return ForEachValidRow(args, n, rows, out, [&](size_t i) {
                                       const ListEntry& e = args[0]->list_entry(i);
                                       od[i] = 0;
                                       for (uint32_t k = 0; k < e.length; ++k) {
                                         if (ElementMatches(elems, e.offset + k, *args[1], i)) {
                                           od[i] = static_cast<int32_t>(k + 1);
                                           break;
                                         }
                                       }
                                       return Status::OK();
                                     });
                                   }));
  }
  // ARRAY_REMOVE: the array without the elements equal to the needle (NULL needle: without NULLs).
  return NeverFails(MakeFunction(c.name, casts, arr, [](EvalContext&, const Vector* const* args, size_t, size_t rows, Vector* out) {
    const Vector& elems = args[0]->child(0);
    BuildFromChild(*args[0], args, 1, rows, out, [&](size_t i, const ListEntry& e, std::vector<uint32_t>* sel) {
      for (uint32_t k = 0; k < e.length; ++k) {
        if (!ElementMatches(elems, e.offset + k, *args[1], i)) sel->push_back(e.offset + k);
      }
    });
    return Status::OK();
  }));
}

// A key for hashing one element: its bytes (fixed width or string), or its text for nested values.
std::string ElementKey(const Vector& v, size_t k) {
  if (v.IsNull(k)) return std::string(1, '\0');
  const LogicalType& t = v.type();
  std::string key(1, '\1');
  if (t.IsStringLike()) {
    key.append(v.GetString(k));
  } else if (t.IsNested()) {
    key.append(v.GetValue(k).ToString());
  } else {
    size_t w = t.PhysicalWidth();
    key.append(reinterpret_cast<const char*>(v.raw_data() + k * w), w);
  }
  return key;
}

Result<FnPtr> ResolveUnaryArray(const CallInfo& c, bool distinct) {
  if (c.size() != 1 || !IsArray(c.type(0))) return FnPtr();
  return NeverFails(MakeFunction(c.name, {c.type(0)}, c.type(0), [distinct](EvalContext&, const Vector* const* args, size_t, size_t rows, Vector* out) {
    const Vector& elems = args[0]->child(0);
    std::unordered_set<std::string> seen;
    BuildFromChild(*args[0], args, 1, rows, out, [&](size_t, const ListEntry& e, std::vector<uint32_t>* sel) {
      if (!distinct) {
        for (uint32_t k = e.length; k > 0; --k) sel->push_back(e.offset + k - 1);
        return;
      }
      seen.clear();
      for (uint32_t k = 0; k < e.length; ++k) {
        if (seen.insert(ElementKey(elems, e.offset + k)).second) sel->push_back(e.offset + k);
      }
    });
    return Status::OK();
  }));
}

// ARRAY_SLICE(array, start[, end]): elements start..end (1-based, inclusive; negative counts from the
// end; start below 1 is 1, end beyond the array is its end; end 0 as 1); empty when end < start.
Result<FnPtr> ResolveSlice(const CallInfo& c) {
  if ((c.size() != 2 && c.size() != 3) || !IsArray(c.type(0))) return FnPtr();
  std::vector<LogicalType> casts{c.type(0)};
  for (size_t i = 1; i < c.size(); ++i) {
    LogicalType t;
    if (!AsInt(c.type(i), &t)) return FnPtr();
    casts.push_back(t);
  }
  return NeverFails(MakeFunction(c.name, casts, c.type(0).WithNullable(c.AnyNullable()),
                                 [](EvalContext&, const Vector* const* args, size_t n, size_t rows, Vector* out) {
                                   BuildFromChild(*args[0], args, n, rows, out, [&](size_t i, const ListEntry& e, std::vector<uint32_t>* sel) {
                                     const int64_t size = e.length;
                                     if (size == 0) return;
                                     int64_t start = args[1]->data<int32_t>()[i];
                                     int64_t end = n == 3 ? args[2]->data<int32_t>()[i] : size;
                                     if (start < 0) start += size + 1;
                                     if (end < 0) end += size + 1;
                                     start = std::max<int64_t>(start, 1);
                                     end = end == 0 ? 1 : std::min(end, size);
                                     for (int64_t k = start; k <= end; ++k) sel->push_back(e.offset + static_cast<uint32_t>(k - 1));
                                   });
                                   return Status::OK();
                                 }));
}

// ARRAY_CONCAT(a1, a2, ...): NULL when any array is NULL; ARRAY_APPEND / ARRAY_PREPEND(array, element):
// NULL when the array is.
Result<FnPtr> ResolveConcat(const CallInfo& c) {
  if (c.size() < 1) return FnPtr();
  std::vector<LogicalType> elems;
  for (const auto& t : c.types) {
    if (!IsArray(t)) return FnPtr();
    elems.push_back(t.child(0));
  }
  auto elem = CommonElement(elems);
  if (!elem.ok()) return FnPtr();
  std::vector<LogicalType> casts;
  for (const auto& t : c.types) casts.push_back(LogicalType::Array(*elem).WithNullable(t.nullable()));
  return NeverFails(MakeFunction(c.name, casts, LogicalType::Array(*elem).WithNullable(c.AnyNullable()),
                                 [](EvalContext&, const Vector* const* args, size_t n, size_t rows, Vector* out) {
                                   bool nulls = PropagateNulls(args, n, rows, out);
                                   Vector& child = out->child(0);
                                   ListEntry* entries = out->data<ListEntry>();
                                   for (size_t i = 0; i < rows; ++i) {
                                     const uint32_t offset = static_cast<uint32_t>(child.size());
                                     if (!(nulls && out->IsNull(i))) {
                                       for (size_t a = 0; a < n; ++a) {
                                         const ListEntry& e = args[a]->list_entry(i);
                                         child.AppendFrom(args[a]->child(0), nullptr, e.offset, e.length);
                                       }
                                     }
                                     entries[i] = ListEntry{offset, static_cast<uint32_t>(child.size()) - offset};
                                   }
                                   return Status::OK();
                                 }));
}

Result<FnPtr> ResolveAppend(const CallInfo& c, bool prepend) {
  if (c.size() != 2 || !IsArray(c.type(0))) return FnPtr();
  auto elem = CommonElement({c.type(0).child(0), c.type(1)});
  if (!elem.ok()) return FnPtr();
  std::vector<LogicalType> casts{LogicalType::Array(*elem).WithNullable(c.type(0).nullable()),
                                 elem->WithNullable(c.type(1).nullable())};
  return NeverFails(MakeFunction(c.name, casts, casts[0], [prepend](EvalContext&, const Vector* const* args, size_t, size_t rows, Vector* out) {
    PropagateNulls(args, 1, rows, out);
    Vector& child = out->child(0);
    ListEntry* entries = out->data<ListEntry>();
    for (size_t i = 0; i < rows; ++i) {
      const uint32_t offset = static_cast<uint32_t>(child.size());
      if (!args[0]->IsNull(i)) {
        const ListEntry& e = args[0]->list_entry(i);
        if (prepend) child.AppendRow(*args[1], i);
        child.AppendFrom(args[0]->child(0), nullptr, e.offset, e.length);
        if (!prepend) child.AppendRow(*args[1], i);
      }
      entries[i] = ListEntry{offset, static_cast<uint32_t>(child.size()) - offset};
    }
    return Status::OK();
  }));
}

// ARRAY_JOIN(array<string>, delimiter[, null_replacement]): NULL elements skipped unless replaced.
Result<FnPtr> ResolveJoin(const CallInfo& c) {
  if ((c.size() != 2 && c.size() != 3) || !IsArray(c.type(0)) || !c.type(0).child(0).IsCharacterString()) return FnPtr();
  std::vector<LogicalType> casts{c.type(0)};
  for (size_t i = 1; i < c.size(); ++i) {
    LogicalType t;
    if (!AsString(c.type(i), &t)) return FnPtr();
    casts.push_back(t);
  }
  return MakeFunction(c.name, casts, LogicalType::String().WithNullable(c.AnyNullable()),
                      [](EvalContext&, const Vector* const* args, size_t n, size_t rows, Vector* out) {
                        const Vector& elems = args[0]->child(0);
                        std::string buf;
                        return ForEachValidRow(args, n, rows, out, [&](size_t i) {
                          const ListEntry& e = args[0]->list_entry(i);
                          std::string_view delim = args[1]->GetString(i);
                          buf.clear();
                          bool first = true;
                          for (uint32_t k = 0; k < e.length; ++k) {
                            std::string_view v;
                            if (elems.IsNull(e.offset + k)) {
                              if (n < 3) continue;
                              v = args[2]->GetString(i);
                            } else {
                              v = elems.GetString(e.offset + k);
                            }
                            if (!first) buf.append(delim);
                            buf.append(v);
                            first = false;
                            RETURN_IF_ERROR(CheckStringResultSize("ARRAY_JOIN", buf.size()));
                          }
                          out->SetString(i, buf);
                          return Status::OK();
                        });
                      });
}

// Orders two valid rows of one vector of a scalar type: <0, 0, >0.
int CompareScalar(const Vector& v, size_t a, size_t b) {
  if (v.type().IsStringLike()) return v.GetString(a).compare(v.GetString(b));
  return DispatchFixed(v.type().id(), [&](auto tag) -> int {
    using T = decltype(tag);
    if constexpr (std::is_same_v<T, std::string_view>) {
      return 0;
    } else {
      const T x = v.data<T>()[a], y = v.data<T>()[b];
      return x < y ? -1 : (y < x ? 1 : 0);
    }
  });
}

// ARRAY_MAX / ARRAY_MIN: the largest / smallest non-NULL element; NULL for an empty or all-NULL array.
Result<FnPtr> ResolveExtreme(const CallInfo& c, bool max) {
  if (c.size() != 1 || !IsArray(c.type(0)) || c.type(0).child(0).IsNested() || c.type(0).child(0).id() == TypeId::kNull) {
    return FnPtr();
  }
  return NeverFails(MakeFunction(c.name, {c.type(0)}, c.type(0).child(0).WithNullable(true),
                                 [max](EvalContext&, const Vector* const* args, size_t n, size_t rows, Vector* out) {
                                   const Vector& elems = args[0]->child(0);
                                   out->ShareHeapsWith(elems);
                                   return ForEachValidRow(args, n, rows, out, [&](size_t i) {
                                     const ListEntry& e = args[0]->list_entry(i);
                                     int64_t best = -1;
                                     for (uint32_t k = e.offset; k < e.offset + e.length; ++k) {
                                       if (elems.IsNull(k)) continue;
                                       if (best < 0) {
                                         best = k;
                                         continue;
                                       }
                                       int cmp = CompareScalar(elems, k, static_cast<size_t>(best));
                                       if (max ? cmp > 0 : cmp < 0) best = k;
                                     }
                                     if (best < 0) {
                                       out->SetNull(i, true);
                                     } else {
                                       CopyRow(elems, static_cast<size_t>(best), out, i);
                                     }
                                     return Status::OK();
                                   });
                                 }));
}

// MAP_KEYS / MAP_VALUES: the map's keys or values as an array, in the map's order.
Result<FnPtr> ResolveMapPart(const CallInfo& c, size_t part) {
  if (c.size() != 1 || c.type(0).id() != TypeId::kMap) return FnPtr();
  LogicalType ret = LogicalType::Array(c.type(0).child(part)).WithNullable(c.type(0).nullable());
  return NeverFails(MakeFunction(c.name, {c.type(0)}, ret, [part](EvalContext&, const Vector* const* args, size_t, size_t rows, Vector* out) {
    PropagateNulls(args, 1, rows, out);
    Vector& child = out->child(0);
    ListEntry* entries = out->data<ListEntry>();
    for (size_t i = 0; i < rows; ++i) {
      const uint32_t offset = static_cast<uint32_t>(child.size());
      if (!args[0]->IsNull(i)) {
        const ListEntry& e = args[0]->list_entry(i);
        child.AppendFrom(args[0]->child(part), nullptr, e.offset, e.length);
      }
      entries[i] = ListEntry{offset, static_cast<uint32_t>(child.size()) - offset};
    }
    return Status::OK();
  }));
}

// ARRAY_SORT(array[, ascending[, nulls_first]]): ascending by default; NULLs first when ascending and
// last when descending unless nulls_first says; NULL when an argument is NULL.
Result<FnPtr> ResolveSort(const CallInfo& c) {
  if (c.size() < 1 || c.size() > 3 || !IsArray(c.type(0)) || c.type(0).child(0).IsNested()) return FnPtr();
  std::vector<LogicalType> casts{c.type(0)};
  for (size_t i = 1; i < c.size(); ++i) {
    LogicalType t;
    if (!AsBoolean(c.type(i), &t)) return FnPtr();
    casts.push_back(t);
  }
  LogicalType ret = c.type(0).WithNullable(c.AnyNullable());
  return NeverFails(MakeFunction(c.name, casts, ret, [](EvalContext&, const Vector* const* args, size_t n, size_t rows, Vector* out) {
    const Vector& elems = args[0]->child(0);
    BuildFromChild(*args[0], args, n, rows, out, [&](size_t i, const ListEntry& e, std::vector<uint32_t>* sel) {
      const bool asc = n < 2 || args[1]->data<uint8_t>()[i] != 0;
      const bool nulls_first = n < 3 ? asc : args[2]->data<uint8_t>()[i] != 0;
      std::vector<uint32_t> nulls;
      for (uint32_t k = e.offset; k < e.offset + e.length; ++k) (elems.IsNull(k) ? nulls : *sel).push_back(k);
      std::stable_sort(sel->begin(), sel->end(), [&](uint32_t x, uint32_t y) {
        int cmp = CompareScalar(elems, x, y);
        return asc ? cmp < 0 : cmp > 0;
      });
      sel->insert(nulls_first ? sel->begin() : sel->end(), nulls.begin(), nulls.end());
    });
    return Status::OK();
  }));
}

// ARRAY_UNION (distinct elements of both), ARRAY_INTERSECT (distinct elements of the first that the
// second holds), ARRAY_EXCEPT (distinct elements of the first that the second does not hold), in the
// order of their first occurrence; NULL when either array is NULL.
enum class SetOp { kUnion, kIntersect, kExcept };

Result<FnPtr> ResolveSetOp(const CallInfo& c, SetOp op) {
  if (c.size() != 2 || !IsArray(c.type(0)) || !IsArray(c.type(1))) return FnPtr();
  auto elem = CommonElement({c.type(0).child(0), c.type(1).child(0)});
  if (!elem.ok()) return FnPtr();
  std::vector<LogicalType> casts{LogicalType::Array(*elem).WithNullable(c.type(0).nullable()),
                                 LogicalType::Array(*elem).WithNullable(c.type(1).nullable())};
  return NeverFails(MakeFunction(c.name, casts, LogicalType::Array(*elem).WithNullable(c.AnyNullable()),
                                 [op](EvalContext&, const Vector* const* args, size_t n, size_t rows, Vector* out) {
                                   bool nulls = PropagateNulls(args, n, rows, out);
                                   Vector& child = out->child(0);
                                   ListEntry* entries = out->data<ListEntry>();
                                   std::unordered_set<std::string> seen, other;
                                   std::vector<uint32_t> sel;
                                   for (size_t i = 0; i < rows; ++i) {
                                     const uint32_t offset = static_cast<uint32_t>(child.size());
                                     if (!(nulls && out->IsNull(i))) {
                                       const ListEntry& a = args[0]->list_entry(i);
                                       const ListEntry& b = args[1]->list_entry(i);
                                       const Vector& ea = args[0]->child(0);
                                       const Vector& eb = args[1]->child(0);
                                       seen.clear();
                                       other.clear();
                                       if (op != SetOp::kUnion) {
                                         for (uint32_t k = b.offset; k < b.offset + b.length; ++k) other.insert(ElementKey(eb, k));
                                       }
                                       sel.clear();
                                       for (uint32_t k = a.offset; k < a.offset + a.length; ++k) {
                                         std::string key = ElementKey(ea, k);
                                         if (op == SetOp::kIntersect && !other.count(key)) continue;
                                         if (op == SetOp::kExcept && other.count(key)) continue;
                                         if (seen.insert(std::move(key)).second) sel.push_back(k);
                                       }
                                       if (!sel.empty()) child.AppendFrom(ea, sel.data(), 0, sel.size());
                                       if (op == SetOp::kUnion) {
                                         sel.clear();
                                         for (uint32_t k = b.offset; k < b.offset + b.length; ++k) {
                                           if (seen.insert(ElementKey(eb, k)).second) sel.push_back(k);
                                         }
                                         if (!sel.empty()) child.AppendFrom(eb, sel.data(), 0, sel.size());
                                       }
                                     }
                                     entries[i] = ListEntry{offset, static_cast<uint32_t>(child.size()) - offset};
                                   }
                                   return Status::OK();
                                 }));
}

// MAP_FROM_ARRAYS(keys, values): a map of the pairs at equal positions (a later duplicate key wins);
// arrays of different lengths fail the row, as in Flink.
Result<FnPtr> ResolveMapFromArrays(const CallInfo& c) {
  if (c.size() != 2 || !IsArray(c.type(0)) || !IsArray(c.type(1))) return FnPtr();
  LogicalType ret = LogicalType::Map(c.type(0).child(0), c.type(1).child(0)).WithNullable(c.AnyNullable());
  return MakeFunction(c.name, c.types, ret, [](EvalContext&, const Vector* const* args, size_t n, size_t rows, Vector* out) -> Status {
    bool nulls = PropagateNulls(args, n, rows, out);
    Vector& keys = out->child(0);
    Vector& values = out->child(1);
    ListEntry* entries = out->data<ListEntry>();
    for (size_t i = 0; i < rows; ++i) {
      const uint32_t offset = static_cast<uint32_t>(keys.size());
      entries[i] = ListEntry{offset, 0};
      if (nulls && out->IsNull(i)) continue;
      const ListEntry& a = args[0]->list_entry(i);
      const ListEntry& b = args[1]->list_entry(i);
      if (a.length != b.length) {
        return Status::RuntimeError("Invalid function MAP_FROM_ARRAYS call:\nThe length of the keys array " + std::to_string(a.length) +
                                    " is not equal to the length of the values array " + std::to_string(b.length));
      }
      uint32_t len = 0;
      for (uint32_t k = 0; k < a.length; ++k) {
        const Vector& ka = args[0]->child(0);
        bool replaced = false;
        for (uint32_t q = 0; q < len && !replaced; ++q) {
          if (ElementMatches(keys, offset + q, ka, a.offset + k)) {
            values.ShareHeapsWith(args[1]->child(0));
            CopyRow(args[1]->child(0), b.offset + k, &values, offset + q);
            replaced = true;
          }
        }
        if (replaced) continue;
        keys.AppendRow(ka, a.offset + k);
        values.AppendRow(args[1]->child(0), b.offset + k);
        ++len;
      }
      entries[i].length = len;
    }
    return Status::OK();
  });
}

}  // namespace

void RegisterArrayFunctions(FunctionTable* t) {
  t->Add({"ARRAY_CONTAINS", {"ARRAY_CONTAINS(<ARRAY>, <ANY>)"}, [](const CallInfo& c) { return ResolveNeedle(c, 0); }});
  t->Add({"ARRAY_POSITION", {"ARRAY_POSITION(<ARRAY>, <ANY>)"}, [](const CallInfo& c) { return ResolveNeedle(c, 1); }});
  t->Add({"ARRAY_REMOVE", {"ARRAY_REMOVE(<ARRAY>, <ANY>)"}, [](const CallInfo& c) { return ResolveNeedle(c, 2); }});
  t->Add({"ARRAY_DISTINCT", {"ARRAY_DISTINCT(<ARRAY>)"}, [](const CallInfo& c) { return ResolveUnaryArray(c, true); }});
  t->Add({"ARRAY_REVERSE", {"ARRAY_REVERSE(<ARRAY>)"}, [](const CallInfo& c) { return ResolveUnaryArray(c, false); }});
  t->Add({"ARRAY_SLICE", {"ARRAY_SLICE(<ARRAY>, <INTEGER>)", "ARRAY_SLICE(<ARRAY>, <INTEGER>, <INTEGER>)"}, ResolveSlice});
  t->Add({"ARRAY_CONCAT", {"ARRAY_CONCAT(<ARRAY>, ...)"}, ResolveConcat});
  t->Add({"ARRAY_APPEND", {"ARRAY_APPEND(<ARRAY>, <ANY>)"}, [](const CallInfo& c) { return ResolveAppend(c, false); }});
  t->Add({"ARRAY_PREPEND", {"ARRAY_PREPEND(<ARRAY>, <ANY>)"}, [](const CallInfo& c) { return ResolveAppend(c, true); }});
  t->Add({"ARRAY_JOIN", {"ARRAY_JOIN(<ARRAY<CHARACTER>>, <CHARACTER>)", "ARRAY_JOIN(<ARRAY<CHARACTER>>, <CHARACTER>, <CHARACTER>)"},
          ResolveJoin});
  t->Add({"ARRAY_MAX", {"ARRAY_MAX(<ARRAY>)"}, [](const CallInfo& c) { return ResolveExtreme(c, true); }});
  t->Add({"ARRAY_MIN", {"ARRAY_MIN(<ARRAY>)"}, [](const CallInfo& c) { return ResolveExtreme(c, false); }});
  t->Add({"ARRAY_SORT", {"ARRAY_SORT(<ARRAY>)", "ARRAY_SORT(<ARRAY>, <BOOLEAN>)", "ARRAY_SORT(<ARRAY>, <BOOLEAN>, <BOOLEAN>)"},
          ResolveSort});
  t->Add({"ARRAY_UNION", {"ARRAY_UNION(<ARRAY>, <ARRAY>)"}, [](const CallInfo& c) { return ResolveSetOp(c, SetOp::kUnion); }});
  t->Add({"ARRAY_INTERSECT", {"ARRAY_INTERSECT(<ARRAY>, <ARRAY>)"}, [](const CallInfo& c) { return ResolveSetOp(c, SetOp::kIntersect); }});
  t->Add({"ARRAY_EXCEPT", {"ARRAY_EXCEPT(<ARRAY>, <ARRAY>)"}, [](const CallInfo& c) { return ResolveSetOp(c, SetOp::kExcept); }});
  t->Add({"MAP_FROM_ARRAYS", {"MAP_FROM_ARRAYS(<ARRAY>, <ARRAY>)"}, ResolveMapFromArrays});
  t->Add({"MAP_KEYS", {"MAP_KEYS(<MAP>)"}, [](const CallInfo& c) { return ResolveMapPart(c, 0); }});
  t->Add({"MAP_VALUES", {"MAP_VALUES(<MAP>)"}, [](const CallInfo& c) { return ResolveMapPart(c, 1); }});
}

}  // namespace sluice::fn
