#include "runtime/operators/window_table_function_operator.h"

#include "common/clock.h"
#include "function/evaluator.h"
#include "runtime/job.h"

namespace sluice {

namespace {
constexpr int64_t kMicrosPerMs = 1000;
}  // namespace

Status WindowRowTimes(const Chunk& chunk, int time_column, bool proctime, bool local_time, const JobContext* ctx,
                      const std::string& op_name, std::vector<int64_t>* times, bool changes) {
  const size_t n = chunk.size();
  if (!changes && !chunk.AllInserts()) {
    for (size_t i = 0; i < n; ++i) {
      if (chunk.kind(i) != RowKind::kInsert) {
        return Status::InvalidArgument(op_name + " received a " + std::string(RowKindShortString(chunk.kind(i))) +
                                       " change, but this window operator needs an insert-only input");
      }
    }
  }
  const EvalContext* eval = ctx ? ctx->eval : nullptr;
  times->resize(n);
  if (proctime) {
    int64_t now = eval && eval->clock ? eval->clock->NowMicros() : 0;
    if (local_time && eval) now = eval->UtcToLocal(now);
    std::fill(times->begin(), times->end(), now);
    return Status::OK();
  }
  const Vector& t = chunk.column(static_cast<size_t>(time_column));
  if (t.MayHaveNulls()) {
    for (size_t i = 0; i < n; ++i) {
      if (t.IsNull(i)) {
        return Status::InvalidArgument(op_name + ": the event-time attribute of an input row is NULL; a rowtime attribute must not be NULL");
      }
    }
  }
  const int64_t* src = t.data<int64_t>();
  if (local_time && eval) {
    for (size_t i = 0; i < n; ++i) (*times)[i] = eval->UtcToLocal(src[i]);
  } else {
    std::copy(src, src + n, times->begin());
  }
  return Status::OK();
}

int64_t WindowClockToUtc(int64_t t, bool local_time, const JobContext* ctx) {
  if (!local_time || !ctx || !ctx->eval) return t;
  return ctx->eval->LocalToUtc(t);
}

bool WindowFired(int64_t window_end, int64_t watermark, bool local_time, const JobContext* ctx) {
  return WindowClockToUtc(window_end, local_time, ctx) - kMicrosPerMs <= watermark;
}

WindowTableFunctionOperator::WindowTableFunctionOperator(std::string name, std::vector<LogicalType> output_types,
                                                         WindowSpec window, int time_column, bool proctime,
                                                         bool local_time)
    : Operator(std::move(name), 1),
      output_types_(std::move(output_types)),
      window_(window),
      time_column_(time_column),
      proctime_(proctime),
      local_time_(local_time) {}

Status WindowTableFunctionOperator::Process(int, Chunk& chunk) {
  const size_t n = chunk.size();
  if (n == 0) return Status::OK();
  metrics_.rows_in += static_cast<int64_t>(n);
  std::vector<int64_t> times;
  RETURN_IF_ERROR(WindowRowTimes(chunk, time_column_, proctime_, local_time_, ctx_, name(), &times, /*changes=*/true));
  const size_t nin = output_types_.size() - 3;
  // One output row per (input row, window): the input rows repeated through a selection.
  std::vector<uint32_t> sel;
  std::vector<int64_t> starts, ends;
  sel.reserve(n);
  for (size_t i = 0; i < n; ++i) {
    window_.AssignWindows(times[i], &windows_);
    for (const auto& [start, end] : windows_) {
      sel.push_back(static_cast<uint32_t>(i));
      starts.push_back(start);
      ends.push_back(end);
    }
  }
  const size_t m = sel.size();
  Chunk out;
  if (m == n) {
    // One window per row (TUMBLE): the input columns move over unchanged.
    for (size_t c = 0; c < nin; ++c) out.AddColumn(std::move(chunk.column(c)));
  } else {
    for (size_t c = 0; c < nin; ++c) {
      Vector v(output_types_[c]);
      v.AppendFrom(chunk.column(c), sel.data(), 0, m);
      out.AddColumn(std::move(v));
    }
  }
  Vector start_col(output_types_[nin], m), end_col(output_types_[nin + 1], m), time_col(output_types_[nin + 2], m);
  int64_t* s = start_col.data<int64_t>();
  int64_t* e = end_col.data<int64_t>();
  int64_t* t = time_col.data<int64_t>();
  for (size_t j = 0; j < m; ++j) {
    s[j] = starts[j];
    e[j] = ends[j];
    // window_time is an instant for a TIMESTAMP_LTZ attribute, a local timestamp otherwise.
    t[j] = WindowClockToUtc(ends[j], local_time_, ctx_) - kMicrosPerMs;
  }
  out.AddColumn(std::move(start_col));
  out.AddColumn(std::move(end_col));
  out.AddColumn(std::move(time_col));
  out.SetSizeFromColumns();
  // Over an updating input each output row keeps its input row's kind (Flink's WindowTableFunction
  // forwards changes; a -U/+U pair's rows stay in this chunk).
  if (!chunk.AllInserts()) {
    for (size_t j = 0; j < m; ++j) out.kind_vector()[j] = chunk.kind(sel[j]);
  }
  return Emit(out);
}

}  // namespace sluice
