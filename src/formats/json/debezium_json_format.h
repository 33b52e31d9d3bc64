// The 'debezium-json' format: Debezium's change events as JSON, read as a changelog and written
// from one (Flink's debezium-json format semantics).
//
// Reading: each record is an envelope {"before": {...}, "after": {...}, "op": "c", ...} (with
// 'debezium-json.schema-include' = 'true': {"schema": {...}, "payload": {<envelope>}}); other
// envelope fields ("source", "ts_ms", "transaction") are skipped. "c" (create) and "r" (snapshot
// read) give +I(after); "u" gives -U(before) then +U(after), always adjacent in one chunk; "d" gives
// -D(before). The row images are decoded by the json format (fields by name, missing fields NULL,
// TIMESTAMP text per 'debezium-json.timestamp-format.standard'). A malformed record — bad JSON, an
// unknown or missing "op", a null "before" of an update or delete (Debezium's Postgres connector
// without REPLICA IDENTITY FULL), a null "after" of a create or update — fails with its file, line
// and reason, or is skipped and counted with 'debezium-json.ignore-parse-errors'.
//
// Writing: one record per change, as Flink writes them: +I and +U as {"before":null,"after":{row},
// "op":"c"}, -U and -D as {"before":{row},"after":null,"op":"d"} (an update is a delete followed by
// a create; Flink does not merge the pair into one "u"). Values are written as the json format
// writes them. 'debezium-json.schema-include' is refused for writing, as Flink refuses it.
//
// The format's changelog mode is every RowKind, so a filesystem or kafka table in this format is
// a changelog source and a sink that accepts updating queries.
//
// Threading: see formats/format.h.
#pragma once

#include "formats/format.h"

namespace sluice {

const FormatFactory& DebeziumJsonFormatFactory();

}  // namespace sluice
