// Row movement helpers for kernels and the evaluator (see kernel_util.h).
#include "function/kernel_util.h"

namespace sluice::fn {

void CopyRow(const Vector& src, size_t src_row, Vector* out, size_t dst_row) {
  if (src.IsNull(src_row)) {
    out->SetNull(dst_row, true);
    if (out->type().id() == TypeId::kRow) {
      for (size_t c = 0; c < out->num_children(); ++c) out->child(c).SetNull(dst_row, true);
    } else if (out->type().IsList()) {
      out->data<ListEntry>()[dst_row] = ListEntry{static_cast<uint32_t>(out->child(0).size()), 0};
    }
    return;
  }
  out->SetNull(dst_row, false);
  const LogicalType& t = out->type();
  if (t.id() == TypeId::kRow) {
    for (size_t c = 0; c < out->num_children(); ++c) {
      out->child(c).ShareHeapsWith(src.child(c));
      CopyRow(src.child(c), src_row, &out->child(c), dst_row);
    }
    return;
  }
  if (t.IsList()) {
    const ListEntry& e = src.list_entry(src_row);
    uint32_t offset = static_cast<uint32_t>(out->child(0).size());
    for (size_t c = 0; c < out->num_children(); ++c) out->child(c).AppendFrom(src.child(c), nullptr, e.offset, e.length);
    out->data<ListEntry>()[dst_row] = ListEntry{offset, e.length};
    return;
  }
  size_t w = t.PhysicalWidth();
  if (w) std::memcpy(out->raw_data() + dst_row * w, src.raw_data() + src_row * w, w);
}

void ScatterRows(const Vector& src, const uint32_t* sel, size_t n, Vector* out) {
  const LogicalType& t = out->type();
  if (t.IsStringLike()) out->ShareHeapsWith(src);
  size_t w = t.PhysicalWidth();
  if (!t.IsNested() && w != 0) {
    uint8_t* dst = out->raw_data();
    const uint8_t* s = src.raw_data();
    switch (w) {
      case 1:
        for (size_t k = 0; k < n; ++k) dst[sel[k]] = s[k];
        break;
      case 4:
        for (size_t k = 0; k < n; ++k) reinterpret_cast<uint32_t*>(dst)[sel[k]] = reinterpret_cast<const uint32_t*>(s)[k];
        break;
      case 8:
        for (size_t k = 0; k < n; ++k) reinterpret_cast<uint64_t*>(dst)[sel[k]] = reinterpret_cast<const uint64_t*>(s)[k];
        break;
      default:
        for (size_t k = 0; k < n; ++k) std::memcpy(dst + sel[k] * w, s + k * w, w);
    }
    if (src.MayHaveNulls() || out->MayHaveNulls()) {
      uint8_t* v = out->mutable_validity();
      for (size_t k = 0; k < n; ++k) v[sel[k]] = src.IsValid(k) ? 1 : 0;
    }
    return;
  }
  if (t.id() == TypeId::kNull) {
    uint8_t* v = out->mutable_validity();
    for (size_t k = 0; k < n; ++k) v[sel[k]] = 0;
    return;
  }
  for (size_t k = 0; k < n; ++k) CopyRow(src, k, out, sel[k]);
}

void SetAllNull(Vector* out, size_t rows) {
  uint8_t* v = out->mutable_validity();
  std::memset(v, 0, rows);
  if (out->type().id() == TypeId::kRow) {
    for (size_t c = 0; c < out->num_children(); ++c) SetAllNull(&out->child(c), rows);
  }
}

}  // namespace sluice::fn

namespace sluice::fn {

size_t Utf8Length(std::string_view s) {
  size_t n = 0;
  for (char c : s) n += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  return n;
}

size_t Utf8PrefixBytes(std::string_view s, size_t n) {
  size_t chars = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    if ((static_cast<unsigned char>(s[i]) & 0xC0) != 0x80) {
      if (chars == n) return i;
      ++chars;
    }
  }
  return s.size();
}

bool RowsEqual(const Vector& a, size_t i, const Vector& b, size_t j) {
  const LogicalType& t = a.type();
  if (t.IsStringLike()) return a.GetString(i) == b.GetString(j);
  if (t.IsNested()) return a.GetValue(i) == b.GetValue(j);
  size_t w = t.PhysicalWidth();
  if (t.id() == TypeId::kFloat) return a.data<float>()[i] == b.data<float>()[j];
  if (t.id() == TypeId::kDouble) return a.data<double>()[i] == b.data<double>()[j];
  return std::memcmp(a.raw_data() + i * w, b.raw_data() + j * w, w) == 0;
}

}  // namespace sluice::fn
