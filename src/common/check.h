// SLUICE_CHECK and friends: assertions for our own invariants (never for user input).
//
// A failed check prints the expression, both operands where there are two, and the place, then
// aborts. User-facing problems must return a Status instead (house rule 3).
#pragma once

#include <sstream>
#include <string>

namespace sluice::internal {
[[noreturn]] void CheckFailed(const char* file, int line, const std::string& what);
}  // namespace sluice::internal

#define SLUICE_CHECK(cond)                                                                   \
  do {                                                                                       \
    if (!(cond)) [[unlikely]] ::sluice::internal::CheckFailed(__FILE__, __LINE__, #cond);    \
  } while (0)

#define SLUICE_CHECK_OP(a, b, op)                                                             \
  do {                                                                                        \
    const auto& _sl_a = (a);                                                                  \
    const auto& _sl_b = (b);                                                                  \
    if (!(_sl_a op _sl_b)) [[unlikely]] {                                                     \
      std::ostringstream _sl_os;                                                              \
      _sl_os << #a " " #op " " #b " (" << _sl_a << " vs " << _sl_b << ")";                    \
      ::sluice::internal::CheckFailed(__FILE__, __LINE__, _sl_os.str());                      \
    }                                                                                         \
  } while (0)

#define SLUICE_CHECK_EQ(a, b) SLUICE_CHECK_OP(a, b, ==)
#define SLUICE_CHECK_NE(a, b) SLUICE_CHECK_OP(a, b, !=)
#define SLUICE_CHECK_LT(a, b) SLUICE_CHECK_OP(a, b, <)
#define SLUICE_CHECK_LE(a, b) SLUICE_CHECK_OP(a, b, <=)
#define SLUICE_CHECK_GE(a, b) SLUICE_CHECK_OP(a, b, >=)

#define SLUICE_UNREACHABLE() ::sluice::internal::CheckFailed(__FILE__, __LINE__, "unreachable")
