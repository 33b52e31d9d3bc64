// Correlate with ReplicateRows (INTERSECT ALL and EXCEPT ALL).
#include "runtime/operators/replicate_rows_operator.h"
#include "runtime/translators/translators.h"

namespace sluice {

Result<Operator*> TranslateReplicateRows(Translator& t, const PlanNodePtr& node) {
  return t.Add(std::make_unique<ReplicateRowsOperator>("Correlate", node->schema), node->inputs);
}

}  // namespace sluice
