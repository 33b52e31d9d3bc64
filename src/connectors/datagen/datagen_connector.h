// The 'datagen' connector: Flink's DataGen source (same option keys and semantics), generating
// columnar chunks directly.
//
// Options (Flink's): 'rows-per-second' (default 10000; the emit rate, throttled on processing time),
// 'number-of-rows' (bounded when set), and per field 'fields.#.kind' (random | sequence),
// 'fields.#.min' / 'fields.#.max' (numbers, intervals), 'fields.#.max-past' (timestamps: values
// lie in [now - max-past, now]), 'fields.#.length' (strings: default 100; ARRAY/MAP/MULTISET:
// number of elements, default 3), 'fields.#.var-len' (VARCHAR/VARBINARY: a random length in
// [1, length]), 'fields.#.start' / 'fields.#.end' (sequence, both required, inclusive),
// 'fields.#.null-rate' (probability of NULL). Nested fields are named by path, as Flink's:
// 'fields.buyer.first_name.length', 'fields.tags.element.length', 'fields.m.key.min'.
// Sluice addition: 'sluice.seed' (LONG, default 0) seeds the generator so runs repeat. A random value
// is a function of the seed, its field (the column's position and the nested path) and its row
// number alone, so which columns a query reads, how many rows each read asks for, or a restore from
// a checkpoint (the position is the row number) never changes the values.
//
// Semantics as Flink's: random strings are lowercase hex; DATE and TIME are the current date/time
// (UTC here, from the injected clock); a table with a sequence field ends when the first sequence
// completes (or at 'number-of-rows', whichever is first), but is bounded (readable in batch mode, as
// a lookup table) only with 'number-of-rows', as Flink's DataGenTableSource. One split (Flink's
// sequences are split across subtasks; Sluice reads a datagen table with one split).
//
// Threading: the factory is stateless; a split is read by one thread.
#pragma once

#include <memory>

#include "connectors/connector.h"
#include "connectors/datagen/generator_timing.h"

namespace sluice {

std::unique_ptr<ConnectorFactory> MakeDatagenConnectorFactory();
// With an injected clock and sleep (tests; see generator_timing.h).
std::unique_ptr<ConnectorFactory> MakeDatagenConnectorFactory(GeneratorTiming timing);

}  // namespace sluice
