// The sink side of a session's jobs: the checks of a sink table's persisted metadata columns, and the
// SinkWriters a SELECT's results go through (to a QueryResultHandler; in batch mode as the final table).
//
// Threading: called on the session's thread while it plans a job; the writers run on the job's thread.
#pragma once

#include <memory>

#include "common/status.h"

namespace sluice {

struct CatalogTable;
class ConnectorFactory;
class QueryResultHandler;
class SinkWriter;
struct ConnectorContext;

// A sink's persisted metadata columns (Flink's DynamicSinkUtils checks): each key must be one the
// connector writes. Sets ctx->metadata to them, in declared order.
Status AddSinkMetadata(const ConnectorFactory& factory, const CatalogTable& table, ConnectorContext* ctx);

// Adapts a QueryResultHandler (may be null: results dropped) to the SinkWriter interface, so SELECT
// results flow through the same Sink operator as INSERTs.
std::shared_ptr<SinkWriter> MakeCollectWriter(QueryResultHandler* handler);

// 'execution.runtime-mode' = 'batch': the job runs to its end and `inner` receives only the final table,
// insert-only, as Flink's batch execution of the same SQL.
std::shared_ptr<SinkWriter> MakeFinalResultWriter(std::shared_ptr<SinkWriter> inner);

}  // namespace sluice
