// Turns a plan (plan/plan_node.h) into the job's operator graph.
//
// The Translator walks the plan from its roots, memoising each node's operator so a node shared by
// several parents (a source read by two INSERTs of a statement set) runs once. How one kind of node
// becomes operators is a translator function, one per plan kind, in runtime/translators/ and listed in
// one table (FindTranslator): a new operator is a new translator file, not a case in a long switch.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "common/status.h"
#include "plan/plan_node.h"

namespace sluice {

class Configuration;
class LateRowRecorder;
class Operator;
class Schema;
class SinkOperator;
class SourceOperatorBase;
struct JobContext;
struct JobResources;

class Translator {
 public:
  Translator(JobResources* resources, std::vector<std::unique_ptr<Operator>>* ops,
             std::vector<SourceOperatorBase*>* sources, std::vector<SinkOperator*>* sinks, const JobContext* ctx);

  // The operator that produces `node`'s rows (created on first use, with its inputs).
  Result<Operator*> Translate(const PlanNodePtr& node);

  // Names each late-dropping operator for late-row reports: EXPLAIN's name, with "#n" when the job
  // has several of that name, and its inputs' column names for the dropped rows' JSON text.
  void SetUpLateRowReporting(LateRowRecorder* recorder);

  // --- For translator functions ---

  // Takes ownership of `op` and connects the operators of `inputs` to its inputs 0, 1, ... in order.
  Result<Operator*> Add(std::unique_ptr<Operator> op, const std::vector<PlanNodePtr>& inputs);
  // Registers an operator (already added) as one of the job's sources or sinks.
  void RegisterSource(SourceOperatorBase* source) { sources_->push_back(source); }
  void RegisterSink(SinkOperator* sink) { sinks_->push_back(sink); }

  JobResources& resources() { return *res_; }
  const JobContext& context() const { return *ctx_; }
  // The session's configuration; null in unit tests that build jobs without one.
  const Configuration* config() const;
  size_t chunk_size() const;
  // 'table.exec.state.ttl' in milliseconds (0: keep state forever).
  int64_t ConfigTtlMillis() const;
  // The first rowtime column of a schema (the event time late-row reports give a window operator's
  // dropped rows), -1 when none.
  static int FirstRowtimeColumn(const Schema& schema);

 private:
  JobResources* res_;
  std::vector<std::unique_ptr<Operator>>* ops_;
  std::vector<SourceOperatorBase*>* sources_;
  std::vector<SinkOperator*>* sinks_;
  const JobContext* ctx_;
  std::map<const PlanNode*, Operator*> memo_;
  std::vector<std::pair<const PlanNode*, Operator*>> late_droppers_;
};

// How one kind of plan node becomes operators: creates them through `t.Add` and returns the one whose
// output is the node's output.
using TranslateFn = Result<Operator*> (*)(Translator& t, const PlanNodePtr& node);

// The translator of a plan kind (runtime/translators/translators.cc); null when none is registered.
TranslateFn FindTranslator(PlanKind kind);

}  // namespace sluice
