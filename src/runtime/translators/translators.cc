// The table of translators: one row per plan kind (runtime/translator.h).
#include "runtime/translators/translators.h"


namespace sluice {

namespace {

struct Entry {
  PlanKind kind;
  TranslateFn translate;
};

constexpr Entry kTranslators[] = {
    {PlanKind::kTableSourceScan, &TranslateTableSourceScan},
    {PlanKind::kWatermarkAssigner, &TranslateWatermarkAssigner},
    {PlanKind::kValues, &TranslateValues},
    {PlanKind::kCalc, &TranslateCalc},
    {PlanKind::kCorrelate, &TranslateCorrelate},
    {PlanKind::kUnion, &TranslateUnion},
    {PlanKind::kExchange, &TranslatePassThrough},
    {PlanKind::kMiniBatchAssigner, &TranslateMiniBatchAssigner},
    {PlanKind::kDropUpdateBefore, &TranslateDropUpdateBefore},
    {PlanKind::kGroupAggregate, &TranslateGroupAggregate},
    {PlanKind::kHashAggregate, &TranslateHashAggregate},
    {PlanKind::kHashJoin, &TranslateHashJoin},
    {PlanKind::kSortMergeJoin, &TranslateSortMergeJoin},
    {PlanKind::kBatchRank, &TranslateBatchRank},
    {PlanKind::kDeduplicate, &TranslateDeduplicate},
    {PlanKind::kChangelogNormalize, &TranslateChangelogNormalize},
    {PlanKind::kRank, &TranslateRank},
    {PlanKind::kSort, &TranslateSort},
    {PlanKind::kOverAggregate, &TranslateOverAggregate},
    {PlanKind::kWindowTableFunction, &TranslateWindowTableFunction},
    {PlanKind::kWindowAggregate, &TranslateWindowAggregate},
    {PlanKind::kWindowRank, &TranslateWindowRank},
    {PlanKind::kWindowDeduplicate, &TranslateWindowDeduplicate},
    {PlanKind::kWindowJoin, &TranslateWindowJoin},
    {PlanKind::kJoin, &TranslateJoin},
    {PlanKind::kIntervalJoin, &TranslateIntervalJoin},
    {PlanKind::kTemporalJoin, &TranslateTemporalJoin},
    {PlanKind::kLookupJoin, &TranslateLookupJoin},
    {PlanKind::kSink, &TranslateSink},
    {PlanKind::kExpand, &TranslateExpand},
    {PlanKind::kReplicateRows, &TranslateReplicateRows},
    {PlanKind::kMatch, &TranslateMatch},
};

}  // namespace

TranslateFn FindTranslator(PlanKind kind) {
  for (const Entry& e : kTranslators) {
    if (e.kind == kind) return e.translate;
  }
  return nullptr;
}

}  // namespace sluice
