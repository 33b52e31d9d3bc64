#include "runtime/operators/correlate_operator.h"

#include "runtime/job.h"

namespace sluice {

CorrelateOperator::CorrelateOperator(std::string name, ExprPtr collection, bool left_outer, bool with_ordinality,
                                     Schema output)
    : Operator(std::move(name), 1),
      collection_(std::move(collection)),
      left_outer_(left_outer),
      with_ordinality_(with_ordinality),
      output_(std::move(output)) {}

Status CorrelateOperator::Open(JobContext* ctx) {
  RETURN_IF_ERROR(Operator::Open(ctx));
  eval_ = std::make_unique<ExprEvaluator>(std::vector<ExprPtr>{collection_}, ctx->eval);
  return Status::OK();
}

Status CorrelateOperator::Process(int, Chunk& chunk) {
  const size_t n = chunk.size();
  metrics_.rows_in += static_cast<int64_t>(n);
  Vector coll;
  RETURN_IF_ERROR(eval_->EvaluateOne(0, chunk, &coll));
  // parent[i]: input row of output row i; elem[i]: element index, or UINT32_MAX for a NULL-padded row.
  std::vector<uint32_t> parent, elem;
  std::vector<int32_t> ordinal;
  parent.reserve(n * 4);
  elem.reserve(n * 4);
  bool padded = false;
  for (size_t r = 0; r < n; ++r) {
    uint32_t len = coll.IsNull(r) ? 0 : coll.list_entry(r).length;
    uint32_t off = coll.IsNull(r) ? 0 : coll.list_entry(r).offset;
    if (len == 0) {
      if (left_outer_) {
        parent.push_back(static_cast<uint32_t>(r));
        elem.push_back(UINT32_MAX);
        if (with_ordinality_) ordinal.push_back(0);
        padded = true;
      }
      continue;
    }
    for (uint32_t k = 0; k < len; ++k) {
      parent.push_back(static_cast<uint32_t>(r));
      elem.push_back(off + k);
      if (with_ordinality_) ordinal.push_back(static_cast<int32_t>(k + 1));
    }
  }
  if (parent.empty()) return Status::OK();
  const size_t m = parent.size();
  Chunk out;
  for (size_t c = 0; c < chunk.num_columns(); ++c) {
    Vector v(chunk.column(c).type());
    v.AppendFrom(chunk.column(c), parent.data(), 0, m);
    out.AddColumn(std::move(v));
  }
  // Element sources: the fields of a ROW element, MAP key/value, or the element itself.
  std::vector<const Vector*> sources;
  const Vector* row_elem = nullptr;
  if (coll.type().id() == TypeId::kMap) {
    sources = {&coll.child(0), &coll.child(1)};
  } else if (coll.child(0).type().id() == TypeId::kRow) {
    row_elem = &coll.child(0);
    for (size_t f = 0; f < row_elem->num_children(); ++f) sources.push_back(&row_elem->child(f));
  } else {
    sources = {&coll.child(0)};
  }
  std::vector<uint32_t> safe_elem = elem;
  if (padded) {
    for (auto& e : safe_elem) {
      if (e == UINT32_MAX) e = 0;
    }
  }
  size_t col = chunk.num_columns();
  for (const Vector* src : sources) {
    Vector v(output_.field(col).type);
    if (src->size() == 0) {
      // Only NULL-padded rows (no element at all): a column of NULLs.
      v.Resize(m);
      for (size_t i = 0; i < m; ++i) v.SetNull(i, true);
    } else {
      v.AppendFrom(*src, safe_elem.data(), 0, m);
      for (size_t i = 0; i < m; ++i) {
        if (elem[i] == UINT32_MAX || (row_elem && row_elem->IsNull(elem[i]))) v.SetNull(i, true);
      }
    }
    out.AddColumn(std::move(v));
    ++col;
  }
  if (with_ordinality_) {
    Vector v(output_.field(col).type, m);
    for (size_t i = 0; i < m; ++i) {
      v.data<int32_t>()[i] = ordinal[i];
      if (ordinal[i] == 0) v.SetNull(i, true);
    }
    out.AddColumn(std::move(v));
  }
  auto& kinds = out.kind_vector();
  kinds.resize(m);
  for (size_t i = 0; i < m; ++i) kinds[i] = chunk.kind(parent[i]);
  return Emit(out);
}

}  // namespace sluice
