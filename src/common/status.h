// Status and Result<T>: the error channel of every fallible call in Sluice.
//
// A Status is either OK or carries a code and a human-readable message meant for the user (bad SQL,
// bad option, malformed record, missing file). Our own bugs are not Statuses; they are SLUICE_CHECKs
// (see check.h). Result<T> holds either a value or a non-OK Status, in the spirit of Arrow's
// arrow::Result. Both are cheap to move and [[nodiscard]]: ignoring an error must be written out, as
// `status.IgnoreError()`.
//
// Threading: values of these types are not shared between threads; they are plain values.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>

namespace sluice {

enum class StatusCode : unsigned char {
  kOk = 0,
  kInvalidArgument,  // bad option, bad value, bad record
  kParseError,       // SQL text that does not parse
  kBindError,        // SQL that parses but names something unknown or mistyped
  kPlanError,        // a query the planner refuses (e.g. a sink that cannot store its changes)
  kNotSupported,     // a construct Sluice parses but does not execute (yet)
  kNotFound,         // a missing file, table or option
  kIOError,          // the file system or network failed
  kRuntimeError,     // a failure while a job runs (e.g. arithmetic overflow, cast failure)
  kInternal,         // should not happen; reported rather than crashing when a user can see it
  kAborted,          // work abandoned on purpose (a checkpoint the job's final one made unnecessary)
};

std::string_view StatusCodeName(StatusCode code);

class [[nodiscard]] Status {
 public:
  Status() = default;
  Status(StatusCode code, std::string message);

  static Status OK() { return Status(); }
  static Status InvalidArgument(std::string msg) { return {StatusCode::kInvalidArgument, std::move(msg)}; }
  static Status ParseError(std::string msg) { return {StatusCode::kParseError, std::move(msg)}; }
  static Status BindError(std::string msg) { return {StatusCode::kBindError, std::move(msg)}; }
  static Status PlanError(std::string msg) { return {StatusCode::kPlanError, std::move(msg)}; }
  static Status NotSupported(std::string msg) { return {StatusCode::kNotSupported, std::move(msg)}; }
  static Status NotFound(std::string msg) { return {StatusCode::kNotFound, std::move(msg)}; }
  static Status IOError(std::string msg) { return {StatusCode::kIOError, std::move(msg)}; }
  static Status RuntimeError(std::string msg) { return {StatusCode::kRuntimeError, std::move(msg)}; }
  static Status Internal(std::string msg) { return {StatusCode::kInternal, std::move(msg)}; }
  static Status Aborted(std::string msg) { return {StatusCode::kAborted, std::move(msg)}; }

  bool ok() const { return state_ == nullptr; }
  StatusCode code() const { return state_ ? state_->code : StatusCode::kOk; }
  const std::string& message() const;
  // "<CodeName>: <message>", or "OK".
  std::string ToString() const;
  // Returns a copy whose message is prefixed with `context` and ": ", so callers can say where an
  // error happened (a file and line, an option key) without losing the original reason.
  Status WithContext(std::string_view context) const;
  void IgnoreError() const {}

 private:
  struct State {
    StatusCode code;
    std::string message;
  };
  // Null when OK, so an OK Status costs one pointer and no allocation.
  std::shared_ptr<const State> state_;
};

template <typename T>
class [[nodiscard]] Result {
 public:
  Result(T value) : storage_(std::move(value)) {}  // NOLINT: implicit by design, as arrow::Result
  Result(Status status) : storage_(std::move(status)) {}  // NOLINT
  bool ok() const { return std::holds_alternative<T>(storage_); }
  Status status() const { return ok() ? Status::OK() : std::get<Status>(storage_); }
  const T& value() const& { return std::get<T>(storage_); }
  T& value() & { return std::get<T>(storage_); }
  T&& value() && { return std::get<T>(std::move(storage_)); }
  const T& operator*() const& { return value(); }
  T& operator*() & { return value(); }
  const T* operator->() const { return &value(); }
  T* operator->() { return &value(); }
  T ValueOr(T fallback) && { return ok() ? std::move(value()) : std::move(fallback); }

 private:
  std::variant<T, Status> storage_;
};

}  // namespace sluice

#define SLUICE_CONCAT_IMPL(a, b) a##b
#define SLUICE_CONCAT(a, b) SLUICE_CONCAT_IMPL(a, b)

#define RETURN_IF_ERROR(expr)                         \
  do {                                                \
    ::sluice::Status _sluice_st = (expr);             \
    if (!_sluice_st.ok()) return _sluice_st;          \
  } while (0)

#define SLUICE_ASSIGN_OR_RETURN_IMPL(tmp, lhs, rexpr) \
  auto tmp = (rexpr);                                 \
  if (!tmp.ok()) return tmp.status();                 \
  lhs = std::move(tmp).value()

#define ASSIGN_OR_RETURN(lhs, rexpr) \
  SLUICE_ASSIGN_OR_RETURN_IMPL(SLUICE_CONCAT(_sluice_res_, __LINE__), lhs, rexpr)
