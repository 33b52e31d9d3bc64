// The 'csv' format: RFC-4180 records with Flink's csv options, fields by position (no header).
//
// Reading: each record's fields map to the table's physical columns by position; the query's
// projection picks the columns to parse. A quoted field may hold the delimiter, doubled quotes and
// newlines (so records are cut quote-aware, not at every '\n'). An empty unquoted field is NULL for
// non-string columns; 'csv.null-literal' names text read as NULL for any column. ARRAY columns are
// split on 'csv.array-element-delimiter'. Scalars are parsed by formats/text_values.h (the same
// parsers as json's string values). Errors and skipping follow the json format.
//
// Writing: one record per row, the text Flink 2.2's csv format writes (docs/formats.md): numbers and
// booleans as they are, DECIMAL plain at the type's scale (normalised with
// 'csv.write-bigdecimal-in-scientific-notation' = 'true'), TIMESTAMP "2026-08-15 05:00:00.5" and TIME
// "05:00:00.5" with the shortest fraction; text fields are quoted by Jackson's loose rule (longer than
// 24 characters, or holding a character below max(delimiter, quote) + 1 or the escape character), the
// quote and escape characters doubled inside quotes. NULL is written as 'csv.null-literal' (empty by
// default).
//
// Threading: see formats/format.h.
#pragma once

#include "formats/format.h"

namespace sluice {

const FormatFactory& CsvFormatFactory();

// The encoder of the CLI's `--format csv` result listing: the csv format's defaults, except TIME and
// TIMESTAMP keep the type's precision and only fields holding ',', '"' or a line break are quoted
// (a listing, as the jsonl one, not Flink's file text).
[[nodiscard]] Result<std::unique_ptr<RecordEncoder>> CreateCsvListingEncoder(const Schema& schema);

}  // namespace sluice
