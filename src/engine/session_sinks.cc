#include "engine/session_sinks.h"

#include <string>
#include <utility>
#include <vector>

#include "catalog/catalog.h"
#include "connectors/connector.h"
#include "engine/result_table.h"
#include "engine/session.h"

namespace sluice {

namespace {

class CollectWriter final : public SinkWriter {
 public:
  explicit CollectWriter(QueryResultHandler* handler) : handler_(handler) {}
  Status Write(const Chunk& chunk) override { return handler_ ? handler_->Changes(chunk) : Status::OK(); }
  Status Finish() override { return Status::OK(); }

 private:
  QueryResultHandler* handler_;
};

class FinalResultWriter final : public SinkWriter {
 public:
  explicit FinalResultWriter(std::shared_ptr<SinkWriter> inner) : inner_(std::move(inner)) {}
  Status Write(const Chunk& chunk) override {
    table_.Apply(chunk);
    return Status::OK();
  }
  Status Finish() override {
    for (const Chunk& out : table_.Chunks()) RETURN_IF_ERROR(inner_->Write(out));
    return inner_->Finish();
  }

 private:
  std::shared_ptr<SinkWriter> inner_;
  MaterializedTable table_;
};

}  // namespace

Status AddSinkMetadata(const ConnectorFactory& factory, const CatalogTable& table, ConnectorContext* ctx) {
  const std::vector<Field> writable = factory.writable_metadata();
  for (size_t i : table.persisted_columns()) {
    const CatalogColumn& c = table.columns[i];
    if (c.kind != ast::ColumnKind::kMetadata) continue;
    if (writable.empty()) {
      return Status::PlanError("Table '" + table.path.FullName() +
                               "' declares persistable metadata columns, but the underlying DynamicTableSink doesn't "
                               "implement the SupportsWritingMetadata interface. If the column should not be "
                               "persisted, it can be declared with the VIRTUAL keyword.");
    }
    bool found = false;
    std::string keys;
    for (const Field& w : writable) {
      found = found || w.name == c.metadata_key;
      keys += "\n" + w.name;
    }
    if (!found) {
      return Status::PlanError("Invalid metadata key '" + c.metadata_key + "' in column '" + c.name + "' of table '" +
                               table.path.FullName() + "'. The DynamicTableSink of connector '" + table.connector() +
                               "' supports the following metadata keys for writing:" + keys);
    }
    ctx->metadata.push_back({c.metadata_key, c.type.WithTimeAttribute(TimeAttribute::kNone)});
  }
  return Status::OK();
}

std::shared_ptr<SinkWriter> MakeCollectWriter(QueryResultHandler* handler) {
  return std::make_shared<CollectWriter>(handler);
}

std::shared_ptr<SinkWriter> MakeFinalResultWriter(std::shared_ptr<SinkWriter> inner) {
  return std::make_shared<FinalResultWriter>(std::move(inner));
}

}  // namespace sluice
