// The translator functions of the plan kinds (runtime/translator.h), one file per operator.
#pragma once

#include "runtime/translator.h"

namespace sluice {

Result<Operator*> TranslateTableSourceScan(Translator& t, const PlanNodePtr& node);
Result<Operator*> TranslateWatermarkAssigner(Translator& t, const PlanNodePtr& node);
Result<Operator*> TranslateValues(Translator& t, const PlanNodePtr& node);
Result<Operator*> TranslateCalc(Translator& t, const PlanNodePtr& node);
Result<Operator*> TranslateCorrelate(Translator& t, const PlanNodePtr& node);
Result<Operator*> TranslateUnion(Translator& t, const PlanNodePtr& node);
Result<Operator*> TranslatePassThrough(Translator& t, const PlanNodePtr& node);
Result<Operator*> TranslateDropUpdateBefore(Translator& t, const PlanNodePtr& node);
Result<Operator*> TranslateMiniBatchAssigner(Translator& t, const PlanNodePtr& node);
Result<Operator*> TranslateGroupAggregate(Translator& t, const PlanNodePtr& node);
Result<Operator*> TranslateHashAggregate(Translator& t, const PlanNodePtr& node);
Result<Operator*> TranslateDeduplicate(Translator& t, const PlanNodePtr& node);
Result<Operator*> TranslateChangelogNormalize(Translator& t, const PlanNodePtr& node);
Result<Operator*> TranslateRank(Translator& t, const PlanNodePtr& node);
Result<Operator*> TranslateBatchRank(Translator& t, const PlanNodePtr& node);
Result<Operator*> TranslateSort(Translator& t, const PlanNodePtr& node);
Result<Operator*> TranslateOverAggregate(Translator& t, const PlanNodePtr& node);
Result<Operator*> TranslateNonTimeOverAggregate(Translator& t, const PlanNodePtr& node);
Result<Operator*> TranslateBatchOverAggregate(Translator& t, const PlanNodePtr& node);
Result<Operator*> TranslateWindowTableFunction(Translator& t, const PlanNodePtr& node);
Result<Operator*> TranslateWindowAggregate(Translator& t, const PlanNodePtr& node);
Result<Operator*> TranslateWindowRank(Translator& t, const PlanNodePtr& node);
Result<Operator*> TranslateWindowDeduplicate(Translator& t, const PlanNodePtr& node);
Result<Operator*> TranslateWindowJoin(Translator& t, const PlanNodePtr& node);
Result<Operator*> TranslateJoin(Translator& t, const PlanNodePtr& node);
Result<Operator*> TranslateHashJoin(Translator& t, const PlanNodePtr& node);
Result<Operator*> TranslateSortMergeJoin(Translator& t, const PlanNodePtr& node);
Result<Operator*> TranslateIntervalJoin(Translator& t, const PlanNodePtr& node);
Result<Operator*> TranslateTemporalJoin(Translator& t, const PlanNodePtr& node);
Result<Operator*> TranslateLookupJoin(Translator& t, const PlanNodePtr& node);
Result<Operator*> TranslateSink(Translator& t, const PlanNodePtr& node);
Result<Operator*> TranslateExpand(Translator& t, const PlanNodePtr& node);
Result<Operator*> TranslateReplicateRows(Translator& t, const PlanNodePtr& node);
Result<Operator*> TranslateMatch(Translator& t, const PlanNodePtr& node);

// The mini-batch size ('table.exec.mini-batch.size') of the operators that run in bundles
// (runtime/operators/mini_batch_bundle.h) when 'table.exec.mini-batch.enabled' is true, else 0; an
// error when mini-batch is on without a positive size and latency (mini_batch_assigner_translator.cc).
Status MiniBatchSize(const Configuration* config, int64_t* batch_size);

}  // namespace sluice
