// The 'print' connector (Flink's): a sink that writes every change as a line of text, as Flink's
// print sink does: "+I[SG-0042, 1, 2026-08-15 05:00:00.000]", "-U[...]", "+U[...]", "-D[...]",
// prefixed with "<print-identifier>> " when the option is set. Values use Flink's text forms
// (types/value_format.h); NULL prints as NULL. Accepts every kind of change.
//
// Options: 'print-identifier', 'standard-error' (write to the session's error stream instead of
// its output stream), 'sink.parallelism' (accepted; Sluice writes from one task).
//
// Threading: a writer is used by one thread; it writes whole chunks to the stream at once.
#pragma once

#include <string>

namespace sluice {

class Chunk;

// Appends row `row` of `chunk` as Flink's print sink writes it, without the identifier prefix and
// newline: "+I[a, 1]".
void AppendPrintRow(const Chunk& chunk, size_t row, std::string* out);

}  // namespace sluice
