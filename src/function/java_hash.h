// Java's hashCode of SQL values, as Flink's generated code computes it, and the HASH_CODE function
// built on it (the bucket Flink's split DISTINCT aggregates use: Math.abs of the boxed value's
// hashCode). One place for every type's Java hash, so HASH_CODE's forms agree with each other and
// with Flink byte for byte.
//
// Threading: stateless functions.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string_view>

#include "common/status.h"

namespace sluice {
class LogicalType;
struct ScalarFunction;
class Vector;
}  // namespace sluice

namespace sluice::fn {

struct CallInfo;

// Java's String.hashCode of UTF-8 text, over its UTF-16 code units (a code point above U+FFFF
// counts as its surrogate pair).
int32_t JavaHashCode(std::string_view s);

// Java's BigInteger.hashCode of `v`: over its magnitude's 32-bit words, most significant first
// (h = 31 * h + word), times its sign.
int32_t JavaBigIntegerHash(__int128 v);

// Whether JavaHashOf hashes values of `t` (DECIMAL, TIMESTAMP, TIMESTAMP_LTZ, FLOAT, DOUBLE,
// BOOLEAN, DATE, TIME); strings and integral types take JavaHashCode and the boxed integers' hash.
bool HashedAsJavaObject(const LogicalType& t);

// Java's hashCode of the value at row i of `v`, whose type HashedAsJavaObject accepts. The row must
// not be NULL.
int32_t JavaHashOf(const Vector& v, size_t i);

// Resolves HASH_CODE(x) for a string, integral or HashedAsJavaObject argument: Java's hashCode of the
// value made non-negative as Math.abs does (Integer.MIN_VALUE stays negative).
Result<std::shared_ptr<ScalarFunction>> ResolveHashCode(const CallInfo& c);

}  // namespace sluice::fn
