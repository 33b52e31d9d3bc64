#include "engine/session.h"

#include "engine/session_sinks.h"

#include <algorithm>
#include <cstdlib>
#include <iostream>
#include <new>
#include <set>

#include "binder/binder.h"
#include "catalog/catalog.h"
#include "engine/alter_statements.h"
#include "engine/catalog_statements.h"
#include "common/clock.h"
#include "common/deep_stack.h"
#include "common/file_io.h"
#include "common/config.h"
#include "common/random_id.h"
#include "connectors/connector.h"
#include "connectors/values/values_connector.h"
#include "formats/format.h"
#include "function/evaluator.h"
#include "function/function_registry.h"
#include "plan/explain.h"
#include "plan/mini_batch_rule.h"
#include "plan/ndu_rule.h"
#include "plan/optimizer.h"
#include "plan/source_changelog_rule.h"
#include "plan/batch_physical.h"
#include "plan/split_distinct_aggregate_rule.h"
#include "plan/traits.h"
#include "plan/window_rules.h"
#include "runtime/job.h"
#include "sql/parser.h"
#include "sql/unparser.h"

namespace sluice {

namespace {

constexpr char kOkMessage[] = "[INFO] Execute statement succeeded.";

void CollectScans(const PlanNodePtr& node, std::set<PlanNode*>* seen, std::vector<PlanNode*>* scans) {
  if (!seen->insert(node.get()).second) return;
  if (node->kind == PlanKind::kTableSourceScan) scans->push_back(node.get());
  for (const auto& in : node->inputs) CollectScans(in, seen, scans);
}

// Whether any node of the plan drops rows behind the watermark (and so may write late rows).
bool AnyDropsLateRows(const PlanNodePtr& node, std::set<const PlanNode*>* seen) {
  if (!seen->insert(node.get()).second) return false;
  if (DropsLateRows(*node)) return true;
  for (const auto& in : node->inputs) {
    if (AnyDropsLateRows(in, seen)) return true;
  }
  return false;
}

std::map<std::string, std::string> MergedOptions(const CatalogTable& table,
                                                 const std::vector<std::pair<std::string, std::string>>& hints) {
  std::map<std::string, std::string> opts = table.options;
  for (const auto& [k, v] : hints) opts[k] = v;
  return opts;
}

}  // namespace

class Session::Impl {
 public:
  explicit Impl(SessionOptions options) : options_(std::move(options)) {
    if (!options_.clock) {
      system_clock_ = std::make_unique<SystemClock>();
      options_.clock = system_clock_.get();
    }
    if (!options_.out) options_.out = &std::cout;
    if (!options_.err) options_.err = &std::cerr;
  }

  Status Init() {
    for (const auto& [k, v] : options_.config) RETURN_IF_ERROR(config_.Set(k, v));
    return Status::OK();
  }

  Result<StatementResult> Execute(std::string_view text, int line, int column, QueryResultHandler* handler) {
    ASSIGN_OR_RETURN(ast::StatementPtr stmt, sql::ParseStatement(text, line - 1, column - 1));
    std::shared_ptr<ast::Statement> shared(std::move(stmt));
    return Dispatch(shared, handler);
  }

 private:
  Result<std::unique_ptr<EvalContext>> MakeEvalContext() const {
    std::string tz = config_.GetString(kLocalTimeZoneKey);
    if (tz == "default") {
      const char* env = std::getenv("TZ");
      tz = env && *env ? env : "UTC";
    }
    auto ctx = EvalContext::Make(tz, options_.clock);
    if (!ctx.ok()) return ctx.status().WithContext("Invalid '" + std::string(kLocalTimeZoneKey) + "'");
    return ctx;
  }

  // SET 'key' = 'value' (validated against the option declarations), or SET alone: every option set,
  // as rows of key and value.
  Result<StatementResult> ExecuteSet(const ast::SetStatement& s, QueryResultHandler* handler) {
    StatementResult result;
    result.text = kOkMessage;
    if (!s.key) {
      std::vector<std::vector<std::string>> rows;
      for (const auto& [k, v] : config_.values()) rows.push_back({k, v});
      RETURN_IF_ERROR(EmitStringRows(handler, {"key", "value"}, rows));
      result.kind = StatementResult::Kind::kRows;
      return result;
    }
    RETURN_IF_ERROR(config_.Set(*s.key, s.value));
    result.text = "[INFO] Execute statement succeeded.";
    return result;
  }

  // CREATE FUNCTION of a class Sluice implements natively: the name becomes an alias of the built-in.
  Status CreateFunctionAlias(const ast::CreateFunction& f) {
    ASSIGN_OR_RETURN(std::string native, NativeClass(f.name.back(), f.class_name, "create"));
    const std::string name = UpperName(f.name.back());
    if (function_aliases_.count(name)) {
      if (f.if_not_exists) return Status::OK();
      return Status::BindError("Could not execute CREATE FUNCTION: function '" + f.name.back() + "' already exists");
    }
    function_aliases_[name] = native;
    return Status::OK();
  }

  Result<StatementResult> Dispatch(const std::shared_ptr<ast::Statement>& stmt, QueryResultHandler* handler) {
    StatementResult result;
    result.text = kOkMessage;
    ASSIGN_OR_RETURN(auto eval, MakeEvalContext());
    Binder binder(&catalog_, &config_, eval.get(), &function_aliases_);
    if (IsCatalogStatement(*stmt)) {
      ASSIGN_OR_RETURN(bool rows, ExecuteCatalogStatement(*stmt, &catalog_, handler));
      if (rows) result.kind = StatementResult::Kind::kRows;
      return result;
    }
    switch (stmt->kind) {
      case ast::StatementKind::kCreateTable: {
        auto ddl = std::static_pointer_cast<const ast::CreateTable>(std::shared_ptr<const ast::Statement>(stmt));
        if (ddl->as_query) {
          // CTAS: the table is created, then the query's INSERT runs (not atomic, as in Flink: a
          // failing INSERT leaves the table).
          ASSIGN_OR_RETURN(auto ctas, binder.BindCreateTableAs(ddl));
          if (ddl->replace || ddl->or_replace) {  // RTAS: the old table goes first
            RETURN_IF_ERROR(catalog_.Drop(ctas.table->path, /*view=*/false, /*if_exists=*/true));
          }
          RETURN_IF_ERROR(catalog_.CreateTable(ctas.table, ddl->if_not_exists));
          return Run({ctas.sink}, {ctas.sink}, handler, eval.get());
        }
        ASSIGN_OR_RETURN(auto table, binder.BindCreateTable(ddl));
        RETURN_IF_ERROR(catalog_.CreateTable(table, ddl->if_not_exists));
        return result;
      }
      case ast::StatementKind::kCreateView: {
        auto ddl = std::static_pointer_cast<const ast::CreateView>(std::shared_ptr<const ast::Statement>(stmt));
        ASSIGN_OR_RETURN(auto view, binder.BindCreateView(ddl));
        RETURN_IF_ERROR(catalog_.CreateView(view, ddl->if_not_exists));
        return result;
      }
      case ast::StatementKind::kDrop: {
        const auto& d = stmt->As<ast::Drop>();
        ASSIGN_OR_RETURN(ObjectPath p, catalog_.Resolve(d.name));
        RETURN_IF_ERROR(catalog_.Drop(p, d.object == ast::ObjectKind::kView, d.if_exists));
        return result;
      }
      case ast::StatementKind::kAlterTable: {
        RETURN_IF_ERROR(ExecuteAlterTable(stmt->As<ast::AlterTable>(), &catalog_, &binder));
        return result;
      }
      case ast::StatementKind::kAlterView: {
        RETURN_IF_ERROR(ExecuteAlterView(stmt->As<ast::AlterView>(), &catalog_, &binder));
        return result;
      }
      case ast::StatementKind::kAlterFunction: {
        RETURN_IF_ERROR(AlterFunction(stmt->As<ast::AlterFunction>()));
        return result;
      }
      case ast::StatementKind::kShow: return Show(stmt->As<ast::Show>(), handler);
      case ast::StatementKind::kShowCreate: return ShowCreate(stmt->As<ast::ShowCreate>());
      case ast::StatementKind::kDescribe: return Describe(stmt->As<ast::Describe>(), handler);
      case ast::StatementKind::kSet: return ExecuteSet(stmt->As<ast::SetStatement>(), handler);
      case ast::StatementKind::kReset: {
        const auto& r = stmt->As<ast::Reset>();
        if (r.key) config_.Reset(*r.key);
        else config_.ResetAll();
        return result;
      }
      case ast::StatementKind::kQuery: {
        const auto& q = stmt->As<ast::QueryStatement>();
        ASSIGN_OR_RETURN(PlanNodePtr plan, binder.BindQuery(*q.query));
        auto sink = std::make_shared<SinkNode>();
        sink->schema = plan->schema;
        sink->inputs = {plan};
        return Run({sink}, {sink}, handler, eval.get());
      }
      case ast::StatementKind::kInsert: {
        ASSIGN_OR_RETURN(PlanNodePtr plan, binder.BindInsert(stmt->As<ast::Insert>()));
        return Run({plan}, {plan}, handler, eval.get());
      }
      case ast::StatementKind::kStatementSet: {
        std::vector<PlanNodePtr> roots;
        for (const auto& ins : stmt->As<ast::StatementSet>().inserts) {
          ASSIGN_OR_RETURN(PlanNodePtr plan, binder.BindInsert(*ins));
          roots.push_back(plan);
        }
        return Run(roots, roots, handler, eval.get());
      }
      case ast::StatementKind::kExplain: return Explain(stmt->As<ast::Explain>(), &binder);
      case ast::StatementKind::kCreateCatalog:
      case ast::StatementKind::kCreateDatabase:
      case ast::StatementKind::kUse: break;  // catalog statements, handled above
      case ast::StatementKind::kCreateFunction: {
        RETURN_IF_ERROR(CreateFunctionAlias(stmt->As<ast::CreateFunction>()));
        return result;
      }
    }
    return Status::Internal("unknown statement");
  }

  static std::string UpperName(std::string name) {
    for (char& c : name) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    return name;
  }

  // The built-in a function's class runs as: Sluice runs no JVM, so CREATE / ALTER FUNCTION name a
  // class it implements natively.
  static Result<std::string> NativeClass(const std::string& function, const std::string& class_name, const char* verb) {
    static const std::map<std::string, std::string> kNativeClasses = {
        {"com.github.nexmark.flink.udf.CountChar", "COUNT_CHAR"},
    };
    auto native = kNativeClasses.find(class_name);
    if (native != kNativeClasses.end()) return native->second;
    std::string known;
    for (const auto& [cls, fn] : kNativeClasses) known += (known.empty() ? "" : ", ") + cls + " (" + fn + ")";
    return Status::NotSupported(std::string("Cannot ") + verb + " function '" + function +
                                "': Sluice runs no JVM and cannot load class '" + class_name +
                                "'. Classes with native implementations: " + known);
  }

  // ALTER FUNCTION: a function CREATE FUNCTION declared runs another (native) class.
  Status AlterFunction(const ast::AlterFunction& f) {
    const std::string name = UpperName(f.name.back());
    auto it = function_aliases_.find(name);
    if (it == function_aliases_.end()) {
      if (f.if_exists) return Status::OK();
      // Flink's FunctionNotExistException.
      return Status::BindError("Function " + catalog_.current_database() + "." + f.name.back() +
                               " does not exist in Catalog " + catalog_.current_catalog() + ". (at line " +
                               std::to_string(f.pos.line) + ", column " + std::to_string(f.pos.column) + ")");
    }
    ASSIGN_OR_RETURN(it->second, NativeClass(f.name.back(), f.class_name, "alter"));
    return Status::OK();
  }

  // Binds and optimizes statement roots, creates their connectors, infers traits and validates sinks.
  struct Planned {
    std::vector<PlanNodePtr> logical;
    std::vector<PlanNodePtr> physical;
    JobResources resources;
  };

  // The table source of every scan in the optimized plan, created with the scan's projection, filters
  // and metadata columns; each scan learns its source's changelog mode.
  Status CreateSources(Planned* planned) {
    const auto& registry = ConnectorRegistry::Builtin();
    std::set<PlanNode*> seen;
    std::vector<PlanNode*> scans;
    for (const auto& r : planned->physical) CollectScans(r, &seen, &scans);
    for (PlanNode* node : scans) {
      auto& scan = node->As<TableSourceScanNode>();
      const CatalogTable& table = *scan.table;
      ASSIGN_OR_RETURN(const ConnectorFactory* factory, WithTable(registry.Find(table.connector()), table));
      ConnectorContext ctx = MakeContext(table, scan.hint_options);
      ctx.projection = scan.projection;
      ctx.filters = scan.filters;
      for (int m : scan.metadata) ctx.metadata.push_back({table.columns[static_cast<size_t>(m)].metadata_key, table.columns[static_cast<size_t>(m)].type});
      ASSIGN_OR_RETURN(std::unique_ptr<TableSource> source, factory->CreateSource(ctx));
      scan.source_mode = source->changelog_mode();
      planned->resources.sources[node] = std::move(source);
    }
    return Status::OK();
  }

  using TableSinks = std::map<const PlanNode*, std::unique_ptr<TableSink>>;

  // The table sink of every INSERT root (a SELECT root collects into `handler`), with the sink node's
  // accepted changelog mode, primary key and upsert-materialize settings; writers come later, once the
  // plan is valid.
  Result<TableSinks> CreateTableSinks(Planned* planned, QueryResultHandler* handler) {
    const auto& registry = ConnectorRegistry::Builtin();
    TableSinks table_sinks;
    for (auto& r : planned->physical) {
      auto& sink = r->As<SinkNode>();
      if (!sink.table) {
        sink.accepted_mode = ChangelogMode::All();
        planned->resources.sinks[r.get()] = MakeCollectWriter(handler);
        planned->resources.sink_names[r.get()] = "(select)";
        continue;
      }
      const CatalogTable& table = *sink.table;
      ASSIGN_OR_RETURN(const ConnectorFactory* factory, WithTable(registry.Find(table.connector()), table));
      ConnectorContext ctx = MakeContext(table, sink.hint_options);
      RETURN_IF_ERROR(AddSinkMetadata(*factory, table, &ctx));
      ASSIGN_OR_RETURN(std::unique_ptr<TableSink> tsink, factory->CreateSink(ctx));
      sink.accepted_mode = tsink->accepted_changelog_mode();
      sink.primary_key.clear();
      for (const auto& k : table.primary_key) {
        if (auto idx = sink.schema.IndexOf(k)) sink.primary_key.push_back(static_cast<int>(*idx));
      }
      switch (config_.GetEnum<UpsertMaterializeOption>(kSinkUpsertMaterializeKey)) {
        case UpsertMaterializeOption::kNone: sink.upsert_materialize_mode = SinkNode::UpsertMaterialize::kNone; break;
        case UpsertMaterializeOption::kForce: sink.upsert_materialize_mode = SinkNode::UpsertMaterialize::kForce; break;
        case UpsertMaterializeOption::kAuto: sink.upsert_materialize_mode = SinkNode::UpsertMaterialize::kAuto; break;
      }
      sink.require_on_conflict = config_.GetBool(kSinkRequireOnConflictKey);
      table_sinks[r.get()] = std::move(tsink);
      planned->resources.sink_names[r.get()] = table.path.name;
    }
    return table_sinks;
  }

  Result<Planned> PlanRoots(std::vector<PlanNodePtr> roots, QueryResultHandler* handler, bool create_writers) {
    Planned planned;
    planned.logical = roots;
    job_id_ = RandomJobId();  // one id for every connector of this job (MakeContext)
    const auto& registry = ConnectorRegistry::Builtin();
    SourceModeFn mode_of = [&](const TableSourceScanNode& scan) -> Result<ChangelogMode> {
      const CatalogTable& table = *scan.table;
      ASSIGN_OR_RETURN(const ConnectorFactory* factory, WithTable(registry.Find(table.connector()), table));
      return factory->SourceChangelogMode(MakeContext(table, scan.hint_options));
    };
    ASSIGN_OR_RETURN(std::vector<PlanNodePtr> with_sources,
                     PlaceSourceChangelogNodes(roots, mode_of, config_.GetBool(kCdcEventsDuplicateKey)));
    FilterPushDownFn push_filters = [&](const TableSourceScanNode& scan, const std::vector<ExprPtr>& filters)
        -> Result<std::optional<std::vector<bool>>> {
      const CatalogTable& table = *scan.table;
      ASSIGN_OR_RETURN(const ConnectorFactory* factory, WithTable(registry.Find(table.connector()), table));
      if (!factory->supports_filter_push_down()) return std::optional<std::vector<bool>>();
      ASSIGN_OR_RETURN(std::vector<bool> accepted, factory->ApplyFilters(MakeContext(table, scan.hint_options), filters));
      return std::optional<std::vector<bool>>(std::move(accepted));
    };
    if (!config_.GetBool(kSourcePredicatePushdownKey)) push_filters = nullptr;
    ASSIGN_OR_RETURN(planned.physical, OptimizePlans(with_sources, push_filters, batch_mode()));
    if (!batch_mode() && config_.GetBool("table.optimizer.distinct-agg.split.enabled")) {
      RETURN_IF_ERROR(ApplySplitDistinctAggregates(&planned.physical,
                                                   config_.GetInt("table.optimizer.distinct-agg.split.bucket-num")));
    }
    RETURN_IF_ERROR(CreateSources(&planned));
    ASSIGN_OR_RETURN(TableSinks table_sinks, CreateTableSinks(&planned, handler));
    ASSIGN_OR_RETURN(std::unique_ptr<TableSink> late_rows_sink, PlanLateRowsTable(&planned));
    // Writers are created only for a plan that passed validation, so a refused INSERT leaves no files.
    auto create = [&]() -> Status {
      if (!create_writers) return Status::OK();
      for (auto& [node, tsink] : table_sinks) {
        tsink->SetInputChangelogMode(batch_mode() ? ChangelogMode::InsertOnly() : node->inputs[0]->changelog_mode);
        ASSIGN_OR_RETURN(std::unique_ptr<SinkWriter> writer, tsink->CreateWriter());
        planned.resources.sinks[node] = std::move(writer);
      }
      if (late_rows_sink) {
        ASSIGN_OR_RETURN(std::unique_ptr<SinkWriter> writer, late_rows_sink->CreateWriter());
        planned.resources.late_rows_writer = std::move(writer);
      }
      return Status::OK();
    };
    if (batch_mode()) {
      // Batch sinks fold the changelog, which needs every update's before-image.
      for (auto& r : planned.physical) {
        r->As<SinkNode>().accepted_mode = ChangelogMode::All();
        r->As<SinkNode>().upsert_materialize_mode = SinkNode::UpsertMaterialize::kNone;
      }
    }
    // Batch mode: one logical plan; batch physical nodes where Flink's batch planner has them
    // (plan/batch_physical.h), with the traits inferred.
    if (batch_mode()) {
      RETURN_IF_ERROR(ApplyBatchPhysicalRules(config_, &planned.physical));
    } else {
      if (config_.GetBool("table.exec.mini-batch.enabled")) MarkMiniBatchOperators(planned.physical);
      RETURN_IF_ERROR(InferChangelogModes(planned.physical));
    }
    if (batch_mode()) {
      for (const auto& [node, source] : planned.resources.sources) {
        if (!source->bounded()) {
          return Status::PlanError("Querying an unbounded table '" + node->As<TableSourceScanNode>().table->path.FullName() +
                                   "' in batch mode is not allowed. The table source is unbounded.");
        }
        // As Flink's DynamicSourceUtils: a batch job reads only insert-only sources.
        if (!node->As<TableSourceScanNode>().source_mode.IsInsertOnly()) {
          return Status::PlanError(
              "Querying a table in batch mode is currently only possible for INSERT-only table sources. But the source "
              "for table '" +
              node->As<TableSourceScanNode>().table->path.FullName() +
              "' produces other changelog messages than just INSERT.");
        }
      }
      RETURN_IF_ERROR(create());
      // Batch results are final and insert-only, so any sink can store them. A plan whose sink input
      // still updates (a streaming operator without a batch counterpart yet) is folded at the sink.
      for (auto& [node, writer] : planned.resources.sinks) {
        if (!node->inputs[0]->changelog_mode.IsInsertOnly()) writer = MakeFinalResultWriter(writer);
      }
    } else {
      if (config_.GetEnum<NonDeterministicUpdateStrategy>(kNonDeterministicUpdateStrategyKey) ==
          NonDeterministicUpdateStrategy::kTryResolve) {
        RETURN_IF_ERROR(ResolveNonDeterministicUpdates(planned.physical));
      }
      RETURN_IF_ERROR(ValidateSinks(planned.physical));
      if (config_.GetBool("table.exec.mini-batch.enabled")) {
        ApplyMiniBatchRules(&planned.physical, config_.GetDurationMillis("table.exec.mini-batch.allow-latency"),
                            config_.GetEnum<AggPhaseStrategy>(kAggPhaseStrategyKey) != AggPhaseStrategy::kOnePhase);
      }
      RETURN_IF_ERROR(create());
    }
    return planned;
  }

  bool batch_mode() const {
    return IsBatchRuntimeMode(config_);
  }

  // The late-rows table ('sluice.exec.late-rows.table') of a plan that can drop late rows: checked
  // (a table with a sink connector and the columns runtime/late_rows.h lists) and its sink created;
  // null when the option is empty or nothing in the plan drops late rows.
  Result<std::unique_ptr<TableSink>> PlanLateRowsTable(Planned* planned) {
    const std::string name = config_.GetString(kLateRowsTableKey);
    if (name.empty()) return std::unique_ptr<TableSink>();
    std::set<const PlanNode*> seen;
    bool drops = false;
    for (const auto& r : planned->physical) drops = drops || AnyDropsLateRows(r, &seen);
    if (!drops) return std::unique_ptr<TableSink>();
    const std::string context = "Invalid '" + std::string(kLateRowsTableKey) + "' = '" + name + "'";
    ast::Name parts;
    for (size_t b = 0;;) {
      size_t e = name.find('.', b);
      parts.push_back(name.substr(b, e == std::string::npos ? std::string::npos : e - b));
      if (e == std::string::npos) break;
      b = e + 1;
    }
    auto path = catalog_.Resolve(parts);
    if (!path.ok()) return path.status().WithContext(context);
    auto entry = catalog_.Lookup(*path);
    if (!entry.ok()) return entry.status().WithContext(context);
    if (!entry->table) {
      return Status::PlanError(context + ": '" + name + "' is a view; late rows need a table with a sink connector");
    }
    const CatalogTable& table = *entry->table;
    ASSIGN_OR_RETURN(planned->resources.late_rows_columns, ValidateLateRowsTable(table.path.name, table.physical_schema()));
    const auto& registry = ConnectorRegistry::Builtin();
    ASSIGN_OR_RETURN(const ConnectorFactory* factory, WithTable(registry.Find(table.connector()), table));
    ASSIGN_OR_RETURN(std::unique_ptr<TableSink> sink, WithTable(factory->CreateSink(MakeContext(table, {})), table));
    if (!sink->accepted_changelog_mode().Contains(RowKind::kInsert)) {
      return Status::PlanError(context + ": table '" + table.path.name + "' does not accept inserts");
    }
    planned->resources.late_rows_table = table.path.name;
    return sink;
  }

  template <typename T>
  static Result<T> WithTable(Result<T> r, const CatalogTable& table) {
    if (r.ok()) return r;
    return r.status().WithContext("Table '" + table.path.FullName() + "'");
  }

  ConnectorContext MakeContext(const CatalogTable& table, const std::vector<std::pair<std::string, std::string>>& hints) {
    ConnectorContext ctx;
    ctx.table_name = table.path.FullName();
    ctx.physical_schema = table.physical_schema();
    ctx.primary_key = table.primary_key;
    ctx.partition_keys = table.partition_keys;
    ctx.options = MergedOptions(table, hints);
    ctx.config = &config_.values();
    ctx.out = options_.out;
    ctx.err = options_.err;
    ctx.chunk_size = static_cast<size_t>(config_.GetInt(kChunkSizeKey));  // SET keeps it within [1, 2^20]
    ctx.values_registry = &values_;
    ctx.job_id = job_id_;
    return ctx;
  }

  Result<StatementResult> Run(std::vector<PlanNodePtr> roots, std::vector<PlanNodePtr>, QueryResultHandler* handler,
                              EvalContext* eval) {
    ASSIGN_OR_RETURN(Planned planned, PlanRoots(std::move(roots), handler, true));
    bool is_query = planned.physical.size() == 1 && !planned.physical[0]->As<SinkNode>().table;
    JobContext jctx;
    jctx.eval = eval;
    jctx.config = &config_;
    jctx.chunk_size = static_cast<size_t>(config_.GetInt(kChunkSizeKey));
    ++jobs_run_;
    jctx.checkpoint_roundtrip = config_.GetBool("sluice.exec.checkpoint-roundtrip");
    jctx.checkpoints.interval_ms = config_.GetDurationMillis("execution.checkpointing.interval");
    jctx.checkpoints.num_retained = static_cast<int>(config_.GetInt("state.checkpoints.num-retained"));
    // Flink spells local checkpoint locations as URIs ('file:///data/ck'); both name the same folder.
    jctx.checkpoints.restore_path = LocalPathOf(config_.GetString("execution.savepoint.path"));
    jctx.checkpoints.incremental = config_.GetBool("execution.checkpointing.incremental");
    {
      const std::string threshold = config_.GetString("state.storage.fs.memory-threshold");
      ASSIGN_OR_RETURN(jctx.checkpoints.memory_threshold_bytes, ParseMemorySize(threshold));
      if (jctx.checkpoints.memory_threshold_bytes > (int64_t{1} << 20)) {
        return Status::InvalidArgument("'state.storage.fs.memory-threshold' must be at most 1mb (as in Flink), got '" +
                                       threshold + "'");
      }
    }
    jctx.job_name = config_.GetString("pipeline.name");
    if (jctx.job_name.empty()) jctx.job_name = "job-" + std::to_string(jobs_run_);
    if (const std::string budget = config_.GetString(kProcessMemoryKey); !budget.empty()) {
      ASSIGN_OR_RETURN(jctx.memory_budget_bytes, ParseMemorySize(budget));
    }
    if (const std::string dir = config_.GetString("state.checkpoints.dir"); !dir.empty()) {
      std::string job = jctx.job_name;
      for (char& c : job) {
        if (c == '/' || c == '\\' || c == '\0') c = '_';
      }
      jctx.checkpoints.job_dir = LocalPathOf(dir) + "/" + job;
    } else if (jctx.checkpoints.interval_ms > 0) {
      return Status::InvalidArgument("'execution.checkpointing.interval' is set but 'state.checkpoints.dir' is not: "
                                     "Sluice keeps checkpoints in files; set 'state.checkpoints.dir'");
    }
    jctx.checkpoints.min_pause_ms = config_.GetDurationMillis("execution.checkpointing.min-pause");
    jctx.checkpoints.timeout_ms = config_.GetDurationMillis("execution.checkpointing.timeout");
    jctx.checkpoints.tolerable_failed = config_.GetInt("execution.checkpointing.tolerable-failed-checkpoints");
    if (jctx.checkpoints.timeout_ms < 1) {
      return Status::InvalidArgument("'execution.checkpointing.timeout' must be at least 1 ms, got '" +
                                     config_.GetString("execution.checkpointing.timeout") + "'");
    }
    if (is_query && handler && handler->FinalTableOnly() && !planned.physical[0]->As<SinkNode>().upsert_materialize) {
      jctx.final_table_input = planned.physical[0]->inputs[0].get();
    }
    ASSIGN_OR_RETURN(auto job, BuildJob(planned.physical, &planned.resources, jctx));
    if (is_query && handler) {
      handler->SetUpsertKey(UpsertKeyIndexes(*planned.physical[0]->inputs[0]));
      RETURN_IF_ERROR(handler->Begin(planned.physical[0]->schema));
    }
    Result<JobSummary> run = job->Run();
    last_job_summary_ = job->summary();
    ASSIGN_OR_RETURN(JobSummary summary, std::move(run));
    if (is_query && handler) RETURN_IF_ERROR(handler->End());
    StatementResult result;
    result.kind = StatementResult::Kind::kJob;
    result.summary = summary;
    return result;
  }

  Result<StatementResult> Explain(const ast::Explain& ex, Binder* binder) {
    std::vector<PlanNodePtr> roots;
    bool is_query = false;
    switch (ex.inner->kind) {
      case ast::StatementKind::kQuery: {
        ASSIGN_OR_RETURN(PlanNodePtr plan, binder->BindQuery(*ex.inner->As<ast::QueryStatement>().query));
        auto sink = std::make_shared<SinkNode>();
        sink->schema = plan->schema;
        sink->inputs = {plan};
        roots.push_back(sink);
        is_query = true;
        break;
      }
      case ast::StatementKind::kInsert: {
        ASSIGN_OR_RETURN(PlanNodePtr plan, binder->BindInsert(ex.inner->As<ast::Insert>()));
        roots.push_back(plan);
        break;
      }
      case ast::StatementKind::kStatementSet:
        for (const auto& ins : ex.inner->As<ast::StatementSet>().inserts) {
          ASSIGN_OR_RETURN(PlanNodePtr plan, binder->BindInsert(*ins));
          roots.push_back(plan);
        }
        break;
      case ast::StatementKind::kCreateTable: {
        // EXPLAIN of a CTAS: the plan of its INSERT (the table is not created).
        // A non-owning pointer: the statement outlives the EXPLAIN.
        std::shared_ptr<const ast::CreateTable> ddl(std::shared_ptr<void>(), &ex.inner->As<ast::CreateTable>());
        if (!ddl->as_query) return Status::NotSupported("EXPLAIN of CREATE TABLE without AS SELECT (EXPLAIN takes a query, INSERT, statement set or CREATE TABLE ... AS SELECT)");
        ASSIGN_OR_RETURN(auto ctas, binder->BindCreateTableAs(ddl));
        roots.push_back(ctas.sink);
        break;
      }
      default: return Status::NotSupported("EXPLAIN of this statement kind (EXPLAIN takes a query, INSERT or statement set)");
    }
    ExplainOptions opts;
    for (auto d : ex.details) {
      if (d == ast::ExplainDetail::kChangelogMode) opts.changelog_mode = true;
      else if (d != ast::ExplainDetail::kChangelogMode) {
        return Status::NotSupported(std::string("EXPLAIN ") +
                                    (d == ast::ExplainDetail::kEstimatedCost ? "ESTIMATED_COST"
                                     : d == ast::ExplainDetail::kPlanAdvice ? "PLAN_ADVICE"
                                                                              : "JSON_EXECUTION_PLAN") +
                                    " is not supported by Sluice yet (CHANGELOG_MODE is)");
      }
    }
    ASSIGN_OR_RETURN(Planned planned, PlanRoots(roots, nullptr, false));
    std::vector<PlanNodePtr> logical = planned.logical, physical = planned.physical;
    if (is_query) {
      // Flink prints a query's plan without the collecting sink.
      logical = {logical[0]->inputs[0]};
      physical = {physical[0]->inputs[0]};
    }
    StatementResult result;
    result.kind = StatementResult::Kind::kText;
    opts.late_rows_table = planned.resources.late_rows_table;
    result.text = ExplainPlan(logical, physical, opts);
    return result;
  }

  Result<StatementResult> Show(const ast::Show& show, QueryResultHandler* handler) {
    StatementResult result;
    result.kind = StatementResult::Kind::kRows;
    std::vector<std::vector<std::string>> rows;
    switch (show.show_kind) {
      case ast::ShowKind::kFunctions:
        for (const auto& n : ScalarFunctionNames()) rows.push_back({n});
        RETURN_IF_ERROR(EmitStringRows(handler, {"function name"}, rows));
        break;
      case ast::ShowKind::kModules: RETURN_IF_ERROR(EmitStringRows(handler, {"module name"}, {{"core"}})); break;
      default: return Status::Internal("SHOW kind handled by the catalog statements");
    }
    return result;
  }

  Result<StatementResult> Describe(const ast::Describe& d, QueryResultHandler* handler) {
    ASSIGN_OR_RETURN(ObjectPath p, catalog_.Resolve(d.name));
    ASSIGN_OR_RETURN(Catalog::Entry e, catalog_.Lookup(p));
    std::vector<std::vector<std::string>> rows;
    if (e.table) {
      const auto& t = *e.table;
      for (size_t i = 0; i < t.columns.size(); ++i) {
        const auto& c = t.columns[i];
        std::string key;
        if (std::find(t.primary_key.begin(), t.primary_key.end(), c.name) != t.primary_key.end()) {
          std::string cols;
          for (const auto& k : t.primary_key) cols += (cols.empty() ? "" : ", ") + k;
          key = "PRI(" + cols + ")";
        }
        std::string extras;
        if (c.kind == ast::ColumnKind::kComputed) extras = "AS " + sql::Unparse(*c.expr);
        if (c.kind == ast::ColumnKind::kMetadata) {
          extras = "METADATA FROM '" + c.metadata_key + "'";
          if (c.is_virtual) extras += " VIRTUAL";
        }
        std::string wm;
        if (t.rowtime_column && *t.rowtime_column == i) wm = sql::Unparse(*t.watermark_expr);
        rows.push_back({c.name, c.type.WithNullable(true).ToString(), c.type.nullable() ? "TRUE" : "FALSE", key, extras, wm});
      }
    } else {
      for (const auto& f : e.view->schema.fields()) {
        rows.push_back({f.name, f.type.WithNullable(true).ToString(), f.type.nullable() ? "TRUE" : "FALSE", "", "", ""});
      }
    }
    RETURN_IF_ERROR(EmitStringRows(handler, {"name", "type", "null", "key", "extras", "watermark"}, rows));
    StatementResult result;
    result.kind = StatementResult::Kind::kRows;
    return result;
  }

  Result<StatementResult> ShowCreate(const ast::ShowCreate& sc) {
    if (sc.object == ast::ObjectKind::kCatalog) {
      StatementResult result;
      result.kind = StatementResult::Kind::kText;
      ASSIGN_OR_RETURN(result.text, ShowCreateCatalog(sc, catalog_));
      return result;
    }
    ASSIGN_OR_RETURN(ObjectPath p, catalog_.Resolve(sc.name));
    ASSIGN_OR_RETURN(Catalog::Entry e, catalog_.Lookup(p));
    StatementResult result;
    result.kind = StatementResult::Kind::kText;
    if (e.view) {
      if (sc.object == ast::ObjectKind::kTable) return Status::BindError("SHOW CREATE TABLE is only supported for tables, but `" + p.FullName() + "` is a view. Please use SHOW CREATE VIEW instead.");
      result.text = "CREATE VIEW `" + p.catalog + "`.`" + p.database + "`.`" + p.name + "` AS\n" +
                    (e.view->ddl->query_text.empty() ? sql::Unparse(*e.view->ddl->query) : e.view->ddl->query_text) + "\n";
      return result;
    }
    const auto& t = *e.table;
    std::string s = std::string("CREATE ") + (t.temporary ? "TEMPORARY " : "") + "TABLE `" + p.catalog + "`.`" +
                    p.database + "`.`" + p.name + "` (\n";
    std::vector<std::string> lines;
    for (const auto& c : t.columns) {
      std::string l = "  " + sql::QuoteIdentifier(c.name) + " ";
      if (c.kind == ast::ColumnKind::kComputed) {
        l += "AS " + sql::Unparse(*c.expr);
      } else {
        l += sql::UnparseType(c.type.WithTimeAttribute(TimeAttribute::kNone));
        if (c.kind == ast::ColumnKind::kMetadata) {
          l += " METADATA";
          if (c.metadata_key != c.name) l += " FROM " + sql::QuoteString(c.metadata_key);
          if (c.is_virtual) l += " VIRTUAL";
        }
      }
      lines.push_back(l);
    }
    if (t.rowtime_column) {
      lines.push_back("  WATERMARK FOR " + sql::QuoteIdentifier(t.columns[*t.rowtime_column].name) + " AS " +
                      sql::Unparse(*t.watermark_expr));
    }
    if (!t.primary_key.empty()) {
      std::string cols;
      for (const auto& k : t.primary_key) cols += (cols.empty() ? "" : ", ") + sql::QuoteIdentifier(k);
      lines.push_back("  PRIMARY KEY (" + cols + ") NOT ENFORCED");
    }
    for (size_t i = 0; i < lines.size(); ++i) s += lines[i] + (i + 1 < lines.size() ? ",\n" : "\n");
    s += ")";
    if (!t.partition_keys.empty()) s += " PARTITIONED BY " + sql::PartitionTermsText(t.partition_keys);
    s += " WITH (\n";
    for (size_t i = 0; i < t.ordered_options.size(); ++i) {
      // Secret-looking values (passwords, sasl.jaas.config, ...) never leave the session.
      const std::string value = ShownOptionValue(t.ordered_options[i].first, t.ordered_options[i].second);
      s += "  " + sql::QuoteString(t.ordered_options[i].first) + " = " + sql::QuoteString(value) +
           (i + 1 < t.ordered_options.size() ? ",\n" : "\n");
    }
    s += ")\n";
    result.text = s;
    return result;
  }

 public:
  SessionOptions options_;
  std::unique_ptr<SystemClock> system_clock_;
  Configuration config_;
  int jobs_run_ = 0;  // jobs this session ran (names checkpoint folders job-<n>)
  std::optional<JobSummary> last_job_summary_;  // of the last statement's job (Session::LastJobSummary)
  Catalog catalog_;
  ValuesDataRegistry values_;
  std::string job_id_;  // of the job being planned (PlanRoots), handed to its connectors
  // Functions declared with CREATE FUNCTION (upper-case name -> the native built-in it runs).
  std::map<std::string, std::string> function_aliases_;
};

Session::Session(SessionOptions options) : impl_(std::make_unique<Impl>(std::move(options))) {
  init_status_ = impl_->Init();
}

Session::~Session() = default;

Result<StatementResult> Session::Execute(std::string_view statement, QueryResultHandler* handler) {
  return ExecuteAt(statement, 1, 1, handler);
}

Result<StatementResult> Session::ExecuteAt(std::string_view statement, int line, int column, QueryResultHandler* handler) {
  impl_->last_job_summary_.reset();
  RETURN_IF_ERROR(init_status_);
  // A job turns a failed allocation into an error naming its operator (runtime/memory_budget.h);
  // one while parsing, planning or building a job ends here, so an embedding program keeps running.
  try {
    // Deeply nested SQL recurses as deep as the statement nests (common/deep_stack.h).
    std::optional<Result<StatementResult>> result;
    RunOnDeepStack([&] { result.emplace(impl_->Execute(statement, line, column, handler)); });
    return std::move(*result);
  } catch (const std::bad_alloc&) {
    return Status::RuntimeError("Out of memory (an allocation failed: std::bad_alloc) while parsing, planning or "
                                "starting the statement at line " + std::to_string(line) + ", column " +
                                std::to_string(column));
  }
}

const std::optional<JobSummary>& Session::LastJobSummary() const { return impl_->last_job_summary_; }

ValuesDataRegistry* Session::values_registry() { return &impl_->values_; }

Result<std::string> Session::GetConfig(const std::string& key) const {
  if (!FindConfigOption(key) && !impl_->config_.IsSet(key)) return Status::NotFound("Unknown configuration key '" + key + "'");
  return impl_->config_.GetString(key);
}

}  // namespace sluice
