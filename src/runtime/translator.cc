#include "runtime/translator.h"

#include "common/config.h"
#include "plan/window_rules.h"
#include "runtime/job.h"
#include "runtime/late_rows.h"
#include "runtime/operator.h"

namespace sluice {

Translator::Translator(JobResources* resources, std::vector<std::unique_ptr<Operator>>* ops,
                       std::vector<SourceOperatorBase*>* sources, std::vector<SinkOperator*>* sinks,
                       const JobContext* ctx)
    : res_(resources), ops_(ops), sources_(sources), sinks_(sinks), ctx_(ctx) {}

Result<Operator*> Translator::Translate(const PlanNodePtr& node) {
  auto f = memo_.find(node.get());
  if (f != memo_.end()) return f->second;
  TranslateFn translate = FindTranslator(node->kind);
  if (translate == nullptr) return Status::Internal("no translator for plan node " + node->ExplainName());
  // Operators that drop late rows, in EXPLAIN's order (a node before its inputs).
  const bool drops_late = DropsLateRows(*node);
  const size_t slot = late_droppers_.size();
  if (drops_late) late_droppers_.emplace_back(node.get(), nullptr);
  ASSIGN_OR_RETURN(Operator * op, translate(*this, node));
  op->set_digest(node->ExplainName() + "(" + node->ExplainAttributes() + ")");
  memo_[node.get()] = op;
  if (drops_late) late_droppers_[slot].second = op;
  return op;
}

void Translator::SetUpLateRowReporting(LateRowRecorder* recorder) {
  std::map<std::string, int> total, seen;
  for (const auto& entry : late_droppers_) ++total[entry.first->ExplainName()];
  for (const auto& [node, op] : late_droppers_) {
    std::string label = node->ExplainName();
    if (total[label] > 1) label += "#" + std::to_string(++seen[label]);
    std::vector<std::vector<std::string>> inputs;
    for (const auto& in : node->inputs) inputs.push_back(in->schema.names());
    if (recorder) recorder->RegisterOperator(label);
    op->SetLateRowReporting(std::move(label), inputs);
  }
}

Result<Operator*> Translator::Add(std::unique_ptr<Operator> op, const std::vector<PlanNodePtr>& inputs) {
  Operator* raw = op.get();
  ops_->push_back(std::move(op));
  for (size_t i = 0; i < inputs.size(); ++i) {
    ASSIGN_OR_RETURN(Operator * in, Translate(inputs[i]));
    in->AddOutput(raw, static_cast<int>(i));
  }
  return raw;
}

const Configuration* Translator::config() const { return ctx_->config; }

size_t Translator::chunk_size() const { return ctx_->chunk_size; }

int64_t Translator::ConfigTtlMillis() const {
  return ctx_->config ? ctx_->config->GetDurationMillis("table.exec.state.ttl") : 0;
}

int Translator::FirstRowtimeColumn(const Schema& schema) {
  for (size_t i = 0; i < schema.size(); ++i) {
    if (schema.field(i).type.time_attribute() == TimeAttribute::kRowtime) return static_cast<int>(i);
  }
  return -1;
}

}  // namespace sluice
