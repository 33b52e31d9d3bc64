#include "runtime/operators/calc_operator.h"

#include "function/common_subexpr.h"
#include "function/evaluator.h"
#include "plan/optimizer.h"
#include "runtime/job.h"

namespace sluice {

CalcOperator::CalcOperator(std::string name, std::vector<ExprPtr> projections, ExprPtr condition, size_t num_inputs)
    : Operator(std::move(name), 1), num_inputs_(num_inputs) {
  // One program for the condition and the projections: a subexpression they repeat is evaluated once
  // per chunk, before the filter (function/common_subexpr.h).
  std::vector<ExprPtr> exprs;
  std::vector<bool> on_all_rows;
  if (condition) {
    exprs.push_back(condition);
    on_all_rows.push_back(true);
  }
  for (auto& p : projections) {
    exprs.push_back(p);
    on_all_rows.push_back(!condition);
  }
  CommonSubexpressions program = ExtractCommonSubexpressions(exprs, on_all_rows, num_inputs);
  common_ = std::move(program.common);
  size_t next = 0;
  if (condition) condition_ = program.exprs[next++];
  projections_.assign(program.exprs.begin() + static_cast<std::ptrdiff_t>(next), program.exprs.end());
}

Status CalcOperator::Open(JobContext* ctx) {
  RETURN_IF_ERROR(Operator::Open(ctx));
  projection_eval_ = std::make_unique<ExprEvaluator>(projections_, ctx->eval);
  if (!common_.empty()) common_eval_ = std::make_unique<ExprEvaluator>(common_, ctx->eval);
  projections_can_fail_ = false;
  for (const auto& p : projections_) projections_can_fail_ |= !ExprCannotFail(*p);
  if (condition_) filter_eval_ = std::make_unique<ExprEvaluator>(std::vector<ExprPtr>{condition_}, ctx->eval);
  return Status::OK();
}

Status CalcOperator::Process(int, Chunk& chunk) {
  const size_t n = chunk.size();
  metrics_.rows_in += static_cast<int64_t>(n);
  // CURRENT_WATERMARK() reads this operator's watermark.
  if (ctx_ && ctx_->eval) ctx_->eval->current_watermark = current_watermark();
  // The shared subexpressions become columns after the input's, in order (each may read the ones
  // before it).
  if (!common_.empty() && chunk.num_columns() != num_inputs_) {
    return Status::Internal("Calc expected " + std::to_string(num_inputs_) + " input columns, got " +
                            std::to_string(chunk.num_columns()));
  }
  for (size_t j = 0; j < common_.size(); ++j) {
    Vector v;
    RETURN_IF_ERROR(common_eval_->EvaluateOne(j, chunk, &v));
    chunk.AddColumn(std::move(v));
  }
  if (used_columns_.size() != chunk.num_columns()) {
    used_columns_.assign(chunk.num_columns(), false);
    direct_refs_.assign(chunk.num_columns(), 0);
    for (const auto& p : projections_) {
      CollectColumns(*p, &used_columns_);
      if (p->kind == ExprKind::kColumnRef) direct_refs_[static_cast<size_t>(p->column_index)]++;
    }
    // A column read by a computed projection must not be moved away before it is evaluated.
    std::vector<bool> computed_use(chunk.num_columns(), false);
    for (const auto& p : projections_) {
      if (p->kind != ExprKind::kColumnRef) CollectColumns(*p, &computed_use);
    }
    for (size_t c = 0; c < computed_use.size(); ++c) {
      if (computed_use[c]) direct_refs_[c] += 2;
    }
  }
  Chunk* input = &chunk;
  Chunk gathered;
  if (filter_eval_) {
    RETURN_IF_ERROR(filter_eval_->Filter(chunk, &sel_));
    if (sel_.empty()) return Status::OK();
    if (sel_.size() < n && !projections_can_fail_ && sel_.size() * 4 >= n * 3) {
      // Most rows pass and no projection can fail: project the whole chunk, then keep the selected
      // rows of the (usually narrower) output instead of gathering every input column first.
      Chunk full;
      full.columns().resize(projections_.size());
      for (size_t i = 0; i < projections_.size(); ++i) {
        RETURN_IF_ERROR(projection_eval_->EvaluateOne(i, chunk, &full.column(i)));
      }
      full.kind_vector() = chunk.kind_vector();
      Chunk out;
      for (const auto& col : full.columns()) out.AddColumn(Vector(col.type()));
      out.AppendFrom(full, sel_.data(), 0, sel_.size());
      return Emit(out);
    }
    if (sel_.size() < n) {
      for (size_t c = 0; c < chunk.num_columns(); ++c) {
        Vector v(chunk.column(c).type());
        if (used_columns_[c]) v.AppendFrom(chunk.column(c), sel_.data(), 0, sel_.size());
        gathered.AddColumn(std::move(v));
      }
      auto& kinds = gathered.kind_vector();
      kinds.resize(sel_.size());
      for (size_t i = 0; i < sel_.size(); ++i) kinds[i] = chunk.kind(sel_[i]);
      input = &gathered;
    }
  }
  Chunk out;
  out.columns().resize(projections_.size());
  for (size_t i = 0; i < projections_.size(); ++i) {
    if (projections_[i]->kind == ExprKind::kColumnRef) continue;
    RETURN_IF_ERROR(projection_eval_->EvaluateOne(i, *input, &out.column(i)));
  }
  for (size_t i = 0; i < projections_.size(); ++i) {
    const Expr& p = *projections_[i];
    if (p.kind != ExprKind::kColumnRef) continue;
    size_t c = static_cast<size_t>(p.column_index);
    if (direct_refs_[c] == 1) {
      out.column(i) = std::move(input->column(c));
    } else {
      out.column(i) = input->column(c);
    }
  }
  out.kind_vector() = std::move(input->kind_vector());
  return Emit(out);
}

}  // namespace sluice
