// The 'raw' format (Flink's): a table of one physical column whose value is the whole record, as
// bytes. CHAR/VARCHAR are the string's bytes in 'raw.charset' (UTF-8; the only charset Sluice
// supports), BINARY/VARBINARY the bytes themselves, BOOLEAN one byte (0 or 1), TINYINT, SMALLINT,
// INT, BIGINT, FLOAT and DOUBLE their fixed-width two's complement / IEEE 754 bytes in
// 'raw.endianness' ('big-endian', the default, or 'little-endian'). A record of the wrong size for a
// fixed-width type fails naming its source and size.
//
// A NULL value cannot be written (Flink writes a Kafka tombstone; Sluice's sink has no null message
// yet) and fails the write naming the column.
//
// Threading: see formats/format.h.
#pragma once

#include "formats/format.h"

namespace sluice {

const FormatFactory& RawFormatFactory();

}  // namespace sluice
