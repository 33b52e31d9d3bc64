// The Iceberg source: a bounded scan of one snapshot (or an incremental append range) chosen by the
// read options (iceberg_read_options.h), planned when the source is created (scan_planner.h), one
// split per data file (iceberg_scan_reader.h). Restore re-reads a split and skips the rows emitted
// before the checkpoint (the default of SourceSplit), which is exact because a snapshot's files are
// immutable. With 'streaming' = 'true', one split follows new snapshots (iceberg_streaming_split.h).
#include <memory>

#include "common/file_io.h"
#include "connectors/iceberg/iceberg_connector.h"
#include "connectors/iceberg/iceberg_file_io.h"
#include "connectors/iceberg/iceberg_filter.h"
#include "connectors/iceberg/iceberg_options.h"
#include "connectors/iceberg/iceberg_pruning.h"
#include "connectors/iceberg/iceberg_read_options.h"
#include "connectors/iceberg/iceberg_scan_reader.h"

namespace sluice {
namespace {

class IcebergTableSource final : public TableSource {
 public:
  IcebergTableSource(std::shared_ptr<IcebergDeleteLoader> deletes, std::shared_ptr<const IcebergReadSchema> schema,
                     std::vector<FileScanTask> tasks, int64_t limit, std::optional<IcebergScanMetrics> metrics)
      : deletes_(std::move(deletes)),
        schema_(std::move(schema)),
        tasks_(std::move(tasks)),
        limit_(limit),
        metrics_(std::move(metrics)) {}

  bool bounded() const override { return true; }
  Result<std::vector<std::unique_ptr<SourceSplit>>> CreateSplits() override {
    std::vector<std::unique_ptr<SourceSplit>> splits;
    IcebergRowBudget budget = limit_ >= 0 ? std::make_shared<std::atomic<int64_t>>(limit_) : nullptr;
    for (const FileScanTask& t : tasks_) splits.push_back(NewIcebergFileSplit(deletes_, schema_, t, budget));
    return splits;
  }
  // With pushed-down filters: how many data files the scan reads and skipped (Iceberg's ScanMetrics).
  std::vector<std::pair<std::string, std::string>> SummaryFields() const override {
    return metrics_ ? metrics_->SummaryFields() : std::vector<std::pair<std::string, std::string>>{};
  }

 private:
  std::shared_ptr<IcebergDeleteLoader> deletes_;
  std::shared_ptr<const IcebergReadSchema> schema_;
  std::vector<FileScanTask> tasks_;
  int64_t limit_;
  std::optional<IcebergScanMetrics> metrics_;
};

// The conjunction of the pushed-down filters bound to the table's current schema; nullopt when there
// are none. A filter that no longer binds (a column dropped since planning) prunes nothing.
std::optional<IcebergFilter> PushedFilter(const ConnectorContext& ctx, const IcebergSchema& schema) {
  if (ctx.filters.empty()) return std::nullopt;
  std::vector<IcebergFilter> parts;
  for (const auto& f : ctx.filters) {
    if (auto c = ConvertIcebergFilter(*f, ctx.physical_schema, &schema)) parts.push_back(std::move(*c));
  }
  return IcebergFilter::And(std::move(parts));
}

class IcebergStreamingSource final : public TableSource {
 public:
  IcebergStreamingSource(IcebergMetadataLoader loader, std::shared_ptr<IcebergDeleteLoader> deletes,
                         std::shared_ptr<const IcebergReadSchema> schema, IcebergStreamingOptions options,
                         std::string table)
      : loader_(std::move(loader)),
        deletes_(std::move(deletes)),
        schema_(std::move(schema)),
        options_(options),
        table_(std::move(table)) {}

  bool bounded() const override { return options_.end_snapshot_id.has_value(); }
  Result<std::vector<std::unique_ptr<SourceSplit>>> CreateSplits() override {
    std::vector<std::unique_ptr<SourceSplit>> splits;
    splits.push_back(
        NewIcebergStreamingSplit(loader_, deletes_, schema_, options_, GeneratorTiming::System(), table_));
    return splits;
  }

 private:
  IcebergMetadataLoader loader_;
  std::shared_ptr<IcebergDeleteLoader> deletes_;
  std::shared_ptr<const IcebergReadSchema> schema_;
  IcebergStreamingOptions options_;
  std::string table_;
};

}  // namespace

std::vector<OptionSpec> IcebergReadOptionSpecs() { return IcebergReadOptionSpecList(); }

Result<ChangelogMode> IcebergSourceChangelogMode(const ConnectorContext& ctx) {
  RETURN_IF_ERROR(ParseIcebergReadOptions(ctx).status());
  return ChangelogMode::InsertOnly();
}

Result<std::unique_ptr<TableSource>> CreateIcebergSource(const ConnectorContext& ctx) {
  if (!ctx.metadata.empty()) {
    return Status::InvalidArgument("Table '" + ctx.table_name + "': the iceberg connector offers no metadata column '" +
                                   ctx.metadata[0].name + "'");
  }
  ASSIGN_OR_RETURN(IcebergReadOptions options, ParseIcebergReadOptions(ctx));
  ASSIGN_OR_RETURN(IcebergTableRef ref, IcebergTableRefFromContext(ctx));
  ASSIGN_OR_RETURN(std::shared_ptr<IcebergCatalog> catalog, OpenIcebergCatalog(ref.catalog));
  ASSIGN_OR_RETURN(LoadedTable table, OpenIcebergTable(catalog.get(), ref, ctx, /*create_if_missing=*/false));
  std::shared_ptr<FileIO> io = IcebergTableFileIO(catalog, ref.catalog, table);
  const TableMetadata& md = table.metadata;
  ASSIGN_OR_RETURN(IcebergReadSchema schema,
                   MakeIcebergReadSchema(md.CurrentSchema(), ctx.physical_schema, ctx.projection, ctx.table_name));
  auto deletes = std::make_shared<IcebergDeleteLoader>(io, md.CurrentSchema());
  std::optional<IcebergFilter> filter = PushedFilter(ctx, md.CurrentSchema());
  if (filter) schema.filter = std::make_shared<const IcebergFilter>(*filter);
  auto shared_schema = std::make_shared<const IcebergReadSchema>(std::move(schema));
  if (options.streaming) {
    TableIdentifier ident = ref.ident;
    IcebergMetadataLoader loader = [catalog, ident]() -> Result<TableMetadata> {
      ASSIGN_OR_RETURN(LoadedTable t, catalog->LoadTable(ident));
      return std::move(t.metadata);
    };
    return std::unique_ptr<TableSource>(std::make_unique<IcebergStreamingSource>(
        std::move(loader), std::move(deletes), std::move(shared_schema), options.stream, ctx.table_name));
  }
  std::optional<IcebergScanPruner> pruner;
  std::optional<IcebergScanMetrics> metrics;
  if (filter) {
    pruner.emplace(md, std::move(*filter));
    metrics.emplace();
  }
  ASSIGN_OR_RETURN(std::vector<FileScanTask> tasks,
                   PlanIcebergRead(io.get(), md, options, ctx.table_name, pruner ? &*pruner : nullptr,
                                   metrics ? &*metrics : nullptr));
  return std::unique_ptr<TableSource>(std::make_unique<IcebergTableSource>(
      std::move(deletes), std::move(shared_schema), std::move(tasks), options.limit, std::move(metrics)));
}

}  // namespace sluice
