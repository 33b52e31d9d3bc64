// The 'avro-confluent' format (Flink's): Avro records in the Confluent wire format, a 0 byte, the
// writer schema's id in the schema registry (4 bytes, big-endian) and the record in Avro's binary
// encoding.
//
// Writing registers the table's schema (derived as formats/avro/avro_row.h says, or
// 'avro-confluent.schema') under 'avro-confluent.subject' (the kafka connectors default it to
// '<topic>-value' / '<topic>-key', as Flink's) on the first record and caches the id. Reading fetches
// each writer schema by id once (GET /schemas/ids/{id}) and resolves it to the table's schema by
// Avro's rules (formats/avro/avro_resolve.h): fields the writer added are skipped, fields it lacks
// take their default (NULL for a nullable column). A record with a bad magic byte, an id the
// registry does not know, a writer schema that does not resolve, or bytes that do not decode fails
// the job naming its topic, partition and offset, or is skipped and counted with
// 'avro-confluent.ignore-parse-errors' (a Sluice extension). An unreachable registry always fails.
//
// Threading: see formats/format.h.
#pragma once

#include <map>
#include <string>

#include "formats/format.h"

namespace sluice {

const FormatFactory& AvroConfluentFormatFactory();

// Flink's kafka connectors give the avro-confluent formats the subject '<topic>-value' or
// '<topic>-key' when 'avro-confluent.subject' is not set and the table names one topic. Sets it in
// `format_options` (keys without the 'key.'/'value.' prefix) for formats that take a subject.
void DefaultSchemaRegistrySubject(const FormatFactory& format, const std::string& topic, bool is_key,
                                  std::map<std::string, std::string>* format_options);

}  // namespace sluice
