// ALTER TABLE and ALTER VIEW on the session's catalog, as Flink 2.2 executes them against its
// in-memory catalog, with its validation and wording (AlterSchemaConverter's "Failed to execute ALTER
// TABLE statement.\n..." messages):
//   ALTER TABLE t SET (...) / RESET (...)        the WITH options
//   ALTER TABLE t RENAME TO t2                    same catalog and database, as Flink's renameTable
//   ALTER TABLE t ADD / MODIFY components         columns (physical, computed, metadata; FIRST /
//                                                 AFTER c), a PRIMARY KEY, a WATERMARK
//   ALTER TABLE t DROP c, (c, ...) / PRIMARY KEY / CONSTRAINT k / WATERMARK
//   ALTER TABLE t RENAME c TO c2
//   ALTER VIEW v RENAME TO v2 / AS query
//
// A schema change builds the table's new CREATE TABLE statement (the old columns, watermark, key,
// comment, partitioning and options with the change applied) and binds it as CREATE TABLE binds
// one, so the new table is checked exactly like a created one; an error from that binding is
// prefixed as Flink prefixes its schema resolution's. The table object is replaced, never modified:
// running jobs keep the one they planned with. Unlike Flink (which refuses), temporary tables can be
// altered too (docs/flink_differences.md).
//
// Threading: called from the session's thread.
#pragma once

#include "common/status.h"

namespace sluice {

namespace ast {
struct AlterTable;
struct AlterView;
}  // namespace ast
class Binder;
class Catalog;

// `a`'s expressions may be moved into the new table's statement.
[[nodiscard]] Status ExecuteAlterTable(ast::AlterTable& a, Catalog* catalog, Binder* binder);
// `v`'s query may be moved into the new view's statement.
[[nodiscard]] Status ExecuteAlterView(ast::AlterView& v, Catalog* catalog, Binder* binder);

}  // namespace sluice
