// A sink writer, with the upsert materializer chained right before it when the plan asks for one (as
// Flink's sink transformation chains SinkUpsertMaterializer, or for ON CONFLICT DO ERROR / DO NOTHING
// its WatermarkCompactingSinkMaterializer).
#include "common/config.h"
#include "runtime/job.h"
#include "runtime/operators/sink_operator.h"
#include "runtime/operators/sink_upsert_materializer.h"
#include "runtime/operators/watermark_compacting_sink_materializer.h"
#include "runtime/translators/translators.h"

namespace sluice {

Result<Operator*> TranslateSink(Translator& t, const PlanNodePtr& node) {
  const auto& s = node->As<SinkNode>();
  JobResources& res = t.resources();
  auto it = res.sinks.find(node.get());
  if (it == res.sinks.end()) return Status::Internal("no sink writer created");
  std::string name = res.sink_names.count(node.get()) ? res.sink_names[node.get()] : std::string("collect");
  const bool drop =
      t.config() != nullptr && t.config()->GetEnum<NotNullEnforcer>(kSinkNotNullEnforcerKey) == NotNullEnforcer::kDrop;
  auto op = std::make_unique<SinkOperator>(name, it->second, s.schema, drop);
  t.RegisterSink(op.get());
  if (!s.upsert_materialize) return t.Add(std::move(op), node->inputs);
  ASSIGN_OR_RETURN(Operator * sink, t.Add(std::move(op), {}));
  std::unique_ptr<Operator> m;
  if (CompactsOnWatermarks(s.conflict_strategy)) {
    // ON CONFLICT DO ERROR / DO NOTHING: Flink 2.3's watermark-compacting materializer.
    std::vector<std::string> key_names;
    for (int c : s.primary_key) key_names.push_back(s.schema.field(static_cast<size_t>(c)).name);
    m = std::make_unique<WatermarkCompactingSinkMaterializerOperator>("SinkMaterializer", s.schema.types(), s.primary_key,
                                                                      std::move(key_names), s.materialize_upsert_key,
                                                                      s.conflict_strategy);
  } else {
    m = std::make_unique<SinkUpsertMaterializerOperator>("SinkMaterializer", s.schema.types(), s.primary_key);
  }
  ASSIGN_OR_RETURN(Operator * materializer, t.Add(std::move(m), node->inputs));
  materializer->AddOutput(sink, 0);
  return sink;
}

}  // namespace sluice
