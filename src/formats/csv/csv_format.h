// The 'csv' format: RFC-4180 records with Flink's csv options, fields by position (no header).
//
// Reading: each record's fields map to the table's physical columns by position; the query's
// projection picks the columns to parse. A quoted field may hold the delimiter, doubled quotes and
// newlines (so records are cut quote-aware, not at every '\n'). An empty unquoted field is NULL for
// non-string columns; 'csv.null-literal' names text read as NULL for any column. ARRAY columns are
// split on 'csv.array-element-delimiter'. Scalars are parsed by formats/text_values.h (the same
// parsers as json's string values). Errors and skipping follow the json format.
//
// Writing: one record per row; fields are quoted only when they contain the delimiter, the quote,
// the escape character or a line break. NULL is written as 'csv.null-literal' (empty by default).
//
// Threading: see formats/format.h.
#pragma once

#include "formats/format.h"

namespace sluice {

const FormatFactory& CsvFormatFactory();

}  // namespace sluice
