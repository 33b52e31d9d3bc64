#include "common/status.h"

namespace sluice {

std::string_view StatusCodeName(StatusCode code) {
  switch (code) {
    case StatusCode::kOk: return "OK";
    case StatusCode::kInvalidArgument: return "Invalid argument";
    case StatusCode::kParseError: return "Parse error";
    case StatusCode::kBindError: return "Validation error";
    case StatusCode::kPlanError: return "Planning error";
    case StatusCode::kNotSupported: return "Not supported";
    case StatusCode::kNotFound: return "Not found";
    case StatusCode::kIOError: return "IO error";
    case StatusCode::kRuntimeError: return "Runtime error";
    case StatusCode::kInternal: return "Internal error";
    case StatusCode::kAborted: return "Aborted";
  }
  return "Unknown";
}

Status::Status(StatusCode code, std::string message) {
  if (code != StatusCode::kOk) state_ = std::make_shared<const State>(State{code, std::move(message)});
}

const std::string& Status::message() const {
  static const std::string kEmpty;
  return state_ ? state_->message : kEmpty;
}

std::string Status::ToString() const {
  if (ok()) return "OK";
  std::string out(StatusCodeName(code()));
  out += ": ";
  out += state_->message;
  return out;
}

Status Status::WithContext(std::string_view context) const {
  if (ok()) return *this;
  std::string msg(context);
  msg += ": ";
  msg += state_->message;
  return Status(state_->code, std::move(msg));
}

}  // namespace sluice
