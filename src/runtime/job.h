// Job: a running dataflow built from a physical plan, driven to completion by one task thread.
//
// BuildJob translates plan nodes to operators one to one (a node shared by several INSERTs becomes
// one operator with several outputs), except that a TableSourceScan with the Calc of computed
// columns and the WatermarkAssigner above it become one SourceOperator, because watermarks are
// generated per source split (DESIGN.md §6).
//
// Run() drives the sources in a deterministic order: it always advances the source split whose
// watermark is lowest (ties: the first declared), one chunk at a time, so a replay yields the same
// changelog byte for byte and state stays small. It returns when every source is exhausted.
//
// Threading: a Job runs on the calling thread.
#pragma once

#include <map>
#include <memory>
#include <ostream>
#include <vector>

#include "common/status.h"
#include "plan/plan_node.h"
#include "runtime/job_summary.h"
#include "runtime/operator.h"

namespace sluice {

class Configuration;
class TableSource;
class SinkWriter;
struct EvalContext;
class SourceOperatorBase;
class SinkOperator;

struct JobContext {
  EvalContext* eval = nullptr;
  const Configuration* config = nullptr;
  size_t chunk_size = 1024;
};

// Connectors the engine created while planning, keyed by the plan node they serve.
struct JobResources {
  std::map<const PlanNode*, std::shared_ptr<TableSource>> sources;
  std::map<const PlanNode*, std::shared_ptr<SinkWriter>> sinks;
  std::map<const PlanNode*, std::string> sink_names;  // for the summary
};

class Job {
 public:
  Job();
  ~Job();
  Result<JobSummary> Run();

 private:
  friend Result<std::unique_ptr<Job>> BuildJob(const std::vector<PlanNodePtr>& roots, JobResources* resources,
                                               const JobContext& ctx);
  JobContext ctx_;
  std::vector<std::unique_ptr<Operator>> operators_;
  std::vector<SourceOperatorBase*> sources_;
  std::vector<SinkOperator*> sinks_;
};

Result<std::unique_ptr<Job>> BuildJob(const std::vector<PlanNodePtr>& roots, JobResources* resources,
                                      const JobContext& ctx);

}  // namespace sluice
