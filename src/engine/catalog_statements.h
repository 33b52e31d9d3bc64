// The statements that change or show the session's catalogs rather than run a job: CREATE/DROP
// CATALOG, CREATE/DROP DATABASE, USE CATALOG, USE, and SHOW CATALOGS / DATABASES / TABLES / VIEWS /
// CURRENT CATALOG / CURRENT DATABASE, with Flink's result column names ('catalog name', 'database
// name', 'table name', 'view name', 'current catalog name', 'current database name').
//
// Threading: called from the session's thread.
#pragma once

#include <string>
#include <vector>

#include "common/status.h"

namespace sluice {

namespace ast {
struct Statement;
}
class Catalog;
class QueryResultHandler;

// Whether ExecuteCatalogStatement handles `stmt`.
bool IsCatalogStatement(const ast::Statement& stmt);

// Executes a catalog statement; listing statements stream their rows to `handler` (may be null) and
// return true, the others return false.
Result<bool> ExecuteCatalogStatement(const ast::Statement& stmt, Catalog* catalog, QueryResultHandler* handler);

// Streams `rows` of strings under the column `names` to `handler` as one insert-only result.
Status EmitStringRows(QueryResultHandler* handler, const std::vector<std::string>& names,
                      const std::vector<std::vector<std::string>>& rows);

}  // namespace sluice
