#include "runtime/operator.h"

#include <algorithm>

#include "common/check.h"

namespace sluice {

Operator::Operator(std::string name, int num_inputs)
    : name_(std::move(name)),
      input_watermarks_(static_cast<size_t>(num_inputs), kMinWatermark),
      input_ended_(static_cast<size_t>(num_inputs), false) {}

void Operator::AddOutput(Operator* downstream, int input_index) { outputs_.push_back({downstream, input_index}); }

Status Operator::Open(JobContext* ctx) {
  ctx_ = ctx;
  return Status::OK();
}

Status Operator::ReceiveWatermark(int input, int64_t watermark) {
  SLUICE_CHECK_LT(input, num_inputs());
  int64_t& w = input_watermarks_[static_cast<size_t>(input)];
  if (watermark <= w) return Status::OK();
  w = watermark;
  int64_t combined = *std::min_element(input_watermarks_.begin(), input_watermarks_.end());
  if (combined <= current_watermark_) return Status::OK();
  current_watermark_ = combined;
  return OnWatermark(combined);
}

Status Operator::ReceiveEndOfInput(int input) {
  SLUICE_CHECK_LT(input, num_inputs());
  if (input_ended_[static_cast<size_t>(input)]) return Status::OK();
  // A finished input no longer holds the watermark back.
  RETURN_IF_ERROR(ReceiveWatermark(input, kMaxWatermark));
  input_ended_[static_cast<size_t>(input)] = true;
  if (++ended_inputs_ < num_inputs()) return Status::OK();
  return OnEndOfInput();
}

Status Operator::OnWatermark(int64_t watermark) { return EmitWatermark(watermark); }

Status Operator::OnEndOfInput() { return EmitEndOfInput(); }

Status Operator::Emit(Chunk& chunk) {
  if (chunk.size() == 0) return Status::OK();
  metrics_.rows_out += static_cast<int64_t>(chunk.size());
  for (size_t i = 0; i + 1 < outputs_.size(); ++i) {
    Chunk copy = chunk;
    RETURN_IF_ERROR(outputs_[i].op->Process(outputs_[i].input, copy));
  }
  if (!outputs_.empty()) RETURN_IF_ERROR(outputs_.back().op->Process(outputs_.back().input, chunk));
  return Status::OK();
}

Status Operator::EmitWatermark(int64_t watermark) {
  if (watermark <= emitted_watermark_) return Status::OK();
  emitted_watermark_ = watermark;
  for (const auto& o : outputs_) RETURN_IF_ERROR(o.op->ReceiveWatermark(o.input, watermark));
  return Status::OK();
}

Status Operator::EmitEndOfInput() {
  for (const auto& o : outputs_) RETURN_IF_ERROR(o.op->ReceiveEndOfInput(o.input));
  return Status::OK();
}

}  // namespace sluice
