// libFuzzer target: the 'debezium-json' format's decoder (and encoder) on arbitrary file content
// (tests/fuzz/format_fuzz.h; tests/fuzz/README.md).
#include <cstddef>
#include <cstdint>

#include "fuzz/format_fuzz.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  return sluice::FuzzFormatDecode("debezium-json", data, size);
}
