// The 'debezium-avro-confluent' format (Flink's): Debezium change events as Avro records in the
// Confluent wire format (confluent_wire.h). The table's row is read from and written to the envelope
// ROW<before ROW<columns>, after ROW<columns>, op STRING> (fields of the writer's envelope beyond these,
// such as Debezium's 'source' and 'ts_ms', are skipped by schema resolution).
//
// Reading: op 'c' or 'r' -> +I(after); 'u' -> -U(before), +U(after); 'd' -> -D(before); a null "before"
// of an update or delete, or another op, is a malformed record (fails, or is skipped and counted with
// 'debezium-avro-confluent.ignore-parse-errors', a Sluice extension). Writing: +I and +U as op 'c' with
// "after", -U and -D as op 'd' with "before", as Flink's serializer does. The registered schema is the
// envelope record (Flink registers it inside a ["null", record] union; readers resolve either).
//
// Threading: see formats/format.h.
#pragma once

#include "formats/format.h"

namespace sluice {

const FormatFactory& DebeziumAvroConfluentFormatFactory();

}  // namespace sluice
