// Deduplicate (ROW_NUMBER() = 1) and ChangelogNormalize, which is a keep-last dedup of a changelog.
#include "runtime/operators/deduplicate_operator.h"
#include "runtime/translators/translators.h"

namespace sluice {

Result<Operator*> TranslateDeduplicate(Translator& t, const PlanNodePtr& node) {
  const auto& d = node->As<DeduplicateNode>();
  int64_t batch_size = 0;
  RETURN_IF_ERROR(MiniBatchSize(t.config(), &batch_size));
  return t.Add(std::make_unique<DeduplicateOperator>("Deduplicate", d.inputs[0]->schema.types(), d.keys, d.time_column,
                                                     d.keep_last, d.rowtime, d.emit_update_before,
                                                     /*changelog_input=*/false, t.ConfigTtlMillis(), batch_size),
               node->inputs);
}

Result<Operator*> TranslateChangelogNormalize(Translator& t, const PlanNodePtr& node) {
  const auto& c = node->As<ChangelogNormalizeNode>();
  int64_t batch_size = 0;
  RETURN_IF_ERROR(MiniBatchSize(t.config(), &batch_size));
  return t.Add(std::make_unique<DeduplicateOperator>("ChangelogNormalize", c.inputs[0]->schema.types(), c.keys, -1,
                                                     /*keep_last=*/true, /*rowtime=*/false, c.emit_update_before,
                                                     /*changelog_input=*/true, /*state_ttl_ms=*/0, batch_size,
                                                     c.condition),
               node->inputs);
}

}  // namespace sluice
