#include "common/config.h"
#include "runtime/operators/mini_batch_assigner_operator.h"
#include "runtime/translators/translators.h"

namespace sluice {

Status MiniBatchSize(const Configuration* config, int64_t* batch_size) {
  *batch_size = 0;
  if (config == nullptr || !config->GetBool("table.exec.mini-batch.enabled")) return Status::OK();
  *batch_size = config->GetInt("table.exec.mini-batch.size");
  if (*batch_size <= 0 || config->GetDurationMillis("table.exec.mini-batch.allow-latency") <= 0) {
    return Status::InvalidArgument(
        "'table.exec.mini-batch.enabled' is true, so 'table.exec.mini-batch.allow-latency' (a duration > 0) and "
        "'table.exec.mini-batch.size' (> 0) must be set too");
  }
  return Status::OK();
}

Result<Operator*> TranslateMiniBatchAssigner(Translator& t, const PlanNodePtr& node) {
  const auto& a = node->As<MiniBatchAssignerNode>();
  return t.Add(std::make_unique<MiniBatchAssignerOperator>(a.ExplainName(), a.interval_ms, a.mode), node->inputs);
}

}  // namespace sluice
