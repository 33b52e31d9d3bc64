// The statements that change or show the session's catalogs rather than run a job: CREATE/DROP
// CATALOG, CREATE/DROP DATABASE, USE CATALOG, USE, SHOW CATALOGS / DATABASES / TABLES / VIEWS /
// CURRENT CATALOG / CURRENT DATABASE, DESCRIBE CATALOG [EXTENDED] and SHOW CREATE CATALOG, with
// Flink's result column names ('catalog name', 'database name', 'table name', 'view name', 'current
// catalog name', 'current database name', 'info name' / 'info value') and texts. A catalog's secret
// option values (credential, s3.secret-access-key, token, ...) are shown masked, as SHOW CREATE TABLE
// shows a table's (formats/format.h ShownOptionValue).
//
// Threading: called from the session's thread.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "common/status.h"

namespace sluice {

namespace ast {
struct Statement;
struct ShowCreate;
}
class Catalog;
class QueryResultHandler;

// Whether ExecuteCatalogStatement handles `stmt`.
bool IsCatalogStatement(const ast::Statement& stmt);

// Executes a catalog statement; listing statements stream their rows to `handler` (may be null) and
// return true, the others return false.
Result<bool> ExecuteCatalogStatement(const ast::Statement& stmt, Catalog* catalog, QueryResultHandler* handler);

// SHOW CREATE CATALOG: Flink's text (CREATE CATALOG `name`, its COMMENT, its options sorted by key).
Result<std::string> ShowCreateCatalog(const ast::ShowCreate& stmt, const Catalog& catalog);

// Streams `rows` of strings under the column `names` to `handler` as one insert-only result.
Status EmitStringRows(QueryResultHandler* handler, const std::vector<std::string>& names,
                      const std::vector<std::vector<std::string>>& rows);
// The same with NULLs (an unset optional).
Status EmitNullableStringRows(QueryResultHandler* handler, const std::vector<std::string>& names,
                      const std::vector<std::vector<std::optional<std::string>>>& rows);

}  // namespace sluice
