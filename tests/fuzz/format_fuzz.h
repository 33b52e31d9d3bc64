// The shared body of the format fuzz targets (json_fuzz, csv_fuzz, debezium_json_fuzz): decodes a
// buffer of records against a fixed schema, as the filesystem source does, and writes the decoded rows
// back with the format's encoder.
//
// Input layout: the first byte chooses options (bit 0: '<format>.ignore-parse-errors'; bit 1 to 6:
// format-specific, see FormatFuzzOptions in format_fuzz.cc; bit 7: records are handed over padded, as
// the filesystem reader does, so a decoder that reads past a record's end is caught by ASan), the rest
// is the content of a file. Records are cut with the decoder's SplitRecords and decoded a few at a
// time into chunks, so the chunking paths (a -U/+U pair that must stay together) run too.
//
// The schema has the types whose decoding is involved: nested ROW/ARRAY/MAP, DECIMAL (small and 38
// digits), TIMESTAMP and TIMESTAMP_LTZ, DATE, TIME, BYTES and the integer widths (csv: the scalars and
// arrays of scalars, as csv supports no ROW or MAP).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace sluice {

// Runs one input through format `format` ("json", "csv", "debezium-json"). Errors are expected (bad
// records); crashes, sanitizer reports and hangs are the findings. Returns 0 (libFuzzer's convention).
int FuzzFormatDecode(const std::string& format, const uint8_t* data, size_t size);

}  // namespace sluice
