// EvalContext: the session time zone and the current time for expression evaluation.
#include <cctype>
#include <chrono>

#include <date/tz.h>

#include "common/clock.h"
#include "common/time_util.h"
#include "function/evaluator.h"

namespace sluice {

namespace {

// "+08:00", "-5", "+0530" after a GMT/UTC prefix, or alone; returns false when not an offset.
bool ParseOffset(std::string_view s, int64_t* micros) {
  if (s.empty() || (s[0] != '+' && s[0] != '-')) return false;
  int sign = s[0] == '-' ? -1 : 1;
  s.remove_prefix(1);
  int h = 0, m = 0;
  size_t i = 0;
  int digits = 0;
  while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i])) && digits < 2) {
    h = h * 10 + (s[i] - '0');
    ++i;
    ++digits;
  }
  if (digits == 0) return false;
  if (i < s.size() && s[i] == ':') ++i;
  int mdigits = 0;
  while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i])) && mdigits < 2) {
    m = m * 10 + (s[i] - '0');
    ++i;
    ++mdigits;
  }
  if (i != s.size() || h > 18 || m > 59 || (mdigits != 0 && mdigits != 2)) return false;
  *micros = sign * (h * kMicrosPerHour + m * kMicrosPerMinute);
  return true;
}

}  // namespace

Status ResolveTimeZone(const std::string& name, const date::time_zone** zone, int64_t* fixed_offset_micros) {
  *zone = nullptr;
  *fixed_offset_micros = 0;
  std::string upper;
  for (char c : name) upper.push_back(static_cast<char>(std::toupper(static_cast<unsigned char>(c))));
  if (upper.empty() || upper == "DEFAULT" || upper == "UTC" || upper == "GMT" || upper == "Z" || upper == "UT") {
    return Status::OK();
  }
  std::string_view rest = upper;
  for (std::string_view prefix : {"UTC", "GMT", "UT"}) {
    if (rest.substr(0, prefix.size()) == prefix) {
      rest.remove_prefix(prefix.size());
      break;
    }
  }
  if (ParseOffset(rest, fixed_offset_micros)) return Status::OK();
  try {
    *zone = date::locate_zone(name);
  } catch (const std::exception&) {
    return Status::InvalidArgument("Invalid time zone '" + name +
                                   "': expected an IANA name such as 'Asia/Singapore', 'UTC' or an offset such as "
                                   "'GMT+08:00'");
  }
  return Status::OK();
}

Result<std::unique_ptr<EvalContext>> EvalContext::Make(const std::string& time_zone_name, const Clock* clock) {
  auto ctx = std::make_unique<EvalContext>(clock);
  RETURN_IF_ERROR(ResolveTimeZone(time_zone_name, &ctx->time_zone, &ctx->fixed_offset_micros));
  std::string lower;
  for (char c : time_zone_name) lower.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
  ctx->time_zone_name = (time_zone_name.empty() || lower == "default") ? "UTC" : time_zone_name;
  ctx->RefreshNow();
  return ctx;
}

void EvalContext::RefreshNow() {
  if (clock != nullptr) now_micros = clock->NowMicros();
  failed_row = -1;
  failure_named = false;
}

int64_t EvalContext::OffsetAtUtc(int64_t utc_micros) const {
  if (time_zone == nullptr) return fixed_offset_micros;
  int64_t secs = FloorDiv(utc_micros, kMicrosPerSecond);
  if (secs >= cached_begin_ && secs < cached_end_) return cached_offset_ * kMicrosPerSecond;
  auto info = time_zone->get_info(date::sys_seconds(std::chrono::seconds(secs)));
  cached_begin_ = info.begin.time_since_epoch().count();
  cached_end_ = info.end.time_since_epoch().count();
  cached_offset_ = info.offset.count();
  return cached_offset_ * kMicrosPerSecond;
}

int64_t EvalContext::LocalToUtc(int64_t local_micros) const {
  if (time_zone == nullptr) return local_micros - fixed_offset_micros;
  int64_t secs = FloorDiv(local_micros, kMicrosPerSecond);
  // Fast path: the offset of the cached range, when local - offset lands inside that range.
  if (cached_begin_ < cached_end_) {
    int64_t utc = secs - cached_offset_;
    if (utc >= cached_begin_ + 86400 && utc < cached_end_ - 86400) return local_micros - cached_offset_ * kMicrosPerSecond;
  }
  auto info = time_zone->get_info(date::local_seconds(std::chrono::seconds(secs)));
  // Unique: its offset. Ambiguous (overlap): the earlier instant. Nonexistent (gap): shifted forward by
  // the gap, as java.time does; `first` is the offset before the transition in both cases.
  return local_micros - info.first.offset.count() * kMicrosPerSecond;
}

}  // namespace sluice
