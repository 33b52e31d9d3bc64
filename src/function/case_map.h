// UPPER / LOWER of UTF-8 text as Flink's (Java's String.toUpperCase / toLowerCase in the root locale):
// every letter with a case form is mapped, not only ASCII ones.
//
// Threading: stateless functions (the C.UTF-8 locale object they read is made once, thread-safe).
#pragma once

#include <string>
#include <string_view>

namespace sluice {

// Appends `s` upper-cased (upper) or lower-cased to *out. Simple mappings come from the C library's
// C.UTF-8 tables (towupper_l / towlower_l); the multi-character mappings Java applies are added on top
// (upper: ß -> SS, the Latin and Armenian ligatures, ŉ, ǰ, ΐ, ΰ, և, ẖ..ẚ; lower: İ -> i̇ and the final
// sigma, σ -> ς at the end of a word). Bytes that are not valid UTF-8 are copied unchanged; ASCII text
// takes a fast path.
void AppendCaseMapped(std::string_view s, bool upper, std::string* out);

}  // namespace sluice
